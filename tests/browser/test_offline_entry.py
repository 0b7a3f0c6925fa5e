"""A score sheet saved while the hall's network is down is kept on the referee's phone and
sent once the network is back, with its one-time token: never lost, never saved twice
(static/scoring/offline_keep.js, docs/score-sheets.md)."""

from uuid import UUID

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.models import SheetVersion
from tests.browser.helpers import demo_event
from tests.conftest import make_staff
from tournament.models import Tournament, TournamentStaff

pytestmark = pytest.mark.browser

# The words of templates/scoring/_offline_status.html, in each language.
NOT_SENT = {"en": "Not sent yet", "fr": "Pas encore envoyée"}
SENT = {"en": "Sent: the server received", "fr": "Envoyée : le serveur a reçu"}
# A WRC 2015 sheet: four final points adding up to 4 × 30,000 (WRC 2015 §4.1).
POINTS = (("E", "40000"), ("S", "30000"), ("W", "30000"), ("N", "20000"))
KEPT_COPIES = "() => Object.keys(localStorage).filter(key => key.startsWith('offline-keep:'))"


def open_sheet(live_server, new_page, language: str = "en"):
    """The scorer's page of round 1, table 1, its points typed; single entry, so a save
    counts at once (tests.browser.helpers.demo_event)."""
    tournament, _referee = demo_event()
    page = new_page(390, 844, extra_http_headers={"Accept-Language": language})
    log_in(page, live_server, "scorer", "pw-scorer-1")
    page.goto(live_server.url + sheet_path(tournament))
    for wind, points in POINTS:
        page.fill(f"[name={wind}_points]", points)
    return page


def log_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: reverse("login") not in url)


def sheet_path(tournament) -> str:
    return reverse("scoring:sheet", args=[tournament.slug, 1, 1])


def check(page) -> None:
    """Check, online: the server's answer is written into the page, and Save is pressed only
    once the page's scripts run again (pressed before, it would post without them)."""
    page.locator("button[value=check]").click()
    page.locator(".preview button[value=save]").wait_for()
    page.wait_for_function("document.readyState === 'complete'")


def cut_saves(page) -> None:
    """The server cannot be reached for the sheet's posts; the page itself still loads."""
    page.route(
        "**/table/1/",
        lambda route: route.abort() if route.request.method == "POST" else route.continue_(),
    )


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_a_sheet_saved_offline_is_sent_once_when_the_network_is_back(
    live_server, new_page, language
):
    page = open_sheet(live_server, new_page, language)
    token = page.locator("[name=token]").input_value()
    check(page)
    page.context.set_offline(True)
    page.locator(".preview button[value=save]").click()
    page.get_by_text(NOT_SENT[language]).wait_for()
    path = sheet_path(Tournament.objects.get())
    assert page.evaluate(KEPT_COPIES) == [f"offline-keep:{path}:{token}"]
    assert not SheetVersion.objects.exists()
    page.context.set_offline(False)  # the browser's online event sends it
    page.get_by_text(SENT[language]).wait_for()
    assert page.locator(".message-success").count() == 2  # Sent, and the server's Saved
    assert page.evaluate(KEPT_COPIES) == []
    assert list(SheetVersion.objects.values_list("token", flat=True)) == [UUID(token)]


@pytest.mark.django_db(transaction=True)
def test_a_save_whose_answer_was_lost_is_sent_again_and_kept_once(live_server, new_page):
    # The server saved the sheet but its answer never reached the phone: the phone keeps the
    # sheet and sends it again, and the server knows its token.
    page = open_sheet(live_server, new_page)
    token = page.locator("[name=token]").input_value()
    check(page)

    def answer_lost(route):
        route.fetch()
        route.abort()

    page.route(
        "**/table/1/",
        lambda route: answer_lost(route) if route.request.method == "POST" else route.continue_(),
    )
    page.locator(".preview button[value=save]").click()
    page.get_by_text(NOT_SENT["en"]).wait_for()
    assert SheetVersion.objects.filter(token=token).count() == 1
    page.unroute("**/table/1/")
    page.reload()  # the next load of the sheet sends it again
    page.get_by_text(SENT["en"]).wait_for()
    page.get_by_text("nothing was saved twice").wait_for()
    assert list(SheetVersion.objects.values_list("token", flat=True)) == [UUID(token)]
    assert page.evaluate(KEPT_COPIES) == []


