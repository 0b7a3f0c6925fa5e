"""The players' report from their table's page: the key of the table card opens one table of
one round until the round is locked or the card issued again; the report goes through the
referee's form and the same service, waits for an official, and disputes a sheet when it
differs; every write is audited as a table report."""

import uuid

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.models import RefereeCall, ScoreSheet, SheetVersion
from scoring.services.sheets import (
    TABLE_REPORT_ACTION,
    SheetError,
    sheet_confirm,
    sheet_enter,
)
from scoring.services.table_reports import table_key_reissue
from scoring.table_keys import table_key, table_of_key, table_path
from tests.conftest import make_tournament
from tests.scoring.conftest import (
    Role,
    check_and_save,
    enter,
    make_entry,
    sheet_form_data,
    table_registrations,
)
from tournament.models import AuditEntry, Round, Tournament

Status = ScoreSheet.Status
Policy = Tournament.ConfirmationPolicy


def _report(event, players, points=(42300, 31000, 27700, 19000), table=1):
    return sheet_enter(
        round_=event["rounds"][0],
        table_number=table,
        entry=make_entry(players, points),
        token=uuid.uuid4(),
        revision=max(
            ScoreSheet.objects.filter(table_number=table).values_list("revision", flat=True),
            default=0,
        ),
        acting_user=None,
        table_report=True,
    )


def _sheet() -> ScoreSheet:
    return ScoreSheet.objects.get(table_number=1)


# --- the service ---------------------------------------------------------------------------


def test_every_write_of_a_report_is_audited_as_a_table_report(event, players):
    # The first sheet of a seated round starts it: that write is the report's too.
    round_ = event["rounds"][0]
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.SEATED)
    round_.refresh_from_db()
    last = AuditEntry.objects.order_by("pk").values_list("pk", flat=True).last() or 0
    _report(event, players)
    written = AuditEntry.objects.filter(pk__gt=last)
    assert {entry.action for entry in written} == {"round.start", TABLE_REPORT_ACTION}
    assert {(entry.actor, entry.data.get("origin")) for entry in written} == {
        (None, "table report")
    }


@pytest.mark.parametrize("policy", [Policy.SINGLE, Policy.SECOND_OFFICIAL, Policy.DOUBLE_BLIND])
def test_a_table_report_waits_for_an_official_under_every_policy(event, players, policy):
    event["tournament"].confirmation_policy = policy
    event["tournament"].save()
    outcome = _report(event, players)
    assert outcome.sheet.status == Status.ENTERED
    assert outcome.version.entered_by is None
    assert outcome.version.is_table_report
    audit = AuditEntry.objects.get(action=TABLE_REPORT_ACTION)
    assert audit.actor is None
    assert audit.data["origin"] == "table report"
    assert audit.data["table"] == 1


def test_an_official_confirms_a_table_report(event, players):
    outcome = _report(event, players)
    sheet_confirm(sheet=outcome.sheet, version_number=1, acting_user=event["users"][Role.REFEREE])
    assert _sheet().status == Status.CONFIRMED
    assert _sheet().current.entered_by is None


def test_two_different_reports_dispute_the_sheet(event, players):
    _report(event, players)
    outcome = _report(event, players, points=(42300, 31000, 19000, 27700))
    assert outcome.sheet.status == Status.DISPUTED
    assert _sheet().current.number == 2


def test_two_equal_reports_confirm_nothing(event, players):
    _report(event, players)
    outcome = _report(event, players)
    assert outcome.sheet.status == Status.ENTERED
    assert _sheet().current.number == 1


def test_a_report_differing_from_an_officials_entry_disputes_it(event, players):
    enter(event["rounds"][0], 1, make_entry(players), event["users"][Role.REFEREE])
    _report(event, players, points=(42300, 31000, 19000, 27700))
    assert _sheet().status == Status.DISPUTED


