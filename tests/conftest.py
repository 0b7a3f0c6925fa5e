"""Shared fixtures and small `make_*` factories for the Django tests."""

import datetime
import itertools

import pytest

from tournament.models import Player, Registration, Round, Team, Tournament, TournamentStaff

_counter = itertools.count(1)


def make_tournament(**fields) -> Tournament:
    number = next(_counter)
    defaults = {
        "name": f"Test Open {number}",
        "slug": f"test-open-{number}",
        "start_date": datetime.date(2026, 6, 6),
        "end_date": datetime.date(2026, 6, 7),
        "rounds_count": 8,
    }
    defaults.update(fields)
    return Tournament.objects.create(**defaults)


def make_player(**fields) -> Player:
    number = next(_counter)
    defaults = {"first_name": f"Player{number}", "last_name": f"Test{number}", "country": "FR"}
    defaults.update(fields)
    return Player.objects.create(**defaults)


def make_registration(tournament: Tournament, **fields) -> Registration:
    player = fields.pop("player", None) or make_player()
    return Registration.objects.create(tournament=tournament, player=player, **fields)


def make_registrations(tournament: Tournament, count: int, teams: int = 0) -> list[Registration]:
    team_objects = [
        Team.objects.create(tournament=tournament, name=f"Team {index + 1}")
        for index in range(teams)
    ]
    return [
        make_registration(tournament, team=team_objects[index % teams] if teams else None)
        for index in range(count)
    ]


def make_rounds(tournament: Tournament, count: int | None = None) -> list[Round]:
    return [
        Round.objects.create(tournament=tournament, number=number)
        for number in range(1, (count or tournament.rounds_count) + 1)
    ]


def make_staff(tournament: Tournament, user, role: str) -> TournamentStaff:
    return TournamentStaff.objects.create(tournament=tournament, user=user, role=role)


@pytest.fixture(autouse=True)
def _login_throttling_off(settings):
    """`client.login()` passes no request, which django-axes needs; the throttling itself
    is tested on its own with the setting back on."""
    settings.AXES_ENABLED = False


@pytest.fixture
def tournament(db) -> Tournament:
    return make_tournament()


@pytest.fixture
def organiser(db, django_user_model):
    return django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-boss-123")


def make_seats(round_: Round, registrations: list[Registration]) -> list:
    """Seat the registrations four to a table in the given order (E, S, W, N)."""
    from tournament.models import Seat

    return [
        Seat.objects.create(
            round=round_,
            table_number=index // 4 + 1,
            wind="ESWN"[index % 4],
            registration=registration,
        )
        for index, registration in enumerate(registrations)
    ]
