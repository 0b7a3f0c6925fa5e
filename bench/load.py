"""Benchmark: the public rankings page of a 500-player tournament under 50 clients, and
several application servers behaving as one.

Run from the repository root::

    .venv/bin/python -m bench.load                       # SQLite file, database cache
    DATABASE_URL=postgres://postgres@127.0.0.1:5433/riichi_h6 .venv/bin/python -m bench.load
    .venv/bin/python -m bench.load --cache redis          # Redis (Debian redis-server) cache

It builds the tournament in a temporary database (a SQLite file, or a fresh database on the
PostgreSQL server of DATABASE_URL), counts the page's queries for 100 and 500 players, starts
gunicorn (DEBUG off, a generated SECRET_KEY, loopback only), loads the rankings page, its
10-second poll, a player's page and the floor (/healthz: the same middleware, no query) with
wrk (Debian package ``wrk``) or, without it, a thread-pool client, each for a bounded time,
as phones ask (gzip accepted), and prints median, p95, requests per second and errors. Then
it starts two gunicorn instances on one database and one cache, changes the round clock and
confirms a sheet through the first, and checks that the second shows the same clock and the
same, refreshed, standings. Everything it started is stopped before it exits. Its last line
is ``SUMMARY {json}``: the p95 of each page and of the floor, the poll's bytes on the wire.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import time
import uuid
from pathlib import Path

if not __package__:  # run as `python bench/load.py`: import the project, not bench/
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench._support import (
    PHONE,
    Session,
    database_kind,
    get,
    load,
    machine,
    milliseconds,
    redis_server,
    running_gunicorn,
    server_environment,
    setup_django,
    summary_line,
    temporary_database,
)

ROUNDS = 8
ORGANISER = ("bench-organiser", "bench-organiser-password-1")


def query_counts(slugs: dict[int, str]) -> dict[int, tuple[int, int]]:
    """Queries of the rankings page per number of players: (cache empty, cache warm)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="localhost")
    counts = {}
    for players, slug in slugs.items():
        cache.clear()
        with CaptureQueriesContext(connection) as cold:
            assert client.get(f"/t/{slug}/rankings/").status_code == 200
        with CaptureQueriesContext(connection) as warm:
            assert client.get(f"/t/{slug}/rankings/").status_code == 200
        counts[players] = (len(cold), len(warm))
    return counts


