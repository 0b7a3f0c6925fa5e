"""Best plans known for sizes that no construction covers and where the search is slow
and uneven, stored so the organiser gets the best known plan at once, every time. They
keep every player off any table twice (rounds = tables), so they serve "tables first".

24 players × 6 rounds with no table revisited: each player's six tables are a permutation
of the six tables, and two players meet as often as their permutations agree. No zero-repeat
plan exists (it would need 24 permutations of six symbols agreeing pairwise at most once;
at most 18 such exist), and the search reaches 15 repeated meetings on most seeds, 16 to 20
on others, in 12 to 20 seconds. The stored plan has 15 (one pair meets three times); a
plain simulated annealing reaches 15 too (docs/seating-theory.md) and nothing better is
known to us; a plan below 15 cannot be four groups of six who never meet (Latin squares of
order 6, no two orthogonal: bench/designs/latin_squares_24x6.py finds 36 repeats at best).
Found by this package's own search (seed 100, 40 s) and checked from first principles by
tests/seating/test_engine_designs.py.

56 × 14 (rounds = tables, where no difference matrix exists: Z_14 has none, Hall–Paige):
the search gives 101 repeats; a simulated annealing in C over the same permutation model
(moves that exchange two players' tables between two rounds, or longer cycles of them; run
offline for about an hour, not part of the project) found 76, stored here. (It found 79 for
60 × 15 and 34 for 40 × 10, which matrices.py and stored_designs.py now seat with none.)

Each plan is one string per player: the table (0-based, one base-36 digit: 0-9 then a-z)
of that player in each round, as in stored_designs.py.
"""

from __future__ import annotations

from .construction import Construction
from .stored_designs import decode_schedule

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
    (14, 14): (
        76,
        (
            "d57426b08319ca", "0ca46319b78d25", "a8215374906bcd", "2c405b871d936a",
            "948a31b52d0c76", "c231d458b697a0", "58d94ba367c210", "914b68d25a70c3",
            "5acd6230714b89", "029738c5db461a", "b1908d5a7c3246", "3a9c2d0b586471",
            "185cb602749ad3", "4a1285c6b3d079", "b54a7c0936281d", "3d28b740a95c16",
            "1436025d87ab9c", "684d9015c3a7b2", "d0867b91ac4523", "1982c637dab450",
            "9b70c34185d6a2", "4cb51d7239a608", "7061c589d4a23b", "87239c5b64d10a",
            "c0dba725318469", "7b368c2a091d54", "c465b83a10d927", "56a2398d0c71b4",
            "b395c1d6a28704", "26ca97d140b835", "bad7036124c958", "2017d6ab953c84",
            "360914ca2b758d", "d302a71c659b48", "7d053294bac861", "4289ac6d7053b1",
            "adc479168b0253", "841369ac02b57d", "896a047b5c13d2", "07cbda83196542",
            "8db120c3457a96", "95bd846ca72130", "75a39b482160dc", "a158d92743c60b",
            "0c764d389251ab", "6b2c4a973d1085", "d7b90826c134a5", "6957a243180dcb",
            "1ba825dc960347", "463b5190c82ad7", "a91c50bd624837", "375041a2d689bc",
            "520d1ab948376c", "21637a04cb5d98", "c37810645dba29", "63d4b5780a2c91",
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
    plan = decode_schedule(schedule, n_tables, rounds)
    slot_class = tuple(4 * s // n_players for s in range(n_players))
    return Construction(plan, slot_class, f"best known plan ({repeats} repeats)")
