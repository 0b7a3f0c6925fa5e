"""Score-sheet services: confirmation policies, disputes, corrections with history,
idempotent submissions, concurrent edits, round completion."""

import dataclasses
import uuid
from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied

from scoring.entries import SeatEntry, SheetEntry
from scoring.messages import message_for
from scoring.models import Confirmation, ScoreSheet, SheetVersion
from scoring.rules import Hand, RulesErrors
from scoring.selectors.standings import tournament_standings
from scoring.services.sheets import (
    SheetConflict,
    SheetError,
    sheet_confirm,
    sheet_correct,
    sheet_enter,
)
from tests.conftest import make_registration
from tests.scoring.conftest import Role, enter, make_entry, seat_round, table_registrations
from tournament.models import AuditEntry, Registration, Round, Tournament
from tournament.services.registrations import registration_reinstate

Status = ScoreSheet.Status
Policy = Tournament.ConfirmationPolicy


def _setup(event, policy=None):
    if policy:
        event["tournament"].confirmation_policy = policy
        event["tournament"].save()
    round_ = event["rounds"][0]
    round_.tournament = event["tournament"]
    return round_, table_registrations(round_, 1), event["users"]


def test_single_entry_policy_confirms_at_once(event):
    round_, players, users = _setup(event, Policy.SINGLE)
    outcome = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    assert outcome.sheet.status == Status.CONFIRMED
    assert Confirmation.objects.filter(version=outcome.version).count() == 1


def test_second_official_must_confirm_before_the_sheet_counts(event):
    round_, players, users = _setup(event, Policy.SECOND_OFFICIAL)
    outcome = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    assert outcome.sheet.status == Status.ENTERED
    standings = tournament_standings(event["tournament"])
    assert all(entry.total == 0 for entry in standings.entries)
    assert standings.provisional_rounds == {1}
    with pytest.raises(SheetError):
        sheet_confirm(sheet=outcome.sheet, version_number=1, acting_user=users[Role.REFEREE])
    sheet = sheet_confirm(sheet=outcome.sheet, version_number=1, acting_user=users["referee2"])
    assert sheet.status == Status.CONFIRMED
    # WRC 2015 §5.9.2: (42 300 - 30 000) / 1 000 + 15 = 27.3
    totals = {e.registration_id: e.total for e in tournament_standings(event["tournament"]).entries}
    assert totals[players[0].pk] == Fraction(273, 10)


def test_confirming_twice_is_harmless(event):
    round_, players, users = _setup(event, Policy.SECOND_OFFICIAL)
    outcome = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    sheet_confirm(sheet=outcome.sheet, version_number=1, acting_user=users["referee2"])
    sheet_confirm(sheet=outcome.sheet, version_number=1, acting_user=users["referee2"])
    assert Confirmation.objects.count() == 1


def test_blind_double_entry_that_agrees_confirms_the_sheet(event):
    round_, players, users = _setup(event, Policy.DOUBLE_BLIND)
    first = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    assert first.sheet.status == Status.ENTERED
    with pytest.raises(SheetError):
        sheet_confirm(sheet=first.sheet, version_number=1, acting_user=users["referee2"])
    second = enter(round_, 1, make_entry(players), users["referee2"])
    assert second.sheet.status == Status.CONFIRMED
    assert second.sheet.current == first.version
    assert Confirmation.objects.get().user == users["referee2"]


def test_blind_double_entry_mismatch_marks_the_table_disputed(event):
    round_, players, users = _setup(event, Policy.DOUBLE_BLIND)
    enter(round_, 1, make_entry(players), users[Role.REFEREE])
    other = make_entry(players, points=(42300, 31000, 19000, 27700))
    outcome = enter(round_, 1, other, users["referee2"])
    assert outcome.sheet.status == Status.DISPUTED
    assert outcome.sheet.versions.count() == 2
    # a disputed sheet counts for nobody until a head referee settles it
    standings = tournament_standings(event["tournament"])
    assert standings.entries[0].total == 0
    with pytest.raises(SheetError):
        enter(round_, 1, make_entry(players), users[Role.REFEREE])
    with pytest.raises(PermissionDenied):
        sheet_confirm(sheet=outcome.sheet, version_number=1, acting_user=users[Role.REFEREE])
    sheet = sheet_confirm(
        sheet=outcome.sheet, version_number=1, acting_user=users[Role.HEAD_REFEREE]
    )
    assert sheet.status == Status.CONFIRMED
    assert sheet.current.number == 1


