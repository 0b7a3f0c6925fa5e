"""The organisers' seating pages, in the admin's look (mounted by `seating.admin`).

Generate a plan (all rounds or the remaining ones), follow its progress, review it with the
quality report, swap two players, apply or discard it; seat a Swiss round from the
standings; add the substitutes a count that is not a multiple of four needs.
"""

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.generic import TemplateView, View

from seating.engine import pairs_always_together
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
from tournament.models import WIND_LABELS, Seat, Tournament
from tournament.permissions import has_role

QUALITY_ROWS = [
    ("table_reuse", gettext_lazy("Table reuse (extra visits to the same table)"), "table_reuse"),
    ("repeat_pairs", gettext_lazy("Repeated meetings"), "repeat"),
    ("max_meetings", gettext_lazy("Most meetings of one pair"), None),
    ("wind_imbalance", gettext_lazy("Wind spread (most minus fewest of one wind)"), "wind"),
    ("team_clashes", gettext_lazy("Clashes (players kept apart seated together)"), None),
]

#: The engine's ``method`` (a log line, also in the CLI's output: "construction GF(5) + search
#: from the current seating") by how it starts → what it tells an organiser. Starts not
#: listed (a Swiss run, whose mode already says so) say nothing more and are left out.
METHOD_STARTS = [
    ("construction GF(", gettext_lazy("finite-field construction")),
    ("construction AG(", gettext_lazy("finite-field construction")),
    ("construction Z_", gettext_lazy("arithmetic construction")),
    ("construction cyclic design", gettext_lazy("arithmetic construction")),
    ("construction stored design", gettext_lazy("ready-made design")),
    ("best known plan", gettext_lazy("best plan known for this size")),
    ("the current seating", gettext_lazy("the current seating, kept")),
    ("search", gettext_lazy("computer search")),
]
SEARCH_ADDED = " + search"


def method_description(method: str) -> str:
    """How a plan was made, in the organiser's words ("" when that says nothing to them)."""
    start = next((label for prefix, label in METHOD_STARTS if method.startswith(prefix)), None)
    if start is None:
        return ""
    if SEARCH_ADDED in method:
        return _("%(start)s, then improved by a computer search") % {"start": start}
    return str(start)


def _errors(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


@method_decorator(never_cache, name="dispatch")
class OrganiserAdminMixin:
    """Resolves the tournament from the URL's pk; organisers of it and superusers only.

    Anonymous users go to the admin login; anyone else gets 403.
    """

    admin_site = admin.site

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), reverse("admin:login"))
        self.tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        if not has_role(request.user, self.tournament, "organiser"):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

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
        return reverse("admin:seating_overview", args=[self.tournament.pk])

    def run_url(self, run: SeatingRun) -> str:
        return reverse("admin:seating_run", args=[self.tournament.pk, run.pk])


class OverviewView(OrganiserAdminMixin, TemplateView):
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


class SubstitutesView(OrganiserAdminMixin, View):
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


def swiss_notes(run: SeatingRun) -> list[str]:
    """What a Swiss proposal's groups were made from, when the standings were not final: said
    on the run's page, which the progress bar reloads (a one-time message would be gone)."""
    if run.mode != SeatingRun.Mode.SWISS:
        return []
    if run.swiss_ranked == []:
        return [
            _(
                "There were no standings when this proposal was made: players were grouped in "
                "registration order."
            )
        ]
    incomplete = run.snapshot.get("incomplete_rounds", [])
    if not incomplete:
        return []
    # The last round is often seated while the one before is still being entered: groups
    # from half the results would be wrong.
    return [
        ngettext(
            "Round %(rounds)s was not complete when this proposal was made (some score sheets "
            "were not confirmed): its groups come from the standings as they were then. Seat "
            "round %(round)s again once it is complete.",
            "Rounds %(rounds)s were not complete when this proposal was made (some score "
            "sheets were not confirmed): its groups come from the standings as they were then. "
            "Seat round %(round)s again once they are complete.",
            len(incomplete),
        )
        % {"rounds": ", ".join(map(str, incomplete)), "round": run.round_numbers[0]}
    ]


def always_together(run: SeatingRun, registrations: dict) -> list[str]:
    """Names of the pairs the proposal seats together in every one of its rounds (two or
    more): the report's totals hide them, and players notice them first. Players fixed to
    one table are left out: they meet by the organiser's choice, whatever the priority."""
    fixed = run.snapshot.get("fixed_tables", {})
    pairs = pairs_always_together([item["tables"] for item in run.plan])
    return [
        _("%(first)s and %(second)s")
        % {
            "first": registrations[a].player.display_name,
            "second": registrations[b].player.display_name,
        }
        for a, b in pairs
        if a in registrations
        and b in registrations
        and (str(a) not in fixed or fixed[str(a)] != fixed.get(str(b)))
    ]


def quality_rows(run: SeatingRun) -> list[dict[str, Any]]:
    """The quality report as table rows: as generated, before the last swap, now, bound."""
    bounds = {
        "repeat": run.metrics.get("repeat_lower_bound"),
        "table_reuse": run.metrics.get("table_reuse_lower_bound"),
        "wind": run.metrics.get("wind_imbalance_lower_bound"),
    }
    rows = []
    for key, label, bound in QUALITY_ROWS:
        rows.append(
            {
                "key": key,
                "label": label,
                "generated": run.generated_metrics.get(key),
                "previous": run.previous_metrics.get(key) if run.previous_metrics else None,
                "current": run.metrics.get(key),
                "bound": bounds.get(bound) if bound else None,
            }
        )
    return rows


def plan_rounds(run: SeatingRun, registrations: dict) -> list[dict[str, Any]]:
    """The proposed plan with names and winds, per round and table; the players of the last
    swap are marked. A Swiss round gives each ranked player's position in the standings it
    was seated from, so the organiser sees how closely its tables follow them."""
    winds = list(Seat.Wind)
    last = run.swaps[-1] if run.swaps else {"round": None, "players": []}
    places = run.snapshot.get("places")  # runs made before places were kept: ranks
    if places is None:
        position = {pk: index + 1 for index, pk in enumerate(run.swiss_ranked or [])}
    else:
        position = {int(pk): place for pk, place in places.items()}
    return [
        {
            "number": item["number"],
            "tables": [
                {
                    "number": index + 1,
                    "seats": [
                        {
                            "wind": WIND_LABELS[winds[seat].value],
                            "registration": registrations.get(player),
                            "standing": position.get(player),
                            "swapped": item["number"] == last["round"]
                            and player in last["players"],
                        }
                        for seat, player in enumerate(table)
                    ],
                }
                for index, table in enumerate(item["tables"])
            ],
        }
        for item in run.plan
    ]


class RunView(OrganiserAdminMixin, TemplateView):
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
            "progress_url": reverse(
                "admin:seating_run_progress", args=[self.tournament.pk, run.pk]
            ),
            "overview_url": self.overview_url(),
        }


class RunProgressView(OrganiserAdminMixin, View):
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


class RunApplyView(OrganiserAdminMixin, View):
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


class RunDiscardView(OrganiserAdminMixin, View):
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
