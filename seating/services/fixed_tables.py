"""Fixed-table requests: a player who must keep one table (e.g. the accessible table 1)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from seating.inputs import seated_players
from seating.models import FixedTable
from tournament.models import Registration
from tournament.services.audit import audit_record


def fixed_table_check(*, registration: Registration, table_number: int) -> None:
    """Refuse what the generator would refuse later (or silently ignore): a player who no
    longer plays, a table the field does not have, a fifth player fixed to one table."""
    if not registration.is_active:
        raise ValidationError(
            _("%(player)s is not playing (%(status)s): a fixed table would not be used.")
            % {"player": registration.player, "status": registration.get_status_display()},
            code="fixed_player_inactive",
        )
    seated = seated_players(registration.tournament)
    tables = max(1, (len(seated.players) + seated.missing) // 4)
    if table_number > tables:
        raise ValidationError(
            ngettext(
                "Table %(table)s does not exist: the players registered now fill %(tables)s table.",
                "Table %(table)s does not exist: the players registered now fill %(tables)s "
                "tables.",
                tables,
            )
            % {"table": table_number, "tables": tables},
            code="fixed_table_out_of_range",
        )
    others = (
        FixedTable.objects.filter(
            registration__tournament=registration.tournament, table_number=table_number
        )
        .exclude(registration=registration)
        .filter(registration__in=Registration.objects.active())
        .count()
    )
    if others >= 4:
        raise ValidationError(
            _("Four players are already fixed to table %(table)s.") % {"table": table_number},
            code="fixed_table_full",
        )


@transaction.atomic
def fixed_table_set(
    *, registration: Registration, table_number: int, reason: str = "", acting_user
) -> FixedTable:
    """Fix (or move) a player's table for every round seated from now on."""
    fixed_table_check(registration=registration, table_number=table_number)
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
def fixed_table_remove(*, fixed_table: FixedTable, acting_user) -> None:
    audit_record(
        tournament=fixed_table.registration.tournament,
        actor=acting_user,
        action="seating.fixed_table_remove",
        obj=fixed_table,
    )
    fixed_table.delete()
