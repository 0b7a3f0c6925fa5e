"""Benchmark of the winds after played rounds (live re-seating with withdrawals).

    python -m bench.winds
    python -m bench.winds --case 144x8:3:8 --seeds 1 --time-limit 5

A case NxR:P:W plans N players × R rounds, takes the first P rounds as played, withdraws W
players and registers W newcomers (so the count stays a multiple of four) and re-plans the
last R − P rounds with that history. Prints per case and seed the players whose wind spread
over all R rounds (history + new) is 2 or more, the fewest any seat orders of those tables
can reach by counting (winds.forced_uneven), the largest spread and the seconds the
re-plan took (within its time limit, 3 s unless told). Pure engine; no Django.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if not __package__:  # run as `python bench/winds.py`: import the project, not bench/
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench.reseat import parse_case, reseat_request
from seating.engine import plan_seating
from seating.engine.winds import forced_uneven, wind_counts

#: (players, rounds, played, withdrawn)
CASES = [
    (16, 6, 2, 2),
    (24, 7, 3, 2),
    (32, 10, 5, 4),
    (40, 8, 3, 4),
    (64, 8, 3, 4),
    (100, 10, 4, 8),
    (144, 8, 3, 8),
    (144, 8, 5, 8),
    (400, 10, 4, 16),
]

HEADER = f"{'case':<16}{'seed':>5}{'uneven':>8}{'bound':>7}{'spread':>8}{'seconds':>9}"


def run_case(
    n: int, rounds: int, played: int, withdrawn: int, seed: int, time_limit: float = 3.0
) -> str:
    """Plan, withdraw and replace, re-plan; format the row."""
    request = reseat_request(
        n, rounds, played, withdrawn, withdrawn, seed=seed, time_limit=time_limit
    )
    history, active = request.history, request.players
    started = time.monotonic()
    plan = plan_seating(request)
    seconds = time.monotonic() - started
    counts = wind_counts(history + plan.rounds)
    spreads = [max(c) - min(c) for p, c in counts.items() if p in active]
    new_games = {p: rounds - played for p in active}
    bound = forced_uneven(wind_counts(history), new_games)
    label = f"{n}x{rounds}:{played}:{withdrawn}"
    return (
        f"{label:<16}{seed:>5}{sum(s >= 2 for s in spreads):>8}{bound:>7}"
        f"{max(spreads):>8}{seconds:>9.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.winds", description=__doc__)
    parser.add_argument("--case", action="append", help="e.g. 144x8:3:8; repeatable")
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0..SEEDS-1 per case")
    parser.add_argument("--time-limit", type=float, default=3.0, help="of each re-plan")
    args = parser.parse_args(argv)
    cases = CASES
    if args.case:
        try:
            cases = [parse_case(text, 4) for text in args.case]
        except ValueError:
            parser.error("--case: expected PLAYERSxROUNDS:PLAYED:WITHDRAWN, e.g. 144x8:3:8")
    print(HEADER)
    for n, rounds, played, withdrawn in cases:
        for seed in range(args.seeds):
            print(run_case(n, rounds, played, withdrawn, seed, args.time_limit), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
