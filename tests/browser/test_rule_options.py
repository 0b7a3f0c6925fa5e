"""The organiser changes the uma in the tournament's rule options; the rankings use it."""

import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.test_organiser import log_in
from tests.conftest import (
    confirm_sheet,
    make_registrations,
    make_rounds,
    make_seats,
    make_tournament,
)
from tournament.models import Round, Tournament

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_organiser_changes_the_uma_and_the_rankings_use_it(live_server, new_page, screenshot):
    tournament = make_tournament(confirmation_policy=Tournament.ConfirmationPolicy.SINGLE)
    first = make_rounds(tournament, 1)[0]
    make_seats(first, make_registrations(tournament, 4))
    first.status = Round.Status.PLAYING
    first.save()
    organiser = get_user_model().objects.create_superuser(
        "organiser", "o@example.org", "pw-organiser-1"
    )
    page = new_page(1280, 900)
    change = f"/admin/tournament/tournament/{tournament.pk}/change/"
    log_in(page, live_server.url, change)
    uma = page.locator("input[name^=option_uma_]")
    # The default of WRC 2015 §5.9.2, cited beside it.
    assert [uma.nth(index).input_value() for index in range(4)] == ["15", "5", "-5", "-15"]
    assert "WRC 2015 §5.9.2" in page.locator(".field-option_uma").inner_text()
    for index, value in enumerate(("20", "10", "-10", "-20")):
        place = ("1st place", "2nd place", "3rd place", "4th place")[index]
        page.get_by_label(place, exact=True).fill(value)
    screenshot(page, "rule-options")
    page.locator("input[name=_save]").click()
    page.wait_for_url(re.compile(r"/admin/tournament/tournament/$"))
    tournament.refresh_from_db()
    assert tournament.rule_options == {"uma": [20, 10, -10, -20]}
    # 42 300 points: +12.3 and the new +20 (WRC's +15 gave +27.3).
    confirm_sheet(first, 1, organiser)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rankings/")
    rankings = page.locator("main").inner_text()
    assert "+32.3" in rankings
    assert "+27.3" not in rankings
