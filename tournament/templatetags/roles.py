"""Template filters on the user's role in a tournament, so pages only offer links that open."""

from django import template

from tournament.models import Tournament
from tournament.permissions import Role, has_role

register = template.Library()


@register.filter
def organised_by(tournament: Tournament, user) -> bool:
    """The user may open the organiser's pages of this tournament (e.g. the exports)."""
    return isinstance(tournament, Tournament) and has_role(user, tournament, Role.ORGANISER)


@register.filter
def staffed_by(tournament: Tournament, user) -> bool:
    """The user works in this tournament, in any role: its score sheets open for them."""
    return isinstance(tournament, Tournament) and has_role(user, tournament, Role.REFEREE)
