"""The unsubscribe link of the players' e-mail alerts: no login, the signed key is the
authority. The page asks first (a mail scanner that follows links stops nothing); its
button, or a mail app's one-click unsubscribe (RFC 8058, a POST without a CSRF token: the
key stands for it), stops the alerts, as often as it is pressed."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.decorators import method_decorator
from django.views import View
from django.views.decorators.csrf import csrf_exempt

from tournament.alerts.links import registration_of_key
from tournament.models import Registration
from tournament.services.alerts import registration_alerts_stop


@method_decorator(csrf_exempt, name="dispatch")
class AlertsStopView(View):
    def registration(self) -> Registration:
        registration = registration_of_key(self.kwargs["slug"], self.kwargs["key"])
        if registration is None:
            raise Http404
        return registration

    def get(self, request: HttpRequest, **kwargs) -> HttpResponse:
        return self._page(request, self.registration())

    def post(self, request: HttpRequest, **kwargs) -> HttpResponse:
        registration = registration_alerts_stop(registration=self.registration(), acting_user=None)
        return self._page(request, registration)

    def _page(self, request: HttpRequest, registration: Registration) -> HttpResponse:
        return render(request, "public/alerts_stop.html", {"registration": registration})
