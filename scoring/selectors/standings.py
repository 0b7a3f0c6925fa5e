"""Reads of results: the standings and the team standings.

Standings are the rules engine's ranking (`scoring.rules.compute_standings`) of the stored
seat results (`scoring.models.SeatResult`: what the engine made of each confirmed sheet, in
whole `SCORE_UNIT`s, stored with the sheet's change) and the active penalties, in four
queries whatever the number of players; no sheet is scored here. The result is cached as
one compact tuple of ints and strings under a key that holds a version token every scoring
write replaces when its transaction commits (`tournament.invalidation`), the id of the
tournament's latest audit entry (every audited change, e.g. a disqualification from the
admin, gives a new key) and the rule set. One process builds a new version while the others
serve the previous one (`tournament_standings`).

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
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from django.core.cache import cache
from django.db.models import Exists, IntegerField, Max, OuterRef, Q, QuerySet, Sum, Value

from scoring.entries import SheetEntry, score_stored
from scoring.models import ScoreSheet, SeatResult
from scoring.rules import (
    SCORE_UNIT,
    HanchanResult,
    PlayerRecord,
    RulesError,
    RulesErrors,
    TeamMember,
    compute_standings,
    compute_team_standings,
    to_units,
)
from tournament.invalidation import first_standings_version, standings_version, version_key
from tournament.models import AuditEntry, Player, Registration, Round, Seat, Tournament
from tournament.names import player_sort_key

CACHE_SECONDS = 60 * 60
#: A build of 1,000 players × 20 rounds takes well under a second (docs/performance.md); a
#: lock older than this is a builder that died.
BUILD_LOCK_SECONDS = 30
#: How long a request without any previous version waits for another process's build.
BUILD_WAIT_SECONDS = 10


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
    # The previous version, served while another process builds the new one.
    stale: bool = False


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


def _round_state(
    rounds: list[tuple[int, int, str, bool]],
    tables: dict[int, set[int]],
    confirmed: dict[int, set[int]],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The rounds shown as columns, the provisional ones and the complete ones (numbers);
    ``rounds``: (id, number, status, whether a sheet of it was started)."""
    numbers, provisional, complete = [], [], []
    for round_id, number, status, started in rounds:
        seated = tables.get(round_id)
        # Seats of a round not published yet (planned, no sheet) are no column: an empty one
        # would tell the players its seating exists.
        if not seated or (status == Round.Status.PLANNED and not started):
            continue
        numbers.append(number)
        done = confirmed.get(round_id, set())
        if seated <= done:
            complete.append(number)
        elif started or done or status in (Round.Status.PLAYING, Round.Status.FINISHED):
            provisional.append(number)
    return tuple(numbers), tuple(provisional), tuple(complete)


#: Player fields kept in the cache (every concrete field but the creation time).
_PLAYER_FIELDS = tuple(
    field.attname for field in Player._meta.concrete_fields if field.attname != "created_at"
)


def _seats_and_results(tournament: Tournament) -> QuerySet:
    """(round id, table, wind, registration id, points, place, score, penalty, substitute id)
    of every seat (score None) and every stored seat result (`SeatResult`), in one query."""
    nothing = Value(None, output_field=IntegerField())
    seats = (
        Seat.objects.filter(round__tournament=tournament)
        .annotate(no_points=nothing, no_place=nothing, no_score=nothing, no_substitute=nothing)
        .annotate(no_penalty=Value(0, output_field=IntegerField()))
        .values_list(
            "round_id", "table_number", "wind", "registration_id", "no_points", "no_place",
            "no_score", "no_penalty", "no_substitute",
        )
        .order_by()
    )  # fmt: skip
    stored = SeatResult.objects.filter(tournament=tournament).values_list(
        "round_id", "sheet__table_number", "wind", "registration_id", "points", "place",
        "score", "penalty", "substitute_id",
    ).order_by()  # fmt: skip
    return seats.union(stored, all=True)


