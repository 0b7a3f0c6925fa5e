"""Search the designs stored in ``seating/engine/`` and print them.

    python bench/designs/find_designs.py --players 28 [--seeds 50] [--nodes 200000]
    python bench/designs/find_designs.py --matrix 2,6 --rounds 12      # needs: pip install ortools
    python bench/designs/find_designs.py --matrix 15 --negated                     # ortools
    python bench/designs/find_designs.py --resolvable 32 --rounds 10 --swaps 1,2,4  # python-sat
    python bench/designs/find_designs.py --soma 40                                 # numpy
    python bench/designs/find_designs.py --soma 56 --rounds 13 --sat               # python-sat
    python bench/designs/find_designs.py --players 48 --sat                        # python-sat

Points are (x, c), x ∈ Z_n, c ∈ {0, 1, 2}, plus f = N − 3n fixed points; a backtracking
search over the base round keeps every difference (c, c', x' − x mod n) unique (see the
module docstring of rotational.py for which differences are left out). Restarts with a
new seed when the node budget runs out (``rotational.BASE_ROUNDS``).

``--sat`` asks CaDiCaL (python-sat) for the same base round when N ≡ 0 or 4 (mod 12), with
one more condition that shrinks the search: the round is mapped onto itself by the class
rotation (x, c) -> (x, c + 1), which takes ∞_k to ∞_{k+1} (∞_0 to itself when f = 1) and
the other tables in cycles of three. Variables say "point p is at base table t"; every
difference orbit is met by exactly one pair of a table. 48 players: seconds, 52 and 60:
under a minute, where the backtracking and an exact-cover search found nothing.

``--matrix`` asks OR-tools CP-SAT for a difference matrix over Z_a × Z_b × …: rows in G^4
whose differences, between any two columns and against an implicit zero column, are
distinct (``matrices.MATRICES``). ``--negated`` adds that the rows are mapped onto
themselves by x -> -x, which shrinks the search: the full matrix over Z_15, beyond a minute
without it, takes a second.

``--resolvable`` asks the SAT solver CaDiCaL (pip install python-sat; CP-SAT found nothing
in 15 minutes) for a whole repeat-free plan that the group Z_2^k (N = 2^k·m) maps onto
itself: h sends player (c, g) to (c, g xor h) and round to round, fixing the first rounds
and swapping the pair of rounds i when h has an odd number of bits in common with the
i-th ``--swaps`` mask. The variables say "p and q share a table in round r", one per
orbit of the group; tables of four are equivalence classes and no pair shares two
(``stored_designs.STORED_DESIGNS``; 32 × 10: a few seconds with masks 1,2,4).

``--soma`` looks for N = 4(n + 1) players, n + 1 tables and n + 1 rounds with nobody at a
table twice and nobody meeting twice (a SOMA(4, n + 1)), invariant under Z_n acting on
rounds and tables as x -> x + 1 with one fixed point ∞ (round and table n). Four fixed
players sit at table r + c in round r (c ∈ C, a 4-subset of Z_n) and at ∞ in round ∞. An
orbit is given by a base row (u, d): its player i sits at ∞ in round i, at u + i in round
∞ and at r + d(r − i) in round r otherwise. All base rows whose d repeats no value at the
same distance twice are listed, then four compatible ones are sought with numpy, one
choice of C (up to the affine maps of Z_n) at a time. 40 players: about 90 s. (The listing
grows too fast beyond about 10 tables.) With ``--sat`` CaDiCaL is asked for a plan of the
same form, all n + 1 rounds or the first n (``--rounds``): 56 players × 13 rounds in 10 s.

Neither OR-tools, python-sat nor numpy is a dependency of the project: this is an offline
tool; its output is stored and verified by the tests, so the planner never searches for a
design.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys

Point = tuple[int, int]
Diff = tuple[int, int, int]


def _shape(n_players: int) -> tuple[int, int]:
    """(n, f): n rounds, f fixed points, from N mod 12."""
    f = {0: 3, 4: 1, 8: 2}.get(n_players % 12)
    if f is None or n_players < 16:
        raise SystemExit(f"{n_players} players: no cyclic design of this shape")
    return (n_players - f) // 3, f


def _left_out(n: int, f: int) -> set[Diff]:
    if f == 3:
        return {(i, j, 0) for i in range(3) for j in range(3) if i != j}
    if f == 2:
        return {(i, i, n // 2) for i in range(3)}
    return set()


def find_base_round(n: int, f: int, seed: int, max_nodes: int) -> list[tuple[Point, ...]] | None:
    """One base round, or None when the node budget runs out."""
    rng = random.Random(seed)
    used = _left_out(n, f)
    free = {(x, c) for c in range(3) for x in range(n)}
    tables: list[tuple[Point, ...]] = []
    nodes = 0

    def diffs(new: Point, table: list[Point]) -> list[Diff] | None:
        out: list[Diff] = []
        for x, c in table:
            there = (c, new[1], (new[0] - x) % n)
            back = (new[1], c, (x - new[0]) % n)
            if there in used or back in used or there in out or back in out or there == back:
                return None
            out += [there, back]
        return out

    def grow(table: list[Point], candidates: list[Point], size: int, by_class: bool) -> bool:
        nonlocal nodes
        if len(table) == size:
            free.difference_update(table)
            tables.append(tuple(table))
            if fill():
                return True
            tables.pop()
            free.update(table)
            return False
        for i, point in enumerate(candidates):
            nodes += 1
            if nodes > max_nodes:
                return False
            if by_class and point[1] != len(table):
                continue
            new = diffs(point, table)
            if new is None:
                continue
            used.update(new)
            table.append(point)
            if grow(table, candidates[i + 1 :], size, by_class):
                return True
            table.pop()
            used.difference_update(new)
        return False

    def fill() -> bool:
        if not free:
            return True
        if len(tables) < f:
            # A table of ∞_k holds one point of each class, in class order.
            pool = sorted(free)
            rng.shuffle(pool)
            pool.sort(key=lambda p: p[1])
            return grow([], pool, 3, True)
        first = min(free, key=lambda p: (p[1], p[0]))
        rest = sorted(free - {first})
        rng.shuffle(rest)
        return grow([first], rest, 4, False)

    return tables if fill() else None


def _cardinality(clauses: list[list[int]], pool, lits: list[int], bound: int, exact: bool) -> None:
    """Clauses for "exactly" (or "at most") ``bound`` of ``lits``, fresh variables from
    ``pool`` (a python-sat IDPool): the one encoding every SAT model here uses."""
    from pysat.card import CardEnc, EncType

    encode = CardEnc.equals if exact else CardEnc.atmost
    clauses.extend(encode(lits=lits, bound=bound, vpool=pool, encoding=EncType.seqcounter).clauses)


def find_base_round_sat(n: int, f: int) -> list[tuple[Point, ...]] | None:
    """One base round invariant under the class rotation, or None when none exists."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    n_tables = (3 * n + f) // 4
    if f == 2:
        raise SystemExit("--sat needs N ≡ 0 or 4 (mod 12): the rotation cannot fix two ∞")
    points = [(x, c) for c in range(3) for x in range(n)]
    pool = IDPool()
    clauses: list[list[int]] = []

    def at(p: Point, t: int) -> int:
        return pool.id(("at", p, t))

    def cardinality(lits: list[int], bound: int) -> None:
        _cardinality(clauses, pool, lits, bound, exact=True)

    def rotate_table(t: int) -> int:
        if t < f:
            return (t + 1) % f
        cycle, k = divmod(t - f, 3)
        return f + 3 * cycle + (k + 1) % 3

    for p in points:
        cardinality([at(p, t) for t in range(n_tables)], 1)
        for t in range(n_tables):
            clauses.append([-at(p, t), at((p[0], (p[1] + 1) % 3), rotate_table(t))])
    for t in range(n_tables):
        if t < f:
            for c in range(3):
                cardinality([at(p, t) for p in points if p[1] == c], 1)
        else:
            cardinality([at(p, t) for p in points], 4)
    orbits: dict[Diff, list[int]] = {}
    for p, q in itertools.combinations(points, 2):
        (x, c), (y, d) = sorted((p, q), key=lambda point: point[1])
        shift = (y - x) % n
        orbit = (c, d, min(shift, n - shift) if c == d else shift)
        for t in range(n_tables):
            both = pool.id(("both", p, q, t))
            clauses += [[-both, at(p, t)], [-both, at(q, t)], [both, -at(p, t), -at(q, t)]]
            orbits.setdefault(orbit, []).append(both)
    for orbit, pairs in orbits.items():
        if orbit in _left_out(n, f):
            clauses += [[-both] for both in pairs]
        else:
            cardinality(pairs, 1)
    clauses.append([at((0, 0), 0)])  # a translate of any base round has it
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        true = {lit for lit in solver.get_model() if lit > 0}
    return [tuple(p for p in points if at(p, t) in true) for t in range(n_tables)]


