"""A player's page on a phone: every hanchan's final points on screen, and the page following
the results and seats without a reload."""

import pytest

from tests.browser.helpers import SIDEWAYS, confirm_table, demo_event

pytestmark = pytest.mark.browser

# The final points' header and first cell, and how far the row's cells (the folded
# opponents aside) and their headers reach past the table's box.
FINAL_POINTS = """(label) => {
  const table = document.querySelector('table.player-rounds');
  const box = table.parentElement.getBoundingClientRect();
  const index = [...table.tHead.rows[0].cells].findIndex(th => th.textContent === label);
  const cell = table.tBodies[0].rows[0].cells[index];
  const shown = (e) => e.getClientRects().length > 0;
  return {
    header: shown(table.tHead.rows[0].cells[index]),
    text: shown(cell) ? cell.innerText : '',
    overhang: Math.max(...[...table.rows].flatMap(row => [...row.cells].slice(0, -1))
      .filter(shown).map(e => e.getBoundingClientRect().right)) - box.right,
  };
}"""


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_a_phone_shows_each_hanchans_final_points_on_a_players_page(
    live_server, new_page, language
):
    # The points column gave way at phone widths: a player checking their sheet on their
    # phone saw the score but not the points it came from.
    tournament, referee = demo_event()
    confirm_table(tournament, referee, 1)
    east = tournament.rounds.get(number=1).seats.get(table_number=1, wind="E").registration
    page = new_page(375, 667, is_mobile=True, extra_http_headers={"Accept-Language": language})
    page.goto(f"{live_server.url}/t/{tournament.slug}/players/{east.pk}/")
    label, points = ("Final points", "42,300") if language == "en" else ("Points finaux", "42 300")
    for width in (375, 320):
        page.set_viewport_size({"width": width, "height": 667})
        shown = page.evaluate(FINAL_POINTS, label)
        assert shown["header"], width
        assert shown["text"].replace("\xa0", " ").replace("\u202f", " ") == points, width
        assert shown["overhang"] <= 0, width  # on screen, rank included, not under the edge
        assert page.evaluate(SIDEWAYS) == {"page": 0, "boxes": []}, width


@pytest.mark.django_db(transaction=True)
def test_a_players_page_left_open_shows_their_result_without_a_reload(live_server, new_page):
    # The seating and the rankings re-read themselves, the player's page did not: a player
    # following it on their phone saw their result only once they thought of reloading.
    tournament, referee = demo_event()
    east = tournament.rounds.get(number=1).seats.get(table_number=2, wind="E").registration
    page = new_page(375, 667, is_mobile=True)
    page.goto(f"{live_server.url}/t/{tournament.slug}/players/{east.pk}/")
    page.evaluate("window.notReloaded = true")
    rounds = page.locator("table.player-rounds")
    assert "+35.0" not in rounds.inner_text()
    confirm_table(tournament, referee, 2, points=(50000, 30000, 25000, 15000))
    page.wait_for_function(
        "document.querySelector('table.player-rounds').textContent.includes('+35.0')",
        timeout=25_000,
    )
    assert "50,000" in rounds.inner_text()
    assert "Place 1" in page.locator("#player-live").inner_text()
    assert page.evaluate("window.notReloaded") is True
