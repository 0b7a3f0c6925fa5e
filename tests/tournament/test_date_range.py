"""An event's dates written once, as short as they read unambiguously, in English and French."""

import datetime

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import make_tournament
from tournament.formatting import format_date_range

D = datetime.date


@pytest.mark.parametrize(
    ("start", "end", "english", "french"),
    [
        # One day: one date, where the pages said "29 November 2026 – 29 November 2026".
        (D(2026, 11, 29), D(2026, 11, 29), "29 November 2026", "29 novembre 2026"),
        (D(2026, 11, 29), D(2026, 11, 30), "29–30 November 2026", "29–30 novembre 2026"),
        (
            D(2026, 11, 29),
            D(2026, 12, 2),
            "29 November – 2 December 2026",
            "29 novembre – 2 décembre 2026",
        ),
        (
            D(2026, 12, 30),
            D(2027, 1, 2),
            "30 December 2026 – 2 January 2027",
            "30 décembre 2026 – 2 janvier 2027",
        ),
    ],
)
def test_an_events_dates_say_what_they_share_once(start, end, english, french):
    with translation.override("en"):
        assert format_date_range(start, end) == english
    with translation.override("fr"):
        assert format_date_range(start, end) == french


@pytest.mark.django_db
def test_a_one_day_event_shows_one_date_on_its_page_and_the_home_page(client):
    tournament = make_tournament(
        start_date=D(2026, 11, 29), end_date=D(2026, 11, 29), is_public=True
    )
    for url in (reverse("public:tournament", args=[tournament.slug]), reverse("public:home")):
        page = client.get(url, headers={"accept-language": "en"}).content.decode()
        assert "29 November 2026" in page
        assert "29 November 2026 –" not in page
