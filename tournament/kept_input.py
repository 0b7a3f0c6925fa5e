"""A score sheet sent after the official's session ended (it expired, or Log out in
another tab of a shared phone) is kept over the login and given back once, unsaved, to the
official who typed it: nothing typed is lost to a login.

Until the login the browser holds it, in a signed cookie, not the server: anyone can post
to a sheet's address, and a session written for each such post filled the database (200
posts, 13 MB). The server stores it only in the session the login opens for the official
who typed it."""

import time

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse, QueryDict

KEPT_INPUT_SESSION_KEY = "input_kept_over_login"
KEPT_INPUT_COOKIE = "kept_input"
#: Hidden field of a form kept over a login: the user the page was shown to. The input comes
#: back to them only, not to whoever logs in next in that browser (a shared phone).
KEPT_INPUT_USER_FIELD = "typed_by"
#: A kept form is given back within this time (the login that follows), and only when no
#: bigger than this: a sheet of 60 hands with the longest note is 12,000 characters.
KEPT_INPUT_SECONDS = 3600
KEPT_INPUT_MAX_CHARACTERS = 16 * 1024
#: Every browser keeps a cookie of 4,096 bytes with its name; that sheet takes 3,900 signed
#: and compressed, a sheet of 25 hands 1,900.
KEPT_INPUT_MAX_COOKIE = 4000
_SALT = "tournament.kept_input"


def keep_input(request: HttpRequest, response: HttpResponse) -> bool:
    """Keep a form sent without a session in a cookie of `response` (the way to the login),
    for `take_kept_input` at the login. True if kept, so that the login page can say so."""
    user = request.POST.get(KEPT_INPUT_USER_FIELD, "")
    skip = {"csrfmiddlewaretoken", KEPT_INPUT_USER_FIELD}
    data = {key: values for key, values in request.POST.lists() if key not in skip}
    size = sum(len(key) + sum(len(value) for value in values) for key, values in data.items())
    if not user.isdigit() or size > KEPT_INPUT_MAX_CHARACTERS:
        return False  # no official named (not sent from a sheet page), or not a score sheet
    kept = {"path": request.path, "user": user, "at": time.time(), "data": data}
    value = signing.dumps(kept, salt=_SALT, compress=True)
    if len(KEPT_INPUT_COOKIE) + len(value) > KEPT_INPUT_MAX_COOKIE:
        return False
    response.set_cookie(
        KEPT_INPUT_COOKIE,
        value,
        max_age=KEPT_INPUT_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return True


def take_kept_input(request: HttpRequest, response: HttpResponse) -> None:
    """At the login: the form the browser holds goes into the new session if the official
    who logged in typed it, else nowhere; the cookie goes either way."""
    value = request.COOKIES.get(KEPT_INPUT_COOKIE)
    if not value:
        return
    response.delete_cookie(KEPT_INPUT_COOKIE, samesite="Lax")
    try:
        kept = signing.loads(value, salt=_SALT)
    except signing.BadSignature:
        return
    if kept.get("user") == str(request.user.pk):
        request.session[KEPT_INPUT_SESSION_KEY] = kept


def kept_input(request: HttpRequest) -> QueryDict | None:
    """The form kept over the login for this page, taken out of the session; else None."""
    kept = request.session.get(KEPT_INPUT_SESSION_KEY)
    if not kept or kept["path"] != request.path:
        return None
    del request.session[KEPT_INPUT_SESSION_KEY]
    if time.time() - kept.get("at", 0) > KEPT_INPUT_SECONDS:
        return None  # a login long after: the sheet has surely been entered since
    data = QueryDict(mutable=True)
    for key, values in kept["data"].items():
        data.setlist(key, values)
    return data
