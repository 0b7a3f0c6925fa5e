"""Winds after played rounds (live re-seating): the seat orders of the new tables reach the
smallest largest spread (the report's figure) and, with it, as few players at spread 2 or
more as any orders could; the counting bound never claims more players than any orders
leave. Checked against every seat order on small fields. The wind stage keeps the run's
deadline: what it has when the deadline comes is complete and no worse than the colouring."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from seating.engine import SeatingRequest, plan_seating, planner, winds
from seating.engine.metrics import evaluate
from seating.engine.winds import assign_winds, forced_uneven, least_spread, wind_counts

ORDERS = list(itertools.permutations(range(4)))


def uneven(counts: dict[int, list[int]]) -> int:
    return sum(max(c) - min(c) >= 2 for c in counts.values())


def quality(counts: dict[int, list[int]]) -> tuple[int, int]:
    return max(max(c) - min(c) for c in counts.values()), uneven(counts)


def after(history: dict[int, list[int]], rounds) -> dict[int, list[int]]:
    totals = {p: list(c) for p, c in history.items()}
    for rnd in rounds:
        for table in rnd:
            for seat, p in enumerate(table):
                totals[p][seat] += 1
    return totals


def best_orders(history: dict[int, list[int]], rounds) -> tuple[tuple[int, int], int]:
    """Every seat order of every table tried: the best (largest spread, players at spread
    2+), and the fewest such players whatever the largest spread."""
    tables = [table for rnd in rounds for table in rnd]
    best, fewest = None, len(history)
    for orders in itertools.product(ORDERS, repeat=len(tables)):
        totals = {p: list(c) for p, c in history.items()}
        for table, order in zip(tables, orders, strict=True):
            for seat, p in enumerate(table):
                totals[p][order[seat]] += 1
        found = quality(totals)
        best = found if best is None else min(best, found)
        fewest = min(fewest, found[1])
    return best, fewest


def test_two_rounds_after_a_history_reach_the_best_orders():
    # Two rounds played, two to seat: the seat-swap climb alone left 3 players at spread 2,
    # where 2 is the fewest any orders of these four tables give.
    history = wind_counts([((6, 2, 4, 5), (1, 3, 7, 8)), ((5, 2, 8, 4), (7, 1, 3, 6))])
    new = [((7, 1, 4, 3), (6, 5, 8, 2)), ((6, 5, 2, 4), (8, 1, 3, 7))]
    best, fewest = best_orders(history, new)
    assert best == (2, 2)
    assert quality(after(history, assign_winds(new, history_counts=history))) == best
    assert forced_uneven(history, dict.fromkeys(history, 2)) <= fewest
    assert least_spread(history, dict.fromkeys(history, 2)) == best[0]


@pytest.mark.parametrize("seed", range(12))
def test_one_round_after_a_random_history_reaches_the_best_and_the_bound_is_below(seed):
    rng = random.Random(seed)
    players = list(range(1, 13))

    def shuffled_round():
        order = rng.sample(players, len(players))
        return tuple(tuple(order[i : i + 4]) for i in range(0, 12, 4))

    history = wind_counts([shuffled_round() for _ in range(rng.randrange(1, 6))])
    new = [shuffled_round()]
    best, fewest = best_orders(history, new)
    assert quality(after(history, assign_winds(new, seed=seed, history_counts=history))) == best
    assert forced_uneven(history, dict.fromkeys(players, 1)) <= fewest
    assert least_spread(history, dict.fromkeys(players, 1)) <= best[0]


def reseat_case(seed: int) -> tuple[dict[int, list[int]], list]:
    """Three rounds of 40 played with any seat orders, five of them replaced, five rounds
    to seat."""
    rng = random.Random(1000 * seed + 43)
    field = list(range(40))

    def shuffled_round(who):
        order = rng.sample(who, len(who))
        return tuple(tuple(order[i : i + 4]) for i in range(0, len(order), 4))

    history = wind_counts([shuffled_round(field) for _ in range(3)])
    gone = set(rng.sample(field, 5))
    active = [p for p in field if p not in gone] + [1000 + i for i in range(len(gone))]
    return history, [shuffled_round(active) for _ in range(5)]


@pytest.mark.parametrize("seed", range(10))
def test_the_search_never_leaves_winds_worse_than_the_seat_swap_climb_alone(monkeypatch, seed):
    # Three rounds played with whatever seat orders (rounds seated by hand, say), an eighth
    # of the field replaced, five rounds to seat: where the search cannot keep everyone
    # within the bound the climb competes, and the better result is kept (docs/seating.md,
    # "Winds") — so the search must not change the climb's own random draws.
    history, new = reseat_case(seed)
    active = {p for t in new[0] for p in t}
    totals = {p: list(history.get(p, (0, 0, 0, 0))) for p in active}

    kept = quality(after(totals, assign_winds(new, seed=seed, history_counts=history)))
    monkeypatch.setattr(winds, "_search_even", lambda *args: None)
    climb = quality(after(totals, assign_winds(new, seed=seed, history_counts=history)))
    assert kept <= climb


@pytest.mark.parametrize("seed", range(3))
def test_a_passed_deadline_returns_the_colouring_at_once(monkeypatch, seed):
    # A re-seat whose time limit is spent when the winds start: no search, no climb, and
    # still every table seated E, S, W, N once (WRC 2015 §4.4: the generator gives the winds).
    history, new = reseat_case(seed)
    tries = []
    monkeypatch.setattr(winds, "_try_even", lambda *args: tries.append(args))
    seated = assign_winds(new, seed=seed, history_counts=history, deadline=time.monotonic() - 1)
    assert not tries
    assert seated == assign_winds(new, seed=seed)
    for rnd, planned in zip(seated, new, strict=True):
        assert [sorted(t) for t in rnd] == [sorted(t) for t in planned]


class StepClock:
    """A clock for the wind stage that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


