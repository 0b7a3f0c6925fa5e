"""The public pages of seating: a round's seating by table or by player, its projector
versions for the wall, find my seat, and each player's calendar feed. The organiser can hide
them (show seating off; the feed then gives the rounds' times only).

Every page re-reads itself: a round may be seated again while it is on the wall or a phone.
The seating pages and find my seat are kept whole for readers not logged in
(`CachedPageMixin`), under the standings' key: a seating applied, a round started or a switch
turned is an audited write of the tournament, and every such write moves it.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.views import View
from django.views.generic import TemplateView

from scoring.selectors.standings import standings_cache_key
from seating import selectors
from seating.exports.calendar import PlayerCalendar
from tournament.models import Registration
from tournament.selectors import (
    current_round,
    players_of_round,
    seated_rounds,
    seats_of_player,
    tables_of_round,
)
from tournament.views.public import (
    POLL_SECONDS,
    CachedPageMixin,
    PublicTournamentMixin,
    answer_poll,
    etag_of,
)

# Seat cards find my seat shows at most: a phone's screenful or two.
SEAT_MATCHES_SHOWN = 20


PROJECTOR_SIZES = [(12, "large"), (25, "medium"), (40, "small")]


class SeatingPageMixin(CachedPageMixin, PublicTournamentMixin):
    visibility_flag = "show_seating"

    def page_version(self) -> str:
        """The audit entry of every seating applied, swapped or discarded, and of every round
        started or finished, moves the standings' key (`tournament.services.audit`)."""
        return standings_cache_key(self.get_tournament(), self.version())


class FindSeatView(SeatingPageMixin, TemplateView):
    """Type part of your name, get your table and wind for the current or next round."""

    template_name = "public/find_seat.html"
    page_parameters = ("q",)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.get_tournament()
        query = self.request.GET.get("q", "").strip()[:100]
        round_ = current_round(tournament)
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


class SeatingView(SeatingPageMixin, TemplateView):
    """A round's seating by table or by player; `projector` pages fill a 1920×1080 screen."""

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
            rounds=seated_rounds(self.get_tournament()),
        )
        if self.by_player:
            context["players"] = players_of_round(round_)
            count = len(context["players"]) / 4
        else:
            context["tables"] = tables_of_round(round_)
            count = len(context["tables"])
        # Every seating page re-reads itself: the round may be seated again while it is on the
        # wall or a phone. The projector pages also scale their type to fill one screen.
        context["poll_seconds"] = POLL_SECONDS
        context["size"] = next(
            (size for limit, size in PROJECTOR_SIZES if count <= limit), "smallest"
        )
        return context


class PlayerCalendarView(PublicTournamentMixin, View):
    """One player's rounds as a calendar feed (.ics) to subscribe to, answered 304 while it
    has not changed (ETag). The player page's switches: hidden with the rankings, its tables,
    winds and opponents hidden with the seating.

    Calendar apps send no language: the page that links here names its own (``?lang=fr``),
    else the request's applies."""

    visibility_flag = "show_rankings"

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        tournament = self.get_tournament()
        registration = get_object_or_404(
            Registration.objects.select_related("player"),
            tournament=tournament,
            pk=self.kwargs["registration_id"],
            is_substitute=False,
        )
        seats = seats_of_player(tournament, registration, seating=self.shows("show_seating"))
        language = request.GET.get("lang", "")
        if language not in dict(settings.LANGUAGES):
            language = translation.get_language()
        with translation.override(language):
            filename, content_type, content = PlayerCalendar(
                tournament, registration, seats, uid_domain=settings.CALENDAR_UID_DOMAIN
            ).render()

        def render() -> HttpResponse:
            response = HttpResponse(content, content_type=content_type)
            response["Content-Disposition"] = f'inline; filename="{filename}"'
            return response

        return answer_poll(request, etag_of(content.decode()), render)