def _compute(tournament: Tournament) -> tuple:
    """The standings in the cache's compact form (`_Compact`): the engine's ranking of the
    stored seat results (`SeatResult`, one small row a seat of a confirmed sheet) and the
    active penalties, in a fixed number of queries and without scoring any sheet."""
    rounds = list(
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .annotate(
            started=Exists(
                ScoreSheet.objects.filter(round=OuterRef("pk")).exclude(
                    status=ScoreSheet.Status.NOT_ENTERED
                )
            )
        )
        .values_list("pk", "number", "status", "started")
    )
    number_of = {round_id: number for round_id, number, _status, _started in rounds}
    registrations = {
        registration.pk: registration
        for registration in Registration.objects.filter(tournament=tournament)
        .select_related("player", "team")
        .annotate(
            penalty_points=Sum("penalties__points", filter=Q(penalties__cancelled_at__isnull=True))
        )
    }
    # registration id -> round number -> compact round (`_round_score`)
    results: dict[int, dict[int, tuple]] = {}
    tables: dict[int, set[int]] = {}
    confirmed: dict[int, set[int]] = {}
    # Seats and stored results in one query; a seat's result replaces the bare seat.
    for round_id, table, wind, registration_id, points, place, score, penalty, substitute in sorted(
        _seats_and_results(tournament), key=lambda row: row[6] is not None
    ):
        number = number_of[round_id]
        if score is None:
            tables.setdefault(round_id, set()).add(table)
            results.setdefault(registration_id, {})[number] = (
                number, table, wind, None, None, None, 0, False, ""
            )  # fmt: skip
            continue
        confirmed.setdefault(round_id, set()).add(table)
        replaced = registrations.get(substitute)
        results.setdefault(registration_id, {})[number] = (
            number, table, wind, points, place, score, penalty, True,
            replaced.player.display_name if replaced else "",
        )  # fmt: skip
    order = [number for _id, number, _status, _started in rounds]
    # WRC 2015 §7.1: a disqualified player is not listed, so never reaches the engine. By
    # name: the order of players sharing a place, and of those without a result yet.
    listed = sorted(
        (registration for registration in registrations.values() if registration.is_ranked),
        key=player_sort_key,
    )
    records = []
    for registration in listed:
        scored = results.get(registration.pk, {})
        counted = [scored.get(number) for number in order]
        # In whole SCORE_UNITs: the engine ranks integers as it ranks Fractions.
        records.append(
            PlayerRecord(
                key=str(registration.pk),
                hanchan_scores=tuple(row[5] if row else None for row in counted),
                places=tuple(row[4] if row else None for row in counted),
                penalties=(to_units(Fraction(registration.penalty_points or 0)),),
                # No confirmed hanchan yet: listed after the ranked players, without a place.
                ranked=any(row[7] for row in scored.values()),
                name=registration.player.full_name,
                sheet_penalties=sum(row[6] for row in scored.values()),
            )
        )
    entries = []
    for row in compute_standings(records, tournament.get_rules().tie_breaks):
        registration = registrations[int(row.key)]
        player = registration.player
        entries.append(
            (
                registration.pk,
                tuple(getattr(player, name) for name in _PLAYER_FIELDS),
                registration.team.name if registration.team else "",
                row.place,
                int(row.total),
                int(row.penalty_points),
                row.shared,
                registration.status == Registration.Status.WITHDRAWN,
                row.decided_by,
                tuple(row for _number, row in sorted(results.get(registration.pk, {}).items())),
            )
        )
    return (*_round_state(rounds, tables, confirmed), tuple(entries))


def _fraction(units: int) -> Fraction:
    return Fraction(units, SCORE_UNIT)


def _round_score(row: tuple) -> RoundScore:
    number, table, wind, points, place, score, penalty, confirmed, substitute_name = row
    return RoundScore(
        number,
        table,
        wind,
        points,
        place,
        None if score is None else _fraction(score),
        _fraction(penalty),
        confirmed,
        substitute_name,
    )


class _Rounds(Mapping):
    """A player's rounds (number -> `RoundScore`), built from the cached tuples the first
    time a page reads them: most reads of the standings never look at every round."""

    __slots__ = ("_built", "_rows")

    def __init__(self, rows: tuple) -> None:
        self._rows = rows
        self._built: dict[int, RoundScore] | None = None

    def _scores(self) -> dict[int, RoundScore]:
        if self._built is None:
            self._built = {row[0]: _round_score(row) for row in self._rows}
        return self._built

    def __getitem__(self, number: int) -> RoundScore:
        return self._scores()[number]

    def __iter__(self) -> Iterator[int]:
        return iter(self._scores())

    def __len__(self) -> int:
        return len(self._rows)


