"""Invalidation of the cached standings.

The standings cache key of a tournament contains a version token held in the cache. Every
write that can change the standings calls `standings_changed` inside its transaction; the
token is replaced once the transaction commits, so no reader can cache pre-commit numbers
under the new token. A fresh random token (not a counter) means an evicted token can never
bring back an old cached entry.

It lives with the tournament's own records because writes of every kind say so: score sheets
and penalties (`scoring.services`), and an archive restored over a tournament's old id
(`tournament.exports.archive`).
"""

import uuid

from django.core.cache import cache
from django.db import transaction

from tournament.models import Tournament


def version_key(tournament_id: int) -> str:
    return f"scoring:standings-version:{tournament_id}"


def standings_version(tournament_id: int) -> str:
    """The current version token of the tournament's standings."""
    key = version_key(tournament_id)
    token = cache.get(key)
    if token is None:
        cache.add(key, uuid.uuid4().hex, timeout=None)
        token = cache.get(key) or "none"
    return token


def standings_changed(tournament: Tournament | int) -> None:
    """Call inside the transaction of any change to sheets, penalties or registrations."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    transaction.on_commit(
        lambda: cache.set(version_key(tournament_id), uuid.uuid4().hex, timeout=None)
    )
