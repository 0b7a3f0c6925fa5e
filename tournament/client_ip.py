"""The client's address for login throttling, correct behind a reverse proxy."""

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """Behind TRUSTED_PROXY_COUNT proxies, the address the nearest trusted proxy saw.

    Without this every login would come from the proxy's address, and five wrong
    passwords from anyone would lock a referee out.
    """
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if proxies and len(forwarded) >= proxies:
        return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")
