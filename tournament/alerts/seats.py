"""Which players a change of seats concerns, and their alerts queued once it commits.

A service that writes seats takes the places before (`seat_places`) and, once its seats are
written, hands them to `seat_alerts_queue`: a published round tells every player seated in
it; a re-seated one only the players whose table, wind or opponents changed. The alerts are
queued when the transaction commits, so a write rolled back sends nothing.
"""

from collections import defaultdict
from collections.abc import Collection, Iterable
from functools import partial

from django.db import transaction

from tournament.alerts.tasks import CHANGED, PUBLISHED, send_seat_alerts
from tournament.models import Registration, Seat

#: A player's place in a round: table, wind and the registrations at the same table.
Place = tuple[int, str, frozenset[int]]


def seat_places(round_ids: Iterable[int]) -> dict[int, dict[int, Place]]:
    """round → registration → its place, for these rounds (one query)."""
    rows = list(
        Seat.objects.filter(round_id__in=list(round_ids)).values_list(
            "round_id", "table_number", "wind", "registration_id"
        )
    )
    tables: dict[tuple[int, int], set[int]] = defaultdict(set)
    for round_id, table, _wind, registration in rows:
        tables[round_id, table].add(registration)
    places: dict[int, dict[int, Place]] = defaultdict(dict)
    for round_id, table, wind, registration in rows:
        others = frozenset(tables[round_id, table] - {registration})
        places[round_id][registration] = (table, wind, others)
    return places


def seat_alerts_queue(
    *,
    before: dict[int, dict[int, Place]],
    round_ids: Iterable[int],
    published: Collection[int] = (),
) -> None:
    """Queue, for when the transaction commits, the alerts of the rounds whose seats were
    just written: every seated player of a round in `published`, else the players whose
    place differs from `before`; one task a kind, one mail a player."""
    round_ids = list(round_ids)
    after = seat_places(round_ids)
    # No task for players who would get no mail (a demo tournament's made-up players).
    reachable = set(
        Registration.objects.filter(seats__round_id__in=round_ids, alerts_stopped_at__isnull=True)
        .exclude(player__email="")
        .values_list("pk", flat=True)
    )
    concerned: dict[str, list[list[int]]] = {PUBLISHED: [], CHANGED: []}
    for round_id in round_ids:
        earlier = before.get(round_id, {})
        kind = PUBLISHED if round_id in published else CHANGED
        concerned[kind] += [
            [round_id, pk]
            for pk, place in sorted(after.get(round_id, {}).items())
            if pk in reachable and (kind == PUBLISHED or earlier.get(pk) != place)
        ]
    for kind, pairs in concerned.items():
        if pairs:
            transaction.on_commit(partial(send_seat_alerts.enqueue, kind, pairs))
