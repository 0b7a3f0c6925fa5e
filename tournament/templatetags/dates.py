"""An event's dates on the pages, written as `tournament.formatting.format_date_range` does."""

from django import template

from tournament.formatting import format_date_range
from tournament.models import Tournament

register = template.Library()


@register.filter
def event_dates(tournament: Tournament) -> str:
    """ "29–30 November 2026", or one date for a one-day event."""
    return format_date_range(tournament.start_date, tournament.end_date)
