"""The pure cores stay pure: no Django import under scoring/rules/ or seating/engine/.

The rules engine and the seating generator are stdlib-only libraries, so that they can be
tested, benchmarked and called without a database or settings; their JSON CLIs
(``scoring/__main__.py``, ``seating/__main__.py``) only call them.
Parsing with :mod:`ast` catches ``import django``, ``from django... import``, imports of the
Django apps' own modules (models, services…) and ``importlib.import_module("django…")``.
"""

from __future__ import annotations

import ast
import re
import subprocess
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


# The layers above the pure cores. The tournament app is the ground floor: the other apps
# build on its records. Scoring builds on it; seating builds on both (a Swiss round is seated
# from the standings). The site's wiring sits on top: the URL configuration that mounts every
# app's pages, the admin (the organisers' back office over every app) and the command that
# loads the demo tournament of every app. A module may import its own layer and those below.
PROJECT_APPS = ("tournament", "scoring", "seating")
WIRING = ("tournament.urls", "tournament.management.commands.load_demo", "*.admin")
LAYERS = {"tournament": 1, "scoring": 2, "seating": 3}
TOP = max(LAYERS.values()) + 1


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for app in PROJECT_APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
    }


def _type_checking_only(tree: ast.AST) -> set[ast.AST]:
    """Imports under ``if TYPE_CHECKING:`` never run: they are no dependency."""
    return {
        node
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
        for node in ast.walk(branch)
    }


def imported_modules(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules this one imports anywhere, inside functions too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(tree):
        if node in skipped or not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, base] if base else package)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            # A package importing its own submodules is not a dependency on itself.
            if name and name != module and not (is_package and name.startswith(module + ".")):
                found.add(name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {module: imported_modules(module, path, modules) for module, path in modules.items()}


def is_within(module: str, prefix: str) -> bool:
    if prefix.startswith("*."):
        return prefix[1:] in f".{module}." or module.endswith(prefix[1:])
    return module == prefix or module.startswith(prefix + ".")


def layer(module: str) -> int:
    if any(is_within(module, pure.replace("/", ".")) for pure in PURE_PACKAGES):
        return 0
    if any(is_within(module, wiring) for wiring in WIRING):
        return TOP
    return LAYERS[module.split(".")[0]]


def test_the_graph_sees_the_apps_and_their_imports():
    graph = import_graph()
    assert "scoring.tables" in graph["scoring.views.public"]
    assert "tournament.models" in graph["seating.selectors"]
    assert layer("scoring.rules.hands") == 0
    assert layer("tournament.admin") == layer("seating.admin") == TOP


def test_no_module_imports_a_layer_above_its_own():
    graph = import_graph()
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        if layer(target) > layer(module)
    )
    assert upward == []


def test_the_ground_floor_imports_only_the_pure_cores_of_the_other_apps():
    graph = import_graph()
    reaching = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if layer(module) == LAYERS["tournament"]
        for target in targets
        if not target.startswith("tournament") and layer(target) != 0
    )
    assert reaching == []


def test_no_selectors_module_imports_a_services_module():
    # Reads must not depend on writes: a module that holds no write is no service.
    graph = import_graph()
    found = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if "selectors" in module.split(".")
        for target in targets
        if "services" in target.split(".")
    )
    assert found == []


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_import_circle_among_the_modules():
    assert import_circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_circles(graph) == [["a", "b", "c"]]


# Documents are cited by their path in the repository (docs/rules.md), or from a document
# beside them (rules.md, ../README.md); a cited document must be there to open.
CITED_DOCUMENT = re.compile(r"(?<![\w./-])((?:\.\./|[\w-]+/)*[\w-]+\.md)\b")
CITING_SUFFIXES = {".py", ".md", ".html", ".js", ".css", ".txt", ".toml", ""}


def tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [
        ROOT / name
        for name in listed
        if Path(name).suffix in CITING_SUFFIXES and (ROOT / name).is_file()
    ]


def missing_documents(path: Path, root: Path = ROOT) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    missing = []
    for cited in sorted(set(CITED_DOCUMENT.findall(text))):
        places = [path.parent / cited, root / cited, root / "docs" / cited]
        if not any(place.resolve().is_file() for place in places):
            missing.append(f"{path.relative_to(root)}: {cited}")
    return missing


def test_every_cited_document_is_in_the_repository():
    assert [line for path in tracked_files() for line in missing_documents(path)] == []


def test_the_document_check_catches_a_missing_one(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules")
    cited = tmp_path / "module.py"
    # Written in two parts here: this file is checked too.
    notes, theory = "NOTES" + ".md", "../shared/THEORY" + ".md"
    cited.write_text(f'"""See docs/rules.md, {notes} §7.4 and {theory}."""')
    assert missing_documents(cited, root=tmp_path) == [
        f"module.py: {theory}",
        f"module.py: {notes}",
    ]


# A module past these sizes holds more than one concern: a newcomer should find a thing by
# the module's name. The exception earns its size: the seating planner is one pipeline, from
# the request to the measured plan (validation, history, construction or search, winds), each
# step a few small functions that only make sense in that order.
ADMIN_MAX_LINES = 300
MODULE_MAX_LINES = 700
EARNED_SIZE = {"seating/engine/planner.py"}


def test_modules_stay_small():
    too_long = []
    for path in project_modules().values():
        name = str(path.relative_to(ROOT))
        lines = len(path.read_text(encoding="utf-8").splitlines())
        limit = ADMIN_MAX_LINES if "admin" in path.parts or path.stem == "admin" else None
        limit = limit or (None if name in EARNED_SIZE else MODULE_MAX_LINES)
        if limit and lines > limit:
            too_long.append(f"{name}: {lines} lines")
    assert too_long == []


# The documents name the tests that keep each promise as `tests/…/test_x.py::test_name`, or
# `::test_name` after such a path for another test of the same file.
CITED_TEST = re.compile(r"`(tests/[\w/]+\.py)?(?:::(\w+))?`")


def missing_tests(text: str, root: Path = ROOT) -> list[str]:
    missing, current = [], None
    for path, name in CITED_TEST.findall(text):
        if not (path or name):
            continue
        current = path or current
        source = root / current if current else None
        if source is None or not source.is_file():
            missing.append(f"{current}::{name}" if name else str(current))
        elif name and not re.search(rf"^def {name}\(", source.read_text(), re.MULTILINE):
            missing.append(f"{current}::{name}")
    return missing


def test_every_test_a_document_names_exists():
    docs = sorted((ROOT / "docs").glob("*.md"))
    assert [line for doc in docs for line in missing_tests(doc.read_text())] == []


def test_the_test_check_catches_a_missing_one(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_kept():\n    pass\n")
    text = "`tests/test_a.py::test_kept`, `::test_gone`; `tests/test_b.py`"
    assert missing_tests(text, root=tmp_path) == ["tests/test_a.py::test_gone", "tests/test_b.py"]
