"""Writes of the stored seat results (`scoring.models.SeatResult`), the standings' input.

Called inside the transaction of every change that makes a sheet count, stop counting or
count differently: a sheet entered, confirmed or corrected (`scoring.services.sheets`), the
rules of a tournament changed or an archive restored (`tournament.signals.results_rescored`,
answered in `scoring.apps`), and `manage.py check_standings --repair`. The rules engine
scores each sheet once here (`scoring.seat_results.seat_rows`); the standings only rank
the rows. Penalties and registration statuses are not copied: they are already one small
row each, read by the standings as they are.
"""

from django.db import transaction

from scoring.models import ScoreSheet, SeatResult
from scoring.seat_results import sheet_seat_rows
from tournament.invalidation import standings_changed
from tournament.models import Tournament


def _rows(sheet: ScoreSheet, rules) -> list[SeatResult]:
    return [
        SeatResult(
            sheet=sheet,
            tournament_id=sheet.round.tournament_id,
            round_id=sheet.round_id,
            **row._asdict(),
        )
        for row in sheet_seat_rows(rules, sheet)
    ]


@transaction.atomic
def seat_results_store(*, sheet: ScoreSheet) -> None:
    """Replace the sheet's stored results with what its current state gives: its seats'
    results when confirmed, nothing otherwise."""
    SeatResult.objects.filter(sheet=sheet).delete()
    SeatResult.objects.bulk_create(_rows(sheet, sheet.round.tournament.get_rules()))
    standings_changed(sheet.round.tournament_id)


@transaction.atomic
def seat_results_rebuild(*, tournament: Tournament) -> int:
    """Score every confirmed sheet of the tournament again and store the results; the
    number of rows stored."""
    rules = tournament.get_rules()
    SeatResult.objects.filter(tournament=tournament).delete()
    sheets = ScoreSheet.objects.filter(
        round__tournament=tournament, status=ScoreSheet.Status.CONFIRMED
    ).select_related("current", "round")
    stored = SeatResult.objects.bulk_create(
        [row for sheet in sheets for row in _rows(sheet, rules)], batch_size=1000
    )
    standings_changed(tournament)
    return len(stored)
