"""The public pages of results: the live rankings (the table re-read by the page every few
seconds, answered 304 while nothing changed), the team rankings and one player's page (which
re-reads itself the same way: a player follows their results and next seat on it).

The organiser can hide them (show rankings off); the tournament's staff still see them.
Standings come cached from `scoring.selectors.standings`; the rendered table, and the whole
page of a reader not logged in (`CachedPageMixin`), are cached under the standings' key, so
phones polling cost a cache read.
"""

import copy
import hashlib
import json
from functools import cached_property

import segno
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from scoring.selectors.penalties import penalty_list
from scoring.selectors.players import player_rounds, rank_histories
from scoring.selectors.stages import stage_standings, with_next
from scoring.selectors.standings import (
    RoundLimit,
    Standings,
    public_round_limit,
    standings_cache_key,
    team_standings,
    tournament_standings,
)
from scoring.tables import (
    RankingTable,
    StageRankingTable,
    TeamRankingTable,
    cut_text,
    ranking_rows,
    team_ranking_rows,
)
from tournament.compression import kept_page
from tournament.formatting import format_place, format_points, format_score
from tournament.kept_answers import Kept, kept_or_built
from tournament.models import Registration, Seat
from tournament.names import fold
from tournament.views.public import (
    POLL_SECONDS,
    CachedPageMixin,
    PublicTournamentMixin,
    answer_poll,
    etag_of,
    served_kept,
)

RANKING_CACHE_SECONDS = 600


class StandingsMixin(PublicTournamentMixin):
    """The standings' key and the standings, each read once a request: the key costs a query
    and a cache read, the standings their unpacking. A tournament showing complete rounds
    only shows the standings up to its `round_limit`, which is part of the key."""

    visibility_flag = "show_rankings"
    reads_last_audit = True

    @cached_property
    def round_limit(self) -> RoundLimit | None:
        return public_round_limit(self.get_tournament())

    @cached_property
    def standings_key(self) -> str:
        limit = self.round_limit
        key = standings_cache_key(self.get_tournament(), self.version())
        return f"{key}:up-to-{limit.shown_up_to}" if limit else key

    def page_version(self) -> str:
        """Every audited write of the tournament moves the standings' key (`CachedPageMixin`)."""
        return self.standings_key

    @cached_property
    def standings(self) -> Standings:
        limit = self.round_limit
        standings = tournament_standings(
            self.get_tournament(), rounds_up_to=limit.shown_up_to if limit else None
        )
        self.page_stale = standings.stale  # the previous version: served, never kept
        return standings


class RankingsMixin(StandingsMixin):
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
        standings = self.standings
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
            stale=standings.stale,
            round_limit=self.round_limit,
        )

    @cached_property
    def table_facts(self) -> str:
        """What the table shows besides the standings: the language and the query."""
        query = hashlib.sha256(self.ranking_query.urlencode().encode()).hexdigest()[:16]
        return f"{get_language()}:{query}"

    def table_key(self) -> str:
        return f"public:ranking-table:{self.standings_key}:{self.table_facts}"

    def table_html(self, key: str) -> tuple[str, str]:
        """The table as HTML and its ETag, the same as the JSON's: the page, which comes with
        the HTML, asks its first poll for the JSON only if the table changed since. Rendering
        500 rows costs about a second: it is cached until a sheet or penalty changes the
        standings. A rendering of the previous standings, served while another process builds
        the new ones, is not cached, and its own ETag brings the next poll the new one."""
        html = cache.get(f"{key}:html")
        if html is None:
            table = self.get_table()
            # The sort links carry the ranking's query only, as the cache key does.
            request = copy.copy(self.request)
            request.GET = self.ranking_query
            html = render_to_string("public/_ranking_table.html", {"table": table}, request=request)
            if table.stale:
                return mark_safe(html), etag_of(f"{key}:stale")  # escaped by our template
            cache.set(f"{key}:html", html, RANKING_CACHE_SECONDS)
        return mark_safe(html), etag_of(key)

    def table_json(self, key: str) -> tuple[str, str]:
        """Only ever polled: kept compressed by `RankingsRowsView`, not as text too."""
        table = self.get_table()
        text = json.dumps(table.live(), ensure_ascii=False, separators=(",", ":"))
        return text, etag_of(f"{key}:stale" if table.stale else key)


