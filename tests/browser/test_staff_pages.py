"""The staff pages on a referee's phone at a live event: every page a referee, a head referee
or an organiser opens outside the admin fits 320 and 375 px in English and French, its
controls big enough to tap, and a whole score sheet can be typed and saved on it."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from scoring.demo import DEMO_OFFICIALS
from scoring.entries import SheetEntry
from scoring.models import ScoreSheet
from scoring.services.penalties import penalty_cancel, penalty_give
from tests.browser.helpers import ROUNDS_OVERHANG, SIDEWAYS
from tests.conftest import confirm_sheet, make_staff
from tournament.demo import DEMO_SLUG
from tournament.models import Tournament, TournamentStaff

pytestmark = pytest.mark.browser

# The controls on screen that a finger cannot use: smaller than 24 × 24 px (WCAG 2.2
# §2.5.8, target size minimum) or reaching past the screen's edges. A checkbox is tapped
# by its label, so the label is the target.
UNUSABLE_CONTROLS = """() => [...document.querySelectorAll(
    'input:not([type=hidden]):not([type=checkbox]), select, textarea, button, '
    + 'label:has(> input[type=checkbox])')]
  .filter(e => e.getClientRects().length)
  .filter(e => {
    const r = e.getBoundingClientRect();
    return r.width < 24 || r.height < 24 || r.left < 0
      || r.right > document.documentElement.clientWidth;
  })
  .map(e => e.name || e.textContent.trim())"""

(REFEREE, REFEREE_PASSWORD), (HEAD, HEAD_PASSWORD) = (
    (username, password) for _label, username, _role, password in DEMO_OFFICIALS
)


def demo_at_the_tables() -> Tournament:
    """The whole demo (three rounds scored: a tie, a chombo, a late player, a substitute),
    and in round 4 a disputed sheet, a sheet awaiting confirmation, a penalty that can be
    cancelled and one that was."""
    call_command("load_demo", verbosity=0)
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    users = get_user_model().objects.in_bulk([REFEREE, HEAD], field_name="username")
    fourth = tournament.rounds.get(number=4)
    # Two officials' entries that differ: the table is disputed. Both add up to 4 × 30 000
    # (docs/rules.md §7.4 item 4); the first is WRC 2015 §5.9.2's example.
    confirm_sheet(fourth, 2, users[REFEREE], (42300, 31000, 27700, 19000))
    confirm_sheet(fourth, 2, users[HEAD], (41300, 32000, 27700, 19000))
    confirm_sheet(fourth, 3, users[REFEREE])
    # Penalty points at the referee's discretion, as for a phone ringing
    # (WRC 2015 §7.1, §7.2).
    for reason in ("Phone rang during the hand", "Slow play, twice warned"):
        penalty = penalty_give(
            registration=fourth.seats.get(table_number=4, wind="E").registration,
            points=Decimal(5),
            reason=reason,
            round_=fourth,
            acting_user=users[HEAD],
        )
    penalty_cancel(penalty=penalty, reason="Warned only", acting_user=users[HEAD])
    return tournament


def log_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("[name=username]", username)
    page.fill("[name=password]", password)
    page.locator("main button[type=submit]").tap()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def assert_fits(page, where) -> None:
    assert page.evaluate(SIDEWAYS) == {"page": 0, "boxes": []}, where
    assert page.evaluate(UNUSABLE_CONTROLS) == [], where


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_the_staff_pages_fit_a_small_phone(live_server, new_page, language):
    tournament = demo_at_the_tables()
    east = tournament.rounds.get(number=1).seats.get(table_number=1, wind="E")
    penalised = tournament.rounds.get(number=4).seats.get(table_number=4, wind="E").registration
    cancellable = penalised.penalties.get(cancelled_at__isnull=True)
    organiser = get_user_model().objects.create_user("organiser-phone", password="pw-org-1")
    make_staff(tournament, organiser, TournamentStaff.Role.ORGANISER)
    scoring = f"/manage/{tournament.slug}/scoring"
    # The demo's round 1: table 1 a tie, table 2 a chombo; round 2 table 1 a late player;
    # round 3 table 1 a substitute.
    referee_pages = [
        f"{scoring}/",
        f"{scoring}/round/1/",
        f"{scoring}/round/4/",
        f"{scoring}/round/1/table/1/",
        f"{scoring}/round/1/table/2/",
        f"{scoring}/round/2/table/1/",
        f"{scoring}/round/3/table/1/",
        f"{scoring}/round/3/table/1/history/",
        f"{scoring}/round/4/table/1/",
        f"{scoring}/round/4/table/2/",
        f"{scoring}/round/4/table/3/",
    ]
    head_pages = [
        f"{scoring}/penalties/",
        f"{scoring}/penalties/?player={penalised.pk}",
        f"{scoring}/penalties/{cancellable.pk}/cancel/",
        f"{scoring}/players/{east.registration_id}/disqualify/",
        f"{scoring}/round/4/table/2/",
        f"{scoring}/round/4/table/2/correct/",
        f"{scoring}/round/4/table/3/",
        f"{scoring}/round/3/table/1/correct/",
        f"{scoring}/round/3/table/1/correct/hands/",
        f"/manage/{tournament.slug}/seating/rounds/1/winds/",
        f"/manage/{tournament.slug}/seating/rounds/1/winds/table/1/",
    ]
    organiser_pages = [
        f"/manage/{tournament.slug}/rounds/4/clock/",
        f"/manage/{tournament.slug}/exports/",
    ]
    for username, password, pages in (
        (REFEREE, REFEREE_PASSWORD, referee_pages),
        (HEAD, HEAD_PASSWORD, head_pages),
        ("organiser-phone", "pw-org-1", organiser_pages),
    ):
        page = new_page(
            320,
            700,
            is_mobile=True,
            has_touch=True,
            extra_http_headers={"Accept-Language": language},
        )
        log_in(page, live_server, username, password)
        for width in (320, 375):
            page.set_viewport_size({"width": width, "height": 700})
            for url in pages:
                page.goto(f"{live_server.url}{url}")
                assert_fits(page, (username, width, url))
            # The standings keep one column per round scrolling beside place, player and
            # total, as the public rankings do.
            page.goto(f"{live_server.url}{scoring}/standings/")
            assert page.evaluate(SIDEWAYS)["page"] == 0, (username, width)
            assert page.evaluate(ROUNDS_OVERHANG, "table.standings") <= 0, (username, width)
            assert page.evaluate(UNUSABLE_CONTROLS) == [], (username, width)
        page.context.close()
    # Hand by hand: each result shows its own boxes (riichi, tenpai, ron called by…).
    page = new_page(
        320, 700, is_mobile=True, has_touch=True, extra_http_headers={"Accept-Language": language}
    )
    log_in(page, live_server, REFEREE, REFEREE_PASSWORD)
    for width in (320, 375):
        page.set_viewport_size({"width": width, "height": 700})
        page.goto(f"{live_server.url}{scoring}/round/4/table/1/hands/")
        page.select_option("[name=hands-0-result]", "ron")
        page.select_option("[name=hands-1-result]", "draw")
        assert page.locator("[name=hands-1-tenpai]").first.is_visible()
        assert_fits(page, ("hands", width))


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_a_referee_types_a_whole_sheet_on_a_375_px_phone(live_server, new_page, language):
    tournament = demo_at_the_tables()
    fourth = tournament.rounds.get(number=4)
    substitute = tournament.registrations.get(is_substitute=True)
    page = new_page(
        375, 740, is_mobile=True, has_touch=True, extra_http_headers={"Accept-Language": language}
    )
    log_in(page, live_server, REFEREE, REFEREE_PASSWORD)
    sheet = f"{live_server.url}/manage/{tournament.slug}/scoring/round/4/table/1/"
    page.goto(sheet)
    assert_fits(page, "empty sheet")
    # A slip first: the four points add up to 100 too many (4 × 30 000 with no riichi
    # stick left, docs/rules.md §7.4 item 4; WRC 2015 §5.9.2's example).
    typed = {"E": "42300", "S": "31000", "W": "27700", "N": "19100"}
    for wind, points in typed.items():
        page.locator(f"[name={wind}_points]").tap()
        page.keyboard.type(points)
    page.locator("button[value=check]").tap()
    page.locator(".errorlist").first.wait_for()
    assert_fits(page, "sheet with errors")
    page.locator("[name=N_points]").fill("19000")
    # South 5 minutes late (1 point a minute, WRC 2015 §7.2); West absent, the
    # substitute plays the seat (WRC 2015 §7.2).
    page.locator("[name=S_late]").fill("5")
    page.select_option("[name=W_substitute]", str(substitute.pk))
    page.locator("[name=note]").tap()
    page.keyboard.type("Signed by all four")
    page.locator("button[value=check]").tap()
    page.locator(".preview table.results").wait_for()
    assert substitute.player.display_name in page.locator(".preview").inner_text()
    assert_fits(page, "checked sheet")
    page.locator(".preview button[value=save]").tap()  # beside what was checked
    page.locator(".message-success").wait_for()
    saved = ScoreSheet.objects.get(round=fourth, table_number=1)
    assert saved.status == ScoreSheet.Status.ENTERED
    seats = {seat.wind: seat.registration_id for seat in fourth.seats.filter(table_number=1)}
    entry = SheetEntry.from_data(saved.current.kind, saved.current.data)
    by_player = {seat.registration_id: seat for seat in entry.seats}
    assert by_player[seats["E"]].points == 42300
    assert by_player[seats["N"]].points == 19000
    assert by_player[seats["S"]].late_minutes == 5
    assert by_player[seats["W"]].substitute_id == substitute.pk
    assert entry.note == "Signed by all four"
    assert_fits(page, "saved sheet")
    # Another official saves table 5 while this one checks it: the save shows what is saved
    # now above the input, which is kept.
    page.goto(sheet.replace("/table/1/", "/table/5/"))
    # 4 × 30 000 again (docs/rules.md §7.4 item 4), another sheet than the one typed here.
    for wind, points in (("E", "40000"), ("S", "30000"), ("W", "30000"), ("N", "20000")):
        page.locator(f"[name={wind}_points]").fill(points)
    page.locator("button[value=check]").tap()
    page.locator(".preview button[value=save]").wait_for()
    head = get_user_model().objects.get(username=HEAD)
    confirm_sheet(fourth, 5, head)
    page.locator(".preview button[value=save]").tap()
    page.locator(".conflict table.results").wait_for()
    assert page.locator("[name=E_points]").input_value() == "40000"
    assert_fits(page, "conflict")


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_the_login_fields_are_a_finger_wide_and_keep_the_page_still(
    live_server, new_page, language
):
    # An official logs in on a phone at the table, again when the session ended while they
    # typed a sheet. Text under 16 px in a field makes a phone's browser zoom in on it (iOS
    # Safari), and a field under 24 px is no target (WCAG 2.2 §2.5.8).
    page = new_page(
        375, 700, is_mobile=True, has_touch=True, extra_http_headers={"Accept-Language": language}
    )
    for width in (320, 375):
        page.set_viewport_size({"width": width, "height": 700})
        page.goto(f"{live_server.url}/accounts/login/")
        assert_fits(page, ("login", width))
        sizes = page.eval_on_selector_all(
            "main input:not([type=hidden])",
            "fields => fields.map(f => parseFloat(getComputedStyle(f).fontSize))",
        )
        assert sizes == [16, 16], width
