"""Reads for the public pages and the exports: seating of a round, finding a player's seat.

Each function issues a fixed number of queries whatever the number of players, so the
public pages stay fast during an event. Standings come from `scoring.selectors`.
"""

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Penalty, ScoreSheet, SheetVersion
from scoring.selectors import Standings, team_standings
from tournament.models import WIND_ORDER, Player, Registration, Round, Seat, Tournament
from tournament.names import name_key, names_match, player_sort_key

WINDS = ("E", "S", "W", "N")


@dataclass(frozen=True)
class SeatView:
    table_number: int
    wind: str
    registration: Registration

    @property
    def player(self):
        return self.registration.player

    @property
    def wind_label(self) -> str:
        return Seat.Wind(self.wind).label

    @property
    def name(self) -> str:
        return self.registration.player.display_name

    @property
    def sorted_name(self) -> str:
        return self.registration.player.sorted_name


@dataclass
class TableView:
    number: int
    seats: list[SeatView] = field(default_factory=list)


@dataclass(frozen=True)
class SeatMatch:
    """A player found by find-my-seat, with their table in the chosen round."""

    registration: Registration
    seat: SeatView | None
    table: TableView | None


def has_score_sheets(tournament: Tournament) -> bool:
    """Whether any sheet exists, whatever its state: scores are computed from the current
    rules whenever they are shown, so the rules are then fixed."""
    return ScoreSheet.objects.filter(round__tournament=tournament).exists()


def seats_of_round(round_: Round) -> list[SeatView]:
    """Every seat of the round with its player, in table then wind order (one query)."""
    seats = Seat.objects.filter(round=round_).select_related(
        "registration__player", "registration__team"
    )
    views = [SeatView(seat.table_number, seat.wind, seat.registration) for seat in seats]
    views.sort(key=lambda seat: (seat.table_number, WIND_ORDER[seat.wind]))
    return views


def tables_of_round(round_: Round) -> list[TableView]:
    """The round's seating by table, each table's seats in wind order E, S, W, N."""
    tables: dict[int, TableView] = {}
    for seat in seats_of_round(round_):
        tables.setdefault(seat.table_number, TableView(seat.table_number)).seats.append(seat)
    return list(tables.values())


def players_of_round(round_: Round) -> list[SeatView]:
    """The round's seating as an alphabetical list of players (last name, first name)."""
    return sorted(seats_of_round(round_), key=lambda seat: player_sort_key(seat.registration))


def seated_rounds(tournament: Tournament) -> list[Round]:
    """Rounds whose seating has been published, in order."""
    return list(tournament.rounds.seated().order_by("number"))


def seated_in_rounds_to_come(registrations: list[Registration]) -> dict[int, list[int]]:
    """Registration id → the rounds to come whose published seating still has that player at
    a table (one query): after a withdrawal or a disqualification an organiser seats those
    rounds again before they are played."""
    tournaments = {registration.tournament_id for registration in registrations}
    to_come = Round.objects.filter(tournament__in=tournaments).to_come()
    seats = (
        Seat.objects.filter(registration__in=registrations, round__in=to_come)
        .order_by("round__number")
        .values_list("registration_id", "round__number")
    )
    rounds: dict[int, list[int]] = {}
    for registration_id, number in seats:
        rounds.setdefault(registration_id, []).append(number)
    return rounds


def unseated_in_rounds_to_come(registrations: list[Registration]) -> dict[int, list[int]]:
    """Registration id → the rounds to come already seated without that player (two
    queries): after a reinstatement an organiser seats those rounds again before they are
    played. Substitutes are left out: they take a seat only when a table needs them."""
    players = [registration for registration in registrations if not registration.is_substitute]
    tournaments = {registration.tournament_id for registration in players}
    seated_rounds = (
        Round.objects.filter(tournament__in=tournaments)
        .to_come()
        .filter(seats__isnull=False)
        .distinct()
        .values_list("tournament_id", "number")
    )
    numbers: dict[int, list[int]] = {}
    for tournament_id, number in seated_rounds:
        numbers.setdefault(tournament_id, []).append(number)
    held = set(
        Seat.objects.filter(registration__in=players).values_list(
            "registration_id", "round__number"
        )
    )
    rounds = {
        registration.pk: [
            number
            for number in numbers.get(registration.tournament_id, [])
            if (registration.pk, number) not in held
        ]
        for registration in players
    }
    return {pk: missing for pk, missing in rounds.items() if missing}


