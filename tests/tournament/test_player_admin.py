"""Players in the admin: adding one by hand, and the lists' country filter."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.conftest import make_player, make_registration
from tournament.models import Player


def _add(client, **fields):
    data = {"first_name": "", "last_name": "", "nickname": "", "country": "", "club": ""}
    data |= {"ema_number": "", **fields}
    return client.post(reverse("admin:tournament_player_add"), data)


def test_a_namesake_of_the_same_country_is_pointed_out(admin_client):
    known = Player.objects.create(
        first_name="Zoé", last_name="Martin", country="FR", club="Paris", ema_number="90000001"
    )
    response = _add(admin_client, first_name="zoé", last_name="MARTIN", country="FR")
    assert response.status_code == 302
    assert Player.objects.count() == 2  # saved: only the organiser knows if it is the same
    warnings = [str(m) for m in get_messages(response.wsgi_request)]
    assert any(f"#{known.pk} Zoé Martin (FR, Paris, EMA 90000001)" in text for text in warnings)


def test_a_namesake_in_capitals_with_accents_is_pointed_out(admin_client):
    # SQLite's iexact folds ASCII letters only: "LÉA" was not "Léa".
    known = Player.objects.create(first_name="Léa", last_name="Moreau", country="FR")
    Player.objects.create(first_name="Lea", last_name="Moreau", country="FR")  # another name
    response = _add(admin_client, first_name="LÉA", last_name="MOREAU", country="FR")
    warnings = [str(m) for m in get_messages(response.wsgi_request) if "same name" in str(m)]
    assert len(warnings) == 1
    assert f"#{known.pk} Léa Moreau (FR)" in warnings[0]
    assert "Lea Moreau" not in warnings[0]


def test_no_warning_for_another_country(admin_client):
    Player.objects.create(first_name="Zoé", last_name="Martin", country="FR")
    response = _add(admin_client, first_name="Zoé", last_name="Martin", country="BE")
    warnings = [str(m) for m in get_messages(response.wsgi_request)]
    assert not any("same name" in text for text in warnings)


def test_the_registration_search_box_tells_namesakes_apart(admin_client):
    Player.objects.create(
        first_name="Zoé", last_name="Martin", country="FR", club="Paris", ema_number="90000001"
    )
    Player.objects.create(first_name="Zoé", last_name="Martin", country="FR", club="Lyon")
    query = {
        "app_label": "tournament",
        "model_name": "registration",
        "field_name": "player",
        "term": "Martin",
    }
    response = admin_client.get(reverse("admin:autocomplete"), query)
    texts = sorted(result["text"] for result in response.json()["results"])
    assert texts == ["Zoé Martin (FR, Lyon)", "Zoé Martin (FR, Paris, EMA 90000001)"]


def test_an_ema_number_in_use_names_its_holder(admin_client):
    known = Player.objects.create(
        first_name="Zoé", last_name="Martin", country="FR", club="Paris", ema_number="90000001"
    )
    response = _add(admin_client, first_name="Zoe", last_name="Martin", ema_number="90000001")
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["ema_number"] == [
        f"EMA number 90000001 already belongs to #{known.pk} Zoé Martin (FR, Paris, EMA "
        "90000001): that is probably the same person, so register that record instead."
    ]
    assert Player.objects.count() == 1
    change = reverse("admin:tournament_player_change", args=[known.pk])
    data = {"first_name": "Zoé", "last_name": "Martin", "nickname": "", "country": "FR"}
    data |= {"club": "Lyon", "ema_number": "90000001"}
    assert admin_client.post(change, data).status_code == 302  # its own number is fine


def test_the_country_filter_offers_the_countries_in_use(admin_client):
    Player.objects.create(first_name="Zoé", last_name="Martin", country="FR")
    Player.objects.create(first_name="Taro", last_name="Yamada", country="JP")
    page = admin_client.get(reverse("admin:tournament_player_changelist"))
    (country,) = [spec for spec in page.context["cl"].filter_specs if spec.title == "country"]
    assert [title for _code, title in country.lookup_choices] == ["France", "Japan"]
    filtered = admin_client.get(reverse("admin:tournament_player_changelist"), {"country": "JP"})
    assert [p.last_name for p in filtered.context["cl"].result_list] == ["Yamada"]
    registrations = admin_client.get(reverse("admin:tournament_registration_changelist"))
    assert registrations.status_code == 200


@pytest.mark.parametrize(
    "url_name", ["admin:tournament_player_changelist", "admin:tournament_registration_changelist"]
)
def test_the_country_filter_names_each_country_once(admin_client, tournament, url_name):
    # The lists are ordered by name, and DISTINCT over the countries took the names in:
    # "Finland" was offered once per Finnish player.
    for first_name, country in (("Aino", "FI"), ("Eero", "FI"), ("Anna", "DE")):
        make_registration(tournament, player=make_player(first_name=first_name, country=country))
    page = admin_client.get(reverse(url_name))
    country = next(spec for spec in page.context["cl"].filter_specs if spec.title == "country")
    assert [name for _code, name in country.lookup_choices] == ["Finland", "Germany"]
