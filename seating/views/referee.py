"""The head referee's pages of seating, at /manage/<slug>/seating/rounds/<n>/winds/: the winds
each table of a round played, a wrong-seat correction of one table with its history, and
the wind balance of the rounds to come, re-checked and, when asked, evened out."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from scoring.models import ScoreSheet
from seating.forms import SeatCorrectionForm
from seating.models import SeatCorrection
from seating.selectors import wind_balance
from seating.services.winds import seat_correction_record, winds_rebalance
from tournament.models import WIND_LABELS, WINDS, Registration, TournamentStaff
from tournament.selectors import tables_of_round
from tournament.views.staff import RoundStaffMixin


class HeadRefereeMixin(RoundStaffMixin):
    """What the tables played is the head referee's call, often without an organiser at hand."""

    required_role = TournamentStaff.Role.HEAD_REFEREE

    def winds_page(self):
        return redirect("seating:winds", slug=self.tournament.slug, number=self.kwargs["number"])


def correction_history(corrections: list[SeatCorrection]) -> list[dict]:
    """Each correction with the winds as seated and as played, by name."""
    ids = {pk for correction in corrections for pk in correction.planned + correction.played}
    names = {
        registration.pk: registration.player.display_name
        for registration in Registration.objects.filter(pk__in=ids).select_related("player")
    }
    return [
        {
            "correction": correction,
            "winds": [
                (WIND_LABELS[wind], names.get(planned, "?"), names.get(played, "?"))
                for wind, planned, played in zip(
                    WINDS, correction.planned, correction.played, strict=True
                )
            ],
        }
        for correction in corrections
    ]


class WindsView(HeadRefereeMixin, TemplateView):
    """The round's tables, its corrections, and the winds of the rounds to come."""

    template_name = "seating/winds.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = self.get_round()
        corrections = list(round_.seat_corrections.select_related("corrected_by"))
        context.update(
            round=round_,
            tables=tables_of_round(round_),
            history=correction_history(corrections),
            balance=wind_balance(self.tournament),
            wind_labels=list(WIND_LABELS.items()),
        )
        return context


class SeatCorrectionView(HeadRefereeMixin, TemplateView):
    """One table's winds as played; a refusal keeps what was chosen and typed."""

    template_name = "seating/seat_correction.html"

    def setup_table(self) -> None:
        self.round = self.get_round()
        self.table_number = self.kwargs["table"]
        tables = {table.number: table for table in tables_of_round(self.round)}
        if self.table_number not in tables:
            raise Http404
        self.seats = tables[self.table_number].seats

    def make_form(self, data=None) -> SeatCorrectionForm:
        players = [seat.registration for seat in self.seats]
        initial = {seat.wind: seat.registration.pk for seat in self.seats}
        return SeatCorrectionForm(data, initial=initial, players=players)

    def get(self, request, *args, **kwargs):
        self.setup_table()
        return self.render_to_response(self.get_context_data(form=self.make_form()))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        corrections = list(
            self.round.seat_corrections.filter(table_number=self.table_number).select_related(
                "corrected_by"
            )
        )
        context.update(
            round=self.round,
            table_number=self.table_number,
            seats=self.seats,
            history=correction_history(corrections),
        )
        return context

    def post(self, request, *args, **kwargs):
        self.setup_table()
        form = self.make_form(request.POST)
        if form.is_valid():
            try:
                seat_correction_record(
                    round_=self.round,
                    table_number=self.table_number,
                    played=form.played(),
                    reason=form.cleaned_data["reason"],
                    acting_user=request.user,
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(
                    request,
                    _("The winds played at table %(table)s are recorded.")
                    % {"table": self.table_number},
                )
                if ScoreSheet.objects.filter(
                    round=self.round, table_number=self.table_number, revision__gt=0
                ).exists():
                    messages.warning(
                        request,
                        _(
                            "Table %(table)s already has a score sheet, entered with the winds "
                            "seated: correct it to the winds played."
                        )
                        % {"table": self.table_number},
                    )
                return self.winds_page()
        return self.render_to_response(self.get_context_data(form=form))


class WindsRebalanceView(HeadRefereeMixin, View):
    """POST: even out the winds of the seated rounds not played yet."""

    def post(self, request, *args, **kwargs):
        try:
            changed = winds_rebalance(tournament=self.tournament, acting_user=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            if changed:
                messages.success(
                    request,
                    _("The winds of rounds %(rounds)s are evened out.")
                    % {"rounds": ", ".join(str(round_.number) for round_ in changed)},
                )
            else:
                messages.info(
                    request, _("The winds of the rounds to come are as even as they can be.")
                )
        return self.winds_page()
