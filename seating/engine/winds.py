"""Starting winds: order the four players of every table as E, S, W, N.

Exact method (THEORY.md, "Winds are solved exactly"): split each player's rounds into blocks
of four; the bipartite multigraph between (player, block) and (round, table) has maximum
degree 4, so it has a proper 4-edge-colouring (König); colour = wind. Then every player holds
each wind ⌊R/4⌋ or ⌈R/4⌉ times (spread 0 when 4 divides R) and every table has each wind
once. The colouring is built edge by edge, freeing a colour by swapping an alternating path.

When rounds were already played (live re-seating) the earlier winds are fixed; a short hill
climb on seat swaps then evens out the totals. This module does not choose who sits where.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence

__all__ = ["assign_winds", "wind_counts"]


def wind_counts(rounds: Sequence[Sequence[Sequence[int]]]) -> dict[int, list[int]]:
    """Per player, how often they started as E, S, W, N."""
    counts: dict[int, list[int]] = {}
    for rnd in rounds:
        for table in rnd:
            for seat, p in enumerate(table):
                counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
    return counts


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
    tables: list[list[list[int]]], totals: dict[int, list[int]], rng: random.Random
) -> None:
    """Even out the total counts (history included) by swapping seats inside tables: a short
    annealing on the sum of squared counts, which is smallest when the counts are even."""
    flat = [table for rnd in tables for table in rnd]
    if not flat:
        return
    moves = 40 * 6 * len(flat)
    temp, cold = 2.0, 0.05
    decay = (cold / temp) ** (1.0 / moves)
    for _ in range(moves):
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


def _polish_tables(tables: list[list[list[int]]], totals: dict[int, list[int]]) -> None:
    """Give every table the best of its 24 orders, the others fixed: fewest squared counts,
    then the smallest largest spread. Two orders with equal squares can differ in spread
    (one player on 2/1/0/3 against everyone within 2), and the report counts the spread."""

    def cost(players: Sequence[int]) -> tuple[int, int, int]:
        counts = [totals[p] for p in players]
        spreads = [max(w) - min(w) for w in counts]
        return sum(c * c for w in counts for c in w), max(spreads), sum(spreads)

    for _ in range(3):
        improved = False
        for table in (table for rnd in tables for table in rnd):
            for seat, p in enumerate(table):
                totals[p][seat] -= 1
            best, best_cost = list(table), None
            for order in itertools.permutations(table):
                for seat, p in enumerate(order):
                    totals[p][seat] += 1
                order_cost = cost(order)
                if best_cost is None or order_cost < best_cost:
                    best, best_cost = list(order), order_cost
                for seat, p in enumerate(order):
                    totals[p][seat] -= 1
            improved = improved or best != table
            table[:] = best
            for seat, p in enumerate(table):
                totals[p][seat] += 1
        if not improved:
            return


def _repair_chains(
    tables: list[list[list[int]]], totals: dict[int, list[int]], rng: random.Random
) -> None:
    """Fix players whose counts are still uneven by alternating chains: x gives up wind a
    for b at one table, the player y who had b there takes a and, unless that lowers the
    total imbalance, passes a on in the same way. A chain that does not help is undone."""
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
) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """Reorder every table of ``rounds`` so that winds are as even as possible.

    Table membership and table numbers are kept; only the order inside a table changes.

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
        totals: dict[int, list[int]] = {}
        for p in occurrences:
            totals[p] = list(history_counts.get(p, (0, 0, 0, 0)))
        for rnd in seated:
            for table in rnd:
                for seat, p in enumerate(table):
                    totals[p][seat] += 1
        _rebalance(seated, totals, rng)
        _repair_chains(seated, totals, rng)
        _polish_tables(seated, totals)

    return tuple(tuple((t[0], t[1], t[2], t[3]) for t in rnd) for rnd in seated)
