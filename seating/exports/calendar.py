"""One player's calendar feed (iCalendar, RFC 5545): an event for each published round the
player is seated in and whose start is scheduled, so that a phone's calendar says when and
where to sit.

Each event keeps its UID (round, registration, the site's domain: RFC 5545 §3.8.4.7) for as
long as the round exists, and numbers its versions with the round's schedule revision
(SEQUENCE, §3.8.7.4): a new seating, start, venue or time limit moves it, and calendar apps
replace the event they hold. Times are written in UTC, so the feed needs no time zone
definition. Texts are in the active language; what the reader may not see (tables, winds and
opponents while seating is hidden) is left out by the caller (`seats_of_player`).
"""

from datetime import UTC, timedelta

from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from tournament.models import WIND_LABELS, Registration, Tournament
from tournament.selectors import PlayerSeat

CALENDAR_CONTENT_TYPE = "text/calendar; charset=utf-8"
PRODID = "-//Riichi tournament manager//Players' calendar//EN"
#: How often a calendar app should read the feed again: seating may change between rounds.
REFRESH = timedelta(minutes=30)


class PlayerCalendar:
    """The rounds of one registration as VEVENTs; `render` gives the .ics file."""

    def __init__(
        self,
        tournament: Tournament,
        registration: Registration,
        seats: list[PlayerSeat],
        *,
        uid_domain: str,
    ) -> None:
        self.tournament = tournament
        self.registration = registration
        self.seats = [seat for seat in seats if seat.round.scheduled_start]
        self.uid_domain = uid_domain

    def render(self) -> tuple[str, str, bytes]:
        calendar = Calendar()
        calendar.add("prodid", PRODID)
        calendar.add("version", "2.0")
        calendar.add("calscale", "GREGORIAN")
        name = f"{self.tournament.name} · {self.registration.player.display_name}"
        calendar.add("name", name)  # RFC 7986 §5.1
        calendar.add("x-wr-calname", name)  # the same for the apps that predate RFC 7986
        calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
        calendar.add("x-published-ttl", REFRESH)
        for seat in self.seats:
            calendar.add_component(self._event(seat))
        filename = f"{self.tournament.slug}-{self.registration.pk}.ics"
        return filename, CALENDAR_CONTENT_TYPE, calendar.to_ical()

    def _event(self, seat: PlayerSeat) -> Event:
        round_ = seat.round
        event = Event()
        event.add("uid", f"round-{round_.pk}-registration-{self.registration.pk}@{self.uid_domain}")
        event.add("sequence", round_.schedule_revision)
        # Without a METHOD, DTSTAMP is when the event was last revised (RFC 5545 §3.8.7.2).
        revised = round_.schedule_changed_at or self.tournament.created_at
        event.add("dtstamp", revised.astimezone(UTC))
        event.add("dtstart", round_.scheduled_start.astimezone(UTC))
        event.add("duration", timedelta(minutes=self.tournament.round_minutes))
        event.add("summary", self._summary(seat))
        location = self._location(seat)
        if location:
            event.add("location", location)
        if seat.opponents:
            event.add("description", self._description(seat))
        return event

    def _summary(self, seat: PlayerSeat) -> str:
        """ "Round 3 — Table 5, East", or "Round 3" where seating is hidden."""
        if seat.table_number is None:
            return _("Round %(round)s") % {"round": seat.round.number}
        return _("Round %(round)s — Table %(table)s, %(wind)s") % {
            "round": seat.round.number,
            "table": seat.table_number,
            "wind": _wind_label(seat.wind),
        }

    def _location(self, seat: PlayerSeat) -> str:
        venue = self.tournament.venue
        if seat.table_number is None:
            return venue
        table = _("Table %(table)s") % {"table": seat.table_number}
        return f"{venue}, {table}" if venue else table

    def _description(self, seat: PlayerSeat) -> str:
        """The others at the table in wind order, one a line: "South: Zoé Martin"."""
        lines = [_("At your table:")]
        lines += [
            _("%(wind)s: %(name)s") % {"wind": _wind_label(other.wind), "name": other.name}
            for other in seat.opponents
        ]
        return "\n".join(lines)


def _wind_label(wind: str) -> str:
    return str(WIND_LABELS[wind])
