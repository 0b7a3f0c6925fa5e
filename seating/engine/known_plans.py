"""Best plans known for sizes that no construction covers and where the search is slow
and uneven, stored so the organiser gets the best known plan at once, every time.

24 players × 6 rounds with no table revisited: each player's six tables are a permutation
of the six tables, and two players meet as often as their permutations agree. No zero-repeat
plan exists (it would need 24 permutations of six symbols agreeing pairwise at most once;
at most 18 such exist), and the search reaches 15 repeated meetings on most seeds, 16 to 20
on others, in 12 to 20 seconds. The stored plan has 15 (one pair meets three times); a
plain simulated annealing reaches 15 too (THEORY.md) and nothing better is known to us.
Found by this package's own search (seed 100, 40 s) and checked from first principles by
tests/seating/test_engine_designs.py.

Each plan is one string per player: the table (0-based, one base-36 digit: 0-9 then a-z)
of that player in each round.
"""

from __future__ import annotations

from .construction import Construction

__all__ = ["KNOWN_PLANS", "known_plan"]

#: (tables, rounds) -> (repeated meetings, one table string per player)
KNOWN_PLANS: dict[tuple[int, int], tuple[int, tuple[str, ...]]] = {
    (6, 6): (
        15,
        (
            "023451", "031542", "052314", "053124", "104235", "125340",
            "130425", "145023", "213045", "234150", "240531", "251403",
            "305412", "310254", "342105", "354021", "401352", "412530",
            "420513", "435201", "502143", "514302", "521034", "543210",
        ),
    ),
}  # fmt: skip


def known_plan(n_tables: int, rounds: int) -> Construction | None:
    """The stored plan for this size as slots, or None."""
    stored = KNOWN_PLANS.get((n_tables, rounds))
    if stored is None:
        return None
    repeats, schedule = stored
    n_players = len(schedule)
    plan = tuple(
        tuple(
            tuple(s for s, tables in enumerate(schedule) if int(tables[r], 36) == t)
            for t in range(n_tables)
        )
        for r in range(rounds)
    )
    slot_class = tuple(4 * s // n_players for s in range(n_players))
    return Construction(plan, slot_class, f"best known plan ({repeats} repeats)")
