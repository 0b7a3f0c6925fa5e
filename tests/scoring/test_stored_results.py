"""The stored seat results (`SeatResult`) always equal a scoring of the sheets now, whatever
happened to the sheets, the penalties and the players; and `check_standings` says so."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.management import CommandError, call_command
from django.test import TestCase
from hypothesis import given
from hypothesis import strategies as st

from scoring.entries import SeatEntry, SheetEntry, score_stored, stored_seat_sheets
from scoring.models import Penalty, ScoreSheet, SeatResult
from scoring.rules import Hand, RulesErrors, to_units
from scoring.seat_results import differences
from scoring.selectors.standings import load_results, tournament_standings
from scoring.services.penalties import penalty_cancel, penalty_give, player_disqualify
from scoring.services.seat_results import seat_results_rebuild
from scoring.services.sheets import sheet_correct
from tests.conftest import (
    derandomised,
    make_registration,
    make_registrations,
    make_rounds,
    make_staff,
    make_tournament,
)
from tests.scoring.conftest import Role, enter, make_entry, seat_round, table_registrations
from tournament.models import Registration, Seat
from tournament.services.audit import audit_record
from tournament.services.players import player_update

EXAMPLES = 8
SUITE = derandomised(EXAMPLES)
# Final points adding up to 4 × 30,000 (WRC 2015 §5.9.2), ties included: split uma and oka
# give thirds and quarters, which the stored unit must hold exactly.
POINTS = [
    (42300, 31000, 27700, 19000),
    (30000, 30000, 30000, 30000),
    (40000, 40000, 20000, 20000),
    (50000, 30000, 30000, 10000),
    (61000, 25000, 25000, 9000),
]
OPERATIONS = [
    "confirm", "correct", "penalty", "cancel", "disqualify", "substitute", "reseat", "rename",
]  # fmt: skip


def _expected_totals(tournament) -> dict[int, Fraction]:
    """Every listed player's total scored from the sheets now, as the standings had it before
    results were stored: each confirmed sheet's scores plus the active penalties."""
    loaded = load_results(tournament)
    rules = tournament.get_rules()
    totals: dict[int, Fraction] = {}
    for sheet in loaded.sheets:
        if sheet.status != ScoreSheet.Status.CONFIRMED:
            continue
        result = score_stored(rules, sheet.current.kind, sheet.current.data)
        for seat, score in zip(loaded.entries[(sheet.round_id, sheet.table_number)].seats,
                               result.seats, strict=True):  # fmt: skip
            totals[seat.registration_id] = totals.get(seat.registration_id, 0) + score.score
    for penalty in Penalty.objects.filter(tournament=tournament).active():
        totals[penalty.registration_id] = totals.get(penalty.registration_id, 0) + Fraction(
            penalty.points
        )
    return {
        pk: total
        for pk, total in totals.items()
        if loaded.registrations[pk].is_ranked
    }  # fmt: skip


def _a_tournament(django_user_model):
    tournament = make_tournament(confirmation_policy="single", rounds_count=2)
    registrations = make_registrations(tournament, 12)
    rounds = make_rounds(tournament)
    seat_round(rounds[0], registrations)
    seat_round(rounds[1], registrations, shift=1)
    head = django_user_model.objects.create_user(f"head-{uuid.uuid4().hex[:8]}")
    make_staff(tournament, head, Role.HEAD_REFEREE)
    return tournament, rounds, head


def _apply(operation: str, choice: int, points, tournament, rounds, head) -> None:
    # As in a request: what a service does once its transaction commits is done.
    with TestCase.captureOnCommitCallbacks(execute=True):
        _applied(operation, choice, points, tournament, rounds, head)


