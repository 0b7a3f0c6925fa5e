"""What one player's page costs in a large tournament: neither every sheet of the tournament
scored again nor every player ranked again for each page (a 500-player tournament's page
took seconds of both)."""

import pytest
from django.urls import reverse

import scoring.entries
import scoring.selectors.players
from tests.conftest import confirm_sheet
from tests.public.test_rankings import make_event


@pytest.mark.django_db
def test_a_players_page_scores_only_the_sheets_of_their_tables(
    client, django_user_model, monkeypatch
):
    tournament, registrations, rounds, referee = make_event(django_user_model, players=40)
    for table in range(1, 11):
        confirm_sheet(rounds[0], table, referee)
    scored = []
    score_hanchan = scoring.entries.score_hanchan
    monkeypatch.setattr(
        scoring.entries,
        "score_hanchan",
        lambda *args: scored.append(args) or score_hanchan(*args),
    )
    page = client.get(reverse("public:player", args=[tournament.slug, registrations[0].pk]))
    assert page.status_code == 200
    assert len(scored) == 1  # the one table they played at, of the ten confirmed


@pytest.mark.django_db
def test_the_players_ranks_by_round_are_computed_once_a_version_of_the_standings(
    client, django_user_model, monkeypatch
):
    tournament, registrations, rounds, referee = make_event(django_user_model)
    confirm_sheet(rounds[0], 1, referee)
    calls = []
    running_ranks = scoring.selectors.players.running_ranks
    monkeypatch.setattr(
        scoring.selectors.players,
        "running_ranks",
        lambda *args: calls.append(args) or running_ranks(*args),
    )
    pages = [
        client.get(reverse("public:player", args=[tournament.slug, registration.pk]))
        for registration in registrations[:4]
    ]
    assert len(calls) == 1
    # WRC 2015 §5.9.2: table 1's East has (42,300 − 30,000) / 1,000 + 15 = +27.3, first.
    assert [row["rank"] for row in pages[0].context["rounds"]] == [1]
    confirm_sheet(rounds[0], 2, referee)
    client.get(reverse("public:player", args=[tournament.slug, registrations[0].pk]))
    assert len(calls) == 2  # a new version of the standings, ranked again
