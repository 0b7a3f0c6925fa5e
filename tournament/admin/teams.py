"""Teams, in their own list and on the tournament's page."""

from django.contrib import admin

from tournament.admin.base import TournamentScopedAdmin, listed
from tournament.admin.writes import ServiceWritesMixin, Writes
from tournament.models import Team
from tournament.services.teams import team_create, team_delete, team_update

TEAM_WRITES = Writes(row="team", create=team_create, update=team_update, delete=team_delete)


class TeamInline(admin.TabularInline):
    model = Team
    extra = 0
    writes = TEAM_WRITES


@admin.register(Team)
class TeamAdmin(ServiceWritesMixin, TournamentScopedAdmin):
    writes = TEAM_WRITES
    list_display = ["name", "tournament"]
    list_filter = [listed("tournament")]
    search_fields = ["name"]
    list_select_related = ["tournament"]
