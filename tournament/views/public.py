"""Pages anyone may read, without logging in. Hidden tournaments and hidden pages answer 404.

The organiser can hide the rankings (e.g. before the final) or the seating; the tournament's
staff still see them. Every page runs a fixed number of queries whatever the number of
players (standings come cached from `scoring.selectors`).
"""

import copy
import hashlib
from functools import cached_property

from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import DetailView, ListView, TemplateView

from scoring.selectors import penalty_list, standings_cache_key, tournament_standings
from tournament import selectors
from tournament.models import Registration, Round, Seat, Tournament, TournamentStaff
from tournament.names import fold
from tournament.permissions import has_role
from tournament.services.clock import clock_state
from tournament.tables import (
    RankingTable,
    TeamRankingTable,
    format_place,
    format_points,
    format_score,
    ranking_rows,
)

POLL_SECONDS = 10
# Seat cards find my seat shows at most: a phone's screenful or two.
SEAT_MATCHES_SHOWN = 20
RANKING_CACHE_SECONDS = 600
PROJECTOR_SIZES = [(12, "large"), (25, "medium"), (40, "small")]


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
        return self._tournament

    def is_staff_viewer(self) -> bool:
        if not hasattr(self, "_is_staff_viewer"):
            self._is_staff_viewer = has_role(
                self.request.user, self.get_tournament(), TournamentStaff.Role.REFEREE
            )
        return self._is_staff_viewer

    def dispatch(self, request, *args, **kwargs):
        tournament = self.get_tournament()
        if (
            self.visibility_flag
            and not getattr(tournament, self.visibility_flag)
            and not self.is_staff_viewer()
        ):
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


class RankingsMixin(PublicTournamentMixin):
    visibility_flag = "show_rankings"

    @cached_property
    def ranking_query(self) -> QueryDict:
        """What the ranking reads of the query string: the search, and a sort by one of its
        columns. Anything else is left out of the cache key and the sort links: each new
        query string cost a fresh rendering (a second at 500 players) and a cache entry, so
        a loop of ``?x=<random>`` could keep every worker busy. Read without the standings:
        a poll answered 304 loads nothing more."""
        query = QueryDict(mutable=True)
        search = self.request.GET.get("q", "").strip()[:100]
        if search:
            query["q"] = search
        rounds = range(1, self.get_tournament().rounds_count + 1)
        columns = {*RankingTable.base_columns, *(f"r{number}" for number in rounds)}
        sort = self.request.GET.get("sort", "")
        if sort.removeprefix("-") in columns:
            query["sort"] = sort
        return query

    def get_table(self) -> RankingTable:
        standings = tournament_standings(self.get_tournament())
        rows = ranking_rows(standings)
        params = self.ranking_query
        query = fold(params.get("q", ""))
        if query:
            rows = [row for row in rows if all(w in row["search"] for w in query.split())]
        return RankingTable(
            rows,
            slug=self.get_tournament().slug,
            round_numbers=standings.round_numbers,
            provisional_rounds=standings.provisional_rounds,
            tie_breaks=self.get_tournament().get_rules().tie_breaks,
            order_by=params.get("sort") or "place",
        )

    def table_html_key(self) -> str:
        """The rendered table depends on the standings, the ranking's query and the language."""
        query = hashlib.sha256(self.ranking_query.urlencode().encode()).hexdigest()[:16]
        version = standings_cache_key(self.get_tournament())
        return f"public:ranking-table:{version}:{get_language()}:{query}"

    def table_etag(self, key: str) -> str:
        return f'"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'

    def table_html(self, key: str) -> str:
        """Rendering 500 rows costs about a second: phones polling every few seconds get
        the cached HTML until a sheet or penalty changes the standings."""
        html = cache.get(key)
        if html is None:
            # The sort links carry the ranking's query only, as the cache key does.
            request = copy.copy(self.request)
            request.GET = self.ranking_query
            html = render_to_string(
                "public/_ranking_table.html", {"table": self.get_table()}, request=request
            )
            cache.set(key, html, RANKING_CACHE_SECONDS)
        return mark_safe(html)  # rendered by our own template, escaped there


class RankingsView(RankingsMixin, TemplateView):
    """Live rankings: the table body refreshes itself from RankingsRowsView."""

    template_name = "public/rankings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["standings"] = standings = tournament_standings(self.get_tournament())
        key = self.table_html_key()
        context["table_html"] = self.table_html(key)
        # The page's first poll then costs a 304, not the whole table again.
        context["table_etag"] = self.table_etag(key)
        context["query"] = self.request.GET.get("q", "")
        context["ranking_query"] = self.ranking_query
        context["poll_seconds"] = POLL_SECONDS
        context["final"] = self.get_tournament().results_final
        context["has_teams"] = any(entry.team_name for entry in standings.entries)
        return context


