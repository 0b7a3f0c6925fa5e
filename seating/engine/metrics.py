"""Quality metrics of a seating plan and the lower bounds they are judged against.

One checker for everything: the planner, the quality report after a manual swap, the tests
and the benchmark all call :func:`evaluate`. This module does not build or change plans.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from .model import Metrics, Round
from .winds import least_spread, wind_counts

__all__ = [
    "evaluate",
    "substitutes_needed",
    "repeat_lower_bound",
    "pigeonhole_pairs",
    "PERMUTATION_CODES",
    "permutation_code_pairs",
    "pair_counts",
    "pairs_always_together",
    "allowed_visits",
    "fixed_table_reuse_bound",
    "fixed_pairs",
    "repeats_forced_by_history",
    "reuse_forced_by_history",
    "meetings_forced",
]


def substitutes_needed(n_players: int) -> int:
    """Substitutes to add so that every table has four players.

    >>> [substitutes_needed(n) for n in (36, 37, 38, 39, 40)]
    [0, 3, 2, 1, 0]
    """
    return -n_players % 4


#: Fewest pairs among four players who come from k tables of one round (index k; from four
#: tables on, none): the most even split of four, Σ C(part, 2).
_FORCED_PAIRS = (6, 6, 2, 1)


def repeat_lower_bound(
    n_players: int, rounds: int, *, fresh_tables: bool = False, each_table_once: bool = False
) -> int:
    """Repeated meetings no plan can avoid, the largest of three counts.

    * Counting (docs/seating-theory.md): each round gives a player 3 new opponents, so
      beyond (N − 1)/3 rounds ⌈N·(3R − (N − 1))/2⌉ meetings repeat.
    * Pigeonhole, for three tables or fewer (four with ``fresh_tables``): see
      :func:`pigeonhole_pairs`; each such pair repeats in every round after the first.
    * Permutation codes, with ``each_table_once`` (every player at each of the T tables
      exactly once, so R = T; implies ``fresh_tables``): :func:`permutation_code_pairs`
      pairs meet twice or more. Only a whole plan qualifies, not rounds after a history.

    >>> repeat_lower_bound(32, 10), repeat_lower_bound(24, 8), repeat_lower_bound(16, 6)
    (0, 12, 24)
    >>> repeat_lower_bound(12, 2), repeat_lower_bound(12, 2, fresh_tables=True)
    (3, 6)
    >>> repeat_lower_bound(24, 6), repeat_lower_bound(24, 6, each_table_once=True)
    (0, 6)

    On three or four tables the pigeonhole count is the larger one (16 × 4: 12, not 4):

    >>> [repeat_lower_bound(4 * t, t, each_table_once=True) for t in (2, 3, 4, 5, 6, 7)]
    [12, 12, 12, 0, 6, 0]
    """
    fresh_tables = fresh_tables or each_table_once
    counting = -(-n_players * max(0, 3 * rounds - (n_players - 1)) // 2)
    pigeonhole = max(0, rounds - 1) * pigeonhole_pairs(n_players, fresh_tables)
    codes = permutation_code_pairs(n_players) if each_table_once and rounds == n_players // 4 else 0
    return max(counting, pigeonhole, codes)


#: M(T, T − 1): the most permutations of T tables that agree pairwise in at most one place
#: (Kløve 2000 gives M(6, 5) = 18; T a prime power gives T(T − 1), which is 4T or more from
#: T = 5 on). Each value is checked by ``bench/designs/permutation_code_6_5.py`` (about 10 s), which
#: finds a code of that size and shows by an exhaustive clique search that none is larger.
#: Other T: unknown here, no bound.
PERMUTATION_CODES = {2: 2, 3: 6, 4: 12, 5: 20, 6: 18}


def permutation_code_pairs(n_players: int) -> int:
    """Pairs who meet twice or more in any plan that sits each player at each of the
    T = N/4 tables exactly once (T rounds).

    A player's tables are then a permutation of the T tables, and two players meet as often
    as their permutations agree (docs/seating-theory.md). Players who pairwise meet at most
    once have distinct permutations (T ≥ 2) agreeing in at most one place, so at most M =
    PERMUTATION_CODES[T] of them. The other pairs thus never join M + 1 players all to one
    another, and by Turán's theorem they are at most those between M groups as even as
    possible: the pairs within the groups' count of pairs meet twice or more, each a repeat
    at least. 24 players at 6 tables: 18 groups, 6 of two players, 6 pairs.

    >>> [permutation_code_pairs(n) for n in (8, 12, 16, 20, 24, 28)]
    [12, 6, 4, 0, 6, 0]
    """
    largest = PERMUTATION_CODES.get(n_players // 4)
    if largest is None or n_players <= largest:
        return 0
    size, larger = divmod(n_players, largest)
    return larger * (size + 1) * size // 2 + (largest - larger) * size * (size - 1) // 2


def pigeonhole_pairs(n_players: int, fresh_tables: bool = False) -> int:
    """Pairs at the tables of a round who sat together in any one earlier round: a table's
    four players sat at most at T tables then (T − 1 with ``fresh_tables``, when nobody may
    sit at a table twice), so on three tables or fewer (four) some of them sat together.

    >>> pigeonhole_pairs(16), pigeonhole_pairs(16, fresh_tables=True), pigeonhole_pairs(20, True)
    (0, 4, 0)
    """
    tables = n_players // 4
    if tables == 1:
        return 6
    sources = tables - 1 if fresh_tables else tables
    return tables * _FORCED_PAIRS[sources] if 0 < sources < len(_FORCED_PAIRS) else 0


def repeats_forced_by_history(
    met: Mapping[tuple[int, int], int], players: set[int], rounds: int
) -> int:
    """Repeats that ``rounds`` more rounds of ``players`` must add to the meetings ``met``.

    A player meets 3 opponents a round; beyond those they have not met yet, every meeting
    repeats one, and each repeat is counted at both of its players: ⌈Σ max(0, 3R − unmet)/2⌉.
    Without history this is the counting bound.

    Sixteen players who have each met the 7 others of their half have 8 left to meet; 3 more
    rounds bring 9 meetings each:

    >>> from itertools import combinations
    >>> met = {pair: 1 for half in (range(1, 9), range(9, 17)) for pair in combinations(half, 2)}
    >>> repeats_forced_by_history(met, set(range(1, 17)), 3), repeat_lower_bound(16, 3)
    (8, 0)
    """
    unmet = dict.fromkeys(players, len(players) - 1)
    for (a, b), count in met.items():
        if count and a in unmet and b in unmet:
            unmet[a] -= 1
            unmet[b] -= 1
    return -(-sum(max(0, 3 * rounds - u) for u in unmet.values()) // 2)


def meetings_forced(
    met: Mapping[tuple[int, int], int],
    players: Collection[int],
    rounds: int,
    counted: Collection[int] | None = None,
) -> int:
    """The most meetings some pair of ``players`` reaches in any plan of ``rounds`` more
    rounds after the meetings ``met`` (counting, docs/seating-theory.md): a player meets
    3 opponents a round, all among the N − 1 others, so one of them ends with at least
    ⌈(meetings so far with them + 3R) / (N − 1)⌉ meetings. Taken over the ``counted``
    players (default: all).

    16 players × 5 rounds: 15 opponent seats for 15 opponents; 16 × 6: 18 for 15. Eight
    players who sat at two tables once have 3 meetings, and 6 more in 2 rounds, for 7 others.

    >>> meetings_forced({}, range(16), 5), meetings_forced({}, range(16), 6)
    (1, 2)
    >>> from itertools import combinations
    >>> met = {pair: 1 for table in ((1, 2, 3, 4), (5, 6, 7, 8)) for pair in combinations(table, 2)}
    >>> meetings_forced({}, range(1, 9), 2), meetings_forced(met, range(1, 9), 2)
    (1, 2)
    """
    n = len(players)
    if n < 2 or rounds <= 0:
        return 0
    so_far = dict.fromkeys(players, 0)
    for (a, b), count in met.items():
        if a in so_far and b in so_far:
            so_far[a] += count
            so_far[b] += count
    counted = so_far.keys() if counted is None else counted
    most = max((so_far[p] for p in counted if p in so_far), default=None)
    return 0 if most is None else -(-(most + 3 * rounds) // (n - 1))


def reuse_forced_by_history(
    history: Sequence[Round],
    players: Collection[int],
    new_rounds: int,
    new_tables: int,
    n_tables: int,
) -> int:
    """Table revisits the ``new_rounds`` rounds (on ``new_tables`` tables) add whatever the
    plan, for ``players`` after ``history``: a player may sit ⌈R/T⌉ times at each of the
    T = ``n_tables`` table numbers over all R rounds they play, and only the new tables are
    left. When a field shrinks a table goes, and a player who never sat at it has fewer
    free places than rounds to play.

    24 players, 6 tables, 3 rounds played; 4 withdraw and 5 tables stay for the last 3
    rounds: 1 and 2 sat at tables 1–3, so they have 2 free tables for 3 rounds; 3 sat at
    table 6 and keeps 3.

    >>> history = [((1, 2), (), (), (), (), (3,)), ((), (1, 2), (), (), (3,), ()),
    ...            ((), (), (1, 2), (3,), (), ())]
    >>> reuse_forced_by_history(history, {1, 2, 3}, 3, 5, 6)
    2
    """
    visits: dict[int, Counter[int]] = {p: Counter() for p in players}
    for rnd in history:
        for t, table in enumerate(rnd):
            for p in table:
                if p in visits:
                    visits[p][t] += 1
    forced = 0
    for seen in visits.values():
        allowed = allowed_visits(sum(seen.values()) + new_rounds, n_tables)
        free = sum(max(0, allowed - seen[t]) for t in range(new_tables))
        forced += max(0, new_rounds - free)
    return forced


def fixed_table_reuse_bound(
    n_players: int, n_tables: int, rounds: int, fixed_tables: Mapping[int, int]
) -> int:
    """Table revisits forced by players fixed to their table: the other tables need
    4·rounds visits each, and a player who is not fixed can give each at most ⌈R/T⌉.

    >>> fixed_table_reuse_bound(24, 6, 6, {1: 1}), fixed_table_reuse_bound(32, 8, 7, {1: 2})
    (5, 0)
    """
    others = n_players - len(fixed_tables)
    free_tables = n_tables - len(set(fixed_tables.values()))
    per_table = max(0, 4 * rounds - others * allowed_visits(rounds, n_tables))
    return free_tables * per_table


def fixed_pairs(fixed_tables: Mapping[int, int]) -> int:
    """Pairs of players fixed to one table: they meet every round, so each repeats R − 1
    times whatever the plan.

    >>> fixed_pairs({1: 2, 2: 2, 3: 2, 4: 5})
    3
    """
    return sum(k * (k - 1) // 2 for k in Counter(fixed_tables.values()).values())


def allowed_visits(rounds: int, tables: int) -> int:
    """Fair maximum visits of one player to one table: ⌈rounds / tables⌉ (at least 1)."""
    if tables <= 0:
        return max(1, rounds)
    return max(1, -(-rounds // tables))


def pair_counts(rounds: Sequence[Round]) -> Counter[tuple[int, int]]:
    """Meetings per unordered pair (smaller id first)."""
    counts: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        for table in rnd:
            for i in range(len(table)):
                a = table[i]
                for j in range(i + 1, len(table)):
                    b = table[j]
                    counts[(a, b) if a < b else (b, a)] += 1
    return counts


def pairs_always_together(rounds: Sequence[Round]) -> list[tuple[int, int]]:
    """Pairs who share a table in every one of two or more ``rounds``, sorted: the organiser
    is told about them, since players notice one opponent every round far more than a total.

    >>> pairs_always_together([[(1, 2, 3, 4), (5, 6, 7, 8)], [(1, 2, 5, 6), (3, 4, 7, 8)]])
    [(1, 2), (3, 4), (5, 6), (7, 8)]
    """
    if len(rounds) < 2:
        return []
    return sorted(pair for pair, n in pair_counts(rounds).items() if n == len(rounds))


def _played(rounds: Sequence[Round]) -> Counter[int]:
    return Counter(p for rnd in rounds for table in rnd for p in table)


def _table_reuse(
    rounds: Sequence[Round],
    fixed_tables: Mapping[int, int],
    n_tables: int,
    played: Counter[int],
) -> int:
    visits: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        for t, table in enumerate(rnd):
            for p in table:
                if fixed_tables.get(p) != t + 1:
                    visits[(p, t)] += 1
    total = 0
    for (p, _t), v in visits.items():
        extra = v - allowed_visits(played[p], n_tables)
        if extra > 0:
            total += extra
    return total


def _repeats(counts: Counter[tuple[int, int]]) -> int:
    return sum(c - 1 for c in counts.values() if c > 1)


def evaluate(
    rounds: Sequence[Round],
    teams: Mapping[int, str] | None = None,
    fixed_tables: Mapping[int, int] | None = None,
    *,
    played: int = 0,
    seconds: float = 0.0,
) -> Metrics:
    """Metrics of ``rounds`` (history followed by the plan).

    ``played`` is how many leading rounds are history: repeats and table reuse they already
    contain are part of the lower bounds, since re-planning cannot undo them.

    Below 1–2, 3–4, 5–6 and 7–8 meet twice; 1, 2, 7 and 8 sit at their table again; 1 is
    East twice, where every player could have had two winds once.

    >>> m = evaluate([((1, 2, 3, 4), (5, 6, 7, 8)), ((1, 2, 5, 6), (3, 4, 7, 8))])
    >>> (m.repeat_pairs, m.max_meetings, m.table_reuse, m.wind_imbalance)
    (4, 2, 4, 2)
    >>> m.wind_imbalance_lower_bound
    1
    """
    teams = teams or {}
    fixed_tables = fixed_tables or {}
    rounds = [tuple(tuple(t) for t in rnd) for rnd in rounds]
    n_tables = max((len(rnd) for rnd in rounds), default=0)

    counts = pair_counts(rounds)
    winds: dict[int, list[int]] = {}
    clashes = 0
    for rnd in rounds:
        for table in rnd:
            for seat, p in enumerate(table):
                winds.setdefault(p, [0, 0, 0, 0])[seat % 4] += 1
            if teams:
                names = [teams[p] for p in table if p in teams]
                for c in Counter(names).values():
                    clashes += c * (c - 1) // 2

    history, new = rounds[:played], rounds[played:]
    hist_counts = pair_counts(history)
    hist_repeats = _repeats(hist_counts)
    new_players = {p for rnd in new for table in rnd for p in table}
    uniform = all({p for table in rnd for p in table} == new_players for rnd in new)
    total_played = _played(rounds)
    table_reuse = _table_reuse(rounds, fixed_tables, n_tables, total_played)
    # A plan that must sit nobody at a table twice (no reuse while all its rounds, played
    # ones included, fit the tables) is judged against such plans; not beyond (two visits
    # are allowed then), nor with a fixed player (who may stay at his table).
    fresh = (
        table_reuse == 0
        and len(rounds) <= n_tables
        and not any(p in fixed_tables for p in new_players)
    )
    # Each player at each table once (the permutation-code bound): a whole plan with as many
    # rounds as tables, sitting nobody twice at a table (⌈T/T⌉ = 1 visit allowed). After a
    # history a player may visit a table twice within the new rounds.
    each_table_once = (
        fresh and not history and len(new) == n_tables and len(new_players) == 4 * n_tables
    )
    fixed_here = {p: t for p, t in fixed_tables.items() if p in new_players}
    bound_new = 0
    if uniform:
        bound_new = max(
            repeat_lower_bound(
                len(new_players),
                len(new),
                fresh_tables=fresh,
                each_table_once=each_table_once,
            ),
            repeats_forced_by_history(hist_counts, new_players, len(new)),
            max(0, len(new) - 1) * fixed_pairs(fixed_here),
        )
    if not history and uniform:
        bound = bound_new
    else:
        # max(0, a + b - 1) >= max(0, a - 1) + max(0, b - 1) for meeting counts a, b.
        bound = hist_repeats + bound_new
    if history:
        reuse_bound = _table_reuse(history, fixed_tables, n_tables, total_played)
        if uniform and new:
            reuse_bound += reuse_forced_by_history(
                history, new_players - fixed_tables.keys(), len(new), len(new[0]), n_tables
            )
    elif uniform:
        reuse_bound = fixed_table_reuse_bound(len(new_players), n_tables, len(new), fixed_here)
    else:
        reuse_bound = 0
    new_games = _played(new)
    most_bound = max(hist_counts.values(), default=1 if rounds else 0)
    if uniform and new:
        together = [
            hist_counts[(a, b) if a < b else (b, a)] + len(new)
            for a, b in itertools.combinations(fixed_here, 2)
            if fixed_here[a] == fixed_here[b]
        ]
        most_bound = max(most_bound, meetings_forced(hist_counts, new_players, len(new)), *together)
    if bound:
        most_bound = max(most_bound, 2)  # some pair meets twice

    return Metrics(
        table_reuse=table_reuse,
        repeat_pairs=_repeats(counts),
        max_meetings=max(counts.values(), default=0),
        wind_imbalance=max((max(w) - min(w) for w in winds.values()), default=0),
        team_clashes=clashes,
        seconds=seconds,
        repeat_lower_bound=bound,
        table_reuse_lower_bound=reuse_bound,
        wind_imbalance_lower_bound=least_spread(wind_counts(history), new_games),
        max_meetings_lower_bound=most_bound,
    )
