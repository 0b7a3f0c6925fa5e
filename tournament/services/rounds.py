"""The tournament's rounds follow its number of rounds; their status changes are recorded."""

from django.db import transaction
from django.db.models import Q

from tournament.models import Round, Tournament
from tournament.services.audit import audit_record


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


@transaction.atomic
def rounds_follow_count(tournament: Tournament) -> None:
    """Create rounds 1..rounds_count that do not exist yet and delete the empty rounds above
    it; existing rounds are never renumbered, and rounds in use are never deleted."""
    count = tournament.rounds_count
    tournament.rounds.filter(number__gt=count).exclude(
        number__in=rounds_in_use_beyond(tournament, count)
    ).delete()
    existing = set(tournament.rounds.values_list("number", flat=True))
    Round.objects.bulk_create(
        Round(tournament=tournament, number=number)
        for number in range(1, count + 1)
        if number not in existing
    )


def round_start(*, round_: Round, acting_user) -> None:
    """A seated round whose clock starts or whose first sheet is saved is being played:
    re-seating leaves it alone and the pages show it (audited)."""
    if round_.status == Round.Status.SEATED:
        round_.status = Round.Status.PLAYING
        round_.save(update_fields=["status"])
        audit_record(
            tournament=round_.tournament, actor=acting_user, action="round.start", obj=round_
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
