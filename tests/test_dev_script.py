"""The quick start's serve command (scripts/dev.py): where it serves."""

from __future__ import annotations

import importlib.util
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def dev(monkeypatch):
    """scripts/dev.py with the virtualenv set-up and manage.py calls recorded, not run."""
    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "scripts" / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    calls: list[tuple[str, ...]] = []
    monkeypatch.setattr(module, "ensure_virtualenv", lambda: None)
    monkeypatch.setattr(module, "manage", lambda *args: calls.append(args))
    monkeypatch.setattr(module, "say", lambda text: None)
    monkeypatch.setattr(module, "start_worker", lambda: calls.append(("worker",)) or "worker")
    monkeypatch.setattr(module, "stop", lambda process: calls.append(("stop", process)))
    module.calls = calls
    return module


@pytest.mark.parametrize(
    ("argv", "address"),
    [
        (["dev.py", "serve"], "127.0.0.1:8000"),
        (["dev.py", "serve", "8080"], "127.0.0.1:8080"),
        (["dev.py", "serve", "0.0.0.0:9000"], "0.0.0.0:9000"),
    ],
)
def test_serve_takes_another_port_when_8000_is_taken(dev, monkeypatch, argv, address):
    monkeypatch.setattr("sys.argv", argv)
    assert dev.main() == 0
    assert dev.calls[-2] == ("runserver", address)
    assert ("load_demo",) in dev.calls  # the demo is loaded whatever the port


def test_serve_without_the_demo_for_a_real_event(dev, monkeypatch):
    monkeypatch.setattr("sys.argv", ["dev.py", "serve", "--no-demo", "8080"])
    assert dev.main() == 0
    assert dev.calls[-2] == ("runserver", "127.0.0.1:8080")
    assert ("load_demo",) not in dev.calls
    assert ("ensure_organiser",) in dev.calls


def test_serve_runs_one_worker_beside_the_server_and_stops_it_on_exit(dev, monkeypatch):
    # Seating runs and the periodic jobs run on the worker: without it a seating would stay
    # "running" until its recovery gave up. Ctrl-C in runserver must not leave it behind.
    def interrupted(*args):
        dev.calls.append(args)
        if args[0] == "runserver":
            raise KeyboardInterrupt

    monkeypatch.setattr(dev, "manage", interrupted)
    monkeypatch.setattr("sys.argv", ["dev.py", "serve"])
    assert dev.main() == 130
    assert dev.calls.count(("worker",)) == 1
    assert dev.calls.index(("schedule_jobs", "-v", "0")) < dev.calls.index(("worker",))
    assert dev.calls[-3:] == [("worker",), ("runserver", "127.0.0.1:8000"), ("stop", "worker")]


def test_stop_kills_a_worker_that_does_not_finish():
    spec = importlib.util.spec_from_file_location("dev_script_stop", ROOT / "scripts" / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    ignores_sigterm = (
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print(flush=True); time.sleep(60)"
    )
    stubborn = subprocess.Popen([sys.executable, "-c", ignores_sigterm], stdout=subprocess.PIPE)
    stubborn.stdout.readline()  # its SIGTERM handler is in place
    dev.stop(stubborn, grace=0.5)
    assert stubborn.returncode == -signal.SIGKILL