def find_matrix(
    factors: tuple[int, ...], rounds: int, seconds: float, *, negated: bool = False
) -> list | None:
    """Rows of group elements (tuples), or None when CP-SAT finds none in time. ``negated``
    asks that the rows be mapped onto themselves by x -> -x (full matrices only)."""
    from ortools.sat.python import cp_model

    elements = list(itertools.product(*(range(f) for f in factors)))
    index = {e: i for i, e in enumerate(elements)}
    order = len(elements)

    def minus(b: int, a: int) -> int:
        return index[
            tuple((x - y) % f for x, y, f in zip(elements[b], elements[a], factors, strict=True))
        ]

    triples = [(a, b, minus(b, a)) for a in range(order) for b in range(order)]
    model = cp_model.CpModel()
    k = [[model.NewIntVar(0, order - 1, f"k{r}_{i}") for i in range(4)] for r in range(rounds)]
    for i in range(4):
        model.Add(k[0][i] == 0)
    for r in range(rounds):
        model.Add(k[r][0] == r)  # column 0 holds distinct elements: order the rows by it
    if negated and rounds != order:
        raise SystemExit("--negated needs a full matrix: as many rounds as the group's order")
    negative = [index[tuple(-x % f for x, f in zip(e, factors, strict=True))] for e in elements]
    for i in range(4):
        model.AddAllDifferent([k[r][i] for r in range(rounds)])
        if negated:
            for r in range(rounds):
                pairs = [[a, b] for a, b in enumerate(negative)]
                model.AddAllowedAssignments([k[r][i], k[negative[r]][i]], pairs)
        for j in range(i + 1, 4):
            diffs = []
            for r in range(rounds):
                d = model.NewIntVar(0, order - 1, "")
                model.AddAllowedAssignments([k[r][i], k[r][j], d], triples)
                diffs.append(d)
            model.AddAllDifferent(diffs)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    if solver.Solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return [tuple(elements[solver.Value(k[r][i])] for i in range(4)) for r in range(rounds)]


