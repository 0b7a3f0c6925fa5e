"""Reads of results: the standings and the team standings.

Standings are the rules engine's ranking (`scoring.rules.compute_standings`) of the stored
seat results (`scoring.models.SeatResult`: what the engine made of each confirmed sheet, in
whole `SCORE_UNIT`s, stored with the sheet's change) and the active penalties, in a fixed
number of queries whatever the number of players; no sheet is scored here, and no model
instance is built (the rows are read as values). The result is cached as one compact tuple
of ints and strings under a key that holds a version token every scoring write replaces
when its transaction commits (`tournament.invalidation`), the id of the tournament's latest
audit entry (every audited change, e.g. a disqualification from the
admin, gives a new key) and the rule set. One process builds a new version while the others
serve the previous one (`tournament_standings`).

A new version starts from the previous one: seats and stored results are never changed, only
replaced under new ids, so after one confirmed sheet a build reads the ids and its four
players' rows, not the 40,000 others, and takes every other player's rounds as they were
(`scoring.selectors.standings_input`). The pages read the cached tuple
through `StandingEntry`, which builds a `Player` or a ``Fraction`` only when asked for one.

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
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q, Sum

from scoring.entries import SheetEntry, score_stored
from scoring.models import Penalty, ScoreSheet
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
from scoring.selectors.standings_input import KEPT_FORM, read_rounds
from tournament.invalidation import first_standings_version, standings_version, version_key
from tournament.models import AuditEntry, Player, Registration, Round, Seat, Tournament
from tournament.names import name_sort_key, shown_name

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


class StandingEntry:
    """One listed player's line of the standings, read from the cached compact row.

    Reading the cache builds no model instance and no ``Fraction``: a page that reads 20
    places reads 20 places. The player (a `Player` not saved from here), the totals
    (``Fraction`` points) and the rounds are built the first time they are asked for.
    ``place`` None: no confirmed hanchan yet, listed after the ranked players. ``withdrawn``:
    still ranked on the rounds played, shown as withdrawn. ``decided_by``: the tie-break
    criterion that ordered this player and an equal total (the rules' tie_breaks:
    "best_hanchan", "firsts"…), so the pages can say why 4 is not 5."""

    __slots__ = ("_player", "_row", "_rounds")

    def __init__(self, row: tuple) -> None:
        self._row = row
        self._player: Player | None = None
        self._rounds: _Rounds | None = None

    @property
    def registration_id(self) -> int:
        return self._row[0]

    @property
    def player(self) -> Player:
        if self._player is None:
            self._player = Player.from_db(None, _PLAYER_FIELDS, self._row[1])
        return self._player

    @property
    def team_name(self) -> str:
        return self._row[2]

    @property
    def place(self) -> int | None:
        return self._row[3]

    @property
    def total(self) -> Fraction:
        return _fraction(self._row[4])

    @property
    def hanchan_total(self) -> Fraction:
        return _fraction(self._row[4] - self._row[5])

    @property
    def penalty_total(self) -> Fraction:
        return _fraction(self._row[5])

    @property
    def rounds(self) -> Mapping[int, RoundScore]:
        if self._rounds is None:
            self._rounds = _Rounds(self._row[9])
        return self._rounds

    @property
    def shared_place(self) -> bool:
        return self._row[6]

    @property
    def withdrawn(self) -> bool:
        return self._row[7]

    @property
    def decided_by(self) -> str | None:
        return self._row[8]

    @property
    def team_or_club(self) -> str:
        """As `Registration.team_or_club`: the screen and both exports print the same."""
        return self.team_name or self.player.club

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StandingEntry) and self._row == other._row

    def __repr__(self) -> str:
        return f"<StandingEntry {self.registration_id} place {self.place}>"


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
#: A registration as the standings read it: no model instance is built (1,000 of them cost
#: more than the ranking), the player as the values of `_PLAYER_FIELDS`.
_REGISTRATION_FIELDS = (
    "pk", "status", "is_substitute", "team__name", *(f"player__{name}" for name in _PLAYER_FIELDS),
)  # fmt: skip
_FIRST_NAME = 4 + _PLAYER_FIELDS.index("first_name")
_LAST_NAME = 4 + _PLAYER_FIELDS.index("last_name")
_PUBLIC_NAME = 4 + _PLAYER_FIELDS.index("public_name")


def _compute(
    tournament: Tournament,
    rounds_up_to: int | None = None,
    known: bytes | None = None,
    previous: tuple | None = None,
) -> tuple[tuple, bytes]:
    """The standings in the cache's compact form (`_standings` reads it), and what the next
    build starts from (`scoring.selectors.standings_input`: ``known`` is what the previous
    build kept, ``previous`` its compact form; every row is kept whatever ``rounds_up_to``,
    whose later rounds are left out of the ranking, not of the rows).

    The engine's ranking of the stored seat results (`SeatResult`, one small row a seat of
    a confirmed sheet) and the active penalties, in a fixed number of queries, without
    scoring any sheet and without building a model instance."""
    rounds = Round.objects.filter(tournament=tournament)
    penalties = Penalty.objects.filter(registration__tournament=tournament).active().order_by()
    if rounds_up_to is not None:
        rounds = rounds.filter(number__lte=rounds_up_to)
        penalties = penalties.filter(Q(round__isnull=True) | Q(round__number__lte=rounds_up_to))
    rounds = list(
        rounds.order_by("number")
        .annotate(
            started=Exists(
                ScoreSheet.objects.filter(round=OuterRef("pk")).exclude(
                    status=ScoreSheet.Status.NOT_ENTERED
                )
            )
        )
        .values_list("pk", "number", "status", "started")
    )
    registrations = {
        row[0]: row
        for row in Registration.objects.filter(tournament=tournament).values_list(
            *_REGISTRATION_FIELDS
        )
    }
    # Apart: summed in the registrations' query, they made it group 1,000 wide rows.
    penalty_points = dict(penalties.values_list("registration_id").annotate(Sum("points")))

    def name_of(registration_id: int) -> str:
        row = registrations.get(registration_id)
        return shown_name(row[_FIRST_NAME], row[_LAST_NAME], row[_PUBLIC_NAME]) if row else ""

    # WRC 2015 §7.1: a disqualified player is not listed, so never reaches the engine. By
    # name: the order of players sharing a place, and of those without a result yet.
    listed = sorted(
        (
            row
            for row in registrations.values()
            if not row[2] and row[1] != Registration.Status.DISQUALIFIED
        ),
        key=lambda row: name_sort_key(row[_FIRST_NAME], row[_LAST_NAME], row[_PUBLIC_NAME]),
    )
    read = read_rounds(
        tournament,
        {round_id: number for round_id, number, _status, _started in rounds},
        name_of,
        [row[0] for row in listed],
        known,
        None if previous is None else {entry[0]: entry[9] for entry in previous[3]},
    )
    order = [number for _id, number, _status, _started in rounds]
    records = []
    for registration_id, *_row in listed:
        played = read.rounds.get(registration_id, ())
        if played and len(played) == len(order):  # seated in every round: its columns
            places, scores, penalties, confirmed = tuple(zip(*played, strict=True))[4:8]
        else:  # None for the rounds without a seat
            by_number = {row[0]: row for row in played}
            counted = [by_number.get(number) for number in order]
            scores = tuple([row[5] if row else None for row in counted])
            places = tuple([row[4] if row else None for row in counted])
            penalties = [row[6] for row in played]
            confirmed = [row[7] for row in played]
        penalty = penalty_points.get(registration_id)
        # In whole SCORE_UNITs: the engine ranks integers as it ranks Fractions, faster.
        records.append(
            PlayerRecord(
                key=str(registration_id),
                hanchan_scores=scores,
                places=places,
                penalties=(to_units(Fraction(penalty)) if penalty else 0,),
                # No confirmed hanchan yet: listed after the ranked players, without a place.
                ranked=True in confirmed,
                sheet_penalties=sum(penalties),
            )
        )
    entries = []
    for row in compute_standings(records, tournament.get_rules().tie_breaks):
        registration_id, status, _substitute, team, *player = registrations[int(row.key)]
        entries.append(
            (
                registration_id,
                tuple(player),
                team or "",
                row.place,
                int(row.total),
                int(row.penalty_points),
                row.shared,
                status == Registration.Status.WITHDRAWN,
                row.decided_by,
                read.rounds.get(registration_id, ()),
            )
        )
    compact = (*_round_state(rounds, read.tables, read.confirmed), tuple(entries))
    return compact, read.kept


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
    """The cached compact form as the pages read it (`StandingEntry` builds the rest when
    asked)."""
    numbers, provisional, complete, rows = compact
    return Standings(
        tournament_id,
        [StandingEntry(row) for row in rows],
        list(numbers),
        set(provisional),
        set(complete),
        stale=stale,
    )


def standings_cache_key(tournament: Tournament, version: str | None = None) -> str:
    """Changes whenever the standings may change; pages cache what they render under it.
    ``version``: the token (`standings_version`) when the caller has already read it. A
    tournament read `with_last_audit()` carries its latest audit entry; any other costs a
    query for it."""
    if hasattr(tournament, "last_audit"):
        last_audit = tournament.last_audit
    else:
        entries = AuditEntry.objects.filter(tournament=tournament)
        last_audit = entries.aggregate(last=Max("id"))["last"]
    rules = hashlib.sha256(
        json.dumps([tournament.ruleset, tournament.rule_options], sort_keys=True).encode()
    ).hexdigest()[:16]
    version = version or standings_version(tournament.pk)
    return f"scoring:standings:{tournament.pk}:{version}:{last_audit}:{rules}"


def _up_to(rounds_up_to: int | None) -> str:
    """What a key of standings limited to ``rounds_up_to`` adds to the full standings' key."""
    return "" if rounds_up_to is None else f":up-to-{rounds_up_to}"


