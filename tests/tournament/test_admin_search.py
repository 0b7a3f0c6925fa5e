"""The admin's search boxes find players as find my seat does: "zoe" is Zoé, "mueller" is
Müller (SQLite's search cannot fold accents)."""

import pytest
from django.urls import reverse

from tests.conftest import make_player, make_registration, make_registrations, make_tournament


@pytest.fixture
def tournament(db):
    tournament = make_tournament()
    make_registrations(tournament, 3)
    names = (("Zoé", "Lefèvre"), ("Jürgen", "Müller"), ("Siobhán", "O’Connor"), ("太郎", "山田"))
    for first, last in names:
        make_registration(tournament, player=make_player(first_name=first, last_name=last))
    return tournament


def _listed(admin_client, url: str, query: str) -> str:
    return admin_client.get(url, {"q": query}).content.decode()


@pytest.mark.parametrize(
    ("query", "found", "not_found"),
    [
        ("zoe lefevre", "Lefèvre", "Müller"),
        ("mueller", "Müller", "Lefèvre"),
        # Typed without its apostrophe, or with the keyboard's for a word processor's one.
        ("oconnor", "O’Connor", "Müller"),
        ("siobhan o'connor", "O’Connor", "Lefèvre"),
    ],
)
@pytest.mark.parametrize(
    "url", ["admin:tournament_player_changelist", "admin:tournament_registration_changelist"]
)
def test_the_lists_find_names_typed_without_their_accents(
    admin_client, tournament, url, query, found, not_found
):
    page = _listed(admin_client, reverse(url), query)
    assert found in page
    assert not_found not in page


@pytest.mark.parametrize(
    "url", ["admin:tournament_player_changelist", "admin:tournament_registration_changelist"]
)
def test_the_lists_find_a_japanese_name_typed_as_it_is_written(admin_client, tournament, url):
    # Entered as given name 太郎 / family name 山田, written family name first, run together.
    response = admin_client.get(reverse(url), {"q": "山田太郎"})
    assert [str(result) for result in response.context["cl"].result_list][0].startswith("山田太郎")
    assert response.context["cl"].result_count == 1


def test_a_plain_search_still_finds_what_the_database_finds(admin_client, tournament):
    page = _listed(admin_client, reverse("admin:tournament_player_changelist"), "Lefèvre")
    assert "Lefèvre" in page
    assert "Müller" not in page


def test_the_registration_search_box_of_a_fixed_table_folds_too(admin_client, tournament):
    response = admin_client.get(
        reverse("admin:autocomplete"),
        {
            "app_label": "seating",
            "model_name": "fixedtable",
            "field_name": "registration",
            "term": "zoe",
        },
    )
    assert [item["text"] for item in response.json()["results"]] == [
        str(tournament.registrations.get(player__first_name="Zoé"))
    ]
