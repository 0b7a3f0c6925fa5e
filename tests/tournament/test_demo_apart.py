"""The demo's made-up players share the database with real events and never mix with them:
an import into a real tournament does not take one for the person on its row, the admin's
player search says who they are, and `remove_demo` deletes the demo and nothing real."""

import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import make_player, make_registration, make_tournament
from tournament.demo import DEMO_SLUG
from tournament.importing import check_rows, read_table
from tournament.models import Player, Registration, Tournament
from tournament.selectors import namesakes
from tournament.services.players import players_import


@pytest.fixture
def demo(db) -> Tournament:
    call_command("load_demo", verbosity=0)
    return Tournament.objects.get(slug=DEMO_SLUG)


def demo_yamada() -> Player:
    return Player.objects.get(first_name="太郎", last_name="山田", is_demo=True)


def rows_of(content: str) -> list[dict[str, str]]:
    return read_table("players.csv", content.encode()).rows


@pytest.mark.django_db
def test_a_real_player_named_as_a_demo_player_is_a_new_player(demo):
    # The demo's 山田太郎 (JP, Tokyo Bamboo, EMA 90000009) was taken for the real one: the
    # real event's EMA export carried the demo's made-up number and club.
    real = make_tournament()
    rows = rows_of("First name,Last name,Country\n太郎,山田,JP\n")
    (row,) = check_rows(real, rows)
    assert row.returning is None
    players_import(tournament=real, rows=rows, acting_user=None)
    player = real.registrations.get().player
    assert player != demo_yamada()
    assert (player.is_demo, player.club, player.ema_number) == (False, "", "")


@pytest.mark.django_db
def test_a_demo_players_ema_number_is_a_problem_in_a_real_event(demo):
    real = make_tournament()
    rows = rows_of("Name,Country,EMA\nTaro Yamada,JP,90000009\n")
    (row,) = check_rows(real, rows)
    assert row.problems == [
        "EMA number 90000009 belongs to 山田太郎, a made-up player of the demo tournament: "
        "correct the number, or remove the demo first (manage.py remove_demo)."
    ]


@pytest.mark.django_db
def test_a_player_added_by_hand_is_not_warned_about_the_demos_namesake(demo):
    assert namesakes(make_player(first_name="太郎", last_name="山田", country="JP")) == []


@pytest.mark.django_db
def test_the_admins_player_search_says_a_player_is_the_demos(demo, admin_client):
    query = {
        "app_label": "tournament",
        "model_name": "registration",
        "field_name": "player",
        "term": "山田",
    }
    response = admin_client.get(reverse("admin:autocomplete"), query)
    texts = [result["text"] for result in response.json()["results"]]
    assert texts == ["山田太郎 (demo player, JP, Tokyo Bamboo, EMA 90000009)"]


@pytest.mark.django_db
@pytest.mark.parametrize("model", ["player", "tournament"])
def test_the_admin_lists_filter_out_the_demo(demo, admin_client, model):
    # An organiser checking the real event's players (or its tournament) before an export
    # sees which rows are the demo's, and lists the real ones alone.
    make_player(first_name="Anna", last_name="Berg")
    make_tournament(name="Lyon Riichi Open")
    url = reverse(f"admin:tournament_{model}_changelist")
    page = admin_client.get(url)
    assert "is_demo" in page.context["cl"].list_display
    real = admin_client.get(url, {"is_demo__exact": "0"}).context["cl"].result_list
    assert real
    assert not any(row.is_demo for row in real)
    demo_rows = admin_client.get(url, {"is_demo__exact": "1"}).context["cl"].result_list
    assert demo_rows
    assert all(row.is_demo for row in demo_rows)


@pytest.mark.django_db
def test_remove_demo_deletes_the_demo_and_nothing_real(demo, capsys, monkeypatch):
    monkeypatch.setenv("ORGANISER_PASSWORD", "for-the-event")
    call_command("ensure_organiser", verbosity=0)  # an organiser of the demo too
    real = make_tournament(name="Paris Open")
    zoe = make_registration(real, player=make_player(first_name="Zoé", last_name="Martin"))
    yamada = make_registration(real, player=demo_yamada())  # registered by hand, by mistake
    capsys.readouterr()
    call_command("remove_demo")
    printed = capsys.readouterr().out
    assert "Removed the demo: “Demo Riichi Open”, 36 demo players" in printed  # 35 + Alex
    assert "the logins demo-head-referee, demo-scorer." in printed
    assert f"Kept 山田太郎 (#{yamada.player_id}; demo player, JP" in printed
    assert "also registered in Paris Open" in printed
    assert not Tournament.objects.filter(is_demo=True).exists()
    assert list(Tournament.objects.all()) == [real]
    assert set(Registration.objects.all()) == {zoe, yamada}
    assert set(Player.objects.all()) == {zoe.player, yamada.player}
    assert set(get_user_model().objects.values_list("username", flat=True)) == {"organiser"}
    call_command("remove_demo")
    assert capsys.readouterr().out == "No demo to remove.\n"


@pytest.mark.django_db
def test_a_demo_loaded_before_the_flags_is_marked(demo):
    # As a database of the quick start was: no flag, and one of the demo's players already
    # taken for a real person by an import.
    real = make_tournament()
    make_registration(real, player=demo_yamada())
    Tournament.objects.update(is_demo=False)
    Player.objects.update(is_demo=False)
    importlib.import_module("tournament.migrations.0004_demo_flags").mark_the_demo(apps, None)
    assert list(Tournament.objects.filter(is_demo=True)) == [demo]
    assert Player.objects.filter(is_demo=True).count() == 36  # Alex Durand, not 山田太郎
    assert not Player.objects.get(first_name="太郎", last_name="山田").is_demo
