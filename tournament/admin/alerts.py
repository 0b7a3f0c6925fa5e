"""The e-mail alerts sent once per round, read-only: the worker's job writes them."""

from django.contrib import admin

from tournament.admin.base import ReadOnlyAdmin
from tournament.models import AlertSent


@admin.register(AlertSent)
class AlertSentAdmin(ReadOnlyAdmin):
    tournament_path = "round__tournament"
    list_display = ["sent_at", "round", "kind"]
    list_filter = ["kind"]
    search_fields = ["round__tournament__name"]
    list_select_related = ["round__tournament"]
