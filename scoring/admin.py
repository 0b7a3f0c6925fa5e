"""Read-only admin of results: sheets, versions, confirmations and penalties are audited and
change only through the score-sheet pages (scoring.services), never by editing a row."""

from django.contrib import admin

from scoring.models import Confirmation, Penalty, ScoreSheet, SheetVersion
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
