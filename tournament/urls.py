"""URL configuration: mounts the admin, the apps' public pages (one ``public`` namespace) and
their staff pages under /manage/<slug>/."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from scoring import urls_public as scoring_public
from seating import urls_public as seating_public
from tournament.views import accounts, alerts, health, language, public, registration, staff

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
        path("t/<slug:slug>/register/", registration.RegisterView.as_view(), name="register"),
        path(
            "t/<slug:slug>/register/sent/",
            registration.RegisterSentView.as_view(),
            name="register_sent",
        ),
        path(
            "t/<slug:slug>/register/confirm/<str:key>/",
            registration.ConfirmView.as_view(),
            name="register_confirm",
        ),
        path(
            "t/<slug:slug>/register/withdraw/<str:key>/",
            registration.WithdrawView.as_view(),
            name="register_withdraw",
        ),
        path("t/<slug:slug>/check-in/", registration.CheckInView.as_view(), name="check_in"),
        path(
            "t/<slug:slug>/alerts/stop/<str:key>/",
            alerts.AlertsStopView.as_view(),
            name="alerts_stop",
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
        path("check-in/", staff.CheckInListView.as_view(), name="check_in"),
        path("check-in/poster/", staff.CheckInPosterView.as_view(), name="check_in_poster"),
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
    path("healthz", health.healthz, name="healthz"),
    # Django's set_language, but an anonymous visitor's switch carries no CSRF token.
    path("i18n/setlang/", language.set_language, name="set_language"),
    # Django's account pages but the password reset's: the site mails only the players who
    # register themselves, and officials' accounts have no address to send one to
    # (docs/security.md, "Passwords").
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path(
        "accounts/welcome/<uidb64>/<token>/",
        accounts.LoginLinkView.as_view(),
        name="login_link",
    ),
    path(
        "accounts/welcome/password/",
        accounts.ChoosePasswordView.as_view(),
        name="login_link_password",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("manage/<slug:slug>/scoring/", include("scoring.urls")),
    path("manage/<slug:slug>/seating/", include("seating.urls")),
    path("manage/<slug:slug>/", include(staff_patterns)),
    path("", include(public_patterns)),
]
