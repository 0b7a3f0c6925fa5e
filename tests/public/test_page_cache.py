"""Whole public pages kept in the cache (`tournament.views.public.CachedPageMixin`): served
without rendering to readers who are not logged in, never after a change they would not show,
never in another language, never to or from the tournament's staff.

A page served from the cache renders no template: `response.templates` is empty.
"""

import gzip

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.selectors.standings import standings_cache_key
from tests.conftest import confirm_sheet, seat_again
from tests.public.test_rankings import make_event
from tournament.invalidation import standings_version
from tournament.models import AuditEntry, Seat, Tournament
from tournament.services.players import player_update
from tournament.services.tournaments import tournament_update


def pages(tournament, registration) -> list[tuple[str, dict]]:
    """Every kept page, with the query it reads."""
    slug = tournament.slug
    return [
        (reverse("public:rankings", args=[slug]), {}),
        (reverse("public:team_rankings", args=[slug]), {}),
        (reverse("public:player", args=[slug, registration.pk]), {}),
        (reverse("public:seating", args=[slug, 1]), {}),
        (reverse("public:seating_players", args=[slug, 1]), {}),
        (reverse("public:projector_tables", args=[slug, 1]), {}),
        (reverse("public:projector_players", args=[slug, 1]), {}),
        (reverse("public:find_seat", args=[slug]), {"q": registration.player.last_name}),
    ]


def east_of_table_1(round_) -> Seat:
    return Seat.objects.select_related("registration__player").get(
        round=round_, table_number=1, wind="E"
    )


@pytest.mark.django_db
def test_every_public_page_is_kept_whole_for_readers_not_logged_in(client, django_user_model):
    tournament, registrations, _rounds, _referee = make_event(django_user_model)
    for url, data in pages(tournament, registrations[0]):
        first = client.get(url, data)
        again = client.get(url, data)
        assert first.templates, url
        assert not again.templates, url  # from the cache
        assert again.content == first.content, url
        assert again["ETag"] == first["ETag"], url
        assert client.get(url, data, headers={"if-none-match": again["ETag"]}).status_code == 304


