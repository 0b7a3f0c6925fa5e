"""The flows a person does in a browser: rankings that update, find my seat on a phone,
projector seating and the round clock on a 1920×1080 screen."""

import datetime
import re

import pytest
from django.core.management import call_command
from django.utils import timezone

from scoring.services.round_status import round_status_change
from seating.services import substitutes_add
from tests.browser.helpers import ROUNDS_OVERHANG, SIDEWAYS, confirm_table, demo_event
from tests.conftest import (
    make_player,
    make_registration,
    make_rounds,
    make_seats,
    make_tournament,
    seat_again,
)
from tournament.demo import DEMO_SLUG
from tournament.models import Round, Tournament
from tournament.services.registrations import registration_withdraw

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_rankings_update_by_themselves_after_a_sheet_is_confirmed(
    live_server, new_page, screenshot
):
    tournament, referee = demo_event()
    confirm_table(tournament, referee, 1)
    page = new_page(1280, 700)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rankings/")
    assert page.locator("table.ranking tbody tr").count() == 36
    assert page.locator("table.ranking").get_by_text("+27.3").count() == 2  # total and round 1
    page.mouse.wheel(0, 600)
    page.wait_for_function("window.scrollY > 300")
    scroll = page.evaluate("window.scrollY")
    refreshed = page.locator("#ranking").get_attribute("data-refreshed")
    # Another table's sheet is confirmed while the page is open: no reload, no click.
    confirm_table(tournament, referee, 2, points=(50000, 30000, 25000, 15000))
    page.wait_for_function(
        "document.querySelector('table.ranking').textContent.includes('+35.0')",
        timeout=25_000,
    )
    assert page.locator("#ranking").get_attribute("data-refreshed") != refreshed
    assert page.evaluate("window.scrollY") == scroll
    assert page.locator("table.ranking").get_by_text("+27.3").count() == 2  # total and round 1
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "rankings")


@pytest.mark.django_db(transaction=True)
def test_the_ranking_draws_the_rows_of_its_json_poll(live_server, new_page):
    # The poll is the rows as JSON (a tenth of the HTML table): the script draws them as the
    # table's own cells, links, classes and search text.
    tournament, referee = demo_event()
    confirm_table(tournament, referee, 1)
    page = new_page(1280, 700)
    polled = []
    page.on("request", lambda request: polled.append(request.url))
    page.goto(f"{live_server.url}/t/{tournament.slug}/rankings/")
    page.wait_for_function("document.getElementById('ranking-status').textContent !== ''")
    # 50,000 / 30,000 / 25,000 / 15,000 → +35.0 / +5.0 / −10.0 / −30.0 (WRC 2015 §5.9.2).
    confirm_table(tournament, referee, 2, points=(50000, 30000, 25000, 15000))
    page.wait_for_function(
        "document.querySelector('table.ranking').textContent.includes('+35.0')",
        timeout=25_000,
    )
    assert any("/rankings/data/" in url for url in polled)
    assert not any("/rankings/rows/" in url for url in polled)  # the head did not change
    assert page.locator("table.ranking tbody tr").count() == 36
    top = page.locator("table.ranking tbody tr").first
    assert top.locator("td.total span.score").inner_text() == "+35.0"
    link = top.locator("td a").first
    assert re.fullmatch(rf"/t/{tournament.slug}/players/\d+/", link.get_attribute("href"))
    last = page.locator("table.ranking tbody tr", has_text="−30.0")
    assert last.locator("td.total span.score.negative").count() == 1
    # The search box still filters the drawn rows.
    page.fill("#ranking-search", link.inner_text())
    assert page.locator("table.ranking tbody tr:not([hidden])").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_ranking_stays_put_when_a_round_is_complete(live_server, new_page):
    # The last sheet of the round comes in while a player reads the middle of the ranking:
    # the round is no longer provisional and its legend goes, but the table does not move.
    tournament, referee = demo_event()
    for table in range(1, 9):
        confirm_table(tournament, referee, table)
    page = new_page(390, 844, is_mobile=True, has_touch=True)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rankings/")
    legend = page.locator(".provisional-legend")
    assert legend.is_visible()
    page.wait_for_function("document.getElementById('ranking-status').textContent !== ''")
    page.mouse.wheel(0, 500)
    page.wait_for_function("window.scrollY > 300")
    table = "document.querySelector('table.ranking').getBoundingClientRect().top"
    top = page.evaluate(table)
    confirm_table(tournament, referee, 9)
    page.wait_for_function(
        "!document.querySelector('table.ranking thead').textContent.includes('*')",
        timeout=25_000,
    )
    assert not legend.is_visible()
    assert page.evaluate(table) == top


