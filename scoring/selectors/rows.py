"""The standings as rows: what the rankings, the staff's standings and every export of them
show of a player or of a team, built once from the cached standings (no queries).

Each screen and export keeps its own formatting (HTML cells, PDF paragraphs, XLSX numbers)
and its own columns; the row is what they share, so that a place, a round's score or a
withdrawal reads the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import gettext_lazy as _

from scoring.selectors.standings import Standings, TeamStanding
from tournament.formatting import format_place
from tournament.models import Player
from tournament.names import isolate

# Why a listed player has no place: the rankings page and the standings XLSX say the same.
NO_HANCHAN_PLAYED = _("No hanchan played")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One player's row. ``place`` None: no confirmed hanchan yet, listed last. ``scores``:
    one per round of the standings (`Standings.round_numbers`), None where no confirmed sheet
    gives one. ``penalty_total``: every penalty, the sheets' included (`StandingEntry`)."""

    registration_id: int
    player: Player
    place: int | None
    shared_place: bool
    decided_by: str | None
    withdrawn: bool
    team_name: str
    team_or_club: str
    total: Fraction
    penalty_total: Fraction
    scores: tuple[Fraction | None, ...]

    @property
    def place_text(self) -> str:
        """3, 3= when shared, – without a place."""
        return format_place(self.place, self.shared_place)

    @property
    def name(self) -> str:
        return self.player.display_name

    @property
    def country(self) -> str:
        return self.player.country.code or ""


def player_rows(standings: Standings) -> list[PlayerRow]:
    """The standings' rows in their order."""
    numbers = standings.round_numbers
    rows = []
    for entry in standings.entries:
        rounds = entry.rounds
        rows.append(
            PlayerRow(
                registration_id=entry.registration_id,
                player=entry.player,
                place=entry.place,
                shared_place=entry.shared_place,
                decided_by=entry.decided_by,
                withdrawn=entry.withdrawn,
                team_name=entry.team_name,
                team_or_club=entry.team_or_club,
                total=entry.total,
                penalty_total=entry.penalty_total,
                scores=tuple(
                    rounds[number].score if number in rounds else None for number in numbers
                ),
            )
        )
    return rows


@dataclass(frozen=True, slots=True)
class TeamRow:
    """One team's row: ``members`` their players' names, as every team ranking lists them."""

    place: int
    shared_place: bool
    name: str
    total: Fraction
    members: str

    @property
    def place_text(self) -> str:
        return format_place(self.place, self.shared_place)


def team_rows(teams: list[TeamStanding]) -> list[TeamRow]:
    """The team standings' rows in their order (`team_standings`)."""
    return [
        TeamRow(
            place=team.place,
            shared_place=team.shared_place,
            name=team.team_name,
            total=team.total,
            members=", ".join(isolate(member.player.display_name) for member in team.members),
        )
        for team in teams
    ]
