"""Repeat-free plans from cyclic difference families, for sizes the field construction misses.

These are the "hard" sizes of docs/seating-theory.md, where the rounds come close to (N − 1)/3 and
local search leaves repeats: design theory says a repeat-free plan exists (resolvable
maximum packings, Ge, Lam, Ling, Shen 2005), and for the sizes below it has a cyclic form
small enough to store.

Players are (x, c) with x ∈ Z_n, c ∈ {0, 1, 2}, plus f fixed points ∞_0..∞_{f-1}
(N = 3n + f, n rounds). One *base round* is stored; round t adds t to every x. The base
round is a difference family: every difference (c, c', x' − x mod n) between two points of
a base table occurs at most once, so two players meet at most once over the n rounds. Each
∞_k sits with one point of each class and so meets every finite player exactly once.

* f = 1 (N ≡ 4 mod 12): a resolvable BIBD(N, 4, 1) (28, 40 and 52 players); every pair
  meets exactly once.
* f = 3 (N ≡ 0 mod 12): a 4-RGDD of type 3^(N/3) (24, 36, 48 and 60 players): the mixed
  difference 0 is left out, so {(x, 0), (x, 1), (x, 2)} and {∞_0, ∞_1, ∞_2} never meet.
* f = 2 (N ≡ 8 mod 12, n even; 44 players): the pure difference n/2 is left out; everybody
  misses exactly one player. (32 players × 10 rounds has no design of this form.)

The base rounds were found by the backtracking search in ``bench/designs/find_designs.py`` (36,
40 and 44 players by an exact-cover search, 48, 52 and 60 by its SAT model, see their
entries); ``tests/seating/test_engine_designs.py`` checks every one from first principles.
Table numbers are not part of a design: :func:`number_tables` gives them, the same way
every time, so that re-seating recognises the plan a tournament started with.
"""

from __future__ import annotations

import random

from .metrics import allowed_visits
from .search import SearchProblem, costs, renumber_tables

__all__ = ["BASE_ROUNDS", "develop", "number_tables", "rotational_rounds"]

Point = tuple[int, int]

