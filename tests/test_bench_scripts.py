"""The benchmark scripts run as files too (``python bench/seating.py``), as the issue names them,
and the web benchmarks end on a machine-readable ``SUMMARY {json}`` line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_seating_benchmark_runs_as_a_file_from_anywhere(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "seating.py"), "--case", "20x5", "--teams", "none"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("20x5"))
    # 20 players × 5 rounds: the GF(5) construction, no repeat and no table reused
    # (docs/seating-theory.md).
    assert row.split()[2:4] == ["0", "0"]


def summary(*arguments: str) -> dict:
    """A tiny run of a benchmark (a temporary SQLite file, gunicorn on loopback): its last
    line, parsed."""
    done = subprocess.run(
        [sys.executable, "-m", *arguments],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": ""},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("SUMMARY {"), last
    return json.loads(last.removeprefix("SUMMARY "))


def test_the_load_benchmark_ends_on_its_summary_beside_the_floor():
    figures = summary(
        "bench.load", "--players", "8", "--connections", "2", "--seconds", "1", "--workers", "1"
    )
    assert figures.keys() >= {
        "players",
        "connections",
        "rows_p95_ms",
        "page_p95_ms",
        "player_p95_ms",
        "floor_p95_ms",
        "rows_bytes",
        "errors",
    }
    assert (figures["players"], figures["connections"], figures["errors"]) == (8, 2, 0)
    assert figures["floor_p95_ms"] > 0
    assert figures["rows_p95_ms"] > 0
    assert 0 < figures["rows_bytes"] < 2048  # eight players' rows, gzipped


def test_the_event_benchmark_ends_on_its_summary_in_both_modes():
    # The steady mode also with fewer officials than tables (each saving every Nth table).
    steady = ("--steady", "--seconds", "3")
    for mode in ((), steady, (*steady, "--scorers", "1")):
        figures = summary(
            "bench.event",
            *("--players", "8", "--rounds", "2", "--pollers", "2", "--poll-interval", "1"),
            *("--workers", "2", *mode),
        )
        assert figures.keys() >= {
            "players",
            "pollers",
            "save_p95_ms",
            "poll_p95_ms",
            "floor_p95_ms",
            "errors",
            "sheets_expected",
            "sheets_saved",
            "standings_equal",
        }, mode
        assert (figures["players"], figures["pollers"], figures["errors"]) == (8, 2, 0), mode
        assert figures["sheets_saved"] == figures["sheets_expected"] > 0, mode
        assert figures["standings_equal"] is True, mode
