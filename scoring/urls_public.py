"""Public pages of results, mounted in the site's ``public`` namespace by `tournament.urls`."""

from django.urls import path

from scoring.views import public, table

urlpatterns = [
    path("t/<slug:slug>/rankings/", public.RankingsView.as_view(), name="rankings"),
    path("t/<slug:slug>/rankings/rows/", public.RankingsRowsView.as_view(), name="rankings_rows"),
    path("t/<slug:slug>/rankings/data/", public.RankingsDataView.as_view(), name="rankings_data"),
    path("t/<slug:slug>/stages/", public.StagesView.as_view(), name="stages"),
    path("t/<slug:slug>/teams/", public.TeamRankingsView.as_view(), name="team_rankings"),
    path(
        "t/<slug:slug>/players/<int:registration_id>/",
        public.PlayerView.as_view(),
        name="player",
    ),
    path("t/<slug:slug>/table/<str:key>/", table.TableReportView.as_view(), name="table"),
]