def test_an_officials_blind_entry_that_agrees_confirms_a_report(event, players):
    event["tournament"].confirmation_policy = Policy.DOUBLE_BLIND
    event["tournament"].save()
    _report(event, players)
    enter(event["rounds"][0], 1, make_entry(players), event["users"][Role.REFEREE])
    assert _sheet().status == Status.CONFIRMED


def test_a_report_never_sets_aside_an_officials_hands_saved_part_way(event, players):
    draft = enter(
        event["rounds"][0], 1, make_entry(players), event["users"][Role.REFEREE], draft=True
    )
    assert draft.sheet.status == Status.IN_PROGRESS
    with pytest.raises(SheetError, match="An official is entering this table's sheet"):
        # Four final points adding up to 4 × 30,000 (WRC 2015 §4.1).
        _report(event, players, points=(40000, 30000, 30000, 20000))
    sheet = _sheet()
    assert (sheet.status, sheet.current) == (Status.IN_PROGRESS, draft.version)
    assert not AuditEntry.objects.filter(action=TABLE_REPORT_ACTION).exists()


def test_no_table_report_when_the_tournament_takes_none(event, players):
    event["tournament"].table_reports = False
    event["tournament"].save()
    with pytest.raises(SheetError):
        _report(event, players)
    assert not SheetVersion.objects.exists()


def test_a_table_report_is_made_by_no_account(event, players):
    with pytest.raises(PermissionDenied):
        enter(
            event["rounds"][0],
            1,
            make_entry(players),
            event["users"][Role.REFEREE],
            table_report=True,
        )


# --- the key -------------------------------------------------------------------------------


def test_a_key_opens_its_own_table_only(event):
    round_ = event["rounds"][0]
    access = table_of_key(event["tournament"], table_key(round_, 2))
    assert (access.round, access.table_number) == (round_, 2)
    other = make_tournament(slug="other-event")
    assert table_of_key(other, table_key(round_, 2)) is None
    key = table_key(round_, 2)
    assert (
        table_of_key(event["tournament"], key.replace(f"{round_.pk}.2.", f"{round_.pk}.3.")) is None
    )
    assert table_of_key(event["tournament"], table_key(round_, 9)) is None  # no table 9


def test_a_key_stops_when_the_round_is_locked(event):
    round_ = event["rounds"][0]
    key = table_key(round_, 1)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.LOCKED)
    assert table_of_key(event["tournament"], key) is None


def test_a_card_issued_again_revokes_the_old_key(event):
    round_ = event["rounds"][0]
    old = table_key(round_, 1)
    issue = table_key_reissue(
        round_=round_, table_number=1, acting_user=event["users"][Role.ORGANISER]
    )
    assert issue == 1
    assert table_of_key(event["tournament"], old) is None
    assert table_of_key(event["tournament"], table_key(round_, 1)) is not None
    assert AuditEntry.objects.filter(action="table_key.reissue").count() == 1


# --- the page ------------------------------------------------------------------------------


def test_the_table_page_shows_its_players_and_saves_a_report(client, event, players):
    url = table_path(event["rounds"][0], 1)
    page = client.get(url)
    assert page.status_code == 200
    for registration in players:
        assert registration.player.display_name in page.content.decode()
    other = table_registrations(event["rounds"][0], 2)[0].player.display_name
    assert other not in page.content.decode()  # no other table's player, not even in a list
    response = check_and_save(client, url, sheet_form_data(players))
    assert response.status_code == 302
    assert _sheet().status == Status.ENTERED
    assert AuditEntry.objects.filter(action=TABLE_REPORT_ACTION, actor=None).count() == 1
    shown = client.get(url)
    assert "Reported, awaiting an official" in shown.content.decode()


def test_the_table_page_gives_the_referee_forms_errors_keeping_the_input(client, event, players):
    url = table_path(event["rounds"][0], 1)
    data = sheet_form_data(players, points=(42300, 31000, 27700, 9000))
    data["note"] = "Sent by Zoé"
    response = client.post(url, {**data, "action": "check"})
    assert response.status_code == 200
    assert response.context["problems"]  # the sum of the points, in the referee's words
    assert response.context["form"]["N_points"].value() == "9000"
    assert response.context["form"]["note"].value() == "Sent by Zoé"
    assert not SheetVersion.objects.exists()
    dotted = client.post(url, {**sheet_form_data(players), "E_points": "42.300", "action": "check"})
    assert dotted.context["form"]["E_points"].errors == [
        "Enter the final points without a dot or comma: 25000, not 25.000."
    ]


