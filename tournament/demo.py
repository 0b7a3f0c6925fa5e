"""The demo tournament that the quick start loads, so every feature has something to show.

Each step is idempotent: running the quick start again keeps existing data and never
duplicates the demo. Later features add their own steps (seating, results) after these.
"""

import datetime

from django.db import transaction
from django.utils import timezone

from tournament.models import Player, Registration, Round, Team, Tournament

DEMO_SLUG = "demo-riichi-open"

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
