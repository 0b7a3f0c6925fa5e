"""Roles are held per tournament (TournamentStaff), never as global permissions.

organiser ⊃ head referee ⊃ referee: a higher role may do everything a lower one may.
A superuser counts as organiser everywhere.
"""

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from tournament.models import Tournament, TournamentStaff

Role = TournamentStaff.Role
ROLE_RANK = {Role.REFEREE: 1, Role.HEAD_REFEREE: 2, Role.ORGANISER: 3}


def user_role(user, tournament: Tournament) -> str | None:
    """The user's role in this tournament, or None."""
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.ORGANISER
    return (
        TournamentStaff.objects.filter(tournament=tournament, user=user)
        .values_list("role", flat=True)
        .first()
    )


def has_role(user, tournament: Tournament, minimum: str) -> bool:
    role = user_role(user, tournament)
    return role is not None and ROLE_RANK[role] >= ROLE_RANK[minimum]


class TournamentStaffMixin(LoginRequiredMixin):
    """Resolves `self.tournament` from the URL's slug and checks the user's role in it.

    Anonymous users are sent to the login page; staff of another tournament, or with a
    lower role than `required_role`, get 403.
    """

    required_role: str = Role.REFEREE

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        self.role = user_role(request.user, self.tournament)
        if self.role is None or ROLE_RANK[self.role] < ROLE_RANK[self.required_role]:
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(tournament=self.tournament, role=self.role)
        return context