@pytest.mark.django_db(transaction=True)
def test_rankings_stop_saying_offline_once_the_connection_is_back(live_server, new_page):
    tournament, referee = demo_event()
    confirm_table(tournament, referee, 1)
    page = new_page(390, 844, is_mobile=True, has_touch=True)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rankings/")
    status = page.locator("#ranking-status")
    page.wait_for_function("document.getElementById('ranking-status').textContent !== ''")
    updated = status.inner_text()
    assert updated.startswith("Updated")
    # The hall's Wi-Fi drops for a poll or two, then comes back; no sheet changed meanwhile,
    # so the server answers "nothing changed" (304).
    page.context.set_offline(True)
    page.wait_for_function(
        "document.getElementById('ranking-status').textContent.startsWith('Offline')",
        timeout=25_000,
    )
    page.context.set_offline(False)
    page.wait_for_function(
        "!document.getElementById('ranking-status').textContent.startsWith('Offline')",
        timeout=25_000,
    )
    assert status.inner_text() == updated  # when the ranking shown was received


@pytest.mark.django_db(transaction=True)
def test_the_total_stays_on_a_phone_screen_in_the_rankings(live_server, new_page, screenshot):
    tournament, referee = demo_event()
    confirm_table(tournament, referee, 1)
    page = new_page(390, 844, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rankings/")
    page.locator("table.ranking tbody td.total").first.wait_for()
    # Measured in one step: the page may swap in a refreshed table at any moment.
    right = page.evaluate(
        "document.querySelector('table.ranking tbody td.total').getBoundingClientRect().right"
    )
    assert right <= 390  # the total is on screen without scrolling sideways
    assert not page.locator("table.ranking th.wide-only").first.is_visible()
    # The 24-hour clock, as every English date of the site ("6:35:52 PM" before).
    page.wait_for_function("document.getElementById('ranking-status').textContent !== ''")
    assert re.fullmatch(r"Updated \d\d:\d\d:\d\d", page.inner_text("#ranking-status"))
    screenshot(page, "rankings-phone")


@pytest.mark.django_db(transaction=True)
def test_score_and_rank_stay_on_a_phone_screen_on_a_players_page(live_server, new_page, screenshot):
    tournament, referee = demo_event()
    confirm_table(tournament, referee, 1)
    east = tournament.rounds.get(number=1).seats.get(table_number=1, wind="E").registration
    page = new_page(375, 740, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(f"{live_server.url}/t/{tournament.slug}/players/{east.pk}/")
    rank = page.locator("table.player-rounds tbody td.rank").first
    assert rank.inner_text() != ""
    # On screen means inside the scrolling table's box, not only the viewport: the table
    # scrolls within the page's margins, and a rank under the edge was cut in half.
    box = rank.bounding_box()
    visible = page.locator("table.player-rounds").locator("..").bounding_box()
    assert box["x"] + box["width"] <= visible["x"] + visible["width"]
    assert not page.locator("table.player-rounds th.wide-only").first.is_visible()
    screenshot(page, "player-phone")
    page.set_viewport_size({"width": 1280, "height": 800})  # a wide screen shows every column
    assert page.locator("table.player-rounds th.wide-only").first.is_visible()


@pytest.mark.django_db(transaction=True)
def test_the_tournament_page_in_french_fits_a_phone(live_server, new_page):
    # French labels are longer and keep "Projecteur : tables" together (no-break space).
    tournament, _referee = demo_event()
    tournament.rounds.filter(number__lte=3).update(status=Round.Status.FINISHED)  # with links
    page = new_page(375, 740, is_mobile=True, extra_http_headers={"Accept-Language": "fr"})
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    assert page.get_by_role("heading", name="Rondes").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # no sideways scroll


@pytest.mark.django_db(transaction=True)
def test_find_my_seat_on_a_phone(live_server, new_page, screenshot):
    tournament, _referee = demo_event()
    page = new_page(390, 844, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(f"{live_server.url}/t/{tournament.slug}/find-my-seat/")
    page.get_by_label("Your name (or part of it)").fill("zoe")
    page.get_by_role("button", name="Find").click()
    card = page.locator(".seat-card").first
    card.wait_for()
    assert "Zoé Martin" in card.inner_text()
    assert "Table 1" in card.inner_text()
    assert "East" in card.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    font_size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.seat-where')).fontSize)"
    )
    assert font_size >= 24
    screenshot(page, "find-my-seat")


@pytest.mark.django_db(transaction=True)
def test_projector_seating_fits_a_1920_by_1080_screen(live_server, new_page, screenshot):
    tournament, _referee = demo_event()
    page = new_page(1920, 1080)
    for view, name in (("tables", "projector-tables"), ("players", "projector-players")):
        page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/projector/{view}/")
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080
        assert page.evaluate("document.documentElement.scrollWidth") <= 1920
        text = page.locator("main").inner_text()
        assert "山田太郎" in text
        assert "Zoé" in text
        screenshot(page, name)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/projector/tables/")
    assert page.locator(".seating-table").count() == 9
    font_size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.seating-table li')).fontSize)"
    )
    assert font_size >= 24  # read from across the room


@pytest.mark.django_db(transaction=True)
def test_projector_holds_144_players_with_long_names_on_a_1920_by_1080_screen(
    live_server, new_page
):
    # A large event: 36 tables, names as long as real ones get (a hyphen, a particle, a
    # Polish surname of 19 letters), so many wrap in a column an eighth of the screen wide.
    firsts = ["Valentina", "Alexander", "Małgorzata", "Jean-Baptiste", "Guðrún", "Mehmet"]
    firsts += ["Anaïs", "Christopher", "Siobhán", "Wojciech", "Thị Hương", "María del Carmen"]
    lasts = ["Hernández", "Kowalczyk", "Featherstonehaugh", "Brzęczyszczykiewicz", "Østergaard"]
    lasts += ["Nguyễn", "Papadopoulos", "van der Berg", "Schneider-Wagner", "Yılmaz", "Dubois"]
    lasts += ["Fernández de la Concepción Rodríguez-Villanueva"]
    tournament = make_tournament()
    registrations = [
        make_registration(tournament, player=make_player(first_name=first, last_name=last))
        for first in firsts
        for last in lasts
    ]
    round_ = make_rounds(tournament, 1)[0]
    make_seats(round_, registrations)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.SEATED)
    page = new_page(1920, 1080)
    for view, item in (("tables", ".seating-table"), ("players", ".seating-players li")):
        page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/projector/{view}/")
        assert page.locator(item).count() == (36 if view == "tables" else 144)
        # Nobody scrolls a screen on the wall: every table and every name is on it.
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080, view
        assert page.evaluate("document.documentElement.scrollWidth") <= 1920, view
        edges = page.evaluate(
            "(item) => [...document.querySelectorAll(item)].map(e => e.getBoundingClientRect())"
            ".reduce((m, r) => [Math.max(m[0], r.right), Math.max(m[1], r.bottom)], [0, 0])",
            item,
        )
        assert edges[0] <= 1920, view
        assert edges[1] <= 1080, view


