"""Count the table numberings of AG(2,4) by the revisits they leave over 16 players × 5 rounds.

    python bench/designs/ag5_numberings.py        # about 15 s

AG(2,4) is the only plan of 16 players over 5 rounds in which nobody meets anyone twice
(docs/seating-theory.md), so only its table numbers can change: 4! per round, 24⁴ once the
first round's are fixed. Five rounds at four tables allow two visits to a table (WRC 2015
§8.1: at most ⌈rounds ÷ tables⌉); the script prints, for each way of leaving revisits, how
many numberings do so. Fewest revisits, 3, only by one player sitting at one table all five
rounds; with nobody more than three times at a table, 4 (four players three times), which
the construction uses (construction.AG5_TABLE_NUMBERS).
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from seating.engine.construction import affine_plane_16  # noqa: E402


def main() -> None:
    rounds = affine_plane_16().rounds
    found: Counter[tuple[int, tuple[int, ...]]] = Counter()
    for numbering in itertools.product(itertools.permutations(range(4)), repeat=4):
        visits: Counter[tuple[int, int]] = Counter()
        for r, tables in enumerate(rounds):
            for t, table in enumerate(tables):
                number = t if r == 0 else numbering[r - 1][t]
                for player in table:
                    visits[player, number] += 1
        beyond = tuple(sorted(v for v in visits.values() if v > 2))
        found[sum(v - 2 for v in beyond), beyond] += 1
    print("revisits  visits beyond 2 (one per player and table)  numberings")
    for (revisits, beyond), count in sorted(found.items())[:8]:
        print(f"{revisits:8}  {' '.join(map(str, beyond)):43}  {count}")


if __name__ == "__main__":
    main()