def find_resolvable(
    n_players: int, rounds: int, masks: tuple[int, ...]
) -> list[list[tuple[int, ...]]] | None:
    """Rounds of tables (player numbers 0..N-1), or None when the plan cannot exist."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    order = 1 << max(m.bit_length() for m in masks)
    if n_players % order or rounds < 2 * len(masks):
        raise SystemExit(
            "the players must be a multiple of the group's order, and the rounds at least "
            "twice the number of masks"
        )
    fixed_rounds = rounds - 2 * len(masks)

    def move_round(h: int, r: int) -> int:
        if r < fixed_rounds:
            return r
        i, side = divmod(r - fixed_rounds, 2)
        return fixed_rounds + 2 * i + (side ^ (bin(h & masks[i]).count("1") % 2))

    def move_player(h: int, p: int) -> int:
        return p - p % order + (p % order ^ h)

    same: dict[tuple[int, int, int], int] = {}

    def together(r: int, p: int, q: int) -> int:
        """The variable "p and q share a table in round r", one per orbit."""
        key = (r, min(p, q), max(p, q))
        if key not in same:
            var = len(set(same.values())) + 1
            for h in range(order):
                a, b = move_player(h, key[1]), move_player(h, key[2])
                same[(move_round(h, r), min(a, b), max(a, b))] = var
        return same[key]

    players = range(n_players)
    for r in range(rounds):
        for p, q in itertools.combinations(players, 2):
            together(r, p, q)
    top = len(set(same.values()))
    clauses: list[list[int]] = []

    pool = IDPool(start_from=top + 1)  # the orbit variables are 1..top

    def cardinality(lits: list[int], bound: int, exact: bool) -> None:
        _cardinality(clauses, pool, lits, bound, exact)

    for r in range(rounds):
        for p in players:
            # Three table mates, and a table mate's table mates are table mates.
            cardinality([together(r, p, q) for q in players if q != p], 3, exact=True)
            for q, u in itertools.combinations([x for x in players if x != p], 2):
                clauses.append([-together(r, p, q), -together(r, p, u), together(r, q, u)])
    for p, q in itertools.combinations(players, 2):
        cardinality([together(r, p, q) for r in range(rounds)], 1, exact=False)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        true = {lit for lit in solver.get_model() if lit > 0}
    plan = []
    for r in range(rounds):
        tables, seated = [], set()
        for p in players:
            if p not in seated:
                table = (p, *(q for q in players if q != p and together(r, p, q) in true))
                seated.update(table)
                tables.append(table)
        plan.append(tables)
    return plan


def _soma_base_rows(n: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every base row (u, d) over Z_n: x -> x + d(x) maps Z_n minus 0 onto Z_n minus u (a
    player visits every table once), and d(x) = d(x + δ) for at most one x, for every
    shift δ (two players of one orbit meet at most once). d(0) is unused (-1)."""
    rows: list[tuple[int, tuple[int, ...]]] = []
    d = [-1] * n

    def shifts_ok(upto: int) -> bool:
        for delta in range(1, n):
            same = 0
            for x in range(1, upto + 1):
                y = (x + delta) % n
                if y and y <= upto and d[x] == d[y]:
                    same += 1
            if same > 1:
                return False
        return True

    def extend(x: int, u: int, used: int) -> None:
        if x == n:
            rows.append((u, tuple(d)))
            return
        for table in range(n):
            if table == u or used >> table & 1:
                continue
            d[x] = (table - x) % n
            if shifts_ok(x):
                extend(x + 1, u, used | 1 << table)
        d[x] = -1

    for u in range(n):
        extend(1, u, 0)
    return rows


