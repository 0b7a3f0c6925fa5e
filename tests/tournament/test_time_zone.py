"""Each tournament's time zone: a Tokyo event on a server set to Europe/Paris shows, exports
and reads its times in Tokyo's hour; a Paris event on the same server in Paris' hour."""

import datetime
import io
import json

import openpyxl
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from tests.conftest import admin_form_data, make_rounds, make_tournament
from tournament.exports.archive import ArchiveError, archive_import, archive_json
from tournament.models import Round, Tournament
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
#: One instant: 10:30 in Tokyo (UTC+9), 03:30 in Paris (UTC+2 in June).
START = datetime.datetime(2026, 6, 13, 1, 30, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _server_in_paris(settings):
    settings.TIME_ZONE = "Europe/Paris"


@pytest.fixture
def events() -> dict[str, Round]:
    """A Tokyo and a Paris tournament, each with a seated round 1 starting at START."""
    rounds = {}
    for zone in ("Asia/Tokyo", "Europe/Paris"):
        round_ = make_rounds(make_tournament(time_zone=zone), 1)[0]
        round_.scheduled_start = START
        round_.status = Round.Status.SEATED
        round_.save()
        rounds[zone] = round_
    return rounds


def _page(client, name: str, round_: Round) -> str:
    args = [round_.tournament.slug] + ([] if name == "public:tournament" else [round_.number])
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("zone", "shown", "not_shown"),
    [("Asia/Tokyo", "10:30", "03:30"), ("Europe/Paris", "03:30", "10:30")],
)
def test_the_schedule_is_shown_in_the_tournaments_time_zone(client, events, zone, shown, not_shown):
    round_ = events[zone]
    tournament_page = _page(client, "public:tournament", round_)
    assert f"13 Jun 2026, {shown}" in tournament_page
    assert f"time zone, {zone}." in tournament_page
    clock_page = _page(client, "public:clock", round_)
    assert f"Scheduled start: {shown}" in clock_page
    assert f'data-time-zone="{zone}"' in clock_page
    for projector in ("public:projector_tables", "public:projector_players"):
        page = _page(client, projector, round_)
        assert f"Round 1 · {shown} ·" in page
        assert not_shown not in page
    assert not_shown not in tournament_page + clock_page


@pytest.mark.parametrize(
    ("zone", "ends_at"),
    [("Asia/Tokyo", "2026-06-13T12:00:00+09:00"), ("Europe/Paris", "2026-06-13T05:00:00+02:00")],
)
def test_the_running_clock_says_when_time_is_up_in_the_tournaments_zone(
    client, events, monkeypatch, zone, ends_at
):
    round_ = events[zone]
    round_.clock_running_since = START
    round_.save()
    monkeypatch.setattr(timezone, "now", lambda: START + datetime.timedelta(minutes=30))
    url = reverse("public:clock_state", args=[round_.tournament.slug, 1])
    state = client.get(url).json()
    assert (state["ends_at"], state["time_zone"]) == (ends_at, zone)  # 90 minutes after START
    assert f'data-ends-at="{ends_at}"' in _page(client, "public:clock", round_)


def test_a_paused_clock_has_no_end_time(client, events):
    round_ = events["Asia/Tokyo"]
    state = client.get(reverse("public:clock_state", args=[round_.tournament.slug, 1])).json()
    assert state["running"] is False
    assert state["ends_at"] is None


@pytest.mark.parametrize(("zone", "hour"), [("Asia/Tokyo", 10), ("Europe/Paris", 3)])
def test_the_standings_export_is_stamped_in_the_tournaments_time_zone(
    client, organiser, events, monkeypatch, zone, hour
):
    client.force_login(organiser)
    monkeypatch.setattr(timezone, "now", lambda: START)
    url = reverse("staff:export", args=[events[zone].tournament.slug, "standings-xlsx"])
    response = client.get(url)
    assert response.status_code == 200
    workbook = openpyxl.load_workbook(io.BytesIO(response.content))
    assert workbook["Tournament"]["G2"].value == datetime.datetime(2026, 6, 13, hour, 30)


