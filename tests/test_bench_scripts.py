"""The benchmark scripts run as files too (``python bench/seating.py``), as the issue names them."""

from __future__ import annotations

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
