"""Shared helpers of the benchmarks: a throw-away database, gunicorn on loopback, an HTTP
load client and the machine's description.

Benchmarks are scripts, not tests: each one builds its own data in a temporary database
(a SQLite file, or a fresh ``riichi_h6_bench_*`` PostgreSQL database when ``DATABASE_URL``
points at a server), prints its figures and removes everything it started.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import math
import os
import platform
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def machine() -> str:
    """One line naming the CPU, cores, memory and Python, for the printed figures."""
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                cpu = line.split(":", 1)[1].strip()
    memory = ""
    with contextlib.suppress(OSError, ValueError):
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = f", {pages / 2**30:.0f} GiB RAM"
    # The load average says whether other work shared the machine during the run, the
    # reference workload how fast its CPU ran meanwhile.
    return (
        f"{cpu}, {os.cpu_count()} cores{memory}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}; load average {os.getloadavg()[0]:.1f}; "
        f"reference workload {reference_workload_ms():.0f} ms"
    )


def reference_workload_ms() -> float:
    """CPU milliseconds of a fixed pure-Python workload (making, sorting and summing tuples
    of integers), the best of five. On a shared virtual machine the same code runs up to
    twice as slowly from one hour to the next, whatever the load average says: figures of
    two runs compare through this one (docs/performance.md)."""
    timings = []
    for _attempt in range(5):
        started = time.process_time()
        rows = sorted((index * 7919 % 10007, index) for index in range(100_000))
        sum(first for first, _index in rows)
        timings.append(time.process_time() - started)
    return min(timings) * 1000


@contextlib.contextmanager
def temporary_database(label: str) -> Iterator[str]:
    """A DATABASE_URL for an empty database, dropped afterwards.

    With DATABASE_URL set to a PostgreSQL server, a new database named after it plus
    ``_<label>_<random>`` is created on that server; otherwise a SQLite file in a temp dir.
    """
    base = os.environ.get("DATABASE_URL", "")
    if base.startswith(("postgres://", "postgresql://")):
        import psycopg

        parts = urlsplit(base)
        name = f"{parts.path.lstrip('/') or 'riichi_h6'}_{label}_{uuid.uuid4().hex[:6]}"
        admin = urlunsplit(parts._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(parts._replace(path=f"/{name}"))
        finally:
            with psycopg.connect(admin, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        directory = tempfile.mkdtemp(prefix=f"riichi-bench-{label}-")
        try:
            yield f"sqlite:///{directory}/bench.sqlite3"
        finally:
            shutil.rmtree(directory, ignore_errors=True)


def database_kind(database_url: str) -> str:
    return "PostgreSQL" if database_url.startswith("postgres") else "SQLite"


def setup_django(database_url: str, **environment: str) -> None:
    """Point Django at the database, configure it and create the tables."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ.update(environment)
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("createcachetable", verbosity=0)


def server_environment(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a production-like application server (DEBUG off, fresh key)."""
    environment = dict(os.environ)
    environment.update(
        DATABASE_URL=database_url,
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="tournament.settings",
    )
    environment.update(extra)
    return environment


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    """A gunicorn process group on loopback; `stop()` ends it and every worker."""

    process: subprocess.Popen
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)


def collect_static(environment: dict[str, str]) -> None:
    """`collectstatic` as in production: with DEBUG off the pages name hashed static files
    from the manifest (whitenoise), which must exist before the first request."""
    subprocess.run(
        [PYTHON, "manage.py", "collectstatic", "--noinput", "--verbosity=0"],
        cwd=REPO,
        env=environment,
        check=True,
        capture_output=True,
    )


def start_gunicorn(environment: dict[str, str], workers: int = 4, threads: int = 1) -> Server:
    """gunicorn with `workers` processes on 127.0.0.1 and a free port, ready to answer
    (static files collected first)."""
    collect_static(environment)
    port = free_port()
    log = Path(tempfile.mkstemp(prefix="riichi-gunicorn-", suffix=".log")[1])
    command = [
        PYTHON,
        "-m",
        "gunicorn",
        "tournament.wsgi:application",
        f"--bind=127.0.0.1:{port}",
        f"--workers={workers}",
        f"--threads={threads}",
        "--timeout=60",
        "--graceful-timeout=5",
        "--log-level=warning",
    ]
    with log.open("w") as output:
        process = subprocess.Popen(
            command,
            cwd=REPO,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(process, port, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/", headers={"Host": "127.0.0.1"})
            if connection.getresponse().status < 500:
                connection.close()
                return server
        time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"gunicorn did not answer on port {port}: {log.read_text()[-2000:]}")


@contextlib.contextmanager
def running_gunicorn(environment: dict[str, str], workers: int = 4) -> Iterator[Server]:
    server = start_gunicorn(environment, workers=workers)
    try:
        yield server
    finally:
        server.stop()
        server.log.unlink(missing_ok=True)


@dataclass
class LoadResult:
    """What a load run measured: latencies in milliseconds, status counts, duration."""

    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    failures: int = 0
    seconds: float = 0.0
    tool: str = "python"

    @property
    def requests(self) -> int:
        return len(self.latencies)

    @property
    def errors(self) -> int:
        bad = sum(count for status, count in self.statuses.items() if status >= 400)
        return bad + self.failures

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    @property
    def median(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("nan")

    @property
    def p95(self) -> float:
        return self.percentile(0.95)

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        return (
            f"{self.requests} requests in {self.seconds:.1f} s ({self.tool}): "
            f"{self.per_second:.0f} req/s, median {self.median:.1f} ms, "
            f"p95 {self.percentile(0.95):.1f} ms, p99 {self.percentile(0.99):.1f} ms, "
            f"errors {self.errors} (statuses {dict(sorted(self.statuses.items()))})"
        )


def get(port: int, path: str, timeout: float = 30.0, headers: dict | None = None):
    """One GET on loopback: (status, body bytes, headers)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        connection.close()


#: What a phone's browser sends: the pages that may be compressed come gzipped.
PHONE = {"Accept-Encoding": "gzip, deflate, br"}


def thread_load(port: int, path: str, connections: int, seconds: float) -> LoadResult:
    """`connections` threads, each with one keep-alive connection, GET `path` for `seconds`
    as a phone asks for it (gzip accepted)."""
    result = LoadResult(tool=f"python threads ×{connections}")
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def worker() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                connection.request("GET", path, headers={"Host": "127.0.0.1", **PHONE})
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                with lock:
                    result.failures += 1
                continue
            elapsed = (time.perf_counter() - started) * 1000
            with lock:
                result.latencies.append(elapsed)
                result.statuses[status] = result.statuses.get(status, 0) + 1
        connection.close()

    threads = [threading.Thread(target=worker) for _index in range(connections)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.seconds = time.monotonic() - started
    return result


WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %d %.3f %.3f %.3f\\n",
    summary.requests, summary.duration, summary.errors.connect + summary.errors.read +
    summary.errors.write + summary.errors.timeout, summary.errors.status,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000))
