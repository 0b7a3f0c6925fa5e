"""Public answers kept whole in the cache, each version built by one process at a time.

When a sheet is confirmed, the next reader of every public page and poll finds no kept
answer for the new version. Without a rule, the 200 phones polling the rankings in the
following seconds would each render 500 rows. Here the first takes a lock named after the
version and renders; the others are served the previous version meanwhile (kept under a
key without the version, marked not fresh so that their next poll asks again), or wait for
the builder when there is none, as the standings do (`scoring.selectors.standings`).

A kept answer is served after one read of the cache (`latest_with_version`): the latest
version kept, read with the standings' version token its key is made of; when the latest is
the version asked for, it is the answer.
"""

import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

from tournament.invalidation import first_standings_version, version_key

#: A builder older than this died: another process may build the version.
BUILD_LOCK_SECONDS = 30
#: How long a reader with no previous version waits for another process's build.
BUILD_WAIT_SECONDS = 10
#: How long an answer is kept; a change gives it a new key long before.
KEPT_SECONDS = 600

Kept = tuple[str, bytes]  # `tournament.compression.kept_page`
Latest = tuple[str, Kept]  # the latest version kept: its key and the answer
Answer = TypeVar("Answer")


def latest_with_version(tournament_id: int, latest_key: str) -> tuple[str, Latest | None]:
    """The tournament's standings version token (`tournament.invalidation`) and the latest
    answer kept under ``latest_key``, in one read of the cache."""
    token_key = version_key(tournament_id)
    found = cache.get_many([token_key, latest_key])
    version = found.get(token_key) or first_standings_version(tournament_id)
    return version, found.get(latest_key)


def kept_or_built(
    key: str,
    latest_key: str,
    latest: Latest | None,
    build: Callable[[], tuple[Answer, Kept | None]],
    serve: Callable[[Kept, bool], Answer],
) -> Answer:
    """The answer of version ``key``: served as kept (`serve(kept, True)`), else built here
    (``build()`` gives the answer and its kept form, or None for an answer not to keep) and
    kept under ``key`` and under ``latest_key`` (the same answer whatever its version), or,
    while another process builds it, the latest version (`serve(kept, False)`). ``latest``:
    what `latest_with_version` read under ``latest_key``; when it is version ``key``, it is
    served without another read."""
    if latest is not None and latest[0] == key:
        return serve(latest[1], True)
    kept = cache.get(key)
    if kept is not None:
        return serve(kept, True)
    lock = f"{key}:building"
    deadline = time.monotonic() + BUILD_WAIT_SECONDS
    while not cache.add(lock, 1, BUILD_LOCK_SECONDS):
        if latest is not None:
            return serve(latest[1], False)
        if time.monotonic() > deadline:
            break  # the builder died or is slow: build too rather than fail the page
        time.sleep(0.05)
        kept = cache.get(key)
        if kept is not None:
            return serve(kept, True)
    try:
        answer, kept = build()
        if kept is not None:
            cache.set_many({key: kept, latest_key: (key, kept)}, KEPT_SECONDS)
    finally:
        cache.delete(lock)
    return answer