class RankingsView(CachedPageMixin, RankingsMixin, TemplateView):
    """Live rankings: the table's rows refresh themselves from RankingsDataView."""

    template_name = "public/rankings.html"
    page_parameters = ("q", "sort")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["standings"] = standings = self.standings
        # The page's first poll then costs a 304, not the whole table again.
        context["table_html"], context["table_etag"] = self.table_html(self.table_key())
        context["query"] = self.request.GET.get("q", "")
        context["ranking_query"] = self.ranking_query
        context["poll_seconds"] = POLL_SECONDS
        context["final"] = self.get_tournament().results_final
        context["has_teams"] = any(entry.team_name for entry in standings.entries)
        return context


class RankingsRowsView(RankingsMixin, View):
    """The whole table as HTML, 304 when nothing changed (ETag): for a page whose table head
    changed (a round no longer provisional, a tie-break legend), and for readers of HTML."""

    content_type = "text/html; charset=utf-8"
    kind = "html"

    def body(self, key: str) -> tuple[str, str]:
        return self.table_html(key)

    def get(self, request, *args, **kwargs):
        """The rows are the same for every reader and hold no secret: each version is kept
        compressed once (`kept_page`) and built by one process (`kept_or_built`), so the 200
        phones polling after a change neither compress 200 KiB of rows each nor draw them
        each; the rows of the previous standings, served during another process's rebuild,
        are not kept, and their own ETag brings the next poll the new ones."""
        latest_key = f"public:ranking-latest:{self.get_tournament().pk}:{self.table_facts}:"
        latest_key += self.kind
        latest = self.read_latest(latest_key)
        key = self.table_key()

        def built() -> tuple[HttpResponse, Kept | None]:
            text, etag = self.body(key)
            if etag == etag_of(key):
                kept = kept_page(text.encode(), self.content_type)
                return served_kept(request, kept, etag), kept
            response = HttpResponse(text, content_type=self.content_type)
            response["ETag"] = etag
            return response, None

        def served(kept: Kept, fresh: bool) -> HttpResponse:
            return served_kept(request, kept, etag_of(key + ("" if fresh else ":stale")))

        def render() -> HttpResponse:
            return kept_or_built(f"{key}:{self.kind}:kept", latest_key, latest, built, served)

        return answer_poll(request, etag_of(key), render)


class RankingsDataView(RankingsRowsView):
    """The rows as compact JSON (`RankingTable.live`), what the page polls every 10 s: 500
    players are about 10 KiB compressed, where the HTML table was 900 KiB uncompressed."""

    content_type = "application/json"
    kind = "json"

    def body(self, key: str) -> tuple[str, str]:
        return self.table_json(key)


class TeamRankingsView(CachedPageMixin, StandingsMixin, TemplateView):
    """Kept whole like the rankings (`CachedPageMixin`): after a sheet, the phones that open
    it cost one ranking of the teams, not one each."""

    template_name = "public/team_rankings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["round_limit"] = limit = self.round_limit
        teams = team_standings(
            self.get_tournament(), rounds_up_to=limit.shown_up_to if limit else None
        )
        rows = team_ranking_rows(teams)
        if not rows:
            raise Http404(_("This tournament has no teams."))
        context["table"] = TeamRankingTable(rows)
        return context


class StagesView(CachedPageMixin, StandingsMixin, TemplateView):
    """Each stage's ranking, the qualifying stage first: the players through to the next
    stage marked, and the cut explained under the table (a tie-break or a shared place at
    the line)."""

    template_name = "public/stages.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        limit = self.round_limit
        stages = stage_standings(
            self.get_tournament(), rounds_up_to=limit.shown_up_to if limit else None
        )
        if not stages:
            raise Http404(_("This tournament has no stages."))
        context["round_limit"] = limit
        context["stages"] = [
            {
                "name": current.stage.name if current.stage else _("Qualifying"),
                "carry_over": current.stage.get_carry_over_display() if current.stage else "",
                "table": StageRankingTable(
                    current.entries,
                    round_numbers=current.round_numbers,
                    carried=current.stage is not None,
                    through=following.qualified_ids if following else set(),
                ),
                "cut": cut_text(following.cut, following.stage.name) if following else "",
            }
            for current, following in with_next(stages)
        ]
        return context


