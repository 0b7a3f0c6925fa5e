"""Local search for seatings no construction covers (and for repairing constructions).

Simulated annealing over the new rounds with three moves:

* **swap**: two players of one round change tables;
* **double swap**: a player trades his tables of two rounds with the players who hold them,
  so table visits do not change (a reuse-free plan stays reuse-free);
* **relabel**: two tables of one round swap their numbers (changes only table reuse, so the
  numbering is searched jointly with the groups, as docs/seating-theory.md advises).

The cost is ``w_tables·reuse + w_teams·clashes + w_repeats·Σ pair_cost(meetings)
+ w_beyond·beyond`` (pair_cost: 2 per repeat, plus 1 per meeting beyond the second; beyond:
meetings of a pair beyond ``SearchProblem.meeting_cap``, when one is set). Every move is
scored by an incremental delta on pair meeting counts, (player, table) visit counts and team
counts, never by re-evaluating the plan. Half of the moves start from players who currently cause
cost. The budget is counted in moves (reproducible), the search reheats from the best plan
and stops as soon as the cost reaches its lower bound. :func:`renumber_tables` numbers the
tables of fixed groups by the Hungarian method. Players are dense indices 0..N-1 here; the
planner maps ids. Fixed players never move and tables holding them keep their number.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .assignment import hungarian

__all__ = ["Weights", "SearchProblem", "Costs", "anneal"]

#: Starting heat of an annealing run, in units of the smallest weight.
HOT = 4.0


@dataclass(frozen=True)
class Weights:
    """Relative cost of one unit of table reuse, team clash and repeated meeting, and of
    one meeting of a pair beyond the problem's ``meeting_cap``."""

    tables: int = 16
    teams: int = 8
    repeats: int = 1
    beyond: int = 0


@dataclass(frozen=True)
class SearchProblem:
    """Everything the search needs, in dense indices.

    ``meet0``: flat N*N meeting counts from the history; ``visits0``: flat N*T table visits
    from the history; ``allowed[p]``: fair maximum visits of p to one table; ``team[p]``:
    team index or -1; ``fixed[p]``: table index or -1; ``meeting_cap``: meetings a pair may
    have before each further one counts as ``beyond`` (0: none). Pairs fixed to one table
    meet every round by the organiser's choice: they count no ``beyond``.
    """

    n_players: int
    n_tables: int
    n_rounds: int
    meet0: tuple[int, ...]
    visits0: tuple[int, ...]
    allowed: tuple[int, ...]
    team: tuple[int, ...]
    fixed: tuple[int, ...]
    meeting_cap: int = 0


def pair_cost(meetings: int) -> int:
    """Cost of one pair: 2 per repeated meeting, plus 1 per meeting beyond the second, so
    two pairs meeting twice (4) are preferred to one pair meeting three times (5)."""
    if meetings <= 1:
        return 0
    return 2 * (meetings - 1) + (meetings - 2)


class Costs(NamedTuple):
    """What a plan costs, by concern: table reuse, team clashes, Σ pair_cost, and the
    meetings beyond the problem's cap."""

    reuse: int
    clashes: int
    repeats: int
    beyond: int

    def weighted(self, weights: Weights) -> int:
        """The search's cost: every concern by its weight."""
        return (
            weights.tables * self.reuse
            + weights.teams * self.clashes
            + weights.repeats * self.repeats
            + weights.beyond * self.beyond
        )


