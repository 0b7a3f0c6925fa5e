"""Penalties given by a referee (WRC 2015 §7) and disqualification.

A penalty is never deleted: it is cancelled with a reason, and both the penalty and its
cancellation stay in the penalty list that federations ask for. A penalty in a locked round
(its results are final) is neither given nor cancelled, as that round's sheets; one with no
round (tournament-wide) always can be. A disqualified player is taken out of the ranking and
out of future seating (the registration's status, which the seating only fills from active
registrations).
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.alerts import penalty_alert_queue
from scoring.messages import NOT_RANKED_NO_PENALTY
from scoring.models import Penalty
from scoring.services.sheets import round_locked_message
from tournament.invalidation import standings_changed
from tournament.models import Registration, Round, TournamentStaff
from tournament.permissions import has_role
from tournament.services.audit import audit_record
from tournament.services.registrations import registration_disqualify

Role = TournamentStaff.Role


def _round_locked(round_: Round | None) -> bool:
    """Whether the penalty's round has final results. Its row is read locked, as the sheets'
    saves do, so the round cannot be locked between this check and the commit."""
    if round_ is None:
        return False
    status = Round.objects.select_for_update().values_list("status", flat=True).get(pk=round_.pk)
    return status == Round.Status.LOCKED


@transaction.atomic
def penalty_give(
    *,
    registration: Registration,
    points: Decimal,
    reason: str,
    kind: str = Penalty.Kind.DISCRETIONARY,
    round_: Round | None = None,
    acting_user,
) -> Penalty:
    """Take `points` (a positive number) off the player's total, with a reason."""
    tournament = registration.tournament
    if not has_role(acting_user, tournament, Role.HEAD_REFEREE):
        raise PermissionDenied
    if not registration.is_ranked:
        raise ValidationError({"registration": NOT_RANKED_NO_PENALTY})
    if round_ is not None and round_.tournament_id != tournament.pk:
        raise ValidationError({"round": _("This round belongs to another tournament.")})
    if _round_locked(round_):
        raise ValidationError({"round": round_locked_message(round_)})
    if points <= 0:
        raise ValidationError({"points": _("Give the number of points to take off, e.g. 10.")})
    penalty = Penalty(
        tournament=tournament,
        registration=registration,
        round=round_,
        kind=kind,
        points=-points,
        reason=reason.strip(),
        given_by=acting_user,
    )
    penalty.full_clean()
    penalty.save()
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action="penalty.give",
        obj=penalty,
        reason=penalty.reason,
        data={"registration": registration.pk, "points": str(penalty.points), "kind": kind},
    )
    standings_changed(tournament)
    penalty_alert_queue(penalty)
    return penalty


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, reason: str, acting_user) -> Penalty:
    """Cancel a penalty; it stays listed, marked cancelled, with who and why."""
    penalty = (
        Penalty.objects.select_for_update(of=("self",))
        .select_related("tournament", "round")
        .get(pk=penalty.pk)
    )
    if not has_role(acting_user, penalty.tournament, Role.HEAD_REFEREE):
        raise PermissionDenied
    if penalty.is_cancelled:
        raise ValidationError(_("This penalty is already cancelled."))
    if _round_locked(penalty.round):
        raise ValidationError(round_locked_message(penalty.round))
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Give a reason.")})
    penalty.cancelled_at = timezone.now()
    penalty.cancelled_by = acting_user
    penalty.cancel_reason = reason
    penalty.full_clean()
    penalty.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
    audit_record(
        tournament=penalty.tournament,
        actor=acting_user,
        action="penalty.cancel",
        obj=penalty,
        reason=reason,
        data={"penalty": penalty.pk},
    )
    standings_changed(penalty.tournament)
    return penalty


@transaction.atomic
def player_disqualify(*, registration: Registration, reason: str, acting_user) -> Registration:
    """WRC 2015 §7.1: out of the ranking and out of future seating; results already played
    stay on the other players' sheets."""
    if not has_role(acting_user, registration.tournament, Role.HEAD_REFEREE):
        raise PermissionDenied
    if registration.status == Registration.Status.DISQUALIFIED:
        raise ValidationError(_("This player is already disqualified."))
    registration = registration_disqualify(
        registration=registration, reason=reason, acting_user=acting_user
    )
    standings_changed(registration.tournament)
    return registration
