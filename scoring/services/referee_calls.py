"""A table calls a referee from its table page; the officials take and resolve the call from
the referee queue (`scoring.views.referee_calls`). One open call a table: a second tap while
one is open finds it (the reason typed then is added to it), so calls never stack."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import RefereeCall
from tournament.models import Round, TournamentStaff
from tournament.permissions import has_role
from tournament.services.audit import audit_record


class RefereeCallError(Exception):
    """The call cannot be taken or resolved now; the message is for the official."""


def _audit(call: RefereeCall, action: str, acting_user, **data) -> None:
    audit_record(
        tournament=call.round.tournament,
        actor=acting_user,
        action=f"referee_call.{action}",
        obj=call,
        data={"round": call.round.number, "table": call.table_number, **data},
    )


def open_call(round_: Round, table_number: int) -> RefereeCall | None:
    """The table's call not resolved yet, if any."""
    return RefereeCall.objects.filter(
        round=round_, table_number=table_number, resolved_at__isnull=True
    ).first()


@transaction.atomic
def referee_call_make(
    *, round_: Round, table_number: int, reason: str, acting_user
) -> tuple[RefereeCall, bool]:
    """The table's open call, made now if it has none (True) — a table report: no account
    (`acting_user` None), audited with the origin "table report"."""
    if acting_user is not None:
        raise PermissionDenied
    reason = reason.strip()[:200]
    call = open_call(round_, table_number)
    if call is None:
        try:
            with transaction.atomic():
                call = RefereeCall.objects.create(
                    round=round_, table_number=table_number, reason=reason
                )
        except IntegrityError:  # the same table's other phone, at the same moment
            call = RefereeCall.objects.get(
                round=round_, table_number=table_number, resolved_at__isnull=True
            )
        else:
            _audit(call, "make", None, reason=reason, origin="table report")
            return call, True
    if reason and reason not in call.reason:
        call.reason = f"{call.reason} · {reason}"[:200] if call.reason else reason
        call.save(update_fields=["reason"])
        _audit(call, "reason", None, reason=reason, origin="table report")
    return call, False


def _locked_open_call(call: RefereeCall, acting_user) -> RefereeCall:
    if not has_role(acting_user, call.round.tournament, TournamentStaff.Role.REFEREE):
        raise PermissionDenied
    call = (
        RefereeCall.objects.select_for_update().select_related("round__tournament").get(pk=call.pk)
    )
    if call.resolved_at is not None:
        raise RefereeCallError(
            _("The call of table %(table)s was resolved already.") % {"table": call.table_number}
        )
    return call


@transaction.atomic
def referee_call_take(*, call: RefereeCall, acting_user) -> RefereeCall:
    """An official goes to the table: the queue shows who."""
    call = _locked_open_call(call, acting_user)
    call.taken_by, call.taken_at = acting_user, timezone.now()
    call.save(update_fields=["taken_by", "taken_at"])
    _audit(call, "take", acting_user)
    return call


@transaction.atomic
def referee_call_resolve(*, call: RefereeCall, acting_user) -> RefereeCall:
    """The official dealt with the table: the call leaves the queue, and the table may
    call again."""
    call = _locked_open_call(call, acting_user)
    call.resolved_by, call.resolved_at = acting_user, timezone.now()
    call.save(update_fields=["resolved_by", "resolved_at"])
    _audit(call, "resolve", acting_user)
    return call
