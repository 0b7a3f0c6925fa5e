"""The language switch of every page's header.

Django's `set_language` asks for a CSRF token. A visitor who is not logged in now posts
without one, so that no public page holds a token and every public page can be compressed
(`tournament.compression`): forging the switch would only change a stranger's language. A
logged-in official's switch is checked as before.
"""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.i18n import set_language as django_set_language

checked_set_language = csrf_protect(django_set_language)


@csrf_exempt
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's view; the CSRF check only for a logged-in user."""
    if request.user.is_authenticated:
        return checked_set_language(request)
    return django_set_language(request)
