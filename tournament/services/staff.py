"""Staff roles and what they open."""

from enum import Enum

from django.db import transaction

from tournament.models import Tournament
from tournament.services.audit import audit_record


class AdminAccess(Enum):
    OPENED = "opened"
    CLOSED = "closed"


@transaction.atomic
def staff_admin_access(*, user, tournament: Tournament | None, acting_user) -> AdminAccess | None:
    """Keeps an account's Staff status, which the admin needs to let anyone in, with its
    organiser roles: ticked while it organises a tournament (an organiser runs the event
    from there); unticked once it organises none, unless the account has permissions of
    its own or a group's, since it then opens nothing there. A referee role ticks nothing
    (referees work on the score-sheet pages). Says what changed, if anything."""
    organises = Tournament.objects.organised_by(user).exists()
    if organises and not user.is_staff:
        change = AdminAccess.OPENED
    elif (
        not organises
        and user.is_staff
        and not user.is_superuser
        and not user.user_permissions.exists()
        and not user.groups.exists()
    ):
        change = AdminAccess.CLOSED
    else:
        return None
    user.is_staff = change is AdminAccess.OPENED
    user.save(update_fields=["is_staff"])
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action=f"staff.admin_{change.value}",
        obj=user,
        data={"user": user.get_username()},
    )
    return change
