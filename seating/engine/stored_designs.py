"""Repeat-free plans stored whole, table numbers included, for sizes that neither the
difference-matrix construction (construction.py) nor a cyclic design (rotational.py)
reaches.

32 players × 10 rounds, the original social golfer question ("8-4-10", open until 2004):
every player meets 30 of the other 31 exactly once and misses one, a resolvable 4-GDD of
type 2^16. The cyclic form of rotational.py cannot give it (an exhaustive search rules it
out) and the local search stops at 16 repeats. This one is invariant under Z_2^3 and was
found by ``bench/designs/find_designs.py --resolvable 32 --rounds 10 --swaps 1,2,4`` (a SAT model,
a few seconds); its tables were numbered by :func:`rotational.number_tables`, so nobody
sits more than twice at one table (⌈10 ÷ 8⌉), and any first 9 rounds keep that too.
``tests/seating/test_engine_designs.py`` checks it from first principles.

40 players × 10 rounds at 10 tables: nobody sits at a table twice and nobody meets anybody
twice (a SOMA(4, 10)). A difference matrix cannot give it (no group of order 10 carries
ten rows, Hall–Paige); the search stopped at 44–50 repeats and an offline annealing at 34.
This plan is invariant under Z_9 acting on rounds and tables with one fixed point
(1-rotational: four orbits of nine players and four fixed players) and was found by
``bench/designs/find_designs.py --soma 40`` (base rows listed, then a clique search, 90 s).

56 players × 13 rounds at 14 tables, likewise: a difference matrix over a group of order 14
cannot exist (Hall–Paige) and stops at 12 rounds; the search left 42 repeats. This plan has
the same form under Z_13 (four orbits of 13 players, four fixed players, table ∞ = 13), and
was found by the SAT model of ``bench/designs/find_designs.py --soma 56 --rounds 13 --sat`` (10 s).

A plan is one string per player: the table (0-based, one base-36 digit: 0-9 then a-z) of
that player in each round. known_plans.py stores its plans the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from .metrics import allowed_visits

__all__ = ["STORED_DESIGNS", "decode_schedule", "stored_design_rounds"]

#: players -> one table string per player (rounds = length of a string).
STORED_DESIGNS: dict[int, tuple[str, ...]] = {
    32: (
        "1246250746", "5443721660", "0673642012", "4176163553", "5506614377", "1703465221",
        "4313276105", "0016527434", "3734217510", "2537426056", "6057671243", "7354560362",
        "7430653425", "6231762174", "2151245637", "3650124701", "7042346571", "6345137027",
        "2775051304", "3572700235", "3105372466", "2602533140", "6412015752", "7215404613",
        "0361354250", "4060735316", "1520047163", "5721106442", "4627310624", "0124431775",
        "5264073031", "1467502507",
    ),
    # bench/designs/find_designs.py --soma 40
    40: (
        "9318762540", "5942087361", "7695310842", "5879642103", "1608975324", "3271098645",
        "5438219076", "8654032917", "2076514398", "9573821064", "7968403215", "2897051436",
        "4309816257", "6541902738", "4765291380", "0587639241", "5160874932", "4627108593",
        "9740136825", "3985124706", "1490623587", "0259173468", "7136928450", "6824793051",
        "6703589412", "2781460953", "6380257194", "9051347286", "0916245837", "4192735608",
        "1529384670", "8263940571", "8037495162", "7014859623", "3812506974", "8402361795",
        "0123456789", "1234567809", "2345678019", "3456780129",
    ),
    # bench/designs/find_designs.py --soma 56 --rounds 13 --sat
    56: (
        "a4890d13652c7", "8b59a1d247630", "19c6ab2d35874", "52a07bc3d4698",
        "963b18c04d57a", "ba74c29015d68", "9cb8503a126d7", "8a0c9614b237d",
        "d9b10a725c348", "9dac21b836045", "6adb032c94715", "67bdc1430a582",
        "378cd02541b69", "3c106948257bd", "d40217a59368c", "0d51328b6a479",
        "a1d62439c7b58", "9b2d7354a08c6", "7ac3d8465b190", "18b04d9576c2a",
        "b29c15da68703", "4c3a026db7981", "2504b137dc8a9", "a3615c248d09b",
        "cb47260359d1a", "b0c5837146ad2", "45a638d190cb7", "856b749d2a10c",
        "0967c85ad3b21", "21a78096bd4c3", "432b891a7cd50", "1543c9a2b80d6",
        "726540ab3c91d", "d837651bc40a2", "3d948762c051b", "c4da598730162",
        "305db6a984127", "8416dc7ba9523", "49527d08cba63", "63189db0574ac",
        "07429adc1685b", "c1853abd02796", "702964bcd138a", "b813a75c0d249",
        "ac924b8601d35", "6b0a35c9712d4", "57c1b460a823d", "d6802c571b934",
        "5d79130682ca4", "56d8a2417930b", "c67d9b3528a41", "2078dac4639b5",
        "0123456789abc", "123456789abc0", "23456789abc01", "789abc0123456",
    ),
}  # fmt: skip


def decode_schedule(
    schedule: Sequence[str], n_tables: int, rounds: int
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The first ``rounds`` rounds of a stored schedule: ``plan[r][t]`` holds the players
    (string indices) at table t in round r.

    >>> decode_schedule(("01", "01", "01", "01", "10", "10", "10", "10"), 2, 2)
    (((0, 1, 2, 3), (4, 5, 6, 7)), ((4, 5, 6, 7), (0, 1, 2, 3)))
    """
    return tuple(
        tuple(
            tuple(p for p, tables in enumerate(schedule) if int(tables[r], 36) == t)
            for t in range(n_tables)
        )
        for r in range(rounds)
    )


def stored_design_rounds(
    n_tables: int, rounds: int
) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """The first ``rounds`` rounds of the design stored for ``4 · n_tables`` players, if it
    has that many and they keep everybody within ⌈rounds ÷ tables⌉ visits of a table."""
    schedule = STORED_DESIGNS.get(4 * n_tables)
    if schedule is None or not 0 < rounds <= len(schedule[0]):
        return None
    cap = allowed_visits(rounds, n_tables)
    if any(max(s[:rounds].count(t) for t in set(s[:rounds])) > cap for s in schedule):
        return None
    return decode_schedule(schedule, n_tables, rounds)
