"""The audit log, read-only: services write it."""

from django.contrib import admin
from django.http import HttpRequest

from tournament.admin.base import TournamentScopedAdmin, listed
from tournament.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(TournamentScopedAdmin):
    list_display = ["created_at", "tournament", "actor", "action", "object_repr", "reason"]
    list_filter = [listed("tournament"), "action"]
    search_fields = ["object_repr", "reason"]
    list_select_related = ["tournament", "actor"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
