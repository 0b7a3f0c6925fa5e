"""URL configuration: the admin, the public pages and the apps' pages."""

from django.contrib import admin
from django.urls import include, path

from tournament.views import public

public_patterns = (
    [
        path("", public.HomeView.as_view(), name="home"),
        path("t/<slug:slug>/", public.TournamentView.as_view(), name="tournament"),
    ],
    "public",
)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("manage/<slug:slug>/scoring/", include("scoring.urls")),
    path("manage/<slug:slug>/seating/", include("seating.urls")),
    path("", include(public_patterns)),
]
