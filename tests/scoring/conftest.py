"""Factories for the score-sheet tests: seated rounds, officials, typed sheets."""

import uuid

import pytest

from scoring.entries import SeatEntry, SheetEntry
from scoring.services.sheets import sheet_enter
from tests.conftest import (
    confirm_sheet,
    make_registrations,
    make_rounds,
    make_seats,
    make_staff,
    make_tournament,
)
from tournament.models import Registration, Round, Seat, Tournament, TournamentStaff

WINDS = ("E", "S", "W", "N")
Role = TournamentStaff.Role


def seat_round(round_: Round, registrations: list[Registration], shift: int = 0) -> None:
    """Seat players four by four (a simple rotation per round, enough for these tests)."""
    count = len(registrations)
    order = [registrations[(index * (1 + shift) + shift) % count] for index in range(count)]
    if len(set(order)) != count:
        order = registrations[shift:] + registrations[:shift]
    for index, registration in enumerate(order):
        Seat.objects.create(
            round=round_,
            table_number=index // 4 + 1,
            wind=WINDS[index % 4],
            registration=registration,
        )
    round_.status = Round.Status.SEATED
    round_.save(update_fields=["status"])


def table_registrations(round_: Round, table: int) -> list[Registration]:
    seats = {
        seat.wind: seat.registration
        for seat in Seat.objects.filter(round=round_, table_number=table).select_related(
            "registration"
        )
    }
    return [seats[wind] for wind in WINDS]


def make_entry(
    registrations: list[Registration],
    points: tuple[int, int, int, int] = (42300, 31000, 27700, 19000),
    sticks: int = 0,
    **seat_changes: dict,
) -> SheetEntry:
    """A final-score sheet; `seat_changes={"S": {"chombo": 1}}` changes one seat."""
    seats = []
    for wind, registration, value in zip(WINDS, registrations, points, strict=True):
        fields = {"registration_id": registration.pk, "points": value}
        fields.update(seat_changes.get(wind, {}))
        seats.append(SeatEntry(**fields))
    return SheetEntry(kind="final", seats=tuple(seats), riichi_sticks_left=sticks)


def enter(
    round_: Round, table: int, entry: SheetEntry, user, revision: int | None = None, **options
):
    """`sheet_enter` with a fresh token at the sheet's revision; ``options``: draft,
    table_report."""
    from scoring.models import ScoreSheet

    if revision is None:
        sheet = ScoreSheet.objects.filter(round=round_, table_number=table).first()
        revision = sheet.revision if sheet else 0
    return sheet_enter(
        round_=round_,
        table_number=table,
        entry=entry,
        token=uuid.uuid4(),
        revision=revision,
        acting_user=user,
        **options,
    )


def two_rounds_played(user, tables_of_round_two=(1, 2, 3)):
    """12 players (3 tables), 3 rounds, single entry: round 1 seated and its 3 sheets entered
    by ``user``, round 2 seated (shifted) and the given tables entered, round 3 to seat.
    Returns (tournament, registrations, rounds)."""
    tournament = make_tournament(rounds_count=3, confirmation_policy="single")
    registrations = make_registrations(tournament, 12)
    rounds = make_rounds(tournament)
    seat_round(rounds[0], registrations)
    seat_round(rounds[1], registrations, shift=1)
    for round_, tables in ((rounds[0], (1, 2, 3)), (rounds[1], tables_of_round_two)):
        for table in tables:
            enter(round_, table, make_entry(table_registrations(round_, table)), user)
    return tournament, registrations, rounds


@pytest.fixture
def event(db, django_user_model):
    """A 12-player tournament (3 tables) with round 1 seated and its officials."""
    tournament: Tournament = make_tournament(
        confirmation_policy=Tournament.ConfirmationPolicy.SECOND_OFFICIAL
    )
    registrations = make_registrations(tournament, 12, teams=3)
    rounds = make_rounds(tournament, 3)
    seat_round(rounds[0], registrations)
    users = {}
    for role in (Role.REFEREE, Role.HEAD_REFEREE, Role.ORGANISER):
        user = django_user_model.objects.create_user(f"{role}-1")
        make_staff(tournament, user, role)
        users[role] = user
    second = django_user_model.objects.create_user("referee-2")
    make_staff(tournament, second, Role.REFEREE)
    users["referee2"] = second
    return {
        "tournament": tournament,
        "registrations": registrations,
        "rounds": rounds,
        "users": users,
    }


@pytest.fixture
def players(event):
    """The registrations at table 1 of round 1, E, S, W, N."""
    return table_registrations(event["rounds"][0], 1)


@pytest.fixture
def referee(client, event):
    """The client, logged in as the event's referee."""
    client.force_login(event["users"][Role.REFEREE])
    return client


def sheet_form_data(
    registrations: list[Registration],
    points=(42300, 31000, 27700, 19000),
    revision: int = 0,
    sticks: int = 0,
    **seat_changes: dict,
) -> dict:
    """POST data of the final-score form; `seat_changes={"E": {"late": 5}}` per seat."""
    data = {
        "token": str(uuid.uuid4()),
        "revision": str(revision),
        "riichi_sticks_left": str(sticks),
        "note": "",
    }
    for wind, registration, value in zip(WINDS, registrations, points, strict=True):
        seat = {"player": registration.pk, "points": value, "chombo": 0, "late": 0}
        seat["substitute"] = ""
        seat.update(seat_changes.get(wind, {}))
        data.update({f"{wind}_{name}": str(field) for name, field in seat.items()})
    return data


def check_and_save(client, url: str, data: dict):
    """Drive the page as an official does: Check, read the preview, then Save."""
    response = client.post(url, {**data, "action": "check"})
    assert response.status_code == 200, response.content
    checked = response.context.get("checked")
    assert checked, response.context["form"].errors
    return client.post(url, {**data, "action": "save", "checked": checked})


def release_event(django_user_model) -> dict:
    """8 players, 2 teams. Round 1: both tables confirmed (WRC 2015 §5.9.2: +27.3, +6.0,
    −7.3, −26.0 by wind E, S, W, N). Round 2: the players in reverse order, table 1
    confirmed with the points reversed (the last player of the list, N in round 1 at
    −26.0, is E at 19,000: −26.0 again, −52.0 in all), table 2 not entered yet."""
    tournament = make_tournament(
        confirmation_policy=Tournament.ConfirmationPolicy.SINGLE, release_complete_rounds=True
    )
    registrations = make_registrations(tournament, 8, teams=2)
    first, second = make_rounds(tournament, 2)
    make_seats(first, registrations)
    make_seats(second, registrations[::-1])
    Round.objects.filter(tournament=tournament).update(status=Round.Status.PLAYING)
    users = {}
    for role in (Role.REFEREE, Role.HEAD_REFEREE):
        users[role] = django_user_model.objects.create_user(
            f"{role}-{tournament.pk}", password="pw"
        )
        make_staff(tournament, users[role], role)
    referee = users[Role.REFEREE]
    confirm_sheet(first, 1, referee)
    confirm_sheet(first, 2, referee)
    confirm_sheet(second, 1, referee, points=(19000, 27700, 31000, 42300))
    return {
        "tournament": tournament,
        "registrations": registrations,
        "second": Round.objects.get(pk=second.pk),
        "referee": referee,
        "head": users[Role.HEAD_REFEREE],
    }
