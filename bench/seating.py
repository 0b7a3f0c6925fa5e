"""Benchmark of the seating generator: quality and time on the reference sizes.

    python -m bench.seating                 # every case, with and without 8 teams, + live
    python -m bench.seating --case 40x8 --case 24x6 --teams only
    python -m bench.seating --live-only
    python -m bench.seating --swiss-only     # the last two rounds seated Swiss
    python -m bench.seating --priority tables

Prints one row per case: table reuse, repeated pairs (with the lower bound,
metrics.repeat_lower_bound, and the gap), the most meetings of one pair (with its lower
bound, metrics.max_meetings_lower_bound), wind spread, team clashes, seconds and the
method used, at the engine's default priority ("opponents") unless --priority says. Teams
are assigned round-robin (player i -> team i mod 8), the worst case for packing nothing.
The "live" case plans a 144-player event, takes 3 played rounds, withdraws 2 players, adds
2 late registrations and re-plans the remaining 5 rounds. The "swiss" rows plan all rounds
but the last two (5 s), then seat those two Swiss from shuffled standings (seeded); seconds
are the two Swiss rounds', "spread" their rank positions of spread beyond 1-4, 5-8, ... per
table. Pure engine; no Django.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if not __package__:  # run as `python bench/seating.py`: import the project, not bench/
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import random

from seating.engine import PRIORITIES, SeatingRequest, evaluate, plan_seating, swiss_round

CASES = [
    (16, 5),
    (24, 6),
    (24, 7),
    (24, 8),
    (28, 9),
    (28, 10),
    (32, 7),
    (32, 10),
    (36, 8),
    (40, 8),
    (40, 10),
    (64, 8),
    (100, 10),
    (144, 8),
    (200, 12),
    (400, 10),
]
SWISS_CASES = [(16, 4), (24, 6), (32, 7), (40, 8), (64, 8), (144, 8), (400, 10)]
N_TEAMS = 8

HEADER = (
    f"{'case':<14}{'teams':>6}{'reuse':>7}{'repeats':>9}{'bound':>7}{'gap':>5}{'max':>5}"
    f"{'mbound':>7}{'wind':>6}{'clash':>7}{'seconds':>9}  method"
)


def _time_limit(n: int, override: float | None) -> float:
    if override is not None:
        return override
    return 55.0 if n >= 400 else 28.0


def _row(label: str, teams: bool, plan, seconds: float) -> str:
    m = plan.metrics
    gap = m.repeat_pairs - m.repeat_lower_bound
    return (
        f"{label:<14}{('8' if teams else '-'):>6}{m.table_reuse:>7}{m.repeat_pairs:>9}"
        f"{m.repeat_lower_bound:>7}{gap:>5}{m.max_meetings:>5}{m.max_meetings_lower_bound:>7}"
        f"{m.wind_imbalance:>6}{m.team_clashes:>7}{seconds:>9.2f}  {plan.method}"
    )


def run_case(
    n: int, rounds: int, teams: bool, seed: int, time_limit: float | None, priority: str
) -> str:
    """Plan one case and format its row."""
    players = tuple(range(1, n + 1))
    team_map = {p: f"team{p % N_TEAMS}" for p in players} if teams else {}
    started = time.monotonic()
    plan = plan_seating(
        SeatingRequest(
            players=players,
            rounds=rounds,
            seed=seed,
            teams=team_map,
            time_limit=_time_limit(n, time_limit),
            priority=priority,
        )
    )
    return _row(f"{n}x{rounds}", teams, plan, time.monotonic() - started)


def run_live(seed: int, time_limit: float | None, priority: str) -> str:
    """144 players, 8 rounds: 3 played, 2 withdrawn, 2 added, re-plan the last 5."""
    players = tuple(range(1, 145))
    first = plan_seating(SeatingRequest(players=players, rounds=8, seed=seed, priority=priority))
    history = first.rounds[:3]
    active = tuple(p for p in players if p not in (17, 88)) + (1001, 1002)
    started = time.monotonic()
    plan = plan_seating(
        SeatingRequest(
            players=active,
            rounds=5,
            seed=seed,
            history=history,
            time_limit=time_limit if time_limit is not None else 9.0,
            priority=priority,
        )
    )
    return _row("live 144 3+5", False, plan, time.monotonic() - started)


def run_swiss(n: int, rounds: int, teams: bool, seed: int, priority: str) -> str:
    """Plan ``rounds - 2`` rounds, then seat the last two Swiss from shuffled standings."""
    players = tuple(range(1, n + 1))
    team_map = {p: f"team{p % N_TEAMS}" for p in players} if teams else {}
    request = SeatingRequest(
        players=players,
        rounds=rounds - 2,
        seed=seed,
        teams=team_map,
        time_limit=5,
        priority=priority,
    )
    planned = plan_seating(request)
    history = list(planned.rounds)
    rng = random.Random(seed)
    spread = 0
    started = time.monotonic()
    for _ in range(2):
        standings = list(players)
        rng.shuffle(standings)
        rank = {p: i for i, p in enumerate(standings)}
        rnd = swiss_round(standings, history=history, seed=seed, teams=team_map, priority=priority)
        spread += sum(max(rank[p] for p in t) - min(rank[p] for p in t) - 3 for t in rnd)
        history.append(rnd)
    seconds = time.monotonic() - started
    m = evaluate(history, team_map)
    return (
        f"{f'swiss {n}x{rounds}':<14}{('8' if teams else '-'):>6}{m.table_reuse:>7}"
        f"{m.repeat_pairs:>9}{'':>7}{'':>5}{m.max_meetings:>5}{m.max_meetings_lower_bound:>7}"
        f"{m.wind_imbalance:>6}{m.team_clashes:>7}{seconds:>9.2f}  spread {spread}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.seating", description=__doc__)
    parser.add_argument("--case", action="append", help="e.g. 40x8; repeatable")
    parser.add_argument("--teams", choices=("both", "only", "none"), default="both")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, help="override the per-case limit")
    parser.add_argument("--live-only", action="store_true")
    parser.add_argument("--no-live", action="store_true")
    parser.add_argument("--swiss-only", action="store_true")
    parser.add_argument("--no-swiss", action="store_true")
    parser.add_argument("--priority", choices=PRIORITIES, default=SeatingRequest.priority)
    args = parser.parse_args(argv)

    cases = CASES
    if args.case:
        wanted = set()
        for text in args.case:
            try:
                n, r = (int(x) for x in text.lower().split("x"))
            except ValueError:
                parser.error(f"--case {text!r}: expected PLAYERSxROUNDS, e.g. 40x8")
            wanted.add((n, r))
        cases = sorted(wanted)
    if args.live_only or args.swiss_only:
        cases = []
    team_modes = {"both": (False, True), "only": (True,), "none": (False,)}[args.teams]

    print(HEADER)
    for n, rounds in cases:
        for teams in team_modes:
            print(run_case(n, rounds, teams, args.seed, args.time_limit, args.priority), flush=True)
    if not args.no_live and not args.swiss_only and (args.live_only or not args.case):
        print(run_live(args.seed, args.time_limit, args.priority), flush=True)
    if not args.no_swiss and not args.live_only and (args.swiss_only or not args.case):
        for n, rounds in SWISS_CASES:
            for teams in team_modes:
                print(run_swiss(n, rounds, teams, args.seed, args.priority), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
