"""Reads of results: the standings and the team standings.

Standings are computed by the rules engine (`scoring.rules.compute_standings`) from the
confirmed score sheets and the penalties that are not cancelled, with a constant number of
queries whatever the number of players, and cached. The cache key holds a version token that
every scoring write replaces when its transaction commits
(`tournament.invalidation`), the id of the tournament's latest audit entry (every
audited change, e.g. a disqualification from the admin, gives a new key) and the rule set.

Only players with a hanchan on a confirmed sheet (played, or missed with a substitute in the
seat: the missed-hanchan penalty is a result) are ranked: a late registration has no result
to rank at 0, so they are listed after the ranked players with no place (`place` None) and
left out of the EMA results.

Totals: `StandingEntry.total` is the engine's total. `penalty_total` is every penalty of the
player (chombo, lateness and missed hanchans from the sheets plus the referees' penalties),
`hanchan_total` the rest (table scores with uma), so total = hanchan_total + penalty_total.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from fractions import Fraction

from django.core.cache import cache
from django.db.models import Max

from scoring.entries import SheetEntry, score_stored
from scoring.models import Penalty, ScoreSheet
from scoring.rules import (
    HanchanResult,
    PlayerRecord,
    RulesError,
    RulesErrors,
    TeamMember,
    compute_standings,
    compute_team_standings,
)
from scoring.rules import Penalty as EnginePenalty
from tournament.invalidation import standings_version
from tournament.models import WINDS, AuditEntry, Player, Registration, Round, Seat, Tournament
from tournament.names import player_sort_key

CACHE_SECONDS = 60 * 60


@dataclass(frozen=True)
class RoundScore:
    round_number: int
    table_number: int | None
    wind: str | None
    points: int | None
    place: int | None
    score: Fraction | None
    penalty: Fraction
    confirmed: bool
    # The substitute who played the seat of this (absent) player, so their page says so.
    substitute_name: str = ""


@dataclass(frozen=True)
class StandingEntry:
    registration_id: int
    player: Player
    team_name: str
    place: int | None  # None: no confirmed hanchan yet, listed after the ranked players
    total: Fraction
    hanchan_total: Fraction
    penalty_total: Fraction
    rounds: dict[int, RoundScore]
    shared_place: bool
    withdrawn: bool = False  # still ranked on the rounds played, shown as withdrawn
    # The tie-break criterion that ordered this player and an equal total (the rules'
    # tie_breaks: "best_hanchan", "firsts"…), so the pages can say why 4 is not 5.
    decided_by: str | None = None

    @property
    def team_or_club(self) -> str:
        """As `Registration.team_or_club`: the screen and both exports print the same."""
        return self.team_name or self.player.club


@dataclass(frozen=True)
class Standings:
    tournament_id: int
    entries: list[StandingEntry]
    round_numbers: list[int]
    provisional_rounds: set[int]
    complete_rounds: set[int]


@dataclass(frozen=True)
class TeamStanding:
    """A team's total is the sum of its ranked members' totals (disqualified members and
    substitutes count for nothing); equal totals share the place."""

    team_name: str
    place: int
    total: Fraction
    members: list[StandingEntry]
    shared_place: bool


@dataclass
class LoadedResults:
    """Everything the standings need, loaded in a fixed number of queries."""

    rounds: list[Round]
    registrations: dict[int, Registration]
    seats: dict[int, dict[int, tuple[int, str]]]  # round id -> registration -> (table, wind)
    tables: dict[int, set[int]]  # round id -> table numbers
    sheets: list[ScoreSheet]
    results: dict[tuple[int, int], HanchanResult] = field(default_factory=dict)
    entries: dict[tuple[int, int], SheetEntry] = field(default_factory=dict)


def load_results(tournament: Tournament) -> LoadedResults:
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    registrations = {
        registration.pk: registration
        for registration in Registration.objects.filter(tournament=tournament).select_related(
            "player", "team"
        )
    }
    seats: dict[int, dict[int, tuple[int, str]]] = {}
    tables: dict[int, set[int]] = {}
    for round_id, table, wind, registration_id in Seat.objects.filter(
        round__tournament=tournament
    ).values_list("round_id", "table_number", "wind", "registration_id"):
        seats.setdefault(round_id, {})[registration_id] = (table, wind)
        tables.setdefault(round_id, set()).add(table)
    sheets = list(ScoreSheet.objects.filter(round__tournament=tournament).select_related("current"))
    loaded = LoadedResults(rounds, registrations, seats, tables, sheets)
    rules = tournament.get_rules()
    for sheet in sheets:
        if sheet.status != ScoreSheet.Status.CONFIRMED or sheet.current is None:
            continue
        try:
            result = score_stored(rules, sheet.current.kind, sheet.current.data)
        except (RulesError, RulesErrors):
            # The rule set changed under a confirmed sheet: it no longer counts until a
            # head referee corrects it (the round page shows the engine's message).
            continue
        key = (sheet.round_id, sheet.table_number)
        loaded.results[key] = result
        loaded.entries[key] = SheetEntry.from_data(sheet.current.kind, sheet.current.data)
    return loaded


def _round_state(loaded: LoadedResults) -> tuple[list[int], set[int], set[int]]:
    numbers, provisional, complete = [], set(), set()
    started = {
        sheet.round_id for sheet in loaded.sheets if sheet.status != ScoreSheet.Status.NOT_ENTERED
    }
    for round_ in loaded.rounds:
        tables = loaded.tables.get(round_.pk)
        # Seats of a round not published yet (planned, no sheet) are no column: an empty one
        # would tell the players its seating exists.
        if not tables or (round_.status == Round.Status.PLANNED and round_.pk not in started):
            continue
        numbers.append(round_.number)
        confirmed = {table for (round_id, table) in loaded.results if round_id == round_.pk}
        if tables <= confirmed:
            complete.add(round_.number)
        elif (
            round_.pk in started
            or confirmed
            or round_.status in (Round.Status.PLAYING, Round.Status.FINISHED)
        ):
            provisional.add(round_.number)
    return numbers, provisional, complete


def _round_scores(loaded: LoadedResults) -> dict[int, dict[int, RoundScore]]:
    """registration id -> round number -> RoundScore."""
    out: dict[int, dict[int, RoundScore]] = {}
    results_by_round: dict[int, list[tuple[int, HanchanResult]]] = {}
    for (round_id, table), result in loaded.results.items():
        results_by_round.setdefault(round_id, []).append((table, result))
    for round_ in loaded.rounds:
        for registration_id, (table, wind) in loaded.seats.get(round_.pk, {}).items():
            out.setdefault(registration_id, {})[round_.number] = RoundScore(
                round_.number, table, wind, None, None, None, Fraction(0), False
            )
        for table, result in results_by_round.get(round_.pk, []):
            entry = loaded.entries[(round_.pk, table)]
            for index, (seat, score) in enumerate(zip(entry.seats, result.seats, strict=True)):
                played = seat.substitute_id is None
                substitute = loaded.registrations.get(seat.substitute_id)
                out.setdefault(seat.registration_id, {})[round_.number] = RoundScore(
                    round_number=round_.number,
                    table_number=table,
                    wind=WINDS[index],
                    points=score.points if played else None,
                    place=score.place if played else None,
                    score=score.score,
                    penalty=score.penalty,
                    confirmed=True,
                    substitute_name=substitute.player.display_name if substitute else "",
                )
    return out


def _compute(tournament: Tournament) -> Standings:
    loaded = load_results(tournament)
    numbers, provisional, complete = _round_state(loaded)
    round_scores = _round_scores(loaded)
    active_penalties: dict[int, list[Fraction]] = {}
    for registration_id, points in (
        Penalty.objects.filter(tournament=tournament)
        .active()
        .values_list("registration_id", "points")
    ):
        active_penalties.setdefault(registration_id, []).append(Fraction(points))
    order = [round_.number for round_ in loaded.rounds]
    # WRC 2015 §7.1: a disqualified player is not listed, so never reaches the engine. By
    # name: the order of players sharing a place, and of those without a result yet.
    listed = sorted(
        (registration for registration in loaded.registrations.values() if registration.is_ranked),
        key=player_sort_key,
    )
    records = []
    for registration in listed:
        rounds = round_scores.get(registration.pk, {})
        counted = [rounds.get(number) for number in order]
        sheet_penalties = sum(
            (score.penalty for score in rounds.values() if score.confirmed), Fraction(0)
        )
        records.append(
            PlayerRecord(
                key=str(registration.pk),
                hanchan_scores=tuple(
                    score.score if score and score.confirmed else None for score in counted
                ),
                places=tuple(score.place if score else None for score in counted),
                penalties=tuple(
                    EnginePenalty(points) for points in active_penalties.get(registration.pk, [])
                ),
                # No confirmed hanchan yet: listed after the ranked players, without a place.
                ranked=any(score.confirmed for score in rounds.values()),
                name=registration.player.full_name,
                sheet_penalties=sheet_penalties,
            )
        )
    rows = compute_standings(records, tournament.get_rules().tie_breaks)
    entries = []
    for row in rows:
        registration = loaded.registrations[int(row.key)]
        rounds = round_scores.get(registration.pk, {})
        penalty_total = row.penalty_points
        entries.append(
            StandingEntry(
                registration_id=registration.pk,
                player=registration.player,
                team_name=registration.team.name if registration.team else "",
                place=row.place,
                total=row.total,
                hanchan_total=row.total - penalty_total,
                penalty_total=penalty_total,
                rounds=dict(sorted(rounds.items())),
                shared_place=row.shared,
                withdrawn=registration.status == Registration.Status.WITHDRAWN,
                decided_by=row.decided_by,
            )
        )
    return Standings(tournament.pk, entries, numbers, provisional, complete)


def standings_cache_key(tournament: Tournament) -> str:
    """Changes whenever the standings may change; pages cache what they render under it."""
    last_audit = AuditEntry.objects.filter(tournament=tournament).aggregate(last=Max("id"))["last"]
    rules = hashlib.sha256(
        json.dumps([tournament.ruleset, tournament.rule_options], sort_keys=True).encode()
    ).hexdigest()[:16]
    version = standings_version(tournament.pk)
    return f"scoring:standings:{tournament.pk}:{version}:{last_audit}:{rules}"


def tournament_standings(tournament: Tournament) -> Standings:
    """The tournament's standings from confirmed sheets and active penalties (cached)."""
    key = standings_cache_key(tournament)
    standings = cache.get(key)
    if standings is None:
        standings = _compute(tournament)
        cache.set(key, standings, CACHE_SECONDS)
    return standings


def team_standings(tournament: Tournament) -> list[TeamStanding]:
    """Teams ranked by the sum of their members' totals (the engine's
    `compute_team_standings`); empty without teams."""
    entries = {
        str(entry.registration_id): entry for entry in tournament_standings(tournament).entries
    }
    rows = compute_team_standings(
        TeamMember(key, entry.team_name, entry.total)
        for key, entry in entries.items()
        if entry.team_name
    )
    return [
        TeamStanding(
            row.team, row.place, row.total, [entries[key] for key in row.members], row.shared
        )
        for row in rows
    ]


def has_score_sheets(tournament: Tournament) -> bool:
    """Whether any sheet exists, whatever its state: scores are computed from the current
    rules whenever they are shown, so the rules are then fixed."""
    return ScoreSheet.objects.filter(round__tournament=tournament).exists()
