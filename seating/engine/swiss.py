"""Swiss rounds: seat one round from the current standings.

A first grouping follows the standings: the best unseated player opens a table and takes,
from a window of the next players, those adding the least cost; table numbers come from an
optimal assignment (Hungarian method) against earlier visits. An annealing then swaps two
players, rotates three players close in the standings, or swaps two tables' numbers. The
weights say what comes first. Opponents first (the default): a pair meeting a third time
(a hard rule while a seating without one exists), then a repeated meeting or a team clash,
then a table visited beyond the fair share, just under a repeat. Tables first: a table
visited beyond the fair share (WRC 2015 §8.1; a hard rule while a free table exists), then
a repeated meeting or a team clash. Then a player who can only take a wind that leaves them
two apart, then each rank position of spread inside a table. Late in an event each player has few
tables left, and grouping by rank alone sends players back to their tables; so the tables
are part of the search, and players still revisiting at the end move by augmenting paths,
which find a seating without revisits whenever one exists. Players fixed to a table never
move.

This module does not compute standings; it receives them best first.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from .assignment import hungarian
from .metrics import allowed_visits, pair_counts
from .model import Round, SeatingError
from .planner import progress_share, validate_history, validate_players, validate_priority
from .winds import assign_winds, wind_counts

__all__ = ["DEFAULT_CLOSENESS", "swiss_round", "validate_swiss"]

#: One place of spread in the standings inside a table, against a repeat's REPEAT_COST.
DEFAULT_CLOSENESS = 10
TABLE_REUSE_COST = 100_000
OPPONENTS_FIRST_REUSE_COST = 90
#: Opponents first: each meeting of a pair beyond its second, as hard as a revisit is under
#: tables first.
BEYOND_TWO_COST = 100_000
REPEAT_COST = 100
TEAM_COST = 100
WIND_COST = 30
START_TEMP = 5.0
#: Share of the moves that rotate three players, each within NEAR places in the standings
#: of the first: with few free tables left, two players can rarely trade seats directly.
CYCLES = 0.3
NEAR = 12

#: Annealing moves: about a second for 100 players, three at most.
MOVES_PER_PLAYER = 1000
MAX_MOVES = 200_000
#: Share of the progress the first annealing takes; the repair and a shorter annealing the
#: rest.
FIRST_PASS = 0.8

_WIND_ORDERS = tuple(itertools.permutations(range(4)))


def swiss_round(
    standings: Sequence[int],
    history: Sequence[Round] = (),
    seed: int = 0,
    teams: Mapping[int, str] | None = None,
    fixed_tables: Mapping[int, int] | None = None,
    closeness_weight: int = DEFAULT_CLOSENESS,
    priority: str = "opponents",
    progress: Callable[[float], None] | None = None,
) -> Round:
    """One round seated from ``standings`` (player ids, best first): tables of four in seat
    order E, S, W, N, table index = table number - 1.

    ``closeness_weight`` trades closeness in the standings against repeats: a repeated
    meeting costs 100, each rank position of spread inside a table costs this much (0 =
    only avoid repeats, 1000 = strictly 1-4, 5-8, ...). ``priority`` "opponents" (default)
    seats no pair a third time while it can, and lets a player revisit a table (90, just
    under a repeat) rather than meet someone again; "tables" keeps everyone off the tables
    they sat at while it can.
    ``progress`` is called with the fraction done, from 0 to 1.

    >>> [sorted(t) for t in swiss_round(list(range(1, 9)))]
    [[1, 2, 3, 4], [5, 6, 7, 8]]
    """
    fixed_tables = fixed_tables or {}
    validate_swiss(standings, history, fixed_tables, closeness_weight, priority)
    reuse_cost = TABLE_REUSE_COST if priority == "tables" else OPPONENTS_FIRST_REUSE_COST
    costs = _Costs(standings, history, teams or {}, fixed_tables, closeness_weight, reuse_cost)
    rng = random.Random(seed)
    tables = _numbered(_first_groups(standings, fixed_tables, costs), costs)
    moves = min(MAX_MOVES, MOVES_PER_PLAYER * len(standings))
    ramp = int(0.7 * moves) if costs.tables_first else 0
    tables = _anneal(
        tables, costs, rng, moves, ramp=ramp, report=progress_share(progress, 0, FIRST_PASS)
    )
    report = progress_share(progress, FIRST_PASS, 1 - FIRST_PASS)
    if costs.tables_first:
        if _key(tables, costs)[0] and _move_off_revisited_tables(tables, costs):
            tables = _anneal(tables, costs, rng, moves // 5, ramp=0, report=report)
    else:
        # The annealing barely climbs out of its start: the same seating with everybody
        # moved off the tables they sat at, annealed again, is a second start (40 players,
        # round 6: 13-28 % cheaper in three of eight cases tried), and the cheaper is kept.
        fresh = [list(grp) for grp in tables]
        if _move_off_revisited_tables(fresh, costs):
            fresh = _anneal(fresh, costs, rng, moves // 5, ramp=0, report=report)
            if _key(fresh, costs) < _key(tables, costs):
                tables = fresh
    tables = _numbered(tables, costs)
    ordered = [tuple(sorted(table, key=costs.rank.__getitem__)) for table in tables]
    seated = assign_winds([ordered], seed=seed, history_counts=costs.wind_counts or None)[0]
    if progress is not None:
        progress(1.0)
    return seated


def validate_swiss(
    standings: Sequence[int],
    history: Sequence[Round],
    fixed_tables: Mapping[int, int],
    closeness_weight: int,
    priority: str,
) -> None:
    """Raise the SeatingError a user can fix (players, fixed tables, history, options), so
    that a caller computing the round later can refuse the request at once."""
    validate_players(standings, fixed_tables)
    validate_history(history)
    if closeness_weight < 0:
        raise SeatingError(
            "invalid_closeness",
            "The closeness weight cannot be negative.",
            field="closeness_weight",
            closeness_weight=closeness_weight,
        )
    validate_priority(priority)


class _Costs:
    """What a table costs, from the history: meetings, visits, teams, wind counts, ranks.

    A pair's cost: a repeat costs more the more often the two have met, and opponents first
    a third meeting (or more) is as hard as a revisit under tables first; team mates clash.
    Players fixed to one table meet by the organiser's choice: never beyond two."""

    def __init__(
        self,
        standings: Sequence[int],
        history: Sequence[Round],
        teams: Mapping[int, str],
        fixed_tables: Mapping[int, int],
        closeness_weight: int,
        reuse_cost: int,
    ) -> None:
        self.reuse_cost = reuse_cost
        self.tables_first = reuse_cost > REPEAT_COST
        self.rank = {p: i for i, p in enumerate(standings)}
        self.n_tables = len(standings) // 4
        self.fixed = {p: t - 1 for p, t in fixed_tables.items()}
        self.closeness_weight = closeness_weight
        self.visits = Counter(
            (p, t) for rnd in history for t, table in enumerate(rnd) for p in table
        )
        played = Counter(p for rnd in history for table in rnd for p in table)
        self.allowed = {p: allowed_visits(played[p] + 1, self.n_tables) for p in standings}
        met = pair_counts(history)
        self.pair_cost = {pair: REPEAT_COST * c * (c + 1) // 2 for pair, c in met.items()}
        #: Opponents first: pair -> meetings beyond the second if the two meet again.
        self.beyond: dict[tuple[int, int], int] = {}
        if not self.tables_first:
            fixed = self.fixed
            self.beyond = {
                (a, b): c - 1
                for (a, b), c in met.items()
                if c >= 2 and (a not in fixed or fixed[a] != fixed.get(b))
            }
        for pair, extra in self.beyond.items():
            self.pair_cost[pair] += BEYOND_TWO_COST * extra
        by_team: dict[str, list[int]] = {}
        for p in standings:
            if p in teams:
                by_team.setdefault(teams[p], []).append(p)
        for mates in by_team.values():
            for i, a in enumerate(mates):
                for b in mates[i + 1 :]:
                    pair = (a, b) if a < b else (b, a)
                    self.pair_cost[pair] = self.pair_cost.get(pair, 0) + TEAM_COST
        self.wind_counts = wind_counts(history)
        self.wind_penalty = {
            p: _wind_penalty(self.wind_counts.get(p, [0, 0, 0, 0])) for p in standings
        }
        self._wind_memo: dict[tuple[tuple[int, ...], ...], int] = {}

    def visit(self, p: int, t: int) -> int:
        """Revisiting a table beyond the fair share; earlier visits break ties."""
        if p in self.fixed:
            return 0 if self.fixed[p] == t else 10 * TABLE_REUSE_COST
        v = self.visits.get((p, t), 0)
        return self.reuse_cost * max(0, v + 1 - self.allowed[p]) + v

    def group(self, grp: Sequence[int]) -> int:
        """The cost of four (or fewer, while grouping) players together, at no table yet."""
        pair_cost = self.pair_cost
        total = 0
        for i, a in enumerate(grp):
            for b in grp[i + 1 :]:
                total += pair_cost.get((a, b) if a < b else (b, a), 0)
        ranks = [self.rank[p] for p in grp]
        spread = max(0, max(ranks) - min(ranks) - (len(grp) - 1))
        return total + self.closeness_weight * spread + self.winds(grp)

    def winds(self, grp: Sequence[int]) -> int:
        """Players who must take a wind leaving them two apart, in the table's best order."""
        if len(grp) < 4:
            return 0
        key = tuple(sorted(self.wind_penalty[p] for p in grp))
        if key not in self._wind_memo:
            self._wind_memo[key] = WIND_COST * min(
                sum(key[i][w] for i, w in enumerate(order)) for order in _WIND_ORDERS
            )
        return self._wind_memo[key]

    def visits_at(self, grp: Sequence[int], t: int) -> tuple[int, int]:
        """(earlier visits, visits beyond the fair share) of ``grp`` at table ``t``; players
        fixed there never move, so their visits are no revisits."""
        earlier = revisits = 0
        for p in grp:
            v = self.visits.get((p, t), 0)
            earlier += v
            if v >= self.allowed[p] and p not in self.fixed:
                revisits += v + 1 - self.allowed[p]
        return earlier, revisits

    def revisits(self, grp: Sequence[int], t: int) -> int:
        return self.visits_at(grp, t)[1]

    def meetings_beyond_two(self, grp: Sequence[int]) -> int:
        """Meetings beyond a pair's second that seating ``grp`` together adds."""
        beyond = self.beyond
        if not beyond:
            return 0
        return sum(
            beyond.get((a, b) if a < b else (b, a), 0)
            for i, a in enumerate(grp)
            for b in grp[i + 1 :]
        )

    def table(self, grp: Sequence[int], t: int, reuse_weight: int) -> int:
        """The cost of ``grp`` at table ``t``, a revisit weighing ``reuse_weight``."""
        earlier, revisits = self.visits_at(grp, t)
        return self.group(grp) + earlier + reuse_weight * revisits


def _wind_penalty(counts: Sequence[int]) -> tuple[int, ...]:
    """Per wind, how far beyond one apart the player's counts go if they take it."""
    out = []
    for w in range(4):
        after = list(counts)
        after[w] += 1
        out.append(max(0, max(after) - min(after) - 1))
    return tuple(out)


def _first_groups(
    standings: Sequence[int], fixed_tables: Mapping[int, int], costs: _Costs
) -> list[list[int]]:
    """Groups in standings order; players fixed to one table open it together."""
    groups: list[list[int]] = []
    fixed_group: dict[int, int] = {}
    for p in standings:
        t = fixed_tables.get(p)
        if t is not None:
            if t not in fixed_group:
                fixed_group[t] = len(groups)
                groups.append([])
            groups[fixed_group[t]].append(p)
    unseated = [p for p in standings if p not in fixed_tables]
    for grp in groups:
        while len(grp) < 4:
            grp.append(_pick(grp, unseated, costs))
    while unseated:
        grp = [unseated.pop(0)]
        while len(grp) < 4:
            grp.append(_pick(grp, unseated, costs))
        groups.append(grp)
    return groups


def _pick(grp: list[int], unseated: list[int], costs: _Costs, window: int = 6) -> int:
    """Take from the first ``window`` unseated players the one adding the least cost; widen
    the window while every candidate adds a repeat or a clash."""
    best_i, best_c = 0, None
    w = window
    while True:
        for i, p in enumerate(unseated[:w]):
            c = costs.group([*grp, p])
            if best_c is None or c < best_c:
                best_i, best_c = i, c
        if best_c is not None and best_c < REPEAT_COST or w >= len(unseated):
            break
        w *= 2
    return unseated.pop(best_i)


def _numbering_matrix(groups: Sequence[Sequence[int]], costs: _Costs) -> list[list[int]]:
    return [[sum(costs.visit(p, t) for p in grp) for t in range(costs.n_tables)] for grp in groups]


def _numbered(groups: list[list[int]], costs: _Costs) -> list[list[int]]:
    """Groups placed at the table numbers that cost least in visits (fixed tables forced)."""
    tables: list[list[int]] = [[] for _ in range(costs.n_tables)]
    for g, t in enumerate(hungarian(_numbering_matrix(groups, costs))):
        tables[t] = list(groups[g])
    if any(len(t) != 4 for t in tables):
        raise SeatingError("swiss_failed", "Could not seat the round.", field="standings")
    return tables


def _anneal(
    tables: list[list[int]],
    costs: _Costs,
    rng: random.Random,
    moves: int,
    ramp: int,
    report: Callable[[float], None] | None = None,
) -> list[list[int]]:
    """Swap two players, rotate three close in the standings, or swap the numbers of two
    tables, while the total cost goes down (and sometimes up, less and less often); return
    the cheapest seating seen.

    A revisited table weighs as a repeat at first and its full weight after ``ramp`` moves:
    a late Swiss round leaves each player few free tables, and two players can rarely trade
    seats without one of them passing through a table they have visited."""
    free_tables = [t for t, grp in enumerate(tables) if not any(p in costs.fixed for p in grp)]
    movable = sorted((p for grp in tables for p in grp if p not in costs.fixed), key=costs.rank.get)
    where = {p: t for t, grp in enumerate(tables) for p in grp}
    best = [list(grp) for grp in tables]
    if len(tables) < 2 or len(movable) < 2:
        return best
    last = len(movable) - 1
    best_key = _key(tables, costs)
    end_temp = 0.5
    cost: list[int] = []
    for k in range(moves):
        if k % 256 == 0:
            if best_key == (0, 0):
                break
            if report is not None:
                report(k / moves)
            ramped = min(1.0, k / ramp) if ramp else 1.0
            weight = int(REPEAT_COST * (costs.reuse_cost / REPEAT_COST) ** ramped)
            cost = [costs.table(grp, t, weight) for t, grp in enumerate(tables)]
            temp = START_TEMP * (end_temp / START_TEMP) ** (k / moves)
        if len(free_tables) > 1 and rng.random() < 0.1:
            touched = rng.sample(free_tables, 2)
            movers = [p for t in touched for p in tables[t]]
            spots = [(t, i) for t in reversed(touched) for i in range(4)]
        else:
            if rng.random() < CYCLES:
                i = rng.randint(0, last)
                near = (movable[min(last, max(0, i + rng.randint(-NEAR, NEAR)))] for _ in range(2))
                movers = [movable[i], *near]
            else:
                movers = rng.sample(movable, 2)
            touched = [where[p] for p in movers]
            if len(set(touched)) < len(touched):
                continue
            # Each mover takes the seat of the next one, the last the first one's.
            spots = [(where[p], tables[where[p]].index(p)) for p in movers[1:] + movers[:1]]
        before = [tables[t][i] for t, i in spots]
        for p, (t, i) in zip(movers, spots, strict=True):
            tables[t][i] = p
        new = [costs.table(tables[t], t, weight) for t in touched]
        delta = sum(new) - sum(cost[t] for t in touched)
        if delta > 0 and rng.random() >= math.exp(-delta / temp):
            for p, (t, i) in zip(before, spots, strict=True):
                tables[t][i] = p
            continue
        for t, c in zip(touched, new, strict=True):
            cost[t] = c
        for p, (t, _i) in zip(movers, spots, strict=True):
            where[p] = t
        if delta < 0:
            key = _key(tables, costs)
            if key < best_key:
                best_key, best = key, [list(grp) for grp in tables]
    return best


def _move_off_revisited_tables(tables: list[list[int]], costs: _Costs) -> bool:
    """Reseat the players who revisit a table, each by an augmenting path (a player moves
    to a free table, or to one where another player moves on in the same way), changing
    nothing else. Succeeds whenever some seating has no revisit: a maximum matching of
    players to tables of four is found this way. ``False``, tables unchanged, if none has."""
    where = {p: t for t, grp in enumerate(tables) for p in grp}
    seated: list[list[int]] = [[] for _ in tables]
    waiting = []
    for t, grp in enumerate(tables):
        for p in grp:
            (waiting if costs.revisits([p], t) else seated[t]).append(p)
    for p in waiting:
        path = _augmenting_path(p, seated, costs)
        if path is None:
            return False
        for q, t in path:
            if q in seated[where[q]]:
                seated[where[q]].remove(q)
            seated[t].append(q)
            where[q] = t
    tables[:] = seated
    return True


def _augmenting_path(
    start: int, seated: list[list[int]], costs: _Costs
) -> list[tuple[int, int]] | None:
    """Breadth-first: moves (player, table) ending at a table with a free seat."""
    came_from: dict[int, tuple[int, int]] = {}
    frontier = [(start, -1)]
    seen_players = {start}
    while frontier:
        following = []
        for p, via in frontier:
            for t in range(len(seated)):
                if t in came_from or costs.revisits([p], t):
                    continue
                came_from[t] = (p, via)
                if len(seated[t]) < 4:
                    return _unwind(t, came_from)
                for q in seated[t]:
                    if q not in costs.fixed and q not in seen_players:
                        seen_players.add(q)
                        following.append((q, t))
        frontier = following
    return None


def _unwind(t: int, came_from: dict[int, tuple[int, int]]) -> list[tuple[int, int]]:
    path = []
    while t != -1:
        p, previous = came_from[t]
        path.append((p, t))
        t = previous
    return path


def _key(tables: Sequence[Sequence[int]], costs: _Costs) -> tuple[int, int]:
    """Revisits first, then everything else (tables first); or meetings beyond a pair's
    second first, then the weighted total (opponents first)."""
    revisits = sum(costs.revisits(grp, t) for t, grp in enumerate(tables))
    rest = sum(costs.table(grp, t, 0) for t, grp in enumerate(tables))
    if costs.tables_first:
        return revisits, rest
    beyond = sum(costs.meetings_beyond_two(grp) for grp in tables)
    return beyond, rest + costs.reuse_cost * revisits
