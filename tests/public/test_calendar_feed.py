"""A player's calendar feed (RFC 5545): the seated rounds with time, table, wind and
opponents; stable UIDs and a SEQUENCE that moves with the seating, start, venue and time
limit; the player page's switches; names of every script; English and French."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from icalendar import Calendar

from tests.conftest import (
    make_player,
    make_registration,
    make_rounds,
    make_seats,
    make_staff,
    seat_again,
)
from tournament.models import Round, TournamentStaff
from tournament.services.rounds import round_update
from tournament.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db

TOKYO = ZoneInfo("Asia/Tokyo")


def feed_url(registration, **query) -> str:
    url = reverse("public:player_calendar", args=[registration.tournament.slug, registration.pk])
    return url + "".join(f"?{key}={value}" for key, value in query.items())


def fetch(client, registration, **query) -> Calendar:
    response = client.get(feed_url(registration, **query))
    assert response.status_code == 200
    return Calendar.from_ical(response.content)


def events(calendar: Calendar) -> dict[str, dict]:
    """Summary → the event's properties, as plain values."""
    return {
        str(event["SUMMARY"]): {
            "uid": str(event["UID"]),
            "sequence": int(event["SEQUENCE"]),
            "start": event.decoded("DTSTART"),
            "duration": event.decoded("DURATION"),
            "location": str(event.get("LOCATION", "")),
            "description": str(event.get("DESCRIPTION", "")),
        }
        for event in calendar.walk("VEVENT")
    }


@pytest.fixture
def event(tournament):
    """Eight players, rounds 1 and 2 seated (round 2 without a start), round 3 seated but not
    published, in Tokyo."""
    tournament.venue = "Salle des fêtes"
    tournament.time_zone = "Asia/Tokyo"
    tournament.save()
    registrations = [make_registration(tournament) for _ in range(8)]
    rounds = make_rounds(tournament, 3)
    for round_, hour in zip(rounds, (10, None, 14), strict=True):
        round_.scheduled_start = (
            datetime.datetime(2026, 6, 6, hour, 30, tzinfo=TOKYO) if hour else None
        )
        round_.save()
    for round_ in rounds:
        make_seats(round_, registrations)
    tournament.rounds.filter(number__in=[1, 2]).update(status=Round.Status.SEATED)
    return tournament, registrations, rounds


def test_feed_lists_the_published_scheduled_rounds_with_time_table_wind_and_opponents(
    client, event
):
    tournament, registrations, _rounds = event
    response = client.get(feed_url(registrations[5]))
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["VERSION"]) == "2.0"
    assert calendar["PRODID"]
    listed = events(calendar)
    # Round 2 has no start, round 3 is not published: one event.
    assert list(listed) == ["Round 1 — Table 2, South"]
    round_1 = listed["Round 1 — Table 2, South"]
    # 10:30 in Tokyo, written in UTC.
    assert round_1["start"] == datetime.datetime(2026, 6, 6, 1, 30, tzinfo=datetime.UTC)
    assert b"DTSTART:20260606T013000Z" in response.content
    assert round_1["duration"] == datetime.timedelta(minutes=tournament.round_minutes)
    assert round_1["location"] == "Salle des fêtes, Table 2"
    names = [registrations[index].player.display_name for index in (4, 6, 7)]
    assert round_1["description"].splitlines() == [
        "At your table:",
        f"East: {names[0]}",
        f"West: {names[1]}",
        f"North: {names[2]}",
    ]
    for vevent in calendar.walk("VEVENT"):
        assert vevent["UID"]  # RFC 5545 §3.6.1
        assert vevent["DTSTAMP"]
    # Content lines are folded at 75 octets (RFC 5545 §3.1).
    assert all(len(line) <= 75 for line in response.content.split(b"\r\n"))


def test_reseating_a_round_moves_the_sequence_and_keeps_the_uid(client, tournament):
    registrations = [make_registration(tournament) for _ in range(8)]
    round_ = make_rounds(tournament, 1)[0]
    round_.scheduled_start = datetime.datetime(2026, 6, 6, 9, tzinfo=datetime.UTC)
    round_.save()

    seat_again(round_, 7)
    (before,) = fetch(client, registrations[0]).walk("VEVENT")
    seat_again(round_, 8)
    (after,) = fetch(client, registrations[0]).walk("VEVENT")
    assert after["UID"] == before["UID"]
    assert int(after["SEQUENCE"]) > int(before["SEQUENCE"])
    assert after.decoded("DTSTAMP") >= before.decoded("DTSTAMP")


def test_a_new_start_venue_or_time_limit_moves_the_sequence(client, event, organiser):
    tournament, registrations, rounds = event

    def sequence() -> int:
        (vevent,) = fetch(client, registrations[0]).walk("VEVENT")
        return int(vevent["SEQUENCE"])

    first = sequence()
    round_update(
        round_=rounds[0],
        data={"scheduled_start": datetime.datetime(2026, 6, 6, 11, tzinfo=TOKYO)},
        acting_user=organiser,
    )
    second = sequence()
    tournament_update(tournament=tournament, data={"venue": "Dojo"}, acting_user=organiser)
    third = sequence()
    tournament_update(tournament=tournament, data={"round_minutes": 100}, acting_user=organiser)
    assert first < second < third < sequence()
    # Nothing the feed shows changed: the same version.
    tournament_update(tournament=tournament, data={"name": "Renamed Open"}, acting_user=organiser)
    round_update(round_=rounds[0], data={"is_swiss": True}, acting_user=organiser)
    assert sequence() == third + 1


