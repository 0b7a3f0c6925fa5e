"""A simulated event: 144 players, 36 tables, 8 rounds, through real HTTP (sizes are options).

Run from the repository root::

    .venv/bin/python -m bench.event                      # SQLite file
    DATABASE_URL=postgres://postgres@127.0.0.1:5433/riichi_h6 .venv/bin/python -m bench.event
    .venv/bin/python -m bench.event --steady --seconds 60   # writes under load, no rounds
    .venv/bin/python -m bench.event --steady --scorers 8    # … by 8 officials, not one a table

It builds the tournament in a temporary database, starts gunicorn on loopback (DEBUG off) and
logs in 36 scorers, one per table. For every round, the 36 scorers enter their table's sheet
at the same moment through the staff pages (check, then save), while public clients poll the
rankings table as the page does: some scorers double-tap "save" (same form, same token),
some enter a sheet again after it was confirmed, some first type a sheet that does not add
up and then correct it. At the end it checks that every sheet is present exactly once with
the numbers the scorer meant, that the standings equal the rules engine's own computation
from the submitted data (through the selector and on the public page), and that no request
got a server error. It prints what it did and what it checked; the exit status is 0 only if
every check passed. Bounded: each request times out after 60 s, the event after
``--deadline`` seconds.

``--steady`` enters no round at once: every round is open, and each scorer saves their
table's sheets one round after the other, continuously, for ``--seconds``, while the public
clients poll; the same checks follow on the sheets saved. Both modes also time /healthz (the
floor: the same middleware, no query) once a second under the same load, and the last line
is ``SUMMARY {json}``: p95 of a save, a poll and the floor, errors, sheets expected and
saved, and whether the standings equal the rules engine's.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import statistics
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

if not __package__:  # run as `python bench/event.py`: import the project, not bench/
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench._support import (
    PHONE,
    Session,
    database_kind,
    machine,
    milliseconds,
    random_points,
    running_gunicorn,
    server_environment,
    setup_django,
    summary_line,
    temporary_database,
)

PASSWORD = "event-scorer-password-1"
WINDS = "ESWN"


@dataclass
class Log:
    """Every request's kind, status and latency, shared by all the client threads."""

    statuses: Counter = field(default_factory=Counter)
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    failures: Counter = field(default_factory=Counter)
    events: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, kind: str, function, *args):
        started = time.perf_counter()
        try:
            status, body, headers = function(*args)
        except OSError as error:
            with self.lock:
                self.failures[f"{kind}: {type(error).__name__}"] += 1
            raise
        with self.lock:
            self.statuses[(kind, status)] += 1
            self.latencies[kind].append((time.perf_counter() - started) * 1000)
        return status, body, headers

    def persist(self, kind: str, function, *args, attempts: int = 3):
        """A referee on a flaky connection: no answer, so send the same form again (same
        token: the server must not save it twice)."""
        for attempt in range(1, attempts + 1):
            try:
                return self.call(kind, function, *args)
            except OSError:
                if attempt == attempts:
                    raise
                self.note(f"{kind}: no answer within 60 s, sent again (same form)")
        raise AssertionError("unreachable")

    def note(self, event: str) -> None:
        with self.lock:
            self.events[event] += 1

    def problem(self, text: str) -> None:
        with self.lock:
            self.problems.append(text)