def _applied(operation: str, choice: int, points, tournament, rounds, head) -> None:
    round_ = rounds[choice % 2]
    table = choice % 3 + 1
    sheet = ScoreSheet.objects.filter(round=round_, table_number=table).first()
    if not Seat.objects.filter(round=round_, table_number=table).exists():
        return  # a table taken out by a reseating
    seated = table_registrations(round_, table)
    if operation in ("confirm", "substitute") and sheet is None:
        changes = {}
        if operation == "substitute":
            substitute = make_registration(tournament, is_substitute=True)
            changes = {"N": {"substitute_id": substitute.pk}}
        enter(round_, table, make_entry(seated, points, **changes), head)
    elif operation == "correct" and sheet is not None:
        sheet_correct(
            sheet=sheet,
            entry=make_entry(seated, points, S={"chombo": choice % 2}),
            token=uuid.uuid4(),
            revision=sheet.revision,
            reason="Points read from the wrong column.",
            acting_user=head,
        )
    elif operation == "penalty":
        penalty_give(
            registration=seated[choice % 4],
            points=Decimal(choice % 7 + 1) / 2,
            reason="Phone rang.",
            acting_user=head,
        )
    elif operation == "cancel":
        given = Penalty.objects.filter(tournament=tournament).active().first()
        if given is not None:
            penalty_cancel(penalty=given, reason="Given to the wrong player.", acting_user=head)
    elif operation == "disqualify":
        registration = seated[choice % 4]
        registration.refresh_from_db()
        if registration.status != Registration.Status.DISQUALIFIED:
            player_disqualify(registration=registration, reason="Cheating.", acting_user=head)
    elif operation == "reseat" and not ScoreSheet.objects.filter(round=rounds[1]).exists():
        # New seats under new ids, audited, as the seating services write them.
        Seat.objects.filter(round=rounds[1]).delete()
        players = list(tournament.registrations.filter(is_substitute=False).order_by("pk"))
        # Sometimes a table fewer: four players lose their seat and get none.
        seat_round(rounds[1], players[: 8 if choice % 2 else 12], shift=choice % 5 + 1)
        audit_record(tournament=tournament, actor=head, action="seating.apply", obj=rounds[1])
    elif operation == "rename":
        # A substitute's name is written in the round they played for someone.
        registrations = list(tournament.registrations.order_by("pk"))
        player = registrations[choice % len(registrations)].player
        player_update(player=player, data={"last_name": f"Renamed {choice}"}, acting_user=head)


@pytest.mark.django_db
@SUITE
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 100), st.sampled_from(POINTS)),
        min_size=1,
        max_size=6,
    )
)
def test_stored_results_equal_a_scoring_of_the_sheets_after_any_changes(steps, django_user_model):
    tournament, rounds, head = _a_tournament(django_user_model)
    for operation, choice, points in steps:
        try:
            _apply(operation, choice, points, tournament, rounds, head)
        except RulesErrors:
            pass  # refused (a disqualified player at the table): nothing changed

        assert differences(tournament) == []
        # Built from the previous build plus the changed rows (`standings_input`)…
        standings = tournament_standings(tournament)
        totals = {entry.registration_id: entry.total for entry in standings.entries}
        assert {pk: totals[pk] for pk in _expected_totals(tournament)} == _expected_totals(
            tournament
        )
        # …is exactly what a build from every stored row gives.
        assert _from_scratch(tournament) == _compared(standings)


def _compared(standings) -> tuple:
    return (
        standings.round_numbers,
        standings.provisional_rounds,
        standings.complete_rounds,
        [(e.registration_id, e.place, e.total, e.penalty_total, e.shared_place, e.decided_by,
          e.withdrawn, e.player.display_name, e.team_or_club, dict(e.rounds))
         for e in standings.entries],
    )  # fmt: skip


def _from_scratch(tournament) -> tuple:
    from django.core.cache import cache

    cache.clear()
    return _compared(tournament_standings(tournament))


def test_check_standings_names_a_difference_and_repairs_it(event, capsys):
    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    enter(round_, 1, make_entry(table_registrations(round_, 1)), event["users"][Role.REFEREE])
    call_command("check_standings", slug=tournament.slug)
    assert "match the sheets" in capsys.readouterr().out
    SeatResult.objects.filter(wind="E").update(score=0)  # as a bug or a hand edit would
    with pytest.raises(CommandError, match="1 tournament"):
        call_command("check_standings", slug=tournament.slug)
    out = capsys.readouterr().out
    assert "missing: round 1, table 1, E" in out
    assert "not expected: round 1, table 1, E" in out
    call_command("check_standings", slug=tournament.slug, repair=True)
    assert differences(tournament) == []
    # (42,300 − 30,000) / 1,000 + 15 uma = +27.3 again (WRC 2015 §5.9.2)
    east = table_registrations(round_, 1)[0].pk
    totals = {e.registration_id: e.total for e in tournament_standings(tournament).entries}
    assert totals[east] == Fraction(273, 10)


def test_a_change_of_rules_scores_the_stored_results_again(event):
    from tournament.services.tournaments import tournament_update

    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    enter(round_, 1, make_entry(table_registrations(round_, 1)), event["users"][Role.REFEREE])
    before = set(SeatResult.objects.values_list("score", flat=True))
    tournament_update(
        tournament=tournament, data={"rule_options": {"uma": [30, 10, -10, -30]}}, acting_user=None
    )
    assert set(SeatResult.objects.values_list("score", flat=True)) != before
    assert differences(tournament) == []