@pytest.mark.django_db(transaction=True)
def test_projector_shows_a_round_seated_again_without_a_reload(live_server, new_page):
    tournament, _referee = demo_event()
    round_ = tournament.rounds.get(number=2)
    seat_again(round_, seed=1)
    leaving = tournament.registrations.order_by("pk").first()
    page = new_page(1920, 1080)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/2/projector/tables/")
    assert leaving.player.display_name in page.locator("main").inner_text()
    # The screen stays on the wall while a player withdraws and round 2 is seated again.
    registration_withdraw(registration=leaving, reason="Ill", acting_user=None)
    substitutes_add(tournament=tournament, count=1, acting_user=None)
    seat_again(round_, seed=2)
    page.wait_for_function(
        "document.querySelector('main').textContent.includes('Substitute 1')",
        timeout=25_000,
    )
    assert leaving.player.display_name not in page.locator("main").inner_text()
    assert page.locator(".seating-table").count() == 9


@pytest.mark.django_db(transaction=True)
def test_a_phone_on_the_seating_shows_and_says_a_round_seated_again(live_server, new_page):
    # A player looked up round 2 on their phone and left the page open: the round is seated
    # again after a withdrawal, so the seat they read may be gone.
    tournament, _referee = demo_event()
    round_ = tournament.rounds.get(number=2)
    seat_again(round_, seed=1)
    leaving = tournament.registrations.order_by("pk").first()
    page = new_page(390, 844, is_mobile=True, has_touch=True)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/2/seating/")
    assert leaving.player.display_name in page.locator("main").inner_text()
    assert page.locator("#seating-changed").inner_text() == ""
    registration_withdraw(registration=leaving, reason="Ill", acting_user=None)
    substitutes_add(tournament=tournament, count=1, acting_user=None)
    seat_again(round_, seed=2)
    page.wait_for_function(
        "document.querySelector('main').textContent.includes('Substitute 1')",
        timeout=25_000,
    )
    assert leaving.player.display_name not in page.locator("main").inner_text()
    notice = page.locator("#seating-changed").inner_text()
    assert re.fullmatch(r"This seating was changed at \d\d:\d\d: check your table again\.", notice)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.django_db(transaction=True)
