"""A limit on the anonymous forms' posts from one address (the registration form, the
check-in codes), kept in the shared cache: no third-party service.

A fixed window per address and action. Every phone of a hall may share one address, so the
limits count what a person does rarely (a registration, a wrong code), never a success
of the check-in.
"""

import time

from django.core.cache import cache
from django.http import HttpRequest

from tournament.client_ip import client_ip


def _key(request: HttpRequest, action: str, seconds: int) -> str:
    return f"rate:{action}:{client_ip(request)}:{int(time.time() // seconds)}"


def over_limit(request: HttpRequest, action: str, limit: int, seconds: int) -> bool:
    """Whether this address has used up `action`'s `limit` within the window of `seconds`;
    counts this use. The count is approximate under races: a limit, not a quota."""
    key = _key(request, action, seconds)
    cache.add(key, 0, seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # the window's entry expired between add and incr
        count = 1
        cache.set(key, count, seconds)
    return count > limit


def is_limited(request: HttpRequest, action: str, limit: int, seconds: int) -> bool:
    """Whether `action` is used up for this address, without counting a use."""
    return (cache.get(_key(request, action, seconds)) or 0) >= limit
