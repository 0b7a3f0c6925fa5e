"""URL configuration: mounts the admin, the apps' public pages (one ``public`` namespace) and
their staff pages under /manage/<slug>/."""

from django.contrib import admin
from django.urls import include, path

from scoring import urls_public as scoring_public
from seating import urls_public as seating_public
from tournament.views import accounts, public, staff

public_patterns = (
    [
        path("", public.HomeView.as_view(), name="home"),
        path("t/<slug:slug>/", public.TournamentView.as_view(), name="tournament"),
        path("t/<slug:slug>/rounds/<int:number>/clock/", public.ClockView.as_view(), name="clock"),
        path(
            "t/<slug:slug>/rounds/<int:number>/clock/state/",
            public.ClockStateView.as_view(),
            name="clock_state",
        ),
        *scoring_public.urlpatterns,
        *seating_public.urlpatterns,
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
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("manage/<slug:slug>/scoring/", include("scoring.urls")),
    path("manage/<slug:slug>/seating/", include("seating.urls")),
    path("manage/<slug:slug>/", include(staff_patterns)),
    path("", include(public_patterns)),
]