def _hands_entry(players) -> SheetEntry:
    """One hand, South rons West for 3 han 30 fu: 3 900 (docs/rules.md §6.2), so the
    final points are 30 000 / 33 900 / 26 100 / 30 000 (WRC 2015 §4.1: 30 000 each); the
    time was up during it, which ends the game (WRC 2015 §8.2)."""
    return SheetEntry(
        kind="hands",
        seats=tuple(SeatEntry(registration_id=player.pk) for player in players),
        hands=(Hand(result="ron", winner="S", loser="W", han=3, fu=30, time_up=True),),
    )


@pytest.mark.parametrize("policy", [Policy.DOUBLE_BLIND, Policy.SECOND_OFFICIAL])
def test_an_entry_hand_by_hand_and_one_of_its_final_scores_agree(event, policy):
    # One official typed the hands, the other the final scores of the same paper sheet: the
    # results are the same, so there is nothing for a head referee to settle.
    round_, players, users = _setup(event, policy)
    first = enter(round_, 1, _hands_entry(players), users[Role.REFEREE])
    final = make_entry(players, points=(30000, 33900, 26100, 30000))
    second = enter(round_, 1, final, users["referee2"])
    assert second.sheet.status == Status.CONFIRMED
    assert second.sheet.current == first.version


def test_an_entry_hand_by_hand_and_final_scores_that_differ_are_disputed(event):
    # Same points, but the hand-by-hand entry has East 3 minutes late (WRC 2015 §7.2: −3).
    round_, players, users = _setup(event, Policy.DOUBLE_BLIND)
    enter(round_, 1, make_entry(players, points=(30000, 33900, 26100, 30000)), users["referee"])
    hands = _hands_entry(players)
    late = dataclasses.replace(
        hands, seats=(dataclasses.replace(hands.seats[0], late_minutes=3), *hands.seats[1:])
    )
    outcome = enter(round_, 1, late, users["referee2"])
    assert outcome.sheet.status == Status.DISPUTED


def test_hands_that_stop_mid_game_are_saved_only_part_way(event):
    # One hand of a WRC hanchan (the game ends after South 4, WRC 2015 §5.8): saved as a
    # finished sheet it would count as the whole hanchan, unless the time was up (§8.2).
    round_, players, users = _setup(event, Policy.SINGLE)
    entry = _hands_entry(players)
    unmarked = dataclasses.replace(
        entry, hands=(dataclasses.replace(entry.hands[0], time_up=False),)
    )
    with pytest.raises(RulesErrors) as refused:
        enter(round_, 1, unmarked, users[Role.REFEREE])
    assert [(error.code, error.field) for error in refused.value] == [("game_not_over", "hands[0]")]
    assert refused.value.errors[0].params == {"index": 1, "next_round": "E2", "dealer": "S"}
    assert not SheetVersion.objects.exists()
    draft = sheet_enter(
        round_=round_,
        table_number=1,
        entry=unmarked,
        token=uuid.uuid4(),
        revision=0,
        acting_user=users[Role.REFEREE],
        draft=True,
    )
    assert draft.sheet.status == Status.IN_PROGRESS
    assert enter(round_, 1, entry, users[Role.REFEREE]).sheet.status == Status.CONFIRMED


