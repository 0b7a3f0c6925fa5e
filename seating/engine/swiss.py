"""Swiss rounds: seat one round from the current standings.

The best unseated player opens a table and takes, from a window of the next players in the
standings, those that add the least cost (a repeated meeting or a team clash costs 100, each
rank position of spread costs ``closeness_weight``); the window widens before a repeat is
accepted. Pairwise swaps between tables then lower the total. Table numbers come last, by an
optimal assignment (Hungarian method) against earlier visits, so nobody returns to a table
while another is free. Players fixed to a table open their own table.

This module does not compute standings; it receives them best first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .assignment import hungarian
from .metrics import allowed_visits
from .model import Round, SeatingError
from .planner import validate_players
from .winds import assign_winds, wind_counts

__all__ = ["swiss_round"]

REPEAT_COST = 100
TEAM_COST = 100


def swiss_round(
    standings: Sequence[int],
    history: Sequence[Round] = (),
    seed: int = 0,
    teams: Mapping[int, str] | None = None,
    fixed_tables: Mapping[int, int] | None = None,
    closeness_weight: int = 10,
) -> Round:
    """One round seated from ``standings`` (player ids, best first): tables of four in seat
    order E, S, W, N, table index = table number - 1.

    ``closeness_weight`` trades closeness in the standings against repeats: a repeated
    meeting costs 100, each rank position of spread inside a table costs this much (0 =
    only avoid repeats, 1000 = strictly 1-4, 5-8, ...).

    >>> [sorted(t) for t in swiss_round(list(range(1, 9)))]
    [[1, 2, 3, 4], [5, 6, 7, 8]]
    """
    teams = teams or {}
    fixed_tables = fixed_tables or {}
    validate_players(standings, fixed_tables)
    rng = random.Random(seed)
    n = len(standings)
    n_tables = n // 4
    rank = {p: i for i, p in enumerate(standings)}
    meet: dict[tuple[int, int], int] = {}
    visits: dict[tuple[int, int], int] = {}
    played: dict[int, int] = {}
    for rnd in history:
        for t, table in enumerate(rnd):
            for i, a in enumerate(table):
                visits[(a, t)] = visits.get((a, t), 0) + 1
                played[a] = played.get(a, 0) + 1
                for b in table[i + 1 :]:
                    key = (a, b) if a < b else (b, a)
                    meet[key] = meet.get(key, 0) + 1

    def pair_cost(a: int, b: int) -> int:
        c = meet.get((a, b) if a < b else (b, a), 0)
        same_team = a in teams and teams.get(b) == teams[a]
        return REPEAT_COST * c * (c + 1) // 2 + (TEAM_COST if same_team else 0)

    def group_cost(grp: Sequence[int]) -> int:
        total = 0
        for i, a in enumerate(grp):
            for b in grp[i + 1 :]:
                total += pair_cost(a, b)
        ranks = [rank[p] for p in grp]
        return total + closeness_weight * max(0, max(ranks) - min(ranks) - (len(grp) - 1))

    # Fixed players open their own tables (players fixed to one table sit together).
    groups: list[list[int]] = []
    fixed_group: dict[int, int] = {}
    for p in standings:
        t = fixed_tables.get(p)
        if t is not None:
            if t not in fixed_group:
                fixed_group[t] = len(groups)
                groups.append([])
            groups[fixed_group[t]].append(p)
    locked = {p for p in standings if p in fixed_tables}
    unseated = [p for p in standings if p not in locked]
    window = 6
    for grp in groups:
        while len(grp) < 4:
            grp.append(_pick(grp, unseated, window, group_cost))
    while unseated:
        grp = [unseated.pop(0)]
        while len(grp) < 4:
            grp.append(_pick(grp, unseated, window, group_cost))
        groups.append(grp)

    # Pairwise swaps between tables while they lower the total.
    improved = True
    passes = 0
    while improved and passes < 20:
        improved = False
        passes += 1
        order = list(range(len(groups)))
        rng.shuffle(order)
        for gi in order:
            for gj in order:
                if gi >= gj:
                    continue
                g1, g2 = groups[gi], groups[gj]
                base = group_cost(g1) + group_cost(g2)
                for i in range(4):
                    if g1[i] in locked:
                        continue
                    for j in range(4):
                        if g2[j] in locked:
                            continue
                        g1[i], g2[j] = g2[j], g1[i]
                        if group_cost(g1) + group_cost(g2) < base:
                            base = group_cost(g1) + group_cost(g2)
                            improved = True
                        else:
                            g1[i], g2[j] = g2[j], g1[i]

    # Table numbers: optimal assignment against earlier visits; fixed tables forced.
    big = 10**9
    matrix = []
    for grp in groups:
        row = []
        for t in range(n_tables):
            c = 0
            for p in grp:
                if p in fixed_tables:
                    c += 0 if fixed_tables[p] == t + 1 else big
                    continue
                v = visits.get((p, t), 0)
                lim = allowed_visits(played.get(p, 0) + 1, n_tables)
                c += 1000 * max(0, v + 1 - lim) + v
            row.append(c)
        matrix.append(row)
    assignment = hungarian(matrix)
    tables: list[tuple[int, ...]] = [()] * n_tables
    for g, t in enumerate(assignment):
        tables[t] = tuple(sorted(groups[g], key=rank.__getitem__))
    if any(len(t) != 4 for t in tables):
        raise SeatingError("swiss_failed", "Could not seat the round.", field="standings")
    counts = wind_counts(history) if history else None
    return assign_winds([tables], seed=seed, history_counts=counts)[0]


def _pick(grp: list[int], unseated: list[int], window: int, group_cost) -> int:
    """Take from the first ``window`` unseated players the one adding the least cost; widen
    the window while every candidate adds a repeat or a clash."""
    best_i, best_c = 0, None
    w = window
    while True:
        for i, p in enumerate(unseated[:w]):
            c = group_cost([*grp, p])
            if best_c is None or c < best_c:
                best_i, best_c = i, c
        if best_c is not None and best_c < REPEAT_COST or w >= len(unseated):
            break
        w *= 2
    return unseated.pop(best_i)
