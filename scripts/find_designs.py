"""Search the designs stored in ``seating/engine/`` and print them.

    python scripts/find_designs.py --players 28 [--seeds 50] [--nodes 200000]
    python scripts/find_designs.py --matrix 2,6 --rounds 12      # needs: pip install ortools
    python scripts/find_designs.py --resolvable 32 --rounds 10 --swaps 1,2,4  # python-sat

Points are (x, c), x ∈ Z_n, c ∈ {0, 1, 2}, plus f = N − 3n fixed points; a backtracking
search over the base round keeps every difference (c, c', x' − x mod n) unique (see the
module docstring of rotational.py for which differences are left out). Restarts with a
new seed when the node budget runs out (``rotational.BASE_ROUNDS``).

``--matrix`` asks OR-tools CP-SAT for a difference matrix over Z_a × Z_b × …: rows in G^4
whose differences, between any two columns and against an implicit zero column, are
distinct (``matrices.MATRICES``).

``--resolvable`` asks the SAT solver CaDiCaL (pip install python-sat; CP-SAT found nothing
in 15 minutes) for a whole repeat-free plan that the group Z_2^k (N = 2^k·m)
maps onto itself: h sends player (c, g) to (c, g xor h) and round to round, fixing the first
rounds and swapping the pair of rounds i when h has an odd number of bits in common with
the i-th ``--swaps`` mask. The variables say "p and q share a table in round r", one per
orbit of the group; tables of four are equivalence classes and no pair shares two
(``stored_designs.STORED_DESIGNS``; 32 × 10: a few seconds with masks 1,2,4).

Neither OR-tools nor python-sat is a dependency of the project: this is an offline tool;
its output is stored and verified by the tests, so the planner never searches for a design.
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


def find_matrix(factors: tuple[int, ...], rounds: int, seconds: float) -> list | None:
    """Rows of group elements (tuples), or None when CP-SAT finds none in time."""
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
    for i in range(4):
        model.AddAllDifferent([k[r][i] for r in range(rounds)])
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
    from pysat.card import CardEnc, EncType
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

    def cardinality(lits: list[int], bound: int, exact: bool) -> None:
        nonlocal top
        encode = CardEnc.equals if exact else CardEnc.atmost
        enc = encode(lits=lits, bound=bound, top_id=top, encoding=EncType.seqcounter)
        top = max(top, enc.nv)
        clauses.extend(enc.clauses)

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int)
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--matrix", help="cyclic factors of the group, e.g. 2,6")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--resolvable", type=int, metavar="PLAYERS")
    parser.add_argument("--swaps", default="1,2,4", help="masks of the swapped round pairs")
    args = parser.parse_args(argv)
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
        rows = find_matrix(factors, args.rounds or math.prod(factors), args.seconds)
        if rows is None:
            print(f"no matrix over {factors} within {args.seconds} s", file=sys.stderr)
            return 1
        print(f"{math.prod(factors)}: ({factors!r}, {tuple(rows)!r}),")
        return 0
    if args.players is None:
        parser.error("--players or --matrix is required")
    n, f = _shape(args.players)
    for seed in range(args.seeds):
        found = find_base_round(n, f, seed, args.nodes)
        if found is not None:
            print(f"{args.players}: ({n}, {f}, {found!r}),  # seed {seed}")
            return 0
    print(f"{args.players}: nothing within {args.seeds} seeds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
