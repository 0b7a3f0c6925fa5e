"""A tournament archive is a file anyone can edit: the import writes the records a tournament
archive holds and nothing else, and refuses the whole file, naming the object, when one of
them is not what the export writes.
"""

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from tests.conftest import make_player, make_registration, make_staff, make_tournament
from tournament.exports.archive import ArchiveError, archive_import, archive_json
from tournament.models import Player, Tournament, TournamentStaff


@pytest.fixture
def archived(tournament) -> dict:
    """The archive of a tournament with a player and an organiser, the tournament deleted."""
    organiser = get_user_model().objects.create_user("boss")
    make_staff(tournament, organiser, TournamentStaff.Role.ORGANISER)
    make_registration(tournament, player=make_player(first_name="Zoé", ema_number="04010001"))
    data = json.loads(archive_json(tournament))
    tournament.delete()
    return data


def refused(data: dict, *words: str) -> str:
    """Import `data`, expecting the refusal; nothing may have been written."""
    players, users = Player.objects.count(), get_user_model().objects.count()
    with pytest.raises(ArchiveError) as error:
        archive_import(data)
    message = str(error.value)
    for word in words:
        assert word in message
    assert not Tournament.objects.exists()
    assert (Player.objects.count(), get_user_model().objects.count()) == (players, users)
    return message


def item(data: dict, label: str) -> dict:
    return next(entry for entry in data["objects"] if entry["model"] == label)


@pytest.mark.django_db
def test_an_account_appended_as_an_object_is_refused(archived, client):
    archived["objects"].append(
        {
            "model": "auth.user",
            "id": 999,
            "fields": {
                "username": "mallory",
                "password": make_password("known"),
                "is_superuser": True,
                "is_staff": True,
                "is_active": True,
            },
        }
    )
    refused(archived, f"Object {len(archived['objects'])} ", "auth.user")
    assert not client.login(username="mallory", password="known")


# What an account of this site may have and an archive never brings.
ACCOUNT_POWERS = {
    "password": make_password("known", salt="fixedsalt"),
    "is_superuser": True,
    "is_staff": True,
    "groups": [1],
    "user_permissions": [1],
}


@pytest.mark.django_db
@pytest.mark.parametrize("key", list(ACCOUNT_POWERS))
def test_an_account_carries_its_name_only(archived, key):
    archived["users"][0][key] = ACCOUNT_POWERS[key]
    refused(archived, "boss", key)


@pytest.mark.django_db
def test_an_account_already_here_is_named_not_changed(archived):
    boss = get_user_model().objects.get(username="boss")
    archived["users"][0]["first_name"] = "Mallory"
    archive_import(archived)
    boss.refresh_from_db()
    assert (boss.first_name, boss.is_superuser) == ("", False)


@pytest.mark.django_db
def test_an_unknown_field_is_refused_with_the_object_named(archived):
    item(archived, "tournament.player")["fields"]["is_admin"] = True
    refused(archived, "tournament.player", "is_admin")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("label", "field", "value"),
    [
        ("tournament.tournament", "rounds_count", "eight"),
        ("tournament.tournament", "is_public", "yes"),
        ("tournament.tournament", "start_date", "not a date"),
        ("tournament.tournament", "name", {"nested": "object"}),
        ("tournament.player", "ema_number", "1234"),
        ("tournament.tournamentstaff", "role", "superuser"),
        ("tournament.tournament", "rounds_count", 1000),
    ],
)
def test_a_value_of_the_wrong_type_or_range_is_refused(archived, label, field, value):
    item(archived, label)["fields"][field] = value
    refused(archived, label, field)


@pytest.mark.django_db
def test_a_record_cannot_point_outside_the_archive(archived):
    elsewhere = make_player(first_name="Anna")
    item(archived, "tournament.registration")["fields"]["player"] = elsewhere.pk
    refused(archived, "tournament.registration", "player")


@pytest.mark.django_db
def test_an_account_not_among_the_archived_accounts_is_refused(archived):
    item(archived, "tournament.tournamentstaff")["fields"]["user"] = "admin"
    refused(archived, "tournament.tournamentstaff", "admin")


@pytest.mark.django_db
def test_an_archive_cannot_write_into_another_tournament(archived):
    # Marked as shared, the archive's tournament would be "found" as the victim by its slug,
    # and the organiser role below written into the victim.
    victim = make_tournament(slug="victim-open")
    tournament = item(archived, "tournament.tournament")
    archived["objects"].insert(
        0, {**tournament, "id": tournament["id"] + 1000, "fields": {**tournament["fields"]}}
    )
    archived["objects"][0]["fields"]["slug"] = "victim-open"
    archived["objects"][0]["shared"] = True
    item(archived, "tournament.tournamentstaff")["fields"]["tournament"] = tournament["id"] + 1000
    with pytest.raises(ArchiveError, match="tournament.tournament"):
        archive_import(archived)
    assert not victim.staff.exists()


@pytest.mark.django_db
def test_an_object_without_a_whole_number_id_is_refused(archived):
    item(archived, "tournament.player")["id"] = "5; DROP TABLE"
    refused(archived, "tournament.player")


@pytest.mark.django_db
def test_the_untampered_archive_still_imports(archived):
    imported = archive_import(archived)
    assert imported.registrations.get().player.first_name == "Zoé"
    assert get_user_model().objects.get(username="boss").is_staff
