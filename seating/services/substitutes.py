"""Placeholder substitutes, so that the number of players becomes a multiple of four.

The seating never drops a player to make tables of four: the organiser adds substitutes
(named "Substitute 1", "Substitute 2", ...; renamed later when the real people are known).
"""

from django.db import transaction
from django.utils.translation import gettext as _

from seating.messages import seating_validation_error
from tournament.models import Player, Registration, Tournament
from tournament.services.audit import audit_record

MAX_SUBSTITUTES = 12


@transaction.atomic
def substitutes_add(*, tournament: Tournament, count: int, acting_user) -> list[Registration]:
    """Create `count` placeholder players registered as (active) substitutes."""
    if not 1 <= count <= MAX_SUBSTITUTES:
        raise seating_validation_error("substitutes_count", maximum=MAX_SUBSTITUTES)
    label = _("Substitute")
    # Lock the tournament row so two clicks cannot both number from the same count.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    # Numbered after the placeholders already there, not after real substitutes.
    numbers = Registration.objects.filter(
        tournament=tournament, is_substitute=True, player__first_name=label
    ).values_list("player__last_name", flat=True)
    existing = max((int(n) for n in numbers if n.isdigit()), default=0)
    created = []
    for number in range(existing + 1, existing + count + 1):
        player = Player(first_name=label, last_name=str(number))
        player.full_clean()
        player.save()
        registration = Registration(tournament=tournament, player=player, is_substitute=True)
        registration.full_clean()
        registration.save()
        created.append(registration)
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action="seating.substitutes_add",
        obj=tournament,
        data={"count": count, "players": [str(r.player) for r in created]},
    )
    return created