def test_results_stored_again_wholesale_are_never_read_through_an_earlier_build(
    event, django_capture_on_commit_callbacks
):
    # A new build reuses an earlier build's rows by id; after a rebuild (an archive restored,
    # the rules changed) a restored database may give the new rows the ids of other rows.
    from django.core.cache import cache

    from scoring.services.seat_results import seat_results_rebuild

    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    enter(round_, 1, make_entry(table_registrations(round_, 1)), event["users"][Role.REFEREE])
    tournament_standings(tournament)
    tournament_standings(tournament, rounds_up_to=round_.number)
    built = [
        f"scoring:standings-built:{tournament.pk}",
        f"scoring:standings-built:{tournament.pk}:up-to-{round_.number}",
    ]
    assert all(cache.get(key) is not None for key in built)
    with django_capture_on_commit_callbacks(execute=True):
        seat_results_rebuild(tournament=tournament)
    assert all(cache.get(key) is None for key in built)


def test_polling_during_a_rebuild_gets_the_previous_version(event):
    from django.core.cache import cache

    from scoring.selectors.standings import standings_cache_key

    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    players = table_registrations(round_, 1)
    before = tournament_standings(tournament)
    enter(round_, 1, make_entry(players), event["users"][Role.REFEREE])
    # Another process is building the new version: its lock is held.
    assert cache.add(f"{standings_cache_key(tournament)}:building", 1, 30)
    polled = tournament_standings(tournament)
    assert polled.stale
    assert [e.total for e in polled.entries] == [e.total for e in before.entries]
    cache.delete(f"{standings_cache_key(tournament)}:building")
    fresh = tournament_standings(tournament)
    assert not fresh.stale
    assert {e.registration_id: e.total for e in fresh.entries}[players[0].pk] == Fraction(273, 10)


def test_the_rankings_page_says_it_is_a_few_seconds_old_during_a_rebuild(event, client):
    from django.core.cache import cache
    from django.urls import reverse

    from scoring.selectors.standings import standings_cache_key

    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    url = reverse("public:rankings_rows", args=[tournament.slug])
    fresh = client.get(url)
    enter(round_, 1, make_entry(table_registrations(round_, 1)), event["users"][Role.REFEREE])
    cache.add(f"{standings_cache_key(tournament)}:building", 1, 30)
    stale = client.get(url, headers={"If-None-Match": fresh["ETag"]})
    assert stale.status_code == 200
    assert "a few seconds old" in stale.content.decode()
    cache.delete(f"{standings_cache_key(tournament)}:building")
    again = client.get(url, headers={"If-None-Match": stale["ETag"]})
    assert again.status_code == 200  # the new table, not a 304 on the old one
    assert "a few seconds old" not in again.content.decode()


def test_exports_and_pairings_wait_for_the_new_standings_during_a_rebuild(event, monkeypatch):
    # A poll may show the previous version for a second; an export, a Swiss pairing or the
    # staff's standings decide or print with what they read, so they never take it.
    from django.core.cache import cache

    from scoring.exports.standings_xlsx import StandingsXlsx
    from scoring.selectors import standings as standings_module
    from tests.exports.conftest import open_xlsx

    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    players = table_registrations(round_, 1)
    tournament_standings(tournament)  # the previous version, cached
    enter(round_, 1, make_entry(players), event["users"][Role.REFEREE])
    lock = f"{standings_module.standings_cache_key(tournament)}:building"
    assert cache.add(lock, 1, 30)  # another process is building the new version
    monkeypatch.setattr(standings_module, "BUILD_WAIT_SECONDS", 0.2)
    assert tournament_standings(tournament).stale
    # East's 27.3 of make_entry's sheet (WRC 2015 §5.9.2 uma and oka, as above).
    _name, _type, content = StandingsXlsx(tournament).render()
    totals = [
        row[5] for row in open_xlsx(content)["Standings"].iter_rows(min_row=2, values_only=True)
    ]
    assert 27.3 in totals
    fresh = tournament_standings(tournament, fresh=True)
    assert not fresh.stale
    assert {e.registration_id: e.total for e in fresh.entries}[players[0].pk] == Fraction(273, 10)
    cache.delete(lock)


