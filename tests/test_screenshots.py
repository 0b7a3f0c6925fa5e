"""scripts/screenshots.py takes every image of the organisers' guide, at its fixed size."""

from __future__ import annotations

import importlib.util
import json
import re
import struct
import sys
from pathlib import Path

import pytest

from tests.chromium import require_chromium

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "organiser-guide.md"


def load_script():
    spec = importlib.util.spec_from_file_location(
        "screenshots", ROOT / "scripts" / "screenshots.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header; anything else is not a PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_frozen_clock_answers_every_field_the_clock_reads():
    """A field missing from the answer made the clock pictures say 'Connection lost'."""
    clock_js = (ROOT / "static" / "public" / "clock.js").read_text(encoding="utf-8")
    read = set(re.findall(r"\bstate\.(\w+)", clock_js))
    assert {"remaining_seconds", "tables"} <= read
    answer = json.loads(load_script().frozen_clock_state(74 * 60 + 59, True))
    assert read <= answer.keys()
    assert answer["tables"] == []


def test_every_image_of_the_guide_is_taken_by_the_script():
    used = set(re.findall(r"\]\(img/([\w-]+\.png)\)", GUIDE.read_text(encoding="utf-8")))
    taken = {shot.name for shot in load_script().SHOTS}
    assert len(used) >= 10
    assert used - taken == set()
    assert taken - used == set()  # and it takes nothing the guide does not show


@pytest.mark.browser
def test_the_script_writes_pngs_of_their_viewport_size(tmp_path):
    require_chromium()
    script = load_script()
    shots = {shot.name: shot for shot in script.SHOTS}
    names = ["clock-time-up.png", "find-my-seat.png"]
    paths = script.take_screenshots(names, tmp_path)
    assert sorted(path.name for path in paths) == sorted(names)
    for path in paths:
        shot = shots[path.name]
        scale = shot.options.get("device_scale_factor", 1)
        assert png_size(path) == (shot.viewport[0] * scale, shot.viewport[1] * scale)


def test_each_subsection_at_the_tables_shows_its_picture():
    guide = GUIDE.read_text(encoding="utf-8")
    section = guide.split("\n### At the tables\n", 1)[1].split("\n### ", 1)[0]
    subsections = section.split("\n#### ")[1:]
    assert len(subsections) == 4
    for subsection in subsections:
        title = subsection.splitlines()[0]
        assert re.search(r"!\[[^\]]{40,}\]\(img/[\w-]+\.png\)", subsection), title


@pytest.mark.browser
def test_the_table_page_is_taken_through_its_cards_key_and_the_call_reaches_the_queue(
    tmp_path,
):
    """The table card's key is signed by the served demo's secret, and the referee call is
    made on that page: a wrong key would show the closed-table page and no call."""
    require_chromium()
    script = load_script()
    paths = script.take_screenshots(["table-page.png", "referee-calls.png"], tmp_path)
    assert [path.name for path in paths] == ["table-page.png", "referee-calls.png"]
    assert png_size(paths[0]) == (390 * 2, 844 * 2)
    assert png_size(paths[1]) == (1280, 400)
