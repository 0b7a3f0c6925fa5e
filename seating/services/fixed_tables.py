"""Fixed-table requests: a player who must keep one table (e.g. the accessible table 1)."""

from django.db import transaction

from seating.models import FixedTable
from tournament.models import Registration
from tournament.services.audit import audit_record


@transaction.atomic
def fixed_table_set(
    *, registration: Registration, table_number: int, reason: str = "", acting_user=None
) -> FixedTable:
    """Fix (or move) a player's table for every round seated from now on."""
    fixed, _created = FixedTable.objects.get_or_create(
        registration=registration, defaults={"table_number": table_number, "reason": reason}
    )
    fixed.table_number = table_number
    fixed.reason = reason
    fixed.full_clean()
    fixed.save()
    audit_record(
        tournament=registration.tournament,
        actor=acting_user,
        action="seating.fixed_table_set",
        obj=fixed,
        reason=reason,
        data={"table": table_number},
    )
    return fixed


@transaction.atomic
def fixed_table_remove(*, fixed_table: FixedTable, acting_user=None) -> None:
    audit_record(
        tournament=fixed_table.registration.tournament,
        actor=acting_user,
        action="seating.fixed_table_remove",
        obj=fixed_table,
    )
    fixed_table.delete()
