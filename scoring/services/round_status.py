"""A round's status set by an organiser (the admin's round page): checked, saved and
recorded. In the scoring app because the checks are the results': a round with score sheets
has been played, and a locked round's results are final (`locking`); the status is recorded
by the tournament's own `round_record_status`. And a round's results released by hand to the
public rankings before every table is confirmed (`round_results_release`)."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.services.locking import lock_refusal
from scoring.services.sheets import round_lock_changed
from tournament.alerts.seats import seat_alerts_queue
from tournament.models import Round
from tournament.permissions import Role, has_role
from tournament.services.audit import audit_record
from tournament.services.rounds import round_record_status


def round_status_refusal(round_: Round, status: str) -> str | None:
    """Why the round (as stored) cannot take ``status``, or None. A locked round's results
    are final: every table must have a confirmed sheet. A round with sheets has been played,
    so it cannot go back to planned or seated."""
    if status == round_.status:
        return None
    if status in (Round.Status.PLANNED, Round.Status.SEATED) and round_.score_sheets.exists():
        return _(
            "This round already has score sheets, so it has been played: it can be "
            "“%(playing)s”, “%(finished)s” or “%(locked)s”, not “%(status)s”."
        ) % {
            "playing": Round.Status.PLAYING.label,
            "finished": Round.Status.FINISHED.label,
            "locked": Round.Status.LOCKED.label,
            "status": Round.Status(status).label,
        }
    if status == Round.Status.LOCKED:
        return lock_refusal(round_)
    return None


@transaction.atomic
def round_status_change(*, round_: Round, status: str, acting_user) -> Round:
    """Set the round's status, checked again against the stored round (locked meanwhile),
    and record it (`round_record_status`: audited, a lock or unlock noted on the round).
    The same status changes nothing."""
    stored = Round.objects.select_for_update().get(pk=round_.pk)
    if status == stored.status:
        return round_
    refusal = round_status_refusal(stored, status)
    if refusal:
        raise ValidationError(refusal)
    round_.status = status
    round_.save(update_fields=["status"])
    if stored.status == Round.Status.PLANNED:
        # Its seats, stored before, are published: every player seated in it is told.
        seat_alerts_queue(before={}, round_ids=[round_.pk], published=[round_.pk])
    if Round.Status.LOCKED in (stored.status, status):
        round_lock_changed(round_)
    round_record_status(round_=round_, previous=stored.status, acting_user=acting_user)
    return round_


@transaction.atomic
def round_results_release(*, round_: Round, acting_user) -> Round:
    """Show the round's results on the public rankings although some of its tables are not
    confirmed yet (`Tournament.release_complete_rounds`): a head referee's or organiser's
    call, e.g. for a table still disputed at the prize-giving (audited). Released twice, the
    first release stands."""
    if not has_role(acting_user, round_.tournament, Role.HEAD_REFEREE):
        raise PermissionDenied
    stored = Round.objects.select_for_update().get(pk=round_.pk)
    if stored.results_released_at is not None:
        round_.results_released_at = stored.results_released_at
        return round_
    round_.results_released_at = timezone.now()
    round_.save(update_fields=["results_released_at"])
    audit_record(
        tournament=round_.tournament, actor=acting_user, action="round.release", obj=round_
    )
    return round_
