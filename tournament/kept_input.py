"""A score sheet sent after the official's session ended (it expired, or Log out in
another tab of a shared phone) is kept over the login and given back once, unsaved, to the
official who typed it: nothing typed is lost to a login."""

import time

from django.http import HttpRequest, QueryDict

KEPT_INPUT_SESSION_KEY = "input_kept_over_login"
#: Hidden field of a form kept over a login: the user the page was shown to. The input comes
#: back to them only, not to whoever logs in next in that browser (a shared phone).
KEPT_INPUT_USER_FIELD = "typed_by"
#: A kept form is given back within this time (the login that follows), and only when no
#: bigger than this: a whole hand-by-hand sheet is a few kilobytes, and anyone can post
#: to a sheet's address, each post writing an anonymous session.
KEPT_INPUT_SECONDS = 3600
KEPT_INPUT_MAX_CHARACTERS = 64 * 1024


def keep_input(request: HttpRequest) -> bool:
    """Keep a form sent without a session in the (new, anonymous) session: the login keeps
    it, and the page it was sent to shows it again once (`kept_input`). True if kept, so
    that the login page can say so."""
    user = request.POST.get(KEPT_INPUT_USER_FIELD, "")
    skip = {"csrfmiddlewaretoken", KEPT_INPUT_USER_FIELD}
    data = {key: values for key, values in request.POST.lists() if key not in skip}
    size = sum(len(key) + sum(len(value) for value in values) for key, values in data.items())
    if not user.isdigit() or size > KEPT_INPUT_MAX_CHARACTERS:
        return False  # no official named (not sent from a sheet page), or not a score sheet
    request.session[KEPT_INPUT_SESSION_KEY] = {
        "path": request.path,
        "user": user,
        "at": time.time(),
        "data": data,
    }
    return True


def kept_input(request: HttpRequest) -> QueryDict | None:
    """The form kept by `keep_input` for this page, taken out of the session; else None.
    Input typed by another user (the page named them) is dropped, never shown."""
    kept = request.session.get(KEPT_INPUT_SESSION_KEY)
    if not kept or kept["path"] != request.path:
        return None
    del request.session[KEPT_INPUT_SESSION_KEY]
    if kept.get("user") != str(request.user.pk):
        return None
    if time.time() - kept.get("at", 0) > KEPT_INPUT_SECONDS:
        return None  # a login long after: the sheet has surely been entered since
    data = QueryDict(mutable=True)
    for key, values in kept["data"].items():
        data.setlist(key, values)
    return data
