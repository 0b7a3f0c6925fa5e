#!/usr/bin/env python3
"""The quick start: set up a virtualenv, then serve the demo or run the whole test suite.

    python3 scripts/dev.py serve   # http://127.0.0.1:8000 with the demo tournament, and a worker
    python3 scripts/dev.py serve 8080              # another port (or ADDRESS:PORT)
    python3 scripts/dev.py serve --no-demo         # a real event: the demo is not loaded
    python3 scripts/dev.py test    # lint and every test; says what it skipped and why

Needs only Python 3.11+. Re-running is cheap: requirements are reinstalled only when
requirements.txt changes, and the demo is loaded only once.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
CHROMIUM = Path("/usr/bin/chromium")


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


def run(*args: object, **kwargs) -> None:
    subprocess.run([str(arg) for arg in args], cwd=ROOT, check=True, **kwargs)


def ensure_virtualenv() -> None:
    if not PYTHON.exists():
        say(f"Creating the virtualenv in {VENV}")
        venv.create(VENV, with_pip=True)
    requirements = (ROOT / "requirements.txt").read_bytes()
    digest = hashlib.sha256(requirements).hexdigest()
    stamp = VENV / ".requirements.sha256"
    if not stamp.exists() or stamp.read_text() != digest:
        say("Installing the requirements")
        run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
        run(PYTHON, "-m", "pip", "install", "--quiet", "-r", ROOT / "requirements.txt")
        stamp.write_text(digest)


def manage(*args: str) -> None:
    run(PYTHON, ROOT / "manage.py", *args)


def serve(address: str = "127.0.0.1:8000", *, demo: bool = True) -> None:
    """Serve on ``address``; a port alone ("8080") stays on this machine (127.0.0.1). Without
    ``demo``, for a real event, the demo tournament is not loaded."""
    if address.isdigit():
        address = f"127.0.0.1:{address}"
    ensure_virtualenv()
    say("Migrating the database")
    manage("migrate", "--no-input", "-v", "0")
    manage("createcachetable")
    if demo:
        say("Loading the demo tournament")
        manage("load_demo")
    manage("ensure_organiser")
    manage("schedule_jobs", "-v", "0")
    say("Starting the task worker (seating runs, backups, expired sessions)")
    worker = start_worker()
    try:
        say(f"Serving on http://{address} (admin: http://{address}/admin/)")
        manage("runserver", address)
    finally:
        stop(worker)


def start_worker() -> subprocess.Popen:
    """The worker that runs the seating and the periodic jobs, beside the web server. Without
    reloading: the reloader's child would outlive a stopped parent (restart serve for new
    code)."""
    return subprocess.Popen(
        [str(PYTHON), str(ROOT / "manage.py"), "db_worker", "--no-reload", "-v", "0"], cwd=ROOT
    )


def stop(process: subprocess.Popen, grace: float = 10) -> None:
    """Ask the worker to finish its task and stop; kill it if it has not within `grace`
    seconds (a killed worker's seating run is recovered when a worker runs again)."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def environment_report() -> list[str]:
    """What this machine cannot test, said plainly before the run."""
    notes = []
    if not CHROMIUM.exists():
        notes.append(
            "Browser tests will be SKIPPED: /usr/bin/chromium is missing "
            "(Debian: apt-get install chromium)."
        )
    if not (shutil.which("pdffonts") and shutil.which("pdftotext")):
        notes.append(
            "PDF font tests will be SKIPPED: pdffonts and pdftotext are missing "
            "(Debian: apt-get install poppler-utils)."
        )
    database = os.environ.get("DATABASE_URL", "")
    if database.startswith("postgres"):
        notes.append(f"Database: PostgreSQL ({database.split('@')[-1]}).")
    else:
        notes.append(
            "Database: SQLite. PostgreSQL is NOT tested in this run "
            "(set DATABASE_URL=postgres://… to test it; .ci/run does both)."
        )
    return notes


def test(extra: list[str]) -> int:
    ensure_virtualenv()
    notes = environment_report()
    for note in notes:
        say(note)
    say("Linting (ruff)")
    run(BIN / "ruff", "check", ".")
    run(BIN / "ruff", "format", "--check", "--quiet", ".")
    say("Checking for missing migrations")
    manage("makemigrations", "--check", "--dry-run", "-v", "0")
    say("Running the test suite")
    # Whole files per worker: a file's browser, live server and fixtures stay together.
    workers = (
        [] if any(arg.startswith("-n") for arg in extra) else ["-n", "2", "--dist", "loadfile"]
    )
    result = subprocess.run([str(PYTHON), "-m", "pytest", *workers, *extra], cwd=ROOT, check=False)
    for note in notes:
        say(note)
    return result.returncode


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in {"serve", "test"}:
        print(__doc__)
        return 2
    try:
        if sys.argv[1] == "serve":
            addresses = [arg for arg in sys.argv[2:] if arg != "--no-demo"]
            serve(*addresses[:1], demo="--no-demo" not in sys.argv[2:])
            return 0
        return test(sys.argv[2:])
    except subprocess.CalledProcessError as error:
        return error.returncode or 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
