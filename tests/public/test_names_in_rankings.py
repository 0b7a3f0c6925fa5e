"""The rankings show the names as they are now: a player, club or team renamed is renamed on
the rankings and their search at once, not when the cached standings expire an hour later."""

import re

import pytest
from django.urls import reverse

from tests.conftest import make_registration
from tests.public.test_rankings import confirm_round, make_event
from tournament.models import Player, Registration, Team
from tournament.names import fold
from tournament.services.players import player_update, players_import
from tournament.services.registrations import registration_update
from tournament.services.teams import team_delete, team_update


def _rankings(client, tournament, query: str = "") -> str:
    """The ranking table, as the page polls it."""
    url = reverse("public:rankings_rows", args=[tournament.slug])
    return client.get(url, {"q": query} if query else {}).content.decode()


def _found(client, tournament, query: str) -> list[str]:
    """What the rows a search finds are searched by."""
    return re.findall(r'data-search="([^"]*)"', _rankings(client, tournament, query))


def _player_of_round_one(tournament) -> Registration:
    return Registration.objects.filter(tournament=tournament, seats__round__number=1).first()


@pytest.fixture
def event(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    assert "Player" in _rankings(client, tournament)  # the standings are cached now
    return tournament, referee


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("first_name", "Renamed", "Renamed"),
        ("last_name", "Newname", "Newname"),
        ("club", "Osaka Riichi Club", "Osaka Riichi Club"),
        ("country", "JP", "Japan"),
        ("public_name", "Tanuki", "Tanuki"),
    ],
)
def test_a_player_changed_shows_on_every_tournament_they_play_in(
    client,
    event,
    organiser,
    django_user_model,
    django_capture_on_commit_callbacks,
    field,
    value,
    shown,
):
    tournament, _referee = event
    registration = _player_of_round_one(tournament)
    registration.team = None
    registration.save()  # a club shows where the player has no team
    other = make_event(django_user_model)[0]
    make_registration(other, player=registration.player)
    assert shown not in _rankings(client, other)
    with django_capture_on_commit_callbacks(execute=True):
        player_update(player=registration.player, data={field: value}, acting_user=organiser)
    assert shown in _rankings(client, tournament)
    assert shown in _rankings(client, other)


@pytest.mark.django_db
def test_the_search_finds_the_new_name_not_the_old(
    client, event, organiser, django_capture_on_commit_callbacks
):
    tournament, _referee = event
    player = _player_of_round_one(tournament).player
    old = fold(player.display_name)
    assert [old in row for row in _found(client, tournament, old)] == [True]
    with django_capture_on_commit_callbacks(execute=True):
        player_update(player=player, data={"first_name": "Zébulon"}, acting_user=organiser)
    assert ["zebulon" in row for row in _found(client, tournament, "zebulon")] == [True]
    assert [old in row for row in _found(client, tournament, old)] == []


@pytest.mark.django_db
def test_a_player_completed_by_an_import_shows_on_the_rankings(
    client, event, organiser, django_user_model, django_capture_on_commit_callbacks
):
    tournament, _referee = event
    player = _player_of_round_one(tournament).player
    registration = _player_of_round_one(tournament)
    registration.team = None
    registration.save()
    player.club = ""
    player.save()
    _rankings(client, tournament)
    other = make_event(django_user_model)[0]
    row = {"first_name": player.first_name, "last_name": player.last_name, "country": "FR"}
    with django_capture_on_commit_callbacks(execute=True):
        players_import(
            tournament=other, rows=[{**row, "club": "Kyoto Club"}], acting_user=organiser
        )
    assert Player.objects.get(pk=player.pk).club == "Kyoto Club"
    assert "Kyoto Club" in _rankings(client, tournament)


@pytest.mark.django_db
def test_a_team_renamed_or_deleted_shows_on_the_rankings(
    client, event, organiser, django_capture_on_commit_callbacks
):
    tournament, _referee = event
    team = Team.objects.get(tournament=tournament, name="Team 1")
    with django_capture_on_commit_callbacks(execute=True):
        team_update(team=team, data={"name": "Les Tanuki"}, acting_user=organiser)
    assert "Les Tanuki" in _rankings(client, tournament)
    with django_capture_on_commit_callbacks(execute=True):
        team_delete(team=team, acting_user=organiser)
    assert "Les Tanuki" not in _rankings(client, tournament)


@pytest.mark.django_db
def test_a_registration_moved_to_another_team_shows_on_the_rankings(
    client, event, organiser, django_capture_on_commit_callbacks
):
    tournament, _referee = event
    registration = _player_of_round_one(tournament)
    team = Team.objects.create(tournament=tournament, name="Les Kappa")
    with django_capture_on_commit_callbacks(execute=True):
        registration_update(registration=registration, data={"team": team}, acting_user=organiser)
    assert "Les Kappa" in _rankings(client, tournament)
