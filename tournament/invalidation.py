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
    return cache.get(version_key(tournament_id)) or first_standings_version(tournament_id)


def first_standings_version(tournament_id: int) -> str:
    """A token for a tournament that has none in the cache yet (or whose token was evicted);
    the token of whichever process gives one first."""
    token = uuid.uuid4().hex
    if not cache.add(version_key(tournament_id), token, timeout=None):
        token = cache.get(version_key(tournament_id)) or "none"
    return token


def standings_changed(tournament: Tournament | int) -> None:
    """Call inside the transaction of any change to sheets, penalties or registrations."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    transaction.on_commit(
        lambda: cache.set(version_key(tournament_id), uuid.uuid4().hex, timeout=None)
    )
