"""Penalties (WRC 2015 §7): the list for review, giving and cancelling one, and
disqualification. All of it is the head referee's (and the organiser's)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.generic import FormView

from scoring.forms import PenaltyForm, ReasonForm
from scoring.models import Penalty
from scoring.rules.bounds import PENALTY_PLAUSIBLE
from scoring.selectors.penalties import penalty_list
from scoring.services.penalties import penalty_cancel, penalty_give, player_disqualify
from scoring.services.sheets import round_locked_message
from tournament.formatting import format_score
from tournament.models import Registration
from tournament.permissions import Role, TournamentStaffMixin
from tournament.selectors import seated_in_rounds_to_come


def _apply_validation_error(form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


class PenaltyListView(TournamentStaffMixin, FormView):
    """Every penalty of the tournament (or of one player, `?player=<registration id>`), and
    the form to give a new one."""

    required_role = Role.HEAD_REFEREE
    template_name = "scoring/penalties.html"
    form_class = PenaltyForm

    def get_form_kwargs(self):
        return super().get_form_kwargs() | {"tournament": self.tournament}

    def get_initial(self):
        return {"registration": self.request.GET.get("player") or None}

    def player_filter(self) -> Registration | None:
        player = self.request.GET.get("player", "")
        if not player.isdigit():
            return None
        return get_object_or_404(Registration, tournament=self.tournament, pk=int(player))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        registration = self.player_filter()
        context["player"] = registration
        context["lines"] = [
            {"line": line, "points": format_score(line.points)}
            for line in penalty_list(self.tournament, registration)
        ]
        return context

    def form_valid(self, form):
        data = form.cleaned_data
        try:
            penalty_give(
                registration=data["registration"],
                points=data["points"],
                reason=data["reason"],
                kind=data["kind"],
                round_=data["round"],
                acting_user=self.request.user,
            )
        except ValidationError as error:
            _apply_validation_error(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Penalty recorded."))
        if data["points"] > PENALTY_PLAUSIBLE:
            # Refused only beyond what the list holds; a typo of 1000 for 10 is said here.
            messages.warning(
                self.request,
                _(
                    "%(points)s penalty points is more than %(plausible)s points, ten chombo "
                    "(WRC 2015 §7.1). If it is a typo, cancel it, with a reason, and give the "
                    "right one."
                )
                % {
                    "points": format_score(data["points"], signed=False),
                    "plausible": PENALTY_PLAUSIBLE,
                },
            )
        return redirect(self.request.get_full_path())


class PenaltyCancelView(TournamentStaffMixin, FormView):
    required_role = Role.HEAD_REFEREE
    template_name = "scoring/penalty_cancel.html"
    form_class = ReasonForm

    def get_penalty(self) -> Penalty:
        return get_object_or_404(
            Penalty.objects.select_related("registration__player", "given_by", "round"),
            tournament=self.tournament,
            pk=self.kwargs["pk"],
        )

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        penalty = self.get_penalty()
        context["penalty"] = penalty
        context["points"] = format_score(penalty.points)
        if penalty.round is not None and penalty.round.is_locked:
            context["locked_message"] = round_locked_message(penalty.round)
        return context

    def form_valid(self, form):
        try:
            penalty_cancel(
                penalty=self.get_penalty(),
                reason=form.cleaned_data["reason"],
                acting_user=self.request.user,
            )
        except ValidationError as error:
            _apply_validation_error(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Penalty cancelled; it stays in the list, marked."))
        return redirect(reverse("scoring:penalties", kwargs={"slug": self.tournament.slug}))


class DisqualifyView(TournamentStaffMixin, FormView):
    """WRC 2015 §7.1: out of the ranking and out of future seating, with a reason."""

    required_role = Role.HEAD_REFEREE
    template_name = "scoring/disqualify.html"
    form_class = ReasonForm

    def get_registration(self) -> Registration:
        return get_object_or_404(
            Registration.objects.select_related("player"),
            tournament=self.tournament,
            pk=self.kwargs["registration"],
        )

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {"registration": self.get_registration()}

    def form_valid(self, form):
        registration = self.get_registration()
        try:
            player_disqualify(
                registration=registration,
                reason=form.cleaned_data["reason"],
                acting_user=self.request.user,
            )
        except ValidationError as error:
            _apply_validation_error(form, error)
            return self.form_invalid(form)
        still_seated = seated_in_rounds_to_come([registration]).get(registration.pk, [])
        name = registration.player.display_name
        if still_seated:
            messages.warning(
                self.request,
                ngettext(
                    "%(player)s is disqualified and out of the ranking, but still seated in "
                    "round %(rounds)s: an organiser seats it again (admin → Generate seating) "
                    "before it is played.",
                    "%(player)s is disqualified and out of the ranking, but still seated in "
                    "rounds %(rounds)s: an organiser seats them again (admin → Generate "
                    "seating) before they are played.",
                    len(still_seated),
                )
                % {"player": name, "rounds": ", ".join(map(str, still_seated))},
            )
        else:
            messages.success(
                self.request,
                _("%(player)s is disqualified: out of the ranking, seated in no round to come.")
                % {"player": name},
            )
        return redirect(reverse("scoring:penalties", kwargs={"slug": self.tournament.slug}))
