"""The stored designs (rotational.py, matrices.py, stored_designs.py) and best known plans
(known_plans.py) checked from first principles, and the plans the generator makes from them.

docs/seating-theory.md, "Limits on repeats": N ≡ 4 (mod 12) has a resolvable BIBD(N,4,1) with
(N − 1)/3 rounds; N ≡ 0 (mod 12), N ≥ 24, a 4-RGDD of type 3^(N/3) with (N − 3)/3 rounds.
N ≡ 8 (mod 12): (N − 2)/3 rounds. So 24 players can play 7 rounds, 28 players 9, 32
players 10, 36 players 11, 40 players 13, 44 players 14, 48 players 15, 52 players 17 and
60 players 19 without meeting anybody twice.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from seating.engine import PRIORITIES, SeatingRequest, evaluate, plan_seating
from seating.engine.construction import best_construction, extended_design, partial_start
from seating.engine.known_plans import KNOWN_PLANS
from seating.engine.matrices import MATRICES, Group
from seating.engine.metrics import pair_counts, repeat_lower_bound
from seating.engine.rotational import BASE_ROUNDS, develop
from seating.engine.stored_designs import STORED_DESIGNS, decode_schedule


@pytest.mark.parametrize("players", sorted(BASE_ROUNDS))
def test_every_stored_design_is_a_repeat_free_resolvable_plan(players):
    n, f, base = BASE_ROUNDS[players]
    assert 3 * n + f == players
    rounds = develop(n, f, base)
    assert len(rounds) == n
    met: set[tuple[int, int]] = set()
    for tables in rounds:
        assert sorted(s for t in tables for s in t) == list(range(players))
        assert all(len(t) == 4 for t in tables)
        for table in tables:
            for pair in combinations(sorted(table), 2):
                assert pair not in met, f"{pair} meet twice"
                met.add(pair)
    # Resolvable BIBD (f = 1): every pair meets; RGDD (f = 3): all but the N/3 groups' pairs.
    unmet = players * (players - 1) // 2 - len(met)
    assert unmet == {1: 0, 3: players // 3 * 3, 2: players // 2}[f]


@pytest.mark.parametrize(
    ("players", "rounds"),
    [
        (24, 7),
        (28, 8),
        (28, 9),
        (36, 10),
        (36, 11),
        (40, 11),
        (40, 13),
        (44, 12),
        (44, 14),
        (48, 13),
        (48, 15),
        (52, 14),
        (52, 17),
        (60, 16),
        (60, 19),
    ],
)
def test_rounds_beyond_the_tables_are_perfect_with_the_fair_table_limit(players, rounds):
    plan = plan_seating(
        SeatingRequest(players=tuple(range(1, players + 1)), rounds=rounds, time_limit=10)
    )
    m = plan.metrics
    assert plan.method.startswith("construction cyclic design")
    # table_reuse counts visits beyond ⌈rounds ÷ tables⌉ = 2 (WRC 2015 §8.1 as far as possible)
    assert (m.repeat_pairs, m.table_reuse, m.max_meetings) == (0, 0, 1)
    assert m.wind_imbalance == (0 if rounds % 4 == 0 else 1)


def test_opponents_first_takes_the_design_where_tables_and_repeats_conflict():
    # 24 x 6: six rounds at six tables; zero repeats exists (the 7-round RGDD) but its
    # groups cannot all be given fresh tables.
    request = SeatingRequest(
        players=tuple(range(1, 25)), rounds=6, priority="opponents", time_limit=3
    )
    m = plan_seating(request).metrics
    assert (m.repeat_pairs, m.max_meetings) == (0, 1)
    assert best_construction(6, 6) is None
    assert best_construction(6, 6, tables_first=False) is not None


def test_reseating_continues_the_design_after_a_withdrawal_and_a_late_entry():
    players = tuple(range(1, 29))
    first = plan_seating(SeatingRequest(players=players, rounds=9, time_limit=10))
    played = first.rounds[:3]
    now = tuple(p for p in players if p != 5) + (99,)
    rest = plan_seating(SeatingRequest(players=now, rounds=6, history=played, time_limit=10))
    m = evaluate(played + rest.rounds)
    assert m.repeat_pairs == 0
    assert rest.metrics.table_reuse == 0


@pytest.mark.parametrize("tables", sorted(MATRICES))
def test_every_stored_matrix_has_distinct_differences_in_every_pair_of_columns(tables):
    factors, rows = MATRICES[tables]
    group = Group(factors)
    assert group.order == tables
    # An implicit zero column first: column differences against it are the entries.
    columns = [[0] * len(rows)] + [[group.index[row[i]] for row in rows] for i in range(4)]
    for a, b in combinations(range(5), 2):
        diffs = [group.add[columns[b][r]][group.neg[columns[a][r]]] for r in range(len(rows))]
        assert len(set(diffs)) == len(rows), f"columns {a} and {b} repeat a difference"


@pytest.mark.parametrize(
    ("players", "rounds", "group"),
    [
        (40, 9, "Z_10"),
        (48, 11, "Z_2 × Z_6"),
        (48, 12, "Z_2 × Z_6"),
        (56, 12, "Z_14"),
        (60, 13, "Z_15"),
        (60, 15, "Z_15"),  # rounds = tables: four MOLS of order 15
        (72, 15, "Z_3 × Z_6"),
    ],
)
def test_stored_matrices_give_rounds_without_repeat_or_table_reuse(players, rounds, group):
    # docs/seating-theory.md: R rows of a difference matrix over a group of order T give R
    # rounds with zero repeats and zero table reuse.
    plan = plan_seating(SeatingRequest(players=tuple(range(1, players + 1)), rounds=rounds))
    m = plan.metrics
    assert plan.method == f"construction {group}"
    assert (m.repeat_pairs, m.table_reuse, m.max_meetings) == (0, 0, 1)
    assert m.wind_imbalance == (0 if rounds % 4 == 0 else 1)


@pytest.mark.parametrize(("tables", "rounds"), sorted(KNOWN_PLANS))
def test_every_known_plan_has_fresh_tables_and_the_repeats_it_claims(tables, rounds):
    repeats, schedule = KNOWN_PLANS[(tables, rounds)]
    assert len(schedule) == 4 * tables
    for visits in schedule:
        # WRC 2015 §8.1: nobody sits at a table twice (rounds <= tables here)
        assert len(visits) == rounds
        assert len(set(visits)) == rounds
        assert all(int(table, 36) < tables for table in visits)
    for r in range(rounds):
        for t in range(tables):
            assert sum(int(visits[r], 36) == t for visits in schedule) == 4
    # Two players meet once per round where their tables agree; Σ max(0, meetings − 1)
    meetings = [sum(a[r] == b[r] for r in range(rounds)) for a, b in combinations(schedule, 2)]
    assert sum(max(0, m - 1) for m in meetings) == repeats


@pytest.mark.parametrize(("tables", "rounds"), sorted(KNOWN_PLANS))
def test_tables_first_takes_the_known_plan_and_opponents_first_does_not(tables, rounds):
    players = tuple(range(1, 4 * tables + 1))
    plan = plan_seating(
        SeatingRequest(players=players, rounds=rounds, priority="tables", time_limit=1)
    )
    m = plan.metrics
    assert plan.method.startswith("best known plan")
    assert (m.table_reuse, m.repeat_pairs) == (0, KNOWN_PLANS[(tables, rounds)][0])
    assert m.wind_imbalance == (0 if rounds % 4 == 0 else 1)  # docs/seating-theory.md: winds exact
    opponents = plan_seating(
        SeatingRequest(players=players, rounds=rounds, priority="opponents", time_limit=1)
    )
    assert not opponents.method.startswith("best known plan")


@pytest.mark.parametrize("players", sorted(STORED_DESIGNS))
def test_every_design_stored_whole_is_repeat_free_with_fair_tables(players):
    schedule = STORED_DESIGNS[players]
    n_tables, rounds = players // 4, len(schedule[0])
    assert len(schedule) == players
    plan = decode_schedule(schedule, n_tables, rounds)
    for tables in plan:
        assert sorted(p for t in tables for p in t) == list(range(players))
        assert all(len(t) == 4 for t in tables)
    assert max(pair_counts(plan).values()) == 1
    # WRC 2015 §8.1 as far as possible: nobody more than ⌈rounds ÷ tables⌉ times at a table.
    limit = -(-rounds // n_tables)
    assert all(max(visits.count(t) for t in visits) <= limit for visits in schedule)


@pytest.mark.parametrize(("players", "rounds"), [(32, 9), (32, 10), (40, 10), (56, 13)])
def test_the_designs_stored_whole_seat_perfectly_whatever_the_priority(players, rounds):
    # 32 x 10 and 40 x 10 exist without a repeat (docs/seating-theory.md: 32 x 10, "8-4-10"); plain
    # annealing leaves 20 on 32 x 10. 56 x 13: 13 rounds at 14 tables, beyond any
    # difference matrix of order 14; the search left 42 repeats.
    for priority in PRIORITIES:
        request = SeatingRequest(
            players=tuple(range(1, players + 1)), rounds=rounds, priority=priority
        )
        plan = plan_seating(request)
        m = plan.metrics
        assert plan.method == f"construction stored design ({players} players)"
        assert (m.repeat_pairs, m.table_reuse, m.max_meetings, m.wind_imbalance) == (0, 0, 1, 1)


@pytest.mark.parametrize(("players", "rounds"), [(28, 10), (28, 12), (40, 14), (16, 7)])
def test_a_complete_design_repeated_starts_at_the_counting_bound(players, rounds):
    # A resolvable BIBD (28, 40 players) or AG(2,4) makes every pair meet once; its rounds
    # again under one relabelling meet nobody twice among themselves, so every pair meets
    # at most twice and the repeats equal docs/seating-theory.md's bound ⌈N·(3R − (N − 1))/2⌉.
    n_tables = players // 4
    extend = partial_start if n_tables == 4 else extended_design
    start = extend(n_tables, rounds, random.Random(0))
    assert start is not None
    assert len(start.rounds) == rounds
    counts = pair_counts(start.rounds)
    assert max(counts.values()) == 2
    assert sum(c - 1 for c in counts.values()) == repeat_lower_bound(players, rounds)


def test_beyond_the_design_the_plan_reaches_the_bound_with_fair_tables():
    # 44 players: 14 repeat-free rounds (everybody misses one player); the 15th round can
    # seat every table with two such pairs, at docs/seating-theory.md's bound (44). About
    # 1 s: the search stops at the bound, so the limit only matters on a loaded machine,
    # where 10 s cut it at 46 (four busy processes per core) and 30 s failed once at a load
    # of 10 on 2 cores.
    request = SeatingRequest(
        players=tuple(range(1, 45)), rounds=15, priority="tables", time_limit=120
    )
    m = plan_seating(request).metrics
    assert (m.repeat_pairs, m.repeat_lower_bound) == (44, 44)
    assert (m.table_reuse, m.max_meetings, m.wind_imbalance) == (0, 2, 1)


@pytest.mark.parametrize(("players", "rounds"), [(24, 9), (28, 10)])
def test_the_repeated_design_start_keeps_fixed_tables_and_teams(players, rounds):
    everyone = tuple(range(1, players + 1))
    request = SeatingRequest(
        players=everyone,
        rounds=rounds,
        fixed_tables={3: 1},  # the accessible table
        teams={p: f"club{p % 6}" for p in everyone},
        time_limit=2,
        priority="tables",
    )
    plan = plan_seating(request)
    for tables in plan.rounds:
        assert sorted(p for table in tables for p in table) == list(everyone)
        assert 3 in tables[0]
    m = plan.metrics
    assert m.table_reuse == m.table_reuse_lower_bound
    assert m.wind_imbalance == 1  # docs/seating-theory.md: max − min ≤ 1, 0 only when 4 divides R
