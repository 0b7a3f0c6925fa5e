"""Staff roles and what they open."""

from collections.abc import Mapping
from enum import Enum
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from tournament.login_throttling import attempts_of
from tournament.models import Tournament, TournamentStaff
from tournament.names import username_of
from tournament.services.audit import audit_record
from tournament.services.records import record_create, record_delete, record_update


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


@transaction.atomic
def staff_role_create(*, tournament: Tournament, user, role: str, acting_user) -> TournamentStaff:
    """Give an account its role in one tournament (one role per account and tournament).
    Its Staff status follows through `staff_admin_access`."""
    return record_create(
        TournamentStaff(tournament=tournament, user=user, role=role),
        tournament=tournament,
        action="staff.role_create",
        acting_user=acting_user,
    )


@transaction.atomic
def staff_role_update(
    *, staff: TournamentStaff, data: Mapping[str, Any], acting_user
) -> TournamentStaff:
    """Change a role or pass it to another account (``data``: field: value)."""
    return record_update(
        staff,
        data,
        tournament=staff.tournament,
        action="staff.role_update",
        acting_user=acting_user,
    )


@transaction.atomic
def staff_role_delete(*, staff: TournamentStaff, acting_user) -> None:
    """Take a role away; the account stays. An organiser cannot take away their own role
    when it is the tournament's last: nobody but an administrator could run it then."""
    organiser = TournamentStaff.Role.ORGANISER
    if (
        staff.role == organiser
        and staff.user_id == acting_user.pk
        and not acting_user.is_superuser
        and not staff.tournament.staff.filter(role=organiser).exclude(pk=staff.pk).exists()
    ):
        raise ValidationError(
            _(
                "You are the only organiser of %(tournament)s: give another official the "
                "organiser role before you give up yours."
            )
            % {"tournament": staff.tournament},
            code="last_organiser",
        )
    record_delete(
        staff, tournament=staff.tournament, action="staff.role_delete", acting_user=acting_user
    )


@transaction.atomic
def staff_login_unlock(*, staff: TournamentStaff, acting_user) -> int:
    """Lift the login lock of an official of the tournament (every address and device of
    the account): an official on a device they never logged in on has no other way in
    while someone keeps typing wrong passwords for them. The failed logins lifted.

    An administrator's lock only an administrator lifts: an organiser must not be able to
    reopen the guessing of a password that opens every tournament."""
    if staff.user.is_superuser and not acting_user.is_superuser:
        raise PermissionDenied
    username = staff.user.get_username()
    attempts = attempts_of(username)
    failures = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
    if failures:
        attempts.delete()
        audit_record(
            tournament=staff.tournament,
            actor=acting_user,
            action="staff.login_unlock",
            obj=staff.user,
            data={"user": username, "failures": failures},
        )
    return failures


def _free_username(name: str) -> str:
    """A user name made of the person's name ("Anna Berg" → "anna.berg", "山田太郎" kept),
    numbered when it is taken."""
    User = get_user_model()
    base = username_of(name) or "official"
    candidate, number = base, 1
    while User._default_manager.filter(username__iexact=candidate).exists():
        number += 1
        candidate = f"{base}{number}"
    return candidate


@transaction.atomic
def official_invite(
    *, tournament: Tournament, role: str, name: str, email: str = "", account=None, acting_user
) -> TournamentStaff:
    """Give an official their role in one step: to ``account`` when the organiser chose an
    existing one, else to a new account made from the name and e-mail, without a password
    (the official logs in once through a login link, `tournament.login_links`, and chooses
    it). Audited as the invitation, the account's creation and the role."""
    created = account is None
    if created:
        first_name, _space, last_name = name.strip().partition(" ")
        account = get_user_model()(
            username=_free_username(name),
            first_name=first_name[:150],
            last_name=last_name[:150],
            email=email,
        )
        account.set_unusable_password()
        account.full_clean()
        account.save()
    staff = staff_role_create(
        tournament=tournament, user=account, role=role, acting_user=acting_user
    )
    staff_admin_access(user=account, tournament=tournament, acting_user=acting_user)
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action="staff.invite",
        obj=staff,
        data={"user": account.get_username(), "role": role, "account_created": created},
    )
    return staff