def costs(problem: SearchProblem, rounds: Sequence[Sequence[int]]) -> Costs:
    """The :class:`Costs` of flat rounds (seat lists), the history included."""
    n, t_count = problem.n_players, problem.n_tables
    meet = list(problem.meet0)
    visits = list(problem.visits0)
    team, fixed, cap = problem.team, problem.fixed, problem.meeting_cap
    clashes = 0
    for seats in rounds:
        for t in range(t_count):
            grp = seats[4 * t : 4 * t + 4]
            for i in range(4):
                a = grp[i]
                visits[a * t_count + t] += 1
                for j in range(i + 1, 4):
                    b = grp[j]
                    meet[a * n + b] += 1
                    meet[b * n + a] += 1
                    if team[a] >= 0 and team[a] == team[b]:
                        clashes += 1
    rep = beyond = 0
    for a in range(n):
        for b in range(a + 1, n):
            m = meet[a * n + b]
            rep += pair_cost(m)
            if cap and m > cap and (fixed[a] < 0 or fixed[a] != fixed[b]):
                beyond += m - cap
    reuse = 0
    for p in range(n):
        if problem.fixed[p] >= 0:
            continue
        lim = problem.allowed[p]
        for t in range(t_count):
            v = visits[p * t_count + t]
            if v > lim:
                reuse += v - lim
    return Costs(reuse, clashes, rep, beyond)


