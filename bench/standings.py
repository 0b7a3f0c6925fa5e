"""Benchmark: standings of 1,000 players × 20 rounds.

Run from the repository root: ``.venv/bin/python -m bench.standings`` (add
``DATABASE_URL=postgres://…`` to measure the database part on PostgreSQL).

1. The pure rules engine: 5,000 hanchan sheets scored with ``score_hanchan`` and the
   ranking computed with ``compute_standings``, in Fraction points and in the whole units
   the standings rank (no Django).
2. Through the scoring app's ``scoring.selectors.standings.tournament_standings`` with a
   real database (a temporary SQLite file by default): cold (ranked from the stored seat
   results) and warm (cached), with the number of queries of each; then what a change
   costs: one confirmed sheet's results stored and the standings ranked again (from the
   previous build's rows and the sheet's new ones), and a full rebuild (every sheet scored
   again into stored results, then ranked). Wall and CPU time: the machine may be shared.
"""

from __future__ import annotations

import importlib.util
import random
import secrets
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

if not __package__:  # run as `python bench/standings.py`: import the project, not bench/
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench._support import (
    database_kind,
    machine,
    random_points,
    setup_django,
    temporary_database,
)
from scoring.rules import (
    PlayerRecord,
    SeatSheet,
    compute_standings,
    resolve_ruleset,
    score_hanchan,
    to_units,
)

PLAYERS = 1000
ROUNDS = 20
REPEAT = 5


def seatings(rng: random.Random, players: int, rounds: int) -> list[list[list[int]]]:
    """For every round, the players shuffled into tables of four."""
    plan = []
    for _round in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        plan.append([order[index : index + 4] for index in range(0, players, 4)])
    return plan


def pure_engine(rng: random.Random) -> tuple[float, float, float, int]:
    """CPU seconds to score every sheet and to rank (in points, then in whole units), and the
    number of ranked rows.

    CPU time of this process, not wall time: the figures stay meaningful when other work
    shares the machine."""
    rules = resolve_ruleset("wrc2015", {})
    plan = seatings(rng, PLAYERS, ROUNDS)
    points = [[random_points(rng, rules.start_points) for _table in tables] for tables in plan]
    started = time.process_time()
    scores: dict[int, list[Fraction | None]] = {p: [None] * ROUNDS for p in range(PLAYERS)}
    places: dict[int, list[int | None]] = {p: [None] * ROUNDS for p in range(PLAYERS)}
    for number, tables in enumerate(plan):
        for table, seated in zip(tables, points[number], strict=True):
            sheet = [SeatSheet(str(p), pts) for p, pts in zip(table, seated, strict=True)]
            for player, seat in zip(table, score_hanchan(rules, sheet).seats, strict=True):
                scores[player][number] = seat.score
                places[player][number] = seat.place
    scored = time.process_time() - started
    records = [
        PlayerRecord(str(p), tuple(scores[p]), places=tuple(places[p])) for p in range(PLAYERS)
    ]
    # As the standings rank the stored results: whole SCORE_UNITs, integers.
    units = [
        PlayerRecord(
            str(p), tuple(None if s is None else to_units(s) for s in scores[p]), places=places[p]
        )
        for p in range(PLAYERS)
    ]
    ranked = []
    for given in (records, units):
        timings = []
        for _attempt in range(REPEAT):
            started = time.process_time()
            rows = compute_standings(given, rules.tie_breaks)
            timings.append(time.process_time() - started)
        ranked.append(statistics.median(timings))
    return scored, ranked[0], ranked[1], len(rows)


def print_pure() -> None:
    scored, ranked, ranked_units, rows = pure_engine(random.Random(2026))
    sheets = PLAYERS // 4 * ROUNDS
    print(f"Pure rules engine ({PLAYERS} players × {ROUNDS} rounds, {sheets} sheets), CPU time:")
    print(f"  score_hanchan ×{sheets}: {scored * 1000:.0f} ms")
    print(f"  compute_standings ({rows} rows, median of {REPEAT}): {ranked * 1000:.1f} ms")
    print(f"  the same in whole SCORE_UNITs (as the standings rank): {ranked_units * 1000:.1f} ms")
    print(f"  total: {(scored + ranked) * 1000:.0f} ms")


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


