"""Registrations: who plays in a tournament, and their check-in, withdrawal,
disqualification and reinstatement."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.results_held import ResultsHeldError, refuse_deleting_results, results_held
from tournament.admin.base import (
    PlayerCountryFilter,
    PlayerListMixin,
    TournamentScopedAdmin,
    listed,
    per_request,
    player_ordering,
)
from tournament.admin.writes import ServiceWritesMixin, Writes
from tournament.models import Registration
from tournament.selectors import seated_in_rounds_to_come, unseated_in_rounds_to_come
from tournament.services.alerts import registration_alerts_restart
from tournament.services.registrations import (
    registration_check_in,
    registration_create,
    registration_delete,
    registration_disqualify,
    registration_reinstate,
    registration_update,
    registration_withdraw,
)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 3})
    )


def _rounds_of_players(registrations: list, rounds_by_id: dict[int, list[int]]) -> str:
    """The players who have rounds, e.g. "Anna Berg (rounds 6, 7); Zoé Martin (round 7)"."""
    return "; ".join(
        ngettext("%(player)s (round %(rounds)s)", "%(player)s (rounds %(rounds)s)", len(rounds))
        % {"player": registration.player, "rounds": ", ".join(map(str, rounds))}
        for registration in registrations
        if (rounds := rounds_by_id.get(registration.pk))
    )


def _warn_still_seated(modeladmin, request: HttpRequest, registrations: list) -> None:
    """The seats of the rounds to come stay until an organiser seats those rounds again: a
    table would otherwise wait for a player who is gone."""
    still_seated = _rounds_of_players(registrations, seated_in_rounds_to_come(registrations))
    if still_seated:
        modeladmin.message_user(
            request,
            _(
                "Still seated in the rounds to come: %(players)s. Seat those rounds again "
                "(Generate seating) before they are played."
            )
            % {"players": still_seated},
            messages.WARNING,
        )


def _warn_not_seated(modeladmin, request: HttpRequest, registrations: list) -> None:
    """A reinstated player has no seat in the rounds seated while they were out: they would
    find no table (find my seat says "Not seated in this round")."""
    not_seated = _rounds_of_players(registrations, unseated_in_rounds_to_come(registrations))
    if not_seated:
        modeladmin.message_user(
            request,
            _(
                "Not seated in the rounds to come: %(players)s. Seat those rounds again "
                "(Generate seating) before they are played."
            )
            % {"players": not_seated},
            messages.WARNING,
        )


def _reason_action(service, verb: str, done_message: str, warn=_warn_still_seated):
    """An admin action that asks for a reason, applies ``service`` to each registration
    and says whom it changed (``done_message`` names them), then what ``warn`` finds in the
    seating of the rounds to come."""

    def action(modeladmin, request: HttpRequest, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            done = []
            for registration in queryset.select_related("player", "tournament"):
                try:
                    service(
                        registration=registration,
                        reason=form.cleaned_data["reason"],
                        acting_user=request.user,
                    )
                    done.append(registration)
                except ValidationError as error:
                    modeladmin.message_user(request, " ".join(error.messages), messages.ERROR)
            if done:
                names = ", ".join(str(registration.player) for registration in done)
                modeladmin.message_user(request, done_message % {"players": names})
            warn(modeladmin, request, done)
            return None
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": verb,
            "form": form,
            "queryset": queryset,
            "action": request.POST.get("action"),
            "opts": modeladmin.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/tournament/reason_action.html", context)

    return action


@transaction.atomic
def _delete_unless_results(modeladmin, request: HttpRequest, queryset):
    """Django's "Delete selected" for the registrations that hold no result, checked and
    deleted in one transaction."""
    try:
        refuse_deleting_results(list(queryset.select_related("player")))
    except ResultsHeldError as error:
        for message in error.messages:
            modeladmin.message_user(request, message, messages.ERROR)
        return None
    return admin.actions.delete_selected(modeladmin, request, queryset)


@admin.register(Registration)
class RegistrationAdmin(ServiceWritesMixin, PlayerListMixin, TournamentScopedAdmin):
    writes = Writes(
        row="registration",
        create=registration_create,
        update=registration_update,
        delete=registration_delete,
    )
    player_path = "player__"
    player_column = "player"
    # The list, the action's confirmation and every search box for a registration (fixed
    # tables) come from this ordering.
    ordering = player_ordering("player__")
    list_display = ["player", "tournament", "status", "team", "is_substitute", "checked_in_at"]
    list_filter = [
        listed("tournament"),
        "status",
        PlayerCountryFilter,
        listed("team"),
        "is_substitute",
    ]
    search_fields = [
        "player__first_name",
        "player__last_name",
        "player__nickname",
        "player__public_name",
    ]
    autocomplete_fields = ["player", "team"]
    list_select_related = ["player", "tournament", "team"]
    readonly_fields = ["status", "status_reason", "checked_in_at", "alerts_stopped_at"]

    def get_readonly_fields(self, request: HttpRequest, obj: Registration | None = None):
        """A registration stays in its tournament; one that holds results keeps its player
        too (seats, penalties and sheets would pass to somebody else)."""
        fields = [*super().get_readonly_fields(request, obj)]
        if obj is not None:
            fields.append("tournament")
            if per_request(request, ("results_held", obj.pk), lambda: results_held(obj)):
                fields.append("player")
        return fields

    actions = ["check_in", "withdraw", "disqualify", "reinstate", "alerts_restart"]

    @admin.action(description=gettext_lazy("Check in"))
    def check_in(self, request: HttpRequest, queryset) -> None:
        done = 0
        for registration in queryset.select_related("player", "tournament"):
            try:
                registration_check_in(registration=registration, acting_user=request.user)
                done += 1
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
        self.message_user(
            request,
            ngettext("%(count)s player checked in.", "%(count)s players checked in.", done)
            % {"count": done},
        )

    @admin.action(description=gettext_lazy("Switch e-mail alerts back on"), permissions=["change"])
    def alerts_restart(self, request: HttpRequest, queryset) -> None:
        """For players who unsubscribed and asked for the alerts again."""
        stopped = queryset.filter(alerts_stopped_at__isnull=False).select_related("tournament")
        done = 0
        for registration in stopped:
            registration_alerts_restart(registration=registration, acting_user=request.user)
            done += 1
        self.message_user(
            request,
            ngettext(
                "E-mail alerts switched back on for %(count)s player.",
                "E-mail alerts switched back on for %(count)s players.",
                done,
            )
            % {"count": done},
        )

    def get_actions(self, request: HttpRequest) -> dict:
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            _func, name, description = actions["delete_selected"]
            actions[name] = (_delete_unless_results, name, description)
        return actions

    @method_decorator(transaction.atomic)
    def delete_view(self, request: HttpRequest, object_id: str, extra_context=None):
        """A registration with seats, penalties or a sheet naming it is withdrawn, never
        deleted: the results of the rounds played would lose a player."""
        registration = self.get_object(request, object_id)
        try:
            if registration is not None:
                refuse_deleting_results([registration])
        except ResultsHeldError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            return redirect("admin:tournament_registration_change", registration.pk)
        return super().delete_view(request, object_id, extra_context)

    withdraw = admin.action(description=gettext_lazy("Withdraw (with a reason)"))(
        _reason_action(
            registration_withdraw,
            gettext_lazy("Withdraw players"),
            gettext_lazy("Withdrawn: %(players)s."),
        )
    )
    disqualify = admin.action(description=gettext_lazy("Disqualify (with a reason)"))(
        _reason_action(
            registration_disqualify,
            gettext_lazy("Disqualify players"),
            gettext_lazy("Disqualified: %(players)s."),
        )
    )
    reinstate = admin.action(description=gettext_lazy("Reinstate (with a reason)"))(
        _reason_action(
            registration_reinstate,
            gettext_lazy("Reinstate players"),
            gettext_lazy("Reinstated: %(players)s."),
            warn=_warn_not_seated,
        )
    )
