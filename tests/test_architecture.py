"""The pure cores stay pure: no Django import under scoring/rules/ or seating/engine/.

The rules engine and the seating generator are stdlib-only libraries, so that they can be
tested, benchmarked and called without a database or settings; their JSON CLIs
(``scoring/__main__.py``, ``seating/__main__.py``) only call them.
Parsing with :mod:`ast` catches ``import django``, ``from django... import``, imports of the
Django apps' own modules (models, services…) and ``importlib.import_module("django…")``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE_PACKAGES = ("scoring/rules", "seating/engine")
CLI_MODULES = ("scoring/__main__.py", "seating/__main__.py")
# Django-side modules of our own apps that a pure module must not reach either.
FORBIDDEN_ROOTS = {"django", "rest_framework", "tournament"}
FORBIDDEN_APP_MODULES = {"models", "services", "selectors", "views", "forms", "admin", "apps"}


def pure_files() -> list[Path]:
    files = [p for pkg in PURE_PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    files += [ROOT / m for m in CLI_MODULES if (ROOT / m).exists()]
    return files


def forbidden_imports(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", ""))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        for name in names:
            parts = name.split(".")
            if parts[0] in FORBIDDEN_ROOTS or (
                parts[0] in ("scoring", "seating")
                and len(parts) > 1
                and parts[1] in FORBIDDEN_APP_MODULES
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {name}")
    return found


def test_there_is_something_to_check():
    assert (ROOT / "scoring/rules/__init__.py").exists()
    assert len(pure_files()) >= 2


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_module_does_not_import_django(path):
    assert forbidden_imports(path) == []


def test_checker_catches_a_django_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import django\nfrom django.db import models\nfrom scoring.models import Sheet\n"
        "import importlib\nimportlib.import_module('django.conf')\n",
        encoding="utf-8",
    )
    names = [line.split(": ", 1)[1] for line in forbidden_imports(bad, root=tmp_path)]
    assert names == [
        "django",
        "django.db",
        "django.db.models",
        "scoring.models",
        "scoring.models.Sheet",
        "django.conf",
    ]