def prepare(players: int, seed: int = 2026) -> dict:
    """The tournament with every round but the last confirmed, a 100-player one for the
    query count (when the first is larger), and an organiser login."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    from bench._support import build_tournament
    from tournament.models import Round, TournamentStaff

    started = time.perf_counter()
    tournament = build_tournament(
        players=players, rounds=ROUNDS, seed=seed, confirmed_rounds=ROUNDS - 1
    )
    slugs = {players: tournament.slug}
    if players > 100:
        small = build_tournament(players=100, rounds=ROUNDS, seed=seed, slug="bench-small")
        slugs = {100: small.slug, **slugs}
    Round.objects.filter(tournament=tournament, number=ROUNDS).update(status=Round.Status.PLAYING)
    user = get_user_model().objects.create_user(ORGANISER[0], password=ORGANISER[1])
    TournamentStaff.objects.create(
        tournament=tournament, user=user, role=TournamentStaff.Role.ORGANISER
    )
    built = time.perf_counter() - started
    counts = query_counts(slugs)
    table = tournament_table(tournament)
    connections.close_all()
    return {"slug": tournament.slug, "built": built, "counts": counts, "table": table}


def tournament_table(tournament) -> dict:
    """The last round's table 1: its players in wind order, for the sheet the cluster check
    confirms."""
    from tournament.models import Seat

    seats = Seat.objects.filter(round__tournament=tournament, round__number=ROUNDS, table_number=1)
    order = {"E": 0, "S": 1, "W": 2, "N": 3}
    return {
        "number": ROUNDS,
        "table": 1,
        "players": [s.registration_id for s in sorted(seats, key=lambda s: order[s.wind])],
    }


def run_load(
    environment: dict, workers: int, slug: str, player: int, connections: int, seconds: int
) -> dict:
    """Each page on a fresh server, so that requests still queued from one run (gunicorn
    finishes them after the client has gone) do not slow the next. Returns the SUMMARY's
    figures of the load."""
    pages = [
        ("page", f"/t/{slug}/rankings/", "the rankings page"),
        ("rows", f"/t/{slug}/rankings/data/", "its rows, as the page polls them every 10 s"),
        ("player", f"/t/{slug}/players/{player}/", "a player's page"),
        ("floor", "/healthz", "the floor: same middleware, no query, no template"),
    ]
    figures: dict = {"errors": 0}
    for key, path, label in pages:
        with running_gunicorn(environment, workers=workers) as server:
            status, body, _headers = get(server.port, path, headers=PHONE)
            assert status == 200, status
            started = time.perf_counter()
            get(server.port, path, headers=PHONE)
            alone = (time.perf_counter() - started) * 1000
            result = load(server.port, path, connections, seconds)
        size = f"{len(body) / 1024:.1f} KiB on the wire"
        print(f"  GET {path} — {label} ({size}, {alone:.0f} ms alone):")
        print(f"    {connections} connections, {seconds} s: {result.summary()}", flush=True)
        figures[f"{key}_p95_ms"] = milliseconds(result.p95)
        figures["errors"] += result.errors
        if key == "rows":
            figures["rows_bytes"] = len(body)  # gzipped, as a phone receives it
    return figures


def clock_state(port: int, slug: str) -> dict:
    status, body, _headers = get(port, f"/t/{slug}/rounds/{ROUNDS}/clock/state/")
    assert status == 200, status
    return json.loads(body)


def same_clock(first: dict, second: dict) -> bool:
    """Two servers' clock states agree: same round, running flag and length, and the same
    time left within 2 seconds (the two reads are not simultaneous)."""
    keys = ("round", "running", "total_seconds")
    return all(first[key] == second[key] for key in keys) and (
        abs(first["remaining_seconds"] - second["remaining_seconds"]) <= 2
    )


def rows_etag(port: int, slug: str) -> str:
    status, _body, headers = get(port, f"/t/{slug}/rankings/rows/")
    assert status == 200, status
    return headers["ETag"]


def player_row(port: int, slug: str, registration_id: int) -> str:
    """The text of one player's row of the rankings table, as a server shows it."""
    _status, body, _headers = get(port, f"/t/{slug}/rankings/rows/")
    for row in re.findall(r"<tr[^>]*>.*?</tr>", body.decode(), re.S):
        if f"/players/{registration_id}/" in row:
            return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
    return ""


def confirm_sheet(session: Session, slug: str, table: dict) -> int:
    """Enter the table's sheet through the staff page, check then save (single-entry policy:
    confirmed at once). Returns the status of the save."""
    path = f"/manage/{slug}/scoring/round/{table['number']}/table/{table['table']}/"
    fields = {
        "token": str(uuid.uuid4()),
        "revision": "0",
        "riichi_sticks_left": "0",
        "note": "",
    }
    # A landslide for East so the change shows at the top of the standings.
    for wind, registration, points in zip(
        "ESWN", table["players"], (95000, 10000, 8000, 7000), strict=True
    ):
        fields |= {
            f"{wind}_player": registration,
            f"{wind}_points": points,
            f"{wind}_chombo": 0,
            f"{wind}_late": 0,
            f"{wind}_substitute": "",
        }
    status, body, _headers = session.post(path, fields | {"action": "check"})
    checked = re.search(r'name="checked" value="([0-9a-f]+)"', body)
    if status != 200 or checked is None:
        raise RuntimeError(f"checking the sheet failed ({status})")
    status, _body, _headers = session.post(
        path, fields | {"action": "save", "checked": checked.group(1)}
    )
    return status


