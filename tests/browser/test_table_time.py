"""The head referee gives one table extra time in the browser: the hall's clock lists it with
its own end, and that table's hand-by-hand sheet counts the time as up only then (WRC 2015
§8.2), while the other tables' sheets tick the box at the round's end."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.browser.helpers import demo_event
from tests.browser.test_staff_pages import log_in
from tests.conftest import make_staff
from tournament.models import Round, Tournament, TournamentStaff

pytestmark = pytest.mark.browser


def head_referee_at_the_tables(live_server, new_page) -> tuple[Tournament, object]:
    """The demo event (round 1 playing) and a page logged in as its head referee."""
    tournament, _referee = demo_event()
    head = get_user_model().objects.create_user("head", password="pw-head-123")
    make_staff(tournament, head, TournamentStaff.Role.HEAD_REFEREE)
    page = new_page(1280, 800, has_touch=True)
    log_in(page, live_server, "head", "pw-head-123")
    return tournament, page


@pytest.mark.django_db(transaction=True)
def test_extra_time_is_shown_on_the_clock_and_used_by_the_sheet(live_server, new_page):
    tournament, page = head_referee_at_the_tables(live_server, new_page)
    # The round's time was up a minute ago.
    started = timezone.now()
    Round.objects.filter(tournament=tournament, number=1).update(
        clock_running_since=started,
        clock_elapsed_seconds=tournament.round_minutes * 60 + 60,
    )
    page.goto(f"{live_server.url}/manage/{tournament.slug}/rounds/1/clock/")
    form = page.locator("#table-time-form")
    form.get_by_label("Table").select_option("2")
    form.get_by_label("Extra minutes").fill("10")
    form.get_by_label("Reason").fill("Long dispute over a chombo")
    form.get_by_role("button", name="Grant the extra time").click()
    page.get_by_text("Table 2 was given extra time.").wait_for()
    assert "Table 2: +10 min · Long dispute over a chombo" in page.inner_text(".table-time")

    hall = new_page(1920, 1080)
    hall.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/clock/")
    listed = hall.locator(".clock-tables li")
    listed.first.wait_for()
    zone = ZoneInfo(tournament.time_zone)
    # Ten minutes more for a round that was up a minute before the clock was set: the table's
    # end is fixed by that moment, however long the pages took to load.
    ends = (started.astimezone(zone) + datetime.timedelta(minutes=9)).strftime("%H:%M")
    assert listed.count() == 1
    assert listed.inner_text() == f"Table 2 · +10 min · ends at {ends}"

    page.goto(f"{live_server.url}/manage/{tournament.slug}/scoring/round/1/table/1/hands/")
    assert page.get_by_label("The time was up").is_checked()  # the round's end
    page.goto(f"{live_server.url}/manage/{tournament.slug}/scoring/round/1/table/2/hands/")
    box = page.get_by_label("The time was up")
    assert not box.is_checked()
    box.check()
    page.get_by_role("button", name="Check").click()
    page.get_by_text("Table 2 still has 9 minutes on the clock").first.wait_for()