def current_round(tournament: Tournament) -> Round | None:
    """The round being played, else the next seated one, else the last seated one.

    Between rounds the finished round gives way to the next as soon as its seating is out,
    which is what a player looking for their seat needs.
    """
    rounds = seated_rounds(tournament)
    for status in (Round.Status.PLAYING, Round.Status.SEATED):
        for round_ in rounds:
            if round_.status == status:
                return round_
    return rounds[-1] if rounds else None


def registration_matches(registration: Registration, query: str) -> bool:
    """Every word of the query is part of the player's names (any order, any case, with or
    without accents: "zoe" finds "Zoé", "yilmaz" finds "Yılmaz", "mueller" finds "Müller")."""
    player = registration.player
    return names_match((player.first_name, player.last_name, player.nickname), query)


def find_seats(tournament: Tournament, round_: Round | None, query: str) -> list[SeatMatch]:
    """Players of the tournament whose name contains the query, with their seat (2 queries).

    Matching happens in Python so it ignores accents on every database; a tournament has a
    few hundred registrations at most.
    """
    query = query.strip()
    if not query:
        return []
    registrations = (
        Registration.objects.filter(tournament=tournament).active().select_related("player", "team")
    )
    matches = [r for r in registrations if registration_matches(r, query)]
    matches.sort(key=player_sort_key)
    tables = {table.number: table for table in tables_of_round(round_)} if round_ else {}
    seat_of = {seat.registration.pk: seat for table in tables.values() for seat in table.seats}
    result = []
    for registration in matches:
        seat = seat_of.get(registration.pk)
        result.append(
            SeatMatch(registration, seat, tables.get(seat.table_number) if seat else None)
        )
    return result


def find_inactive(tournament: Tournament, query: str) -> list[Registration]:
    """Players matching the query who no longer play (withdrawn, disqualified), so that
    find-my-seat can say so instead of "no player matches"."""
    query = query.strip()
    if not query:
        return []
    active = Registration.objects.filter(tournament=tournament).active()
    inactive = (
        Registration.objects.filter(tournament=tournament)
        .exclude(pk__in=active.values("pk"))
        .select_related("player")
    )
    return sorted((r for r in inactive if registration_matches(r, query)), key=player_sort_key)


def referee_penalties(tournament: Tournament) -> dict[int, list[tuple[int | None, Fraction]]]:
    """registration id → [(round number or None, points)] of the active referees' penalties
    (those outside the score sheets), in one query."""
    penalties: dict[int, list[tuple[int | None, Fraction]]] = {}
    for registration_id, number, points in (
        Penalty.objects.filter(tournament=tournament)
        .active()
        .values_list("registration_id", "round__number", "points")
    ):
        penalties.setdefault(registration_id, []).append((number, Fraction(points)))
    return penalties


