"""The quick start's serve command (scripts/dev.py): where it serves."""

from __future__ import annotations

import importlib.util
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
    assert dev.calls[-1] == ("runserver", address)
    assert ("load_demo",) in dev.calls  # the demo is loaded whatever the port


def test_serve_without_the_demo_for_a_real_event(dev, monkeypatch):
    monkeypatch.setattr("sys.argv", ["dev.py", "serve", "--no-demo", "8080"])
    assert dev.main() == 0
    assert dev.calls[-1] == ("runserver", "127.0.0.1:8080")
    assert ("load_demo",) not in dev.calls
    assert ("ensure_organiser",) in dev.calls
