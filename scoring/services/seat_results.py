"""Writes of the stored seat results (`scoring.models.SeatResult`), the standings' input.

Called inside the transaction of every change that makes a sheet count, stop counting or
count differently: a sheet entered, confirmed or corrected (`scoring.services.sheets`), the
rules of a tournament changed or an archive restored (`tournament.signals.results_rescored`,
answered in `scoring.apps`), and `manage.py check_standings --repair`. The rules engine
scores each sheet once here (`scoring.seat_results.seat_rows`); the standings only rank
the rows. Penalties and registration statuses are not copied: they are already one small
row each, read by the standings as they are.
"""

from django.db import connection, transaction

from scoring.models import ScoreSheet, SeatResult
from scoring.seat_results import SeatRow, seat_rows, sheet_seat_rows
from scoring.selectors.standings import forget_built_standings
from tournament.invalidation import standings_changed
from tournament.models import Tournament

#: What `_insert` writes of each row: the sheet, tournament and round, then a `SeatRow`.
_FIELDS = ("sheet_id", "tournament_id", "round_id", *SeatRow._fields)


def _insert(rows: list[tuple]) -> None:
    """Insert stored results (`_FIELDS`) with one ``executemany``: a rebuild writes 20,000
    of them, and a model instance each, prepared field by field by ``bulk_create``, cost
    more than scoring the sheets (docs/performance.md)."""
    if not rows:
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(SeatResult._meta.get_field(name).column) for name in _FIELDS)
    values = ", ".join(["%s"] * len(_FIELDS))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {quote(SeatResult._meta.db_table)} ({columns}) VALUES ({values})", rows
        )


@transaction.atomic
def seat_results_store(*, sheet: ScoreSheet) -> None:
    """Replace the sheet's stored results with what its current state gives: its seats'
    results when confirmed, nothing otherwise."""
    SeatResult.objects.filter(sheet=sheet).delete()
    tournament_id = sheet.round.tournament_id
    _insert(
        [
            (sheet.pk, tournament_id, sheet.round_id, *row)
            for row in sheet_seat_rows(sheet.round.tournament.get_rules(), sheet)
        ]
    )
    standings_changed(tournament_id)


@transaction.atomic
def seat_results_rebuild(*, tournament: Tournament) -> int:
    """Score every confirmed sheet of the tournament again and store the results; the
    number of rows stored. The sheets are read as values, no model instance each."""
    rules = tournament.get_rules()
    SeatResult.objects.filter(tournament=tournament).delete()
    sheets = ScoreSheet.objects.filter(
        round__tournament=tournament, status=ScoreSheet.Status.CONFIRMED, current__isnull=False
    ).values_list("pk", "round_id", "current__data")
    rows = [
        (sheet_id, tournament.pk, round_id, *row)
        for sheet_id, round_id, data in sheets
        for row in seat_rows(rules, data)
    ]
    _insert(rows)
    standings_changed(tournament)
    forget_built_standings(tournament)
    return len(rows)