@pytest.mark.django_db(transaction=True)
def test_a_sheet_not_sent_yet_is_back_in_the_form_after_a_reload(live_server, new_page):
    # The phone is reloaded while the server still cannot take the sheet's save: the page
    # comes back with what was typed and says it is not sent yet.
    page = open_sheet(live_server, new_page)
    page.fill("[name=note]", "Signed by all four")
    token = page.locator("[name=token]").input_value()
    cut_saves(page)
    page.locator("button[value=check]").click()
    page.get_by_text(NOT_SENT["en"]).wait_for()
    page.reload()
    page.get_by_text(NOT_SENT["en"]).wait_for()
    for wind, points in POINTS:
        assert page.locator(f"[name={wind}_points]").input_value() == points
    assert page.locator("[name=note]").input_value() == "Signed by all four"
    assert page.locator("[name=token]").input_value() == token
    assert page.locator(".points-sum").inner_text() == "120,000 / 120,000"  # its hint too
    assert not SheetVersion.objects.exists()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_a_sheet_kept_offline_gets_the_forms_errors_when_sent_keeping_what_was_typed(
    live_server, new_page, language
):
    page = open_sheet(live_server, new_page, language)
    page.fill("[name=E_points]", "40.000")  # a dot the server refuses, as without script
    page.context.set_offline(True)
    page.locator("button[value=check]").click()
    page.get_by_text(NOT_SENT[language]).wait_for()
    page.context.set_offline(False)
    page.get_by_text(SENT[language]).wait_for()
    assert page.locator(".field.has-error[data-name=E_points]").count() == 1
    assert page.locator("[name=E_points]").input_value() == "40.000"
    assert page.locator("[name=N_points]").input_value() == "20000"
    assert page.evaluate(KEPT_COPIES) == []
    assert not SheetVersion.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_sheet_refused_for_an_ended_session_is_kept_and_the_page_says_so(live_server, new_page):
    # The phone lost its cookies (the session ended, or Log out in another tab): the server
    # refuses the post (403), and the sheet waits on the phone for a login.
    page = open_sheet(live_server, new_page)
    check(page)
    page.context.clear_cookies()
    page.locator(".preview button[value=save]").click()
    page.get_by_text("Not sent: your session has ended").wait_for()
    assert len(page.evaluate(KEPT_COPIES)) == 1
    assert page.locator("[name=E_points]").input_value() == "40000"
    assert not SheetVersion.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_sheet_kept_for_one_official_is_never_sent_in_anothers_name(live_server, new_page):
    # A shared phone: the scorer's sheet waits on it, and another referee logs in. Sent in
    # the second referee's name, it could pass for a blind second entry of that sheet.
    page = open_sheet(live_server, new_page)
    tournament = Tournament.objects.get()
    cut_saves(page)
    page.locator("button[value=check]").click()
    page.get_by_text(NOT_SENT["en"]).wait_for()
    page.unroute("**/table/1/")
    other = get_user_model().objects.create_user("second", password="pw-second-1")
    make_staff(tournament, other, TournamentStaff.Role.REFEREE)
    page.context.clear_cookies()
    log_in(page, live_server, "second", "pw-second-1")
    page.goto(live_server.url + sheet_path(tournament))
    page.locator("[name=E_points]").wait_for()
    assert page.locator("[name=E_points]").input_value() == ""
    assert page.locator("[data-offline-status]").inner_text() == ""
    assert len(page.evaluate(KEPT_COPIES)) == 1  # still there for the scorer
    assert not SheetVersion.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_hands_saved_part_way_offline_are_sent_once_and_restored_after_a_reload(
    live_server, new_page
):
    # The hand-by-hand sheet keeps its part-way saves as the final-score sheet keeps its
    # saves. The hand typed (a tsumo by East, 3 han 30 fu) is only something to keep: no
    # score of it is checked here.
    tournament, _referee = demo_event()
    page = new_page(390, 844)
    log_in(page, live_server, "scorer", "pw-scorer-1")
    path = reverse("scoring:hands", args=[tournament.slug, 1, 1])
    page.goto(live_server.url + path)
    page.select_option("[name=hands-0-result]", "tsumo")
    page.select_option("[name=hands-0-winner]", "E")
    page.fill("[name=hands-0-han]", "3")
    page.fill("[name=hands-0-fu]", "30")
    token = page.locator("[name=token]").input_value()
    page.route(
        f"**{path}",
        lambda route: route.abort() if route.request.method == "POST" else route.continue_(),
    )
    page.locator("button[value=draft]").click()
    page.get_by_text(NOT_SENT["en"]).wait_for()
    assert page.evaluate(KEPT_COPIES) == [f"offline-keep:{path}:{token}"]
    page.reload()  # still cut off: the hand comes back, its columns shown
    page.get_by_text(NOT_SENT["en"]).wait_for()
    assert page.locator("[name=hands-0-result]").input_value() == "tsumo"
    assert page.locator("[name=hands-0-han]").is_visible()
    assert page.locator("[name=hands-0-fu]").input_value() == "30"
    assert not SheetVersion.objects.exists()
    page.unroute(f"**{path}")
    page.context.set_offline(True)
    page.context.set_offline(False)  # the browser's online event sends it
    page.get_by_text(SENT["en"]).wait_for()
    assert page.evaluate(KEPT_COPIES) == []
    version = SheetVersion.objects.get()
    assert (version.token, version.action) == (UUID(token), SheetVersion.Action.DRAFT)
