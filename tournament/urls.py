"""URL configuration: the admin, the public pages and the apps' pages."""

from django.contrib import admin
from django.urls import include, path

from tournament.views import public, staff

public_patterns = (
    [
        path("", public.HomeView.as_view(), name="home"),
        path("t/<slug:slug>/", public.TournamentView.as_view(), name="tournament"),
        path("t/<slug:slug>/rankings/", public.RankingsView.as_view(), name="rankings"),
        path(
            "t/<slug:slug>/rankings/rows/",
            public.RankingsRowsView.as_view(),
            name="rankings_rows",
        ),
        path("t/<slug:slug>/teams/", public.TeamRankingsView.as_view(), name="team_rankings"),
        path(
            "t/<slug:slug>/players/<int:registration_id>/",
            public.PlayerView.as_view(),
            name="player",
        ),
        path("t/<slug:slug>/find-my-seat/", public.FindSeatView.as_view(), name="find_seat"),
        path(
            "t/<slug:slug>/rounds/<int:number>/seating/",
            public.SeatingView.as_view(),
            name="seating",
        ),
        path(
            "t/<slug:slug>/rounds/<int:number>/seating/players/",
            public.SeatingView.as_view(by_player=True),
            name="seating_players",
        ),
        path(
            "t/<slug:slug>/rounds/<int:number>/projector/tables/",
            public.SeatingView.as_view(projector=True),
            name="projector_tables",
        ),
        path(
            "t/<slug:slug>/rounds/<int:number>/projector/players/",
            public.SeatingView.as_view(projector=True, by_player=True),
            name="projector_players",
        ),
        path("t/<slug:slug>/rounds/<int:number>/clock/", public.ClockView.as_view(), name="clock"),
        path(
            "t/<slug:slug>/rounds/<int:number>/clock/state/",
            public.ClockStateView.as_view(),
            name="clock_state",
        ),
    ],
    "public",
)

staff_patterns = (
    [
        path("exports/", staff.ExportsView.as_view(), name="exports"),
        path("exports/<slug:kind>/", staff.TournamentExportView.as_view(), name="export"),
        path(
            "rounds/<int:number>/exports/<slug:kind>/",
            staff.RoundExportView.as_view(),
            name="round_export",
        ),
        path(
            "rounds/<int:number>/clock/",
            staff.ClockControlPageView.as_view(),
            name="clock",
        ),
        path(
            "rounds/<int:number>/clock/<str:action>/",
            staff.ClockControlView.as_view(),
            name="clock_control",
        ),
    ],
    "staff",
)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("manage/<slug:slug>/scoring/", include("scoring.urls")),
    path("manage/<slug:slug>/seating/", include("seating.urls")),
    path("manage/<slug:slug>/", include(staff_patterns)),
    path("", include(public_patterns)),
]
