"""The organiser's side: log in, import a player list, the exports page, the clock's buttons,
undo a withdrawal; the player page."""

import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.helpers import confirm_table, demo_event
from tests.conftest import make_player, make_registration, make_tournament
from tournament.models import Player, Round

pytestmark = pytest.mark.browser


def log_in(page, base_url: str, next_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/?next={next_url}")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill("pw-organiser-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(re.escape(next_url) + "$"))


@pytest.mark.django_db(transaction=True)
def test_organiser_runs_the_round_clock_from_the_exports_page(live_server, new_page, screenshot):
    tournament, referee = demo_event()
    get_user_model().objects.create_superuser("organiser", "o@example.org", "pw-organiser-1")
    page = new_page(1280, 900)
    log_in(page, live_server.url, f"/manage/{tournament.slug}/exports/")
    assert page.get_by_role("link", name="Standings (PDF)").count() == 1
    screenshot(page, "exports")
    page.get_by_role("link", name="Clock controls").first.click()
    page.get_by_role("button", name="Start / resume").click()
    page.wait_for_function("document.querySelector('.clock-status').textContent === 'Running'")
    page.get_by_role("button", name="+5 minutes").click()
    page.wait_for_function(
        "/^9[45]:\\d\\d$/.test(document.querySelector('.clock-time').textContent)"
    )
    round_ = Round.objects.get(tournament=tournament, number=1)
    assert round_.clock_running_since is not None
    assert round_.clock_extra_seconds == 300
    page.get_by_role("button", name="Pause").click()
    page.wait_for_function("document.querySelector('.clock-status').textContent === 'Paused'")
    screenshot(page, "clock-controls")
    # Pausing again is refused with a message, and nothing changes.
    page.get_by_role("button", name="Pause").click()
    assert "not running" in page.locator(".messages").inner_text()


@pytest.mark.django_db(transaction=True)
def test_player_page_with_rank_chart(live_server, new_page, screenshot):
    tournament, referee = demo_event()
    confirm_table(tournament, referee, 1)
    zoe = tournament.registrations.get(player__first_name="Zoé")
    page = new_page(1100, 700)
    page.goto(f"{live_server.url}/t/{tournament.slug}/players/{zoe.pk}/")
    assert page.locator("h1").inner_text() == "Zoé Martin"
    assert page.locator(".rank-chart svg circle").count() == 1
    assert "+27.3" in page.locator("table.player-rounds").inner_text()
    screenshot(page, "player")


# Boxes of the title's and the object name's text, and of each object tool, in the page.
BOXES = """() => {
    const text = (element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return range.getBoundingClientRect();
    };
    const titles = [...document.querySelectorAll("#content > h1, #content > h2")].map(text);
    const tools = [...document.querySelectorAll(".object-tools a")].map(
        (link) => link.getBoundingClientRect()
    );
    return {titles, tools};
}"""


def overlaps(first: dict, second: dict) -> bool:
    return not (
        first["right"] <= second["left"]
        or second["right"] <= first["left"]
        or first["bottom"] <= second["top"]
        or second["bottom"] <= first["top"]
    )


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
@pytest.mark.django_db(transaction=True)
def test_the_tournaments_admin_buttons_stay_clear_of_its_title(
    live_server, new_page, screenshot, width, height
):
    tournament, _referee = demo_event()
    get_user_model().objects.create_superuser("organiser", "o@example.org", "pw-organiser-1")
    page = new_page(width, height)
    log_in(page, live_server.url, "/admin/")
    for language in ("en", "fr"):  # the French labels are longer: two rows at 1280 px
        page.set_extra_http_headers({"Accept-Language": language})
        page.goto(f"{live_server.url}/admin/tournament/tournament/{tournament.pk}/change/")
        boxes = page.evaluate(BOXES)
        assert len(boxes["titles"]) == 2  # "Change tournament" and the tournament's name
        assert len(boxes["tools"]) >= 5  # import, exports, score sheets, seating, history…
        for tool in boxes["tools"]:
            assert not any(overlaps(tool, title) for title in boxes["titles"]), (language, tool)
        screenshot(page, f"admin-tools-{language}-{width}")