def rank_history(
    standings: Standings,
    registration_id: int,
    penalties: dict[int, list[tuple[int | None, Fraction]]] | None = None,
) -> list[tuple[int, int]]:
    """(round number, rank after that round) for one registration, from the standings.

    Rank after round r orders the players with a confirmed hanchan by then (the standings
    rank only those) by their scores of rounds 1…r (each score includes its
    sheet's penalties) plus the referees' penalties given up to round r (a penalty without
    a round counts from the start). Equal sums share the rank; the final place may differ
    where the tie-breaks separated equal totals. No queries.
    """
    penalties = penalties or {}
    entries = standings.entries
    if not any(entry.registration_id == registration_id for entry in entries):
        return []
    history = []
    for number in standings.round_numbers:
        own = next(e for e in entries if e.registration_id == registration_id).rounds.get(number)
        if own is None or own.score is None:
            continue
        running = {}
        for entry in entries:
            if not any(score.confirmed for n, score in entry.rounds.items() if n <= number):
                continue
            total = sum(
                (
                    score.score
                    for n, score in entry.rounds.items()
                    if n <= number and score.score is not None
                ),
                Fraction(0),
            )
            total += sum(
                (
                    points
                    for round_number, points in penalties.get(entry.registration_id, [])
                    if round_number is None or round_number <= number
                ),
                Fraction(0),
            )
            running[entry.registration_id] = total
        mine = running.get(registration_id)
        if mine is None:
            continue
        history.append((number, 1 + sum(1 for total in running.values() if total > mine)))
    return history


@dataclass(frozen=True)
class PlayerRound:
    number: int
    table_number: int | None
    wind: str
    opponents: list[SeatView]
    points: int | None
    place: int | None
    score: Fraction | None
    penalty: Fraction
    confirmed: bool
    rank: int | None
    substitute_name: str  # who played the seat of the absent player, else ""


def player_rounds(
    tournament: Tournament, registration: Registration, entry, history: list[tuple[int, int]]
) -> list[PlayerRound]:
    """Each seated round of one player with table, wind, opponents and result (2 queries)."""
    own_seats = list(
        Seat.objects.filter(registration=registration, round__tournament=tournament)
        .exclude(round__status=Round.Status.PLANNED)
        .select_related("round")
        .order_by("round__number")
    )
    tables = Q(pk__in=[])
    for seat in own_seats:
        tables |= Q(round_id=seat.round_id, table_number=seat.table_number)
    others: dict[tuple[int, int], list[SeatView]] = {}
    for seat in (
        Seat.objects.filter(tables)
        .exclude(registration=registration)
        .select_related("registration__player")
    ):
        others.setdefault((seat.round_id, seat.table_number), []).append(
            SeatView(seat.table_number, seat.wind, seat.registration)
        )
    ranks = dict(history)
    results = entry.rounds if entry is not None else {}
    rounds = []
    for seat in own_seats:
        number = seat.round.number
        result = results.get(number)
        opponents = sorted(
            others.get((seat.round_id, seat.table_number), []),
            key=lambda view: WIND_ORDER[view.wind],
        )
        rounds.append(
            PlayerRound(
                number=number,
                table_number=seat.table_number,
                wind=seat.wind,
                opponents=opponents,
                points=result.points if result else None,
                place=result.place if result else None,
                score=result.score if result else None,
                penalty=result.penalty if result else Fraction(0),
                confirmed=bool(result and result.confirmed),
                rank=ranks.get(number),
                substitute_name=result.substitute_name if result else "",
            )
        )
    return rounds


def team_rows(tournament: Tournament) -> list[dict]:
    """Team ranking rows for the table (the ranking itself is `scoring.selectors`')."""
    return [
        {
            "place": f"{team.place}=" if team.shared_place else team.place,
            "name": team.team_name,
            "members": ", ".join(member.player.display_name for member in team.members),
            "total": team.total,
        }
        for team in team_standings(tournament)
    ]


def namesakes(player: Player) -> list[Player]:
    """Other players with the same name and country: perhaps the same person entered twice
    (the importer recognises them; a player added by hand is only warned about).

    Names are compared as the importer does (`name_key`), in Python: SQLite folds the case
    of ASCII letters only, so "LÉA MOREAU" would miss "Léa Moreau". One query: a player row
    is small, so the whole country is read once rather than its names and then the matches.
    """
    key = name_key(player.first_name, player.last_name)
    same_country = Player.objects.filter(country=player.country).exclude(pk=player.pk)
    return [
        other
        for other in same_country.order_by("pk")
        if name_key(other.first_name, other.last_name) == key
    ]