#: players -> (n, f, base round). The first f tables hold ∞_0..∞_{f-1} besides the three
#: finite points listed; the others hold four finite points (x, class).
BASE_ROUNDS: dict[int, tuple[int, int, tuple[tuple[Point, ...], ...]]] = {
    # bench/designs/find_designs.py --players 24: seed 1
    24: (
        7,
        3,
        (
            ((3, 0), (6, 1), (5, 2)),
            ((6, 0), (5, 1), (3, 2)),
            ((5, 0), (3, 1), (6, 2)),
            ((0, 0), (1, 1), (2, 1), (4, 1)),
            ((1, 0), (0, 2), (4, 0), (2, 0)),
            ((0, 1), (1, 2), (4, 2), (2, 2)),
        ),
    ),
    # bench/designs/find_designs.py --players 28: seed 1
    28: (
        9,
        1,
        (
            ((3, 0), (8, 1), (7, 2)),
            ((0, 0), (6, 0), (5, 2), (0, 2)),
            ((1, 0), (5, 0), (3, 2), (2, 2)),
            ((2, 0), (4, 1), (3, 1), (4, 0)),
            ((7, 0), (2, 1), (8, 0), (5, 1)),
            ((0, 1), (1, 2), (7, 1), (4, 2)),
            ((1, 1), (6, 1), (8, 2), (6, 2)),
        ),
    ),
    # an exact-cover (dancing links) search over the same conditions: 1 200 s in C,
    # beyond bench/designs/find_designs.py's budget
    36: (
        11,
        3,
        (
            ((0, 0), (9, 1), (4, 2)),
            ((4, 0), (0, 1), (9, 2)),
            ((9, 0), (4, 1), (0, 2)),
            ((1, 0), (5, 0), (10, 0), (2, 2)),
            ((2, 0), (1, 1), (5, 1), (10, 1)),
            ((2, 1), (1, 2), (5, 2), (10, 2)),
            ((3, 0), (6, 0), (7, 1), (8, 1)),
            ((3, 1), (6, 1), (7, 2), (8, 2)),
            ((7, 0), (8, 0), (3, 2), (6, 2)),
        ),
    ),
    # an exact-cover (dancing links) search over the same conditions, the table of ∞ fixed
    # to (0, 0), (0, 1), (0, 2): 198 s in C, beyond bench/designs/find_designs.py's budget
    40: (
        13,
        1,
        (
            ((0, 0), (0, 1), (0, 2)),
            ((1, 0), (7, 0), (11, 0), (5, 2)),
            ((10, 0), (12, 0), (1, 1), (9, 1)),
            ((12, 1), (2, 2), (7, 2), (8, 2)),
            ((2, 0), (3, 0), (8, 1), (10, 1)),
            ((2, 1), (5, 1), (6, 1), (12, 2)),
            ((4, 0), (9, 0), (6, 2), (10, 2)),
            ((5, 0), (3, 1), (1, 2), (4, 2)),
            ((6, 0), (7, 1), (9, 2), (11, 2)),
            ((8, 0), (4, 1), (11, 1), (3, 2)),
        ),
    ),
    # an exact-cover (dancing links) search over the same conditions: 2 200 s in C
    44: (
        14,
        2,
        (
            ((0, 0), (0, 1), (6, 2)),
            ((9, 0), (6, 1), (10, 2)),
            ((1, 0), (6, 0), (2, 1), (13, 1)),
            ((10, 0), (8, 2), (9, 2), (13, 2)),
            ((2, 0), (4, 0), (8, 1), (11, 2)),
            ((3, 0), (12, 1), (0, 2), (3, 2)),
            ((3, 1), (5, 1), (4, 2), (12, 2)),
            ((5, 0), (13, 0), (4, 1), (1, 2)),
            ((7, 0), (1, 1), (9, 1), (10, 1)),
            ((7, 1), (11, 1), (5, 2), (7, 2)),
            ((8, 0), (11, 0), (12, 0), (2, 2)),
        ),
    ),
    # bench/designs/find_designs.py --players 48 --sat
    48: (
        15,
        3,
        (
            ((0, 0), (9, 1), (8, 2)),
            ((8, 0), (0, 1), (9, 2)),
            ((9, 0), (8, 1), (0, 2)),
            ((3, 0), (14, 0), (11, 1), (1, 2)),
            ((1, 0), (3, 1), (14, 1), (11, 2)),
            ((11, 0), (1, 1), (3, 2), (14, 2)),
            ((4, 1), (5, 2), (7, 2), (10, 2)),
            ((5, 0), (7, 0), (10, 0), (4, 2)),
            ((4, 0), (5, 1), (7, 1), (10, 1)),
            ((2, 1), (6, 2), (12, 2), (13, 2)),
            ((6, 0), (12, 0), (13, 0), (2, 2)),
            ((2, 0), (6, 1), (12, 1), (13, 1)),
        ),
    ),
    # bench/designs/find_designs.py --players 52 --sat
    52: (
        17,
        1,
        (
            ((0, 0), (0, 1), (0, 2)),
            ((5, 0), (10, 0), (3, 2), (9, 2)),
            ((3, 0), (9, 0), (5, 1), (10, 1)),
            ((3, 1), (9, 1), (5, 2), (10, 2)),
            ((11, 0), (15, 0), (2, 1), (12, 2)),
            ((12, 0), (11, 1), (15, 1), (2, 2)),
            ((2, 0), (12, 1), (11, 2), (15, 2)),
            ((1, 0), (16, 0), (4, 2), (7, 2)),
            ((4, 0), (7, 0), (1, 1), (16, 1)),
            ((4, 1), (7, 1), (1, 2), (16, 2)),
            ((6, 0), (13, 0), (14, 0), (8, 2)),
            ((8, 0), (6, 1), (13, 1), (14, 1)),
            ((8, 1), (6, 2), (13, 2), (14, 2)),
        ),
    ),
    # bench/designs/find_designs.py --players 60 --sat
    60: (
        19,
        3,
        (
            ((0, 0), (1, 1), (8, 2)),
            ((8, 0), (0, 1), (1, 2)),
            ((1, 0), (8, 1), (0, 2)),
            ((5, 0), (4, 1), (11, 1), (7, 2)),
            ((7, 0), (5, 1), (4, 2), (11, 2)),
            ((4, 0), (11, 0), (7, 1), (5, 2)),
            ((3, 1), (13, 1), (16, 1), (18, 1)),
            ((3, 2), (13, 2), (16, 2), (18, 2)),
            ((3, 0), (13, 0), (16, 0), (18, 0)),
            ((2, 0), (10, 0), (12, 1), (17, 2)),
            ((17, 0), (2, 1), (10, 1), (12, 2)),
            ((12, 0), (17, 1), (2, 2), (10, 2)),
            ((6, 0), (14, 1), (15, 1), (9, 2)),
            ((9, 0), (6, 1), (14, 2), (15, 2)),
            ((14, 0), (15, 0), (9, 1), (6, 2)),
        ),
    ),
}


