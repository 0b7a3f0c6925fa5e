"""Tournaments: created, their settings changed, deleted. Their rounds follow their number
of rounds."""

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.db import transaction

from tournament.models import Round, Tournament
from tournament.services.records import record_create, record_delete, record_update
from tournament.services.rounds import rounds_in_use_beyond
from tournament.services.waiting_list import waiting_list_promote
from tournament.signals import results_rescored


@transaction.atomic
def tournament_create(
    *, name: str, slug: str, start_date: date, end_date: date, acting_user, **settings: Any
) -> Tournament:
    """A tournament with its rounds; ``settings`` are its other fields (rule set, number of
    rounds, policies...), the model's defaults for the rest."""
    tournament = Tournament(
        name=name, slug=slug, start_date=start_date, end_date=end_date, **settings
    )
    # Not the tournament's own entry: the admin refuses to delete a tournament whose audit
    # log would go with it, and one created by mistake is deleted at once.
    record_create(tournament, tournament=None, action="tournament.create", acting_user=acting_user)
    _rounds_follow_count(tournament)
    return tournament


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, data: Mapping[str, Any], acting_user
) -> Tournament:
    """Change its settings (``data``: field: value); a changed number of rounds adds rounds or
    removes the empty ones beyond it, a changed venue or time limit moves every round's
    schedule revision (the players' calendar feeds show both), changed rules score its
    sheets again, and a raised (or lifted) player cap gives its places to the waiting list."""
    # From the database: an admin's form has already set its values on ``tournament``.
    before = Tournament.objects.values_list(
        "venue", "round_minutes", "ruleset", "rule_options", "player_cap"
    ).get(pk=tournament.pk)
    record_update(
        tournament,
        data,
        tournament=tournament,
        action="tournament.update",
        acting_user=acting_user,
    )
    _rounds_follow_count(tournament)
    if (tournament.venue, tournament.round_minutes) != tuple(before[:2]):
        tournament.rounds.schedule_changed()
    if (tournament.ruleset, tournament.rule_options) != tuple(before[2:4]):
        results_rescored.send(sender=Tournament, tournament=tournament)
    if tournament.player_cap != before[4]:
        waiting_list_promote(tournament=tournament, acting_user=acting_user)
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament, acting_user) -> None:
    """Delete it with everything it holds, its audit log too: this entry belongs to no
    tournament, or it would go with it."""
    record_delete(tournament, tournament=None, action="tournament.delete", acting_user=acting_user)


def _rounds_follow_count(tournament: Tournament) -> None:
    """Create rounds 1..rounds_count that do not exist yet and delete the empty rounds above
    it; existing rounds are never renumbered, and rounds in use are never deleted."""
    count = tournament.rounds_count
    tournament.rounds.filter(number__gt=count).exclude(
        number__in=rounds_in_use_beyond(tournament, count)
    ).delete()
    existing = set(tournament.rounds.values_list("number", flat=True))
    Round.objects.bulk_create(
        Round(tournament=tournament, number=number)
        for number in range(1, count + 1)
        if number not in existing
    )
