#!/usr/bin/env python3
"""Take the organiser guide's screenshots (docs/img/) again from the demo tournament, so they
never show pages as they were.

    .venv/bin/python scripts/screenshots.py                      # every image, into docs/img/
    .venv/bin/python scripts/screenshots.py clock.png --out /tmp  # some images, elsewhere

A fresh SQLite database in a temporary directory gets the demo (as the quick start loads it)
and the development organiser login; the development server serves it on a free port of
127.0.0.1, and Debian's chromium (/usr/bin/chromium, never downloaded) takes each picture
through Playwright at the fixed viewport of its row in SHOTS. What would change from one run
to the next is frozen where the page allows it: the round clock is given a fixed state and a
stopped clock. The tournament's dates are the day of the run (the demo starts today), and so
are the times of the referee call and of the extra time the set-up steps make.

The players' table page is opened as its table card's QR code opens it: the key in its
address is signed with the server's secret, so the demo's own settings make it
(scoring.table_keys.table_path) once the demo is loaded.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "img"
CHROMIUM = Path("/usr/bin/chromium")
SLUG = "demo-riichi-open"
# The development organiser that ensure_organiser creates and the README prints.
ORGANISER = ("organiser", "riichi-organiser")
# The round the pictures show: the demo's first round without results, seated.
ROUND = 4
# The table whose card the pictures use.
TABLE = 2
CALLS = f"/manage/{SLUG}/scoring/calls/"
PHONE = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}

# A player list as organisers receive them: French headings, a column the import does not
# read, a blank line and the same player twice (the preview shows each problem on its row).
PLAYER_LIST = "\r\n".join(
    [
        "PRÉNOM;NOM;Pays;Club;N° EMA;ÉQUIPE;Remarques",
        "Inès;Lefèvre ;France;Lyon Riichi Club;04010023;Lyon Riichi;payé",
        "Anders;Ångström;Suède;;;Les Vikings;",
        "Sakura;Ono;Japon;;;Les Vikings;végétarien",
        "",
        " Léo;Garnier;FR;Lyon Riichi Club;4010031;lyon riichi ;",
        "Inès;Lefèvre;France;Lyon Riichi Club;04010023;Lyon Riichi;payé",
    ]
)


@dataclass(frozen=True)
class Demo:
    """The served demo: its address and the path its table card's QR code opens."""

    base: str
    table_page: str


def import_a_player_list(page, demo: Demo) -> None:
    """Upload the list and check it: the preview, before anything is written."""
    page.get_by_label("Player list").set_input_files(
        {"name": "inscrits.csv", "mimeType": "text/csv", "buffer": PLAYER_LIST.encode()}
    )
    page.get_by_role("button", name="Check the file").click()


def pause_the_clock_with_five_more_minutes(page, demo: Demo) -> None:
    """What a head referee does: start the round, give it five minutes more, pause it."""
    page.get_by_role("button", name="Start / resume").click()
    page.get_by_role("button", name="+5 minutes").click()
    page.get_by_role("button", name="Pause").click()


def find_zoe(page, demo: Demo) -> None:
    page.get_by_label("Your name (or part of it)").fill("zoe")
    page.get_by_role("button", name="Find").click()


def open_zoes_page(page, demo: Demo) -> None:
    page.get_by_role("link", name="Zoé Martin").first.click()


def call_a_referee_from_the_table(page, demo: Demo) -> None:
    """What a player does on the table card's page, then the officials' queue shows it."""
    page.goto(demo.base + demo.table_page)
    page.get_by_label("Reason (optional)").fill("Dispute over a chombo")
    page.get_by_role("button", name="Call a referee").click()
    page.get_by_text("A referee is called to this table").wait_for()
    page.goto(demo.base + CALLS)


def give_a_table_ten_more_minutes(page, demo: Demo) -> None:
    """What a head referee does on the clock controls, then the hall's clock shows it."""
    form = page.locator("#table-time-form")
    form.get_by_label("Table").select_option(str(TABLE))
    form.get_by_label("Extra minutes").fill("10")
    form.get_by_label("One more hand after the time is up").check()
    form.get_by_label("Reason").fill("Substitute arrived late")
    form.get_by_role("button", name="Grant the extra time").click()
    page.get_by_text(f"Table {TABLE} was given extra time.").wait_for()
    page.goto(f"{demo.base}/t/{SLUG}/rounds/{ROUND}/clock/")


