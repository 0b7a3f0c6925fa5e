"""The organisers' seating pages, at /manage/<slug>/seating/ (`seating.urls`), in the
admin's look: they are reached from the tournament's page in the admin and lead back to it.

Generate a plan (all rounds or the remaining ones), follow its progress, review it with the
quality report, swap two players, apply or discard it; seat a Swiss round from the
standings; add the substitutes a count that is not a multiple of four needs.
"""

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse, reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.generic import TemplateView, View

from seating.forms import GenerateForm, SubstitutesForm, SwapForm, SwissForm
from seating.models import SeatingRun
from seating.selectors import (
    registrations_by_id,
    replaced_rounds,
    seating_status,
    standing_places,
    swiss_standings,
)
from seating.services import (
    seating_run_apply,
    seating_run_discard,
    seating_run_start,
    seating_run_swap,
    seating_run_swiss,
    substitutes_add,
)
from seating.services.runs import run_error_message
from seating.views.presentation import (
    always_together,
    method_description,
    plan_rounds,
    quality_rows,
    swiss_notes,
)
from tournament.models import Tournament, TournamentStaff
from tournament.permissions import TournamentStaffMixin


def _errors(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


@method_decorator(never_cache, name="dispatch")
class SeatingOrganiserMixin(TournamentStaffMixin):
    """The tournament's organisers (and superusers) only; pages in the admin's look.

    Anonymous visitors log in where these pages are reached from, the admin; a lower role or
    another tournament's staff get 403.
    """

    required_role = TournamentStaff.Role.ORGANISER
    login_url = reverse_lazy("admin:login")
    admin_site = admin.site

    def admin_context(self, title: str) -> dict[str, Any]:
        return {
            **self.admin_site.each_context(self.request),
            "title": title,
            "tournament": self.tournament,
            "opts": Tournament._meta,
        }

    def get_run(self) -> SeatingRun:
        return get_object_or_404(SeatingRun, pk=self.kwargs["run"], tournament=self.tournament)

    def overview_url(self) -> str:
        return reverse("seating:overview", args=[self.tournament.slug])

    def run_url(self, run: SeatingRun) -> str:
        return reverse("seating:run", args=[self.tournament.slug, run.pk])


class OverviewView(SeatingOrganiserMixin, TemplateView):
    """Players, tables and rounds at a glance, with the generate and Swiss forms."""

    template_name = "admin/seating/overview.html"

    def get_context_data(self, **kwargs) -> dict[str, Any]:
        status = seating_status(self.tournament)
        return {
            **self.admin_context(_("Seating of %(name)s") % {"name": self.tournament}),
            "status": status,
            "generate_form": kwargs.get("generate_form")
            or GenerateForm(tournament=self.tournament),
            "swiss_form": kwargs.get("swiss_form") or SwissForm(tournament=self.tournament),
            "substitutes_form": SubstitutesForm(initial={"count": status.substitutes_needed}),
            "played_rounds": [r for r in status.rounds if r.is_played],
            "seated_open_rounds": [r for r in status.rounds if not r.is_played and r.seat_count],
        }


class GenerateView(OverviewView):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        form = GenerateForm(request.POST, tournament=self.tournament)
        if form.is_valid():
            try:
                run = seating_run_start(
                    tournament=self.tournament,
                    rounds=list(form.cleaned_data["rounds"]),
                    seed=form.cleaned_data["seed"],
                    priority=form.cleaned_data["priority"],
                    keep_apart=form.cleaned_data["keep_apart"],
                    time_limit=form.cleaned_data["time_limit"],
                    acting_user=request.user,
                )
            except ValidationError as error:
                _errors(request, error)
            else:
                return redirect(self.run_url(run))
        return self.render_to_response(self.get_context_data(generate_form=form))


class SwissView(OverviewView):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        form = SwissForm(request.POST, tournament=self.tournament)
        if form.is_valid():
            standings, unfinished = swiss_standings(self.tournament, form.cleaned_data["round"])
            try:
                run = seating_run_swiss(
                    tournament=self.tournament,
                    round=form.cleaned_data["round"],
                    standings=standings,
                    seed=form.cleaned_data["seed"],
                    keep_apart=form.cleaned_data["keep_apart"],
                    priority=form.cleaned_data["priority"],
                    closeness_weight=form.cleaned_data["closeness"],
                    incomplete_rounds=unfinished,
                    places=standing_places(self.tournament),
                    acting_user=request.user,
                )
            except ValidationError as error:
                _errors(request, error)
            else:
                return redirect(self.run_url(run))
        return self.render_to_response(self.get_context_data(swiss_form=form))


class SubstitutesView(SeatingOrganiserMixin, View):
    """One click: add exactly the substitutes the current count needs."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        form = SubstitutesForm(request.POST)
        needed = seating_status(self.tournament).substitutes_needed
        if not form.is_valid() or form.cleaned_data["count"] != needed:
            # A second click, or players changed since the page was shown: add nothing.
            messages.warning(
                request,
                _("The number of players changed; check the count again before adding."),
            )
            return redirect(self.overview_url())
        try:
            created = substitutes_add(
                tournament=self.tournament, count=needed, acting_user=request.user
            )
        except ValidationError as error:
            _errors(request, error)
        else:
            messages.success(
                request,
                _("Added: %(names)s.") % {"names": ", ".join(str(r.player) for r in created)},
            )
        return redirect(self.overview_url())


class RunView(SeatingOrganiserMixin, TemplateView):
    """A run: its progress while it computes, then the preview and the quality report."""

    template_name = "admin/seating/run.html"

    def get_context_data(self, **kwargs) -> dict[str, Any]:
        run = self.get_run()
        registrations = registrations_by_id(self.tournament)
        last_swap = None
        if run.swaps:
            swap = run.swaps[-1]
            last_swap = {
                "round": swap["round"],
                "players": [registrations.get(pk) for pk in swap["players"]],
            }
        return {
            "last_swap": last_swap,
            **self.admin_context(
                _("Seating proposal %(id)s for %(name)s") % {"id": run.pk, "name": self.tournament}
            ),
            "run": run,
            "method": method_description(run.method),
            "notes": swiss_notes(run),
            "replaced": sorted(replaced_rounds(run).items()),
            "error": run_error_message(run),
            "quality": quality_rows(run) if run.plan else [],
            "always_together": always_together(run, registrations),
            "rounds": plan_rounds(run, registrations),
            "swap_form": kwargs.get("swap_form") or SwapForm(run=run, registrations=registrations),
            "progress_url": reverse("seating:run_progress", args=[self.tournament.slug, run.pk]),
            "overview_url": self.overview_url(),
        }


class RunProgressView(SeatingOrganiserMixin, View):
    """Small JSON for the progress bar: status and progress 0–1."""

    def get(self, request: HttpRequest, *args, **kwargs) -> JsonResponse:
        run = self.get_run()
        return JsonResponse(
            {
                "status": run.status,
                "progress": round(run.progress, 3),
                "stalled": run.is_stalled,
            }
        )


class RunSwapView(RunView):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        run = self.get_run()
        form = SwapForm(request.POST, run=run, registrations=registrations_by_id(self.tournament))
        if form.is_valid():
            try:
                seating_run_swap(
                    run=run,
                    round_number=form.cleaned_data["round"],
                    first=form.cleaned_data["first"],
                    second=form.cleaned_data["second"],
                    acting_user=request.user,
                )
            except ValidationError as error:
                _errors(request, error)
            else:
                messages.success(request, _("Swapped. Compare the quality report below."))
                return redirect(self.run_url(run) + "#quality")
        return self.render_to_response(self.get_context_data(swap_form=form))


class RunApplyView(SeatingOrganiserMixin, View):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        run = self.get_run()
        try:
            rounds = seating_run_apply(run=run, acting_user=request.user)
        except ValidationError as error:
            _errors(request, error)
            return redirect(self.run_url(run))
        messages.success(
            request,
            ngettext(
                "Seating applied to round %(rounds)s.",
                "Seating applied to rounds %(rounds)s.",
                len(rounds),
            )
            % {"rounds": ", ".join(str(r.number) for r in rounds)},
        )
        return redirect(self.overview_url())


class RunDiscardView(SeatingOrganiserMixin, View):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        run = self.get_run()
        try:
            seating_run_discard(run=run, acting_user=request.user)
        except ValidationError as error:
            _errors(request, error)
            return redirect(self.run_url(run))
        messages.success(request, _("Proposal discarded; no seat was changed."))
        return redirect(self.overview_url())