@pytest.mark.parametrize("seed", range(3))
def test_a_search_the_deadline_cuts_short_still_leaves_the_climb_its_time(monkeypatch, seed):
    # The search spends its share of the time and finds nothing: the climb runs in the rest
    # as if there were no deadline at all.
    history, new = reseat_case(seed)
    totals = {p: list(history.get(p, (0, 0, 0, 0))) for rnd in new for t in rnd for p in t}
    clock = StepClock()
    monkeypatch.setattr(winds, "time", clock)
    deadline = clock.now + 10

    def slow_search(flat, history, free, rng, max_nodes, search_deadline):
        assert clock.now < search_deadline < deadline
        clock.now = search_deadline
        return None

    monkeypatch.setattr(winds, "_search_even", slow_search)
    cut = assign_winds(new, seed=seed, history_counts=history, deadline=deadline)
    monkeypatch.setattr(winds, "_search_even", lambda *args: None)
    climb = assign_winds(new, seed=seed, history_counts=history)
    assert cut == climb
    assert quality(after(totals, cut)) <= quality(after(totals, assign_winds(new, seed=seed)))


def test_the_planner_stops_the_winds_in_time_for_its_final_check(monkeypatch):
    # The run's time limit covers everything: the winds end that long after the start, less
    # the final check's time (planner.CHECK_SECONDS_PER_SEAT a seat, 16 players × 4 rounds).
    played = plan_seating(SeatingRequest(players=tuple(range(1, 17)), rounds=4)).rounds[:2]
    deadlines = []

    def spy(groups, **kwargs):
        deadlines.append(kwargs["deadline"])
        return assign_winds(groups, **kwargs)

    clock = StepClock()
    monkeypatch.setattr(planner, "time", clock)
    monkeypatch.setattr(planner, "assign_winds", spy)
    request = SeatingRequest(players=tuple(range(1, 17)), rounds=2, history=played, time_limit=7)
    plan_seating(request)
    assert deadlines == [pytest.approx(clock.now + 7 - planner.CHECK_SECONDS_PER_SEAT * 64)]


def test_the_report_bounds_the_wind_spread_that_the_history_forces():
    # One round played, 1, 2 and 3 East and 4 South at four tables; the others leave and
    # the four play three rounds together: each of 1–3 would need S, W and N once, so
    # somebody ends two apart (winds.forced_uneven's example), and orders reach just that.
    played = ((1, 5, 6, 7), (2, 8, 9, 10), (3, 11, 12, 13), (14, 4, 15, 16))
    new = [((1, 2, 3, 4),)] * 3
    metrics = evaluate([played, *new], played=1)
    best, _fewest = best_orders(wind_counts([played]), new)
    assert metrics.wind_imbalance_lower_bound == best[0] == 2
    assert metrics.wind_imbalance >= 2


@pytest.mark.parametrize(("rounds", "spread"), [(4, 0), (5, 1)])
def test_without_history_the_wind_bound_is_the_spread_the_colouring_reaches(rounds, spread):
    # docs/seating-theory.md, "Winds are solved exactly": ⌊R/4⌋ or ⌈R/4⌉ of each wind.
    metrics = plan_seating(SeatingRequest(players=tuple(range(1, 21)), rounds=rounds)).metrics
    assert metrics.wind_imbalance_lower_bound == metrics.wind_imbalance == spread