end
"""


@dataclass
class WrkResult:
    requests: int
    seconds: float
    failures: int
    bad_statuses: int
    median: float
    p95: float
    p99: float

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def errors(self) -> int:
        return self.failures + self.bad_statuses

    def summary(self) -> str:
        return (
            f"{self.requests} requests in {self.seconds:.1f} s (wrk): "
            f"{self.per_second:.0f} req/s, median {self.median:.1f} ms, p95 {self.p95:.1f} ms, "
            f"p99 {self.p99:.1f} ms, errors {self.errors} "
            f"(socket {self.failures}, non-2xx/3xx {self.bad_statuses})"
        )


def wrk_load(port: int, path: str, connections: int, seconds: int) -> WrkResult | None:
    """Run wrk against loopback if it is installed (Debian package `wrk`), else None."""
    wrk = shutil.which("wrk")
    if wrk is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT)
    try:
        output = subprocess.run(
            [
                wrk,
                f"--connections={connections}",
                f"--threads={min(connections, os.cpu_count() or 2)}",
                f"--duration={seconds}s",
                "--timeout=30s",
                "--latency",
                f"--header=Accept-Encoding: {PHONE['Accept-Encoding']}",
                f"--script={script.name}",
                f"http://127.0.0.1:{port}{path}",
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
            check=True,
        ).stdout
    finally:
        os.unlink(script.name)
    line = next(line for line in output.splitlines() if line.startswith("RESULT "))
    values = line.split()[1:]
    return WrkResult(
        requests=int(values[0]),
        seconds=int(values[1]) / 1e6,
        failures=int(values[2]),
        bad_statuses=int(values[3]),
        median=float(values[4]),
        p95=float(values[5]),
        p99=float(values[6]),
    )


def load(port: int, path: str, connections: int, seconds: int) -> WrkResult | LoadResult:
    """wrk when available, else the thread-pool client, both bounded in time."""
    return wrk_load(port, path, connections, seconds) or thread_load(
        port, path, connections, seconds
    )


def milliseconds(value: float) -> float | None:
    """A latency for the SUMMARY line's JSON: one decimal, None when nothing was measured."""
    return None if math.isnan(value) else round(value, 1)


def summary_line(figures: dict) -> str:
    """The benchmark's last line, for scripts and CI: ``SUMMARY {json}``."""
    return "SUMMARY " + json.dumps(figures, separators=(", ", ": "))


def random_points(rng, start: int = 30000) -> list[int]:
    """Four final scores, multiples of 100, that sum to 4 × the start points (no sticks left)."""
    total = 4 * start // 100
    cuts = sorted(rng.randrange(0, total + 1) for _index in range(3))
    return [
        100 * value for value in (cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], total - cuts[2])
    ]


