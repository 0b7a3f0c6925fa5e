"""A referee enters a sheet on a phone-sized screen (Playwright on Debian's chromium)."""

import os

import pytest
from django.conf import settings
from django.db import connections
from django.urls import reverse

from scoring.models import ScoreSheet
from tests.chromium import launch, require_chromium
from tests.conftest import make_registrations, make_rounds, make_staff, make_tournament
from tests.scoring.conftest import Role, seat_round

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = pytest.mark.browser


@pytest.fixture
def phone():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.set_default_timeout(15_000)
        yield context
        browser.close()
        # ORM calls made while Playwright's loop runs use their own connection: close it,
        # or PostgreSQL refuses to drop the test database at the end.
        connections.close_all()


@pytest.fixture
def referee_page(phone, live_server, client, transactional_db, django_user_model):
    """A referee of a one-table, single-entry tournament, logged in on the phone."""
    tournament = make_tournament(confirmation_policy="single")
    registrations = make_registrations(tournament, 4)
    (round_,) = make_rounds(tournament, 1)
    seat_round(round_, registrations)
    referee = django_user_model.objects.create_user("table-referee")
    make_staff(tournament, referee, Role.REFEREE)
    client.force_login(referee)
    phone.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return phone.new_page(), tournament


def test_a_referee_checks_then_saves_a_sheet_on_a_phone(referee_page, live_server):
    page, tournament = referee_page
    page.goto(live_server.url + reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    for wind, points in zip("ESWN", ("42300", "31000", "27700", "18000"), strict=True):
        page.fill(f"#id_{wind}_points", points)
    assert page.inner_text(".points-sum") == "119,000 / 120,000"  # the hint while typing
    page.click("button[value=check]")
    assert "must add up to 120,000" in page.inner_text(".errorlist")
    assert page.input_value("#id_N_points") == "18000"  # kept
    page.fill("#id_N_points", "19000")
    page.click("button[value=check]")
    assert "+27.3" in page.inner_text(".preview")
    assert "42,300" in page.inner_text(".preview")  # grouped like the sum and the message
    page.click("button[value=save]")
    assert "Saved and confirmed" in page.inner_text(".messages")
    assert ScoreSheet.objects.get().status == ScoreSheet.Status.CONFIRMED


def test_the_hint_does_not_add_up_points_typed_with_a_thousands_separator(
    referee_page, live_server
):
    # "38.000" is 38 000 at a table; the hint read it as 38 and showed a sum of 82,038.
    page, tournament = referee_page
    page.goto(live_server.url + reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    for wind, points in zip("ESWN", ("42000", "31000", "9000", "38.000"), strict=True):
        page.fill(f"#id_{wind}_points", points)
    message = "Enter the final points without a dot or comma: 25000, not 25.000."
    assert page.inner_text(".points-sum") == message
    assert "status-disputed" in page.get_attribute(".points-sum", "class")
    page.fill("#id_N_points", "38000")
    # 120 000 = 4 × 30 000 start points under WRC (docs/rules.md §7.4 item 4).
    assert page.inner_text(".points-sum") == "120,000 / 120,000"
    assert "status-confirmed" in page.get_attribute(".points-sum", "class")


def test_the_hint_groups_the_points_like_the_check_in_french(referee_page, live_server):
    page, tournament = referee_page
    page.set_extra_http_headers({"Accept-Language": "fr"})
    page.goto(live_server.url + reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    for wind, points in zip("ESWN", ("42300", "31000", "27700", "18000"), strict=True):
        page.fill(f"#id_{wind}_points", points)
    # 120 000 = 4 × 30 000 start points under WRC (docs/rules.md §7.4 item 4).
    assert page.inner_text(".points-sum") == "119\xa0000 / 120\xa0000"
    page.click("button[value=check]")
    assert "120\xa0000" in page.inner_text(".errorlist")


def test_the_check_shows_every_score_on_a_small_phone_in_french(referee_page, live_server):
    # The score column was under the edge of the check's table ("+24," for +24,3): the one
    # number the referee compares with the paper sheet.
    page, tournament = referee_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.set_extra_http_headers({"Accept-Language": "fr"})
    page.goto(live_server.url + reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    # WRC 2015 §5.9.2's example final scores (42 300 / 31 000 / 27 700 / 19 000).
    for wind, points in zip("ESWN", ("42300", "31000", "27700", "19000"), strict=True):
        page.fill(f"#id_{wind}_points", points)
    page.fill("#id_E_late", "3")
    page.fill("#id_S_chombo", "1")
    page.click("button[value=check]")
    page.wait_for_load_state()  # measured once the new page's style sheets apply
    score = page.locator(".preview table.results th").last.bounding_box()
    visible = page.locator(".preview table.results").locator("..").bounding_box()
    assert score["x"] + score["width"] <= visible["x"] + visible["width"]


def _submit(page, selector: str) -> None:
    """Press a button of the sheet's form and wait for the server's answer: the page's script
    sends the form and writes the answer in (static/scoring/offline_keep.js), so the click
    returns before the new page is there."""
    with page.expect_navigation():
        page.click(selector)


def test_a_referee_enters_a_double_ron_hand_by_hand_on_a_phone(referee_page, live_server):
    page, tournament = referee_page
    page.goto(live_server.url + reverse("scoring:hands", args=[tournament.slug, 1, 1]))
    # Only the columns of the chosen result show (the engine's list): a blank row is short
    assert not page.is_visible("#id_hands-0-han")
    page.select_option("#id_hands-0-result", "draw")
    assert page.is_visible("#id_hands-0-tenpai")
    assert not page.is_visible("#id_hands-0-han")
    page.select_option("#id_hands-0-result", "tsumo")
    assert page.is_visible("#id_hands-0-han")
    assert not page.is_visible("#id_hands-0-loser")  # a tsumo has no discarder
    page.select_option("#id_hands-0-result", "ron")
    assert page.is_visible("#id_hands-0-han")
    assert not page.is_visible("#id_hands-0-tenpai")
    page.select_option("#id_hands-0-winner", "S")
    page.select_option("#id_hands-0-loser", "W")
    page.fill("#id_hands-0-han", "2")
    page.fill("#id_hands-0-fu", "30")
    page.check("#id_hands-0-ron_claimants input[value=S]")
    page.check("#id_hands-0-ron_claimants input[value=N]")
    _submit(page, "button[value=check]")
    # WRC 2015 §5.4.1, §5.7.6 (head bump): after W's discard N plays before S
    assert "North is first in turn order" in page.inner_text(".hand .errorlist")
    assert page.is_checked("#id_hands-0-ron_claimants input[value=N]")  # kept
    page.select_option("#id_hands-0-winner", "N")
    _submit(page, "button[value=check]")
    # One hand is not a whole game: saved as finished only with the time marked up
    # (WRC 2015 §8.2), the box tapped by its label
    assert "The game is not over after hand 1" in page.inner_text(".hand .errorlist")
    page.locator("label.check", has_text="The time was up").click()
    _submit(page, "button[value=check]")
    _submit(page, "button[value=save]")
    assert "Saved and confirmed" in page.inner_text(".messages")
    seats = ScoreSheet.objects.get().current.data["seats"]
    # 2 han 30 fu by a non-dealer: 2 000 from the discarder (docs/rules.md §6.2)
    assert [seat["points"] for seat in seats] == [30000, 30000, 28000, 32000]


def test_at_the_gong_check_says_first_what_is_missing_then_saves_from_the_top(
    referee_page, live_server
):
    # Hands saved part-way, one more typed at the gong: the page Check shows again starts
    # with the hands so far and the sheet's rows, screens long on a phone. What Check found
    # (one hand is not a WRC hanchan, which goes on to South 4: WRC 2015 §5.8) is on the
    # first screen, and its line leads to the hand.
    page, tournament = referee_page
    page.goto(live_server.url + reverse("scoring:hands", args=[tournament.slug, 1, 1]))
    page.select_option("#id_hands-0-result", "draw")
    _submit(page, "button[value=draft]")
    page.select_option("#id_hands-1-result", "tsumo")
    page.select_option("#id_hands-1-winner", "S")
    page.fill("#id_hands-1-han", "1")
    page.fill("#id_hands-1-fu", "30")
    _submit(page, "button[value=check]")
    problem = page.locator(".problems a", has_text="Hand 2: The game is not over after hand 2")
    box = problem.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= page.viewport_size["height"]  # on the first screen
    problem.click()
    assert page.evaluate("location.hash") == "#hand-2"
    hand = page.locator("#hand-2").bounding_box()
    assert -1 < hand["y"] < page.viewport_size["height"]  # scrolled to it
    # The gong ended the game (WRC 2015 §8.2): the box, Check, and the result is saved from
    # beside the check, on the first screen, not from the foot of every hand and seat.
    page.locator("label.check", has_text="The time was up").click()
    _submit(page, "#sheet-form button[value=check]")
    page.wait_for_load_state()  # measured once the page has placed itself, not mid-load
    save = page.locator(".preview button[value=save]")
    assert save.inner_text() == "Finish and save"
    box = save.bounding_box()
    assert box is not None
    # (the page came back scrolled to #hand-2, the link's, the Save 900 px above the screen)
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= page.viewport_size["height"]
    _submit(page, ".preview button[value=save]")
    assert "Saved and confirmed" in page.inner_text(".messages")
    assert ScoreSheet.objects.get().current.data["hands"][-1]["time_up"] is True


def test_a_hands_seat_boxes_are_named_by_their_column_for_a_screen_reader(
    referee_page, live_server
):
    # Each column of boxes (riichi, tenpai, ron called by) had a label for no field: a
    # screen reader heard "East, check box" four times a column without the column's name.
    page, tournament = referee_page
    page.goto(live_server.url + reverse("scoring:hands", args=[tournament.slug, 1, 1]))
    page.select_option("#id_hands-0-result", "ron")
    hand = page.locator("#hand-1")
    for column in ("Riichi", "Ron called by"):
        group = hand.get_by_role("group", name=column, exact=True)
        assert group.get_by_role("checkbox", name="East").count() == 1
    page.select_option("#id_hands-0-result", "draw")
    group = hand.get_by_role("group", name="Tenpai", exact=True)
    assert group.get_by_role("checkbox").count() == 4
    # …and the name still reads as the column's heading, above its boxes, in the label's type.
    legend = hand.locator("[data-name=tenpai] legend")
    assert legend.evaluate("e => getComputedStyle(e).fontSize") == "14.4px"
    box = hand.locator("[data-name=tenpai] input").first.bounding_box()
    assert legend.bounding_box()["y"] + legend.bounding_box()["height"] <= box["y"]


def test_check_after_an_errors_link_shows_the_check_not_the_seat(referee_page, live_server):
    page, tournament = referee_page
    page.goto(live_server.url + reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    # WRC 2015 §5.9.2's example, North's points left out
    for wind, points in zip("ESW", ("42300", "31000", "27700"), strict=True):
        page.fill(f"#id_{wind}_points", points)
    page.click("button[value=check]")
    page.click(".problems a")
    assert page.evaluate("location.hash") == "#seat-N"
    page.fill("#id_N_points", "19000")
    page.click("#sheet-form button[value=check]")
    # The check's Save on the first screen, not 840 px above a page scrolled to North
    box = page.locator(".preview button[value=save]").bounding_box()
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= page.viewport_size["height"]


def _tab_to(page, element_id: str) -> None:
    """Tab, as a keyboard user does, until the field has the focus."""
    for _step in range(40):
        if page.evaluate("document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def test_a_sheet_is_checked_and_saved_with_the_keyboard_alone(referee_page, live_server):
    # Check reloaded the page with the focus at its top: a keyboard or screen-reader user was
    # told nothing of the result and had to Tab through the header to the errors or Save.
    page, tournament = referee_page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(live_server.url + reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    # WRC 2015 §5.9.2's example, North's points left out; Enter is the form's Check.
    for wind, points in zip("ESW", ("42300", "31000", "27700"), strict=True):
        _tab_to(page, f"id_{wind}_points")
        page.keyboard.type(points)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "problems" in page.evaluate("document.activeElement.className")
    assert "North · Final points" in page.evaluate("document.activeElement.innerText")
    page.keyboard.press("Tab")  # the error's link leads to North's seat
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#seat-N"
    _tab_to(page, "id_N_points")
    page.keyboard.type("19000")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.innerText") == "Check against the paper sheet"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.value") == "save"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "Saved and confirmed" in page.inner_text(".messages")
    assert ScoreSheet.objects.get().status == ScoreSheet.Status.CONFIRMED


def test_the_running_sum_is_not_read_out_at_each_digit(referee_page, live_server):
    # The sum under the seats is an <output>, a polite live region: a referee with a screen
    # reader heard "4 / 120,000", "42 / 120,000", "423 / 120,000"… after each digit typed.
    page, tournament = referee_page
    page.goto(live_server.url + reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    page.fill("#id_E_points", "42300")
    session = page.context.new_cdp_session(page)
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": "output.points-sum"})
    (output,) = session.send("Accessibility.getPartialAXTree", {**node, "fetchRelatives": False})[
        "nodes"
    ]
    live = {prop["name"]: prop["value"].get("value") for prop in output.get("properties", [])}
    assert live.get("live", "off") == "off"
    assert page.inner_text(".points-sum") == "42,300 / 120,000"  # still shown, and read on demand