class RankingsRowsView(RankingsMixin, View):
    """The ranking table alone, for the page's polling; 304 when nothing changed (ETag)."""

    def get(self, request, *args, **kwargs):
        key = self.table_html_key()
        etag = self.table_etag(key)
        if etag in request.headers.get("If-None-Match", ""):
            response = HttpResponseNotModified()
        else:
            response = HttpResponse(self.table_html(key))
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return response


class TeamRankingsView(PublicTournamentMixin, TemplateView):
    template_name = "public/team_rankings.html"
    visibility_flag = "show_rankings"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rows = selectors.team_rows(self.get_tournament())
        if not rows:
            raise Http404(_("This tournament has no teams."))
        context["table"] = TeamRankingTable(rows)
        return context


class PlayerView(PublicTournamentMixin, TemplateView):
    """One player's rounds: table, wind, opponents, points, place, score, running rank."""

    template_name = "public/player.html"
    visibility_flag = "show_rankings"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.get_tournament()
        registration = get_object_or_404(
            Registration.objects.select_related("player", "team"),
            tournament=tournament,
            pk=self.kwargs["registration_id"],
            is_substitute=False,
        )
        standings = tournament_standings(tournament)
        entry = next((e for e in standings.entries if e.registration_id == registration.pk), None)
        history = selectors.rank_history(
            standings, registration.pk, selectors.referee_penalties(tournament)
        )
        context.update(
            registration=registration,
            player=registration.player,
            player_name=registration.player.display_name,
            entry=entry,
            total=format_score(entry.total) if entry else "",
            place=format_place(entry.place, entry.shared_place) if entry else "",
            rounds=[
                dict(
                    vars(row),
                    wind_label=Seat.Wind(row.wind).label,
                    points_text=format_points(row.points),
                    score_text=format_score(row.score),
                    penalty_text=format_score(row.penalty) if row.penalty else "",
                )
                for row in selectors.player_rounds(tournament, registration, entry, history)
            ],
            chart=rank_chart(history, len(standings.entries)),
            penalties=[
                {
                    "round": line.round_number,
                    "kind": line.kind_label,
                    "points": format_score(line.points),
                    "reason": line.reason,
                    "cancelled": line.cancelled,
                }
                for line in penalty_list(tournament, registration)
            ],
        )
        return context


def rank_chart(history: list[tuple[int, int]], players: int) -> dict | None:
    """Coordinates of the small SVG chart of rank over rounds (rank 1 at the top)."""
    if not history or players < 2:
        return None
    width, height, pad = 320, 140, 22
    step = (width - 2 * pad) / max(len(history) - 1, 1)
    points = []
    for index, (number, rank) in enumerate(history):
        x = pad + index * step
        y = pad + (rank - 1) * (height - 2 * pad) / (players - 1)
        points.append({"x": round(x, 1), "y": round(y, 1), "round": number, "rank": rank})
    return {
        "width": width,
        "height": height,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "players": players,
        "bottom": height - pad,
        "pad": pad,
    }


class FindSeatView(PublicTournamentMixin, TemplateView):
    """Type part of your name, get your table and wind for the current or next round."""

    template_name = "public/find_seat.html"
    visibility_flag = "show_seating"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.get_tournament()
        query = self.request.GET.get("q", "").strip()[:100]
        round_ = selectors.current_round(tournament)
        context.update(query=query, round=round_, poll_seconds=POLL_SECONDS)
        if query:
            matches = selectors.find_seats(tournament, round_, query)
            # A player further down the alphabet than the cards shown is told to type more.
            context["matches"] = matches[:SEAT_MATCHES_SHOWN]
            context["not_shown"] = len(matches) - len(context["matches"])
            if not matches:
                context["inactive"] = selectors.find_inactive(tournament, query)[
                    :SEAT_MATCHES_SHOWN
                ]
        return context


class SeatingView(PublicTournamentMixin, TemplateView):
    """A round's seating by table or by player; `projector` pages fill a 1920×1080 screen."""

    visibility_flag = "show_seating"
    by_player = False
    projector = False

    def get_template_names(self) -> list[str]:
        if self.projector:
            return [
                "public/projector_players.html"
                if self.by_player
                else "public/projector_tables.html"
            ]
        return ["public/seating.html"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = self.get_round(self.kwargs["number"])
        context.update(
            round=round_,
            by_player=self.by_player,
            rounds=selectors.seated_rounds(self.get_tournament()),
        )
        if self.by_player:
            context["players"] = selectors.players_of_round(round_)
            count = len(context["players"]) / 4
        else:
            context["tables"] = selectors.tables_of_round(round_)
            count = len(context["tables"])
        # Every seating page re-reads itself: the round may be seated again while it is on the
        # wall or a phone. The projector pages also scale their type to fill one screen.
        context["poll_seconds"] = POLL_SECONDS
        context["size"] = next(
            (size for limit, size in PROJECTOR_SIZES if count <= limit), "smallest"
        )
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
