"""Staff pages of this app: the round clock's controls (head referees and organisers) and
the export downloads (organisers)."""

from functools import partial

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.generic import TemplateView

from tournament.exports.archive import ArchiveJson
from tournament.exports.ema import EmaResultsXlsx
from tournament.exports.score_sheets import ScoreSheetsPdf
from tournament.exports.seating import SeatingPdf, SeatingXlsx
from tournament.exports.standings_pdf import StandingsPdf, TeamRankingsPdf
from tournament.exports.standings_xlsx import StandingsXlsx
from tournament.models import Round, TournamentStaff
from tournament.permissions import TournamentStaffMixin
from tournament.services import clock
from tournament.services.clock import clock_state

CLOCK_ACTIONS = {
    "start": (_("Start / resume"), clock.clock_start),
    "pause": (_("Pause"), clock.clock_pause),
    "extend": (_("+5 minutes"), clock.clock_extend),
    "reset": (_("Reset"), clock.clock_reset),
}


# kind → (label, export class); the class takes the tournament or the round.
TOURNAMENT_EXPORTS = {
    "standings-pdf": (_("Standings (PDF)"), StandingsPdf),
    "standings-xlsx": (_("Standings (XLSX)"), StandingsXlsx),
    "team-rankings-pdf": (_("Team rankings (PDF)"), TeamRankingsPdf),
    "ema-xlsx": (_("EMA results (XLSX)"), EmaResultsXlsx),
    "archive-json": (_("Complete archive (JSON, re-importable)"), ArchiveJson),
}
ROUND_EXPORTS = {
    "seating-pdf": (_("Seating (PDF)"), SeatingPdf),
    "seating-xlsx": (_("Seating (XLSX)"), SeatingXlsx),
    "score-sheets-pdf": (_("Score sheets (PDF)"), ScoreSheetsPdf),
    "hand-sheets-pdf": (_("Hand-by-hand sheets (PDF)"), partial(ScoreSheetsPdf, hands=True)),
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
    template_name = "staff/clock.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = self.get_round()
        context.update(
            round=round_,
            state=clock_state(round_),
            actions=[(action, label) for action, (label, _service) in CLOCK_ACTIONS.items()],
        )
        return context


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
        # The team ranking only where there are teams, as the public pages link to it.
        has_teams = self.tournament.registrations.filter(team__isnull=False).exists()
        context.update(
            tournament_exports=[
                (kind, label)
                for kind, (label, _c) in TOURNAMENT_EXPORTS.items()
                if has_teams or kind != "team-rankings-pdf"
            ],
            round_exports=[(kind, label) for kind, (label, _c) in ROUND_EXPORTS.items()],
            rounds=list(self.tournament.rounds.order_by("number")),
        )
        return context


class TournamentExportView(OrganiserMixin, View):
    def get(self, request, *args, **kwargs):
        entry = TOURNAMENT_EXPORTS.get(self.kwargs["kind"])
        if entry is None:
            raise Http404
        return download(entry[1](self.tournament))


class RoundExportView(OrganiserMixin, View):
    def get(self, request, *args, **kwargs):
        entry = ROUND_EXPORTS.get(self.kwargs["kind"])
        if entry is None:
            raise Http404
        return download(entry[1](self.get_round()))
