"""Round release in a browser: the public rankings of a tournament showing complete rounds
only hide a round with a table still to confirm, in English and French, until a head
referee releases it from the round's staff page; a reader's open page follows by its poll."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from tests.scoring.conftest import release_event

pytestmark = pytest.mark.browser

NOTICES = {
    "en-GB": "Round 2 is not complete yet: the rankings show the results up to round 1.",
    "fr-FR": (
        "La ronde 2 n’est pas encore complète : le classement affiche les résultats "
        "jusqu’à la ronde 1."
    ),
}
#: The last player's total after round 2 (−26.0 in each round), as each language writes it.
TOTALS = {"en-GB": "−52.0", "fr-FR": "−52,0"}


@pytest.mark.django_db(transaction=True)
def test_a_round_stays_off_the_rankings_until_a_head_referee_releases_it(live_server, new_page):
    event = release_event(get_user_model())
    slug = event["tournament"].slug
    readers = {locale: new_page(1280, 800, locale=locale) for locale in NOTICES}
    for locale, page in readers.items():
        page.goto(f"{live_server.url}/t/{slug}/rankings/")
        assert page.locator(".round-limit").inner_text() == NOTICES[locale]
        assert page.locator("table.ranking").get_by_text(TOTALS[locale]).count() == 0

    # The head referee's session, logged in as the login page would.
    staff = Client()
    staff.force_login(event["head"])
    head = new_page(1280, 800, locale="en-GB")
    cookie = settings.SESSION_COOKIE_NAME
    head.context.add_cookies(
        [{"name": cookie, "value": staff.cookies[cookie].value, "url": live_server.url}]
    )
    head.goto(f"{live_server.url}/manage/{slug}/scoring/round/2/")
    head.get_by_role("button", name="Show this round on the public rankings now").click()
    head.get_by_text("Round 2 is released: the public rankings show it.").wait_for()

    # The English reader's page brings the round in by its poll, notice gone with it; the
    # French reader reloads.
    english = readers["en-GB"]
    english.locator("table.ranking").get_by_text(TOTALS["en-GB"]).wait_for(timeout=20_000)
    assert english.locator(".round-limit").count() == 0
    french = readers["fr-FR"]
    french.reload()
    assert french.locator(".round-limit").count() == 0
    assert french.locator("table.ranking").get_by_text(TOTALS["fr-FR"]).count() == 1
