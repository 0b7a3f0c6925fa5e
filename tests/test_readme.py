"""The README leads: the two commands of the quick start first, short enough to read, and a
way into every document in docs/ (the reference material lives there, not in the README)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_first_section_is_the_quick_start_with_its_two_commands():
    assert re.findall(r"^## .*", README, re.M)[0] == "## Quick start"
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in first_block.splitlines()]
    assert commands == ["python3 scripts/dev.py serve", "python3 scripts/dev.py test"]


def test_the_readme_stays_short():
    assert len(README.encode("utf-8")) < 10_000


def test_the_readme_links_every_document_in_docs():
    linked = set(re.findall(r"\]\((docs/[\w-]+\.md)[)#]", README))
    documents = {f"docs/{path.name}" for path in (ROOT / "docs").glob("*.md")}
    assert documents - linked == set()
