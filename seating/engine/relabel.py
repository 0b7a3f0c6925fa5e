"""Keep teams apart in a construction by relabelling players (no Django, stdlib only).

Exchanging the whole schedules of two players (their slots) changes nobody's tables and no
pair's number of meetings *as a set*: repeated pairs, table reuse and wind balance stay
exactly as the construction made them; only team clashes move. So when teams do not pack
into the construction's seat classes, a local search over slot -> player mappings keeps the
construction perfect and only has to place teammates on slots that never meet.

Annealing over swaps of two players of different teams; the delta of a swap is read from
each slot's set of met slots and the slots the two teams hold (O(team size)). The budget is
counted in moves (a seed reproduces its result); the clock is only a safety cut-off.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

__all__ = ["relabel_teams", "slot_meetings"]

#: Heat of a run, in team clashes: cold runs with frequent restarts work best (measured on
#: 44 players x 10 rounds, 11 teams of 4, and 76 x 18, 19 teams of 4).
T_HOT, T_COLD = 0.4, 0.03
#: Moves of one run: max(RUN_MIN, RUN_PER_SLOT * slots); every SHUFFLE_EVERY-th run starts
#: from a shuffled mapping, the others from the best one.
RUN_MIN, RUN_PER_SLOT = 5_000, 40
SHUFFLE_EVERY = 2


def slot_meetings(slot_rounds: Sequence[Sequence[int]], n_slots: int) -> list[dict[int, int]]:
    """For each slot, the slots it meets and how often (rounds are flat seat lists)."""
    meets: list[dict[int, int]] = [{} for _ in range(n_slots)]
    for seats in slot_rounds:
        for base in range(0, len(seats), 4):
            grp = seats[base : base + 4]
            for a in grp:
                m = meets[a]
                for b in grp:
                    if b != a:
                        m[b] = m.get(b, 0) + 1
    return meets


def _clashes(meets: list[dict[int, int]], player: Sequence[int], team: Sequence[int]) -> int:
    total = 0
    for s, m in enumerate(meets):
        ts = team[player[s]]
        if ts < 0:
            continue
        for o, c in m.items():
            if o > s and team[player[o]] == ts:
                total += c
    return total


def relabel_teams(
    slot_rounds: Sequence[Sequence[int]],
    slot_player: Sequence[int],
    team: Sequence[int],
    rng: random.Random,
    frozen: Sequence[bool] | None = None,
    max_moves: int = 200_000,
    max_work: int = 2_000_000,
    deadline: float | None = None,
) -> tuple[list[int], int]:
    """Choose which player takes which slot so that teammates meet as little as possible.

    ``slot_rounds``: per round the flat seat list of slots; ``slot_player``: the starting
    slot -> dense player mapping; ``team[p]``: team index or -1; ``frozen[s]``: slot s keeps
    its player. Returns the best mapping found and its number of team clashes (same-team
    pairs seated together, summed over rounds). Stops at 0 clashes or after ``max_moves``
    moves, fewer for large teams (a move costs the size of the two teams: ``max_work``
    bounds moves × largest team); ``deadline`` is only a safety cut-off.
    """
    n = len(slot_player)
    player = list(slot_player)
    meets = slot_meetings(slot_rounds, n)
    frozen = frozen if frozen is not None else [False] * n
    total = _clashes(meets, player, team)
    best, best_total = list(player), total
    movable = [s for s in range(n) if not frozen[s]]
    teams_present = {team[player[s]] for s in movable if team[player[s]] >= 0}
    if total == 0 or len(movable) < 2 or not teams_present:
        return best, best_total
    if all(len(m) == n - 1 for m in meets):
        # Every slot meets every other (e.g. AG(2,4)): no mapping changes the clashes.
        return best, best_total

    # Slots held by each team (all slots, frozen ones included: they still clash).
    holds: dict[int, list[int]] = {}
    for s in range(n):
        t = team[player[s]]
        if t >= 0:
            holds.setdefault(t, []).append(s)
    largest = max(len(h) for h in holds.values())
    max_moves = min(max_moves, max_work // max(4, largest))

    def slot_clash(s: int) -> int:
        t = team[player[s]]
        if t < 0:
            return 0
        m = meets[s]
        return sum(m.get(x, 0) for x in holds[t] if x != s)

    def hot_slots() -> list[int]:
        return [s for s in movable if slot_clash(s) > 0]

    def delta_of(s1: int, s2: int) -> int:
        """Clash change if the players of s1 and s2 (different teams) swap slots."""
        d = 0
        m1, m2 = meets[s1], meets[s2]
        t1 = team[player[s1]]
        if t1 >= 0:
            for x in holds[t1]:
                if x != s1:
                    d += m2.get(x, 0) - m1.get(x, 0)
        t2 = team[player[s2]]
        if t2 >= 0:
            for x in holds[t2]:
                if x != s2:
                    d += m1.get(x, 0) - m2.get(x, 0)
        return d

    def apply(s1: int, s2: int) -> None:
        p1, p2 = player[s1], player[s2]
        t1, t2 = team[p1], team[p2]
        if t1 >= 0:
            h = holds[t1]
            h[h.index(s1)] = s2
        if t2 >= 0:
            h = holds[t2]
            h[h.index(s2)] = s1
        player[s1], player[s2] = p2, p1

    def restore(mapping: list[int]) -> None:
        player[:] = mapping
        holds.clear()
        for s in range(n):
            t = team[player[s]]
            if t >= 0:
                holds.setdefault(t, []).append(s)

    t_hot, t_cold = T_HOT, T_COLD
    run_moves = min(max_moves, max(RUN_MIN, RUN_PER_SLOT * n))
    temp = t_hot
    decay = (t_cold / t_hot) ** (1.0 / run_moves)
    in_run = 0
    runs = 0
    hot = hot_slots()
    rand = rng.random
    n_mov = len(movable)
    for move in range(max_moves):
        if move % 1000 == 0:
            if deadline is not None and move and time.monotonic() > deadline:
                break
            hot = hot_slots()
        in_run += 1
        if in_run >= run_moves:
            runs += 1
            in_run = 0
            # Reheat from the best mapping; every other run from a shuffled one.
            restore(best)
            if runs % SHUFFLE_EVERY == 0:
                order = list(movable)
                rng.shuffle(order)
                shuffled = list(best)
                for s, o in zip(movable, order, strict=True):
                    shuffled[s] = best[o]
                restore(shuffled)
            total = _clashes(meets, player, team)
            temp = t_hot
            hot = hot_slots()
        temp *= decay
        if hot and rand() < 0.6:
            s1 = hot[int(rand() * len(hot))]
        else:
            s1 = movable[int(rand() * n_mov)]
        s2 = movable[int(rand() * n_mov)]
        if team[player[s1]] == team[player[s2]]:
            continue
        d = delta_of(s1, s2)
        if d > 0 and rand() >= math.exp(-d / temp):
            continue
        apply(s1, s2)
        total += d
        if total < best_total:
            best_total = total
            best = list(player)
            if best_total == 0:
                break
    return best, best_total
