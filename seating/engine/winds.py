"""Starting winds: order the four players of every table as E, S, W, N.

Exact method (docs/seating-theory.md, "Winds are solved exactly"): split each player's
rounds into blocks of four; the bipartite multigraph between (player, block) and (round,
table) has maximum degree 4, so it has a proper 4-edge-colouring (König); colour = wind.
Then every player holds each wind ⌊R/4⌋ or ⌈R/4⌉ times (spread 0 when 4 divides R) and
every table has each wind once. The colouring is built edge by edge, freeing a colour by
swapping an alternating path.

When rounds were already played (live re-seating) the earlier winds are fixed and the counts
they leave may not be evened out by blocks of four. A backtracking search over the tables'
seat orders then keeps everyone within spread 1 but the players a counting bound gives up
(:func:`forced_uneven`), and a hill climb on seat swaps competes where it fails. Both stop
at the caller's deadline with the best orders found by then, so that a re-seat keeps its
time limit. This module does not choose who sits where.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["assign_winds", "forced_uneven", "least_spread", "wind_counts"]


def wind_counts(rounds: Sequence[Sequence[Sequence[int]]]) -> dict[int, list[int]]:
    """Per player, how often they started as E, S, W, N."""
    counts: dict[int, list[int]] = {}
    for rnd in rounds:
        for table in rnd:
            for seat, p in enumerate(table):
                counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
    return counts


def even_range(history: Sequence[int], games: int) -> tuple[list[int], list[int]]:
    """Per wind, the fewest and most times a player with wind counts ``history`` may start
    with it in ``games`` more games to end at spread 1 or less: every total ⌊M/4⌋ or
    ⌈M/4⌉ of the M games played. A wind with a negative most cannot be evened out.

    >>> even_range([2, 1, 0, 0], 5), even_range([2, 1, 0, 0], 4)
    (([0, 1, 2, 2], [0, 1, 2, 2]), ([0, 0, 1, 1], [0, 1, 2, 2]))
    """
    total = sum(history) + games
    low, high = total // 4, -(-total // 4)
    return [max(0, low - h) for h in history], [high - h for h in history]


def _even_ranges(
    history: Mapping[int, Sequence[int]], new_games: Mapping[int, int]
) -> tuple[list[int], dict[int, tuple[list[int], list[int], int]]]:
    """Players who cannot be evened out whatever the seat orders, and the others'
    :func:`even_range` with their games."""
    forced, ranges = [], {}
    for p, games in new_games.items():
        lo, hi = even_range(history.get(p, (0, 0, 0, 0)), games)
        if min(hi) < 0 or sum(lo) > games or sum(hi) < games:
            forced.append(p)
        else:
            ranges[p] = (lo, hi, games)
    return forced, ranges


#: The sets S of winds the counting bound looks at (all but none and all four).
_WIND_SETS = [
    (winds, tuple(w for w in range(4) if w not in winds))
    for size in (1, 2, 3)
    for winds in itertools.combinations(range(4), size)
]


def _least_on(
    winds: Sequence[int], others: Sequence[int], lo: list[int], hi: list[int], games: int
) -> int:
    """Fewest starts on ``winds`` of a player kept within ``lo``..``hi``."""
    return max(sum(lo[w] for w in winds), games - sum(hi[w] for w in others))


def forced_uneven(history: Mapping[int, Sequence[int]], new_games: Mapping[int, int]) -> int:
    """Players of ``new_games`` (player -> games still to play) who end at wind spread 2 or
    more whatever the seat orders, after the wind counts ``history``: a lower bound.

    Those whose own counts cannot be evened out (a wind already beyond ⌈M/4⌉), and, for
    every set S of winds, enough of the others to make room: the new tables seat each wind
    once, so the players who stay even take at least their fewest starts on S
    (:func:`even_range`), and these add up to |S| × tables at most. Who can make most room
    leaves first, so each set's count is exact for that set alone; the largest counts.

    Four players after a round as E, E, E, S would all need S or N twice in the next four
    tables; only two of them can:

    >>> forced_uneven({1: [1, 0, 0, 0], 2: [1, 0, 0, 0], 3: [1, 0, 0, 0], 4: [0, 1, 0, 0]},
    ...               dict.fromkeys((1, 2, 3, 4), 3))
    1
    """
    tables = sum(new_games.values()) // 4
    forced, ranges = _even_ranges(history, new_games)
    most = 0
    for winds, others in _WIND_SETS:
        need = sorted((_least_on(winds, others, *r) for r in ranges.values()), reverse=True)
        excess, leaving = sum(need) - len(winds) * tables, 0
        while excess > 0:
            excess -= need[leaving]
            leaving += 1
        most = max(most, leaving)
    return len(forced) + most


def least_spread(history: Mapping[int, Sequence[int]], new_games: Mapping[int, int]) -> int:
    """A largest wind spread (the quality report's figure) that no seat orders of the new
    games go below for the players of ``history`` (wind counts) and ``new_games`` (player
    -> games still to play); exact without history (0 when every player's games are a
    multiple of four, else 1: the edge colouring reaches it).

    Each player's own least spread, the new games going to their fewest winds first (a
    player who left keeps the spread they had); and 2 as soon as :func:`forced_uneven`
    leaves somebody uneven, as after a round of E, E, E, S with three to play:

    >>> after_one = {1: [1, 0, 0, 0], 2: [1, 0, 0, 0], 3: [1, 0, 0, 0], 4: [0, 1, 0, 0]}
    >>> least_spread(after_one, dict.fromkeys((1, 2, 3, 4), 3))
    2
    >>> least_spread({}, dict.fromkeys((1, 2, 3, 4), 5)), least_spread({9: [2, 1, 1, 0]}, {})
    (1, 2)
    """
    largest = 0
    for p in history.keys() | new_games.keys():
        counts = history.get(p, (0, 0, 0, 0))
        games, top = new_games.get(p, 0), max(counts)
        level = min(counts)
        while level < top and sum(max(0, level + 1 - c) for c in counts) <= games:
            level += 1
        largest = max(largest, top - level if level < top else int((sum(counts) + games) % 4 > 0))
    if largest < 2 and forced_uneven(history, new_games):
        return 2
    return largest


def _uneven_candidates(
    history: Mapping[int, Sequence[int]], new_games: Mapping[int, int]
) -> set[int]:
    """Players given up on before the search for seat orders: those :func:`forced_uneven`
    counts alone, then, while the others' fewest starts on some set of winds exceed what the
    tables hold, the one who makes most room on the most crowded set."""
    tables = sum(new_games.values()) // 4
    forced, ranges = _even_ranges(history, new_games)
    while True:
        worst, crowded = 0, None
        for winds, others in _WIND_SETS:
            over = sum(_least_on(winds, others, *r) for r in ranges.values())
            over -= len(winds) * tables
            if over > worst:
                worst, crowded = over, (winds, others)
        if crowded is None:
            return set(forced)
        p = max(ranges, key=lambda q: _least_on(*crowded, *ranges[q]))
        forced.append(p)
        del ranges[p]


#: Choices per table, and at most in all, the search for even winds after a history may make
#: (restarts included) before the seat-swap improvement is left to itself: enough for the
#: re-seats of bench/winds.py (144 players, 3 rounds left: 108 tables) to reach the bound;
#: a search that fails spends about 2 s of them.
SEARCH_NODES, MAX_SEARCH_NODES = 250, 30_000

#: Share of the time left before the deadline that the search may take when the wind stage
#: starts: the climb gets the rest, so that a search the deadline cuts short still leaves
#: the climb's orders (a search that reaches the bound takes far less).
SEARCH_SHARE = 0.5


def _past(deadline: float | None) -> bool:
    """Whether ``deadline`` (a :func:`time.monotonic` instant; None: no deadline) has passed."""
    return deadline is not None and time.monotonic() >= deadline


#: Seat orders of a table: ``order[s]`` is the wind (E, S, W, N = 0..3) of the seat-s player.
_ORDERS = tuple(itertools.permutations(range(4)))


@functools.cache
def _orders_within(masks: int) -> tuple[tuple[int, ...], ...]:
    """The orders giving each of a table's four players a wind allowed by its 4 bits of
    ``masks`` (player s: bits 4s..4s+3)."""
    return tuple(o for o in _ORDERS if all(masks >> (4 * s + o[s]) & 1 for s in range(4)))


def _search_even(
    flat: Sequence[Sequence[int]],
    history: Mapping[int, Sequence[int]],
    free: set[int],
    rng: random.Random,
    max_nodes: int,
    deadline: float | None = None,
) -> list[tuple[int, ...]] | None:
    """Seat orders for the tables ``flat`` that leave everyone not in ``free`` at spread 1
    or less after ``history``, or None if none was found within ``max_nodes`` choices or
    before ``deadline``.

    A backtracking search: the table with fewest orders left goes next, each player's next
    wind being allowed only while their counts can still end within ⌊M/4⌋..⌈M/4⌉; it
    restarts, with twice the choices, in another random order when a try runs out."""
    tables_of: dict[int, list[int]] = {}
    for i, table in enumerate(flat):
        for p in table:
            tables_of.setdefault(p, []).append(i)
    free = set(free)
    budget, spent = 4 * len(flat) + 100, 0
    while spent < max_nodes:
        budget = min(budget, max_nodes - spent)
        orders, used = _try_even(flat, history, free, tables_of, rng, budget, deadline)
        if orders is not None:
            return orders
        if _past(deadline):
            return None
        if used < budget:  # no orders at all: give up a player of a table left without any
            stuck = _stuck_player(flat, history, free, tables_of)
            if stuck is None:
                return None
            free.add(stuck)
        spent += max(used, 1)
        budget *= 2
    return None


def _stuck_player(
    flat: Sequence[Sequence[int]],
    history: Mapping[int, Sequence[int]],
    free: set[int],
    tables_of: Mapping[int, list[int]],
) -> int | None:
    """A player to give up on at a table whose players' allowed winds admit no order from
    the start (all four lacking the same wind, say): the one allowed fewest winds."""
    for table in flat:
        masks = [15 if p in free else _first_mask(history, p, len(tables_of[p])) for p in table]
        if not _orders_within(masks[0] | masks[1] << 4 | masks[2] << 8 | masks[3] << 12):
            return min(
                (p for p in table if p not in free), key=lambda p: masks[table.index(p)].bit_count()
            )
    return None


def _first_mask(history: Mapping[int, Sequence[int]], p: int, games: int) -> int:
    """Winds player ``p`` may take in their first new game to stay within spread 1."""
    counts = history.get(p, (0, 0, 0, 0))
    total = sum(counts) + games
    return _allowed_winds(counts, total // 4, -(-total // 4), games)


def _allowed_winds(counts: Sequence[int], low: int, high: int, left: int) -> int:
    """Winds (one bit each) a player on wind ``counts`` with ``left`` games to play may
    take next and still end with every count within ``low``..``high``: one below ``high``,
    leaving enough games for the winds still short of ``low``."""
    short = sum(low - x for x in counts if x < low)
    return sum(1 << w for w in range(4) if counts[w] < high and short - (counts[w] < low) < left)


def _try_even(
    flat: Sequence[Sequence[int]],
    history: Mapping[int, Sequence[int]],
    free: set[int],
    tables_of: Mapping[int, list[int]],
    rng: random.Random,
    budget: int,
    deadline: float | None = None,
) -> tuple[list[tuple[int, ...]] | None, int]:
    """One try of :func:`_search_even`: (orders or None, choices made); fewer choices than
    ``budget`` without orders means that there are none, unless ``deadline`` has passed."""
    counts = {p: list(history.get(p, (0, 0, 0, 0))) for p in tables_of}
    left = {p: len(ts) for p, ts in tables_of.items()}
    low, high = {}, {}
    for p, c in counts.items():
        total = sum(c) + left[p]
        low[p], high[p] = total // 4, -(-total // 4)

    def allowed(p: int) -> int:
        return 15 if p in free else _allowed_winds(counts[p], low[p], high[p], left[p])

    mask = {p: allowed(p) for p in tables_of}

    def options(i: int) -> tuple[tuple[int, ...], ...]:
        a, b, c, d = flat[i]
        return _orders_within(mask[a] | mask[b] << 4 | mask[c] << 8 | mask[d] << 12)

    n = len(flat)
    n_options = [len(options(i)) for i in range(n)]
    chosen: list[tuple[int, ...] | None] = [None] * n
    open_tables = set(range(n))
    stack: list[tuple[int, list[tuple[int, ...]]]] = []

    def seat(i: int, order: tuple[int, ...], sign: int) -> None:
        for s, p in enumerate(flat[i]):
            counts[p][order[s]] += sign
            left[p] -= sign
        for p in flat[i]:
            mask[p] = allowed(p)
            for j in tables_of[p]:
                if chosen[j] is None:
                    n_options[j] = len(options(j))

    nodes = 0
    while open_tables:
        i = min(open_tables, key=n_options.__getitem__)
        untried = list(options(i))
        rng.shuffle(untried)
        # Tried last-first: orders giving most players a wind they still lack come first.
        table = flat[i]
        untried.sort(key=lambda o: sum(counts[p][o[s]] < low[p] for s, p in enumerate(table)))
        while not untried:
            if not stack:
                return None, nodes
            i, untried = stack.pop()
            order = chosen[i]
            assert order is not None
            chosen[i] = None
            open_tables.add(i)
            seat(i, order, -1)
        if nodes == budget or (nodes % 256 == 0 and _past(deadline)):
            return None, nodes
        nodes += 1
        order = untried.pop()
        stack.append((i, untried))
        chosen[i] = order
        open_tables.discard(i)
        seat(i, order, 1)
    return [o for o in chosen if o is not None], nodes


def _colour_edges(n_vertices: int, edges: list[tuple[int, int]]) -> list[int]:
    """Proper 4-edge-colouring of a bipartite multigraph with maximum degree <= 4."""
    at: list[list[int]] = [[-1, -1, -1, -1] for _ in range(n_vertices)]
    colour = [-1] * len(edges)
    for e, (u, v) in enumerate(edges):
        a = at[u].index(-1)
        if at[v][a] != -1:
            b = at[v].index(-1)
            # Swap colours a and b along the alternating path from v; in a bipartite graph it
            # cannot end at u, so afterwards a is free at both ends.
            path = []
            x, c = v, a
            while at[x][c] != -1:
                f = at[x][c]
                path.append(f)
                fu, fv = edges[f]
                x = fv if fu == x else fu
                c = b if c == a else a
            for f in path:
                fu, fv = edges[f]
                at[fu][colour[f]] = -1
                at[fv][colour[f]] = -1
            for f in path:
                colour[f] = b if colour[f] == a else a
                fu, fv = edges[f]
                at[fu][colour[f]] = f
                at[fv][colour[f]] = f
        colour[e] = a
        at[u][a] = e
        at[v][a] = e
    return colour


def _rebalance(
    tables: list[list[list[int]]],
    totals: dict[int, list[int]],
    rng: random.Random,
    deadline: float | None = None,
) -> None:
    """Even out the total counts (history included) by swapping seats inside tables: a short
    annealing on the sum of squared counts, which is smallest when the counts are even.
    Stops early at ``deadline``."""
    flat = [table for rnd in tables for table in rnd]
    if not flat:
        return
    moves = 40 * 6 * len(flat)
    temp, cold = 2.0, 0.05
    decay = (cold / temp) ** (1.0 / moves)
    for move in range(moves):
        if move % 1024 == 0 and _past(deadline):
            return
        temp *= decay
        table = flat[rng.randrange(len(flat))]
        i = rng.randrange(4)
        j = rng.randrange(3)
        if j >= i:
            j += 1
        a, b = table[i], table[j]
        wa, wb = totals[a], totals[b]
        # Moving a from wind i to j and b from j to i.
        delta = 2 * (wa[j] - wa[i] + 1) + 2 * (wb[i] - wb[j] + 1)
        if delta > 0 and rng.random() >= math.exp(-delta / temp):
            continue
        wa[i] -= 1
        wa[j] += 1
        wb[j] -= 1
        wb[i] += 1
        table[i], table[j] = b, a


def _unevenness(counts: Sequence[Sequence[int]]) -> tuple[int, int, int, int, int]:
    """How uneven wind counts are, worst first: the largest spread (the report's figure),
    players at spread 2 or more, their starts beyond ⌊M/4⌋..⌈M/4⌉, squared counts, the
    spreads. One player on 1/2/0/3 is worse than two on 2/2/0/2."""
    uneven = beyond = squares = largest = spreads = 0
    for w in counts:
        total = sum(w)
        lo, hi = total // 4, -(-total // 4)
        out = sum(lo - c for c in w if c < lo) + sum(c - hi for c in w if c > hi)
        uneven += out > 0
        beyond += out
        squares += sum(c * c for c in w)
        spread = max(w) - min(w)
        largest = max(largest, spread)
        spreads += spread
    return largest, uneven, beyond, squares, spreads


def _polish_tables(
    tables: list[list[list[int]]], totals: dict[int, list[int]], deadline: float | None = None
) -> None:
    """Give every table the best of its 24 orders by :func:`_unevenness`, the others
    fixed; a spread below the largest one elsewhere does not change the largest. Stops
    early at ``deadline``."""
    spread_of = {p: max(c) - min(c) for p, c in totals.items()}
    players_at = Counter(spread_of.values())

    def cost(players: Sequence[int], elsewhere: int) -> tuple[int, int, int, int, int]:
        largest, *rest = _unevenness([totals[p] for p in players])
        return max(largest, elsewhere), *rest

    for _ in range(3):
        improved = False
        for table in (table for rnd in tables for table in rnd):
            if _past(deadline):
                return
            players_at.subtract(spread_of[p] for p in table)
            elsewhere = max((s for s, k in players_at.items() if k > 0), default=0)
            for seat, p in enumerate(table):
                totals[p][seat] -= 1
            best, best_cost = list(table), None
            for order in itertools.permutations(table):
                for seat, p in enumerate(order):
                    totals[p][seat] += 1
                order_cost = cost(order, elsewhere)
                if best_cost is None or order_cost < best_cost:
                    best, best_cost = list(order), order_cost
                for seat, p in enumerate(order):
                    totals[p][seat] -= 1
            improved = improved or best != table
            table[:] = best
            for seat, p in enumerate(table):
                totals[p][seat] += 1
                spread_of[p] = max(totals[p]) - min(totals[p])
            players_at.update(spread_of[p] for p in table)
        if not improved:
            return


def _repair_chains(
    tables: list[list[list[int]]],
    totals: dict[int, list[int]],
    rng: random.Random,
    deadline: float | None = None,
) -> None:
    """Fix players whose counts are still uneven by alternating chains: x gives up wind a
    for b at one table, the player y who had b there takes a and, unless that lowers the
    total imbalance, passes a on in the same way. A chain that does not help is undone.
    Stops early at ``deadline``."""
    where: dict[int, list[list[int]]] = {}
    for rnd in tables:
        for table in rnd:
            for p in table:
                where.setdefault(p, []).append(table)

    def sq(w: list[int]) -> int:
        return w[0] * w[0] + w[1] * w[1] + w[2] * w[2] + w[3] * w[3]

    for _ in range(5):
        for p in list(where):
            for _attempt in range(100):
                w = totals[p]
                if max(w) - min(w) <= 1:
                    break
                if _past(deadline):
                    return
                a = rng.choice([c for c in range(4) if w[c] == max(w)])
                b = rng.choice([c for c in range(4) if w[c] == min(w)])
                start_cost = sq(w)
                undo: list[tuple[list[int], int, int]] = []
                x, ok = p, False
                used: set[int] = set()
                for _step in range(2000):
                    # Never the same table twice in a chain (it would just swap back).
                    options = [t for t in where[x] if t[a] == x and id(t) not in used]
                    if not options:
                        break
                    table = options[rng.randrange(len(options))]
                    used.add(id(table))
                    y = table[b]
                    y_cost = sq(totals[y])
                    table[a], table[b] = y, x
                    totals[x][a] -= 1
                    totals[x][b] += 1
                    totals[y][b] -= 1
                    totals[y][a] += 1
                    undo.append((table, x, y))
                    if y != p and sq(totals[p]) + sq(totals[y]) < start_cost + y_cost:
                        ok = True
                        break
                    x = y
                if not ok:
                    for table, x, y in reversed(undo):
                        table[a], table[b] = x, y
                        totals[x][a] += 1
                        totals[x][b] -= 1
                        totals[y][b] += 1
                        totals[y][a] -= 1


def assign_winds(
    rounds: Sequence[Sequence[Sequence[int]]],
    seed: int = 0,
    history_counts: Mapping[int, Sequence[int]] | None = None,
    deadline: float | None = None,
) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """Reorder every table of ``rounds`` so that winds are as even as possible.

    Table membership and table numbers are kept; only the order inside a table changes.
    After ``history_counts`` the improvement stops at ``deadline`` (a
    :func:`time.monotonic` instant) with the best orders found by then; the edge colouring
    before it always completes (it is fast and gives every table E, S, W, N once).

    >>> plan = assign_winds([[(1, 2, 3, 4)], [(1, 2, 3, 4)], [(1, 2, 3, 4)], [(1, 2, 3, 4)]])
    >>> sorted(wind_counts(plan)[1])
    [1, 1, 1, 1]
    """
    rng = random.Random(seed)
    occurrences: dict[int, int] = {}
    left: dict[tuple[int, int], int] = {}
    right: list[tuple[int, int]] = []
    edge_ends: list[tuple[tuple[int, int], int]] = []
    for r, rnd in enumerate(rounds):
        for t, table in enumerate(rnd):
            if len(table) != 4 or len(set(table)) != 4:
                raise ValueError("every table needs four distinct players")
            right.append((r, t))
            for p in table:
                k = occurrences.get(p, 0)
                occurrences[p] = k + 1
                key = (p, k // 4)
                if key not in left:
                    left[key] = len(left)
                edge_ends.append((key, len(right) - 1))
    order = list(range(len(edge_ends)))
    rng.shuffle(order)
    n_left = len(left)
    edges = [(left[edge_ends[i][0]], n_left + edge_ends[i][1]) for i in order]
    colours = _colour_edges(n_left + len(right), edges)

    seated: list[list[list[int]]] = [[[0, 0, 0, 0] for _ in rnd] for rnd in rounds]
    for idx, i in enumerate(order):
        (p, _block), rt = edge_ends[i]
        r, t = right[rt]
        seated[r][t][colours[idx]] = p

    if history_counts:
        seated = _after_history(seated, history_counts, occurrences, rng, deadline)
    return tuple(tuple((t[0], t[1], t[2], t[3]) for t in rnd) for rnd in seated)


def _totals(
    seated: list[list[list[int]]], history: Mapping[int, Sequence[int]], players: Iterable[int]
) -> dict[int, list[int]]:
    totals = {p: list(history.get(p, (0, 0, 0, 0))) for p in players}
    for rnd in seated:
        for table in rnd:
            for seat, p in enumerate(table):
                totals[p][seat] += 1
    return totals


def _after_history(
    seated: list[list[list[int]]],
    history: Mapping[int, Sequence[int]],
    games: Mapping[int, int],
    rng: random.Random,
    deadline: float | None = None,
) -> list[list[list[int]]]:
    """Reorder the tables ``seated`` (any orders) so that the wind counts after ``history``
    are as even as possible (:func:`_unevenness`).

    The search for orders that keep all but the players bound to be uneven within spread 1
    (:func:`_search_even`) reaches :func:`forced_uneven` on re-seats after withdrawals; where
    it does not, the seat-swap improvement of the edge colouring competes with it. With a
    ``deadline`` the search takes :data:`SEARCH_SHARE` of the time left, the improvement
    the rest, and the best of what they left (the edge colouring at worst) is returned."""
    # The climb draws what it drew before the search: the search only adds a candidate, so
    # a re-seat's winds are never worse than the climb alone left them.
    climb_rng = random.Random()
    climb_rng.setstate(rng.getstate())
    search_deadline = None
    if deadline is not None:
        now = time.monotonic()
        search_deadline = now + SEARCH_SHARE * max(0.0, deadline - now)
    flat = [table for rnd in seated for table in rnd]
    candidates = []
    found = None
    if not _past(search_deadline):
        found = _search_even(
            flat,
            history,
            _uneven_candidates(history, games),
            rng,
            min(SEARCH_NODES * len(flat), MAX_SEARCH_NODES),
            search_deadline,
        )
    if found is not None:
        ordered = [[[0, 0, 0, 0] for _ in rnd] for rnd in seated]
        for table, new, order in zip(flat, (t for rnd in ordered for t in rnd), found, strict=True):
            for s, p in enumerate(table):
                new[order[s]] = p
        totals = _totals(ordered, history, games)
        _polish_tables(ordered, totals, deadline)
        key = _unevenness(list(totals.values()))
        candidates.append((key, ordered))
        if key[0] <= 2 and key[1] <= forced_uneven(history, games):
            return ordered
    swapped = [[list(t) for t in rnd] for rnd in seated]
    totals = _totals(swapped, history, games)
    _rebalance(swapped, totals, climb_rng, deadline)
    _repair_chains(swapped, totals, climb_rng, deadline)
    _polish_tables(swapped, totals, deadline)
    candidates.append((_unevenness(list(totals.values())), swapped))
    # The colouring competes last: an improvement cut short by the deadline may be worse.
    candidates.append((_unevenness(list(_totals(seated, history, games).values())), seated))
    return min(candidates, key=lambda c: c[0])[1]
