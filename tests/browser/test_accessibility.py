"""What players with low vision or on a keyboard alone, and referees typing fast, need of
the pages (WCAG 2.2 AA), measured in the browser."""

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.browser.helpers import confirm_table, demo_event
from tournament.models import Round

pytestmark = pytest.mark.browser

# Colours as WCAG 2.2 measures them: an element's colour, the background around it (the
# first ancestor's background that is not transparent) and the contrast ratio of two.
COLOURS = """
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 4).map(Number);
  const luminance = ([r, g, b]) => [r, g, b]
    .map((c) => c / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const around = (element) => {
    for (let e = element.parentElement; e; e = e.parentElement) {
      const colour = rgb(getComputedStyle(e).backgroundColor);
      if (colour.length < 4 || colour[3] > 0) return colour;
    }
    return [255, 255, 255];
  };
  const ratio = (first, second) => {
    const [a, b] = [first, second].map(luminance);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  };
"""

# The contrast ratio of each matching element's border against the background around it.
BORDER_CONTRAST = (
    """(selector) => {"""
    + COLOURS
    + """
  return [...document.querySelectorAll(selector)].map((field) => [
    field.name, ratio(rgb(getComputedStyle(field).borderTopColor), around(field)),
  ]);
}"""
)

# The contrast ratio of each matching element's text against the background around it, as
# drawn: the text's colour blended into that background by its own alpha and the opacity of
# the element and its ancestors (a dimmed header dims its text).
TEXT_CONTRAST = (
    """(selector) => {"""
    + COLOURS
    + """
  return [...document.querySelectorAll(selector)].map((element) => {
    const [r, g, b, a = 1] = rgb(getComputedStyle(element).color);
    let alpha = a;
    for (let e = element; e; e = e.parentElement) alpha *= Number(getComputedStyle(e).opacity);
    const own = rgb(getComputedStyle(element).backgroundColor);
    const behind = own.length < 4 || own[3] > 0 ? own : around(element);
    const drawn = [r, g, b].map((c, i) => c * alpha + behind[i] * (1 - alpha));
    return [element.textContent.trim(), ratio(drawn, behind)];
  });
}"""
)


