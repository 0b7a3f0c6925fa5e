"""Names with control characters and bidirectional overrides: stored without them, and a
right-to-left name kept to itself wherever it is written (a right-to-left override in a name
reversed the sentence around it: "‮Zoé won" read "now éoZ")."""

import pytest
from django.core.exceptions import ValidationError
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from scoring.selectors.rows import team_rows
from scoring.selectors.standings import team_standings
from tests.conftest import (
    make_player,
    make_registration,
    make_registrations,
    make_rounds,
    make_seats,
    make_tournament,
)
from tournament.exports.rtl import visual
from tournament.models import Player, Round, Team
from tournament.names import FSI, PDI, isolate, strip_controls
from tournament.services.players import player_create, player_update, players_import
from tournament.services.registrations import registration_check_in, registration_withdraw
from tournament.services.teams import team_create

RLO = "\u202e"
HEBREW = "אבי כהן"


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Zo\x00é", "Zoé"),
        ("Zoé\x07\x1b[31m", "Zoé[31m"),
        (f"{RLO}Zoé", "Zoé"),
        ("Zoé\u2066\u2069\u202a\u202c", "Zoé"),
        ("Jean\tPierre", "Jean Pierre"),
        ("Zoé\x85\x9b", "Zoé "),
        (HEBREW, HEBREW),  # right-to-left letters are a name, not a control
        ("\u200fZoé", "\u200fZoé"),  # a right-to-left mark reorders nothing outside it
    ],
)
def test_control_characters_are_stripped_from_names(typed, stored):
    assert strip_controls(typed) == stored


@pytest.mark.django_db
def test_a_player_is_stored_without_control_characters(organiser):
    player = player_create(
        first_name=f"{RLO}Zoé\x00",
        last_name="Mar\x07tin",
        nickname="\u2067Z\u2069",
        club="Club\x1b",
        acting_user=organiser,
    )
    player.refresh_from_db()
    assert (player.first_name, player.last_name, player.nickname, player.club) == (
        "Zoé",
        "Martin",
        "Z",
        "Club",
    )
    player_update(player=player, data={"first_name": f"Zo{RLO}é"}, acting_user=organiser)
    assert Player.objects.get(pk=player.pk).first_name == "Zoé"


@pytest.mark.django_db
def test_a_name_of_control_characters_only_is_a_missing_name(organiser):
    with pytest.raises(ValidationError) as refused:
        player_create(first_name="\x00\u202e", acting_user=organiser)
    assert "first_name" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        team_create(tournament=make_tournament(), name="\x07", acting_user=organiser)
    assert "name" in refused.value.message_dict


@pytest.mark.django_db
def test_a_team_and_an_imported_row_are_stored_without_control_characters(organiser):
    tournament = make_tournament()
    assert team_create(tournament=tournament, name=f"{RLO}Tanuki", acting_user=organiser).name == (
        "Tanuki"
    )
    row = {"first_name": f"{RLO}Aiko\x00", "last_name": "Sato\x1b", "team": "\u2066Kappa\x07"}
    players_import(tournament=tournament, rows=[row], acting_user=organiser)
    player = Player.objects.get(last_name="Sato")
    assert player.first_name == "Aiko"
    assert Team.objects.filter(tournament=tournament, name="Kappa").exists()


def test_a_right_to_left_name_is_isolated_in_plain_text():
    assert isolate("Zoé Martin") == "Zoé Martin"
    assert isolate(HEBREW) == f"{FSI}{HEBREW}{PDI}"
    assert isolate(f"{RLO}Zoé") == f"{FSI}{RLO}Zoé{PDI}"  # stored before names were cleaned


def test_the_bdi_filter_isolates_right_to_left_names_on_the_pages():
    template = Template("{% load names %}{{ name|bdi }} won")
    assert template.render(Context({"name": "Zoé <b>"})) == "Zoé &lt;b&gt; won"
    assert template.render(Context({"name": HEBREW})) == f"<bdi>{HEBREW}</bdi> won"
    assert template.render(Context({"name": f"{RLO}<x>"})) == f"<bdi>{RLO}&lt;x&gt;</bdi> won"


@pytest.mark.django_db
def test_a_message_naming_a_player_isolates_the_name(organiser):
    registration = make_registration(
        make_tournament(), player=make_player(first_name="אבי", last_name="כהן")
    )
    registration_withdraw(registration=registration, reason="ill", acting_user=organiser)
    with pytest.raises(ValidationError) as refused:
        registration_check_in(registration=registration, acting_user=organiser)
    assert f"{FSI}{HEBREW}{PDI} cannot be checked in" in refused.value.messages[0]


@pytest.fixture
def seated(db):
    tournament = make_tournament()
    registrations = make_registrations(tournament, 8, teams=2)
    round_ = make_rounds(tournament, 1)[0]
    make_seats(round_, registrations)
    round_.status = Round.Status.SEATED
    round_.save()
    # A name stored before names were cleaned, as an old database may hold one.
    Player.objects.filter(pk=registrations[0].player_id).update(
        first_name=f"{RLO}Evil", last_name=""
    )
    Player.objects.filter(pk=registrations[1].player_id).update(first_name="אבי", last_name="כהן")
    return tournament, registrations


@pytest.mark.parametrize(
    ("page", "args"),
    [
        ("public:seating", (1,)),
        ("public:seating_players", (1,)),
        ("public:projector_tables", (1,)),
        ("public:projector_players", (1,)),
        ("public:player", ("other",)),
    ],
)
def test_right_to_left_names_are_isolated_on_the_public_pages(client, seated, page, args):
    tournament, registrations = seated
    args = tuple(registrations[2].pk if arg == "other" else arg for arg in args)
    body = client.get(reverse(page, args=[tournament.slug, *args])).content.decode()
    assert f"<bdi>{RLO}Evil</bdi>" in body
    hebrew = "כהן, אבי" if "players" in page else HEBREW  # the lists by player: last name first
    assert f"<bdi>{hebrew}</bdi>" in body
    assert body.count(f"{RLO}Evil") == body.count(f"<bdi>{RLO}Evil</bdi>")


def test_find_my_seat_isolates_the_names(client, seated):
    tournament, _registrations = seated
    url = reverse("public:find_seat", args=[tournament.slug])
    assert f"<bdi>{HEBREW}</bdi>" in client.get(url, {"q": "כהן"}).content.decode()


def test_the_team_rankings_list_their_players_isolated(seated):
    tournament, _registrations = seated
    members = " ".join(row.members for row in team_rows(team_standings(tournament)))
    assert f"{FSI}{RLO}Evil{PDI}" in members
    assert f"{FSI}{HEBREW}{PDI}" in members


def test_a_pdf_line_drops_an_override_and_keeps_a_name_to_itself():
    assert visual(f"{RLO}Evil (withdrawn)") == "Evil (withdrawn)"
    assert visual(f"{isolate(HEBREW)} (withdrawn)") == visual(HEBREW) + " (withdrawn)"
    with translation.override("fr"):
        assert visual(isolate("Zoé")) == "Zoé"
