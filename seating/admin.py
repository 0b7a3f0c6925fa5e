"""Seating in the admin: fixed tables and the runs' history.

Runs are read-only here: they are created, changed and applied through the organisers'
seating pages (`seating.urls`), which call the services.
"""

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from seating.models import FixedTable, SeatCorrection, SeatingRun
from seating.services import fixed_table_remove, fixed_table_set
from seating.services.fixed_tables import fixed_table_check
from seating.views.presentation import method_description
from tournament.admin.base import PlayerListMixin, ReadOnlyAdmin, TournamentScopedAdmin, listed


class FixedTableForm(forms.ModelForm):
    class Meta:
        model = FixedTable
        fields = ["registration", "table_number", "reason"]

    def clean(self) -> dict:
        cleaned = super().clean()
        # The registration is read-only once the fixed table exists.
        registration = cleaned.get("registration")
        if registration is None and self.instance.registration_id:
            registration = self.instance.registration
        table_number = cleaned.get("table_number")
        if registration and table_number:
            fixed_table_check(registration=registration, table_number=table_number)
        return cleaned


@admin.register(FixedTable)
class FixedTableAdmin(PlayerListMixin, TournamentScopedAdmin):
    tournament_path = "registration__tournament"
    form = FixedTableForm
    list_display = ["registration", "table_number", "reason"]
    list_filter = [listed("registration__tournament")]
    search_fields = ["registration__player__first_name", "registration__player__last_name"]
    autocomplete_fields = ["registration"]
    list_select_related = ["registration__player", "registration__tournament"]

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        # Another player gets a fixed table of their own, never this one's.
        return ["registration"] if obj is not None else []

    def save_model(self, request: HttpRequest, obj: FixedTable, form, change: bool) -> None:
        fixed = fixed_table_set(
            registration=obj.registration,
            table_number=obj.table_number,
            reason=obj.reason,
            acting_user=request.user,
        )
        obj.pk = fixed.pk

    def delete_model(self, request: HttpRequest, obj: FixedTable) -> None:
        fixed_table_remove(fixed_table=obj, acting_user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        for obj in queryset.select_related("registration__tournament"):
            fixed_table_remove(fixed_table=obj, acting_user=request.user)


@admin.register(SeatingRun)
class SeatingRunAdmin(ReadOnlyAdmin):
    list_display = ["pk", "tournament", "mode", "round_numbers", "seed", "status", "created_at"]
    list_filter = [listed("tournament"), "status", "mode"]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name"]
    exclude = ["snapshot", "plan", "method"]
    readonly_fields = ["how_made"]

    @admin.display(description=_("how it was made"))
    def how_made(self, obj: SeatingRun) -> str:
        """The engine's method in the organiser's words, as on the run's page."""
        return method_description(obj.method)


@admin.register(SeatCorrection)
class SeatCorrectionAdmin(ReadOnlyAdmin):
    """Recorded on the head referee's winds page (`seat_correction_record`), audited."""

    tournament_path = "round__tournament"
    list_display = ["round", "table_number", "reason", "corrected_by", "corrected_at"]
    list_filter = [listed("round__tournament")]
    list_select_related = ["round__tournament", "corrected_by"]
    search_fields = ["reason"]