def anneal(
    problem: SearchProblem,
    start: Sequence[Sequence[int]],
    weights: Weights,
    rng: random.Random,
    deadline: float,
    target: int = 0,
    relabel_only: bool = False,
    progress: Callable[[float], None] | None = None,
    max_moves: int = 1_000_000,
    double_share: float = 0.3,
    hard_tables: bool = False,
    hard_meetings: bool = False,
) -> tuple[list[list[int]], int]:
    """Improve ``start`` (per round a seat list of N dense players) for ``max_moves`` moves
    or until the weighted cost reaches ``target``. The move budget (not the clock) ends the
    search, so a seed reproduces its plan; ``deadline`` is only a safety net on a slow
    machine. ``hard_tables`` ranks plans by table reuse, then team clashes, then cost
    (priority "tables": the order the docs promise), ``hard_meetings`` by the meetings
    beyond the cap, then team clashes, then Σ pair_cost, then cost (priority "opponents"),
    whatever the weights; ``double_share`` is the share of double swaps among the moves.
    Returns the best rounds and their cost."""
    n, tn, rn = problem.n_players, problem.n_tables, problem.n_rounds
    team, fixed = problem.team, problem.fixed
    allowed = problem.allowed
    wt, wm, wr, wb = weights.tables, weights.teams, weights.repeats, weights.beyond
    top = max(problem.meet0, default=0) + rn + 2
    inc = [pair_cost(c + 1) - pair_cost(c) for c in range(top)]
    dec = [0] + [pair_cost(c - 1) - pair_cost(c) for c in range(1, top)]
    # A pair's meetings beyond the cap: one more from cap on, one fewer above it.
    cap = problem.meeting_cap
    inc_beyond = [1 if cap and c >= cap else 0 for c in range(top)]
    dec_beyond = [-1 if cap and c > cap else 0 for c in range(top)]
    seats = [list(s) for s in start]
    where = [[0] * n for _ in range(rn)]
    for r in range(rn):
        for pos, p in enumerate(seats[r]):
            where[r][p] = pos
    meet = list(problem.meet0)
    visits = list(problem.visits0)
    for r in range(rn):
        _count_round(seats[r], tn, n, visits, meet)
    # Tables that hold a fixed player, per round: never relabelled.
    pinned = [[False] * tn for _ in range(rn)]
    for r in range(rn):
        for p in range(n):
            if fixed[p] >= 0:
                pinned[r][where[r][p] // 4] = True
    movable = [p for p in range(n) if fixed[p] < 0]
    if len(movable) < 2 or rn == 0:
        return seats, costs(problem, seats).weighted(weights)

    reuse, clashes, rep, beyond = start_costs = costs(problem, seats)
    cost = start_costs.weighted(weights)
    best_cost = cost
    best_reuse = reuse
    best_clashes = clashes
    best_rep = rep
    best_beyond = beyond
    best = [list(s) for s in seats]
    if cost <= target:
        return best, best_cost

    start_time = time.monotonic()
    total_time = max(1e-3, deadline - start_time)
    # Move mix: relabel, then double swaps (the reuse-preserving part first), then swaps.
    p_relabel = 0.1
    p_double = p_relabel + double_share
    p_loose = p_relabel + double_share / 2
    unit = max(1, min(wr, wt))
    t_hot, t_cold = HOT * unit, 0.15 * unit
    temp = 0.4 * unit
    if relabel_only:
        # Only table costs change: scale the heat to their weight.
        t_hot, t_cold, temp = 0.8 * wt, 0.1 * wt, 0.8 * wt
    # The first run is a cold repair (keeps a construction's structure); later runs take a
    # third of the budget each and are reheated from the best plan.
    run_moves = min(50_000, max_moves // 4)
    decay = (t_cold / temp) ** (1.0 / run_moves)
    moves_in_run = 0
    hot: list[tuple[int, int]] = []
    refresh_every = 2000
    it = 0
    exp = math.exp
    rand = rng.random
    runs = 0

    def hot_list() -> list[tuple[int, int]]:
        """(round, player) pairs that currently cause cost."""
        out = []
        for r in range(rn):
            s = seats[r]
            for pos in range(len(s)):
                a = s[pos]
                if fixed[a] >= 0:
                    continue
                t = pos // 4
                base = 4 * t
                bad = visits[a * tn + t] > allowed[a]
                if not bad:
                    ta = team[a]
                    for k in range(base, base + 4):
                        x = s[k]
                        if x != a and (meet[a * n + x] > 1 or (ta >= 0 and team[x] == ta)):
                            bad = True
                            break
                if bad:
                    out.append((r, a))
        return out

    # (table reuse, team clash, beyond and Σ pair_cost changes) of the last swap_delta.
    last_dt = [0, 0, 0, 0]

    def swap_delta(s: list[int], a: int, b: int, i: int, j: int) -> int:
        """Cost change if a (seat i) and b (seat j) of one round change tables."""
        A = i >> 2
        B = j >> 2
        an = a * n
        bn = b * n
        dm = 0
        db = 0
        dteam = 0
        ta = team[a]
        tb = team[b]
        for k in range(A << 2, (A << 2) + 4):
            x = s[k]
            if x != a:
                dm += inc[meet[bn + x]] + dec[meet[an + x]]
                db += inc_beyond[meet[bn + x]] + dec_beyond[meet[an + x]]
                if ta >= 0 and team[x] == ta:
                    dteam -= 1
                if tb >= 0 and team[x] == tb:
                    dteam += 1
        for k in range(B << 2, (B << 2) + 4):
            x = s[k]
            if x != b:
                dm += inc[meet[an + x]] + dec[meet[bn + x]]
                db += inc_beyond[meet[an + x]] + dec_beyond[meet[bn + x]]
                if tb >= 0 and team[x] == tb:
                    dteam -= 1
                if ta >= 0 and team[x] == ta:
                    dteam += 1
        dt = 0
        lim = allowed[a]
        if visits[a * tn + A] > lim:
            dt -= 1
        if visits[a * tn + B] >= lim:
            dt += 1
        lim = allowed[b]
        if visits[b * tn + B] > lim:
            dt -= 1
        if visits[b * tn + A] >= lim:
            dt += 1
        last_dt[0] = dt
        last_dt[1] = dteam
        last_dt[2] = db
        last_dt[3] = dm
        return wr * dm + wb * db + wm * dteam + wt * dt

    def apply_swap(r: int, a: int, b: int, i: int, j: int) -> None:
        s = seats[r]
        A = i >> 2
        B = j >> 2
        an = a * n
        bn = b * n
        for k in range(A << 2, (A << 2) + 4):
            x = s[k]
            if x != a:
                meet[an + x] -= 1
                meet[x * n + a] -= 1
                meet[bn + x] += 1
                meet[x * n + b] += 1
        for k in range(B << 2, (B << 2) + 4):
            x = s[k]
            if x != b:
                meet[bn + x] -= 1
                meet[x * n + b] -= 1
                meet[an + x] += 1
                meet[x * n + a] += 1
        visits[a * tn + A] -= 1
        visits[a * tn + B] += 1
        visits[b * tn + B] -= 1
        visits[b * tn + A] += 1
        s[i], s[j] = b, a
        where[r][a] = j
        where[r][b] = i

    def rebuild() -> None:
        meet[:] = problem.meet0
        visits[:] = problem.visits0
        for r in range(rn):
            s = seats[r]
            for pos, p in enumerate(s):
                where[r][p] = pos
            _count_round(s, tn, n, visits, meet)

    def better() -> bool:
        """Whether the current plan beats the best one, by the rank asked for."""
        if hard_tables:
            return (reuse, clashes, cost) < (best_reuse, best_clashes, best_cost)
        if hard_meetings:
            return (beyond, clashes, rep, cost) < (best_beyond, best_clashes, best_rep, best_cost)
        return cost < best_cost

    hot = hot_list()
    last_report = start_time
    while True:
        it += 1
        if it % refresh_every == 0:
            now = time.monotonic()
            if now >= deadline:
                break
            if progress is not None and now - last_report >= 0.5:
                # At most twice a second: the caller may write it to a database.
                last_report = now
                progress(min(1.0, max(it / max_moves, (now - start_time) / total_time)))
            hot = hot_list()
        if it >= max_moves:
            break
        moves_in_run += 1
        if moves_in_run >= run_moves:
            run_moves = max(20_000, min(max_moves // 3, 1_000_000))
            runs += 1
            moves_in_run = 0
            seats = [list(x) for x in best]
            rebuild()
            cost = best_cost
            reuse = best_reuse
            clashes = best_clashes
            rep = best_rep
            beyond = best_beyond
            temp = t_hot * (0.6 ** (runs % 3))
            decay = (t_cold / temp) ** (1.0 / run_moves)
            hot = hot_list()
        temp *= decay
        move = rand()
        if relabel_only or move < p_relabel:
            # Relabel two tables of one round.
            r = int(rand() * rn)
            ta_ = int(rand() * tn)
            tb_ = int(rand() * tn)
            if ta_ == tb_ or pinned[r][ta_] or pinned[r][tb_]:
                continue
            s = seats[r]
            d = 0
            for k in range(4):
                a = s[4 * ta_ + k]
                lim = allowed[a]
                if visits[a * tn + ta_] > lim:
                    d -= 1
                if visits[a * tn + tb_] >= lim:
                    d += 1
                b = s[4 * tb_ + k]
                lim = allowed[b]
                if visits[b * tn + tb_] > lim:
                    d -= 1
                if visits[b * tn + ta_] >= lim:
                    d += 1
            delta = wt * d
            dreuse = d
            if delta > 0 and rand() >= exp(-delta / temp):
                continue
            for k in range(4):
                a = s[4 * ta_ + k]
                b = s[4 * tb_ + k]
                visits[a * tn + ta_] -= 1
                visits[a * tn + tb_] += 1
                visits[b * tn + tb_] -= 1
                visits[b * tn + ta_] += 1
                s[4 * ta_ + k], s[4 * tb_ + k] = b, a
                where[r][a] = 4 * tb_ + k
                where[r][b] = 4 * ta_ + k
            cost += delta
            reuse += dreuse
            if better():
                best_reuse = reuse
                best_clashes = clashes
                best_cost = cost
                best = [list(x) for x in seats]
            continue
        else:
            if hot and rand() < 0.5:
                r, a = hot[int(rand() * len(hot))]
            else:
                r = int(rand() * rn)
                a = movable[int(rand() * len(movable))]
            i = where[r][a]
            s = seats[r]
            if move < p_double and rn > 1:
                # Double swap: a trades tables A and B between two rounds, with b (at B in
                # round r) and c (at A in round r2); a's table visits never change, and
                # neither do b's when b == c (preferred), so a reuse-free plan stays so.
                r2 = int(rand() * (rn - 1))
                if r2 >= r:
                    r2 += 1
                s2 = seats[r2]
                i2 = where[r2][a]
                A = i >> 2
                B = i2 >> 2
                if A == B:
                    continue
                k0 = int(rand() * 4)
                b = -1
                for k in range(4):
                    x = s[(B << 2) + (k + k0) % 4]
                    if fixed[x] < 0 and where[r2][x] >> 2 == A:
                        b = x
                        break
                if b >= 0:
                    c = b
                elif move < p_loose:
                    b = s[(B << 2) + k0]
                    c = s2[(A << 2) + int(rand() * 4)]
                    if fixed[b] >= 0 or fixed[c] >= 0:
                        continue
                else:
                    continue
                j = where[r][b]
                d1 = swap_delta(s, a, b, i, j)
                dreuse, dclash, dbeyond, drep = last_dt
                apply_swap(r, a, b, i, j)
                j2 = where[r2][c]
                delta = d1 + swap_delta(s2, a, c, i2, j2)
                dreuse += last_dt[0]
                dclash += last_dt[1]
                dbeyond += last_dt[2]
                drep += last_dt[3]
                if delta > 0 and rand() >= exp(-delta / temp):
                    apply_swap(r, b, a, i, j)
                    continue
                apply_swap(r2, a, c, i2, j2)
            else:
                b = movable[int(rand() * len(movable))]
                j = where[r][b]
                if i >> 2 == j >> 2:
                    continue
                delta = swap_delta(s, a, b, i, j)
                dreuse, dclash, dbeyond, drep = last_dt
                if delta > 0 and rand() >= exp(-delta / temp):
                    continue
                apply_swap(r, a, b, i, j)
            cost += delta
        reuse += dreuse
        clashes += dclash
        beyond += dbeyond
        rep += drep
        if better():
            best_reuse = reuse
            best_clashes = clashes
            best_rep = rep
            best_beyond = beyond
            best_cost = cost
            best = [list(x) for x in seats]
            if best_cost <= target:
                break
    return best, best_cost


def renumber_tables(
    problem: SearchProblem,
    rounds: list[list[int]],
    rng: random.Random,
    passes: int = 6,
    deadline: float | None = None,
) -> list[list[int]]:
    """Renumber the tables of each round optimally given all other rounds (Hungarian
    method), round after round, while that lowers table reuse. Groups never change, so a
    repeat-free plan stays repeat-free; tables holding a fixed player keep their number.
    Past ``deadline`` no further pass starts (the first always runs: a round left with its
    old numbers may revisit every table): one Hungarian step on 100 tables takes a tenth of
    a second or more, and 400 players × 12 rounds with four fixed players spent 7 s
    renumbering under a 2 s limit. A round whose numbering costs nothing already (nobody at
    a table they sit at in another round, fixed players at theirs) keeps it without a step:
    no numbering is cheaper, and one step on 500 tables takes 12 s, so 2000 players × 15
    rounds from a repeat-free design spent 200 s in the first pass under a 1 s limit."""
    tn, rn = problem.n_tables, problem.n_rounds
    allowed, fixed = problem.allowed, problem.fixed
    seats = [list(s) for s in rounds]
    visits = list(problem.visits0)
    for s in seats:
        for pos, p in enumerate(s):
            visits[p * tn + pos // 4] += 1
    big = 1 << 30
    for done in range(passes):
        if done and deadline is not None and time.monotonic() > deadline:
            break
        changed = False
        order = list(range(rn))
        rng.shuffle(order)
        for r in order:
            s = seats[r]
            for pos, p in enumerate(s):
                visits[p * tn + pos // 4] -= 1
            if all(
                fixed[p] == pos // 4 if fixed[p] >= 0 else not visits[p * tn + pos // 4]
                for pos, p in enumerate(s)
            ):
                for pos, p in enumerate(s):
                    visits[p * tn + pos // 4] += 1
                continue
            matrix = []
            for g in range(tn):
                row = []
                grp = s[4 * g : 4 * g + 4]
                for t in range(tn):
                    c = 0
                    for p in grp:
                        if fixed[p] >= 0:
                            c += 0 if fixed[p] == t else big
                            continue
                        v = visits[p * tn + t]
                        # Extra visits cost much; any earlier visit costs a little, which
                        # spreads players over the tables when rounds > tables.
                        c += 1000 * max(0, v + 1 - allowed[p]) + v
                    row.append(c)
                matrix.append(row)
            assign = hungarian(matrix)
            new = [0] * (4 * tn)
            for g, t in enumerate(assign):
                new[4 * t : 4 * t + 4] = s[4 * g : 4 * g + 4]
            if new != s:
                changed = True
            seats[r] = new
            for pos, p in enumerate(new):
                visits[p * tn + pos // 4] += 1
        if not changed:
            break
    return seats


def map_slots(
    problem: SearchProblem,
    slot_rounds: Sequence[Sequence[int]],
    slot_player: Sequence[int],
    weights: Weights,
    rng: random.Random,
    max_moves: int,
    deadline: float | None = None,
) -> list[int]:
    """Choose which player takes which slot of a repeat-free plan so that the new rounds
    clash as little as possible with the history (meetings, tables) and with teams.

    The new rounds stay repeat-free among themselves whatever the mapping, so only history
    and teams cost; a swap of two players' slots is scored on their 3·R partners and R
    tables. Annealing over mappings; returns the best slot -> player list."""
    n, tn = problem.n_players, problem.n_tables
    meet0, visits0, allowed, team = problem.meet0, problem.visits0, problem.allowed, problem.team
    fixed = problem.fixed
    wr, wt, wm = weights.repeats, weights.tables, weights.teams
    partners: list[list[int]] = [[] for _ in range(n)]
    tables: list[list[int]] = [[] for _ in range(n)]
    for seats in slot_rounds:
        for pos, s in enumerate(seats):
            tables[s].append(pos // 4)
            base = pos & ~3
            partners[s].extend(seats[k] for k in range(base, base + 4) if k != pos)
    player = list(slot_player)

    def slot_cost(s: int, p: int, skip: int) -> int:
        """Cost of player p sitting in slot s (partners in slot ``skip`` excluded)."""
        c = 0
        pn = p * n
        tp = team[p]
        for o in partners[s]:
            if o == skip:
                continue
            q = player[o]
            m = meet0[pn + q]
            if m:
                c += wr * (2 * m + max(0, m - 1))
            if tp >= 0 and team[q] == tp:
                c += wm
        lim = allowed[p]
        for t in tables[s]:
            if visits0[p * tn + t] >= lim:
                c += wt
        return c

    movable = [s for s in range(n) if fixed[player[s]] < 0]
    if len(movable) < 2:
        return player
    # slot_cost counts a pair from both ends; the objective counts it once.
    table_part = sum(
        wt for s in range(n) for t in tables[s] if visits0[player[s] * tn + t] >= allowed[player[s]]
    )
    total = table_part + (sum(slot_cost(s, player[s], -1) for s in range(n)) - table_part) // 2
    best, best_total = list(player), total
    temp = 2.0 * max(1, min(wr, wt))
    decay = (0.05 / temp) ** (1.0 / max(1, max_moves))
    for move in range(max_moves):
        if best_total == 0:
            break
        if deadline is not None and move % 1000 == 0 and time.monotonic() > deadline:
            break
        temp *= decay
        s1 = movable[rng.randrange(len(movable))]
        s2 = movable[rng.randrange(len(movable))]
        if s1 == s2:
            continue
        p1, p2 = player[s1], player[s2]
        # Pair (s1, s2) itself is unchanged by the swap, hence the skip.
        before = slot_cost(s1, p1, s2) + slot_cost(s2, p2, s1)
        player[s1], player[s2] = p2, p1
        after = slot_cost(s1, p2, s2) + slot_cost(s2, p1, s1)
        delta = after - before
        if delta > 0 and rng.random() >= math.exp(-delta / temp):
            player[s1], player[s2] = p1, p2
            continue
        total += delta
        if total < best_total:
            best_total = total
            best = list(player)
    return best


def _count_round(s: list[int], tn: int, n: int, visits: list[int], meet: list[int]) -> None:
    """Add one round's table visits and pair meetings to the flat counters."""
    for t in range(tn):
        base = 4 * t
        for i in range(4):
            a = s[base + i]
            visits[a * tn + t] += 1
            for j in range(i + 1, 4):
                b = s[base + j]
                meet[a * n + b] += 1
                meet[b * n + a] += 1
