"""Staff roles and what they open."""

from django.db import transaction

from tournament.models import TournamentStaff
from tournament.services.audit import audit_record


@transaction.atomic
def staff_admin_access(*, staff: TournamentStaff, acting_user=None) -> bool:
    """Ticks the Staff status of an organiser's account, which the admin needs to let them
    in: an organiser runs the event from there. Referees keep theirs as it is (they work on
    the score-sheet pages). Returns whether the account changed."""
    user = staff.user
    if staff.role != TournamentStaff.Role.ORGANISER or user.is_staff:
        return False
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    audit_record(
        tournament=staff.tournament,
        actor=acting_user,
        action="staff.admin_access",
        obj=staff,
        data={"user": user.get_username()},
    )
    return True
