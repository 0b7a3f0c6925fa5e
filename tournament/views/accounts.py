"""The staff login, the page of a login refused by the throttling (django-axes), and an
invited official's one-time login link and first password, in the site's look."""

import math

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView

from tournament.kept_input import take_kept_input
from tournament.login_links import account_of_link
from tournament.login_throttling import typed_username


class LoginView(auth_views.LoginView):
    """Django's login, which also takes over a score sheet the browser kept while the
    official's session had ended (`tournament.kept_input`)."""

    def form_valid(self, form) -> HttpResponse:
        response = super().form_valid(form)
        take_kept_input(self.request, response)
        return response


def _minutes_left(request: HttpRequest, throttled: str) -> int | None:
    """Whole minutes until the lock ends: it began with the failure that reached the limit
    (later tries do not restart it, settings.AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT)."""
    cool_off = get_cool_off(request)
    if not cool_off:
        return None
    attempt = (
        AccessAttempt.objects.filter(
            username=throttled, ip_address=getattr(request, "axes_ip_address", None)
        )
        .order_by("-attempt_time")
        .first()
    )
    ends = (attempt.attempt_time if attempt else timezone.now()) + cool_off
    return max(1, math.ceil((ends - timezone.now()).total_seconds() / 60))


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials=None
) -> HttpResponse:
    """Say for how long, and how to get in meanwhile. axes' own answer was a bare English
    line, "Please try again later", on the staff login and the admin's alike: an official
    locked out by mistyped passwords on a phone had no page to go back to and no idea how
    long."""
    username = typed_username(request, credentials) or ""
    throttled = get_client_username(request, credentials) or ""
    context = {
        "username": username,
        "on_known_device": throttled != username,
        "minutes": _minutes_left(request, throttled),
    }
    return render(request, "registration/locked_out.html", context, status=429)


#: Set by a login through a link: the next page asks for a password without the old one.
CHOOSING_PASSWORD = "login_link.choose_password"


class LoginLinkView(View):
    """An invited official's one-time link: the page says whose it is and a button logs
    them in (a GET logs nobody in, so a phone's link preview or a QR scanner opening it
    does not use it up). Logging in moves the account's last login, which ends the link;
    the browser becomes a known device of the account (`tournament.login_throttling`)."""

    template_name = "registration/login_link.html"

    def get(self, request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
        account = account_of_link(uidb64, token)
        return render(
            request, self.template_name, {"account": account}, status=200 if account else 410
        )

    def post(self, request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
        account = account_of_link(uidb64, token)
        if account is None:
            return render(request, self.template_name, {"account": None}, status=410)
        login(request, account, backend="django.contrib.auth.backends.ModelBackend")
        request.session[CHOOSING_PASSWORD] = True
        return redirect("login_link_password")


class ChoosePasswordView(LoginRequiredMixin, FormView):
    """The password an official chooses after the link logged them in."""

    template_name = "registration/choose_password.html"
    form_class = SetPasswordForm

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated and not request.session.get(CHOOSING_PASSWORD):
            return redirect("password_change")
        return super().dispatch(request, *args, **kwargs)

    def get_form_kwargs(self) -> dict:
        return {**super().get_form_kwargs(), "user": self.request.user}

    def form_valid(self, form) -> HttpResponse:
        form.save()
        update_session_auth_hash(self.request, form.user)
        del self.request.session[CHOOSING_PASSWORD]
        messages.success(
            self.request,
            _("Your password is set. From now on, log in as %(username)s with it.")
            % {"username": form.user.get_username()},
        )
        return redirect("public:home")