@pytest.mark.django_db(transaction=True)
def test_fields_stand_out_from_the_page_for_low_vision(live_server, new_page):
    # White fields on the near-white page were drawn by a 1.3:1 grey line: a player with low
    # vision could not see where to type their name. WCAG 2.2 §1.4.11: 3:1.
    tournament, referee = demo_event()
    page = new_page(390, 844)
    page.goto(f"{live_server.url}/t/{tournament.slug}/find-my-seat/")
    fields = page.evaluate(BORDER_CONTRAST, "main input")
    page.goto(f"{live_server.url}/t/{tournament.slug}/rankings/")
    fields += page.evaluate(BORDER_CONTRAST, "main input:not([type=hidden])")
    page.goto(f"{live_server.url}{reverse('login')}")
    fields += page.evaluate(BORDER_CONTRAST, "main input:not([type=hidden])")
    page.fill("#id_username", "scorer")
    page.fill("#id_password", "pw-scorer-1")
    page.click("main button[type=submit]")
    page.goto(live_server.url + reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    fields += page.evaluate(BORDER_CONTRAST, ".field :is(input:not([type=checkbox]), select)")
    assert {name for name, _ratio in fields} >= {"q", "username", "password", "E_points"}
    assert [(name, ratio) for name, ratio in fields if ratio < 3] == []


@pytest.mark.parametrize(("motion", "animation"), [("reduce", "none"), ("no-preference", "blink")])
@pytest.mark.django_db(transaction=True)
def test_time_up_blinks_only_for_who_did_not_ask_for_less_motion(
    live_server, new_page, motion, animation
):
    # "Time!" blinked for good on the hall's screen and on the staff's clock page, though
    # the system asked for reduced motion (WCAG 2.2 §2.2.2, §2.3.3).
    tournament, _referee = demo_event()
    Round.objects.filter(tournament=tournament, number=1).update(
        clock_running_since=timezone.now(), clock_elapsed_seconds=90 * 60
    )
    page = new_page(1280, 800, reduced_motion=motion)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/clock/")
    page.wait_for_function("document.querySelector('.clock-time').textContent === 'Time!'")
    assert page.eval_on_selector(".clock-time", "e => getComputedStyle(e).animationName") == (
        animation
    )


@pytest.mark.django_db(transaction=True)
def test_the_clock_tells_a_screen_reader_only_what_changes(live_server, new_page):
    # The status line ("Running", a polite live region) was written again four times a
    # second, so a screen reader on the clock page could repeat "Running" all round long.
    tournament, _referee = demo_event()
    round_ = tournament.rounds.get(number=1)
    Round.objects.filter(pk=round_.pk).update(
        clock_running_since=timezone.now(), clock_elapsed_seconds=15 * 60
    )
    page = new_page(1280, 800)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/clock/")
    status = page.locator(".clock-status")
    assert status.get_attribute("aria-live") == "polite"
    page.wait_for_function("document.querySelector('.clock-status').textContent === 'Running'")
    page.evaluate(
        """() => {
          window.statusChanges = 0;
          new MutationObserver((records) => { window.statusChanges += records.length; })
            .observe(document.querySelector('.clock-status'),
                     {childList: true, characterData: true, subtree: true});
        }"""
    )
    page.wait_for_timeout(3500)  # fourteen renders and a poll
    assert page.evaluate("window.statusChanges") == 0
    # The organiser pauses it: that is said, once.
    Round.objects.filter(pk=round_.pk).update(clock_running_since=None)
    page.wait_for_function("document.querySelector('.clock-status').textContent === 'Paused'")
    page.wait_for_timeout(1000)
    assert page.evaluate("window.statusChanges") == 1


@pytest.mark.django_db(transaction=True)
def test_a_keyboard_user_keeps_their_place_when_the_rankings_update(live_server, new_page):
    # The polled table replaced the one the focus was in: a player tabbing down the ranking
    # to their name was sent back to the top of the page by every sheet confirmed.
    tournament, referee = demo_event()
    confirm_table(tournament, referee, 1)
    page = new_page(1280, 700)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rankings/")
    page.wait_for_function("document.getElementById('ranking-status').textContent !== ''")
    link = page.locator("table.ranking tbody tr").nth(20).locator("a").first
    href = link.get_attribute("href")
    link.focus()
    refreshed = page.locator("#ranking").get_attribute("data-refreshed")
    confirm_table(tournament, referee, 2, points=(50000, 30000, 25000, 15000))
    page.wait_for_function(
        f"document.getElementById('ranking').dataset.refreshed !== '{refreshed}'",
        timeout=25_000,
    )
    assert page.evaluate("document.activeElement.getAttribute('href')") == href
    page.keyboard.press("Tab")  # and goes on from there, down the table
    assert page.evaluate("document.activeElement.closest('table.ranking') !== null")


@pytest.mark.django_db(transaction=True)
def test_links_a_player_taps_are_big_enough_targets(live_server, new_page):
    # A round's number in the seating's toolbar was a 10 x 23 px link 8 px from the next,
    # the rankings and team rankings 19 px high one above the other: hard to hit with a
    # tremor or a thumb. WCAG 2.2 §2.5.8: targets of 24 x 24 CSS px at least.
    tournament, _referee = demo_event()
    page = new_page(390, 844, is_mobile=True, has_touch=True)
    sizes = []
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/seating/")
    sizes += page.eval_on_selector_all(
        "nav.toolbar a", "links => links.map(a => [a.textContent, a.getBoundingClientRect()])"
    )
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    sizes += page.eval_on_selector_all(
        ".card-list a", "links => links.map(a => [a.textContent, a.getBoundingClientRect()])"
    )
    assert len(sizes) >= 6  # a round, by player, projector; rankings, teams, find my seat
    small = [(text, box["width"], box["height"]) for text, box in sizes]
    assert [item for item in small if min(item[1:]) < 24] == []


@pytest.mark.parametrize(
    ("language", "text"), [("en", "Skip to the content"), ("fr", "Aller au contenu")]
)
@pytest.mark.django_db(transaction=True)
def test_the_first_tab_skips_the_header(live_server, new_page, language, text):
    # A referee on the keyboard went through the brand, three links, Exports, Log out and
    # the language before each page's own links and fields.
    tournament, _referee = demo_event()
    page = new_page(390, 844, locale=language)
    page.goto(f"{live_server.url}{reverse('login')}?next=/")
    page.fill("#id_username", "scorer")
    page.fill("#id_password", "pw-scorer-1")
    page.click("main button[type=submit]")
    page.goto(live_server.url + reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    skip = page.locator(".skip-link")
    assert not skip.is_visible() or skip.bounding_box()["y"] + skip.bounding_box()["height"] <= 0
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == text
    box = skip.bounding_box()
    assert box["y"] >= 0  # seen when it has the focus
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('main') !== null")
    assert page.evaluate("document.activeElement.getAttribute('href')") == reverse(
        "scoring:round", args=[tournament.slug, 1]
    )


@pytest.mark.django_db(transaction=True)
def test_a_refused_login_says_why_where_the_focus_is(live_server, new_page):
    # The page came back with the focus in the username (its autofocus): a screen reader
    # read the field again and nothing of the refusal above it.
    demo_event()
    page = new_page(390, 844)
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "scorer")
    page.fill("#id_password", "not-the-password")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "correct username and password" in page.evaluate("document.activeElement.innerText")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "id_username"


@pytest.mark.django_db(transaction=True)
def test_time_up_is_said_to_a_screen_reader_and_the_clock_page_has_a_heading(live_server, new_page):
    # At zero the status line was emptied and the timer is not read out (aria-live off), so
    # a screen reader heard nothing at the end of the round; and the hall's clock page had
    # no heading to find it by.
    tournament, _referee = demo_event()
    Round.objects.filter(tournament=tournament, number=1).update(
        clock_running_since=timezone.now(), clock_elapsed_seconds=90 * 60
    )
    page = new_page(1280, 800)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/clock/")
    assert page.get_by_role("heading", level=1).inner_text() == f"{tournament.name} · Round 1"
    page.wait_for_function("document.querySelector('.clock-time').textContent === 'Time!'")
    status = page.locator(".clock-status")
    assert status.get_attribute("aria-live") == "polite"
    assert status.text_content() == "The round's time is up."
    assert status.bounding_box()["width"] <= 1  # said, not shown twice on the wall


@pytest.mark.django_db(transaction=True)
def test_the_language_changes_only_when_asked(live_server, new_page):
    # The language was a select that submitted on change: an arrow key on it (moving
    # through the header with the keyboard) reloaded the page in the other language.
    tournament, _referee = demo_event()
    page = new_page(390, 844)
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    assert page.get_by_role("button", name="English").get_attribute("aria-current") == "true"
    page.get_by_role("button", name="Français").focus()
    for key in ("ArrowDown", "ArrowUp", "ArrowRight"):
        page.keyboard.press(key)
    page.wait_for_timeout(500)
    assert page.evaluate("document.documentElement.lang") == "en"
    page.keyboard.press("Enter")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert page.get_by_role("button", name="Français").get_attribute("aria-current") == "true"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.django_db(transaction=True)
def test_the_seating_page_names_its_two_navigations(live_server, new_page):
    tournament, _referee = demo_event()
    page = new_page(1280, 800)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/seating/")
    assert page.get_by_role("navigation", name="Site").count() == 1
    assert page.get_by_role("navigation", name="Rounds").count() == 1


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_the_language_switch_reads_on_the_dark_projector_and_clock_pages(
    live_server, new_page, language
):
    # The wall's pages are dark and their header dimmed: "EN" was the page's ink on black
    # and "FR" the site's red, both faded further by the header's opacity (about 1.1:1 and
    # 2:1). WCAG 2.2 §1.4.3: 4.5:1 for text.
    tournament, _referee = demo_event()
    slug = f"{live_server.url}/t/{tournament.slug}/rounds/1"
    page = new_page(1920, 1080, extra_http_headers={"Accept-Language": language})
    measured = []
    for url in (f"{slug}/clock/", f"{slug}/projector/tables/", f"{slug}/projector/players/"):
        assert page.goto(url).ok, url
        measured += [
            (url, *pair) for pair in page.evaluate(TEXT_CONTRAST, ".language-switch button")
        ]
    assert {code for _url, code, _ratio in measured} == {"EN", "FR"}
    assert [row for row in measured if row[2] < 4.5] == []
