"""A tournament's teams, as its organisers name them (players join one by registration)."""

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from tournament.invalidation import standings_changed
from tournament.models import Team, Tournament
from tournament.services.records import record_create, record_delete, record_update


@transaction.atomic
def team_create(*, tournament: Tournament, name: str, acting_user) -> Team:
    """A team of the tournament: its players are ranked together (team standings)."""
    return record_create(
        Team(tournament=tournament, name=name),
        tournament=tournament,
        action="team.create",
        acting_user=acting_user,
    )


@transaction.atomic
def team_update(*, team: Team, data: Mapping[str, Any], acting_user) -> Team:
    """Rename it (``data``: field: value), audited with the name it had; the standings show
    the new name."""
    team = record_update(
        team, data, tournament=team.tournament, action="team.update", acting_user=acting_user
    )
    standings_changed(team.tournament)
    return team


@transaction.atomic
def team_delete(*, team: Team, acting_user) -> None:
    """Its players stay registered, in no team."""
    record_delete(team, tournament=team.tournament, action="team.delete", acting_user=acting_user)
    standings_changed(team.tournament)
