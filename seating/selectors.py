"""Reads of seating data for pages and exports (public seating, PDF/XLSX, the admin)."""

from typing import NamedTuple

from tournament.models import WIND_ORDER, Registration, Round, Seat


class TableSeating(NamedTuple):
    """One table of a round: its number and its four seats in wind order E, S, W, N."""

    table_number: int
    seats: list[tuple[str, Registration]]


def round_seating(round: Round) -> list[TableSeating]:
    """The round's tables in table order, each with (wind, registration) in E, S, W, N order.

    One query; registrations come with their player and team.
    """
    seats = Seat.objects.filter(round=round).select_related(
        "registration__player", "registration__team"
    )
    tables: dict[int, list[tuple[str, Registration]]] = {}
    for seat in seats:
        tables.setdefault(seat.table_number, []).append((seat.wind, seat.registration))
    return [
        TableSeating(number, sorted(tables[number], key=lambda item: WIND_ORDER[item[0]]))
        for number in sorted(tables)
    ]
