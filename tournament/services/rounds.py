"""Rounds: they follow the tournament's number of rounds (`tournaments`); their start time
and Swiss flag are set, and their status changes are recorded."""

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q

from tournament.models import Round, Tournament
from tournament.services.audit import audit_record
from tournament.services.records import record_delete, record_update


def rounds_in_use_beyond(tournament: Tournament, count: int) -> list[int]:
    """Numbers of the rounds above ``count`` that hold seating, sheets or penalties: lowering
    the number of rounds must not delete what was planned or played."""
    return list(
        tournament.rounds.filter(number__gt=count)
        .filter(Q(seats__isnull=False) | Q(score_sheets__isnull=False) | Q(penalties__isnull=False))
        .values_list("number", flat=True)
        .distinct()
        .order_by("number")
    )


def round_start(*, round_: Round, acting_user, origin: str = "") -> None:
    """A seated round whose clock starts or whose first sheet is saved is being played:
    re-seating leaves it alone and the pages show it (audited, with the write's ``origin``
    when no account made it: "table report")."""
    if round_.status == Round.Status.SEATED:
        round_.status = Round.Status.PLAYING
        round_.save(update_fields=["status"])
        audit_record(
            tournament=round_.tournament,
            actor=acting_user,
            action="round.start",
            obj=round_,
            data={"origin": origin} if origin else None,
        )


@transaction.atomic
def round_record_status(*, round_: Round, previous: str, acting_user) -> None:
    """An organiser changed the round's status (saved already) from ``previous``: audited,
    and a lock or an unlock of its results also says on the round who did it and when, for
    whoever finds results they cannot change (or changed after all)."""
    entry = audit_record(
        tournament=round_.tournament,
        actor=acting_user,
        action="round.status",
        obj=round_,
        data={"from": previous, "to": round_.status},
    )
    if Round.Status.LOCKED in (previous, round_.status):
        round_.lock_changed_at = entry.created_at
        round_.lock_changed_by = entry.actor
        round_.save(update_fields=["lock_changed_at", "lock_changed_by"])


@transaction.atomic
def round_update(*, round_: Round, data: Mapping[str, Any], acting_user) -> Round:
    """Set its scheduled start or Swiss flag (``data``: field: value); its status changes
    through `round_status.round_status_change`, which checks and records it. A new start
    moves the round's schedule revision (the players' calendar feeds)."""
    start = Round.objects.values_list("scheduled_start", flat=True).get(pk=round_.pk)
    record_update(
        round_, data, tournament=round_.tournament, action="round.update", acting_user=acting_user
    )
    if round_.scheduled_start != start:
        Round.objects.filter(pk=round_.pk).schedule_changed()
    return round_


@transaction.atomic
def round_delete(*, round_: Round, acting_user) -> None:
    """Delete a round with its seats and score sheets; saving the tournament creates it again
    while the number of rounds still counts it."""
    record_delete(
        round_, tournament=round_.tournament, action="round.delete", acting_user=acting_user
    )