def test_find_my_seat_left_open_shows_new_seats_but_not_a_round_starting(live_server, new_page):
    tournament, _referee = demo_event()
    tournament.rounds.filter(number=1).update(status=Round.Status.FINISHED)
    round_ = tournament.rounds.get(number=2)
    seat_again(round_, seed=1)
    page = new_page(390, 844, is_mobile=True, has_touch=True)
    url = f"{live_server.url}/t/{tournament.slug}/find-my-seat/?q=a"
    page.goto(url)
    cards = page.locator(".seat-results").inner_text()
    # Round 2 starts: its status line changes, the seats do not, so no notice.
    tournament.rounds.filter(number=2).update(status=Round.Status.PLAYING)
    page.wait_for_function(
        "document.querySelector('#seating-live').textContent.includes('Playing')",
        timeout=25_000,
    )
    assert page.locator("#seating-changed").inner_text() == ""
    assert page.locator(".seat-results").inner_text() == cards
    # Taken back and seated again after a withdrawal: the cards change and the page says so.
    tournament.rounds.filter(number=2).update(status=Round.Status.SEATED)
    registration_withdraw(
        registration=tournament.registrations.order_by("pk")[1], reason="Ill", acting_user=None
    )
    substitutes_add(tournament=tournament, count=1, acting_user=None)
    seat_again(round_, seed=2)
    page.wait_for_function(
        "document.getElementById('seating-changed').textContent !== ''", timeout=25_000
    )
    assert page.locator(".seat-results").inner_text() != cards
    assert "check your table again" in page.locator("#seating-changed").inner_text()


@pytest.mark.django_db(transaction=True)
def test_round_clock_counts_down_pauses_and_says_time(live_server, new_page, screenshot):
    tournament, _referee = demo_event()
    round_ = tournament.rounds.get(number=1)
    Round.objects.filter(pk=round_.pk).update(
        clock_running_since=timezone.now(), clock_elapsed_seconds=15 * 60
    )
    page = new_page(1920, 1080)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/clock/")
    clock = page.locator(".clock-time")
    page.wait_for_function(
        "/^7[45]:\\d\\d$/.test(document.querySelector('.clock-time').textContent)"
    )
    first = clock.inner_text()
    page.wait_for_timeout(1200)
    assert clock.inner_text() != first  # counts down between polls
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    screenshot(page, "clock")
    # The organiser pauses it elsewhere: this screen follows within a poll.
    Round.objects.filter(pk=round_.pk).update(
        clock_running_since=None, clock_elapsed_seconds=20 * 60
    )
    page.wait_for_function("document.querySelector('.clock-time').textContent === '70:00'")
    assert "Paused" in page.locator(".clock-status").inner_text()
    # Two seconds before the end, running: the screen shows "Time!".
    Round.objects.filter(pk=round_.pk).update(
        clock_running_since=timezone.now() - datetime.timedelta(seconds=1),
        clock_elapsed_seconds=90 * 60 - 3,
    )
    page.wait_for_function("document.querySelector('.clock-time').textContent === 'Time!'")
    assert "time-up" in page.locator("#round-clock").get_attribute("class")
    screenshot(page, "clock-time-up")


