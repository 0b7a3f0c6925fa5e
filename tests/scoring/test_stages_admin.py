"""Stages in the back office: added and changed through the audited services, the players
chosen at a tie on the cut line saved through theirs, the cut explained on the page, and the
action seating the stage's next round by its standings. A co-organiser of another
tournament sees none of it."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.models import Stage
from tests.conftest import admin_form_data, make_staff, make_tournament
from tests.scoring.stages import final_stage, play_two_rounds
from tournament.models import AuditEntry, Seat, TournamentStaff


@pytest.fixture
def played(tournament, organiser):
    return play_two_rounds(tournament, organiser)


def test_an_organiser_adds_a_stage_and_settles_the_tie_at_its_cut(admin_client, played):
    tournament, p, _rounds = played
    response = admin_client.post(
        reverse("admin:scoring_stage_add"),
        {
            "tournament": tournament.pk,
            "name": "Final",
            "first_round": 3,
            "cut_size": 3,
            "carry_over": "halve",
            "bonus": "",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    stage = Stage.objects.get(tournament=tournament)
    assert AuditEntry.objects.filter(action="stage.create").exists()
    change = reverse("admin:scoring_stage_change", args=[stage.pk])
    page = admin_client.get(change)
    assert "share a place across the cut line" in page.content.decode()
    data = admin_form_data(page)
    data["players"] = [p[1].pk]
    assert admin_client.post(change, data).status_code == 302
    stage.refresh_from_db()
    assert stage.chosen == [p[1].pk]
    assert AuditEntry.objects.filter(action="stage.choose").count() == 1
    page = admin_client.get(change).content.decode()
    assert f"the organiser chose {p[1].player}." in page


def test_a_bonus_policy_without_bonus_is_refused_on_its_field(admin_client, played):
    tournament, _p, _rounds = played
    response = admin_client.post(
        reverse("admin:scoring_stage_add"),
        {"tournament": tournament.pk, "name": "Final", "first_round": 3, "carry_over": "bonus"},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["bonus"] == [
        "Give the bonus of at least the 1st qualified player."
    ]
    assert not Stage.objects.exists()


def test_the_action_seats_the_stages_next_round(admin_client, played, organiser):
    tournament, p, rounds = played
    stage = final_stage(tournament, organiser)
    response = admin_client.post(
        reverse("admin:scoring_stage_changelist"),
        {"action": "seat_next_round", "_selected_action": [stage.pk]},
        follow=True,
    )
    assert "Final: round 3 seated by the standings." in response.content.decode()
    seated = Seat.objects.filter(round=rounds[2]).values_list("registration_id", flat=True)
    assert set(seated) == {p[4].pk, p[0].pk, p[1].pk, p[5].pk}


def test_another_tournaments_organiser_does_not_see_the_stage(client, played, organiser):
    tournament, _p, _rounds = played
    stage = final_stage(tournament, organiser)
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    make_staff(make_tournament(), other, TournamentStaff.Role.ORGANISER)
    client.force_login(other)
    assert client.get(reverse("admin:scoring_stage_changelist")).status_code == 200
    assert client.get(reverse("admin:scoring_stage_change", args=[stage.pk])).status_code == 302
