"""Pages anyone may read, without logging in: the list of tournaments, a tournament's page
and the round clock. Hidden tournaments and hidden pages answer 404.

`PublicTournamentMixin` is the one way every public page resolves its tournament and honours
the organiser's switches (hidden tournament, rankings, seating), the rankings and player
pages of `scoring.views.public` and the seating pages of `seating.views.public` included:
`shows` is the one rule of a switch, asked by the pages it closes and by every page, link
and column that would show what it hides (a player page's tables, winds and opponents).
Every page runs a fixed number of queries whatever the number of players. `answer_poll` and
`etag_of` answer every live page's poll and the calendar feed with a 304 while nothing changed;
`CachedPageMixin` keeps the whole page of a reader who is not logged in, so 500 phones
re-reading the rankings, a player's page or the seating cost a cache read each.
"""

import hashlib
from collections.abc import Callable
from functools import cached_property

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import DetailView, ListView, TemplateView

from tournament import selectors
from tournament.compression import kept_page, kept_response
from tournament.invalidation import standings_version
from tournament.kept_answers import Kept, Latest, kept_or_built, latest_with_version
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


def served_kept(request: HttpRequest, kept: tuple[str, bytes], etag: str) -> HttpResponse:
    """A kept page (`kept_page`) under its version's ETag, weakened when it goes out
    compressed as GZipMiddleware weakens it: a reader gets the same ETag whether the page
    was kept or rendered for them."""
    response = kept_response(request, kept)
    response["ETag"] = f"W/{etag}" if response.has_header("Content-Encoding") else etag
    return response


class PublicTournamentMixin:
    """Resolves the tournament from the URL; a hidden one is a 404 for everyone but its staff.

    `visibility_flag` names a Tournament field ("show_rankings", "show_seating") that must be
    on for anonymous readers.
    """

    visibility_flag: str | None = None
    #: Whether the page's keys hold the tournament's latest audit entry (the standings' key):
    #: then read with the tournament (`with_last_audit`), not by a query of its own.
    reads_last_audit = False
    _version: str | None = None

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            user = self.request.user
            if not user.is_authenticated:  # the phones: most public requests
                found = selectors.public_tournament(
                    self.kwargs["slug"], with_last_audit=self.reads_last_audit
                )
                if found is None:
                    raise Http404(_("This page does not exist, or it is not published yet."))
                self._tournament = found
            else:
                queryset = Tournament.objects.all()
                if self.reads_last_audit:
                    queryset = queryset.with_last_audit()
                if not user.is_superuser:
                    queryset = queryset.filter(Q(is_public=True) | Q(staff__user=user)).distinct()
                self._tournament = get_object_or_404(queryset, slug=self.kwargs["slug"])
            activate_time_zone(self._tournament.time_zone)
        return self._tournament

    def version(self) -> str:
        """The standings' version token (`tournament.invalidation`), read once a request: every
        key of the page is made of the same."""
        if self._version is None:
            self._version = standings_version(self.get_tournament().pk)
        return self._version

    def read_latest(self, latest_key: str) -> Latest | None:
        """The latest answer kept under ``latest_key``, read with the version token when it is
        not read yet: a kept answer then costs one read of the cache."""
        if self._version is not None:
            return cache.get(latest_key)
        self._version, latest = latest_with_version(self.get_tournament().pk, latest_key)
        return latest

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


class CachedPageMixin:
    """A public page kept whole in the cache for the readers who are not logged in, and
    answered 304 to every reader while its version has not moved.

    The key holds the tournament, the page's `page_version()` (each page defines it: the
    standings' key moves with every audited write of the tournament, a sheet, a penalty, a
    seating, a substitute, a withdrawal), every field of the tournament and of its rounds (the
    switches, so a page hidden or shown since is never served from before; a round's status;
    its schedule revision, which moves with every seating, start, venue or length:
    `RoundQuerySet.schedule_changed`), the language and the address. Logged-in readers are
    never served from it nor kept: their pages name them, link their staff pages and show what
    the switches hide (`shows`). A page rendered from the previous standings (`page_stale`,
    during another process's rebuild) is served and not kept, under its own ETag, so the next
    poll gets the new one. A kept page costs two queries, the tournament (with its latest
    audit entry: `with_last_audit`) and its rounds, and one read of the cache (`read_latest`):
    the rounds are read, not trusted to the audit, so that a round changed without an audit
    entry is never shown as it was.
    """

    #: The query parameters the page reads; an address with any other is rendered, not kept
    #: (a loop of ``?x=<random>`` must not fill the cache).
    page_parameters: tuple[str, ...] = ()
    page_stale = False
    reads_last_audit = True

    @cached_property
    def page_facts(self) -> str:
        """What the page shows besides its version, hashed: the tournament's and its rounds'
        fields, the reader and the address."""
        tournament = self.get_tournament()
        fields = [str(field.value_from_object(tournament)) for field in Tournament._meta.fields]
        rounds = selectors.round_rows(tournament.pk)
        user = self.request.user
        reader = f"user{user.pk}:{self.is_staff_viewer()}" if user.is_authenticated else "anon"
        facts = "\n".join([*fields, str(list(rounds)), reader, self.request.get_full_path()])
        return hashlib.sha256(facts.encode()).hexdigest()[:32]

    @cached_property
    def page_key(self) -> str:
        tournament_id = self.get_tournament().pk
        facts = f"{get_language()}:{self.page_facts}"
        return f"public:page:{tournament_id}:{self.page_version()}:{facts}"

    def page_etag(self) -> str:
        return etag_of(f"{self.page_key}:stale" if self.page_stale else self.page_key)

    def keeps_page(self) -> bool:
        """Nobody logged in, no message waiting for this reader (it is theirs alone), and
        only the parameters the page reads in its address."""
        request = self.request
        return (
            not request.user.is_authenticated
            and not len(get_messages(request))
            and set(request.GET) <= set(self.page_parameters)
        )

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        keeps = self.keeps_page()
        latest_key = f"public:page-latest:{self.get_tournament().pk}:{get_language()}:"
        latest_key += self.page_facts
        latest = self.read_latest(latest_key) if keeps else None

        def rendered() -> tuple[HttpResponse, Kept | None]:
            response = super(CachedPageMixin, self).get(request, *args, **kwargs)
            response.render()
            response["ETag"] = self.page_etag()
            if self.page_stale or response.status_code != 200:
                return response, None
            return response, kept_page(response.content, response["Content-Type"])

        def served(kept: Kept, fresh: bool) -> HttpResponse:
            return served_kept(request, kept, etag_of(self.page_key + ("" if fresh else ":stale")))

        def render() -> HttpResponse:
            if not keeps:
                return rendered()[0]
            return kept_or_built(self.page_key, latest_key, latest, rendered, served)

        return answer_poll(request, etag_of(self.page_key), render)


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
