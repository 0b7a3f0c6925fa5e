"""Stored difference matrices, longer than the quick search finds, for table counts that
are no prime power.

The difference-matrix construction (construction.py) needs rows k[r] ∈ G^4 whose column
differences, including against an implicit zero column, are distinct over the rows: each
row is one round with no repeat and no table reuse. Over GF(Q) the rows come from a
formula; otherwise a node-bounded backtracking over Z_T stops early (40 players: 8 rounds,
48: 9, 56: 11, 60: 12, 72: 14). Stored here:

* T = 12: a full (12, 5; 1) matrix over Z_2 × Z_6, so 48 players play up to 12 rounds
  (Johnson, Dulmage and Mendelsohn used one in 1961 for five mutually orthogonal Latin
  squares of order 12). Z_12 cannot carry a full one (Hall–Paige: a cyclic Sylow
  2-subgroup forbids complete mappings), Z_2 × Z_6 can.
* T = 15: a full (15, 5; 1) matrix over Z_15, so 60 players play up to 15 rounds (four
  mutually orthogonal Latin squares of order 15; the search finds it in seconds once the
  rows are asked to be mapped onto themselves by x -> -x, ``--negated``).
* T = 10: 9 rows over Z_10 (10 is impossible by the same argument); T = 14: 12 rows over
  Z_14; T = 18: 15 rows over Z_3 × Z_6 (longer ones were not found within a minute).

Found with ``bench/designs/find_designs.py --matrix 2,6 --rounds 12`` (likewise ``10 --rounds 9``,
``14 --rounds 12``, ``15 --negated``, ``3,6 --rounds 15``), a CP-SAT model run offline,
and checked from first principles by ``tests/seating/test_engine_designs.py``.
"""

from __future__ import annotations

import itertools

__all__ = ["MATRICES", "Group", "stored_matrix"]

Element = tuple[int, ...]

#: tables -> (cyclic factors of G, rows of group elements, one column per seat class).
MATRICES: dict[int, tuple[tuple[int, ...], tuple[tuple[Element, ...], ...]]] = {
    10: (
        (10,),
        (
            ((0,), (0,), (0,), (0,)),
            ((1,), (4,), (6,), (9,)),
            ((2,), (1,), (9,), (4,)),
            ((3,), (7,), (4,), (6,)),
            ((4,), (9,), (8,), (5,)),
            ((5,), (3,), (7,), (1,)),
            ((6,), (2,), (5,), (3,)),
            ((7,), (8,), (3,), (2,)),
            ((8,), (5,), (1,), (7,)),
        ),
    ),
    12: (
        (2, 6),
        (
            ((0, 0), (0, 0), (0, 0), (0, 0)),
            ((0, 1), (1, 3), (1, 1), (1, 2)),
            ((0, 2), (0, 5), (0, 4), (0, 1)),
            ((0, 3), (1, 4), (1, 5), (0, 4)),
            ((0, 4), (1, 2), (0, 2), (1, 0)),
            ((0, 5), (0, 4), (1, 3), (1, 5)),
            ((1, 0), (1, 1), (0, 3), (1, 4)),
            ((1, 1), (0, 1), (1, 4), (1, 3)),
            ((1, 2), (1, 0), (0, 1), (0, 5)),
            ((1, 3), (1, 5), (1, 2), (0, 2)),
            ((1, 4), (0, 3), (0, 5), (1, 1)),
            ((1, 5), (0, 2), (1, 0), (0, 3)),
        ),
    ),
    14: (
        (14,),
        (
            ((0,), (0,), (0,), (0,)),
            ((1,), (3,), (4,), (8,)),
            ((2,), (9,), (8,), (4,)),
            ((3,), (7,), (2,), (1,)),
            ((4,), (12,), (1,), (13,)),
            ((5,), (11,), (7,), (9,)),
            ((6,), (1,), (13,), (5,)),
            ((7,), (6,), (11,), (12,)),
            ((8,), (4,), (6,), (11,)),
            ((9,), (10,), (3,), (6,)),
            ((10,), (13,), (5,), (2,)),
            ((11,), (8,), (12,), (7,)),
        ),
    ),
    15: (
        (15,),
        (
            ((0,), (0,), (0,), (0,)),
            ((1,), (11,), (12,), (7,)),
            ((2,), (9,), (11,), (3,)),
            ((3,), (5,), (13,), (10,)),
            ((4,), (13,), (7,), (6,)),
            ((5,), (1,), (6,), (2,)),
            ((6,), (3,), (14,), (1,)),
            ((7,), (8,), (5,), (11,)),
            ((8,), (7,), (10,), (4,)),
            ((9,), (12,), (1,), (14,)),
            ((10,), (14,), (9,), (13,)),
            ((11,), (2,), (8,), (9,)),
            ((12,), (10,), (2,), (5,)),
            ((13,), (6,), (4,), (12,)),
            ((14,), (4,), (3,), (8,)),
        ),
    ),
    18: (
        (3, 6),
        (
            ((0, 0), (0, 0), (0, 0), (0, 0)),
            ((0, 1), (2, 1), (2, 3), (0, 3)),
            ((0, 2), (1, 4), (1, 5), (2, 1)),
            ((0, 3), (1, 0), (1, 3), (1, 4)),
            ((0, 4), (0, 2), (2, 4), (1, 0)),
            ((0, 5), (0, 4), (0, 3), (2, 0)),
            ((1, 0), (1, 3), (2, 1), (2, 4)),
            ((1, 1), (2, 5), (1, 0), (1, 2)),
            ((1, 2), (0, 3), (2, 0), (0, 4)),
            ((1, 3), (0, 5), (1, 4), (2, 3)),
            ((1, 4), (2, 3), (1, 1), (0, 2)),
            ((1, 5), (2, 0), (0, 2), (2, 2)),
            ((2, 0), (1, 5), (2, 2), (0, 5)),
            ((2, 1), (2, 2), (1, 2), (1, 1)),
            ((2, 2), (2, 4), (0, 4), (1, 5)),
        ),
    ),
}


class Group:
    """Z_a × Z_b × …, elements numbered 0..order-1, with addition and negation tables."""

    def __init__(self, factors: tuple[int, ...]) -> None:
        self.factors = factors
        self.elements: list[Element] = list(itertools.product(*(range(f) for f in factors)))
        self.index = {e: i for i, e in enumerate(self.elements)}
        self.order = len(self.elements)
        self.add = [[self._sum(x, y) for y in self.elements] for x in self.elements]
        zero = self.index[(0,) * len(factors)]
        self.neg = [row.index(zero) for row in self.add]

    def _sum(self, x: Element, y: Element) -> int:
        return self.index[tuple((a + b) % f for a, b, f in zip(x, y, self.factors, strict=True))]

    @property
    def name(self) -> str:
        return " × ".join(f"Z_{f}" for f in self.factors)


def stored_matrix(n_tables: int, rounds: int) -> tuple[Group, list[tuple[int, ...]]] | None:
    """The group and up to ``rounds`` rows (as element numbers) of the stored matrix for
    ``n_tables`` tables, or None if none is stored."""
    stored = MATRICES.get(n_tables)
    if stored is None:
        return None
    group = Group(stored[0])
    rows = [tuple(group.index[e] for e in row) for row in stored[1][:rounds]]
    return group, rows