def test_after_one_sheet_a_build_reads_only_its_players_rows(event):
    # Seats and stored results are never changed, only replaced under new ids: the next
    # build reads the ids, then every seat and result of the sheet's four players, and takes
    # the other players' rounds from the previous build, not the whole tournament's again.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    referee = event["users"][Role.REFEREE]
    enter(round_, 1, make_entry(table_registrations(round_, 1)), referee)
    tournament_standings(tournament)
    players = table_registrations(round_, 2)
    enter(round_, 2, make_entry(players), referee)
    with CaptureQueriesContext(connection) as queries:
        standings = tournament_standings(tournament)
    # Every query that reads seats or results row by row (their winds), and whose rows.
    read = [q["sql"] for q in queries.captured_queries if '"wind"' in q["sql"]]
    assert len(read) == 1
    chosen = re.findall(r'"registration_id" IN \(([^)]*)\)', read[0])
    assert chosen
    assert all({int(pk) for pk in ids.split(",")} == {p.pk for p in players} for ids in chosen)
    # 42,300 at table 2's East: (42,300 − 30,000) / 1,000 + 15 uma = +27.3 (WRC 2015 §5.9.2)
    assert {e.registration_id: e.total for e in standings.entries}[players[0].pk] == Fraction(
        273, 10
    )
    # Table 1's players, not read again, keep their rounds: East's +27.3 as well.
    east = table_registrations(round_, 1)[0].pk
    assert {e.registration_id: e.total for e in standings.entries}[east] == Fraction(273, 10)
    assert _from_scratch(tournament) == _compared(standings)


def test_a_cached_read_builds_no_player(event, monkeypatch):
    # A poll of 1,000 players reads the cached primitives; the Player is built only for a
    # page that asks for it.
    from tournament.models import Player

    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    players = table_registrations(round_, 1)
    enter(round_, 1, make_entry(players), event["users"][Role.REFEREE])
    tournament_standings(tournament)
    built = Player.from_db
    monkeypatch.setattr(Player, "from_db", classmethod(lambda *args: pytest.fail("built")))
    entries = tournament_standings(tournament).entries
    assert [e.place for e in entries[:4]] == [1, 2, 3, 4]
    assert entries[0].total == Fraction(273, 10)  # East's +27.3, WRC 2015 §5.9.2 as above
    monkeypatch.setattr(Player, "from_db", built)
    assert entries[0].player.display_name == players[0].player.display_name


def test_a_substitute_renamed_is_renamed_in_the_round_they_played(event):
    # The name of the substitute who played a seat is written in the absent player's round;
    # a build that takes that round from the previous build must not keep the old name.
    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    players = table_registrations(round_, 1)
    substitute = make_registration(tournament, is_substitute=True)
    entry = make_entry(players, N={"substitute_id": substitute.pk})
    enter(round_, 1, entry, event["users"][Role.REFEREE])
    enter(round_, 2, make_entry(table_registrations(round_, 2)), event["users"][Role.REFEREE])
    tournament_standings(tournament)
    with TestCase.captureOnCommitCallbacks(execute=True):
        player_update(
            player=substitute.player,
            data={"last_name": "Henry"},
            acting_user=event["users"][Role.REFEREE],
        )
    rounds = {e.registration_id: e.rounds for e in tournament_standings(tournament).entries}
    assert rounds[players[3].pk][round_.number].substitute_name.endswith("Henry")


def test_a_row_committed_late_under_a_smaller_id_is_kept_in_order():
    # On PostgreSQL a transaction may commit, after a build, a row whose id it took before the
    # build's newest rows: the kept ids stay in order, so that a row deleted later is found.
    from scoring.selectors.standings_input import _append, _changed, _columns

    columns = _columns({1: (10, 1, "E", 100), 5: (10, 2, "E", 101)})
    counts = {(10, 1): 1, (10, 2): 1}
    _append(columns, counts, {3: (11, 1, "S", 102)}, {3})
    assert list(columns[0]) == [1, 3, 5]
    assert list(columns[3]) == [100, 102, 101]
    assert _changed(columns, counts, "1,5,7") == ({102}, {7})
    assert list(columns[0]) == [1, 5]
    assert counts == {(10, 1): 1, (10, 2): 1, (11, 1): 0}


