"""The CLI examples of docs/cli.md reproduce exactly (output and exit status)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "cli.md"
EXAMPLE = re.compile(
    r"^\$ echo '(?P<input>.*)' \| python -m scoring (?P<cmd>\w+)(?P<exit>; echo \"exit \$\?\")?\n"
    r"(?P<output>\{.*\})\n(?:exit (?P<status>\d))?",
    re.M,
)


def examples():
    return [m.groupdict() for m in EXAMPLE.finditer(DOC.read_text(encoding="utf-8"))]


def test_the_doc_has_examples():
    assert len(examples()) >= 6


@pytest.mark.parametrize("example", examples(), ids=lambda e: e["cmd"] + ":" + e["input"][:30])
def test_doc_example(example):
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", example["cmd"]],
        input=example["input"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert json.loads(proc.stdout) == json.loads(example["output"])
    assert proc.returncode == int(example["status"] or 0)
