"""A table's players on a phone: the QR code of their table card opens their table's page,
they report the result, and an official confirms it; two different reports dispute it."""

import pytest
from django.contrib.auth import get_user_model

from scoring.models import ScoreSheet, SheetVersion
from scoring.table_keys import table_path
from tests.browser.test_staff_pages import log_in
from tests.conftest import make_registrations, make_rounds, make_staff, make_tournament
from tests.scoring.conftest import seat_round, table_registrations
from tournament.models import Tournament, TournamentStaff

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

Status = ScoreSheet.Status
# WRC 2015 §5.9.2's example: four final scores adding up to 4 × 30,000.
POINTS = {"E": "42300", "S": "31000", "W": "27700", "N": "19000"}


def _event():
    tournament = make_tournament(confirmation_policy=Tournament.ConfirmationPolicy.SINGLE)
    registrations = make_registrations(tournament, 8)
    round_ = make_rounds(tournament, 1)[0]
    seat_round(round_, registrations)
    referee = get_user_model().objects.create_user("referee", password="pw-referee-1")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    return tournament, round_


def _phone(new_page):
    return new_page(375, 740, is_mobile=True, has_touch=True)


def _report(page, points: dict[str, str]) -> None:
    for wind, value in points.items():
        page.locator(f"[name={wind}_points]").fill(value)
    page.locator("button[value=check]").tap()
    page.locator(".preview button[value=save]").tap()


def test_a_table_reports_on_a_phone_and_an_official_confirms(live_server, new_page):
    tournament, round_ = _event()
    players = table_registrations(round_, 1)
    page = _phone(new_page)
    page.goto(f"{live_server.url}{table_path(round_, 1)}")  # what the card's QR code opens
    names = page.locator(".seat-names").inner_text()
    assert all(registration.player.display_name in names for registration in players)
    # A slip first: 100 points too many. The referee form's error, the input kept.
    for wind, value in {**POINTS, "N": "19100"}.items():
        page.locator(f"[name={wind}_points]").tap()
        page.keyboard.type(value)
    page.locator("[name=note]").fill("Signed by all four")
    page.locator("button[value=check]").tap()
    page.locator(".problems").wait_for()
    assert page.locator("[name=N_points]").input_value() == "19100"
    assert page.locator("[name=note]").input_value() == "Signed by all four"
    page.locator("[name=N_points]").fill("19000")
    page.locator("button[value=check]").tap()
    page.locator(".preview button[value=save]").tap()
    page.locator(".message-success").wait_for()
    assert page.locator(".current table.results").is_visible()  # the players see it
    sheet = ScoreSheet.objects.get(round=round_, table_number=1)
    assert sheet.status == Status.ENTERED  # single entry, yet a report never counts alone
    official = _phone(new_page)
    log_in(official, live_server, "referee", "pw-referee-1")
    official.goto(f"{live_server.url}/manage/{tournament.slug}/scoring/round/1/table/1/")
    official.locator(".current form button.primary").tap()
    official.locator(".message-success").wait_for()
    sheet.refresh_from_db()
    assert sheet.status == Status.CONFIRMED
    assert sheet.current.entered_by is None


def test_two_different_reports_make_the_table_disputed(live_server, new_page):
    _tournament, round_ = _event()
    url = f"{live_server.url}{table_path(round_, 1)}"
    first, second = _phone(new_page), _phone(new_page)
    first.goto(url)
    second.goto(url)
    _report(first, POINTS)
    first.locator(".message-success").wait_for()
    second.reload()  # the second phone saw the first report, and reports what it signed
    _report(second, {**POINTS, "W": "19000", "N": "27700"})
    second.locator(".message-warning").wait_for()
    assert ScoreSheet.objects.get(round=round_, table_number=1).status == Status.DISPUTED
    assert second.locator(".badge.status-disputed").is_visible()


def test_a_table_calls_a_referee_who_resolves_it_from_the_queue(live_server, new_page):
    tournament, round_ = _event()
    official = _phone(new_page)
    log_in(official, live_server, "referee", "pw-referee-1")
    official.goto(f"{live_server.url}/manage/{tournament.slug}/scoring/calls/")
    official.get_by_text("No table is calling a referee.").wait_for()
    table = _phone(new_page)
    table.goto(f"{live_server.url}{table_path(round_, 2)}")
    table.locator("[name=E_points]").fill("42300")  # half-way through the report
    table.locator("[name=reason]").fill("Wrong tile count")
    table.locator("button.call-referee").tap()
    table.locator(".message-success").wait_for()
    assert table.locator("[name=E_points]").input_value() == "42300"  # nothing typed lost
    table.locator("button.call-referee").tap()  # a second tap: still one call
    table.locator(".message-success").wait_for()
    # The queue, left open, shows the call by itself (its poll) and sounds for it.
    card = official.locator("[data-call]")
    card.wait_for(timeout=30_000)
    assert "Wrong tile count" in card.inner_text()
    assert card.count() == 1
    assert official.locator("[data-live]").get_attribute("data-chimed")
    official.get_by_role("button", name="Take").tap()
    official.get_by_text("Taken by referee").wait_for()
    official.get_by_role("button", name="Resolved").tap()
    official.get_by_text("No table is calling a referee.").wait_for()


def test_a_report_typed_without_network_is_sent_once_when_it_is_back(live_server, new_page):
    # The hall's wifi drops as the players report: the result stays on the phone, then
    # arrives once, whatever the retries (static/scoring/offline_keep.js).
    _tournament, round_ = _event()
    page = _phone(new_page)
    page.goto(f"{live_server.url}{table_path(round_, 1)}")
    token = page.locator("[name=token]").input_value()
    for wind, value in POINTS.items():
        page.locator(f"[name={wind}_points]").fill(value)
    page.locator("button[value=check]").tap()
    page.locator(".preview button[value=save]").wait_for()
    page.wait_for_function("document.readyState === 'complete'")
    page.context.set_offline(True)
    page.locator(".preview button[value=save]").tap()
    page.get_by_text("Not sent yet").wait_for()
    assert not SheetVersion.objects.exists()
    page.context.set_offline(False)  # the browser's online event sends it
    page.get_by_text("Sent: the server received").wait_for()
    (version,) = SheetVersion.objects.all()
    assert str(version.token) == token
    assert version.entered_by is None  # the players' report
    assert version.sheet.status == Status.ENTERED