class PlayerView(CachedPageMixin, StandingsMixin, TemplateView):
    """One player's rounds: table, wind, opponents (where seating is shown to this reader),
    points, place, score, running rank. The page re-reads itself (`live_page.js`), answered
    304 while nothing changed (`CachedPageMixin`: the standings' key, the language and what
    this reader may see)."""

    template_name = "public/player.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.get_tournament()
        registration = get_object_or_404(
            Registration.objects.select_related("player", "team"),
            tournament=tournament,
            pk=self.kwargs["registration_id"],
            is_substitute=False,
        )
        standings = self.standings
        context.update(page_etag=self.page_etag(), poll_seconds=POLL_SECONDS)
        entry = next((e for e in standings.entries if e.registration_id == registration.pk), None)
        history = rank_histories(tournament, standings, self.standings_key).get(registration.pk, [])
        context.update(
            round_limit=self.round_limit,
            registration=registration,
            player=registration.player,
            player_name=registration.player.display_name,
            entry=entry,
            total=format_score(entry.total) if entry else "",
            place=format_place(entry.place, entry.shared_place) if entry else "",
            rounds=[
                dict(
                    vars(row),
                    wind_label=Seat.Wind(row.wind).label if row.wind else "",
                    points_text=format_points(row.points),
                    score_text=format_score(row.score),
                    penalty_text=format_score(row.penalty) if row.penalty else "",
                    rank_text=format_place(row.rank, row.rank_shared) if row.rank else "",
                )
                for row in player_rounds(
                    tournament, registration, entry, history, seating=self.shows("show_seating")
                )
            ],
            chart=rank_chart(history, len(standings.entries)),
            **calendar_links(self.request, tournament, registration),
            penalties=[
                {
                    "round": line.round_number,
                    "kind": line.kind_label,
                    "points": format_score(line.points),
                    "reason": line.reason,
                    "cancelled": line.cancelled,
                }
                for line in penalty_list(tournament, registration)
                if self.round_limit is None
                or line.round_number is None
                or line.round_number <= self.round_limit.shown_up_to
            ],
        )
        return context


def calendar_links(request: HttpRequest, tournament, registration: Registration) -> dict:
    """The player's calendar feed: its address (in the page's language, which calendar apps
    do not send), the same as webcal:// for the apps that subscribe on a click, and a QR code
    for a phone."""
    path = reverse("public:player_calendar", args=[tournament.slug, registration.pk])
    url = request.build_absolute_uri(f"{path}?lang={get_language()}")
    return {
        "calendar_url": url,
        "calendar_webcal_url": "webcal://" + url.split("://", 1)[1],
        "calendar_qr": segno.make(url, error="m").svg_inline(scale=4, border=2),
    }


def rank_chart(history: list[tuple[int, int, bool]], players: int) -> dict | None:
    """Coordinates of the small SVG chart of rank over rounds (rank 1 at the top); each
    point's rank written as the rankings write a place (7= when shared)."""
    if not history or players < 2:
        return None
    width, height, pad = 320, 140, 22
    step = (width - 2 * pad) / max(len(history) - 1, 1)
    points = []
    for index, (number, rank, shared) in enumerate(history):
        x = pad + index * step
        y = pad + (rank - 1) * (height - 2 * pad) / (players - 1)
        points.append(
            {
                "x": round(x, 1),
                "y": round(y, 1),
                "round": number,
                "rank": format_place(rank, shared),
            }
        )
    return {
        "width": width,
        "height": height,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "players": players,
        "bottom": height - pad,
        "pad": pad,
    }
