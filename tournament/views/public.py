"""Pages anyone may read, without logging in: the list of tournaments, a tournament's page
and the round clock. Hidden tournaments and hidden pages answer 404.

`PublicTournamentMixin` is the one way every public page resolves its tournament and honours
the organiser's switches (hidden tournament, rankings, seating), the rankings and player
pages of `scoring.views.public` and the seating pages of `seating.views.public` included:
`shows` is the one rule of a switch, asked by the pages it closes and by every page, link
and column that would show what it hides (a player page's tables, winds and opponents).
Every page runs a fixed number of queries whatever the number of players. `answer_poll` and
`etag_of` answer every live page's poll and the calendar feed with a 304 while nothing changed.
"""

import hashlib
from collections.abc import Callable

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import DetailView, ListView, TemplateView

from tournament import selectors
from tournament.models import Round, Tournament, TournamentStaff
from tournament.permissions import has_role
from tournament.services.clock import clock_state
from tournament.time_zones import activate_time_zone

#: How often a page left open re-reads itself (rankings, seating, find my seat).
POLL_SECONDS = 10


def etag_of(key: str) -> str:
    """A strong ETag for a version key (the key may name the tournament: it is hashed)."""
    return f'"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


def answer_poll(
    request: HttpRequest, etag: str, render: Callable[[], HttpResponse]
) -> HttpResponse:
    """A page's poll asks whether it changed since the version it has (If-None-Match): a 304
    if not, which costs no rendering, else `render()`; both carry the version (unless
    `render()` names another) and are re-validated every time (no-cache)."""
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = render()
    response.setdefault("ETag", etag)
    response["Cache-Control"] = "no-cache"
    return response


class PublicTournamentMixin:
    """Resolves the tournament from the URL; a hidden one is a 404 for everyone but its staff.

    `visibility_flag` names a Tournament field ("show_rankings", "show_seating") that must be
    on for anonymous readers.
    """

    visibility_flag: str | None = None

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            queryset = Tournament.objects.all()
            user = self.request.user
            if not user.is_authenticated:
                queryset = queryset.public()
            elif not user.is_superuser:
                queryset = queryset.filter(Q(is_public=True) | Q(staff__user=user)).distinct()
            self._tournament = get_object_or_404(queryset, slug=self.kwargs["slug"])
            activate_time_zone(self._tournament.time_zone)
        return self._tournament

    def is_staff_viewer(self) -> bool:
        if not hasattr(self, "_is_staff_viewer"):
            self._is_staff_viewer = has_role(
                self.request.user, self.get_tournament(), TournamentStaff.Role.REFEREE
            )
        return self._is_staff_viewer

    def shows(self, flag: str) -> bool:
        """Whether this visitor sees what the switch `flag` ("show_rankings", "show_seating")
        publishes: everyone while it is on, the tournament's staff always."""
        return bool(getattr(self.get_tournament(), flag)) or self.is_staff_viewer()

    def dispatch(self, request, *args, **kwargs):
        self.get_tournament()  # its time zone, before anything is read or shown
        if self.visibility_flag and not self.shows(self.visibility_flag):
            raise Http404(_("This page is not published."))
        return super().dispatch(request, *args, **kwargs)

    def get_round(self, number: int) -> Round:
        """A round whose seating is published (any round for the tournament's staff)."""
        rounds = self.get_tournament().rounds.all()
        if not self.is_staff_viewer():
            rounds = rounds.seated()
        return get_object_or_404(rounds, number=number)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.get_tournament()
        context["shows_rankings"] = self.shows("show_rankings")
        context["shows_seating"] = self.shows("show_seating")
        return context


class HomeView(ListView):
    template_name = "public/home.html"
    context_object_name = "tournaments"

    def get_queryset(self):
        return Tournament.objects.public()

    def get_context_data(self, **kwargs):
        """Officials land here after logging in: their own tournaments come first."""
        context = super().get_context_data(**kwargs)
        user = self.request.user
        if user.is_authenticated:
            context["staff_tournaments"] = Tournament.objects.for_staff(user).order_by(
                "-start_date", "name"
            )
        return context


class TournamentView(PublicTournamentMixin, DetailView):
    template_name = "public/tournament.html"
    context_object_name = "tournament"

    def get_object(self, queryset=None) -> Tournament:
        return self.get_tournament()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["rounds"] = list(self.get_tournament().rounds.order_by("number"))
        context["current_round"] = selectors.current_round(self.get_tournament())
        context["is_staff_viewer"] = self.is_staff_viewer()
        return context


class ClockView(PublicTournamentMixin, TemplateView):
    """The round clock for every screen in the room; counts down locally between polls."""

    template_name = "public/clock.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = get_object_or_404(self.get_tournament().rounds, number=self.kwargs["number"])
        context.update(round=round_, state=clock_state(round_))
        return context


class ClockStateView(PublicTournamentMixin, View):
    def get(self, request, *args, **kwargs):
        round_ = get_object_or_404(
            self.get_tournament().rounds.select_related("tournament"), number=self.kwargs["number"]
        )
        response = JsonResponse(clock_state(round_))
        response["Cache-Control"] = "no-store"
        return response