@pytest.mark.parametrize("during", ["build from every row", "build from the previous one"])
def test_a_sheet_confirmed_while_a_build_reads_is_read_by_the_next_build(
    event, monkeypatch, during
):
    # A build reads the ids, then the rows. A sheet confirmed in between (another process's
    # commit) is in the rows but not in the ids the build keeps: the next build sees ids
    # it does not know and reads that sheet's players again. Had the build kept ids read
    # after the rows, the next one would take the sheet for read and never count it.
    from django.core.cache import cache

    from scoring.selectors import standings_input

    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    referee = event["users"][Role.REFEREE]
    if during == "build from the previous one":
        enter(round_, 1, make_entry(table_registrations(round_, 1)), referee)
        tournament_standings(tournament)
    else:
        cache.clear()
    late = table_registrations(round_, 2)
    read_rows = standings_input._rows

    def rows_then_a_commit(*args, **kwargs):
        rows = read_rows(*args, **kwargs)
        monkeypatch.setattr(standings_input, "_rows", read_rows)
        with TestCase.captureOnCommitCallbacks(execute=True):
            enter(round_, 2, make_entry(late), referee)
        return rows

    with TestCase.captureOnCommitCallbacks(execute=True):
        enter(round_, 3, make_entry(table_registrations(round_, 3)), referee)
    monkeypatch.setattr(standings_input, "_rows", rows_then_a_commit)
    tournament_standings(tournament)
    assert standings_input._rows is read_rows  # the sheet was confirmed during that build
    totals = {e.registration_id: e.total for e in tournament_standings(tournament).entries}
    # Table 2's East: (42,300 − 30,000) / 1,000 + 15 uma = +27.3 (WRC 2015 §5.9.2)
    assert totals[late[0].pk] == Fraction(273, 10)
    assert _from_scratch(tournament) == _compared(tournament_standings(tournament))


# Seats a WRC sheet can have: chombo, a player late and playing, one late past the 10-minute
# limit and replaced, and one absent, replaced (WRC 2015 §7.1, §7.2).
SEATS_OF_EVERY_KIND = (
    SeatEntry(registration_id=11, points=42300, chombo=1),
    SeatEntry(registration_id=12, points=31000, late_minutes=4),
    SeatEntry(registration_id=13, points=27700, late_minutes=12, substitute_id=21),
    SeatEntry(registration_id=14, points=18000, substitute_id=22),
)


@pytest.mark.parametrize(
    "entry",
    [
        SheetEntry(kind="final", seats=SEATS_OF_EVERY_KIND, riichi_sticks_left=1),
        SheetEntry(kind="hands", seats=SEATS_OF_EVERY_KIND, hands=(Hand("draw", tenpai=("E",)),)),
    ],
    ids=["final", "hands"],
)
def test_the_stored_seats_are_read_as_the_entry_reads_them(entry):
    # A rebuild reads the seats straight from the stored JSON, without its hands.
    data = entry.to_data()
    assert stored_seat_sheets(data) == SheetEntry.from_data(entry.kind, data).seat_sheets()
    assert [seat.absent for seat in stored_seat_sheets(data)] == [False, False, False, True]


def test_a_rebuild_stores_each_seats_score_of_the_sheet(event):
    tournament, round_ = event["tournament"], event["rounds"][0]
    tournament.confirmation_policy = "single"
    tournament.save()
    seated = table_registrations(round_, 1)
    substitute = make_registration(tournament, is_substitute=True)
    entry = make_entry(
        seated,
        sticks=1,
        points=(42300, 31000, 27700, 18000),
        E={"chombo": 1},
        S={"late_minutes": 4},
        N={"substitute_id": substitute.pk},
    )
    enter(round_, 1, entry, event["users"][Role.REFEREE])
    SeatResult.objects.all().delete()  # as if lost: the rebuild writes them all again

    assert seat_results_rebuild(tournament=tournament) == 4
    sheet = ScoreSheet.objects.select_related("current").get(round=round_, table_number=1)
    scored = score_stored(tournament.get_rules(), sheet.current.kind, sheet.current.data)
    stored = {row.wind: row for row in SeatResult.objects.filter(sheet=sheet).order_by("wind")}
    for wind, seat in zip("ESWN", scored.seats, strict=True):
        assert (stored[wind].score, stored[wind].penalty) == (
            to_units(seat.score),
            to_units(seat.penalty),
        )
    # E: 12.3 + 15 uma − 20 chombo; S: 1 + 5 − 4 minutes late (WRC 2015 §5.9.2, §7.1, §7.2)
    assert stored["E"].score == to_units(Fraction(73, 10))
    assert stored["S"].score == to_units(Fraction(2))
    # N missed the hanchan: no points or place, the 20-point penalty (WRC 2015 §7.2)
    assert (stored["N"].points, stored["N"].place, stored["N"].substitute_id) == (
        None,
        None,
        substitute.pk,
    )
    assert stored["N"].score == to_units(Fraction(-20))
    assert differences(tournament) == []