def test_two_entries_hand_by_hand_must_agree_hand_by_hand(event):
    # 2 han 60 fu also pays 3 900 (docs/rules.md §6.2), so the final points agree; the hands do
    # not, and one of the two officials mistyped the paper sheet.
    round_, players, users = _setup(event, Policy.DOUBLE_BLIND)
    enter(round_, 1, _hands_entry(players), users[Role.REFEREE])
    other = dataclasses.replace(
        _hands_entry(players),
        hands=(Hand(result="ron", winner="S", loser="W", han=2, fu=60, time_up=True),),
    )
    outcome = enter(round_, 1, other, users["referee2"])
    assert outcome.sheet.status == Status.DISPUTED


def test_a_dispute_is_not_settled_with_a_substitute_another_table_took_since(event):
    # One person plays one table a round (WRC 2015 §7.2: the substitute takes the absent
    # player's seat): a dispute's earlier version named the substitute, its later one let
    # them go, another table then took them; settling on the earlier version would put the
    # substitute at two tables.
    round_, players, users = _setup(event, Policy.SECOND_OFFICIAL)
    reserve = make_registration(event["tournament"], is_substitute=True)
    named = enter(round_, 1, make_entry(players, S={"substitute_id": reserve.pk}), users["referee"])
    enter(round_, 1, make_entry(players), users["referee2"])
    table_two = table_registrations(round_, 2)
    enter(round_, 2, make_entry(table_two, W={"substitute_id": reserve.pk}), users["referee"])
    sheet = ScoreSheet.objects.get(round=round_, table_number=1)
    with pytest.raises(SheetError, match=f"{reserve.player.display_name} .* table 2"):
        sheet_confirm(
            sheet=sheet, version_number=named.version.number, acting_user=users[Role.HEAD_REFEREE]
        )
    sheet.refresh_from_db()
    assert sheet.status == Status.DISPUTED
    # The later version, without the substitute, still settles it.
    settled = sheet_confirm(sheet=sheet, version_number=2, acting_user=users[Role.HEAD_REFEREE])
    assert settled.status == Status.CONFIRMED


def test_the_first_official_may_fix_their_own_entry_before_the_second(event):
    round_, players, users = _setup(event, Policy.DOUBLE_BLIND)
    enter(round_, 1, make_entry(players, points=(42300, 31000, 19000, 27700)), users["referee"])
    fixed = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    assert fixed.sheet.status == Status.ENTERED
    assert fixed.version.number == 2
    agreed = enter(round_, 1, make_entry(players), users["referee2"])
    assert agreed.sheet.status == Status.CONFIRMED


def test_a_confirmed_sheet_is_locked_and_corrected_only_by_a_head_referee(event):
    round_, players, users = _setup(event, Policy.SINGLE)
    outcome = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    with pytest.raises(SheetError):
        enter(round_, 1, make_entry(players, points=(42300, 31000, 19000, 27700)), users["referee"])
    corrected = make_entry(players, points=(42300, 31000, 19000, 27700))
    common = {"sheet": outcome.sheet, "entry": corrected, "revision": 1}
    with pytest.raises(PermissionDenied):
        sheet_correct(**common, token=uuid.uuid4(), reason="typo", acting_user=users["referee"])
    with pytest.raises(SheetError):
        sheet_correct(**common, token=uuid.uuid4(), reason="  ", acting_user=users["head_referee"])
    result = sheet_correct(
        **common,
        token=uuid.uuid4(),
        reason="West and North swapped on the paper sheet",
        acting_user=users[Role.HEAD_REFEREE],
    )
    assert result.sheet.status == Status.CONFIRMED
    versions = list(SheetVersion.objects.filter(sheet=result.sheet).order_by("number"))
    assert [v.action for v in versions] == ["entry", "correction"]
    assert versions[0].data["seats"][2]["points"] == 27700  # the original is kept as typed
    assert versions[1].reason == "West and North swapped on the paper sheet"
    assert versions[1].entered_by == users[Role.HEAD_REFEREE]
    audit = AuditEntry.objects.get(action="sheet.correction")
    assert audit.reason == "West and North swapped on the paper sheet"
    totals = {e.registration_id: e.total for e in tournament_standings(event["tournament"]).entries}
    assert totals[players[2].pk] == Fraction(-26)  # WRC 2015 §5.9.2: (19 000 - 30 000)/1 000 - 15