@pytest.mark.django_db
def test_kept_pages_run_as_many_queries_for_40_players_as_for_8(client, django_user_model):
    counts = {}
    for players in (8, 40):
        tournament, registrations, rounds, referee = make_event(django_user_model, players=players)
        for table in range(1, players // 4 + 1):
            confirm_sheet(rounds[0], table, referee)
        for url, data in pages(tournament, registrations[-1]):
            cache.clear()
            with CaptureQueriesContext(connection) as cold:
                assert client.get(url, data).status_code == 200
            with CaptureQueriesContext(connection) as kept:
                assert client.get(url, data).status_code == 200
            counts.setdefault(players, []).append((url.split("/")[3], len(cold), len(kept)))
    assert counts[8] == counts[40]
    # A kept page: the tournament (with its last audit entry), its rounds and one read of the
    # (database) cache, the standings' version with the page.
    assert max(kept for _page, _cold, kept in counts[8]) <= 3


@pytest.mark.django_db
def test_a_kept_page_reads_the_cache_once(client, django_user_model):
    # It read the last audit entry, the standings' version and the page one query each: five
    # queries a page where two reads say as much.
    tournament, registrations, rounds, referee = make_event(django_user_model)
    confirm_sheet(rounds[0], 1, referee)
    for url, data in pages(tournament, registrations[0]):
        client.get(url, data)
        with CaptureQueriesContext(connection) as kept:
            assert not client.get(url, data).templates, url
        tables = [query["sql"].rsplit(" FROM ", 1)[1].split()[0] for query in kept.captured_queries]
        assert tables == ['"tournament_tournament"', '"tournament_round"', '"riichi_cache"'], url


@pytest.mark.django_db
def test_a_tournament_read_with_its_last_audit_entry_gives_the_standings_key_without_a_query(
    django_user_model, django_assert_num_queries
):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_sheet(rounds[0], 1, referee)
    read = Tournament.objects.with_last_audit().get(pk=tournament.pk)
    assert read.last_audit == AuditEntry.objects.filter(tournament=tournament).latest("id").pk
    version = standings_version(tournament.pk)
    with django_assert_num_queries(0):
        key = standings_cache_key(read, version)
    assert key == standings_cache_key(tournament, version)


@pytest.mark.django_db
def test_a_confirmed_sheet_brings_its_result_to_the_kept_pages(client, django_user_model):
    # WRC 2015 §5.9.2: 42,300 points and first place are (42,300 − 30,000) / 1,000 + 15 = +27.3.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    east = east_of_table_1(rounds[0]).registration
    urls = [
        reverse("public:rankings", args=[tournament.slug]),
        reverse("public:player", args=[tournament.slug, east.pk]),
    ]
    for url in urls:
        client.get(url)
        kept = client.get(url)
        assert not kept.templates
        assert "+27.3" not in kept.content.decode()
    confirm_sheet(rounds[0], 1, referee)
    for url in urls:
        assert "+27.3" in client.get(url).content.decode(), url


@pytest.mark.django_db
def test_a_round_seated_again_shows_its_new_seats_on_the_kept_pages(client, django_user_model):
    tournament, _registrations, rounds, _referee = make_event(django_user_model)
    before = east_of_table_1(rounds[0])
    url = reverse("public:seating_players", args=[tournament.slug, 1])
    client.get(url)
    assert not client.get(url).templates
    seat_again(rounds[0], seed=7)
    seats = {
        (s.registration_id, s.table_number, s.wind) for s in Seat.objects.filter(round=rounds[0])
    }
    assert (before.registration_id, 1, "E") not in seats  # the seed gives them another seat
    page = client.get(url)
    assert page.templates
    assert {
        (row.registration.pk, row.table_number, row.wind) for row in page.context["players"]
    } == seats


@pytest.mark.django_db
def test_a_switch_turned_off_is_never_answered_from_the_kept_page(client, django_user_model):
    # Even set without the admin (no audit entry): the tournament's own fields are in the key.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    east = east_of_table_1(rounds[0]).registration
    player = reverse("public:player", args=[tournament.slug, east.pk])
    seating = reverse("public:seating", args=[tournament.slug, 1])
    client.get(player)
    client.get(seating)
    kept = client.get(player)
    assert not kept.templates
    assert "<th>Table</th>" in kept.content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(show_seating=False)
    assert client.get(seating).status_code == 404
    assert "<th>Table</th>" not in client.get(player).content.decode()
    tournament.refresh_from_db()
    tournament_update(tournament=tournament, data={"show_rankings": False}, acting_user=None)
    assert client.get(player).status_code == 404
    assert client.get(reverse("public:rankings", args=[tournament.slug])).status_code == 404


@pytest.mark.django_db
def test_a_kept_page_is_kept_in_each_language(client, django_user_model):
    tournament, _registrations, _rounds, _referee = make_event(django_user_model)
    url = reverse("public:seating", args=[tournament.slug, 1])
    english = client.get(url)
    french = client.get(url, headers={"accept-language": "fr"})
    assert 'lang="en"' in english.content.decode()
    assert 'lang="fr"' in french.content.decode()
    assert french.templates  # not the English page from the cache
    for language in ("fr", "en"):
        kept = client.get(url, headers={"accept-language": language})
        assert not kept.templates
        assert f'lang="{language}"' in kept.content.decode()


@pytest.mark.django_db
def test_the_staffs_pages_are_neither_kept_nor_served_from_the_cache(client, django_user_model):
    # Show seating off: the referee still sees a player's table, an anonymous reader does not.
    tournament, _registrations, rounds, referee = make_event(django_user_model, show_seating=False)
    east = east_of_table_1(rounds[0]).registration
    url = reverse("public:player", args=[tournament.slug, east.pk])
    client.get(url)
    client.force_login(referee)
    staff = client.get(url)
    assert staff.templates
    assert "<th>Table</th>" in staff.content.decode()
    assert "Logged in as" in staff.content.decode()
    assert client.get(url).templates  # rendered again: the staff's page is not kept
    client.logout()
    public = client.get(url)
    assert not public.templates
    assert "<th>Table</th>" not in public.content.decode()
    assert "Logged in as" not in public.content.decode()


@pytest.mark.django_db
def test_an_address_with_parameters_the_page_does_not_read_is_not_kept(client, django_user_model):
    tournament, _registrations, _rounds, _referee = make_event(django_user_model)
    url = reverse("public:rankings", args=[tournament.slug])
    client.get(url, {"x": "1"})
    assert client.get(url, {"x": "1"}).templates
    client.get(url, {"sort": "-total"})
    assert not client.get(url, {"sort": "-total"}).templates


@pytest.mark.django_db
def test_during_a_rebuild_a_page_shows_the_previous_standings_and_is_not_kept(
    client, django_user_model
):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    east = east_of_table_1(rounds[0]).registration
    url = reverse("public:player", args=[tournament.slug, east.pk])
    before = client.get(url)
    confirm_sheet(rounds[0], 1, referee)
    # Another process is building the new standings: its lock is held.
    cache.add(f"{standings_cache_key(tournament)}:building", 1, 30)
    during = client.get(url, headers={"if-none-match": before["ETag"]})
    assert during.status_code == 200
    assert "+27.3" not in during.content.decode()
    assert during["ETag"] != before["ETag"]
    assert client.get(url).templates  # not kept: rendered again while the lock is held
    cache.delete(f"{standings_cache_key(tournament)}:building")
    after = client.get(url, headers={"if-none-match": during["ETag"]})
    assert after.status_code == 200
    assert "+27.3" in after.content.decode()


@pytest.mark.django_db
def test_a_kept_page_is_kept_compressed_for_the_readers_who_accept_it(client, django_user_model):
    # Compressing the 900 KiB rankings of 500 players for every phone cost more than the rest.
    tournament, _registrations, _rounds, _referee = make_event(django_user_model)
    url = reverse("public:rankings", args=[tournament.slug])
    plain = client.get(url)
    kept = client.get(url, headers={"accept-encoding": "gzip"})
    assert not kept.templates
    assert kept["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in kept["Vary"]
    assert gzip.decompress(kept.content) == plain.content
    assert client.get(url, headers={"if-none-match": kept["ETag"]}).status_code == 304
    assert client.get(url).content == plain.content  # as it is to a reader without gzip


class BuilderElsewhere:
    """The cache as the kept answers see it while another process builds every new
    version: their build lock is always taken."""

    def __init__(self) -> None:
        self.locks: list[str] = []

    def add(self, key: str, *args, **kwargs) -> bool:
        self.locks.append(key)
        return False

    def __getattr__(self, name: str):
        return getattr(cache, name)


@pytest.mark.django_db
def test_while_another_process_renders_the_new_version_readers_get_the_kept_previous_one(
    client, django_user_model, monkeypatch, django_capture_on_commit_callbacks
):
    # After a change, the phones that ask before the first of them has rendered the new page
    # each rendered it too: 200 renderings of 500 rows at once. They now get the previous
    # page, kept, under an ETag that makes their next poll ask again.
    tournament, registrations, rounds, referee = make_event(django_user_model)
    url = reverse("public:rankings", args=[tournament.slug])
    confirm_sheet(rounds[0], 1, referee)
    before = client.get(url)
    player = registrations[0].player
    with django_capture_on_commit_callbacks(execute=True):
        player_update(player=player, data={"last_name": "Renamed"}, acting_user=referee)
    elsewhere = BuilderElsewhere()
    monkeypatch.setattr("tournament.kept_answers.cache", elsewhere)
    during = client.get(url, headers={"if-none-match": before["ETag"]})
    assert during.status_code == 200
    assert not during.templates  # not rendered: the previous page, kept
    assert during.content == before.content
    assert during["ETag"] != before["ETag"]
    assert elsewhere.locks[0].endswith(":building")
    monkeypatch.undo()
    after = client.get(url, headers={"if-none-match": during["ETag"]})
    assert after.templates
    assert "Renamed" in after.content.decode()


@pytest.mark.django_db
def test_with_no_previous_version_a_reader_waits_for_the_builder_then_builds_itself(
    client, django_user_model, monkeypatch
):
    tournament, _registrations, _rounds, _referee = make_event(django_user_model)
    url = reverse("public:rankings_data", args=[tournament.slug])
    monkeypatch.setattr("tournament.kept_answers.BUILD_WAIT_SECONDS", 0.2)
    monkeypatch.setattr("tournament.kept_answers.cache", BuilderElsewhere())
    response = client.get(url)  # the builder never finishes: built here after the wait
    assert response.status_code == 200
    assert response.json()["rows"]
