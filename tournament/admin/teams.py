"""Teams, in their own list and on the tournament's page."""

from django.contrib import admin

from tournament.admin.base import TournamentScopedAdmin, listed
from tournament.models import Team


class TeamInline(admin.TabularInline):
    model = Team
    extra = 0


@admin.register(Team)
class TeamAdmin(TournamentScopedAdmin):
    list_display = ["name", "tournament"]
    list_filter = [listed("tournament")]
    search_fields = ["name"]
    list_select_related = ["tournament"]