def find_soma(n_players: int) -> list[str] | None:
    """One table string per player, or None when no plan of this form exists."""
    import numpy as np

    n = n_players // 4 - 1
    if n_players % 4 or n < 4:
        raise SystemExit("--soma needs 4(n + 1) players, n >= 4")
    rows = _soma_base_rows(n)
    u_of = np.array([u for u, _d in rows])
    d_of = np.array([d for _u, d in rows], dtype=np.int16)
    # shifted[b, δ, x] = d_b(x + δ); position 0 (∞) never matches.
    shifted = np.stack([d_of[:, [(x + delta) % n for x in range(n)]] for delta in range(n)], 1)
    shifted[shifted == -1] = -2
    counts = np.stack([np.bincount(d[1:], minlength=n) for d in d_of])

    def compatible(a: int, candidates: np.ndarray) -> np.ndarray:
        """Those b whose players meet every player of a's orbit at most once: players
        (a, i) and (b, i − δ) meet in the finite rounds where d_a(x) = d_b(x + δ), at table
        ∞ in round i when δ = 0, and in round ∞ when u_b = u_a + δ."""
        agree = (shifted[candidates] == d_of[a][None, None, :]).sum(axis=2)
        agree[:, 0] += 1
        agree[np.arange(len(candidates)), (u_of[candidates] - u_of[a]) % n] += 1
        return candidates[agree.max(axis=1) <= 1]

    choices, seen = [], set()
    for fixed in itertools.combinations(range(n), 4):
        if fixed in seen:
            continue
        for scale in (k for k in range(1, n) if math.gcd(k, n) == 1):
            for shift in range(n):
                seen.add(tuple(sorted((scale * c + shift) % n for c in fixed)))
        choices.append(fixed)
    for fixed in choices:
        # Table r + v of round r holds the orbit players with d(x) = v, and the fixed
        # player v when v ∈ C: four in all. A base row that takes a value of C twice would
        # meet that fixed player twice.
        need = np.array([4 - (v in fixed) for v in range(n)])
        pool = np.where((counts[:, list(fixed)] <= 1).all(axis=1))[0]
        found = _four_compatible(pool, counts, need, compatible)
        if found is not None:
            return _soma_schedule(n, [rows[a] for a in found], fixed)
    return None


