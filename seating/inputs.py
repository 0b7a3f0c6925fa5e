"""What the seating generator needs from the database, loaded once and stored with a run.

The snapshot is plain JSON (ids, team keys, table numbers, the played rounds' tables) so a
run can be computed on a worker and re-evaluated after a manual swap without
touching the database, and so applying can check that nothing changed in between.
"""

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count

from scoring.models import ScoreSheet
from seating.engine import substitutes_needed
from seating.models import FixedTable
from tournament.models import WIND_ORDER, Registration, Seat, Tournament
from tournament.names import isolate

EngineRound = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class SeatedPlayers:
    """Who the seating seats: every active player who is not a substitute, and as many
    active substitutes as it takes to fill the last table. Other substitutes stand by to
    play for an absent player (entered on that player's score sheet) and get no seat."""

    players: tuple[int, ...]
    substitutes: tuple[int, ...]
    standby: tuple[int, ...]
    missing: int


def seated_players(tournament: Tournament) -> SeatedPlayers:
    """The registrations the next plan seats, in two queries. Substitutes who already have
    seats (they filled a table before) keep playing first, then the earliest registered."""
    active = list(
        Registration.objects.active()
        .filter(tournament=tournament)
        .annotate(seats_held=Count("seats"))
        .order_by("pk")
        .values_list("pk", "is_substitute", "seats_held")
    )
    regular = [pk for pk, substitute, _held in active if not substitute]
    substitutes = [
        pk
        for pk, _held in sorted(
            ((pk, held) for pk, substitute, held in active if substitute),
            key=lambda item: (-item[1], item[0]),
        )
    ]
    needed = substitutes_needed(len(regular))
    seated_substitutes = substitutes[:needed]
    return SeatedPlayers(
        players=tuple(sorted(regular + seated_substitutes)),
        substitutes=tuple(sorted(seated_substitutes)),
        standby=tuple(substitutes[needed:]),
        missing=needed - len(seated_substitutes),
    )