# The blank between the rankings' status line and the table's first line (its header), and
# the height of every element of the page that takes room without showing anything.
RANKING_GAP = """() => {
  const status = document.getElementById('ranking-status').getBoundingClientRect();
  const table = document.querySelector('table.ranking').getBoundingClientRect();
  const unseen = [...document.querySelectorAll('main *')]
    .filter(e => getComputedStyle(e).visibility === 'hidden')
    .map(e => e.getBoundingClientRect().height);
  return {gap: table.top - status.bottom, unseen: Math.max(0, ...unseen)};
}"""


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_the_rankings_leave_no_blank_above_the_table_on_a_phone(live_server, new_page, language):
    # With no round provisional, the legend above the table stayed there, hidden, to keep
    # the table still: two lines of blank on a phone (three in French at 320 px) between the
    # status line and the ranking. It is under the table now, and gone when there is none.
    call_command("load_demo", verbosity=0)
    page = new_page(320, 667, is_mobile=True, extra_http_headers={"Accept-Language": language})
    page.goto(f"{live_server.url}/t/{DEMO_SLUG}/rankings/")
    page.wait_for_function("document.getElementById('ranking-status').textContent !== ''")
    for width in (320, 375):
        page.set_viewport_size({"width": width, "height": 667})
        measured = page.evaluate(RANKING_GAP)
        assert measured["gap"] <= 16, (width, measured)  # the status line's margin alone
        assert measured["unseen"] == 0, (width, measured)


@pytest.mark.parametrize(("language", "over"), [("en", "Round over"), ("fr", "Ronde terminée")])
@pytest.mark.django_db(transaction=True)
def test_the_clock_stops_and_says_so_when_its_round_is_finished(
    live_server, new_page, language, over
):
    # The organiser finished the round with its clock still running: every screen in the hall
    # went on counting down to "Time!" and beeping for a round nobody played any more.
    tournament, _referee = demo_event()
    round_ = tournament.rounds.get(number=1)
    Round.objects.filter(pk=round_.pk).update(
        clock_running_since=timezone.now(), clock_elapsed_seconds=15 * 60
    )
    page = new_page(1920, 1080, extra_http_headers={"Accept-Language": language})
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/clock/")
    page.wait_for_function(
        "/^7[45]:\\d\\d$/.test(document.querySelector('.clock-time').textContent)"
    )
    polled = page.locator("#round-clock").get_attribute("data-polled")
    round_.refresh_from_db()
    round_status_change(round_=round_, status=Round.Status.FINISHED, acting_user=None)
    # Picked up by the page's next poll, without a reload.
    page.wait_for_function(
        f"document.querySelector('.clock-time').textContent === {over!r}", timeout=10_000
    )
    assert page.locator("#round-clock").get_attribute("data-polled") != polled
    page.wait_for_timeout(1200)
    assert page.locator(".clock-time").inner_text() == over  # stopped, not counting
    assert "over" in page.locator("#round-clock").get_attribute("class")
    assert page.evaluate(SIDEWAYS)["page"] == 0  # the words fit the screen's width
    # Reopened, the page says it at once.
    page.reload()
    assert page.locator(".clock-time").inner_text() == over


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_the_public_pages_need_no_sideways_scrolling_on_a_small_phone(
    live_server, new_page, language
):
    # The whole demo: three rounds of results, a chombo (a player's penalties table), a
    # substitute, teams, rounds finished (their links) and planned.
    call_command("load_demo", verbosity=0)
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    first = tournament.rounds.get(number=1)
    chombo = first.seats.get(table_number=2, wind="S").registration  # the demo's chombo
    slug = f"/t/{tournament.slug}"
    pages = [
        "/",
        f"{slug}/",
        f"{slug}/teams/",
        f"{slug}/players/{chombo.pk}/",
        f"{slug}/players/{first.seats.get(table_number=1, wind='E').registration_id}/",
        f"{slug}/find-my-seat/?q=a",
        f"{slug}/rounds/4/seating/",
        f"{slug}/rounds/4/seating/players/",
        f"{slug}/rounds/4/clock/",
        "/accounts/login/",
    ]
    page = new_page(320, 700, is_mobile=True, extra_http_headers={"Accept-Language": language})
    for width in (320, 375):
        page.set_viewport_size({"width": width, "height": 700})
        for url in pages:
            page.goto(f"{live_server.url}{url}")
            assert page.evaluate(SIDEWAYS) == {"page": 0, "boxes": []}, (width, url)
        page.goto(f"{live_server.url}{slug}/rankings/")
        assert page.evaluate(SIDEWAYS)["page"] == 0, width
        assert page.evaluate(ROUNDS_OVERHANG, "table.ranking") <= 0, width
