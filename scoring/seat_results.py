"""What a confirmed score sheet stores for the standings, and the check that it still does.

`seat_rows` asks the rules engine once for a sheet's version and gives one row a seat
(`SeatRow`): the place and the score in whole `scoring.rules.SCORE_UNIT`s. The scoring
services store them as `SeatResult` rows in the sheet's own transaction
(`scoring.services.seat_results`); `differences` scores every confirmed sheet again and
names each row that is missing, extra or different (`manage.py check_standings`).

Not here: writing the rows (`scoring.services.seat_results`), ranking them
(`scoring.selectors.standings`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from scoring.entries import stored_seat_sheets
from scoring.models import ScoreSheet, SeatResult
from scoring.rules import RulesError, RulesErrors, RuleSet, score_hanchan
from tournament.models import WINDS, Tournament


class SeatRow(NamedTuple):
    """One seat of a scored sheet: ``points`` and ``place`` None where a substitute played
    (the registered player gets no hanchan points, WRC 2015 §7.2)."""

    registration_id: int
    wind: str
    points: int | None
    place: int | None
    score: int
    penalty: int
    substitute_id: int | None


def seat_rows(rules: RuleSet, data: dict[str, Any]) -> list[SeatRow]:
    """The rows of one confirmed version's data; none when the current rules refuse it (the
    rule set changed under it: it counts again once a head referee corrects it). Read from
    the stored JSON as it is: the seats and the sticks left are all the score needs."""
    try:
        result = score_hanchan(rules, stored_seat_sheets(data), data["riichi_sticks_left"])
    except (RulesError, RulesErrors):
        return []
    return [
        SeatRow(
            seat["registration"],
            wind,
            score.points if seat["substitute"] is None else None,
            score.place if seat["substitute"] is None else None,
            score.score_units,
            score.penalty_units,
            seat["substitute"],
        )
        for wind, seat, score in zip(WINDS, data["seats"], result.seats, strict=True)
    ]


def sheet_seat_rows(rules: RuleSet, sheet: ScoreSheet) -> list[SeatRow]:
    """The rows the sheet should have stored: none unless it is confirmed."""
    if sheet.status != ScoreSheet.Status.CONFIRMED or sheet.current is None:
        return []
    return seat_rows(rules, sheet.current.data)


def _described(sheet: ScoreSheet, row: SeatRow) -> str:
    return f"round {sheet.round.number}, table {sheet.table_number}, {row.wind}: {row}"


def differences(tournament: Tournament) -> list[str]:
    """Every stored row that a scoring of the sheets now would not give, and every row it
    would give that is not stored, one line each (empty: the standings are right)."""
    rules = tournament.get_rules()
    stored: dict[int, set[SeatRow]] = {}
    for sheet_id, *fields in SeatResult.objects.filter(tournament=tournament).values_list(
        "sheet_id", "registration_id", "wind", "points", "place", "score", "penalty",
        "substitute_id",
    ):  # fmt: skip
        stored.setdefault(sheet_id, set()).add(SeatRow(*fields))
    lines = []
    for sheet in ScoreSheet.objects.filter(round__tournament=tournament).select_related(
        "current", "round"
    ):
        expected = set(sheet_seat_rows(rules, sheet))
        found = stored.pop(sheet.pk, set())
        for label, rows in (("missing", expected - found), ("not expected", found - expected)):
            lines += [f"{label}: {_described(sheet, row)}" for row in sorted(rows, key=str)]
    lines += [f"no such sheet {sheet_id}: {rows}" for sheet_id, rows in sorted(stored.items())]
    return lines
