"""An organiser seats a tournament in a real browser: generate (in the background, with the
progress bar), review, swap, apply. Playwright on Debian's chromium against live_server.

The browser runs in a thread of its own: Playwright's sync API refuses to start where another
suite's Playwright session already runs an event loop, and the ORM checks stay in the test's
own thread without any async-safety switch.
"""

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest
from django.conf import settings

from seating.models import SeatingRun
from tests.chromium import launch, require_chromium
from tests.conftest import make_registrations, make_rounds, make_tournament
from tournament.models import Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@contextmanager
def _seating_page(base_url: str, session_cookie: str, tournament_pk: int) -> Iterator:
    """The organiser on the tournament's seating page, logged in through the session cookie
    (the login form is tested elsewhere)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.set_default_timeout(20_000)
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session_cookie, "url": base_url}]
            )
            page = context.new_page()
            page.goto(f"{base_url}/admin/tournament/tournament/{tournament_pk}/change/")
            page.click("text=Generate seating")
            yield page
        finally:
            browser.close()


def _browse(base_url: str, session_cookie: str, tournament_pk: int) -> list[str]:
    """The organiser's clicks; returns the ids of the two players swapped in round 1."""
    with _seating_page(base_url, session_cookie, tournament_pk) as page:
        page.fill("#generate-form #id_time_limit", "1")
        page.click("text=Generate a proposal")
        # The run computes in a thread; the page polls and reloads itself when done.
        page.wait_for_selector("#quality-report")

        players = page.eval_on_selector_all(
            "#id_first option", "options => options.map(o => o.value).filter(Boolean)"
        )
        page.select_option("#id_round", "1")
        page.select_option("#id_first", players[0])
        page.select_option("#id_second", players[-1])
        page.click("#swap-form input[type=submit]")
        page.wait_for_selector("#last-swap")
        assert page.locator("#round-1 + .seating-tables .seating-swapped").count() == 2

        page.on("dialog", lambda dialog: dialog.accept())
        page.click("#apply-button")
        page.wait_for_selector("text=Seating applied to rounds 1, 2, 3.")
        return [players[0], players[-1]]


def _as_organiser(browse, live_server, client, django_user_model, tournament):
    """What ``browse`` (a page flow) returns, run logged in as a superuser in a thread of its
    own (see the module docstring)."""
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", None)
    client.force_login(boss)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(browse, live_server.url, cookie, tournament.pk).result()


def test_organiser_generates_reviews_swaps_and_applies(live_server, client, django_user_model):
    require_chromium()
    tournament = make_tournament(rounds_count=3)
    make_registrations(tournament, 20, teams=5)
    make_rounds(tournament)

    swapped = _as_organiser(_browse, live_server, client, django_user_model, tournament)

    run = SeatingRun.objects.get()
    assert run.status == SeatingRun.Status.APPLIED
    assert run.swaps == [{"round": 1, "players": [int(pk) for pk in swapped]}]
    assert Seat.objects.filter(round__tournament=tournament).count() == 60
    for index, table in enumerate(run.plan[0]["tables"]):
        for wind, player in zip("ESWN", table, strict=True):
            seat = Seat.objects.get(round__number=1, registration_id=player)
            assert (seat.table_number, seat.wind) == (index + 1, wind)


def _seat_swiss_round(base_url: str, session_cookie: str, tournament_pk: int) -> str:
    """The organiser seats round 2 from the standings; returns the run page's text."""
    with _seating_page(base_url, session_cookie, tournament_pk) as page:
        page.select_option("#swiss-form #id_round", label="Round 2")
        page.click("text=Seat from the standings")
        # Computed in a thread like a plan: the run page polls and reloads when done.
        page.wait_for_selector("#quality-report")
        return page.inner_text("#content")


def test_organiser_seats_a_swiss_round_computed_in_the_background(
    live_server, client, django_user_model
):
    require_chromium()
    tournament = make_tournament(rounds_count=2)
    make_registrations(tournament, 16)
    make_rounds(tournament)

    text = _as_organiser(_seat_swiss_round, live_server, client, django_user_model, tournament)

    run = SeatingRun.objects.get()
    assert run.mode == SeatingRun.Mode.SWISS
    assert run.status == SeatingRun.Status.DONE
    assert "Swiss round from the standings" in text
    assert sorted(p for table in run.plan[0]["tables"] for p in table) == sorted(
        tournament.registrations.values_list("pk", flat=True)
    )