def test_the_same_submission_twice_stores_one_version(event):
    round_, players, users = _setup(event, Policy.SECOND_OFFICIAL)
    token = uuid.uuid4()
    kwargs = {
        "round_": round_,
        "table_number": 1,
        "entry": make_entry(players),
        "token": token,
        "revision": 0,
        "acting_user": users[Role.REFEREE],
    }
    first = sheet_enter(**kwargs)
    again = sheet_enter(**kwargs)  # a double click, or a retry after a lost connection
    assert first.created
    assert not again.created
    assert again.version == first.version
    assert SheetVersion.objects.count() == 1


def test_a_stale_revision_is_a_conflict_not_an_overwrite(event):
    round_, players, users = _setup(event, Policy.SECOND_OFFICIAL)
    enter(round_, 1, make_entry(players), users[Role.REFEREE], revision=0)
    with pytest.raises(SheetConflict) as conflict:
        enter(
            round_,
            1,
            make_entry(players, points=(42300, 31000, 19000, 27700)),
            users[Role.REFEREE],
            revision=0,
        )
    assert conflict.value.current.number == 1
    assert SheetVersion.objects.count() == 1


def test_a_sheet_the_rules_refuse_saves_nothing(event):
    round_, players, users = _setup(event)
    with pytest.raises(RulesErrors) as errors:
        enter(round_, 1, make_entry(players, points=(42300, 31000, 27700, 18000)), users["referee"])
    assert errors.value.codes == ("points_sum",)
    assert not SheetVersion.objects.exists()


def test_wrong_table_and_wrong_wind_are_refused(event):
    round_, players, users = _setup(event)
    stranger = table_registrations(round_, 2)[0]
    swapped = [players[1], players[0], stranger, players[3]]
    with pytest.raises(RulesErrors) as errors:
        enter(round_, 1, make_entry(swapped), users[Role.REFEREE])
    found = {(error.code, error.field) for error in errors.value}
    assert found == {
        ("seat_wrong_wind", "seats[0].player"),
        ("seat_wrong_wind", "seats[1].player"),
        ("seat_wrong_table", "seats[2].player"),
    }


def test_a_round_is_playing_from_its_first_sheet_and_finished_with_its_last(event):
    round_, _players, users = _setup(event, Policy.SINGLE)
    assert round_.status == Round.Status.SEATED
    for table in (1, 2):
        enter(round_, table, make_entry(table_registrations(round_, table)), users["referee"])
    round_.refresh_from_db()
    assert round_.status == Round.Status.PLAYING
    assert AuditEntry.objects.filter(action="round.start").count() == 1
    assert round_.ended_at is None
    enter(round_, 3, make_entry(table_registrations(round_, 3)), users["referee"])
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED
    assert round_.ended_at is not None  # shown in the round's admin page
    standings = tournament_standings(event["tournament"])
    assert standings.complete_rounds == {1}
    assert standings.provisional_rounds == set()


def test_no_entry_for_a_table_that_does_not_exist(event):
    round_, players, users = _setup(event)
    with pytest.raises(SheetError):
        enter(round_, 9, make_entry(players), users[Role.REFEREE])


def test_staff_of_another_tournament_cannot_enter(event, django_user_model):
    from tests.conftest import make_staff, make_tournament

    round_, players, _users = _setup(event)
    outsider = django_user_model.objects.create_user("outsider")
    make_staff(make_tournament(), outsider, Role.ORGANISER)
    with pytest.raises(PermissionDenied):
        enter(round_, 1, make_entry(players), outsider)


def _lock(round_):
    round_.status = Round.Status.LOCKED
    round_.save(update_fields=["status"])


