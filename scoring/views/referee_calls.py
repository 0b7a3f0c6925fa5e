"""The referee queue: the tables that called a referee from their table page, the longest
waiting first; an official takes a call, then resolves it. The page re-reads itself as the
rankings do (`static/public/live_page.js`) and sounds when a new call comes in."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.views import View
from django.views.generic import TemplateView

from scoring.models import RefereeCall
from scoring.services.referee_calls import (
    RefereeCallError,
    referee_call_resolve,
    referee_call_take,
)
from tournament.permissions import TournamentStaffMixin
from tournament.views.public import POLL_SECONDS


class RefereeQueueView(TournamentStaffMixin, TemplateView):
    template_name = "scoring/referee_calls.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        now = timezone.now()
        calls = (
            RefereeCall.objects.filter(round__tournament=self.tournament, resolved_at__isnull=True)
            .select_related("round", "taken_by")
            .order_by("called_at", "pk")
        )
        context["calls"] = [
            {"call": call, "waited": int((now - call.called_at).total_seconds() // 60)}
            for call in calls
        ]
        context["poll_seconds"] = POLL_SECONDS
        return context


class RefereeCallActionView(TournamentStaffMixin, View):
    """POST: take a call (`action` "take") or resolve it ("resolve")."""

    http_method_names = ["post", "options"]
    action = "take"

    def post(self, request, *args, **kwargs):
        call = get_object_or_404(
            RefereeCall.objects.select_related("round__tournament"),
            pk=kwargs["pk"],
            round__tournament=self.tournament,
        )
        service = referee_call_take if self.action == "take" else referee_call_resolve
        try:
            service(call=call, acting_user=request.user)
        except RefereeCallError as error:
            messages.error(request, str(error))
        return redirect(reverse("scoring:referee_calls", args=[self.tournament.slug]))