def find_soma_sat(n_players: int, rounds: int) -> list[str] | None:
    """The same form (Z_n on rounds and tables, ∞ fixed) asked of CaDiCaL, rounds = n or
    n + 1: one table string per player, or None when no plan of this form exists."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    n = n_players // 4 - 1
    if n_players % 4 or n < 4 or rounds not in (n, n + 1):
        raise SystemExit("--soma --sat needs 4(n + 1) players, n >= 4, and n or n + 1 rounds")
    infinity = n
    round_ids = [*range(n), infinity][:rounds]
    table_ids = [*range(n), infinity]
    players = [(orbit, i) for orbit in range(4) for i in range(n)] + [(4 + k, 0) for k in range(4)]
    pool = IDPool()
    clauses: list[list[int]] = []

    def shift(v: int, by: int) -> int:
        return v if v == infinity else (v + by) % n

    def at(player: tuple[int, int], r: int, t: int) -> int:
        """One variable per orbit: player (o, i) at (r, t) is (o, 0) at (r − i, t − i); a
        fixed player sits at the same table relative to the round in every finite round."""
        orbit, i = player
        if orbit < 4:
            return pool.id((orbit, shift(r, -i), shift(t, -i)))
        return pool.id((orbit, r, t) if r == infinity else (orbit, 0, shift(t, -r)))

    def cardinality(lits: list[int], bound: int, exact: bool) -> None:
        _cardinality(clauses, pool, lits, bound, exact)

    for player in players:
        for r in round_ids:
            cardinality([at(player, r, t) for t in table_ids], 1, exact=True)
        for t in table_ids:
            cardinality([at(player, r, t) for r in round_ids], 1, exact=False)
    for r in round_ids:
        for t in table_ids:
            cardinality([at(player, r, t) for player in players], 4, exact=True)
    for p, q in itertools.combinations(players, 2):
        meets = [pool.id(("meet", p, q, r)) for r in round_ids]
        for r, meet in zip(round_ids, meets, strict=True):
            clauses += [[-at(p, r, t), -at(q, r, t), meet] for t in table_ids]
        cardinality(meets, 1, exact=False)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        true = {lit for lit in solver.get_model() if lit > 0}
    digit = "0123456789abcdefghijklmnopqrstuvwxyz"
    return [
        "".join(digit[next(t for t in table_ids if at(p, r, t) in true)] for r in round_ids)
        for p in players
    ]


def _four_compatible(pool, counts, need, compatible) -> tuple[int, ...] | None:
    """Four pairwise compatible base rows whose table shifts add up to ``need``."""
    for i, a in enumerate(pool):
        first = compatible(a, pool[i + 1 :])
        first = first[((counts[first] + counts[a]) <= need).all(axis=1)]
        for j, b in enumerate(first):
            second = compatible(b, first[j + 1 :])
            used = counts[a] + counts[b]
            second = second[((counts[second] + used) <= need).all(axis=1)]
            for k, c in enumerate(second):
                rest = second[k + 1 :]
                rest = rest[(counts[rest] == need - used - counts[c]).all(axis=1)]
                if len(rest):
                    rest = compatible(c, rest)
                    if len(rest):
                        return int(a), int(b), int(c), int(rest[0])
    return None


def _soma_schedule(
    n: int, base: list[tuple[int, tuple[int, ...]]], fixed: tuple[int, ...]
) -> list[str]:
    """Develop the base rows: one string of tables (∞ = n) per player."""
    digit = "0123456789abcdefghijklmnopqrstuvwxyz"
    schedule = []
    for u, d in base:
        for i in range(n):
            tables = [n if r == i else (r + d[(r - i) % n]) % n for r in range(n)]
            schedule.append("".join(digit[t] for t in [*tables, (u + i) % n]))
    for c in fixed:
        schedule.append("".join(digit[(r + c) % n] for r in range(n)) + digit[n])
    return schedule


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int)
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--sat", action="store_true", help="with --players or --soma: ask CaDiCaL")
    parser.add_argument("--matrix", help="cyclic factors of the group, e.g. 2,6")
    parser.add_argument("--negated", action="store_true", help="with --matrix: rows x, -x")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--resolvable", type=int, metavar="PLAYERS")
    parser.add_argument("--swaps", default="1,2,4", help="masks of the swapped round pairs")
    parser.add_argument("--soma", type=int, metavar="PLAYERS")
    args = parser.parse_args(argv)
    if args.soma:
        if args.sat:
            schedule = find_soma_sat(args.soma, args.rounds or args.soma // 4)
        else:
            schedule = find_soma(args.soma)
        if schedule is None:
            print("no plan of this form exists", file=sys.stderr)
            return 1
        print(schedule)
        return 0
    if args.resolvable:
        masks = tuple(int(m) for m in args.swaps.split(","))
        plan = find_resolvable(args.resolvable, args.rounds or 10, masks)
        if plan is None:
            print("no plan of this form exists", file=sys.stderr)
            return 1
        print(plan)
        return 0
    if args.matrix:
        factors = tuple(int(f) for f in args.matrix.split(","))
        rounds = args.rounds or math.prod(factors)
        rows = find_matrix(factors, rounds, args.seconds, negated=args.negated)
        if rows is None:
            print(f"no matrix over {factors} within {args.seconds} s", file=sys.stderr)
            return 1
        print(f"{math.prod(factors)}: ({factors!r}, {tuple(rows)!r}),")
        return 0
    if args.players is None:
        parser.error("--players or --matrix is required")
    n, f = _shape(args.players)
    if args.sat:
        found = find_base_round_sat(n, f)
        if found is None:
            print("no base round of this form exists", file=sys.stderr)
            return 1
        print(f"{args.players}: ({n}, {f}, {found!r}),")
        return 0
    for seed in range(args.seeds):
        found = find_base_round(n, f, seed, args.nodes)
        if found is not None:
            print(f"{args.players}: ({n}, {f}, {found!r}),  # seed {seed}")
            return 0
    print(f"{args.players}: nothing within {args.seeds} seeds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
