"""Staff pages of this app: the round clock's controls and one table's extra time (head
referees and organisers), the check-in at the entrance (every official) and the export
downloads (organisers), every app's exports as they registered them
(`tournament.exports.registry`)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.generic import TemplateView

from tournament.exports.registry import (
    ROUND_EXPORTS,
    TOURNAMENT_EXPORTS,
    offered_tournament_exports,
)
from tournament.forms import TableTimeForm
from tournament.models import Round, Seat, TournamentStaff
from tournament.permissions import TournamentStaffMixin
from tournament.registration_links import check_in_code, check_in_url
from tournament.selectors import check_in_state
from tournament.services import clock
from tournament.services.clock import clock_state, table_time_grant
from tournament.services.registrations import registration_check_in
from tournament.views.registration import qr_svg

CLOCK_ACTIONS = {
    "start": (_("Start / resume"), clock.clock_start),
    "pause": (_("Pause"), clock.clock_pause),
    "extend": (_("+5 minutes"), clock.clock_extend),
    "reset": (_("Reset"), clock.clock_reset),
}


class RoundStaffMixin(TournamentStaffMixin):
    def get_round(self) -> Round:
        return get_object_or_404(
            Round.objects.select_related("tournament"),
            tournament=self.tournament,
            number=self.kwargs["number"],
        )


class OrganiserMixin(RoundStaffMixin):
    required_role = TournamentStaff.Role.ORGANISER


class ClockMixin(RoundStaffMixin):
    """The head referee runs the clock in the playing room (WRC 2015 §8.2: the time limit
    is signalled to every table), often without an organiser at hand."""

    required_role = TournamentStaff.Role.HEAD_REFEREE


class ClockControlPageView(ClockMixin, TemplateView):
    """The clock's buttons, and the extra time of single tables with its history."""

    template_name = "staff/clock.html"

    def table_form(self, round_: Round, data=None) -> TableTimeForm:
        tables = sorted(
            set(Seat.objects.filter(round=round_).values_list("table_number", flat=True))
        )
        return TableTimeForm(data, tables=tables)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = self.get_round()
        context.update(
            round=round_,
            state=clock_state(round_),
            actions=[(action, label) for action, (label, _service) in CLOCK_ACTIONS.items()],
            table_form=kwargs.get("table_form") or self.table_form(round_),
            grants=round_.table_time.select_related("granted_by"),
        )
        return context

    def post(self, request, *args, **kwargs):
        """Grant one table extra time; a refusal shows the form again as it was typed."""
        round_ = self.get_round()
        form = self.table_form(round_, request.POST)
        if form.is_valid():
            try:
                table_time_grant(
                    round_=round_,
                    table_number=form.cleaned_data["table_number"],
                    minutes=form.cleaned_data["minutes"],
                    one_more_hand=form.cleaned_data["one_more_hand"],
                    reason=form.cleaned_data["reason"],
                    acting_user=request.user,
                )
            except ValidationError as error:
                form.add_error(None, error)  # a field's error goes to its field
            else:
                messages.success(
                    request,
                    _("Table %(table)s was given extra time.")
                    % {"table": form.cleaned_data["table_number"]},
                )
                return redirect("staff:clock", slug=self.tournament.slug, number=round_.number)
        return self.render_to_response(self.get_context_data(table_form=form))


class ClockControlView(ClockMixin, View):
    """POST start / pause / extend / reset, then back to the clock page."""

    def post(self, request, *args, **kwargs):
        action = CLOCK_ACTIONS.get(self.kwargs["action"])
        if action is None:
            raise Http404
        round_ = self.get_round()
        try:
            action[1](round_=round_, acting_user=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        return redirect("staff:clock", slug=self.tournament.slug, number=round_.number)


def download(export) -> HttpResponse:
    filename, content_type, content = export.render()
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class ExportsView(OrganiserMixin, TemplateView):
    """The organiser's list of downloads: whole tournament, and per round."""

    template_name = "staff/exports.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        offered = offered_tournament_exports(self.tournament)
        context.update(
            tournament_exports=[(export.kind, export.label) for export in offered],
            round_exports=[(export.kind, export.label) for export in ROUND_EXPORTS.values()],
            rounds=list(self.tournament.rounds.order_by("number")),
        )
        return context


class TournamentExportView(OrganiserMixin, View):
    def get(self, request, *args, **kwargs):
        export = TOURNAMENT_EXPORTS.get(self.kwargs["kind"])
        if export is None:
            raise Http404
        refusal = export.refusal and export.refusal(self.tournament, request.user)
        if refusal:
            messages.error(request, refusal)
            return redirect("staff:exports", slug=self.tournament.slug)
        return download(export.make(self.tournament))


class RoundExportView(OrganiserMixin, View):
    def get(self, request, *args, **kwargs):
        export = ROUND_EXPORTS.get(self.kwargs["kind"])
        if export is None:
            raise Http404
        if export.needs_origin:
            return download(export.make(self.get_round(), origin=request.build_absolute_uri("/")))
        return download(export.make(self.get_round()))


class CheckInListView(TournamentStaffMixin, TemplateView):
    """Who is missing before round 1 is seated, each with their code and a button for the
    official at the desk to check them in."""

    template_name = "staff/check_in.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        state = check_in_state(self.tournament)
        context.update(
            tournament=self.tournament,
            state=state,
            missing=[(registration, check_in_code(registration)) for registration in state.missing],
        )
        return context

    def post(self, request, *args, **kwargs):
        registration = get_object_or_404(
            self.tournament.registrations.select_related("player"),
            pk=request.POST.get("registration"),
        )
        try:
            registration_check_in(registration=registration, acting_user=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            messages.success(
                request, _("%(player)s is checked in.") % {"player": registration.player}
            )
        return redirect("staff:check_in", slug=self.tournament.slug)


class CheckInPosterView(TournamentStaffMixin, TemplateView):
    """The page to print for the entrance: the QR code of the check-in page."""

    template_name = "staff/check_in_poster.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        url = check_in_url(self.tournament)
        context.update(tournament=self.tournament, url=url, qr=qr_svg(url))
        return context