def build(seed: int, players: int, rounds: int) -> dict:
    """Players, seated rounds (random tables of four), one scorer a table and the
    tournament."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from tournament.models import Player, Registration, Round, Seat, Tournament, TournamentStaff

    rng = random.Random(seed)
    tournament = Tournament.objects.create(
        name="Simulated Riichi Open",
        slug="simulated-open",
        start_date=datetime.date(2026, 6, 6),
        end_date=datetime.date(2026, 6, 7),
        rounds_count=rounds,
        status=Tournament.Status.RUNNING,
        confirmation_policy=Tournament.ConfirmationPolicy.SINGLE,
    )
    people = Player.objects.bulk_create(
        Player(first_name=f"Sim{index}", last_name=f"Player{index:03d}", country="JP")
        for index in range(players)
    )
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=person) for person in people
    )
    seating: dict[int, dict[int, list[int]]] = {}
    seats = []
    tables = players // 4
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(
            tournament=tournament, number=number, status=Round.Status.SEATED
        )
        order = [registration.pk for registration in registrations]
        rng.shuffle(order)
        seating[number] = {t + 1: order[4 * t : 4 * t + 4] for t in range(tables)}
        for table, players in seating[number].items():
            seats += [
                Seat(round=round_, table_number=table, wind=wind, registration_id=registration)
                for wind, registration in zip(WINDS, players, strict=True)
            ]
    Seat.objects.bulk_create(seats)
    hashed = make_password(PASSWORD)  # one hash for all: building stays fast
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"scorer{table:02d}", password=hashed)
        for table in range(1, tables + 1)
    )
    TournamentStaff.objects.bulk_create(
        TournamentStaff(tournament=tournament, user=user, role=TournamentStaff.Role.REFEREE)
        for user in users
    )
    return {
        "tournament": tournament,
        "seating": seating,
        "players": len(registrations),
        "tables": tables,
        "rounds": rounds,
    }


def sheet_fields(players: list[int], points: list[int], token: str) -> dict:
    fields = {"token": token, "revision": "0", "riichi_sticks_left": "0", "note": ""}
    for wind, registration, value in zip(WINDS, players, points, strict=True):
        fields |= {
            f"{wind}_player": registration,
            f"{wind}_points": value,
            f"{wind}_chombo": 0,
            f"{wind}_late": 0,
            f"{wind}_substitute": "",
        }
    return fields


def check(log: Log, session: Session, path: str, fields: dict) -> dict | None:
    """The scorer checks the sheet: the page shows the engine's result and a fingerprint of
    what was checked, which the save must carry. Returns the save's fields, or None."""
    status, body, _headers = log.persist(
        "sheet: check", session.post, path, fields | {"action": "check"}
    )
    checked = re.search(r'name="checked" value="([0-9a-f]+)"', body)
    if status != 200 or checked is None:
        log.problem(f"{path}: the check of a correct sheet gave {status} without a preview")
        return None
    return fields | {"action": "save", "checked": checked[1]}


def score_table(log: Log, session: Session, slug: str, number: int, table: int, players, points):
    """One scorer, one table, one round, with the table's planned mishap."""
    path = f"/manage/{slug}/scoring/round/{number}/table/{table}/"
    log.persist("sheet: open", session.get, path)
    mishap = (table + number) % 6
    if mishap == 0:
        # Typed 1,000 too many on East: the engine refuses it and nothing is saved.
        wrong = sheet_fields(players, [points[0] + 1000, *points[1:]], str(uuid.uuid4()))
        status, body, _headers = log.persist(
            "sheet: check", session.post, path, wrong | {"action": "check"}
        )
        if status == 200 and 'name="checked"' not in body:
            log.note("typed a sheet that does not add up: refused, then corrected")
        else:
            log.problem(f"{path}: a sheet that does not add up was not refused")
    save = check(log, session, path, sheet_fields(players, points, str(uuid.uuid4())))
    if save is None:
        return
    if mishap == 1:
        # Double tap: the same form (same token) posted twice at once.
        with ThreadPoolExecutor(max_workers=2) as pool:
            statuses = list(
                pool.map(lambda _n: log.persist("sheet: save", session.post, path, save)[0], (1, 2))
            )
        log.note("double-tapped save (two posts of one form at once)")
    else:
        statuses = [log.persist("sheet: save", session.post, path, save)[0]]
    if set(statuses) != {302}:
        log.problem(f"{path}: save gave {statuses}")
        return
    log.note("saved a sheet")
    if mishap == 2:
        # Entered again from a fresh form after it was confirmed: refused, sheet locked.
        again = sheet_fields(players, [points[1], points[0], *points[2:]], str(uuid.uuid4()))
        status, body, _headers = log.persist(
            "sheet: check", session.post, path, again | {"action": "check"}
        )
        if status in (200, 302) and 'name="checked"' not in body:
            log.note("entered a confirmed sheet again: refused")
        else:
            log.problem(f"{path}: a confirmed sheet was open to a new entry")


def poll(log: Log, port: int, slug: str, stop: threading.Event, interval: float, rng) -> None:
    """A phone on the rankings page: fetch its rows every `interval` s as the page does
    (the JSON poll, gzip accepted, ETag honoured)."""
    session = Session(port)
    etag = ""
    stop.wait(rng.uniform(0, interval))
    while not stop.is_set():
        headers = {**PHONE, "If-None-Match": etag} if etag else PHONE
        try:
            status, _body, response_headers = log.call(
                "public: rankings poll", _get_with, session, f"/t/{slug}/rankings/data/", headers
            )
            etag = response_headers.get("ETag", etag)
        except OSError:
            pass
        stop.wait(interval)