def test_the_feed_answers_304_until_it_changes(client, event, organiser):
    _tournament, registrations, rounds = event
    first = client.get(feed_url(registrations[0]))
    etag = first["ETag"]
    assert etag
    assert first["Cache-Control"] == "no-cache"
    again = client.get(feed_url(registrations[0]), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    round_update(
        round_=rounds[0],
        data={"scheduled_start": datetime.datetime(2026, 6, 6, 11, tzinfo=TOKYO)},
        acting_user=organiser,
    )
    changed = client.get(feed_url(registrations[0]), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_hidden_seating_leaves_the_round_times_only(client, event, django_user_model):
    tournament, registrations, _rounds = event
    tournament.show_seating = False
    tournament.save()
    listed = events(fetch(client, registrations[5]))
    assert list(listed) == ["Round 1"]
    assert listed["Round 1"]["location"] == "Salle des fêtes"
    assert listed["Round 1"]["description"] == ""
    assert listed["Round 1"]["start"] == datetime.datetime(2026, 6, 6, 1, 30, tzinfo=datetime.UTC)
    other = registrations[4].player.display_name
    assert other.encode() not in client.get(feed_url(registrations[5])).content
    # The tournament's staff still see the tables, as on the player page.
    referee = django_user_model.objects.create_user("ref", password="pw-ref-123")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    client.force_login(referee)
    assert list(events(fetch(client, registrations[5]))) == ["Round 1 — Table 2, South"]


@pytest.mark.parametrize(
    ("change", "status"),
    [({"is_public": False}, 404), ({"show_rankings": False}, 404), ({}, 200)],
)
def test_the_feed_follows_the_player_page_switches(client, event, change, status):
    tournament, registrations, _rounds = event
    for field, value in change.items():
        setattr(tournament, field, value)
    tournament.save()
    player_page = reverse("public:player", args=[tournament.slug, registrations[0].pk])
    assert client.get(player_page).status_code == status
    assert client.get(feed_url(registrations[0])).status_code == status


def test_a_substitute_or_another_tournament_s_player_has_no_feed(client, event):
    tournament, _registrations, _rounds = event
    substitute = make_registration(tournament, is_substitute=True)
    assert client.get(feed_url(substitute)).status_code == 404
    url = reverse("public:player_calendar", args=["no-such-open", _registrations[0].pk])
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    ("first_name", "last_name"),
    [
        ("太郎", "山田"),
        ("محمد", "العلي"),
        ('Zoé, "Kid"', "Martin; Jr."),
    ],
)
def test_names_of_every_script_and_special_characters_survive(client, event, first_name, last_name):
    tournament, registrations, rounds = event
    player = registrations[4].player
    player.first_name, player.last_name = first_name, last_name
    player.save()
    response = client.get(feed_url(registrations[5]))
    description = events(Calendar.from_ical(response.content))["Round 1 — Table 2, South"][
        "description"
    ]
    assert f"East: {player.display_name}" in description.splitlines()
    # Commas, semicolons and newlines escaped in TEXT values (RFC 5545 §3.3.11).
    unfolded = response.content.replace(b"\r\n ", b"")
    assert b"At your table:\\nEast: " in unfolded
    if "," in first_name:
        assert b'Zo\xc3\xa9\\, "Kid"' in unfolded
        assert b"Martin\\; Jr." in unfolded


@pytest.mark.parametrize(
    ("query", "headers", "summary", "opponent"),
    [
        ({"lang": "fr"}, {}, "Ronde 1 — Table 2, Sud", "Est : "),
        ({}, {"HTTP_ACCEPT_LANGUAGE": "fr"}, "Ronde 1 — Table 2, Sud", "Est : "),
        ({"lang": "en"}, {"HTTP_ACCEPT_LANGUAGE": "fr"}, "Round 1 — Table 2, South", "East: "),
        ({"lang": "xx"}, {}, "Round 1 — Table 2, South", "East: "),
    ],
)
def test_the_feed_speaks_the_language_of_its_address_or_the_request(
    client, event, query, headers, summary, opponent
):
    _tournament, registrations, _rounds = event
    response = client.get(feed_url(registrations[5], **query), **headers)
    listed = events(Calendar.from_ical(response.content))
    assert list(listed) == [summary]
    assert listed[summary]["description"].splitlines()[1].startswith(opponent)


def test_the_player_page_links_the_feed_with_webcal_and_a_qr_code(client, event):
    tournament, registrations, _rounds = event
    page = reverse("public:player", args=[tournament.slug, registrations[0].pk])
    response = client.get(page, HTTP_ACCEPT_LANGUAGE="fr")
    feed = f"testserver{feed_url(registrations[0])}?lang=fr"
    assert response.context["calendar_url"] == f"http://{feed}"
    html = response.content.decode()
    assert f'href="webcal://{feed}"' in html
    assert f'href="http://{feed}"' in html
    assert "<svg" in html.split('class="calendar-qr"')[1]


def test_the_feed_costs_a_fixed_number_of_queries(client, event, django_assert_max_num_queries):
    _tournament, registrations, _rounds = event
    with django_assert_max_num_queries(5):
        client.get(feed_url(registrations[0]))


def test_the_uid_carries_the_site_s_domain(client, event, settings):
    settings.CALENDAR_UID_DOMAIN = "riichi.example.org"
    _tournament, registrations, rounds = event
    (vevent,) = fetch(client, registrations[0]).walk("VEVENT")
    assert str(vevent["UID"]) == (
        f"round-{rounds[0].pk}-registration-{registrations[0].pk}@riichi.example.org"
    )


def test_a_player_with_no_round_gets_an_empty_calendar(client, tournament):
    registration = make_registration(tournament, player=make_player(first_name="Ana"))
    calendar = fetch(client, registration)
    assert calendar.walk("VEVENT") == []
    assert str(calendar["X-WR-CALNAME"]).endswith(registration.player.display_name)
