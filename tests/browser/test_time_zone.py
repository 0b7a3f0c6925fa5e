"""The round clock in the tournament's time zone, whatever the zone of the screen showing it."""

import datetime
import zoneinfo

import pytest
from django.utils import timezone

from tests.conftest import make_rounds, make_tournament
from tournament.models import Round

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_a_phone_in_new_york_shows_when_a_tokyo_round_ends_in_tokyo_time(
    live_server, new_page, settings
):
    settings.TIME_ZONE = "Europe/Paris"
    tournament = make_tournament(time_zone="Asia/Tokyo", round_minutes=90)
    round_ = make_rounds(tournament, 1)[0]
    started = timezone.now().replace(microsecond=0) - datetime.timedelta(minutes=20)
    Round.objects.filter(pk=round_.pk).update(
        clock_running_since=started,
        scheduled_start=started,
        status=Round.Status.PLAYING,
    )
    ends = started + datetime.timedelta(minutes=90)
    tokyo = f"{ends.astimezone(zoneinfo.ZoneInfo('Asia/Tokyo')):%H:%M}"
    new_york = f"{ends.astimezone(zoneinfo.ZoneInfo('America/New_York')):%H:%M}"
    assert tokyo != new_york

    page = new_page(1280, 800, timezone_id="America/New_York")
    assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "America/New_York"
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/clock/")
    ends_line = page.locator(".clock-ends")
    ends_line.wait_for(state="visible")
    assert ends_line.inner_text() == f"Time is up at {tokyo}"
    start = f"{started.astimezone(zoneinfo.ZoneInfo('Asia/Tokyo')):%H:%M}"
    assert page.locator(".clock-start").inner_text() == f"Scheduled start: {start}"
    # Paused, the end is not known: the line goes.
    Round.objects.filter(pk=round_.pk).update(clock_running_since=None)
    ends_line.wait_for(state="hidden")
