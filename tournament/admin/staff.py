"""Staff roles: a tournament's organisers, head referees and referees, and the Staff status
of their accounts that the admin needs."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournament.admin.base import IdAutocompleteMixin, TournamentScopedAdmin, listed
from tournament.admin.writes import ServiceWritesMixin, Writes
from tournament.login_throttling import recent_failures
from tournament.models import TournamentStaff
from tournament.services.staff import (
    AdminAccess,
    staff_admin_access,
    staff_login_unlock,
    staff_role_create,
    staff_role_delete,
    staff_role_update,
)

STAFF_WRITES = Writes(
    row="staff", create=staff_role_create, update=staff_role_update, delete=staff_role_delete
)


def accounts_of_deleted_tournaments(roles) -> list[tuple]:
    """The accounts of the roles a tournament's deletion takes with it (it names none)."""
    return [(staff.user, None) for staff in roles.select_related("user")]


def accounts_of(forms_or_rows) -> list[tuple]:
    """(account, tournament) of saved or removed roles, and the account a role was taken
    from when its user changed."""
    pairs = []
    for item in forms_or_rows:
        staff = getattr(item, "instance", item)
        pairs.append((staff.user, staff.tournament))
        previous = getattr(item, "initial", {}).get("user")
        if previous and previous != staff.user_id and "user" in item.changed_data:
            pairs.append((get_user_model().objects.get(pk=previous), staff.tournament))
    return pairs


def follow_admin_access(modeladmin, request: HttpRequest, accounts: list[tuple]) -> None:
    """After roles are saved or removed: their accounts' Staff status, and say so."""
    for user, tournament in accounts:
        change = staff_admin_access(user=user, tournament=tournament, acting_user=request.user)
        if change is AdminAccess.OPENED:
            message = _(
                "The account “%(user)s” can now log in to the admin (Staff status ticked) to "
                "run %(tournament)s."
            )
        elif change is AdminAccess.CLOSED:
            message = _(
                "The account “%(user)s” organises no tournament any more: its Staff status is "
                "unticked, so it no longer logs in to the admin."
            )
        else:
            continue
        modeladmin.message_user(
            request, message % {"user": user.get_username(), "tournament": tournament}
        )


class StaffInline(IdAutocompleteMixin, admin.TabularInline):
    model = TournamentStaff
    extra = 0
    autocomplete_fields = ["user"]
    writes = STAFF_WRITES


@admin.register(TournamentStaff)
class TournamentStaffAdmin(ServiceWritesMixin, TournamentScopedAdmin):
    writes = STAFF_WRITES
    list_display = ["user", "tournament", "role", "failed_logins"]
    list_filter = [listed("tournament"), "role"]
    autocomplete_fields = ["user"]
    search_fields = ["user__username"]
    actions = ["lift_login_lock"]

    def get_queryset(self, request: HttpRequest):
        return (
            super().get_queryset(request).annotate(failed_logins=recent_failures("user__username"))
        )

    @admin.display(
        description=gettext_lazy("Failed logins"),
        ordering="failed_logins",
    )
    def failed_logins(self, staff: TournamentStaff) -> int:
        """Wrong passwords typed for the account that still count towards a lock: someone
        may be trying to lock an official out, or to guess their password."""
        return staff.failed_logins or 0

    @admin.action(description=gettext_lazy("Lift the login lock"), permissions=["view"])
    def lift_login_lock(self, request: HttpRequest, queryset) -> None:
        """For an official in front of the organiser who cannot log in: let them in now."""
        lifted, refused = [], []
        for staff in queryset.select_related("user", "tournament"):
            try:
                if staff_login_unlock(staff=staff, acting_user=request.user):
                    lifted.append(staff.user.get_username())
            except PermissionDenied:
                refused.append(staff.user.get_username())
        if refused:
            self.message_user(
                request,
                _("Only an administrator can lift the login lock of %(users)s.")
                % {"users": ", ".join(refused)},
                level=messages.WARNING,
            )
        message = ngettext(
            "Login lock lifted for %(users)s.",
            "Login locks lifted for %(users)s.",
            len(lifted),
        ) % {"users": ", ".join(lifted)}
        self.message_user(request, message if lifted else _("No login lock to lift."))

    def save_model(self, request: HttpRequest, obj: TournamentStaff, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        follow_admin_access(self, request, accounts_of([form]))

    def delete_model(self, request: HttpRequest, obj: TournamentStaff) -> None:
        super().delete_model(request, obj)
        follow_admin_access(self, request, accounts_of([obj]))

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        rows = list(queryset.select_related("user", "tournament"))
        super().delete_queryset(request, queryset)
        follow_admin_access(self, request, accounts_of(rows))