def floor(log: Log, port: int, stop: threading.Event) -> None:
    """The floor under the same load: /healthz (same middleware, no query) once a second."""
    session = Session(port)
    while not stop.is_set():
        with contextlib.suppress(OSError):
            log.call("floor: /healthz", _get_with, session, "/healthz", PHONE)
        stop.wait(1)


@contextlib.contextmanager
def public_clients(options, log: Log, port: int, slug: str) -> Iterator[None]:
    """The phones polling the rankings and the floor's probe, for as long as the block runs."""
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=poll,
            args=(log, port, slug, stop, options.poll_interval, random.Random(index)),
            daemon=True,
        )
        for index in range(options.pollers)
    ]
    threads.append(threading.Thread(target=floor, args=(log, port, stop), daemon=True))
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=65)


def login_scorers(port: int, tables: int) -> dict[int, Session]:
    with ThreadPoolExecutor(max_workers=8) as pool:
        return dict(
            zip(
                range(1, tables + 1),
                pool.map(lambda t: _login(port, t), range(1, tables + 1)),
                strict=True,
            )
        )


def _get_with(session: Session, path: str, headers: dict):
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", session.port, timeout=60)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1", **headers})
        response = connection.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        connection.close()


def run_event(options, world: dict, port: int, log: Log) -> list[float]:
    """Round after round, every table's sheet entered at the same moment."""
    from tournament.models import Round

    slug = world["tournament"].slug
    tables = world["tables"]
    rng = random.Random(options.seed)
    start = world["tournament"].get_rules().start_points
    sessions = login_scorers(port, tables)
    durations = []
    submitted = world["submitted"] = {}
    deadline = time.monotonic() + options.deadline
    with public_clients(options, log, port, slug):
        for number in range(1, world["rounds"] + 1):
            if time.monotonic() > deadline:
                log.problem(f"deadline reached before round {number}")
                break
            Round.objects.filter(tournament=world["tournament"], number=number).update(
                status=Round.Status.PLAYING
            )
            barrier = threading.Barrier(tables)
            for table in range(1, tables + 1):
                submitted[(number, table)] = random_points(rng, start)
            started = time.monotonic()

            def scorer(table: int, number: int = number, barrier=barrier) -> None:
                players = world["seating"][number][table]
                points = submitted[(number, table)]
                barrier.wait(timeout=120)
                try:
                    score_table(log, sessions[table], slug, number, table, players, points)
                except OSError as error:
                    log.problem(f"round {number} table {table}: {type(error).__name__}")

            threads = [threading.Thread(target=scorer, args=(t,)) for t in range(1, tables + 1)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=max(1, deadline - time.monotonic()))
            durations.append(time.monotonic() - started)
            print(f"  round {number}: {tables} tables entered in {durations[-1]:.1f} s", flush=True)
    return durations


def run_steady(options, world: dict, port: int, log: Log) -> None:
    """Writes under load: every round open, each table's scorer saving its sheets one round
    after the other without waiting for the others, for `--seconds`."""
    from tournament.models import Round

    slug = world["tournament"].slug
    start = world["tournament"].get_rules().start_points
    Round.objects.filter(tournament=world["tournament"]).update(status=Round.Status.PLAYING)
    sessions = login_scorers(port, world["tables"])
    submitted = world["submitted"] = {}
    lock = threading.Lock()
    deadline = time.monotonic() + options.seconds

    def scorer(tables: list[int]) -> None:
        rngs = {table: random.Random(options.seed * 1000 + table) for table in tables}
        for number in range(1, world["rounds"] + 1):
            for table in tables:
                if time.monotonic() > deadline:
                    return
                points = random_points(rngs[table], start)
                with lock:
                    submitted[(number, table)] = points
                players = world["seating"][number][table]
                try:
                    score_table(log, sessions[table], slug, number, table, players, points)
                except OSError as error:
                    log.problem(f"round {number} table {table}: {type(error).__name__}")

    # One scorer a table, or `--scorers` officials each saving the sheets of every Nth table.
    count = min(options.scorers or world["tables"], world["tables"])
    with public_clients(options, log, port, slug):
        threads = [
            threading.Thread(target=scorer, args=(list(range(first, world["tables"] + 1, count)),))
            for first in range(1, count + 1)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=options.seconds + 4 * 65)
    print(f"  {len(submitted)} sheets entered in steady mode", flush=True)


def _login(port: int, table: int) -> Session:
    session = Session(port)
    session.login(f"scorer{table:02d}", PASSWORD)
    return session


