"""A player known by a public name: every public page shows it instead of the legal name,
and no public search ties the two together, while the EMA results keep the legal name that
the federation records."""

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring.exports.ema import EmaResultsXlsx
from tests.public.test_rankings import confirm_round, make_event
from tournament.models import Registration
from tournament.names import name_sort_key
from tournament.services.players import player_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def known_as(client, django_user_model, organiser, django_capture_on_commit_callbacks):
    """Round 1 confirmed, and one of its players, Ann Legalname, known as Tanuki."""
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    registration = Registration.objects.filter(seats__round=rounds[0]).first()
    with django_capture_on_commit_callbacks(execute=True):
        player_update(
            player=registration.player,
            data={"first_name": "Ann", "last_name": "Legalname", "public_name": "Tanuki"},
            acting_user=organiser,
        )
    return tournament, registration


def _page(client, name: str, *args, **query) -> str:
    return client.get(reverse(name, args=args), query).content.decode()


def test_the_public_pages_show_the_public_name_never_the_legal_one(client, known_as):
    tournament, registration = known_as
    pages = {
        "rankings": _page(client, "public:rankings", tournament.slug),
        "rows": _page(client, "public:rankings_rows", tournament.slug),
        "player": _page(client, "public:player", tournament.slug, registration.pk),
        "seat": _page(client, "public:find_seat", tournament.slug, q="tanuki"),
    }
    for name, page in pages.items():
        assert "Tanuki" in page, name
        assert "legalname" not in page.lower(), name


def test_a_search_by_the_legal_name_finds_nobody(client, known_as):
    tournament, _registration = known_as
    rows = _page(client, "public:rankings_rows", tournament.slug, q="legalname")
    assert "Tanuki" not in rows
    seat = _page(client, "public:find_seat", tournament.slug, q="legalname")
    assert "Tanuki" not in seat


def test_the_ema_results_keep_the_legal_name(known_as):
    tournament, _registration = known_as
    _filename, _type, content = EmaResultsXlsx(tournament).render()
    names = {
        (row[2], row[3])
        for row in load_workbook(io.BytesIO(content)).active.iter_rows(values_only=True)
    }
    assert ("Legalname", "Ann") in names
    assert not any("Tanuki" in str(cell) for row in names for cell in row)


def test_a_public_name_is_sorted_by_itself():
    # "Tanuki" among the T, not among the L of the legal last name.
    assert name_sort_key("Ann", "Legalname", "Tanuki") > name_sort_key("Zoé", "Smith")
    assert name_sort_key("Ann", "Legalname") < name_sort_key("Zoé", "Smith")
