"""Reads of penalties: every penalty of a tournament for review, and the referees' ones.

The sheets' chombo, lateness and missed hanchans come from confirmed sheets as the rules
engine scores them: every sheet of the tournament for the review, only the sheets of one
player's tables for their page (a 500-player tournament's 875 sheets scored for every player
page cost seconds); the referees' penalties are rows of their own, cancelled ones included
and marked.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.entries import SheetEntry, score_stored
from scoring.models import Penalty, ScoreSheet, SeatResult
from scoring.rules import HanchanResult, RulesError, RulesErrors
from tournament.models import Player, Registration, Seat, Tournament

SHEET_PENALTY_LABELS = {
    "chombo": gettext_lazy("Chombo"),
    "lateness": gettext_lazy("Lateness"),
    "missed_hanchan": gettext_lazy("Missed hanchan"),
}


@dataclass(frozen=True)
class PenaltyLine:
    """One penalty for review: from a confirmed sheet (`penalty_id` None) or a referee."""

    registration_id: int
    player: Player
    round_number: int | None
    table_number: int | None
    kind: str  # chombo, lateness, missed_hanchan, or a Penalty.Kind
    kind_label: str
    points: Fraction
    reason: str
    given_by: str
    created_at: datetime.datetime | None
    penalty_id: int | None = None
    cancelled: bool = False
    in_locked_round: bool = False  # a referee's penalty there can no longer be cancelled
    cancel_reason: str = ""
    cancelled_by: str = ""


def penalty_list(
    tournament: Tournament, registration: Registration | None = None
) -> list[PenaltyLine]:
    """Every penalty for review: the sheets' chombo, lateness and missed hanchans (confirmed
    sheets only) and the referees' penalties, cancelled ones included and marked."""
    if registration is None:
        registrations = {
            reg.pk: reg
            for reg in Registration.objects.filter(tournament=tournament).select_related("player")
        }
    else:
        registrations = {registration.pk: registration}
    lines: list[PenaltyLine] = []
    for sheet, entry, result in _scored_sheets(tournament, registration):
        version = sheet.current
        for seat, score in zip(entry.seats, result.seats, strict=True):
            for kind, points in _sheet_penalty_kinds(seat, score):
                # A substitute's chombo is theirs, not the replaced player's (WRC 2015 §7.1):
                # the engine takes it off nobody, so it must not show on the replaced
                # player's page as if it counted.
                by_substitute = kind == "chombo" and seat.substitute_id is not None
                offender = seat.substitute_id if by_substitute else seat.registration_id
                reg = registrations.get(offender)
                if reg is None:
                    continue
                lines.append(
                    PenaltyLine(
                        registration_id=reg.pk,
                        player=reg.player,
                        round_number=sheet.round.number,
                        table_number=sheet.table_number,
                        kind=kind,
                        kind_label=str(SHEET_PENALTY_LABELS[kind]),
                        points=points,
                        reason=_sheet_reason(kind, seat, points, by_substitute=by_substitute),
                        given_by=version.author if version else "",
                        created_at=version.created_at if version else None,
                    )
                )
    queryset = Penalty.objects.filter(tournament=tournament).select_related(
        "registration__player", "round", "given_by", "cancelled_by"
    )
    if registration is not None:
        queryset = queryset.filter(registration=registration)
    for penalty in queryset:
        lines.append(
            PenaltyLine(
                registration_id=penalty.registration_id,
                player=penalty.registration.player,
                round_number=penalty.round.number if penalty.round else None,
                table_number=None,
                kind=penalty.kind,
                kind_label=str(penalty.get_kind_display()),
                points=Fraction(penalty.points),
                reason=penalty.reason,
                given_by=str(penalty.given_by),
                created_at=penalty.created_at,
                penalty_id=penalty.pk,
                cancelled=penalty.is_cancelled,
                in_locked_round=penalty.round is not None and penalty.round.is_locked,
                cancel_reason=penalty.cancel_reason,
                cancelled_by=str(penalty.cancelled_by) if penalty.cancelled_by else "",
            )
        )
    lines.sort(
        key=lambda line: (
            line.round_number or 0,
            line.table_number or 0,
            line.player.last_name,
            line.player.first_name,
            line.penalty_id or 0,
        )
    )
    return lines


def _scored_sheets(
    tournament: Tournament, registration: Registration | None
) -> Iterator[tuple[ScoreSheet, SheetEntry, HanchanResult]]:
    """The confirmed sheets as the engine scores them under the current rules: every one of
    the tournament, or those of the tables where `registration` sat or played as a
    substitute (one query). A sheet the rules no longer accept counts for nothing until a
    head referee corrects it, as in the standings."""
    sheets = ScoreSheet.objects.filter(
        round__tournament=tournament,
        status=ScoreSheet.Status.CONFIRMED,
        current__isnull=False,
    ).select_related("round", "current__entered_by")
    if registration is not None:
        sat = Seat.objects.filter(
            round=OuterRef("round"),
            table_number=OuterRef("table_number"),
            registration=registration,
        )
        substituted = SeatResult.objects.filter(sheet=OuterRef("pk"), substitute=registration)
        sheets = sheets.filter(Exists(sat) | Exists(substituted))
    rules = tournament.get_rules()
    for sheet in sheets:
        try:
            result = score_stored(rules, sheet.current.kind, sheet.current.data)
        except (RulesError, RulesErrors):
            continue
        yield sheet, SheetEntry.from_data(sheet.current.kind, sheet.current.data), result


def _sheet_penalty_kinds(seat, score) -> list[tuple[str, Fraction]]:
    out = []
    if score.chombo_penalty:
        out.append(("chombo", score.chombo_penalty))
    # Listed even when the rules price it at nothing: ORAN leaves lateness to the referees'
    # sanction (docs/rules.md A7), who must see on the list who was late or absent to decide it.
    if score.late_penalty or seat.late_minutes or seat.absent:
        out.append(("missed_hanchan" if seat.absent else "lateness", score.late_penalty))
    return out


def _sheet_reason(kind: str, seat, points: Fraction, *, by_substitute: bool = False) -> str:
    reason = _sheet_fact(kind, seat, by_substitute=by_substitute)
    if points:
        return reason
    return _("%(reason)s (no penalty under these rules; a referee may give one)") % {
        "reason": reason
    }


def _sheet_fact(kind: str, seat, *, by_substitute: bool) -> str:
    if by_substitute:
        return _(
            "%(count)s chombo on the score sheet, as a substitute: not ranked, so it counts "
            "for nobody"
        ) % {"count": seat.chombo}
    if kind == "chombo":
        return _("%(count)s chombo on the score sheet") % {"count": seat.chombo}
    if kind == "lateness" and seat.substitute_id is not None:
        # Beyond the limit the penalty is a total (WRC 2015 §7.2: 30), not so much a minute.
        return _("%(minutes)s minutes late; a substitute played") % {"minutes": seat.late_minutes}
    if kind == "lateness":
        return _("%(minutes)s minutes late") % {"minutes": seat.late_minutes}
    return _("Missed the hanchan; a substitute played")


def referee_penalties(tournament: Tournament) -> dict[int, list[tuple[int | None, Fraction]]]:
    """registration id → [(round number or None, points)] of the active referees' penalties
    (those outside the score sheets), in one query."""
    penalties: dict[int, list[tuple[int | None, Fraction]]] = {}
    for registration_id, number, points in (
        Penalty.objects.filter(tournament=tournament)
        .active()
        .values_list("registration_id", "round__number", "points")
    ):
        penalties.setdefault(registration_id, []).append((number, Fraction(points)))
    return penalties