def expected_standings(world: dict):
    """The rules engine's standings computed here from what the scorers meant to submit."""
    from scoring.rules import PlayerRecord, SeatSheet, compute_standings, score_hanchan

    rules = world["tournament"].get_rules()
    rounds = world["rounds"]
    scores: dict[int, list] = defaultdict(lambda: [None] * rounds)
    places: dict[int, list] = defaultdict(lambda: [None] * rounds)
    for (number, table), points in world["submitted"].items():
        players = world["seating"][number][table]
        sheet = [SeatSheet(str(p), value) for p, value in zip(players, points, strict=True)]
        for player, seat in zip(players, score_hanchan(rules, sheet).seats, strict=True):
            scores[player][number - 1] = seat.score
            places[player][number - 1] = seat.place
    everyone = [player for table in world["seating"][1].values() for player in table]
    records = [
        PlayerRecord(str(player), tuple(scores[player]), places=tuple(places[player]))
        for player in everyone
    ]
    return {int(row.key): row for row in compute_standings(records, rules.tie_breaks)}


def public_totals(port: int, slug: str) -> dict[int, tuple[str, str]]:
    """registration id → (place, total) as the public rankings table shows them."""
    import http.client

    # Long timeout: requests of clients that gave up may still be queued before this one.
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request("GET", f"/t/{slug}/rankings/rows/", headers={"Host": "127.0.0.1"})
    body = connection.getresponse().read().decode()
    connection.close()
    shown = {}
    for row in re.findall(r"<tr[^>]*>.*?</tr>", body, re.S):
        found = re.search(r"/players/(\d+)/", row)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        total = re.search(r'<td class="number total">(.*?)</td>', row, re.S)
        if found and cells and total:
            text = re.sub(r"<[^>]+>", "", total[1]).strip()
            # The place without the tie-break's mark and its spoken sentence (12† → 12).
            place = re.sub(r"<sup.*", "", cells[0], flags=re.S)
            shown[int(found[1])] = (re.sub(r"<[^>]+>", "", place).strip(), text)
    return shown


def verify(world: dict, log: Log, shown: dict) -> tuple[list[tuple[str, bool]], bool]:
    """The checks, and whether the standings (selector and public page) equal the rules
    engine's computation from what the scorers meant."""
    from django.utils import translation

    from scoring.models import ScoreSheet, SheetVersion
    from scoring.selectors.standings import tournament_standings
    from tournament.formatting import format_score

    tournament = world["tournament"]
    checks = []
    sheets = list(
        ScoreSheet.objects.filter(round__tournament=tournament).select_related("current", "round")
    )
    keys = Counter((sheet.round.number, sheet.table_number) for sheet in sheets)
    expected_keys = set(world["submitted"])
    checks.append(
        (
            f"{len(expected_keys)} sheets submitted, {len(sheets)} in the database, "
            "one per round and table",
            set(keys) == expected_keys and set(keys.values()) == {1},
        )
    )
    checks.append(
        (
            "every sheet confirmed",
            all(sheet.status == ScoreSheet.Status.CONFIRMED for sheet in sheets),
        )
    )
    entries = Counter(
        SheetVersion.objects.filter(sheet__round__tournament=tournament)
        .exclude(action=SheetVersion.Action.DRAFT)
        .values_list("sheet_id", flat=True)
    )
    checks.append(("exactly one version per sheet (no double save)", set(entries.values()) == {1}))
    wrong = [
        (sheet.round.number, sheet.table_number)
        for sheet in sheets
        if [seat["points"] for seat in sheet.current.data["seats"]]
        != world["submitted"][(sheet.round.number, sheet.table_number)]
    ]
    checks.append(("every sheet holds the numbers its scorer meant", not wrong))
    expected = expected_standings(world)
    standings = tournament_standings(tournament)
    mismatched = [
        entry.registration_id
        for entry in standings.entries
        if (entry.place, entry.total)
        != (expected[entry.registration_id].place, expected[entry.registration_id].total)
    ]
    checks.append(
        (
            f"standings selector = rules engine on the submitted data ({len(expected)} players)",
            not mismatched and len(standings.entries) == len(expected),
        )
    )
    with translation.override("en"):
        on_page = {
            key: (f"{row.place}=" if row.shared else str(row.place), format_score(row.total))
            for key, row in expected.items()
        }
    differing = [key for key, value in on_page.items() if shown.get(key) != value]
    checks.append(("public rankings page shows the same places and totals", not differing))
    standings_equal = checks[-1][1] and checks[-2][1]
    server_errors = sum(count for (kind, status), count in log.statuses.items() if status >= 500)
    checks.append((f"no server error (5xx: {server_errors})", server_errors == 0))
    checks.append((f"no scorer problem ({len(log.problems)})", not log.problems))
    return checks, standings_equal


