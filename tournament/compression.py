"""Gzip for the pages anyone may read, never for a page that holds a secret.

A phone polling the rankings of 500 players fetched 900 KiB of HTML every ten seconds; gzip
brings it to a few dozen. Compression is not free of risk: BREACH recovers a secret repeated
in every compressed response (a CSRF token, a session's data) from their sizes when the page
also reflects what an attacker typed (the rankings echo their search). So only a response to
a visitor who is not logged in and whose page rendered no CSRF token is compressed: the public
pages, their polls and the round clock. A staff page, the login page, every form carrying a
token stays as it is. The anonymous visitor's language switch carries no token for this
reason (`tournament.views.language`). Static files come compressed from whitenoise.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


def carries_no_secret(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Nobody logged in, and no CSRF token rendered into the response: a page that renders
    one (`get_token`) sets the CSRF cookie, whichever CSRF middleware or decorator did it."""
    user = getattr(request, "user", None)
    anonymous = user is not None and not user.is_authenticated
    return anonymous and settings.CSRF_COOKIE_NAME not in response.cookies


class PublicGZipMiddleware(GZipMiddleware):
    """Django's GZipMiddleware (with its random padding against BREACH) for the responses
    that carry no secret. Listed above CsrfViewMiddleware so that it sees the cookie."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not carries_no_secret(request, response):
            return response
        return super().process_response(request, response)