def build_tournament(
    *, players: int, rounds: int, seed: int, confirmed_rounds: int | None = None, slug: str = ""
):
    """A tournament with `players` registrations, `rounds` seated rounds and a confirmed sheet
    for every table of the first `confirmed_rounds` rounds (all by default).

    Bulk inserts in the scoring app's stored format (`SheetEntry.to_data`) so that building
    thousands of sheets takes seconds; the sheets themselves go through the services in
    `bench/event.py`, which measures them.
    """
    import datetime
    import random

    from django.contrib.auth import get_user_model
    from django.db import transaction

    from scoring.entries import SeatEntry, SheetEntry
    from scoring.models import ScoreSheet, SheetVersion
    from scoring.services.seat_results import seat_results_rebuild
    from tournament.models import Player, Registration, Round, Seat, Tournament

    rng = random.Random(seed)
    confirmed_rounds = rounds if confirmed_rounds is None else confirmed_rounds
    slug = slug or f"bench-{players}x{rounds}"
    with transaction.atomic():
        user, _created = get_user_model().objects.get_or_create(username="bench-referee")
        tournament = Tournament.objects.create(
            name=f"Benchmark Open {players}×{rounds}",
            slug=slug,
            start_date=datetime.date(2026, 6, 6),
            end_date=datetime.date(2026, 6, 7),
            rounds_count=rounds,
            status=Tournament.Status.RUNNING,
            confirmation_policy=Tournament.ConfirmationPolicy.SINGLE,
        )
        start = tournament.get_rules().start_points
        people = Player.objects.bulk_create(
            Player(first_name=f"Player{i}", last_name=f"Bench{i:04d}", country="FR")
            for i in range(players)
        )
        registrations = Registration.objects.bulk_create(
            Registration(tournament=tournament, player=person) for person in people
        )
        round_rows = Round.objects.bulk_create(
            Round(
                tournament=tournament,
                number=number,
                status=Round.Status.FINISHED if number <= confirmed_rounds else Round.Status.SEATED,
            )
            for number in range(1, rounds + 1)
        )
        seats, sheets, entries = [], [], []
        for round_ in round_rows:
            order = [registration.pk for registration in registrations]
            rng.shuffle(order)
            for table in range(players // 4):
                seated = order[4 * table : 4 * table + 4]
                for wind, registration_id in zip("ESWN", seated, strict=True):
                    seats.append(
                        Seat(
                            round=round_,
                            table_number=table + 1,
                            wind=wind,
                            registration_id=registration_id,
                        )
                    )
                if round_.number <= confirmed_rounds:
                    points = random_points(rng, start)
                    sheets.append(ScoreSheet(round=round_, table_number=table + 1, revision=1))
                    entries.append(
                        SheetEntry(
                            kind=SheetVersion.Kind.FINAL,
                            seats=tuple(
                                SeatEntry(registration_id=r, points=p)
                                for r, p in zip(seated, points, strict=True)
                            ),
                        )
                    )
        Seat.objects.bulk_create(seats, batch_size=2000)
        ScoreSheet.objects.bulk_create(sheets, batch_size=2000)
        versions = SheetVersion.objects.bulk_create(
            (
                SheetVersion(
                    sheet=sheet,
                    number=1,
                    kind=entry.kind,
                    action=SheetVersion.Action.ENTRY,
                    data=entry.to_data(),
                    entered_by=user,
                    token=uuid.UUID(int=rng.getrandbits(128)),
                )
                for sheet, entry in zip(sheets, entries, strict=True)
            ),
            batch_size=1000,
        )
        for sheet, version in zip(sheets, versions, strict=True):
            sheet.current = version
            sheet.status = ScoreSheet.Status.CONFIRMED
        ScoreSheet.objects.bulk_update(sheets, ["current", "status"], batch_size=1000)
        # The sheets were written in bulk, past the services: their stored seat results, the
        # standings' input, are scored as an archive import scores them.
        seat_results_rebuild(tournament=tournament)
    return tournament


class Session:
    """A browser's session against one server on loopback: cookies kept by hand (the
    server marks them Secure, which `http.cookiejar` would not send over plain HTTP) and the
    CSRF token sent as Django expects from a same-origin form."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict | None = None, timeout: float = 60):
        from urllib.parse import urlencode

        headers = {"Host": f"127.0.0.1:{self.port}", "Origin": f"http://127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if method == "POST":
            body = urlencode(fields or {}, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Referer"] = f"http://127.0.0.1:{self.port}{path}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    pair = value.split(";", 1)[0]
                    key, _sep, cookie = pair.partition("=")
                    self.cookies[key.strip()] = cookie.strip().strip('"')
            return response.status, content.decode("utf-8", "replace"), dict(response.getheaders())
        finally:
            connection.close()

    def get(self, path: str):
        return self.request("GET", path)

    def post(self, path: str, fields: dict):
        return self.request("POST", path, fields)

    def login(self, username: str, password: str) -> None:
        self.get("/accounts/login/")
        status, _body, headers = self.post(
            "/accounts/login/", {"username": username, "password": password}
        )
        if status != 302:
            raise RuntimeError(f"login of {username} failed with {status}")


@contextlib.contextmanager
def redis_server() -> Iterator[str | None]:
    """A throw-away Redis on loopback (no persistence) if `redis-server` is installed."""
    binary = shutil.which("redis-server")
    if binary is None:
        yield None
        return
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
