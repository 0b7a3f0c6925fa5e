"""Rounds in the admin: they follow the tournament's number of rounds, and the organiser sets
each one's start time and Swiss flag."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.conftest import admin_form_data, make_registrations, make_rounds, make_seats
from tournament.models import Round

pytestmark = pytest.mark.django_db


def test_rounds_are_not_added_by_hand(admin_client, tournament):
    # Adding one crashed on its missing number; rounds come from the number of rounds.
    assert admin_client.get(reverse("admin:tournament_round_add")).status_code == 403


def test_a_round_gets_its_scheduled_start_and_the_swiss_flag(admin_client, tournament):
    round_ = make_rounds(tournament)[-1]
    url = reverse("admin:tournament_round_change", args=[round_.pk])
    data = admin_form_data(admin_client.get(url))
    data.update(scheduled_start_0="2026-12-01", scheduled_start_1="16:30:00", is_swiss="on")
    assert admin_client.post(url, data).status_code == 302
    round_.refresh_from_db()
    assert round_.is_swiss
    start = timezone.localtime(round_.scheduled_start)
    assert (start.date(), start.time()) == (datetime.date(2026, 12, 1), datetime.time(16, 30))


def _save_rounds_count(admin_client, tournament, count):
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    data = admin_form_data(admin_client.get(url))
    data["rounds_count"] = str(count)
    return admin_client.post(url, data)


def test_fewer_rounds_removes_the_empty_rounds_beyond(admin_client, tournament):
    make_rounds(tournament, 9)
    tournament.rounds_count = 9
    tournament.save()
    assert _save_rounds_count(admin_client, tournament, 7).status_code == 302
    assert list(tournament.rounds.values_list("number", flat=True)) == list(range(1, 8))


def test_fewer_rounds_than_the_rounds_already_seated_is_refused(admin_client, tournament):
    rounds = make_rounds(tournament, 9)
    tournament.rounds_count = 9
    tournament.save()
    make_seats(rounds[7], make_registrations(tournament, 8))
    response = _save_rounds_count(admin_client, tournament, 6)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["rounds_count"] == [
        "Round 8 already has seating, score sheets or penalties, so the tournament cannot "
        "have fewer than 8 rounds."
    ]
    assert Round.objects.filter(tournament=tournament).count() == 9
    tournament.refresh_from_db()
    assert tournament.rounds_count == 9
