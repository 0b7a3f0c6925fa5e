"""The demo tournament that the quick start loads, so every feature has something to show,
and its removal before a real event.

Each step is idempotent: running the quick start again keeps existing data and never
duplicates the demo. Later features add their own steps (seating, results) after these.

The demo shares the database with real events, so its rows are marked (`Tournament.is_demo`,
`Player.is_demo`): an import into a real tournament never takes a demo player for the
person on its row, and `remove_demo_tournament` deletes the demo and nothing real.
"""

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from tournament.exports.archive import tournament_rows
from tournament.models import Player, Registration, Round, Team, Tournament, TournamentStaff
from tournament.services.audit import audit_record
from tournament.services.staff import staff_admin_access

DEMO_SLUG = "demo-riichi-open"

#: The demo's officials, with development passwords like ensure_organiser's, so that the
#: referee pages can be tried: (label, username, role, password). They are staff of the
#: demo tournament only; a password set since is kept (`scoring.demo`).
DEMO_OFFICIALS = (
    ("Referee", "demo-scorer", TournamentStaff.Role.REFEREE, "riichi-referee"),
    ("Head referee", "demo-head-referee", TournamentStaff.Role.HEAD_REFEREE, "riichi-head-referee"),
)

# 36 players from nine clubs; names in several scripts on purpose (exports must keep them).
DEMO_PLAYERS = [
    ("Zoé", "Martin", "FR", "Paris Riichi Club"),
    ("Hugo", "Bernard", "FR", "Paris Riichi Club"),
    ("Camille", "Dubois", "FR", "Paris Riichi Club"),
    ("Léa", "Moreau", "FR", "Paris Riichi Club"),
    ("Łukasz", "Kowalski", "PL", "Warsaw Mahjong"),
    ("Agnieszka", "Nowak", "PL", "Warsaw Mahjong"),
    ("Paweł", "Wiśniewski", "PL", "Warsaw Mahjong"),
    ("Zofia", "Wójcik", "PL", "Warsaw Mahjong"),
    ("太郎", "山田", "JP", "Tokyo Bamboo"),
    ("花子", "佐藤", "JP", "Tokyo Bamboo"),
    ("健", "鈴木", "JP", "Tokyo Bamboo"),
    ("由美", "高橋", "JP", "Tokyo Bamboo"),
    ("민준", "김", "KR", "Seoul Riichi"),
    ("서연", "이", "KR", "Seoul Riichi"),
    ("지호", "박", "KR", "Seoul Riichi"),
    ("하은", "최", "KR", "Seoul Riichi"),
    ("Jonas", "Müller", "DE", "Berlin Tiles"),
    ("Lena", "Schmidt", "DE", "Berlin Tiles"),
    ("Felix", "Schneider", "DE", "Berlin Tiles"),
    ("Mia", "Fischer", "DE", "Berlin Tiles"),
    ("Oliver", "Smith", "GB", "London Mahjong"),
    ("Amelia", "Jones", "GB", "London Mahjong"),
    ("Harry", "Taylor", "GB", "London Mahjong"),
    ("Isla", "Brown", "GB", "London Mahjong"),
    ("Lucía", "García", "ES", "Madrid Riichi"),
    ("Mateo", "Fernández", "ES", "Madrid Riichi"),
    ("Sofía", "López", "ES", "Madrid Riichi"),
    ("Martín", "Sánchez", "ES", "Madrid Riichi"),
    ("Aino", "Korhonen", "FI", "Helsinki Tiles"),
    ("Eetu", "Virtanen", "FI", "Helsinki Tiles"),
    ("Venla", "Mäkinen", "FI", "Helsinki Tiles"),
    ("Onni", "Nieminen", "FI", "Helsinki Tiles"),
    ("Giulia", "Rossi", "IT", "Roma Mahjong"),
    ("Lorenzo", "Russo", "IT", "Roma Mahjong"),
    ("Chiara", "Ferrari", "IT", "Roma Mahjong"),
    ("Matteo", "Esposito", "IT", "Roma Mahjong"),
]


