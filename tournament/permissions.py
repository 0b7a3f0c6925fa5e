"""Roles are held per tournament (TournamentStaff), never as global permissions.

organiser ⊃ head referee ⊃ referee: a higher role may do everything a lower one may.
A superuser counts as organiser everywhere.
"""

from collections.abc import Iterable

from django.contrib import messages
from django.contrib.auth.backends import BaseBackend
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament.kept_input import keep_input
from tournament.models import Registration, Tournament, TournamentStaff
from tournament.time_zones import activate_time_zone

Role = TournamentStaff.Role
ROLE_RANK = {Role.REFEREE: 1, Role.HEAD_REFEREE: 2, Role.ORGANISER: 3}


def user_role(user, tournament: Tournament) -> str | None:
    """The user's role in this tournament, or None; asked of the database once per user
    object (a request's user: its view and its page's links ask it several times)."""
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.ORGANISER
    roles = getattr(user, "_tournament_roles", None)
    if roles is None:
        roles = {}
        user._tournament_roles = roles
    if tournament.pk not in roles:
        roles[tournament.pk] = (
            TournamentStaff.objects.filter(tournament=tournament, user=user)
            .values_list("role", flat=True)
            .first()
        )
    return roles[tournament.pk]


def has_role(user, tournament: Tournament, minimum: str) -> bool:
    role = user_role(user, tournament)
    return role is not None and ROLE_RANK[role] >= ROLE_RANK[minimum]


class TournamentStaffMixin(LoginRequiredMixin):
    """Resolves `self.tournament` from the URL's slug and checks the user's role in it.

    Anonymous users are sent to the login page; staff of another tournament, or with a
    lower role than `required_role`, get 403.
    """

    required_role: str = Role.REFEREE
    #: A form sent once the session has ended is kept for the page after the login
    #: (`kept_input`), so that an official does not type a whole score sheet again.
    keeps_input_over_login: bool = False

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            response = self.handle_no_permission()
            if (
                self.keeps_input_over_login
                and request.method == "POST"
                and Tournament.objects.filter(slug=kwargs["slug"]).exists()
                and keep_input(request, response)
            ):
                # The bare login page read as if the sheet were lost.
                messages.warning(
                    request,
                    _(
                        "Your session ended before this sheet was saved. Log in again with "
                        "the account that typed it: the sheet comes back, not saved."
                    ),
                )
            return response
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        # Times shown, exported and typed on the tournament's pages are in its zone.
        activate_time_zone(self.tournament.time_zone)
        self.role = user_role(request.user, self.tournament)
        if self.role is None or not self.is_at_least(self.required_role):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def is_at_least(self, role: str) -> bool:
        """The user's role here is ``role`` or above (a page offers only what opens)."""
        return ROLE_RANK[self.role] >= ROLE_RANK[role]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(tournament=self.tournament, role=self.role)
        return context


def _actions(app_model: str, *actions: str) -> set[str]:
    app, model = app_model.split(".")
    return {f"{app}.{action}_{model}" for action in actions}


#: What an organiser may do in the admin, in the tournaments they organise (the admin's
#: lists and forms show no other tournament's rows; a player registered in another
#: organiser's tournament is theirs to change). Creating or deleting a tournament, user
#: accounts and roles stay with the superusers; results change only through the
#: score-sheet pages.
ORGANISER_ADMIN_PERMISSIONS = frozenset(
    _actions("tournament.tournament", "view", "change")
    | _actions("tournament.player", "view", "add", "change", "delete")
    | _actions("tournament.registration", "view", "add", "change", "delete")
    | _actions("tournament.team", "view", "add", "change", "delete")
    | _actions("tournament.registrationrequest", "view")
    | _actions("tournament.round", "view", "change")
    | _actions("seating.fixedtable", "view", "add", "change", "delete")
    | _actions("scoring.stage", "view", "add", "change", "delete")
    | _actions("tournament.seat", "view")
    | _actions("tournament.tournamentstaff", "view")
    | _actions("tournament.auditentry", "view")
    | _actions("scoring.scoresheet", "view")
    | _actions("scoring.sheetversion", "view")
    | _actions("scoring.confirmation", "view")
    | _actions("scoring.penalty", "view")
    | _actions("seating.seatingrun", "view")
)
ORGANISER_ADMIN_APPS = frozenset(
    permission.split(".")[0] for permission in ORGANISER_ADMIN_PERMISSIONS
)


def players_registered_elsewhere(user, player_ids: Iterable[int]) -> set[int]:
    """The players among these who are registered in a tournament the user does not
    organise. Players are shared between tournaments: such a player is changed only by an
    administrator or by someone who organises all their tournaments, since a club or name
    changed by one organiser changes on the other tournaments' pages too."""
    if user.is_superuser:
        return set()
    elsewhere = Registration.objects.filter(player_id__in=list(player_ids)).exclude(
        tournament__in=Tournament.objects.organised_by(user)
    )
    return set(elsewhere.values_list("player_id", flat=True))


def organises_any(user) -> bool:
    """Whether the user holds an organiser role in some tournament (asked once a request)."""
    if not user.is_active or user.is_anonymous:
        return False
    if not hasattr(user, "_organises_any"):
        user._organises_any = Tournament.objects.organised_by(user).exists()
    return user._organises_any


class OrganiserRoleBackend(BaseBackend):
    """Gives an organiser the admin permissions of ORGANISER_ADMIN_PERMISSIONS, so that a
    co-organiser runs the event from the admin without being a superuser. Django checks
    permissions per model, not per row; the admin keeps each organiser to their own
    tournaments' rows (`tournament.admin.base.TournamentScopedAdmin`)."""

    def get_user_permissions(self, user_obj, obj=None) -> set[str]:
        if obj is not None or not organises_any(user_obj):
            return set()
        return set(ORGANISER_ADMIN_PERMISSIONS)

    def has_module_perms(self, user_obj, app_label: str) -> bool:
        return app_label in ORGANISER_ADMIN_APPS and organises_any(user_obj)
