"""The tournament's rounds follow its number of rounds."""

from tournament.models import Round, Tournament


def rounds_create_missing(tournament: Tournament) -> list[Round]:
    """Create rounds 1..rounds_count that do not exist yet; existing rounds (which may hold
    seating and sheets) are never removed or renumbered."""
    existing = set(tournament.rounds.values_list("number", flat=True))
    return Round.objects.bulk_create(
        Round(tournament=tournament, number=number)
        for number in range(1, tournament.rounds_count + 1)
        if number not in existing
    )