def test_a_substitute_already_at_another_table_of_the_round_is_refused(event):
    round_, players, users = _setup(event, Policy.SINGLE)
    substitute = make_registration(event["tournament"], is_substitute=True)
    enter(round_, 1, make_entry(players, N={"substitute_id": substitute.pk}), users["referee"])
    table_2 = make_entry(table_registrations(round_, 2), S={"substitute_id": substitute.pk})
    with pytest.raises(RulesErrors) as errors:
        enter(round_, 2, table_2, users[Role.REFEREE])
    (error,) = errors.value
    assert (error.code, error.field, error.params) == (
        "substitute_elsewhere",
        "seats[1].substitute",
        {"table": 1},
    )
    assert message_for(error) == "This substitute already plays at table 1 in this round."
    assert not ScoreSheet.objects.filter(table_number=2, current__isnull=False).exists()
    assert SheetVersion.objects.count() == 1


def test_a_substitute_seated_in_the_round_cannot_replace_someone_else(event):
    # One person plays one table a round: a substitute the seating put at table 2 (to fill
    # the tables) plays that seat, not a seat at table 1.
    round_, players, users = _setup(event, Policy.SINGLE)
    seated = table_registrations(round_, 2)[3]
    Registration.objects.filter(pk=seated.pk).update(is_substitute=True)
    with pytest.raises(RulesErrors) as errors:
        enter(round_, 1, make_entry(players, N={"substitute_id": seated.pk}), users["referee"])
    (error,) = errors.value
    assert (error.code, error.field, error.params) == (
        "substitute_seated",
        "seats[3].substitute",
        {"table": 2},
    )
    assert message_for(error) == "This substitute is seated at table 2 in this round."
    assert not SheetVersion.objects.exists()


def test_the_same_substitute_may_play_in_another_round(event):
    round_, players, users = _setup(event, Policy.SINGLE)
    substitute = make_registration(event["tournament"], is_substitute=True)
    enter(round_, 1, make_entry(players, N={"substitute_id": substitute.pk}), users["referee"])
    round_2 = event["rounds"][1]
    seat_round(round_2, event["registrations"], shift=1)
    table_1 = make_entry(table_registrations(round_2, 1), E={"substitute_id": substitute.pk})
    outcome = enter(round_2, 1, table_1, users[Role.REFEREE])
    assert outcome.sheet.status == Status.CONFIRMED


def test_correcting_a_sheet_keeps_its_own_substitute(event):
    round_, players, users = _setup(event, Policy.SINGLE)
    substitute = make_registration(event["tournament"], is_substitute=True)
    with_substitute = {"N": {"substitute_id": substitute.pk}}
    outcome = enter(round_, 1, make_entry(players, **with_substitute), users["referee"])
    result = sheet_correct(
        sheet=outcome.sheet,
        entry=make_entry(players, points=(42300, 31000, 19000, 27700), **with_substitute),
        token=uuid.uuid4(),
        revision=1,
        reason="West and North swapped on the paper sheet",
        acting_user=users[Role.HEAD_REFEREE],
    )
    assert result.version.data["seats"][3]["substitute"] == substitute.pk


def test_only_the_current_version_of_another_sheet_holds_a_substitute(event):
    round_, players, users = _setup(event, Policy.SINGLE)
    substitute = make_registration(event["tournament"], is_substitute=True)
    outcome = enter(
        round_, 1, make_entry(players, N={"substitute_id": substitute.pk}), users["referee"]
    )
    sheet_correct(
        sheet=outcome.sheet,
        entry=make_entry(players),
        token=uuid.uuid4(),
        revision=1,
        reason="The registered North player did play",
        acting_user=users[Role.HEAD_REFEREE],
    )
    table_2 = make_entry(table_registrations(round_, 2), S={"substitute_id": substitute.pk})
    assert enter(round_, 2, table_2, users[Role.REFEREE]).sheet.status == Status.CONFIRMED


