"""Confirmed results for the demo tournament's first rounds, entered through the services.

Rounds 1-3, every seated table: a scorer enters the sheet and the head referee confirms it
(or the entry counts at once under the single-entry policy). The results show a tie at a
table (shared uma), a chombo, a late player and a substitute playing for an absent player.
Rounds without seats are left alone: run this after the seating demo. Running it again
changes nothing (each sheet's submission token is derived from the table).
"""

from __future__ import annotations

import random
import uuid

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring.entries import SeatEntry, SheetEntry
from scoring.models import ScoreSheet
from scoring.policy import confirmed_by_blind_entry
from scoring.services.sheets import sheet_confirm, sheet_enter
from tournament.demo import DEMO_OFFICIALS
from tournament.models import (
    WIND_ORDER,
    Player,
    Registration,
    Round,
    Seat,
    Tournament,
    TournamentStaff,
)

DEMO_ROUNDS = (1, 2, 3)
TOKEN_NAMESPACE = uuid.UUID("5f0c4a8e-9a53-4c39-9a51-2d3f0f6b8e11")
SUBSTITUTE = ("Alex", "Durand", "FR")


def _official(tournament: Tournament, username: str, role: str, password: str):
    user, created = get_user_model().objects.get_or_create(username=username)
    # A demo loaded before its officials had passwords gets them too: such an official never
    # logged in. One who did and has no password was disabled by an admin, and stays so.
    if created or (not user.has_usable_password() and user.last_login is None):
        user.set_password(password)
        user.save(update_fields=["password"])
    TournamentStaff.objects.get_or_create(tournament=tournament, user=user, defaults={"role": role})
    return user


def demo_official_logins() -> list[tuple[str, str, str | None]]:
    """(label, username, password) of the demo's officials, for the quick start to print;
    the password is None where it was changed (it is not ours to show). Officials who cannot
    log in (inactive, or their password disabled by an admin) are left out."""
    users = get_user_model().objects.in_bulk(
        [username for _label, username, _role, _password in DEMO_OFFICIALS],
        field_name="username",
    )
    return [
        (label, username, password if users[username].check_password(password) else None)
        for label, username, _role, password in DEMO_OFFICIALS
        if username in users and users[username].is_active and users[username].has_usable_password()
    ]


def _substitute(tournament: Tournament) -> Registration:
    existing = tournament.registrations.filter(is_substitute=True).first()
    if existing is not None:
        return existing
    first, last, country = SUBSTITUTE
    player = Player.objects.create(
        first_name=first, last_name=last, country=country, is_demo=tournament.is_demo
    )
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        is_substitute=True,
        status=Registration.Status.CHECKED_IN,
    )


def _points(round_number: int, table: int) -> tuple[list[int], int]:
    """Plausible final points (multiples of 100) and riichi sticks left, fixed per table."""
    rng = random.Random(round_number * 1000 + table)
    sticks = rng.choice((0, 0, 0, 1))
    points = [rng.randrange(80, 520) * 100 for _seat in range(3)]
    points.append(120000 - 1000 * sticks - sum(points))
    return points, sticks


def _entry(round_: Round, table: int, seats: list[Seat], substitute: Registration) -> SheetEntry:
    points, sticks = _points(round_.number, table)
    changes: dict[int, dict] = {}
    if round_.number == 1 and table == 1:
        points, sticks = [35000, 35000, 28000, 22000], 0  # a tie for 1st: uma shared
    if round_.number == 1 and table == 2:
        changes[1] = {"chombo": 1}  # South's chombo: 20 penalty points (WRC 2015 §7.1)
    if round_.number == 2 and table == 1:
        changes[2] = {"late_minutes": 4}  # West 4 minutes late (WRC 2015 §7.2)
    if round_.number == 3 and table == 1:
        changes[3] = {"substitute_id": substitute.pk}  # North absent: missed hanchan
    return SheetEntry(
        kind="final",
        seats=tuple(
            SeatEntry(
                registration_id=seat.registration_id,
                points=points[index],
                **changes.get(index, {}),
            )
            for index, seat in enumerate(seats)
        ),
        riichi_sticks_left=sticks,
        note="",
    )


@transaction.atomic
def add_demo_results(tournament: Tournament) -> None:
    """Enter and confirm the demo's first rounds (idempotent)."""
    scorer, head = (
        _official(tournament, username, role, password)
        for _label, username, role, password in DEMO_OFFICIALS
    )
    substitute = _substitute(tournament)
    for round_ in tournament.rounds.filter(number__in=DEMO_ROUNDS).order_by("number"):
        tables: dict[int, list[Seat]] = {}
        for seat in Seat.objects.filter(round=round_):
            tables.setdefault(seat.table_number, []).append(seat)
        for table, seats in sorted(tables.items()):
            if len(seats) != 4:
                continue
            seats.sort(key=lambda seat: WIND_ORDER[seat.wind])
            sheet = ScoreSheet.objects.filter(round=round_, table_number=table).first()
            if sheet is not None and sheet.status == ScoreSheet.Status.CONFIRMED:
                continue
            entry = _entry(round_, table, seats, substitute)
            key = f"{tournament.pk}/{round_.number}/{table}"
            outcome = sheet_enter(
                round_=round_,
                table_number=table,
                entry=entry,
                token=uuid.uuid5(TOKEN_NAMESPACE, key),
                revision=sheet.revision if sheet else 0,
                acting_user=scorer,
            )
            if outcome.sheet.status != ScoreSheet.Status.ENTERED:
                continue
            if confirmed_by_blind_entry(tournament):
                sheet_enter(
                    round_=round_,
                    table_number=table,
                    entry=entry,
                    token=uuid.uuid5(TOKEN_NAMESPACE, f"{key}/blind"),
                    revision=outcome.sheet.revision,
                    acting_user=head,
                )
            else:
                sheet_confirm(
                    sheet=outcome.sheet,
                    version_number=outcome.sheet.current.number,
                    acting_user=head,
                )
