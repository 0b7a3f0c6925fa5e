"""The rankings page's 10-second poll: the rows as compact JSON, drawn into the table by
the page's script (static/public/rankings.js); the HTML table stays for readers without it."""

import gzip
import json
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench._support import build_tournament
from scoring.selectors.standings import standings_cache_key
from tests.conftest import confirm_sheet
from tests.public.test_rankings import confirm_round, make_event

PHONE = {"accept-encoding": "gzip"}


def poll(client, tournament, query: str = "") -> dict:
    response = client.get(reverse("public:rankings_data", args=[tournament.slug]) + query)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return json.loads(response.content)


@pytest.mark.django_db
def test_the_poll_sends_each_row_as_the_table_shows_it(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    for query in ("", "?sort=-total", "?sort=name"):
        page = client.get(reverse("public:rankings", args=[tournament.slug]) + query)
        table = page.context["table"]
        data = poll(client, tournament, query)
        shown = [row.record["registration_id"] for row in table.rows]
        assert [row[0] for row in data["rows"]] == shown, query
    data = poll(client, tournament)
    # WRC 2015 §5.9.2: 42,300 / 31,000 / 27,700 / 19,000 → +27.3 / +6.0 / −7.3 / −26.0; the
    # round 1 column beside the total (round 2 is not seated: no column), no penalty.
    first, last = data["rows"][0], data["rows"][-1]
    assert first[1:4] == ["1=", None, first[3]]
    assert first[9:] == ["+27.3", "+27.3", None]
    assert last[9:] == ["−26.0", "−26.0", None]
    assert data["classes"][4:] == ["number total", "number round", "number"]
    # The script draws the name's link and filters on the same text as the HTML table.
    html = page.content.decode()
    assert f'href="{data["player_url"].replace("/0/", f"/{first[0]}/")}"' in html
    assert f'data-search="{first[8]}"' in html


@pytest.mark.django_db
def test_the_page_and_the_poll_share_their_tag_so_the_first_poll_costs_a_304(
    client, django_user_model
):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=1)
    page = client.get(reverse("public:rankings", args=[tournament.slug])).content.decode()
    etag = re.search(r'data-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
    url = reverse("public:rankings_data", args=[tournament.slug])
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    confirm_sheet(rounds[0], 2, referee)
    assert client.get(url, headers={"if-none-match": etag}).status_code == 200


@pytest.mark.django_db
def test_a_kept_poll_is_the_tournament_and_one_read_of_the_cache(client, django_user_model):
    # It was four queries: the tournament, the last audit entry, the standings' version and the
    # rows, on a poll every phone sends every ten seconds.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=1)
    url = reverse("public:rankings_data", args=[tournament.slug])
    first = client.get(url, headers=PHONE)
    with CaptureQueriesContext(connection) as kept:
        again = client.get(url, headers=PHONE)
    assert again.content == first.content
    assert len(kept) == 2
    confirm_sheet(rounds[0], 2, referee)  # the audit entry moves the key at once
    assert client.get(url, headers=PHONE).content != first.content


@pytest.mark.django_db
def test_the_poll_says_when_the_table_head_changed(client, django_user_model):
    # Round 1 provisional until its last sheet: its header's asterisk and the legend go.
    # The rows alone cannot say it; the head's hash tells the script to fetch the table.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_sheet(rounds[0], 1, referee)
    provisional = poll(client, tournament)["head"]
    rows_url = reverse("public:rankings_rows", args=[tournament.slug])
    assert f'data-head="{provisional}"' in client.get(rows_url).content.decode()
    confirm_sheet(rounds[0], 2, referee)
    complete = poll(client, tournament)["head"]
    assert complete != provisional
    assert f'data-head="{complete}"' in client.get(rows_url).content.decode()


@pytest.mark.django_db
def test_a_poll_of_500_players_is_under_100_kib_on_the_wire(client):
    tournament = build_tournament(players=500, rounds=8, seed=2026, confirmed_rounds=7)
    url = reverse("public:rankings_data", args=[tournament.slug])
    response = client.get(url, headers=PHONE)
    assert response["Content-Encoding"] == "gzip"
    assert len(response.content) <= 100 * 1024
    data = json.loads(gzip.decompress(response.content))
    assert len(data["rows"]) == 500
    assert all(len(row) == 9 + 1 + 8 + 1 for row in data["rows"])  # total, 8 rounds, penalty


@pytest.mark.django_db
def test_each_version_of_the_poll_is_compressed_once_not_for_every_phone(
    client, django_user_model, monkeypatch
):
    # Compressing the rows of 500 players for each of 200 polling phones cost more than the
    # rest of the poll: each version is kept compressed, and served so to the next phones.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=1)
    compressed = []
    monkeypatch.setattr(
        "tournament.compression.compress_string",
        lambda content: compressed.append(content) or gzip.compress(content),
    )
    for name in ("public:rankings_data", "public:rankings_rows"):
        url = reverse(name, args=[tournament.slug])
        first = client.get(url, headers=PHONE)
        again = client.get(url, headers=PHONE)
        assert (first["Content-Encoding"], again.content) == ("gzip", first.content), name
        plain = client.get(url)  # a reader without gzip gets the same rows, plain
        assert (plain.has_header("Content-Encoding"), plain.content) == (
            False,
            gzip.decompress(first.content),
        ), name
    assert len(compressed) == 2  # once per poll, for three readers each
    # A new version is compressed once again.
    confirm_sheet(rounds[0], 2, referee)
    url = reverse("public:rankings_data", args=[tournament.slug])
    assert "−26.0" in gzip.decompress(client.get(url, headers=PHONE).content).decode()
    client.get(url, headers=PHONE)
    assert len(compressed) == 3


@pytest.mark.django_db
def test_during_a_rebuild_the_poll_gets_the_previous_rows_which_are_not_kept(
    client, django_user_model
):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    url = reverse("public:rankings_data", args=[tournament.slug])
    before = client.get(url)
    confirm_sheet(rounds[0], 1, referee)
    # Another process is building the new standings: its lock is held.
    cache.add(f"{standings_cache_key(tournament)}:building", 1, 30)
    during = client.get(url, headers={"if-none-match": before["ETag"]})
    assert during.status_code == 200
    assert "+27.3" not in during.content.decode()  # WRC 2015 §5.9.2 (the test above)
    cache.delete(f"{standings_cache_key(tournament)}:building")
    after = client.get(url, headers={"if-none-match": during["ETag"]})
    assert after.status_code == 200
    assert "+27.3" in after.content.decode()
