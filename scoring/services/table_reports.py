"""Issuing a table's card again: the key of the card before stops opening the table's page
(`scoring.table_keys`)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F

from scoring.models import TableKey
from tournament.models import Round, TournamentStaff
from tournament.permissions import has_role
from tournament.services.audit import audit_record


@transaction.atomic
def table_key_reissue(*, round_: Round, table_number: int, acting_user) -> int:
    """A new issue of a table's card (a card lost, or seen by someone who should not report
    for the table): the old card's key stops working. Returns the new issue."""
    # The organiser prints the cards (the round's exports are theirs).
    if not has_role(acting_user, round_.tournament, TournamentStaff.Role.ORGANISER):
        raise PermissionDenied
    key, _created = TableKey.objects.select_for_update().get_or_create(
        round=round_, table_number=table_number
    )
    TableKey.objects.filter(pk=key.pk).update(issue=F("issue") + 1)
    key.refresh_from_db()
    audit_record(
        tournament=round_.tournament,
        actor=acting_user,
        action="table_key.reissue",
        obj=key,
        data={"round": round_.number, "table": table_number, "issue": key.issue},
    )
    return key.issue