@pytest.mark.django_db(transaction=True)
def test_the_admin_pages_ask_for_no_missing_file(live_server, new_page):
    # The browser asks for /favicon.ico unless the page names an icon: a 404 on every admin
    # page, which the console reports as a resource that failed to load.
    get_user_model().objects.create_superuser("organiser", "o@example.org", "pw-organiser-1")
    page = new_page(1280, 800)
    missing = []
    page.on("console", lambda message: message.type == "error" and missing.append(message.text))
    page.goto(f"{live_server.url}/admin/login/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill("pw-organiser-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/admin/$"))
    page.goto(f"{live_server.url}/admin/tournament/tournament/add/")
    page.wait_for_load_state("networkidle")
    assert missing == []


# A player list as a French organiser's Excel saves it ("CSV (séparateur : point-virgule)"):
# a BOM, CRLF line ends, French headers in capitals, a column the import does not read,
# spaces left around names, a blank line, and Zoé typed twice.
PLAYER_LIST = "\r\n".join(
    [
        "PRÉNOM;NOM;Pays;Club;N° EMA;ÉQUIPE;Remarques",
        "Zoé;Lefèvre ;France;Lyon Riichi Club;04010023;Lyon Riichi;payé",
        "Anders;Ångström;Suède;;;Les Vikings;",
        "太郎;山田;Japon;;;Les Vikings;végétarien",
        "",
        " Léa;Dubois;FR;Lyon Riichi Club;4010031;lyon riichi ;",
        "Zoé;Lefèvre;France;Lyon Riichi Club;04010023;Lyon Riichi;payé",
    ]
)


@pytest.mark.django_db(transaction=True)
def test_organiser_imports_a_player_list_from_a_spreadsheet(live_server, new_page, screenshot):
    tournament = make_tournament()
    get_user_model().objects.create_superuser("organiser", "o@example.org", "pw-organiser-1")
    page = new_page(1280, 900)
    log_in(page, live_server.url, f"/admin/tournament/tournament/{tournament.pk}/change/")
    page.locator(".object-tools").get_by_role("link", name="Import players").click()
    page.get_by_label("Player list").set_input_files(
        {
            "name": "inscrits.csv",
            "mimeType": "text/csv",
            "buffer": ("\ufeff" + PLAYER_LIST + "\r\n").encode(),
        }
    )
    page.get_by_role("button", name="Check the file").click()

    # The preview: four rows ready, the repeated Zoé a problem of its own line (the blank
    # line still counts), the unread column named, and nothing written yet.
    assert page.locator(".import-valid-count").inner_text() == "4 rows ready"
    assert page.locator(".import-invalid-count").inner_text() == "1 row with problems"
    assert "Column not imported: Remarques." in page.locator(".import-ignored").inner_text()
    rows = page.locator("#import-preview tbody tr")
    cells = [rows.nth(index).locator("td").all_inner_texts() for index in range(rows.count())]
    assert [row[:3] for row in cells] == [
        ["2", "Zoé", "Lefèvre"],
        ["3", "Anders", "Ångström"],
        ["4", "太郎", "山田"],
        ["6", "Léa", "Dubois"],
        ["7", "Zoé", "Lefèvre"],
    ]
    assert cells[3][5:9] == ["FR", "Lyon Riichi Club", "04010031", "Lyon Riichi"]
    assert cells[4][-1] == "Same player as row 2."
    assert page.locator("tr.import-problem").count() == 1
    screenshot(page, "import-preview")
    assert tournament.registrations.count() == 0

    page.get_by_label("Import only the rows without problems").check()
    page.get_by_role("button", name="Import", exact=True).click()
    page.wait_for_url(re.compile(rf"/tournament/{tournament.pk}/change/$"))
    assert (
        "4 players registered (0 already known). 1 row skipped."
        in page.locator(".messagelist").inner_text()
    )
    registered = {
        (r.player.first_name, r.player.last_name, r.player.country, r.team.name)
        for r in tournament.registrations.select_related("player", "team")
    }
    assert registered == {
        ("Zoé", "Lefèvre", "FR", "Lyon Riichi"),
        ("Anders", "Ångström", "SE", "Les Vikings"),
        ("太郎", "山田", "JP", "Les Vikings"),
        ("Léa", "Dubois", "FR", "Lyon Riichi"),
    }
    assert Player.objects.get(first_name="Zoé").ema_number == "04010023"


@pytest.mark.django_db(transaction=True)
def test_organiser_undoes_a_withdrawal_ticked_on_the_wrong_line(live_server, new_page):
    tournament = make_tournament()
    for first_name, last_name in (("Léa", "Dubois"), ("Tomás", "Ibáñez")):
        make_registration(
            tournament, player=make_player(first_name=first_name, last_name=last_name)
        )
    get_user_model().objects.create_superuser("organiser", "o@example.org", "pw-organiser-1")
    page = new_page(1280, 900)
    log_in(page, live_server.url, "/admin/tournament/registration/")

    def act_on(name: str, action: str, reason: str) -> str:
        row = page.locator("#result_list tbody tr", has_text=name)
        row.locator("input[name=_selected_action]").check()
        page.locator("select[name=action]").select_option(label=action)
        page.get_by_role("button", name="Go").click()
        page.get_by_label("Reason").fill(reason)
        page.get_by_role("button", name="Confirm").click()
        page.wait_for_url(re.compile(r"/admin/tournament/registration/$"))
        return page.locator(".messagelist").inner_text()

    assert act_on("Léa Dubois", "Withdraw (with a reason)", "Left") == "Withdrawn: Léa Dubois."
    page.locator("#result_list tbody tr", has_text="Léa Dubois").locator(
        "input[name=_selected_action]"
    ).check()
    page.locator("select[name=action]").select_option(label="Reinstate (with a reason)")
    page.get_by_role("button", name="Go").click()
    # The confirmation page says why the player left, to check it is the right one.
    assert "Léa Dubois" in page.locator("#content li").inner_text()
    assert "Withdrawn: Left" in page.locator("#content li").inner_text()
    page.get_by_label("Reason").fill("Wrong line ticked: Tomás Ibáñez left")
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(re.compile(r"/admin/tournament/registration/$"))
    assert page.locator(".messagelist").inner_text() == "Reinstated: Léa Dubois."
    row = page.locator("#result_list tbody tr", has_text="Léa Dubois")
    assert "Registered" in row.inner_text()
    assert act_on("Tomás Ibáñez", "Withdraw (with a reason)", "Left") == (
        "Withdrawn: Tomás Ibáñez."
    )
