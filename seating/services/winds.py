"""Writes of the winds: a wrong-seat correction (the winds one table actually played in one
round) and the winds of the rounds to come evened out again by the seating engine.

A correction rewrites the table's four seats to the winds played, so that its score sheet is
checked against them, and keeps the seats as they were in a `SeatCorrection` and in the
audit log. Evening out reorders the players inside each table of the seated rounds not yet
played (`seating.engine.winds.assign_winds` after the winds played); who sits at which table
does not change.
"""

import time
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from seating.engine.winds import assign_winds
from seating.models import SeatCorrection
from seating.selectors import wind_seating, wind_totals
from seating.services.runs import open_runs_discard
from tournament.alerts.seats import seat_alerts_queue, seat_places
from tournament.models import WINDS, Round, Seat, Tournament
from tournament.services.audit import audit_record

#: Seconds the engine may search for even winds, inside the head referee's request.
REBALANCE_SECONDS = 3.0


def _names(seats: dict[int, Seat], order: Sequence[int]) -> dict[str, str]:
    return {
        wind: seats[registration].registration.player.display_name
        for wind, registration in zip(WINDS, order, strict=True)
    }


@transaction.atomic
def seat_correction_record(
    *, round_: Round, table_number: int, played: Sequence[int], reason: str, acting_user
) -> SeatCorrection:
    """Record that one table played its four players in other winds (registration ids in
    the order East, South, West, North): its seats become the winds played."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.is_locked:
        raise ValidationError(
            _("The results of %(round)s are locked: unlock them first.") % {"round": round_}
        )
    if not round_.tournament.rounds.played().filter(pk=round_.pk).exists():
        raise ValidationError(
            _("%(round)s is not played yet: change its seats with the seating instead.")
            % {"round": round_}
        )
    seats = {
        seat.registration_id: seat
        for seat in Seat.objects.select_related("registration__player").filter(
            round=round_, table_number=table_number
        )
    }
    planned = sorted(seats, key=lambda registration: WINDS.index(seats[registration].wind))
    played = list(played)
    if len(seats) != 4 or sorted(played) != sorted(planned):
        raise ValidationError(_("Give each of the table's four players one wind."))
    if played == planned:
        raise ValidationError(_("These are the winds the table was seated in: nothing to correct."))
    correction = SeatCorrection(
        round=round_,
        table_number=table_number,
        planned=planned,
        played=played,
        reason=reason.strip(),
        corrected_by=acting_user,
    )
    correction.full_clean()
    correction.save()
    places = seat_places([round_.pk])
    Seat.objects.filter(round=round_, table_number=table_number).delete()
    for wind, registration in zip(WINDS, played, strict=True):
        seat = Seat(
            round=round_, table_number=table_number, wind=wind, registration_id=registration
        )
        seat.full_clean()
        seat.save()
    Round.objects.filter(pk=round_.pk).schedule_changed()
    seat_alerts_queue(before=places, round_ids=[round_.pk])
    audit_record(
        tournament=round_.tournament,
        actor=acting_user,
        action="seating.seat_correction",
        obj=correction,
        reason=correction.reason,
        data={
            "round": round_.number,
            "table": table_number,
            "planned": _names(seats, planned),
            "played": _names(seats, played),
        },
    )
    return correction


def _unevenness(totals: dict[int, list[int]]) -> tuple[int, int, int]:
    """Largest spread, players at it, sum of the spreads: the smaller, the more even."""
    spreads = [max(counts) - min(counts) for counts in totals.values()]
    largest = max(spreads, default=0)
    return largest, spreads.count(largest), sum(spreads)


@transaction.atomic
def winds_rebalance(*, tournament: Tournament, acting_user) -> list[Round]:
    """Even out the winds of the seated rounds not played yet after the winds played (a
    wrong-seat correction changed them); returns the rounds whose seats changed (none when
    the engine found nothing more even)."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    seating = wind_seating(tournament)
    if not seating.to_come:
        raise ValidationError(_("No round to come is seated: there are no winds to even out."))
    numbers = list(seating.to_come)
    rounds = list(tournament.rounds.filter(number__in=numbers).order_by("number"))
    current = [list(tables.values()) for tables in seating.to_come.values()]
    proposed = assign_winds(
        current,
        seed=rounds[0].seating_seed or 0,
        history_counts=seating.history,
        deadline=time.monotonic() + REBALANCE_SECONDS,
    )
    before = _unevenness(wind_totals(seating.history, current))
    after = _unevenness(wind_totals(seating.history, [list(tables) for tables in proposed]))
    if after >= before:
        return []
    round_ids = [round_.pk for round_ in rounds]
    places = seat_places(round_ids)
    Seat.objects.filter(round__in=rounds).delete()
    Seat.objects.bulk_create(
        Seat(round=round_, table_number=table, wind=wind, registration_id=registration)
        for round_, tables, orders in zip(rounds, seating.to_come.values(), proposed, strict=True)
        for table, order in zip(tables, orders, strict=True)
        for wind, registration in zip(WINDS, order, strict=True)
    )
    Round.objects.filter(pk__in=round_ids).schedule_changed()
    seat_alerts_queue(before=places, round_ids=round_ids)
    open_runs_discard(tournament)
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action="seating.winds_rebalance",
        obj=tournament,
        data={"rounds": numbers, "largest_spread": [before[0], after[0]]},
    )
    return rounds
