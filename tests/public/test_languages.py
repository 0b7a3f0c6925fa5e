"""English and French: a language switch on every page, the French translation complete."""

import datetime
import re
from pathlib import Path

import pytest
from django import forms
from django.urls import reverse
from django.utils import timezone, translation

from scoring.exports.standings_pdf import StandingsPdf
from tests.exports.conftest import pdf_text
from tests.public.test_seating_pages import seated_tournament

PO_FILE = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def public_urls(tournament) -> list[str]:
    slug = tournament.slug
    return [
        reverse("public:home"),
        reverse("public:tournament", args=[slug]),
        reverse("public:rankings", args=[slug]),
        reverse("public:find_seat", args=[slug]),
        reverse("public:seating", args=[slug, 1]),
        reverse("public:seating_players", args=[slug, 1]),
        reverse("public:projector_tables", args=[slug, 1]),
        reverse("public:projector_players", args=[slug, 1]),
        reverse("public:clock", args=[slug, 1]),
    ]


@pytest.mark.django_db
def test_every_public_page_has_the_language_switch(client):
    tournament, _registrations, _rounds = seated_tournament()
    for url in public_urls(tournament):
        content = client.get(url).content.decode()
        assert 'name="language"' in content, url
        assert 'value="fr"' in content, url


@pytest.mark.django_db
def test_pages_speak_french_to_a_french_reader(client):
    tournament, registrations, _rounds = seated_tournament()
    response = client.get(
        reverse("public:find_seat", args=[tournament.slug]),
        {"q": registrations[0].player.last_name},
        headers={"accept-language": "fr"},
    )
    content = response.content.decode()
    assert '<html lang="fr">' in content
    assert "Trouver ma place" in content
    assert "Table 1" in content
    assert "Est" in content


@pytest.mark.django_db
def test_switching_language_sticks(client):
    tournament, _registrations, _rounds = seated_tournament()
    url = reverse("public:seating", args=[tournament.slug, 1])
    client.post(reverse("set_language"), {"language": "fr", "next": url})
    assert "Placement de la ronde 1" in client.get(url).content.decode()


def is_untranslated(entry: str) -> bool:
    lines = entry.splitlines()
    for index, line in enumerate(lines):
        if re.match(r'^msgstr(\[\d\])? ""$', line):
            following = lines[index + 1] if index + 1 < len(lines) else ""
            if not following.startswith('"'):
                return True
    return "#, fuzzy" in entry


def test_french_translation_is_complete():
    entries = PO_FILE.read_text(encoding="utf-8").split("\n\n")[1:]
    assert [entry for entry in entries if is_untranslated(entry)] == []
    assert PO_FILE.with_suffix(".mo").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "start", "dates", "printed"),
    [
        (
            "fr",
            "12/05/2026 09:30",
            "6–7 juin 2026",
            "Page 1 sur 1 · 24 novembre 2026 14:05",
        ),
        # English is read the world over: the day first and the month by name, never
        # 05/12/2026 (12 May or 5 December?), the 24-hour clock
        (
            "en",
            "12 May 2026, 09:30",
            "6–7 June 2026",
            "Page 1 of 1 · 24 November 2026, 14:05",
        ),
    ],
)
def test_dates_are_written_as_the_reader_writes_them(
    client, monkeypatch, language, start, dates, printed
):
    tournament, _registrations, rounds = seated_tournament()
    rounds[0].scheduled_start = timezone.make_aware(datetime.datetime(2026, 5, 12, 9, 30))
    rounds[0].save()
    page = client.get(
        reverse("public:tournament", args=[tournament.slug]), headers={"accept-language": language}
    )
    assert f"<td>{start}</td>" in page.content.decode()
    assert dates in page.content.decode()
    now = datetime.datetime(2026, 11, 24, 13, 5, tzinfo=datetime.UTC)  # 14:05 in Paris
    monkeypatch.setattr(timezone, "now", lambda: now)
    with translation.override(language):
        text = pdf_text(StandingsPdf(tournament).render()[2])
    assert dates in text
    assert printed in text


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(
    ("typed", "day"),
    [("05/07/2026", datetime.date(2026, 7, 5)), ("2026-07-05", datetime.date(2026, 7, 5))],
)
def test_typed_dates_are_read_day_first_in_both_languages(language, typed, day):
    # The pages write 5 July 2026; an organiser typing 05/07/2026 in the admin means it too
    # (Django's "en" read it as 7 May, a scheduled start two months off).
    with translation.override(language):
        assert forms.DateField().clean(typed) == day
        start = forms.SplitDateTimeField().clean([typed, "09:30"])
    assert (start.date(), start.time()) == (day, datetime.time(9, 30))