@transaction.atomic
def create_demo_tournament() -> tuple[Tournament, bool]:
    """The demo tournament with its 36 players, teams and 8 planned rounds."""
    today = timezone.localdate()
    tournament, created = Tournament.objects.get_or_create(
        slug=DEMO_SLUG,
        defaults={
            "name": "Demo Riichi Open",
            "start_date": today,
            "end_date": today + datetime.timedelta(days=1),
            "venue": "Salle des fêtes, Paris",
            "ruleset": "wrc2015",
            "rounds_count": 8,
            "status": Tournament.Status.RUNNING,
            "is_demo": True,
        },
    )
    if not created:
        return tournament, False
    start = timezone.make_aware(datetime.datetime.combine(today, datetime.time(9, 30)))
    for index, (first, last, country, club) in enumerate(DEMO_PLAYERS):
        team, _created = Team.objects.get_or_create(tournament=tournament, name=club)
        player = Player.objects.create(
            first_name=first,
            last_name=last,
            country=country,
            club=club,
            ema_number=f"9{index + 1:07d}",
            is_demo=True,
        )
        Registration.objects.create(
            tournament=tournament,
            player=player,
            team=team,
            status=Registration.Status.CHECKED_IN,
            # Before round 1: a check-in after a round's start makes the player late for it.
            checked_in_at=start - datetime.timedelta(minutes=30),
        )
    for number in range(1, tournament.rounds_count + 1):
        day, slot = divmod(number - 1, 4)
        Round.objects.create(
            tournament=tournament,
            number=number,
            scheduled_start=start + datetime.timedelta(days=day, hours=2 * slot),
        )
    return tournament, True


@dataclass(frozen=True)
class DemoRemoved:
    """What `remove_demo_tournament` deleted, and the demo's players and accounts it kept
    because a real tournament uses them."""

    tournaments: list[str]
    players: int
    accounts: list[str]
    kept_players: list[tuple[Player, list[str]]]  # with the other tournaments' names
    kept_accounts: list[str]


@transaction.atomic
def remove_demo_tournament() -> DemoRemoved:
    """Delete the demo tournament with all it holds (seats, sheets, penalties, roles…), the
    demo players who play in no other tournament and the demo's officials who have no role
    left: what a real event may use is kept, and named, never deleted.

    The demo's rows hold results, which protect the registrations in the database, so they
    are deleted table by table, not through the tournament's cascade."""
    tournaments = list(Tournament.objects.filter(is_demo=True))
    also_real = (
        Player.objects.filter(registrations__tournament__in=tournaments)
        .filter(registrations__tournament__is_demo=False)
        .distinct()
        .order_by("pk")
        .prefetch_related("registrations__tournament")
    )
    kept_players = [(player, _real_tournaments(player)) for player in also_real]
    accounts = list(
        TournamentStaff.objects.filter(tournament__in=tournaments).values_list("user", flat=True)
    )
    for tournament in tournaments:
        _delete_rows_of(tournament)
    _count, deleted = Player.objects.filter(is_demo=True, registrations__isnull=True).delete()
    players = deleted.get(Player._meta.label, 0)
    removed, kept_accounts = _remove_demo_officials()
    for user in get_user_model().objects.filter(pk__in=accounts):
        staff_admin_access(user=user, tournament=None, acting_user=None)
    outcome = DemoRemoved(
        tournaments=[tournament.name for tournament in tournaments],
        players=players,
        accounts=removed,
        kept_players=kept_players,
        kept_accounts=kept_accounts,
    )
    if tournaments or players or removed:
        audit_record(
            tournament=None,
            actor=None,
            action="demo.remove",
            data={
                "tournaments": outcome.tournaments,
                "players": players,
                "accounts": removed,
                "kept_players": [player.pk for player, _names in kept_players],
            },
        )
    return outcome


def _real_tournaments(player: Player) -> list[str]:
    registrations = player.registrations.all()
    return sorted(r.tournament.name for r in registrations if not r.tournament.is_demo)


def _delete_rows_of(tournament: Tournament) -> None:
    rows = tournament_rows(tournament)
    # A score sheet points to its current version, which points back to it: references that
    # may be empty are emptied first, so that every row can then go after those pointing to it.
    for model, pks in rows.items():
        references = {
            field.attname: None
            for field in model._meta.concrete_fields
            if field.is_relation and field.null and field.related_model in rows
        }
        if references and pks:
            model._base_manager.filter(pk__in=pks).update(**references)
    for model, pks in reversed(rows.items()):
        model._base_manager.filter(pk__in=pks).delete()


def _remove_demo_officials() -> tuple[list[str], list[str]]:
    """Delete the demo's officials with no role left, whose passwords the README prints.
    One who entered or confirmed a real sheet keeps their account (the sheet protects it)."""
    removed, kept = [], []
    usernames = [username for _label, username, _role, _password in DEMO_OFFICIALS]
    for user in get_user_model().objects.filter(username__in=usernames).order_by("username"):
        if user.tournament_roles.exists():
            kept.append(user.get_username())
            continue
        try:
            with transaction.atomic():
                user.delete()
        except ProtectedError:
            kept.append(user.get_username())
        else:
            removed.append(user.get_username())
    return removed, kept
