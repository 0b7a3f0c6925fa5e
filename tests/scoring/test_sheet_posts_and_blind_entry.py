"""A sheet is saved only by the buttons its page has (Check, then Save); a blind first entry
stays hidden from the official who may still enter the sheet second, in the admin and in
the archive too; the penalty form says so when a player is not in the tournament."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from scoring.models import Penalty, ScoreSheet, SheetVersion
from tests.conftest import make_registration, make_tournament
from tests.scoring.conftest import (
    Role,
    enter,
    make_entry,
    sheet_form_data,
    table_registrations,
)
from tournament.models import Tournament

Status = ScoreSheet.Status
Policy = Tournament.ConfirmationPolicy


def _url(event, name="sheet"):
    return reverse(f"scoring:{name}", args=[event["tournament"].slug, 1, 1])


def _policy(event, policy: str) -> None:
    event["tournament"].confirmation_policy = policy
    event["tournament"].save()


@pytest.mark.parametrize("action", ["draft", "publish", ""])
def test_an_entry_no_button_sends_is_shown_again_not_saved(referee, event, players, action):
    # The final-score page has Check and Save only: "draft" skipped the Check and saved.
    data = {**sheet_form_data(players), "action": action}
    response = referee.post(_url(event), data)
    assert response.status_code == 400
    assert response.context["error"] == "This page cannot do that: check the sheet, then save it."
    assert response.context["form"]["E_points"].value() == "42300"  # the input is kept
    assert not SheetVersion.objects.exists()


@pytest.mark.parametrize("action", ["draft", "publish"])
def test_a_correction_no_button_sends_is_shown_again_not_saved(client, event, players, action):
    _policy(event, Policy.SINGLE)
    enter(event["rounds"][0], 1, make_entry(players), event["users"][Role.REFEREE])
    client.force_login(event["users"][Role.HEAD_REFEREE])
    data = sheet_form_data(players, points=(42300, 31000, 19000, 27700), revision=1)
    response = client.post(_url(event, "correct"), {**data, "reason": "x", "action": action})
    assert response.status_code == 400
    assert SheetVersion.objects.count() == 1


def test_hands_saved_part_way_still_save_part_way(referee, event, players):
    data = {
        **sheet_form_data(players),
        "hands-TOTAL_FORMS": "1",
        "hands-INITIAL_FORMS": "0",
        "hands-0-result": "ron",
        "hands-0-winner": "S",
        "hands-0-loser": "W",
        "hands-0-han": "3",
        "hands-0-fu": "30",
        "action": "draft",
    }
    assert referee.post(_url(event, "hands"), data).status_code == 302
    assert ScoreSheet.objects.get().status == Status.IN_PROGRESS


@pytest.fixture
def blind(event):
    """Double blind: the referee entered table 1; the organiser may enter it second."""
    _policy(event, Policy.DOUBLE_BLIND)
    organiser = event["users"][Role.ORGANISER]
    organiser.is_staff = True
    organiser.save()
    registrations = table_registrations(event["rounds"][0], 1)
    first = enter(event["rounds"][0], 1, make_entry(registrations), event["users"]["referee"])
    return {"organiser": organiser, "version": first.version, "players": registrations}


def test_the_admin_hides_a_blind_first_entry_from_the_second_official(client, event, blind):
    client.force_login(blind["organiser"])
    url = reverse("admin:scoring_sheetversion_change", args=[blind["version"].pk])
    page = client.get(url).content.decode()
    assert "42300" not in page
    assert "Hidden: blind double entry." in page
    # Once the organiser has entered it too (and both agree), the entry is shown.
    enter(event["rounds"][0], 1, make_entry(blind["players"]), blind["organiser"])
    assert ScoreSheet.objects.get().status == Status.CONFIRMED
    assert "42300" in client.get(url).content.decode()


def test_the_archive_waits_for_the_blind_second_entry(client, event, blind):
    client.force_login(blind["organiser"])
    url = reverse("staff:export", args=[event["tournament"].slug, "archive-json"])
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == reverse("staff:exports", args=[event["tournament"].slug])
    (message,) = [str(m) for m in get_messages(response.wsgi_request)]
    assert message.startswith("Blind double entry: the sheet of round 1, table 1 waits")
    enter(event["rounds"][0], 1, make_entry(blind["players"]), blind["organiser"])
    response = client.get(url)
    assert response.status_code == 200
    assert b'"riichi-tournament-archive"' in response.content


def test_the_archive_says_why_in_french(client, event, blind):
    client.force_login(blind["organiser"])
    url = reverse("staff:export", args=[event["tournament"].slug, "archive-json"])
    response = client.get(url, headers={"accept-language": "fr"})
    (message,) = [str(m) for m in get_messages(response.wsgi_request)]
    assert message.startswith(
        "Double saisie à l’aveugle : la feuille de la ronde 1, table 1 attend sa seconde saisie"
    )


def test_the_official_who_entered_first_gets_the_archive(client, event):
    # The policy hides another's entry only (scoring.policy.hidden_from).
    _policy(event, Policy.DOUBLE_BLIND)
    organiser = event["users"][Role.ORGANISER]
    enter(event["rounds"][0], 1, make_entry(table_registrations(event["rounds"][0], 1)), organiser)
    client.force_login(organiser)
    url = reverse("staff:export", args=[event["tournament"].slug, "archive-json"])
    assert client.get(url).status_code == 200


def test_a_player_of_another_tournament_is_not_in_this_one(client, event):
    client.force_login(event["users"][Role.HEAD_REFEREE])
    stranger = make_registration(make_tournament())
    url = reverse("scoring:penalties", args=[event["tournament"].slug])
    data = {"registration": stranger.pk, "kind": "discretionary", "points": "10", "reason": "x"}
    response = client.post(url, data)
    assert response.context["form"].errors["registration"] == [
        "This player is not in this tournament."
    ]
    assert not Penalty.objects.exists()