def _latest_key(tournament_id: int, rounds_up_to: int | None) -> str:
    return f"scoring:standings-built:{tournament_id}{_up_to(rounds_up_to)}"


def _kept_key(tournament_id: int, rounds_up_to: int | None) -> str:
    """What the latest build kept for the next one, apart: a read of the standings does
    not fetch it."""
    return f"{_latest_key(tournament_id, rounds_up_to)}:kept-{KEPT_FORM}"


def forget_built_standings(tournament: Tournament) -> None:
    """Once the transaction commits, drop the builds a new one would start from (every
    limit's): after the stored results are written again wholesale, their ids are new, and a
    restored database may give them the ids of other rows an earlier build holds."""
    limits = [None, *tournament.rounds.values_list("number", flat=True)]
    keys = [key(tournament.pk, limit) for limit in limits for key in (_latest_key, _kept_key)]
    transaction.on_commit(lambda: cache.delete_many(keys))


def tournament_standings(
    tournament: Tournament, *, fresh: bool = False, rounds_up_to: int | None = None
) -> Standings:
    """The tournament's standings from the stored seat results and active penalties (cached).

    The cache holds the latest version built, with its key (`standings_cache_key`). One
    process at a time builds a new one (a lock taken with `cache.add`); meanwhile the others
    serve the previous version, marked `stale`, or wait for the builder when there is none:
    a change seen by 200 polling phones costs one build, not 200. `fresh` never takes the
    previous version: exports, Swiss pairings and the staff's standings decide or print with
    what they read, so they wait for the builder (or build). ``rounds_up_to``: the standings
    after that round, as if the later rounds had not been played (the public rankings of a
    tournament that shows complete rounds only, `public_round_limit`); each limit is built
    and cached on its own, under its own key."""
    latest_key = _latest_key(tournament.pk, rounds_up_to)
    found = cache.get_many([version_key(tournament.pk), latest_key])  # one read of the cache
    version = found.get(version_key(tournament.pk)) or first_standings_version(tournament.pk)
    key = standings_cache_key(tournament, version) + _up_to(rounds_up_to)
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
    kept_key = _kept_key(tournament.pk, rounds_up_to)
    try:
        known = cache.get(kept_key) if latest is not None else None
        if known is not None and known[0] == latest[0]:  # kept by the latest version's build
            compact, kept = _compute(tournament, rounds_up_to, known[1], latest[1])
        else:
            compact, kept = _compute(tournament, rounds_up_to)
    except BaseException:
        cache.delete(lock)
        raise
    # The lock is left to expire: it names this version, which is now built.
    cache.set_many({latest_key: (key, compact), kept_key: (key, kept)}, CACHE_SECONDS)
    return _standings(tournament.pk, compact)