@dataclass(frozen=True)
class SeatingInput:
    """Active players (registration ids), the groups kept apart (``teams``) and fixed tables,
    the played rounds, and the seats the rounds being seated have now (empty unless all of
    them have seats). ``groups`` holds the players' teams and clubs whatever is kept apart,
    so that the report shows what keeping one apart costs in the other."""

    players: tuple[int, ...]
    teams: dict[int, str]
    fixed_tables: dict[int, int]
    history_numbers: tuple[int, ...]
    history: tuple[EngineRound, ...]
    previous: tuple[EngineRound, ...] = ()
    groups: dict[str, dict[int, str]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "teams": {str(key): value for key, value in self.teams.items()},
            "fixed_tables": {str(key): value for key, value in self.fixed_tables.items()},
            "history": [
                {"number": number, "tables": [list(table) for table in tables]}
                for number, tables in zip(self.history_numbers, self.history, strict=True)
            ],
            "previous": [[list(table) for table in tables] for tables in self.previous],
            "groups": {
                kind: {str(key): value for key, value in names.items()}
                for kind, names in self.groups.items()
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "SeatingInput":
        history = data.get("history", [])
        return cls(
            players=tuple(data["players"]),
            teams={int(key): value for key, value in data.get("teams", {}).items()},
            fixed_tables={int(key): value for key, value in data.get("fixed_tables", {}).items()},
            history_numbers=tuple(item["number"] for item in history),
            history=tuple(tuple(tuple(table) for table in item["tables"]) for item in history),
            previous=tuple(
                tuple(tuple(table) for table in tables) for tables in data.get("previous", [])
            ),
            groups={
                kind: {int(key): value for key, value in names.items()}
                for kind, names in data.get("groups", {}).items()
            },
        )

    def same_seats_as(self, other: "SeatingInput") -> bool:
        """True when the players, fixed tables and played rounds are unchanged (teams only
        change the quality of a plan, not whether it can be applied)."""
        return (
            set(self.players) == set(other.players)
            and self.fixed_tables == other.fixed_tables
            and self.history_numbers == other.history_numbers
            and self.history == other.history
        )

    def clashes(self, plan: Sequence[Sequence[Sequence[int]]]) -> dict[str, int]:
        """Players of one team, and of one club, seated together in the played rounds and
        ``plan``: ``{"clashes_team": …, "clashes_club": …}`` (none for a run made before)."""
        rounds = [*self.history, *plan]
        return {
            f"clashes_{kind}": sum(
                count * (count - 1) // 2
                for tables in rounds
                for table in tables
                for count in Counter(names[p] for p in table if p in names).values()
            )
            for kind, names in self.groups.items()
        }


#: What "keep apart" groups players by: a registration's team, the player's club or country.
GROUP_FIELDS = {"team": "team_id", "club": "player__club", "country": "player__country"}
#: The groups the quality report counts clashes of, whatever is kept apart.
REPORTED_GROUPS = ("team", "club")


def load_input(
    tournament: Tournament,
    keep_apart: str,
    reseat: Collection[int],
    seated: Collection[int] | None = None,
) -> SeatingInput:
    """The current seating input of a tournament in six queries: the players ``seated`` (a
    later stage's, `seating.stage_players`), else those of seated_players.

    `keep_apart` ("team", "club", "country" or "none") says which players the generator
    keeps apart; players with an empty club or country are in no group. The history is every
    round with seats except the rounds being seated (`reseat`, by number): a round seated and
    not re-seated will be played with those seats, so its meetings, tables and winds count,
    with each substitute who played a seat in place of its player (`substitutes_played`).
    The rounds in `reseat` that have seats give `previous`, a start the new plan is never
    worse than.
    """
    if seated is None:
        seated = seated_players(tournament).players
    registrations = list(
        Registration.objects.filter(pk__in=seated)
        .order_by("pk")
        .values("pk", *GROUP_FIELDS.values())
    )
    players = tuple(row["pk"] for row in registrations)

    def grouped(kind: str) -> dict[int, str]:
        column = GROUP_FIELDS[kind]
        return {
            row["pk"]: str(row[column]) for row in registrations if row[column] not in (None, "")
        }

    teams = grouped(keep_apart) if keep_apart in GROUP_FIELDS else {}
    active = set(players)
    fixed_tables = {
        registration: table
        for registration, table in FixedTable.objects.filter(
            registration__tournament=tournament
        ).values_list("registration_id", "table_number")
        if registration in active
    }
    # Played rounds are never in `reseat` (the services refuse them).
    seats = (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("round__number", "table_number")
        .values_list("round__number", "table_number", "wind", "registration_id")
    )
    played_by = substitutes_played(tournament)
    rounds: dict[int, dict[int, list[tuple[str, int]]]] = {}
    for number, table, wind, registration in seats:
        registration = played_by.get((number, registration), registration)
        rounds.setdefault(number, {}).setdefault(table, []).append((wind, registration))
    history_numbers = tuple(number for number in sorted(rounds) if number not in reseat)
    previous_numbers = sorted(number for number in rounds if number in reseat)
    return SeatingInput(
        players=players,
        teams=teams,
        fixed_tables=fixed_tables,
        history_numbers=history_numbers,
        history=tuple(_engine_round(rounds[number]) for number in history_numbers),
        previous=tuple(_engine_round(rounds[number]) for number in previous_numbers)
        if len(previous_numbers) == len(reseat)
        else (),
        groups={kind: grouped(kind) for kind in REPORTED_GROUPS},
    )


def substitutes_played(tournament: Tournament) -> dict[tuple[int, int], int]:
    """(round number, seated registration) -> the substitute who played that seat instead,
    as each table's current score sheet says (entered, confirmed or disputed alike).

    The substitute met that table and sat at it, not the absent player: the history must say
    so, or a substitute who plays on (in a withdrawn player's place) meets the same
    opponents and table again.

    A substitute named on two sheets of a round (a dispute settled with a version naming
    them after another table had taken them) is left out: who sat where is unclear, and the
    history must seat each player once a round."""
    seats_of: dict[tuple[int, int], list[int]] = {}  # (round number, substitute) -> seats
    for number, data in ScoreSheet.objects.filter(
        round__tournament=tournament, current__isnull=False
    ).values_list("round__number", "current__data"):
        for seat in data.get("seats", ()):
            if seat.get("substitute"):
                seats_of.setdefault((number, seat["substitute"]), []).append(seat["registration"])
    return {
        (number, seats[0]): substitute
        for (number, substitute), seats in seats_of.items()
        if len(seats) == 1
    }


def _engine_round(tables: dict[int, list[tuple[str, int]]]) -> EngineRound:
    """A round's tables in table order, each in seat order E, S, W, N."""
    return tuple(
        tuple(
            registration
            for _wind, registration in sorted(tables[table], key=lambda seat: WIND_ORDER[seat[0]])
        )
        for table in sorted(tables)
    )


def player_names(tournament: Tournament) -> dict[int, str]:
    """Registration id -> player's name, for messages and previews."""
    return {
        registration.pk: isolate(registration.player.display_name)
        for registration in Registration.objects.filter(tournament=tournament).select_related(
            "player"
        )
    }