def test_a_referee_called_half_way_through_a_report_loses_nothing_typed(client, event, players):
    # The players typed two scores, then a dispute: the call's page came back empty, and the
    # table typed the scores again while waiting for the referee.
    url = table_path(event["rounds"][0], 1)
    page = client.get(url).content.decode()
    assert 'form="sheet-form">' in page  # the call's reason and button go with the report
    data = sheet_form_data(players)
    data.update(S_points="", W_points="", N_points="", note="E and N disagree")
    response = client.post(url, {**data, "reason": "Points in dispute", "action": "call"})
    assert response.status_code == 200
    form = response.context["form"]
    assert (form["E_points"].value(), form["note"].value()) == ("42300", "E and N disagree")
    assert form["token"].value() == data["token"]  # one report, whenever it is sent
    assert not form.is_bound  # half-typed is no error: nothing said against it yet
    assert "A referee is called to your table." in response.content.decode()
    (call,) = RefereeCall.objects.all()
    assert call.reason == "Points in dispute"
    assert not SheetVersion.objects.exists()


def test_a_report_cannot_move_another_player_to_the_table(client, event, players):
    url = table_path(event["rounds"][0], 1)
    stranger = table_registrations(event["rounds"][0], 2)[0]
    data = sheet_form_data(players)
    data["E_player"] = str(stranger.pk)
    check_and_save(client, url, data)
    version = SheetVersion.objects.get()
    assert version.data["seats"][0]["registration"] == players[0].pk


def test_a_stale_or_altered_key_opens_nothing(client, event, players):
    round_ = event["rounds"][0]
    url = table_path(round_, 1)
    altered = url.replace(f"/{round_.pk}.1.", f"/{round_.pk}.2.")
    assert client.get(altered).status_code == 404
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.LOCKED)
    refused = client.post(url, {**sheet_form_data(players), "action": "check"})
    assert refused.status_code == 404
    assert players[0].player.display_name not in refused.content.decode()
    other = make_tournament(slug="other-event")
    assert client.get(url.replace(event["tournament"].slug, other.slug)).status_code == 404


def test_the_organiser_revokes_a_tables_card_from_the_round_page(client, event, players):
    round_ = event["rounds"][0]
    old = table_path(round_, 1)
    url = reverse("scoring:reissue_card", args=[event["tournament"].slug, 1, 1])
    client.force_login(event["users"][Role.HEAD_REFEREE])
    assert client.post(url).status_code == 403
    assert client.get(old).status_code == 200
    client.force_login(event["users"][Role.ORGANISER])
    page = client.get(reverse("scoring:round", args=[event["tournament"].slug, 1]))
    assert url in page.content.decode()
    assert client.post(url).status_code == 302
    client.logout()
    assert client.get(old).status_code == 404
    assert client.get(table_path(round_, 1)).status_code == 200


def test_a_hidden_tournament_hides_its_tables_but_to_its_staff(client, event):
    event["tournament"].is_public = False
    event["tournament"].save()
    url = table_path(event["rounds"][0], 1)
    assert client.get(url).status_code == 404
    client.force_login(event["users"][Role.REFEREE])
    assert client.get(url).status_code == 200


def test_the_organiser_switches_table_reports_off_in_the_admin(client, event, organiser):
    url = table_path(event["rounds"][0], 1)
    client.force_login(organiser)
    change = reverse("admin:tournament_tournament_change", args=[event["tournament"].pk])
    assert 'name="table_reports"' in client.get(change).content.decode()
    event["tournament"].table_reports = False
    event["tournament"].save()
    client.logout()
    assert client.get(url).status_code == 404
