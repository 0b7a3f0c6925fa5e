"""Registrations: created, changed and deleted, and their status changes (check-in,
withdrawal, disqualification, reinstatement)."""

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.invalidation import standings_changed
from tournament.models import Player, Registration, Team, Tournament
from tournament.services.audit import audit_record
from tournament.services.records import record_create, record_delete, record_update
from tournament.services.waiting_list import waiting_list_promote


@transaction.atomic
def registration_create(
    *,
    tournament: Tournament,
    player: Player,
    team: Team | None = None,
    is_substitute: bool = False,
    acting_user,
) -> Registration:
    """Register a player (one registration per player and tournament): the standings list
    them."""
    registration = Registration(
        tournament=tournament, player=player, team=team, is_substitute=is_substitute
    )
    standings_changed(tournament)
    return record_create(
        registration, tournament=tournament, action="registration.create", acting_user=acting_user
    )


@transaction.atomic
def registration_update(
    *, registration: Registration, data: Mapping[str, Any], acting_user
) -> Registration:
    """Change a registration's player, team or substitute flag (``data``: field: value); its
    status changes through the services below, each with its reason. The standings show
    the team and the player."""
    standings_changed(registration.tournament)
    return record_update(
        registration,
        data,
        tournament=registration.tournament,
        action="registration.update",
        acting_user=acting_user,
    )


@transaction.atomic
def registration_delete(*, registration: Registration, acting_user) -> None:
    """Delete a registration made by mistake; one that holds results is refused
    (`Registration.delete`): the player is withdrawn instead. Its place goes to the
    waiting list."""
    standings_changed(registration.tournament)
    record_delete(
        registration,
        tournament=registration.tournament,
        action="registration.delete",
        acting_user=acting_user,
    )
    waiting_list_promote(tournament=registration.tournament, acting_user=acting_user)


@transaction.atomic
def registration_check_in(*, registration: Registration, acting_user) -> Registration:
    if not registration.is_active:
        raise ValidationError(
            _("%(player)s cannot be checked in: their registration is “%(status)s”.")
            % {"player": registration.player, "status": registration.get_status_display()}
        )
    registration.status = Registration.Status.CHECKED_IN
    registration.checked_in_at = timezone.now()
    registration.save(update_fields=["status", "checked_in_at"])
    audit_record(
        tournament=registration.tournament,
        actor=acting_user,
        action="registration.check_in",
        obj=registration,
    )
    return registration


def _set_inactive(
    *, registration: Registration, status: str, reason: str, acting_user, action: str
) -> Registration:
    """A second withdrawal would only overwrite the first one's reason; withdrawing a
    disqualified player would put them back in the ranking (WRC 2015 §7.1)."""
    current = Registration.objects.select_for_update().get(pk=registration.pk)
    if current.status == status or (
        current.status == Registration.Status.DISQUALIFIED
        and status == Registration.Status.WITHDRAWN
    ):
        raise ValidationError(
            _(
                "%(player)s is not changed: their registration is already “%(status)s” "
                "(reinstate them first if that was a mistake)."
            )
            % {"player": registration.player, "status": current.get_status_display()}
        )
    reason = _required_reason(reason)
    return _save_status(
        registration,
        {"status": status, "status_reason": reason},
        reason=reason,
        acting_user=acting_user,
        action=action,
    )


def _required_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason."))
    return reason


def _save_status(
    registration: Registration,
    fields: dict[str, Any],
    *,
    reason: str,
    acting_user,
    action: str,
    data: dict[str, Any] | None = None,
) -> Registration:
    """A change of status (withdraw, disqualify, reinstate): validated, saved and audited
    with its reason."""
    for name, value in fields.items():
        setattr(registration, name, value)
    registration.full_clean()
    registration.save(update_fields=list(fields))
    standings_changed(registration.tournament)
    audit_record(
        tournament=registration.tournament,
        actor=acting_user,
        action=action,
        obj=registration,
        reason=reason,
        data=data,
    )
    return registration


@transaction.atomic
def registration_withdraw(*, registration: Registration, reason: str, acting_user) -> Registration:
    """The player plays no more; their place goes to the first on the waiting list
    (`waiting_list_promote`), who is told by mail."""
    registration = _set_inactive(
        registration=registration,
        status=Registration.Status.WITHDRAWN,
        reason=reason,
        acting_user=acting_user,
        action="registration.withdraw",
    )
    waiting_list_promote(tournament=registration.tournament, acting_user=acting_user)
    return registration


@transaction.atomic
def registration_disqualify(
    *, registration: Registration, reason: str, acting_user
) -> Registration:
    """WRC 2015 §7.1: a disqualified player plays no more and is not listed in the ranking."""
    return _set_inactive(
        registration=registration,
        status=Registration.Status.DISQUALIFIED,
        reason=reason,
        acting_user=acting_user,
        action="registration.disqualify",
    )


@transaction.atomic
def registration_reinstate(*, registration: Registration, reason: str, acting_user) -> Registration:
    """Undo a withdrawal or a disqualification (a mistaken tick, an appeal upheld): the player
    is registered again, to be checked in again. The status reason goes (it would still say
    why they left); the audit trail keeps it, with this reason for their return."""
    current = Registration.objects.select_for_update().get(pk=registration.pk)
    if current.is_active:
        raise ValidationError(
            _(
                "%(player)s cannot be reinstated: their registration is “%(status)s”, "
                "neither withdrawn nor disqualified."
            )
            % {"player": registration.player, "status": current.get_status_display()}
        )
    return _save_status(
        registration,
        {"status": Registration.Status.REGISTERED, "status_reason": "", "checked_in_at": None},
        reason=_required_reason(reason),
        acting_user=acting_user,
        action="registration.reinstate",
        data={"previous_status": current.status, "previous_reason": current.status_reason},
    )