def _standings(tournament_id: int, compact: tuple, *, stale: bool = False) -> Standings:
    """The cached compact form as the pages read it: Fractions, players, rounds."""
    numbers, provisional, complete, rows = compact
    entries = []
    for (
        registration_id,
        player,
        team,
        place,
        total,
        penalties,
        shared,
        withdrawn,
        why,
        rounds,
    ) in rows:
        entries.append(
            StandingEntry(
                registration_id=registration_id,
                player=Player.from_db(None, _PLAYER_FIELDS, player),
                team_name=team,
                place=place,
                total=_fraction(total),
                hanchan_total=_fraction(total - penalties),
                penalty_total=_fraction(penalties),
                rounds=_Rounds(rounds),
                shared_place=shared,
                withdrawn=withdrawn,
                decided_by=why,
            )
        )
    return Standings(
        tournament_id, entries, list(numbers), set(provisional), set(complete), stale=stale
    )


def standings_cache_key(tournament: Tournament, version: str | None = None) -> str:
    """Changes whenever the standings may change; pages cache what they render under it.
    ``version``: the token (`standings_version`) when the caller has already read it."""
    last_audit = AuditEntry.objects.filter(tournament=tournament).aggregate(last=Max("id"))["last"]
    rules = hashlib.sha256(
        json.dumps([tournament.ruleset, tournament.rule_options], sort_keys=True).encode()
    ).hexdigest()[:16]
    version = version or standings_version(tournament.pk)
    return f"scoring:standings:{tournament.pk}:{version}:{last_audit}:{rules}"


def _latest_key(tournament_id: int) -> str:
    return f"scoring:standings-latest:{tournament_id}"


def tournament_standings(tournament: Tournament, *, fresh: bool = False) -> Standings:
    """The tournament's standings from the stored seat results and active penalties (cached).

    The cache holds the latest version built, with its key (`standings_cache_key`). One
    process at a time builds a new one (a lock taken with `cache.add`); meanwhile the others
    serve the previous version, marked `stale`, or wait for the builder when there is none:
    a change seen by 200 polling phones costs one build, not 200. `fresh` never takes the
    previous version: exports, Swiss pairings and the staff's standings decide or print with
    what they read, so they wait for the builder (or build)."""
    latest_key = _latest_key(tournament.pk)
    found = cache.get_many([version_key(tournament.pk), latest_key])  # one read of the cache
    version = found.get(version_key(tournament.pk)) or first_standings_version(tournament.pk)
    key = standings_cache_key(tournament, version)
    latest = found.get(latest_key)
    if latest is not None and latest[0] == key:
        return _standings(tournament.pk, latest[1])
    lock = f"{key}:building"
    deadline = time.monotonic() + BUILD_WAIT_SECONDS
    while not cache.add(lock, 1, BUILD_LOCK_SECONDS):
        if latest is not None and latest[0] == key:
            return _standings(tournament.pk, latest[1])  # built meanwhile
        if latest is not None and not fresh:
            return _standings(tournament.pk, latest[1], stale=True)
        if time.monotonic() > deadline:
            break  # the builder died or is slow: build too rather than fail the page
        time.sleep(0.05)
        latest = cache.get(latest_key)
    try:
        compact = _compute(tournament)
    except BaseException:
        cache.delete(lock)
        raise
    # The lock is left to expire: it names this version, which is now built.
    cache.set(latest_key, (key, compact), CACHE_SECONDS)
    return _standings(tournament.pk, compact)


def team_standings(tournament: Tournament, *, fresh: bool = False) -> list[TeamStanding]:
    """Teams ranked by the sum of their members' totals (the engine's
    `compute_team_standings`); empty without teams. `fresh` as in `tournament_standings`."""
    standings = tournament_standings(tournament, fresh=fresh)
    entries = {str(entry.registration_id): entry for entry in standings.entries}
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