def print_database() -> None:
    if importlib.util.find_spec("scoring.selectors.standings") is None:
        print("Database part skipped: scoring.selectors.standings does not exist yet.")
        return
    with temporary_database("standings") as database_url:
        # As a production process runs: DEBUG off, so no query goes through Django's query log.
        setup_django(database_url, DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50))
        from django.core.cache import cache
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from bench._support import build_tournament
        from scoring.selectors.standings import tournament_standings

        started = time.perf_counter()
        tournament = build_tournament(players=PLAYERS, rounds=ROUNDS, seed=2026)
        built = time.perf_counter() - started
        print(
            "Through scoring.selectors.standings.tournament_standings on "
            f"{database_kind(database_url)} (data built in {built:.0f} s):"
        )
        cold, warm, cold_cpu, warm_cpu = [], [], [], []
        for _attempt in range(REPEAT):
            cache.clear()
            with CaptureQueriesContext(connection) as queries:
                started, cpu = time.perf_counter(), time.process_time()
                standings = tournament_standings(tournament)
                cold.append(time.perf_counter() - started)
                cold_cpu.append(time.process_time() - cpu)
            cold_queries = len(queries)
            with CaptureQueriesContext(connection) as queries:
                started, cpu = time.perf_counter(), time.process_time()
                tournament_standings(tournament)
                warm.append(time.perf_counter() - started)
                warm_cpu.append(time.process_time() - cpu)
            warm_queries = len(queries)
        print(
            f"  cold (computed, {len(standings.entries)} entries): median {ms(cold)} "
            f"(CPU {ms(cold_cpu)}), {cold_queries} queries"
        )
        print(f"  warm (cached): median {ms(warm)} (CPU {ms(warm_cpu)}), {warm_queries} queries")
        print_changes(tournament)


def print_changes(tournament) -> None:
    """One sheet changed (its results stored, as a confirmation does in its transaction,
    then the standings ranked again by the next reader), and everything scored again."""
    from scoring.models import ScoreSheet
    from scoring.selectors.standings import tournament_standings
    from scoring.services.seat_results import seat_results_rebuild, seat_results_store

    sheet = ScoreSheet.objects.filter(round__tournament=tournament).select_related("round")[0]
    stored, ranked, rebuilt = [], [], []
    stored_cpu, ranked_cpu, rebuilt_cpu = [], [], []
    # A build after one sheet is short: more of them, for a median that the shared machine's
    # changes of speed from second to second move less.
    for _attempt in range(REPEAT * 3):
        started, cpu = time.perf_counter(), time.process_time()
        seat_results_store(sheet=sheet)
        stored.append(time.perf_counter() - started)
        stored_cpu.append(time.process_time() - cpu)
        started, cpu = time.perf_counter(), time.process_time()
        tournament_standings(tournament)
        ranked.append(time.perf_counter() - started)
        ranked_cpu.append(time.process_time() - cpu)
    for _attempt in range(REPEAT):
        started, cpu = time.perf_counter(), time.process_time()
        seat_results_rebuild(tournament=tournament)
        tournament_standings(tournament)
        rebuilt.append(time.perf_counter() - started)
        rebuilt_cpu.append(time.process_time() - cpu)
    both = [s + r for s, r in zip(stored, ranked, strict=True)]
    both_cpu = [s + r for s, r in zip(stored_cpu, ranked_cpu, strict=True)]
    print(
        f"  one confirmed sheet: results stored {ms(stored)} + standings ranked again "
        f"{ms(ranked)} = {ms(both)} (median of {len(both)}; CPU {ms(stored_cpu)} + "
        f"{ms(ranked_cpu)} = {ms(both_cpu)})"
    )
    print(
        f"  full rebuild (every sheet scored again, then ranked): median {ms(rebuilt)} "
        f"(CPU {ms(rebuilt_cpu)})"
    )


def main() -> None:
    print(f"Machine: {machine()}")
    print_pure()
    print_database()


if __name__ == "__main__":
    main()
