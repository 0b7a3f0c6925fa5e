"""Playwright on Debian's chromium, against pytest-django's live_server.

No browser is downloaded: the tests use /usr/bin/chromium and are skipped, saying why, when
it is missing. The screenshots of docs/organiser-guide.md are taken by
scripts/screenshots.py.
"""

import os
from pathlib import Path

import pytest

from tests.chromium import launch, require_chromium


@pytest.fixture(scope="module")
def browser():
    """One chromium per test module: Playwright's sync API holds an event loop while it
    runs, so it must be stopped before another suite's browser tests start theirs."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
    # between browser steps are synchronous and safe. Only while this module's tests run:
    # the variable must not leak into other tests (e.g. `check --deploy` refuses it).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()
    if previous is None:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(browser):
    """new_page(width, height) → a page in a fresh context, closed after the test."""
    contexts = []

    def open_page(width: int = 1280, height: int = 800, **options):
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot(tmp_path):
    """A page's screenshot, into a temporary folder: taking it must work on every page the
    tests visit (the guide's own are scripts/screenshots.py's)."""

    def take(page, name: str, **options) -> Path:
        path = tmp_path / f"{name}.png"
        page.screenshot(path=str(path), **options)
        assert path.stat().st_size > 0
        return path

    return take