@dataclass(frozen=True)
class Shot:
    """One image of the guide: where to go, at which size, what to do and wait for."""

    name: str
    path: str  # TABLE_PAGE: the page the table card's QR code opens
    viewport: tuple[int, int]
    wait_for: str  # a CSS selector (with Playwright's :has-text()) that must be visible
    login: bool = False
    steps: Callable | None = None  # called with the page open at path, and the Demo
    # The round clock's state served to the page, (seconds left, running), its countdown
    # stopped: the picture shows that time, whenever it is taken.
    clock: tuple[int, bool] | None = None
    options: dict = field(default_factory=dict)


TABLE_PAGE = "table card"

SHOTS = (
    Shot(
        "import-preview.png",
        "/admin/tournament/tournament/1/import/",
        (1280, 900),
        "#import-preview tr.import-problem",
        login=True,
        steps=import_a_player_list,
    ),
    Shot(
        "seating-overview.png",
        f"/manage/{SLUG}/seating/",
        (1280, 900),
        "main h1",
        login=True,
    ),
    Shot(
        "projector-tables.png",
        f"/t/{SLUG}/rounds/{ROUND}/projector/tables/",
        (1920, 1080),
        ".seating-table",
    ),
    Shot(
        "projector-players.png",
        f"/t/{SLUG}/rounds/{ROUND}/projector/players/",
        (1920, 1080),
        "main li",
    ),
    Shot(
        "find-my-seat.png",
        f"/t/{SLUG}/find-my-seat/",
        (390, 844),
        ".seat-card",
        steps=find_zoe,
        options=PHONE,
    ),
    Shot(
        "clock-controls.png",
        f"/manage/{SLUG}/rounds/{ROUND}/clock/",
        (1280, 900),
        ".clock-time:has-text('95:00')",
        login=True,
        steps=pause_the_clock_with_five_more_minutes,
        clock=(95 * 60, False),
    ),
    Shot(
        "clock.png",
        f"/t/{SLUG}/rounds/{ROUND}/clock/",
        (1920, 1080),
        ".clock-time:has-text('74:59')",
        clock=(74 * 60 + 59, True),
    ),
    Shot(
        "clock-time-up.png",
        f"/t/{SLUG}/rounds/{ROUND}/clock/",
        (1920, 1080),
        "#round-clock.time-up",
        clock=(0, True),
    ),
    Shot(
        "table-page.png",
        TABLE_PAGE,
        (390, 844),
        "button.call-referee",
        options=PHONE,
    ),
    Shot(
        "referee-calls.png",
        CALLS,
        (1280, 400),
        ".referee-calls li:has-text('Dispute over a chombo')",
        login=True,
        steps=call_a_referee_from_the_table,
    ),
    Shot(
        "clock-extra-time.png",
        f"/manage/{SLUG}/rounds/{ROUND}/clock/",
        (1920, 1080),
        ".clock-tables li",
        login=True,
        steps=give_a_table_ten_more_minutes,
    ),
    Shot(
        "winds.png",
        f"/manage/{SLUG}/seating/rounds/{ROUND}/winds/",
        (1280, 900),
        "main h1",
        login=True,
    ),
    Shot("rankings.png", f"/t/{SLUG}/rankings/", (1280, 700), "table.ranking tbody tr"),
    Shot(
        "player.png",
        f"/t/{SLUG}/rankings/",
        (1100, 700),
        ".rank-chart svg circle",
        steps=open_zoes_page,
    ),
    Shot("exports.png", f"/manage/{SLUG}/exports/", (1280, 900), "main h1", login=True),
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(folder: Path) -> dict[str, str]:
    """The development settings on a database of their own, whatever the caller's are."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'screenshots.sqlite3'}",
        DEBUG="1",
        LANGUAGE_CODE="en",
    )
    # The development organiser's defaults (ORGANISER above), the cache in the database.
    for name in ("CACHE_URL", "ORGANISER_USERNAME", "ORGANISER_PASSWORD"):
        env.pop(name, None)
    return env


# Printed by the demo's own settings, whose secret signs the key of a table card.
TABLE_PAGE_OF_THE_DEMO = (
    "from scoring.table_keys import table_path; from tournament.models import Round; "
    f"print(table_path(Round.objects.get(tournament__slug='{SLUG}', number={ROUND}), {TABLE}))"
)


def serve_the_demo(folder: Path) -> tuple[subprocess.Popen, Demo]:
    """Load the demo into a new database and start the development server on it."""
    env = environment(folder)

    def manage(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.PIPE,
            text=True,
        ).stdout

    manage("migrate", "--no-input", "-v", "0")
    manage("createcachetable")
    manage("load_demo")
    manage("ensure_organiser")
    table_page = manage("shell", "-v", "0", "-c", TABLE_PAGE_OF_THE_DEMO).strip()
    address = f"127.0.0.1:{free_port()}"
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", address, "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://{address}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/", timeout=2).close()
            return server, Demo(base, table_page)
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise SystemExit("The development server did not start.") from None
            time.sleep(0.3)


def launch(playwright):
    """Debian's chromium, headless, as the browser tests launch it (root needs --no-sandbox)."""
    args = ["--disable-gpu", "--disable-background-networking"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.insert(0, "--no-sandbox")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=args)


def log_in(page, base: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.get_by_label("Username").fill(ORGANISER[0])
    page.get_by_label("Password").fill(ORGANISER[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}{next_path}")


def frozen_clock_state(seconds: int, running: bool) -> str:
    """The clock's poll answer, every field it reads: one missing stops its script midway,
    and the page then says the connection is lost."""
    return json.dumps(
        {
            "remaining_seconds": seconds,
            "running": running,
            "ends_at": None,
            "over": False,
            "tables": [],
        }
    )


def freeze_the_clock(page, base: str, seconds: int, running: bool) -> None:
    """The clock's polls get a fixed state, and its countdown between polls stands still."""
    page.add_init_script("performance.now = () => 1000;")
    state = frozen_clock_state(seconds, running)
    page.route(
        f"{base}/t/{SLUG}/rounds/{ROUND}/clock/state/",
        lambda route: route.fulfill(content_type="application/json", body=state),
    )


def take(browser, demo: Demo, shot: Shot, folder: Path) -> Path:
    width, height = shot.viewport
    base = demo.base
    path = demo.table_page if shot.path == TABLE_PAGE else shot.path
    context = browser.new_context(viewport={"width": width, "height": height}, **shot.options)
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        if shot.clock is not None:
            freeze_the_clock(page, base, *shot.clock)
        if shot.login:
            log_in(page, base, path)
        else:
            page.goto(base + path)
        if shot.steps is not None:
            shot.steps(page, demo)
        page.locator(shot.wait_for).first.wait_for(state="visible")
        page.evaluate("window.scrollTo(0, 0)")
        image = folder / shot.name
        page.screenshot(path=str(image), animations="disabled", caret="hide")
        return image
    finally:
        context.close()


def take_screenshots(names: list[str], folder: Path) -> list[Path]:
    """Take the named images (all of SHOTS when none is named) into ``folder``."""
    unknown = sorted(set(names) - {shot.name for shot in SHOTS})
    if unknown:
        raise SystemExit(f"No such screenshot: {', '.join(unknown)}")
    if not CHROMIUM.exists():
        raise SystemExit(f"The screenshots need Debian's chromium at {CHROMIUM}.")
    from playwright.sync_api import sync_playwright

    chosen = [shot for shot in SHOTS if not names or shot.name in names]
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        server, demo = serve_the_demo(Path(scratch))
        try:
            with sync_playwright() as playwright:
                browser = launch(playwright)
                taken = [take(browser, demo, shot, folder) for shot in chosen]
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    return taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="images to take (default: all)")
    parser.add_argument("--out", type=Path, default=IMAGES, help="folder (default: docs/img)")
    arguments = parser.parse_args()
    for path in take_screenshots(arguments.names, arguments.out):
        print(path)


if __name__ == "__main__":
    main()