def p95(log: Log, kind: str) -> float:
    latencies = sorted(log.latencies[kind])
    if not latencies:
        return float("nan")
    return latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]  # as LoadResult


def report(log: Log, durations: list[float], tables: int) -> None:
    print("Requests:")
    kinds = sorted({kind for kind, _status in log.statuses})
    for kind in kinds:
        statuses = {status: n for (k, status), n in sorted(log.statuses.items()) if k == kind}
        print(
            f"  {kind:24} {sum(statuses.values()):6} requests, statuses {statuses}, "
            f"median {statistics.median(log.latencies[kind]):.0f} ms, "
            f"p95 {p95(log, kind):.0f} ms"
        )
    for failure, count in sorted(log.failures.items()):
        print(f"  {failure}: {count} (no answer within the timeout)")
    print("What the scorers did:")
    for event, count in sorted(log.events.items()):
        print(f"  {event}: {count}")
    if durations:
        print(
            f"Rounds: {len(durations)}; time to enter all {tables} sheets of a round: "
            f"median {statistics.median(durations):.1f} s, max {max(durations):.1f} s"
        )
    for problem in log.problems[:20]:
        print(f"  problem: {problem}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=144, help="a multiple of 4")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--pollers", type=int, default=200)
    parser.add_argument("--poll-interval", type=float, default=10.0, help="as the page: 10 s")
    parser.add_argument("--workers", type=int, default=5)
    parser.add_argument("--deadline", type=float, default=1200.0)
    parser.add_argument("--steady", action="store_true", help="save continuously instead")
    parser.add_argument("--seconds", type=float, default=60.0, help="of --steady")
    parser.add_argument(
        "--scorers", type=int, default=0, help="of --steady: officials saving (one a table)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    print(f"Machine: {machine()}")
    load_average = round(os.getloadavg()[0], 1)
    with temporary_database("event") as database_url:
        setup_django(database_url)
        from django.db import connections

        world = build(options.seed, options.players, options.rounds)
        connections.close_all()
        mode = f"steady for {options.seconds:g} s" if options.steady else "round by round"
        scorers = world["tables"]
        if options.steady and options.scorers:
            scorers = min(options.scorers, world["tables"])
        print(
            f"Event on {database_kind(database_url)}: {world['players']} players, "
            f"{world['tables']} tables, {world['rounds']} rounds, {mode}; {scorers} "
            f"scorers, {options.pollers} public clients polling every "
            f"{options.poll_interval:g} s; gunicorn {options.workers} workers, DEBUG off"
        )
        log = Log()
        started = time.monotonic()
        with running_gunicorn(server_environment(database_url), workers=options.workers) as srv:
            durations = []
            if options.steady:
                run_steady(options, world, srv.port, log)
            else:
                durations = run_event(options, world, srv.port, log)
            shown = public_totals(srv.port, world["tournament"].slug)
        print(f"Event over in {time.monotonic() - started:.0f} s.")
        report(log, durations, world["tables"])
        print("Checks:")
        checks, standings_equal = verify(world, log, shown)
        for label, passed in checks:
            print(f"  [{'ok' if passed else 'FAILED'}] {label}")
        from scoring.models import ScoreSheet

        saved = ScoreSheet.objects.filter(
            round__tournament=world["tournament"], status=ScoreSheet.Status.CONFIRMED
        ).count()
        connections.close_all()
    server_errors = sum(count for (_kind, status), count in log.statuses.items() if status >= 500)
    figures = {
        "players": world["players"],
        "pollers": options.pollers,
        "save_p95_ms": milliseconds(p95(log, "sheet: save")),
        "poll_p95_ms": milliseconds(p95(log, "public: rankings poll")),
        "floor_p95_ms": milliseconds(p95(log, "floor: /healthz")),
        "errors": server_errors + sum(log.failures.values()),
        "sheets_expected": len(world["submitted"]),
        "sheets_saved": saved,
        "standings_equal": standings_equal,
        "load_average": load_average,
    }
    print(summary_line(figures))
    raise SystemExit(0 if all(passed for _label, passed in checks) else 1)


if __name__ == "__main__":
    main()