def test_a_locked_round_takes_no_new_sheet(event):
    round_, players, users = _setup(event, Policy.SINGLE)
    _lock(round_)
    with pytest.raises(SheetError) as error:
        enter(round_, 1, make_entry(players), users[Role.ORGANISER])
    assert str(error.value) == (
        "Round 1 is locked: its results are final. An organiser can unlock it."
    )
    assert not SheetVersion.objects.exists()
    assert not ScoreSheet.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="sheet.").exists()


def test_a_locked_round_takes_no_correction(event):
    round_, players, users = _setup(event, Policy.SINGLE)
    outcome = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    _lock(round_)
    with pytest.raises(SheetError, match="Round 1 is locked"):
        sheet_correct(
            sheet=outcome.sheet,
            entry=make_entry(players, points=(42300, 31000, 19000, 27700)),
            token=uuid.uuid4(),
            revision=1,
            reason="West and North swapped on the paper sheet",
            acting_user=users[Role.ORGANISER],
        )
    assert SheetVersion.objects.count() == 1
    assert ScoreSheet.objects.get().current == outcome.version


def test_a_locked_round_takes_no_confirmation_until_unlocked(event):
    round_, players, users = _setup(event, Policy.SECOND_OFFICIAL)
    outcome = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    _lock(round_)
    with pytest.raises(SheetError, match="Round 1 is locked"):
        sheet_confirm(sheet=outcome.sheet, version_number=1, acting_user=users["referee2"])
    assert ScoreSheet.objects.get().status == Status.ENTERED
    assert not Confirmation.objects.exists()
    assert SheetVersion.objects.count() == 1
    round_.status = Round.Status.PLAYING  # the organiser unlocks it in the admin
    round_.save(update_fields=["status"])
    sheet = sheet_confirm(sheet=outcome.sheet, version_number=1, acting_user=users["referee2"])
    assert sheet.status == Status.CONFIRMED


def _disqualify(registration: Registration) -> None:
    registration.status = Registration.Status.DISQUALIFIED
    registration.status_reason = "Collusion"
    registration.save()


def test_a_disqualified_player_cannot_score_a_seat(event):
    # WRC 2015 §7.1: a disqualified player plays no more; a substitute
    # takes the seat (§7.2) and the sheet then passes.
    round_, players, users = _setup(event, Policy.SINGLE)
    _disqualify(players[1])
    with pytest.raises(RulesErrors) as refused:
        enter(round_, 1, make_entry(players), users[Role.REFEREE])
    (error,) = refused.value.errors
    assert error.field == "seats[1].player"
    assert message_for(error) == (
        f"{players[1].player.display_name} is disqualified and plays no more (WRC 2015 §7.1): "
        "choose the substitute who played this seat."
    )
    substitute = make_registration(event["tournament"], is_substitute=True)
    enter(round_, 1, make_entry(players, S={"substitute_id": substitute.pk}), users["referee"])
    assert ScoreSheet.objects.get().status == Status.CONFIRMED


def test_a_reinstated_player_scores_their_seat_again(event):
    # WRC 2015 §7.1: only a disqualified player's seat needs a substitute;
    # once the disqualification is overturned the player plays it.
    round_, players, users = _setup(event, Policy.SINGLE)
    _disqualify(players[1])
    registration_reinstate(
        registration=players[1], reason="Appeal upheld", acting_user=users[Role.ORGANISER]
    )
    outcome = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    assert outcome.sheet.status == Status.CONFIRMED


def test_a_sheet_played_before_a_disqualification_can_still_be_corrected(event):
    # WRC 2015 §7.1: results already played stay on the other players' sheets.
    round_, players, users = _setup(event, Policy.SINGLE)
    outcome = enter(round_, 1, make_entry(players), users[Role.REFEREE])
    _disqualify(players[1])
    result = sheet_correct(
        sheet=outcome.sheet,
        entry=make_entry(players, points=(42300, 31000, 19000, 27700)),
        revision=1,
        token=uuid.uuid4(),
        reason="West and North swapped",
        acting_user=users[Role.HEAD_REFEREE],
    )
    assert result.sheet.status == Status.CONFIRMED