def team_standings(
    tournament: Tournament, *, fresh: bool = False, rounds_up_to: int | None = None
) -> list[TeamStanding]:
    """Teams ranked by the sum of their members' totals (the engine's
    `compute_team_standings`); empty without teams. `fresh` and `rounds_up_to` as in
    `tournament_standings`."""
    standings = tournament_standings(tournament, fresh=fresh, rounds_up_to=rounds_up_to)
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


@dataclass(frozen=True)
class RoundLimit:
    """What the public rankings leave out (`public_round_limit`): ``pending``, the first
    round neither complete nor released, and every round after it; ``shown_up_to`` = pending
    - 1."""

    pending: int

    @property
    def shown_up_to(self) -> int:
        return self.pending - 1


def public_round_limit(tournament: Tournament) -> RoundLimit | None:
    """The first round the public rankings must not show yet, or None (they show every
    round). A tournament showing complete rounds only (`release_complete_rounds`) shows the
    rounds up to the last one before which every round has all its tables confirmed
    (`Standings.complete_rounds`) or was released by hand (`round_results_release`).
    Costs nothing with the option off; else a read of the cached standings and a query."""
    if not tournament.release_complete_rounds:
        return None
    standings = tournament_standings(tournament)
    released = set(
        Round.objects.filter(tournament=tournament, results_released_at__isnull=False).values_list(
            "number", flat=True
        )
    )
    shown = standings.complete_rounds | released
    pending = [number for number in standings.round_numbers if number not in shown]
    return RoundLimit(min(pending)) if pending else None
