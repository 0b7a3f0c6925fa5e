"""Read-only admin of results: sheets, versions, confirmations and penalties are audited and
change only through the score-sheet pages (scoring.services), never by editing a row."""

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from scoring.models import (
    Confirmation,
    Penalty,
    RefereeCall,
    ScoreSheet,
    SheetVersion,
    TableKey,
)
from scoring.policy import hidden_from
from tournament.admin.base import PlayerListMixin, ReadOnlyAdmin, listed


class VersionInline(admin.TabularInline):
    model = SheetVersion
    fields = ("number", "kind", "action", "entered_by", "created_at", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ScoreSheet)
class ScoreSheetAdmin(ReadOnlyAdmin):
    tournament_path = "round__tournament"
    list_display = ("round", "table_number", "status", "revision", "updated_at")
    list_filter = ("status", listed("round__tournament"))
    search_fields = ("round__tournament__name",)
    list_select_related = ("round__tournament",)
    inlines = [VersionInline]


@admin.register(SheetVersion)
class SheetVersionAdmin(ReadOnlyAdmin):
    tournament_path = "sheet__round__tournament"
    list_display = ("sheet", "number", "kind", "action", "entered_by", "created_at")
    list_filter = ("action", "kind", listed("sheet__round__tournament"))
    search_fields = ("entered_by__username", "reason")
    list_select_related = ("sheet__round__tournament", "entered_by")

    def get_fields(self, request: HttpRequest, obj: SheetVersion | None = None) -> list[str]:
        """Under blind double entry the first entry's numbers stay hidden from the one who
        may still enter the sheet second (`scoring.policy.hidden_from`), here as on the
        sheet's pages: seen, the second entry would be a copy."""
        fields = super().get_fields(request, obj)
        if obj is not None and _hidden(request, obj):
            return [name for name in fields if name != "data"]
        return fields

    def get_readonly_fields(self, request: HttpRequest, obj: SheetVersion | None = None):
        return ("data_hidden",) if obj is not None and _hidden(request, obj) else ()

    @admin.display(description=_("data"))
    def data_hidden(self, obj: SheetVersion) -> str:
        return _(
            "Hidden: blind double entry. This sheet waits for a second entry, which you may "
            "make; the first one is shown once it is in."
        )


def _hidden(request: HttpRequest, version: SheetVersion) -> bool:
    sheet = version.sheet
    return hidden_from(sheet.round.tournament, sheet, version, request.user)


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnlyAdmin):
    tournament_path = "version__sheet__round__tournament"
    list_display = ("version", "user", "created_at")
    list_filter = (listed("version__sheet__round__tournament"),)
    search_fields = ("user__username",)
    list_select_related = ("version__sheet__round__tournament", "user")


@admin.register(Penalty)
class PenaltyAdmin(PlayerListMixin, ReadOnlyAdmin):
    list_display = ("registration", "kind", "points", "given_by", "created_at", "cancelled_at")
    list_filter = ("kind", listed("tournament"))
    search_fields = ("registration__player__last_name", "registration__player__first_name")
    list_select_related = ("registration__player", "registration__tournament", "given_by")


@admin.register(TableKey)
class TableKeyAdmin(ReadOnlyAdmin):
    """A table card issued again: changed by "Revoke this table's card" on the round page."""

    tournament_path = "round__tournament"
    list_display = ("round", "table_number", "issue")
    list_filter = (listed("round__tournament"),)
    list_select_related = ("round__tournament",)


@admin.register(RefereeCall)
class RefereeCallAdmin(ReadOnlyAdmin):
    """The tables' calls: taken and resolved on the referee queue."""

    tournament_path = "round__tournament"
    list_display = ("round", "table_number", "reason", "called_at", "taken_by", "resolved_at")
    list_filter = (listed("round__tournament"),)
    search_fields = ("reason",)
    list_select_related = ("round__tournament", "taken_by")
