"""The rounds of the tournament, a round's tables with the state of their sheets, and the
standings as the staff see them (provisional rounds included)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from scoring.models import ScoreSheet
from scoring.selectors.rows import player_rows
from scoring.selectors.standings import tournament_standings
from scoring.services.round_status import round_results_release
from scoring.services.table_reports import table_key_reissue
from tournament.formatting import format_score
from tournament.models import WIND_ORDER, Round, Seat
from tournament.permissions import Role, TournamentStaffMixin

Status = ScoreSheet.Status


class RoundListView(TournamentStaffMixin, TemplateView):
    template_name = "scoring/rounds.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = list(self.tournament.rounds.select_related("lock_changed_by").order_by("number"))
        tables: dict[int, set[int]] = {}
        for round_id, table in Seat.objects.filter(round__tournament=self.tournament).values_list(
            "round_id", "table_number"
        ):
            tables.setdefault(round_id, set()).add(table)
        counts: dict[int, dict[str, int]] = {}
        for round_id, status in ScoreSheet.objects.filter(
            round__tournament=self.tournament
        ).values_list("round_id", "status"):
            counts.setdefault(round_id, {}).setdefault(status, 0)
            counts[round_id][status] += 1
        context["rounds"] = [
            {
                "round": round_,
                "tables": len(tables.get(round_.pk, ())),
                "confirmed": counts.get(round_.pk, {}).get(Status.CONFIRMED, 0),
                "disputed": counts.get(round_.pk, {}).get(Status.DISPUTED, 0),
                "entered": counts.get(round_.pk, {}).get(Status.ENTERED, 0),
            }
            for round_ in rounds
        ]
        return context


class RoundTablesView(TournamentStaffMixin, TemplateView):
    """A round's tables, each with its four players and the state of its sheet."""

    template_name = "scoring/round.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = get_object_or_404(
            Round.objects.select_related("lock_changed_by"),
            tournament=self.tournament,
            number=self.kwargs["number"],
        )
        seats = Seat.objects.filter(round=round_).select_related("registration__player")
        tables: dict[int, list] = {}
        for seat in sorted(seats, key=lambda seat: (seat.table_number, WIND_ORDER[seat.wind])):
            tables.setdefault(seat.table_number, []).append(seat)
        sheets = {sheet.table_number: sheet for sheet in ScoreSheet.objects.filter(round=round_)}
        context["round"] = round_
        context["runs_clock"] = self.is_at_least(Role.HEAD_REFEREE)
        context["prints_cards"] = self.tournament.table_reports and self.is_at_least(Role.ORGANISER)
        context["tables"] = [
            {
                "number": number,
                "seats": table_seats,
                "status": sheets[number].status if number in sheets else Status.NOT_ENTERED,
                "status_label": (
                    sheets[number].get_status_display()
                    if number in sheets
                    else Status.NOT_ENTERED.label
                ),
            }
            for number, table_seats in sorted(tables.items())
        ]
        return context


class TableCardReissueView(TournamentStaffMixin, View):
    """POST: issue a table's card again (lost, or in the wrong hands): its old QR code stops
    opening the table's page, and the round's table cards print the new one."""

    required_role = Role.ORGANISER
    http_method_names = ["post", "options"]

    def post(self, request, *args, **kwargs):
        round_ = get_object_or_404(Round, tournament=self.tournament, number=kwargs["number"])
        table = kwargs["table"]
        if not Seat.objects.filter(round=round_, table_number=table).exists():
            messages.error(
                request,
                _("There is no table %(table)s in %(round)s.") % {"table": table, "round": round_},
            )
        else:
            table_key_reissue(round_=round_, table_number=table, acting_user=request.user)
            messages.success(
                request,
                _(
                    "Table %(table)s's card was issued again: its old QR code no longer opens "
                    "the table. Print the round's table cards and replace it."
                )
                % {"table": table},
            )
        return redirect(reverse("scoring:round", args=[self.tournament.slug, round_.number]))


class RoundResultsReleaseView(TournamentStaffMixin, View):
    """POST: show the round's results on the public rankings before every table of it is
    confirmed (a tournament showing complete rounds only)."""

    required_role = Role.HEAD_REFEREE
    http_method_names = ["post", "options"]

    def post(self, request, *args, **kwargs):
        round_ = get_object_or_404(Round, tournament=self.tournament, number=kwargs["number"])
        round_results_release(round_=round_, acting_user=request.user)
        messages.success(
            request, _("%(round)s is released: the public rankings show it.") % {"round": round_}
        )
        return redirect(reverse("scoring:round", args=[self.tournament.slug, round_.number]))


class StandingsView(TournamentStaffMixin, TemplateView):
    """The standings from confirmed sheets, for the staff to check before publishing."""

    template_name = "scoring/standings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        standings = tournament_standings(self.tournament, fresh=True)
        context["standings"] = standings
        context["rows"] = [
            {
                "entry": row,
                "place": row.place_text,
                "total": format_score(row.total),
                "penalty": format_score(row.penalty_total),
                "rounds": [format_score(score) for score in row.scores],
            }
            for row in player_rows(standings)
        ]
        return context
