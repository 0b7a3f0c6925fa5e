"""Rounds (their status, start and Swiss flag) and their seats, read-only."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Case, Value, When
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.services.locking import round_lock
from scoring.services.round_status import round_status_change, round_status_refusal
from tournament.admin.base import (
    PlayerListMixin,
    ReadOnlyAdmin,
    TournamentScopedAdmin,
    ValuesInListFilter,
    listed,
)
from tournament.admin.writes import form_values
from tournament.models import WIND_ORDER, Round, Seat, TableTimeGrant
from tournament.services.rounds import round_delete, round_update
from tournament.templatetags.rounds import lock_note


class RoundNumberFilter(ValuesInListFilter):
    """The round numbers of the listed seats only, not every tournament's."""

    title = gettext_lazy("round")
    parameter_name = "round_number"
    path = "round__number"


def seat_ordering() -> list:
    """Tables in order, each E, S, W, N (the model's order is the letters')."""
    winds = Case(*(When(wind=wind, then=Value(index)) for wind, index in WIND_ORDER.items()))
    return ["round", "table_number", winds]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ["table_number", "wind", "registration"]

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).order_by(*seat_ordering())

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class RoundAdminForm(forms.ModelForm):
    class Meta:
        model = Round
        fields = ["status", "scheduled_start", "is_swiss"]

    def clean_status(self) -> str:
        """Refused on the field, before the service would refuse it on saving."""
        status = self.cleaned_data["status"]
        refusal = round_status_refusal(self.instance, status) if self.instance.pk else None
        if refusal:
            raise ValidationError(refusal)
        return status


@admin.register(Round)
class RoundAdmin(TournamentScopedAdmin):
    form = RoundAdminForm
    list_display = ["__str__", "tournament", "status", "scheduled_start", "is_swiss"]
    list_filter = [listed("tournament"), "status"]
    list_select_related = ["tournament"]
    fields = [
        "tournament",
        "number",
        "status",
        "scheduled_start",
        "is_swiss",
        "seating_seed",
        "lock_changed",
        "started_at",
        "ended_at",
    ]
    readonly_fields = [
        "tournament",
        "number",
        "lock_changed",
        "seating_seed",
        "started_at",
        "ended_at",
    ]
    inlines = [SeatInline]
    actions = ["lock_results"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Rounds follow the tournament's number of rounds: raise it to add one."""
        return False

    @admin.action(description=gettext_lazy("Lock the results"), permissions=["change"])
    def lock_results(self, request: HttpRequest, queryset) -> None:
        """At the end of an event, every round at once rather than one change form each."""
        locked = []
        for round_ in queryset.select_related("tournament").order_by("tournament", "number"):
            try:
                if round_lock(round_=round_, acting_user=request.user):
                    locked.append(round_)
            except ValidationError as error:
                self.message_user(request, f"{round_}: {' '.join(error.messages)}", messages.ERROR)
        if locked:
            self.message_user(
                request,
                _("Results locked: %(rounds)s.") % {"rounds": ", ".join(map(str, locked))},
            )

    @admin.display(description=gettext_lazy("Results locked or unlocked"))
    def lock_changed(self, obj: Round) -> str | None:
        return lock_note(obj) or None  # None: the admin's "-", as for "Started at"

    def save_model(self, request: HttpRequest, obj: Round, form, change: bool) -> None:
        """The start and the Swiss flag, then the status: a change of it (locking a round's
        results, reopening it) is checked again and recorded. The seats below are all
        read-only, so Django's save of their inline writes nothing."""
        values = form_values(form, obj)
        status = values.pop("status")
        round_update(round_=obj, data=values, acting_user=request.user)
        round_status_change(round_=obj, status=status, acting_user=request.user)

    def delete_model(self, request: HttpRequest, obj: Round) -> None:
        round_delete(round_=obj, acting_user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        for round_ in queryset.select_related("tournament"):
            round_delete(round_=round_, acting_user=request.user)


@admin.register(Seat)
class SeatAdmin(PlayerListMixin, ReadOnlyAdmin):
    tournament_path = "round__tournament"
    list_display = ["round", "table_number", "wind", "registration"]
    list_filter = [listed("round__tournament"), RoundNumberFilter]
    search_fields = ["registration__player__first_name", "registration__player__last_name"]
    list_select_related = ["round__tournament", "registration__player"]
    ordering = seat_ordering()


@admin.register(TableTimeGrant)
class TableTimeGrantAdmin(ReadOnlyAdmin):
    """Granted on the clock page (`tournament.services.clock.table_time_grant`), audited."""

    tournament_path = "round__tournament"
    list_display = ["round", "table_number", "extra_minutes", "one_more_hand", "reason"]
    list_filter = [listed("round__tournament"), RoundNumberFilter]
    search_fields = ["reason"]
    list_select_related = ["round__tournament", "granted_by"]