def develop(n: int, f: int, base: tuple[tuple[Point, ...], ...]) -> list[list[tuple[int, ...]]]:
    """All n rounds of a base round; player (x, c) is slot c·n + x, ∞_k is slot 3n + k."""
    rounds = []
    for shift in range(n):
        tables = []
        for k, table in enumerate(base):
            slots = [c * n + (x + shift) % n for x, c in table]
            if k < f:
                slots.insert(0, 3 * n + k)
            tables.append(tuple(slots))
        rounds.append(tables)
    return rounds


def rotational_rounds(n_players: int, rounds: int) -> list[list[tuple[int, ...]]] | None:
    """The first ``rounds`` rounds of the stored design for ``n_players``, if there is one
    with that many rounds. Tables are in design order, not yet numbered."""
    stored = BASE_ROUNDS.get(n_players)
    if stored is None or not 0 < rounds <= stored[0]:
        return None
    n, f, base = stored
    return develop(n, f, base)[:rounds]


def number_tables(
    rounds: list[list[tuple[int, ...]]], n_tables: int, attempts: int = 40
) -> tuple[list[list[tuple[int, ...]]], bool]:
    """Order each round's tables so that nobody sits at one table more than ⌈R/T⌉ times.

    Returns the numbered rounds and whether that limit holds for every player. Restarts
    from seeded shuffles, so the result is the same every time (re-seating relies on it).
    """
    n_players = 4 * n_tables
    cap = allowed_visits(len(rounds), n_tables)
    problem = SearchProblem(
        n_players=n_players,
        n_tables=n_tables,
        n_rounds=len(rounds),
        meet0=(0,) * (n_players * n_players),
        visits0=(0,) * (n_players * n_tables),
        allowed=(cap,) * n_players,
        team=(-1,) * n_players,
        fixed=(-1,) * n_players,
    )
    best: tuple[int, list[list[int]]] | None = None
    for attempt in range(attempts):
        rng = random.Random(attempt)
        start = [list(tables) for tables in rounds]
        if attempt:
            for tables in start:
                rng.shuffle(tables)
        seats = [[slot for table in tables for slot in table] for tables in start]
        seats = renumber_tables(problem, seats, rng, passes=12)
        reuse = costs(problem, seats)[0]
        if best is None or reuse < best[0]:
            best = (reuse, seats)
        if reuse == 0:
            break
    assert best is not None
    numbered = [[tuple(s[4 * t : 4 * t + 4]) for t in range(n_tables)] for s in best[1]]
    return numbered, best[0] == 0
