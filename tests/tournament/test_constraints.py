"""The database itself refuses what would corrupt an event, whatever writes to it."""

import datetime

import pytest
from django.db import IntegrityError, transaction

from tests.conftest import make_player, make_registration, make_rounds, make_tournament
from tournament.models import Registration, Round, Seat, Tournament


def _refused(create) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


@pytest.mark.django_db
def test_a_player_cannot_be_registered_twice_in_one_tournament(tournament):
    player = make_player()
    make_registration(tournament, player=player)
    _refused(lambda: Registration.objects.create(tournament=tournament, player=player))


@pytest.mark.django_db
def test_the_same_player_may_play_two_tournaments(tournament):
    player = make_player()
    make_registration(tournament, player=player)
    make_registration(make_tournament(), player=player)
    assert player.registrations.count() == 2


@pytest.mark.django_db
def test_a_registration_cannot_sit_twice_in_one_round(tournament):
    registration = make_registration(tournament)
    (round_,) = make_rounds(tournament, 1)
    Seat.objects.create(round=round_, table_number=1, wind="E", registration=registration)
    _refused(
        lambda: Seat.objects.create(
            round=round_, table_number=2, wind="S", registration=registration
        )
    )


@pytest.mark.django_db
def test_one_seat_holds_one_registration(tournament):
    first, second = make_registration(tournament), make_registration(tournament)
    (round_,) = make_rounds(tournament, 1)
    Seat.objects.create(round=round_, table_number=3, wind="W", registration=first)
    _refused(
        lambda: Seat.objects.create(round=round_, table_number=3, wind="W", registration=second)
    )


@pytest.mark.django_db
def test_a_seat_wind_outside_east_south_west_north_is_refused(tournament):
    registration = make_registration(tournament)
    (round_,) = make_rounds(tournament, 1)
    _refused(
        lambda: Seat.objects.create(
            round=round_, table_number=1, wind="X", registration=registration
        )
    )


@pytest.mark.django_db
def test_round_numbers_are_unique_per_tournament(tournament):
    make_rounds(tournament, 1)
    _refused(lambda: Round.objects.create(tournament=tournament, number=1))


@pytest.mark.django_db
def test_a_tournament_cannot_end_before_it_starts():
    _refused(
        lambda: make_tournament(
            start_date=datetime.date(2026, 6, 7), end_date=datetime.date(2026, 6, 6)
        )
    )


@pytest.mark.django_db
def test_ema_numbers_are_unique_but_may_be_left_empty():
    make_player(ema_number="")
    make_player(ema_number="")
    make_player(ema_number="04010001")
    _refused(lambda: make_player(ema_number="04010001"))


@pytest.mark.django_db
def test_a_disqualification_without_reason_is_refused(tournament):
    _refused(lambda: make_registration(tournament, status=Registration.Status.DISQUALIFIED))


@pytest.mark.django_db
def test_round_time_limit_defaults_to_wrc_recommendation():
    # WRC 2015 §8.2 [WRC 2015]: 90 minutes recommended.
    assert Tournament._meta.get_field("round_minutes").default == 90
