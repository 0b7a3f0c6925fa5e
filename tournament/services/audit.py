"""The audit trail: one entry per change, written inside the change's transaction."""

from typing import Any

from tournament.models import AuditEntry, Tournament


def audit_record(
    *,
    tournament: Tournament | None,
    actor,
    action: str,
    obj: object | None = None,
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=user,
        action=action,
        object_repr=str(obj)[:300] if obj is not None else "",
        reason=reason,
        data=data or {},
    )
