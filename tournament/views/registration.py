"""The players' own pages of the registration, without an account: the registration form,
the links of its mails (confirm, withdraw) and the check-in on the event's days.

Each POST validates its form, calls one service (`tournament.services.self_registration`,
`registration_check_in`) and shows its refusal on the page, everything typed kept. The
anonymous forms are limited per address (`tournament.rate_limit`); the registration form
has a honeypot too.
"""

import segno
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View

from tournament.models import Registration, RegistrationRequest
from tournament.rate_limit import is_limited, over_limit
from tournament.registration_forms import CheckInForm, RegistrationRequestForm
from tournament.registration_links import (
    CONFIRM,
    WITHDRAW,
    check_in_code,
    check_in_url,
    registration_of_code,
    request_of_key,
)
from tournament.services.registrations import registration_check_in
from tournament.services.self_registration import (
    request_confirm,
    request_submit,
    request_withdraw,
)
from tournament.views.public import PublicTournamentMixin

#: Registrations sent from one address within an hour: a club registering its members
#: passes, a script does not.
REGISTRATIONS_PER_HOUR = 20
#: Wrong check-in codes typed from one address within ten minutes (a hall shares one).
WRONG_CODES_PER_WINDOW, WRONG_CODES_WINDOW = 50, 600


def qr_svg(url: str) -> str:
    """An inline SVG of a QR code opening `url`."""
    return segno.make(url, error="m").svg_inline(scale=5, border=2)


class RegisterView(PublicTournamentMixin, View):
    template_name = "public/register.html"

    def render_form(self, request: HttpRequest, form: RegistrationRequestForm) -> HttpResponse:
        tournament = self.get_tournament()
        context = {"tournament": tournament, "form": form}
        return render(request, self.template_name, context)

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return self.render_form(request, RegistrationRequestForm())

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        tournament = self.get_tournament()
        form = RegistrationRequestForm(request.POST)
        sent = reverse("public:register_sent", kwargs={"slug": tournament.slug})
        if form.is_bot:
            return redirect(sent)
        if is_limited(request, "register", REGISTRATIONS_PER_HOUR, 3600):
            form.add_error(
                None,
                _(
                    "Too many registrations came from your network in the last hour. "
                    "Please try again later."
                ),
            )
            return self.render_form(request, form)
        if form.is_valid():
            try:
                request_submit(
                    tournament=tournament,
                    data=form.cleaned_data,
                    language=get_language(),
                    acting_user=None,
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                over_limit(request, "register", REGISTRATIONS_PER_HOUR, 3600)
                return redirect(sent)
        return self.render_form(request, form)


class RegisterSentView(PublicTournamentMixin, View):
    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        context = {"tournament": self.get_tournament()}
        return render(request, "public/register_sent.html", context)


class RequestLinkView(PublicTournamentMixin, View):
    """A mail's link: GET shows what it does and a button (a mail scanner that opens every
    link changes nothing), POST does it."""

    purpose: str
    template_name: str

    def get_request(self) -> RegistrationRequest:
        request = request_of_key(self.get_tournament(), self.kwargs["key"], self.purpose)
        if request is None:
            raise Http404(_("This link is not valid, or it has expired."))
        return request

    def render_page(self, request: HttpRequest, registration_request, error="") -> HttpResponse:
        context = {
            "tournament": self.get_tournament(),
            "registration_request": registration_request,
            "error": error,
        }
        registration = registration_request.registration
        if registration is not None and registration.is_active:
            code = check_in_code(registration)
            url = check_in_url(self.get_tournament(), code)
            context.update(code=code, check_in_qr=qr_svg(url))
        return render(request, self.template_name, context)

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return self.render_page(request, self.get_request())

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        registration_request = self.get_request()
        service = request_confirm if self.purpose == CONFIRM else request_withdraw
        try:
            registration_request = service(request=registration_request, acting_user=None)
        except ValidationError as error:
            return self.render_page(request, registration_request, " ".join(error.messages))
        return redirect(request.path)


class ConfirmView(RequestLinkView):
    purpose = CONFIRM
    template_name = "public/register_confirm.html"


class WithdrawView(RequestLinkView):
    purpose = WITHDRAW
    template_name = "public/register_withdraw.html"


class CheckInView(PublicTournamentMixin, View):
    """A registered player checks in from their phone with their code: from their mail's
    link (the code filled in) or the entrance's QR code (typed)."""

    template_name = "public/check_in.html"

    def render_page(self, request: HttpRequest, form: CheckInForm, **context) -> HttpResponse:
        tournament = self.get_tournament()
        context.update(tournament=tournament, form=form, open=tournament.checks_in())
        return render(request, self.template_name, context)

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return self.render_page(request, CheckInForm(initial={"code": request.GET.get("code")}))

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        tournament = self.get_tournament()
        form = CheckInForm(request.POST)
        if not tournament.checks_in() or not form.is_valid():
            return self.render_page(request, form)
        if is_limited(request, "check_in", WRONG_CODES_PER_WINDOW, WRONG_CODES_WINDOW):
            form.add_error("code", _("Too many wrong codes from your network: ask at the desk."))
            return self.render_page(request, form)
        registration = registration_of_code(tournament, form.cleaned_data["code"])
        if registration is None:
            over_limit(request, "check_in", WRONG_CODES_PER_WINDOW, WRONG_CODES_WINDOW)
            form.add_error(
                "code",
                _("No player of this tournament has this code. Check it, or ask at the desk."),
            )
            return self.render_page(request, form)
        if registration.status == Registration.Status.REGISTERED:
            registration = registration_check_in(registration=registration, acting_user=None)
        return self.render_page(request, CheckInForm(), checked_in=registration)