def test_the_next_request_is_back_in_the_servers_zone(client, events):
    _page(client, "public:tournament", events["Asia/Tokyo"])
    # The test client serves the request in this thread: the Tokyo page's zone must not stay.
    assert timezone.get_current_timezone_name() == "Europe/Paris"
    assert "10:30" not in client.get(reverse("public:home")).content.decode()


def test_a_new_tournament_takes_the_servers_zone(settings, organiser):
    settings.TIME_ZONE = "America/Montreal"
    tournament = tournament_create(
        name="Open",
        slug="open",
        start_date=datetime.date(2026, 6, 6),
        end_date=datetime.date(2026, 6, 7),
        acting_user=organiser,
    )
    assert tournament.time_zone == "America/Montreal"


@pytest.mark.parametrize("name", ["Mars/Olympus", "Tokyo", "GMT+9", "asia/tokyo", ""])
def test_a_name_that_is_no_time_zone_is_refused(organiser, name):
    with pytest.raises(ValidationError) as error:
        tournament_create(
            name="Open",
            slug="open",
            start_date=datetime.date(2026, 6, 6),
            end_date=datetime.date(2026, 6, 7),
            time_zone=name,
            acting_user=organiser,
        )
    assert "time_zone" in error.value.message_dict
    assert not Tournament.objects.filter(slug="open").exists()


def test_the_admin_refuses_a_name_that_is_no_time_zone_keeping_what_was_typed(
    admin_client, tournament
):
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    page = admin_client.get(url)
    assert '<datalist id="id_time_zone-names">' in page.content.decode()
    assert '<option value="Asia/Tokyo">' in page.content.decode()
    data = admin_form_data(page) | {"time_zone": "Tokyo", "venue": "Shinjuku"}
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["time_zone"] == [
        "“Tokyo” is not a time zone. Give its IANA name, the region and the city, "
        "e.g. Europe/Paris or Asia/Tokyo."
    ]
    assert 'value="Shinjuku"' in response.content.decode()
    data["time_zone"] = "Asia/Tokyo"
    assert admin_client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.time_zone, tournament.venue) == ("Asia/Tokyo", "Shinjuku")


def test_the_admin_shows_and_reads_a_rounds_start_in_its_tournaments_zone(admin_client, events):
    round_ = events["Asia/Tokyo"]
    url = reverse("admin:tournament_round_change", args=[round_.pk])
    page = admin_client.get(url)
    html = page.content.decode()
    assert 'value="10:30:00"' in html
    assert "Time in Asia/Tokyo, the tournament's time zone." in html
    # The admin's note compares the browser's offset with this one, not the server's.
    assert 'data-admin-utc-offset="32400"' in html
    data = admin_form_data(page) | {"scheduled_start_0": "13/06/2026", "scheduled_start_1": "12:00"}
    assert admin_client.post(url, data).status_code == 302
    round_.refresh_from_db()
    assert round_.scheduled_start == datetime.datetime(2026, 6, 13, 3, 0, tzinfo=UTC)


def test_the_admins_list_of_one_tournaments_rounds_is_in_its_zone(admin_client, events):
    url = reverse("admin:tournament_round_changelist")
    tokyo = events["Asia/Tokyo"].tournament
    html = admin_client.get(url, {"tournament__id__exact": tokyo.pk}).content.decode()
    assert "10:30" in html
    assert "03:30" not in html


def test_the_archive_carries_the_time_zone(events):
    tokyo = events["Asia/Tokyo"].tournament
    data = json.loads(archive_json(tokyo))
    assert data["objects"][0]["fields"]["time_zone"] == "Asia/Tokyo"
    copy = archive_import(data, slug="tokyo-copy")
    assert copy.time_zone == "Asia/Tokyo"


def test_an_archive_with_a_name_that_is_no_time_zone_is_refused(events):
    data = json.loads(archive_json(events["Asia/Tokyo"].tournament))
    data["objects"][0]["fields"]["time_zone"] = "Mars/Olympus"
    with pytest.raises(ArchiveError, match="Mars/Olympus"):
        archive_import(data, slug="mars")
    assert not Tournament.objects.filter(slug="mars").exists()
