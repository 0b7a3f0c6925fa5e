"""Check that no 24 × 6 plan made of four Latin squares has fewer than 15 repeats.

    python bench/designs/latin_squares_24x6.py        # numpy; about 30 s

With 24 players, 6 tables and 6 rounds and nobody at a table twice, each player's tables
are a permutation of the six, and two players meet as often as their permutations agree
(known_plans.py). The obvious shape for a good plan is four groups of six players who never
meet within their group: each group is then a Latin square of order 6 (rows rounds, columns
tables, symbols players), and a player of one group meets a player of another as often as
their pair of symbols appears when the two squares are laid on top of each other. The
repeats between two groups are 36 minus the number of distinct symbol pairs.

Order 6 has no pair of orthogonal Latin squares (Tarry, 1900) and none with 35 distinct
symbol pairs either (the script prints each class's floor), so each pair of groups costs at
least 2 repeats and four groups at least 12. This script settles whether the shape can beat
the stored 15: a plan with 14 or fewer has all six costs at most 4 (the other five cost 2
or more), so the first square's three costs are at most 4. Up to reordering the rounds,
renumbering the tables (both for all groups at once), swapping rounds with tables and
renaming each group's players, the first square is one of 17 classes; the other three are
taken among all 1 128 960 squares whose first row is 0 1 2 3 4 5 (renaming a group's
players reaches that row), and every triple of them is scored. It prints, for each class,
the fewest repeats of such a four-square plan; everything comes out far above 15, so a plan
below 15, if one exists, cannot be split into four groups that never meet.

numpy is not a dependency of the project: this is an offline check, like find_designs.py.
"""

from __future__ import annotations

import itertools

import numpy as np

PERMS = np.array(list(itertools.permutations(range(6))), dtype=np.int8)
DISJOINT = (PERMS[:, None, :] != PERMS[None, :, :]).all(axis=2)
CELL_BITS = (1 << np.arange(36, dtype=np.int64)).reshape(6, 6)
MAX_COST = 4  # the most a pair of groups may cost in a plan with 14 repeats or fewer


def latin_squares(rows_sorted: bool) -> np.ndarray:
    """Every 6 × 6 Latin square with first row 0..5 (sorted rows: one per reduced square)."""
    rows = np.zeros((1, 1), dtype=np.int16)
    for _ in range(5):
        fits = DISJOINT[rows[:, 0]].copy()
        for k in range(1, rows.shape[1]):
            fits &= DISJOINT[rows[:, k]]
        if rows_sorted:
            fits &= np.arange(len(PERMS))[None, :] > rows[:, -1:]
        square, row = np.nonzero(fits)
        rows = np.hstack([rows[square], row[:, None].astype(np.int16)])
    return PERMS[rows]


def symbol_masks(squares: np.ndarray) -> np.ndarray:
    """masks[i, s]: the cells of square i holding symbol s, one bit per cell."""
    return np.stack(
        [
            np.where(squares == s, CELL_BITS, 0).reshape(len(squares), 36).sum(axis=1)
            for s in range(6)
        ],
        axis=1,
    )


def costs(masks: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Repeats between one square's group and each other square's group."""
    distinct = np.zeros(len(others), dtype=np.int8)
    for symbol in range(6):
        distinct += ((masks[symbol] & others) != 0).sum(axis=1, dtype=np.int8)
    return 36 - distinct


def _key(squares: np.ndarray) -> list[bytes]:
    return [square.tobytes() for square in np.ascontiguousarray(squares.reshape(len(squares), 36))]


def _reduced_images(square: np.ndarray) -> set[bytes]:
    """The reduced squares reachable by permuting rows and columns, transposing and renaming."""
    perms = PERMS.astype(np.intp)
    images = set()
    for base in (square, square.T):
        for rows in perms:
            moved = np.transpose(base[rows][:, perms], (1, 0, 2))
            rename = np.argsort(moved[:, 0, :], axis=1)
            renamed = np.take_along_axis(
                rename[:, None, :].repeat(6, axis=1), moved.astype(np.intp), axis=2
            )
            reduced = renamed[(renamed[:, :, 0] == np.arange(6)).all(axis=1)].astype(np.int8)
            images.update(_key(reduced))
    return images


def square_classes() -> list[np.ndarray]:
    """One square of each class (17 for order 6)."""
    remaining = set(_key(latin_squares(rows_sorted=True)))
    classes = []
    while remaining:
        square = np.frombuffer(min(remaining), dtype=np.int8).reshape(6, 6)
        remaining -= _reduced_images(square)
        classes.append(square)
    return classes


def fewest_repeats(first: np.ndarray, masks: np.ndarray) -> tuple[int, int | None]:
    """(fewest costs against the first square, fewest repeats of a plan whose first square
    costs at most MAX_COST against each of the other three), None when there is none."""
    to_first = costs(symbol_masks(first[None])[0], masks)
    mates = np.nonzero(to_first <= MAX_COST)[0]
    between = np.stack([costs(masks[m], masks[mates]) for m in mates]) if len(mates) else None
    first_cost = to_first[mates].astype(np.int32)
    best = None
    for a, b in itertools.combinations(range(len(mates)), 2):
        rest = slice(b + 1, None)
        fixed = first_cost[a] + first_cost[b] + between[a, b]
        totals = fixed + first_cost[rest] + between[a, rest] + between[b, rest]
        if len(totals):
            low = int(totals.min())
            best = low if best is None else min(best, low)
    return int(to_first.min()), best


def main() -> None:
    masks = symbol_masks(latin_squares(rows_sorted=False))
    overall = None
    for number, first in enumerate(square_classes(), start=1):
        pair_floor, best = fewest_repeats(first, masks)
        shown = "no three squares within 4 of it" if best is None else f"fewest repeats {best}"
        print(f"class {number:2}: two groups meet with at least {pair_floor} repeats; {shown}")
        if best is not None:
            overall = best if overall is None else min(overall, best)
    print(
        f"plans of four squares, each pair of groups costing at most {MAX_COST} against the"
        f" first (as in any plan below 15): fewest repeats {overall}"
    )


if __name__ == "__main__":
    main()