def run_cluster(database_url: str, cache_url: str, slug: str, table: dict, workers: int) -> bool:
    """Two gunicorn instances on one database and one cache must behave as one."""
    environment = server_environment(database_url, CACHE_URL=cache_url)
    checks: list[tuple[str, bool]] = []
    with (
        running_gunicorn(environment, workers=workers) as first,
        running_gunicorn(environment, workers=workers) as second,
    ):
        a, b = first.port, second.port
        print(f"  servers on ports {a} and {b}, cache {cache_url or 'database'}")
        state_a, state_b = clock_state(a, slug), clock_state(b, slug)
        checks.append(
            ("clock: same state from both before any change", same_clock(state_a, state_b))
        )
        session = Session(a)
        session.login(*ORGANISER)
        status, _body, _headers = session.post(f"/manage/{slug}/rounds/{ROUNDS}/clock/start/", {})
        checks.append(("clock: started through server A", status == 302))
        state_a, state_b = clock_state(a, slug), clock_state(b, slug)
        checks.append(
            (
                "clock: server B shows it running, same time left ±2 s",
                state_b["running"] and same_clock(state_a, state_b),
            )
        )
        etag_a, etag_b = rows_etag(a, slug), rows_etag(b, slug)
        checks.append(("standings: same (cached) table from both", etag_a == etag_b))
        east = table["players"][0]
        before = player_row(b, slug, east)
        checks.append(
            (
                "standings: sheet confirmed through server A",
                confirm_sheet(session, slug, table) == 302,
            )
        )
        new_a, new_b = rows_etag(a, slug), rows_etag(b, slug)
        checks.append(("standings: server B's table changed (cache invalidated)", new_b != etag_b))
        checks.append(("standings: both servers show the same new table", new_a == new_b))
        after = player_row(b, slug, east)
        # 95,000 points, 1st: (95,000 - 30,000) / 1,000 + 15 uma = +80.0 (WRC 2015 §5.9.2).
        checks.append(("standings: server B shows East's +80.0 of the new sheet", "+80.0" in after))
        print(f"    East player on server B before: {before}")
        print(f"    East player on server B after:  {after}")
    for label, passed in checks:
        print(f"    [{'ok' if passed else 'FAILED'}] {label}")
    return all(passed for _label, passed in checks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500, help="a multiple of 4")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--cache", choices=["database", "redis"], default="database")
    parser.add_argument("--skip-load", action="store_true")
    parser.add_argument("--skip-cluster", action="store_true")
    options = parser.parse_args()

    print(f"Machine: {machine()}")
    figures: dict = {
        "players": options.players,
        "connections": options.connections,
        "load_average": round(os.getloadavg()[0], 1),
    }
    with contextlib.ExitStack() as stack:
        database_url = stack.enter_context(temporary_database("load"))
        cache_url = ""
        if options.cache == "redis":
            cache_url = stack.enter_context(redis_server()) or ""
            if not cache_url:
                print("redis-server is not installed: using the database cache")
        setup_django(database_url, CACHE_URL=cache_url)
        data = prepare(options.players)
        kind = database_kind(database_url)
        print(
            f"Database: {kind}; cache: {'Redis' if cache_url else 'database'}; "
            f"{options.players} players × {ROUNDS} rounds built in {data['built']:.0f} s"
        )
        for players, (cold, warm) in data["counts"].items():
            print(
                f"  rankings page, {players} players: {cold} queries (cache empty), "
                f"{warm} queries (cached)"
            )
        ok = True
        if not options.skip_load:
            environment = server_environment(database_url, CACHE_URL=cache_url)
            print(f"Load: gunicorn, {options.workers} workers, DEBUG off")
            figures |= run_load(
                environment,
                options.workers,
                data["slug"],
                data["table"]["players"][0],
                options.connections,
                options.seconds,
            )
        if not options.skip_cluster:
            print("Several servers, one database, one cache:")
            ok = run_cluster(database_url, cache_url, data["slug"], data["table"], options.workers)
    print(summary_line(figures))
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
