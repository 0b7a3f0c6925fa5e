"""Alphabetical player lists (seating by player, exports)."""

from tournament.models import Player, Registration
from tournament.selectors import player_sort_key


def test_placeholder_substitutes_sort_under_their_name_and_by_number():
    names = [("Substitute", "10"), ("Zoé", "Martin"), ("Substitute", "2"), ("Hugo", "Bernard")]
    registrations = [
        Registration(player=Player(first_name=first, last_name=last)) for first, last in names
    ]
    ordered = sorted(registrations, key=player_sort_key)
    assert [r.player.sorted_name for r in ordered] == [
        "Bernard, Hugo",
        "Martin, Zoé",
        "Substitute 2",
        "Substitute 10",
    ]
