"""A wrong-seat correction in the browser: the head referee finds the winds page from the
round's score sheets, records that East and South of table 1 swapped seats, and reads the
correction in the table's history, with the winds as seated and as played."""

import pytest

from tests.browser.test_table_time import head_referee_at_the_tables
from tournament.models import WIND_ORDER, Seat

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_a_wrong_seat_correction_and_its_history(live_server, new_page):
    tournament, page = head_referee_at_the_tables(live_server, new_page)
    seats = sorted(
        Seat.objects.filter(round__tournament=tournament, round__number=1, table_number=1),
        key=lambda seat: WIND_ORDER[seat.wind],
    )
    east, south = (seat.registration.player.display_name for seat in seats[:2])
    page.goto(f"{live_server.url}/manage/{tournament.slug}/scoring/round/1/")
    page.get_by_role("link", name="Winds played").click()
    page.get_by_role("link", name="Table 1 · Correct the winds").click()
    form = page.locator("#seat-correction-form")
    form.get_by_label("East").select_option(label=south)
    form.get_by_label("South").select_option(label=east)
    form.get_by_label("Reason").fill("East and South swapped seats at the start")
    form.get_by_role("button", name="Record the winds played").click()
    page.get_by_text("The winds played at table 1 are recorded.").wait_for()

    history = page.locator(".seat-correction")
    assert "East and South swapped seats at the start" in history.inner_text()
    rows = history.locator("tbody tr")
    assert rows.nth(0).inner_text().split("\t") == ["East", east, south]
    assert rows.nth(1).inner_text().split("\t") == ["South", south, east]
    table_one = page.locator(".table-card").first
    assert table_one.locator(".seat-names li").first.inner_text().endswith(south)
    page.get_by_role("link", name="Table 1 · Correct the winds").click()
    assert "East and South swapped seats at the start" in page.inner_text(".seat-correction")
