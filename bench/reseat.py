"""Benchmark of live re-seating: repeats and table reuse of the rounds still to play.

    python -m bench.reseat
    python -m bench.reseat --case 40x8:4:4 --seeds 1 --time-limit 10

A case NxR:P:W[:A] plans N players × R rounds (the engine's own plan, 2 s), takes the first P
rounds as played, withdraws W players (drawn by the seed), registers A newcomers (ids from
1001) and re-plans the last R − P rounds with that history, at the default priority
("tables") and, with ``--priority opponents``, the other way round. The field left must be
a multiple of four. Prints per case and seed the repeated meetings over all R rounds
against their lower bound (metrics.repeat_lower_bound, history included), the table reuse
against its bound, the seconds the re-plan took and the method. Pure engine; no Django.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

if not __package__:  # run as `python bench/reseat.py`: import the project, not bench/
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from seating.engine import SeatingRequest, plan_seating

#: (players, rounds, played, withdrawn, added)
CASES = [
    (24, 6, 3, 4, 0),
    (32, 7, 3, 4, 0),
    (40, 8, 4, 4, 0),
    (40, 8, 4, 0, 4),
    (40, 8, 4, 4, 4),
    (64, 8, 4, 8, 0),
    (144, 8, 3, 8, 0),
]

HEADER = (
    f"{'case':<16}{'seed':>5}{'repeats':>9}{'bound':>7}{'reuse':>7}{'bound':>7}"
    f"{'seconds':>9}  method"
)


def parse_case(text: str, size: int) -> tuple[int, ...]:
    """ "40x8:4:4" -> (40, 8, 4, 4, 0, …): ``size`` numbers, the missing last ones 0."""
    parts = [int(x) for x in text.lower().replace("x", ":").split(":")]
    if len(parts) > size:
        raise ValueError(text)
    return tuple(parts + [0] * (size - len(parts)))


def reseat_request(
    n: int,
    rounds: int,
    played: int,
    withdrawn: int,
    added: int,
    seed: int,
    time_limit: float,
    priority: str = "tables",
) -> SeatingRequest:
    """The re-seat request of a case: the history is the first ``played`` rounds of the
    engine's own plan of the whole event."""
    players = tuple(range(1, n + 1))
    first = plan_seating(SeatingRequest(players=players, rounds=rounds, seed=seed, time_limit=2))
    gone = set(random.Random(seed).sample(players, withdrawn))
    active = tuple(p for p in players if p not in gone) + tuple(range(1001, 1001 + added))
    return SeatingRequest(
        players=active,
        rounds=rounds - played,
        seed=seed,
        history=first.rounds[:played],
        time_limit=time_limit,
        priority=priority,
    )


def run_case(case: tuple[int, ...], seed: int, time_limit: float, priority: str) -> str:
    """Re-plan one case; format its row."""
    request = reseat_request(*case, seed=seed, time_limit=time_limit, priority=priority)
    started = time.monotonic()
    plan = plan_seating(request)
    seconds = time.monotonic() - started
    m = plan.metrics
    n, rounds, played, withdrawn, added = case
    label = f"{n}x{rounds}:{played}:{withdrawn}:{added}"
    return (
        f"{label:<16}{seed:>5}{m.repeat_pairs:>9}{m.repeat_lower_bound:>7}"
        f"{m.table_reuse:>7}{m.table_reuse_lower_bound:>7}{seconds:>9.2f}  {plan.method}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.reseat", description=__doc__)
    parser.add_argument("--case", action="append", help="e.g. 40x8:4:4:0; repeatable")
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0..SEEDS-1 per case")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--priority", choices=("tables", "opponents"), default="tables")
    args = parser.parse_args(argv)
    cases: list[tuple[int, ...]] = list(CASES)
    if args.case:
        try:
            cases = [parse_case(text, 5) for text in args.case]
        except ValueError:
            parser.error("--case: expected PLAYERSxROUNDS:PLAYED:WITHDRAWN[:ADDED]")
    print(HEADER)
    for case in cases:
        for seed in range(args.seeds):
            print(run_case(case, seed, args.time_limit, args.priority), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
