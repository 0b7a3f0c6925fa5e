"""Rounds in the admin: they follow the tournament's number of rounds, and the organiser sets
each one's start time and Swiss flag."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.conftest import (
    admin_form_data,
    confirm_sheet,
    make_registrations,
    make_rounds,
    make_seats,
)
from tournament.models import Round, Tournament

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


def _played_round(tournament, organiser) -> Round:
    """Round 1 with its only table confirmed (single entry), hence finished."""
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    round_ = make_rounds(tournament)[0]
    make_seats(round_, make_registrations(tournament, 4))
    round_.status = Round.Status.PLAYING
    round_.save()
    confirm_sheet(round_, 1, organiser)
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED
    return round_


def _save_status(admin_client, round_, status):
    url = reverse("admin:tournament_round_change", args=[round_.pk])
    data = admin_form_data(admin_client.get(url))
    data["status"] = status
    return admin_client.post(url, data)


@pytest.mark.parametrize("status", [Round.Status.PLANNED, Round.Status.SEATED])
def test_a_round_with_score_sheets_cannot_go_back_before_playing(
    admin_client, tournament, organiser, status
):
    round_ = _played_round(tournament, organiser)
    response = _save_status(admin_client, round_, status)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["status"] == [
        f"This round already has score sheets, so it has been played: it can be “Playing”, "
        f"“Finished” or “Locked”, not “{status.label}”."
    ]
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED


def test_a_round_with_score_sheets_can_be_reopened_for_play(admin_client, tournament, organiser):
    round_ = _played_round(tournament, organiser)
    assert _save_status(admin_client, round_, Round.Status.PLAYING).status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.PLAYING


def test_a_seated_round_with_sheets_keeps_its_status_when_its_start_changes(
    admin_client, tournament, organiser
):
    # Sheets are entered while a round is still "seated" (it finishes by itself).
    round_ = _played_round(tournament, organiser)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.SEATED)
    url = reverse("admin:tournament_round_change", args=[round_.pk])
    data = admin_form_data(admin_client.get(url))
    data.update(scheduled_start_0="2026-12-01", scheduled_start_1="16:30:00")
    assert admin_client.post(url, data).status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.SEATED
    assert round_.scheduled_start is not None


def test_a_round_lists_each_table_s_seats_east_south_west_north(admin_client, tournament):
    round_ = make_rounds(tournament)[0]
    make_seats(round_, make_registrations(tournament, 8))
    page = admin_client.get(reverse("admin:tournament_round_change", args=[round_.pk]))
    (inline,) = page.context["inline_admin_formsets"]
    seats = [(form.instance.table_number, form.instance.wind) for form in inline.formset.forms]
    assert seats == [(table, wind) for table in (1, 2) for wind in "ESWN"]  # not E, N, S, W


def test_the_round_of_an_event_of_500_players_can_be_saved(admin_client, tournament):
    # The page posts two hidden fields per seat listed under the form: 504 players went past
    # Django's 1,000 fields, and saving the round (locking its results) answered a bare
    # "Bad Request (400)".
    round_ = make_rounds(tournament)[0]
    make_seats(round_, make_registrations(tournament, 504))
    assert _save_status(admin_client, round_, Round.Status.PLAYING).status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.PLAYING
