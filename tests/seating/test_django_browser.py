"""An organiser seats a tournament in a real browser: generate (in the background, with the
progress bar), review, swap, apply. Playwright on Debian's chromium against live_server."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections

from seating.models import SeatingRun
from tests.conftest import make_registrations, make_rounds, make_tournament
from tournament.models import Seat

# Playwright's sync API runs an event loop in this thread; the ORM calls between browser
# steps are synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page():
    if not CHROMIUM.exists():
        pytest.skip("Browser tests need Debian's chromium at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    args = ["--disable-gpu"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(20_000)
        yield context.new_page()
        browser.close()
        # The ORM calls made while Playwright's loop runs use their own connection; close it
        # here, or PostgreSQL refuses to drop the test database at the end.
        connections.close_all()


def test_organiser_generates_reviews_swaps_and_applies(
    page, live_server, client, django_user_model
):
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", None)
    tournament = make_tournament(rounds_count=3)
    make_registrations(tournament, 20, teams=5)
    make_rounds(tournament)
    # Log in through the session cookie (the login form is tested elsewhere).
    client.force_login(boss)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/admin/tournament/tournament/{tournament.pk}/change/")
    page.click("text=Generate seating")
    page.fill("#generate-form #id_time_limit", "1")
    page.click("text=Generate a proposal")
    # The run computes in a thread; the page polls and reloads itself when it is done.
    page.wait_for_selector("#quality-report")
    run = SeatingRun.objects.get()
    assert run.status == SeatingRun.Status.DONE

    first, second = run.plan[0]["tables"][0][0], run.plan[0]["tables"][1][0]
    page.select_option("#id_round", "1")
    page.select_option("#id_first", str(first))
    page.select_option("#id_second", str(second))
    page.click("#swap-form input[type=submit]")
    page.wait_for_selector("#last-swap")
    assert page.locator(".seating-swapped").count() == 2

    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#apply-button")
    page.wait_for_selector("text=Seating applied to rounds 1, 2, 3.")
    assert Seat.objects.filter(round__tournament=tournament).count() == 60
    assert Seat.objects.get(round__number=1, registration_id=second).table_number == 1
