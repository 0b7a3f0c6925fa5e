"""The audit log, read-only: services write it."""

from django.contrib import admin

from tournament.admin.base import ReadOnlyAdmin, listed
from tournament.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "tournament", "actor", "action", "object_repr", "reason"]
    list_filter = [listed("tournament"), "action"]
    search_fields = ["object_repr", "reason"]
    list_select_related = ["tournament", "actor"]