@dataclass(frozen=True)
class ResultsHeld:
    """What ties a registration to the event's results, so that it must not be deleted."""

    seated_rounds: list[int]
    penalties: int
    substitute_at: list[tuple[int, int]]  # (round, table) of the sheets naming them

    def __bool__(self) -> bool:
        return bool(self.seated_rounds or self.penalties or self.substitute_at)


def results_held(registration: Registration) -> ResultsHeld:
    """What ties this registration to the results (see `results_held_for`)."""
    return results_held_for([registration])[registration.pk]


def results_held_for(registrations: list[Registration]) -> dict[int, ResultsHeld]:
    """Seats and penalties protect their registration in the database; a substitute named
    on a score sheet is held only by the sheet's data, where a deleted registration would
    leave a seat of the results nobody's. Three queries for any number of registrations."""
    pks = {registration.pk for registration in registrations}
    seated: dict[int, set[int]] = {pk: set() for pk in pks}
    for pk, number in Seat.objects.filter(registration__in=pks).values_list(
        "registration_id", "round__number"
    ):
        seated[pk].add(number)
    penalties = Counter(
        Penalty.objects.filter(registration__in=pks).values_list("registration_id", flat=True)
    )
    substitute_at: dict[int, set[tuple[int, int]]] = {pk: set() for pk in pks}
    versions = SheetVersion.objects.filter(
        sheet__round__tournament_id__in={r.tournament_id for r in registrations}
    ).values_list("sheet__round__number", "sheet__table_number", "data")
    for round_number, table, data in versions:
        for seat in data.get("seats", []):
            if seat.get("substitute") in substitute_at:
                substitute_at[seat["substitute"]].add((round_number, table))
    return {
        pk: ResultsHeld(sorted(seated[pk]), penalties[pk], sorted(substitute_at[pk])) for pk in pks
    }


def results_held_message(registration: Registration, held: ResultsHeld) -> str:
    """Why the registration is not deleted and what to do instead, in the active language."""
    uses = []
    if held.seated_rounds:
        uses.append(
            ngettext(
                "seated in round %(rounds)s",
                "seated in rounds %(rounds)s",
                len(held.seated_rounds),
            )
            % {"rounds": ", ".join(map(str, held.seated_rounds))}
        )
    if held.penalties:
        uses.append(
            ngettext("given %(count)s penalty", "given %(count)s penalties", held.penalties)
            % {"count": held.penalties}
        )
    if held.substitute_at:
        uses.append(
            _("a substitute on the score sheet of %(tables)s")
            % {
                "tables": ", ".join(
                    _("round %(round)s, table %(table)s") % {"round": number, "table": table}
                    for number, table in held.substitute_at
                )
            }
        )
    return _(
        "%(player)s is not deleted: %(uses)s. Withdraw them instead (action “Withdraw”, with "
        "a reason), so that the rounds played keep their results."
    ) % {"player": registration.player, "uses": "; ".join(uses)}


class ResultsHeldError(Exception):
    """Registrations that hold results were to be deleted: nothing was. `held` says, for
    each of them, what ties it to the results; `messages` says it to the user."""

    def __init__(self, held: dict[Registration, ResultsHeld]) -> None:
        self.held = held
        self.messages = [results_held_message(r, uses) for r, uses in held.items()]
        super().__init__(" ".join(self.messages))


def refuse_deleting_results(registrations: list[Registration]) -> None:
    """Raise `ResultsHeldError` if any of the registrations holds results: the rounds
    played would lose a player. The database protects seats and penalties on its own, but
    not a substitute named in a score sheet's data, and its refusal names no player."""
    held = results_held_for(registrations)
    refused = {r: held[r.pk] for r in registrations if held[r.pk]}
    if refused:
        raise ResultsHeldError(refused)
