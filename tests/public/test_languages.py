"""English and French: a language switch on every page, the French translation complete."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

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
