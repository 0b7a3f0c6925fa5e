"""Stored difference matrices over abelian groups that are not fields.

The difference-matrix construction (construction.py) needs rows k[r] ∈ G^4 whose column
differences, including against an implicit zero column, are distinct over the rows. Over
GF(Q) they come from a formula; for table counts that are no prime power a backtracking
search finds only part of a matrix quickly (48 players: 9 of 12 rounds). Where a full
matrix is known to exist it is stored here: for T = 12 a (12, 5; 1) difference matrix over
Z_2 × Z_6 (Johnson, Dulmage and Mendelsohn used one in 1961 for five mutually orthogonal
Latin squares of order 12). A cyclic group of even order cannot have one (Hall–Paige), a
group with a non-cyclic Sylow 2-subgroup can.

Found with ``scripts/find_designs.py --matrix 2,6 --rounds 12`` (a CP-SAT model) and
checked from first principles by ``tests/seating/test_engine_designs.py``.
"""

from __future__ import annotations

import itertools

__all__ = ["MATRICES", "Group", "stored_matrix"]

Element = tuple[int, ...]

#: tables -> (cyclic factors of G, rows of group elements, one column per seat class).
MATRICES: dict[int, tuple[tuple[int, ...], tuple[tuple[Element, ...], ...]]] = {
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
    """The group and the first ``rounds`` rows (as element numbers) of a stored matrix."""
    stored = MATRICES.get(n_tables)
    if stored is None or rounds > len(stored[1]):
        return None
    group = Group(stored[0])
    rows = [tuple(group.index[e] for e in row) for row in stored[1][:rounds]]
    return group, rows
