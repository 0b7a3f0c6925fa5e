"""Every change of a sheet's state moves its revision (a confirmation, a dispute settled, a
correction, its round locked or unlocked): a form checked before it meets the conflict page
when it is saved, never a silent save over the change."""

import uuid

import pytest
from django.urls import reverse

from scoring.models import ScoreSheet, SheetVersion
from scoring.services.locking import round_lock
from scoring.services.round_status import round_status_change
from scoring.services.sheets import sheet_confirm, sheet_correct
from tests.scoring.conftest import (
    Role,
    enter,
    make_entry,
    sheet_form_data,
    table_registrations,
)
from tournament.models import Round, Tournament

Status = ScoreSheet.Status


def _url(event, name):
    return reverse(f"scoring:{name}", args=[event["tournament"].slug, 1, 1])


def _checked(client, url: str, data: dict) -> dict:
    """The organiser's correction, checked: what Save sends next."""
    response = client.post(url, {**data, "action": "check"})
    assert response.context["preview"] is not None, response.context["form"].errors
    return {**data, "action": "save", "checked": response.context["checked"]}


def _correction(client, event, players) -> dict:
    """The organiser opens the correction page and checks other numbers than both entries."""
    page = client.get(_url(event, "correct"))
    revision = page.context["form"]["revision"].value()
    # Every sheet here adds up to 4 × 30,000 start points (WRC 2015 §4.1).
    data = sheet_form_data(players, points=(42300, 31000, 19000, 27700), revision=revision)
    return _checked(client, _url(event, "correct"), {**data, "reason": "Paper sheet read again"})


def test_a_dispute_settled_meanwhile_is_a_conflict_not_overwritten(client, event, players):
    users = event["users"]
    enter(event["rounds"][0], 1, make_entry(players), users[Role.REFEREE])
    other = make_entry(players, points=(42300, 31000, 27800, 18900))
    disputed = enter(event["rounds"][0], 1, other, users["referee2"]).sheet
    assert disputed.status == Status.DISPUTED
    client.force_login(users[Role.ORGANISER])
    save = _correction(client, event, players)
    # Meanwhile the head referee settles the dispute: version 1 is right.
    sheet_confirm(sheet=disputed, version_number=1, acting_user=users[Role.HEAD_REFEREE])
    response = client.post(_url(event, "correct"), save)
    assert response.status_code == 200
    assert "This sheet changed since you opened it" in response.context["error"]
    assert response.context["conflict"].lines[2].points == 27700  # version 1, confirmed
    sheet = ScoreSheet.objects.get()
    assert (sheet.status, sheet.current.number) == (Status.CONFIRMED, 1)
    assert SheetVersion.objects.count() == 2
    # Saving again from the conflict page is a deliberate choice, and works.
    again = {**save, "revision": response.context["form"]["revision"].value()}
    assert client.post(_url(event, "correct"), again).status_code == 302
    assert ScoreSheet.objects.get().current.number == 3


def test_a_round_locked_and_unlocked_meanwhile_is_a_conflict(client, event, players):
    users = event["users"]
    event["tournament"].confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    event["tournament"].save()
    round_ = event["rounds"][0]
    for table in (1, 2, 3):
        enter(round_, table, make_entry(table_registrations(round_, table)), users["referee"])
    client.force_login(users[Role.ORGANISER])
    save = _correction(client, event, players)
    # Another organiser locks the results, then unlocks the round to correct another table.
    assert round_lock(round_=round_, acting_user=users[Role.ORGANISER])
    round_status_change(
        round_=round_, status=Round.Status.FINISHED, acting_user=users[Role.ORGANISER]
    )
    response = client.post(_url(event, "correct"), save)
    assert response.status_code == 200
    assert "This sheet changed since you opened it" in response.context["error"]
    assert SheetVersion.objects.filter(sheet__table_number=1).count() == 1


@pytest.mark.parametrize("policy", ["second_official", "double_blind"])
def test_a_confirmation_moves_the_revision_and_keeps_the_version_numbers(event, players, policy):
    users = event["users"]
    event["tournament"].confirmation_policy = policy
    event["tournament"].save()
    enter(event["rounds"][0], 1, make_entry(players), users[Role.REFEREE])
    other = make_entry(players, points=(42300, 31000, 27800, 18900))
    sheet = enter(event["rounds"][0], 1, other, users["referee2"]).sheet
    assert sheet.revision == 2
    sheet = sheet_confirm(sheet=sheet, version_number=2, acting_user=users[Role.HEAD_REFEREE])
    assert sheet.revision == 3
    corrected = make_entry(players, points=(42300, 31000, 19000, 27700))
    outcome = sheet_correct(
        sheet=sheet,
        entry=corrected,
        token=uuid.uuid4(),
        revision=3,
        reason="Typo on the paper sheet",
        acting_user=users[Role.HEAD_REFEREE],
    )
    assert [v.number for v in SheetVersion.objects.order_by("number")] == [1, 2, 3]
    assert outcome.sheet.revision == 4
