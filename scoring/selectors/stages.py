"""Reads of the stages: each stage's standings and the cut that led into it.

The qualifying stage is the rounds before the first `Stage`; its standings are the
tournament's standings after its last round. A later stage ranks only the players who went
through the cut (`scoring.rules.cut_standings` on the earlier stage's standings), each with
their carry-over (`scoring.rules.carry_over`) plus what they scored in the stage's rounds:
its hanchan scores and the penalties given in its rounds, read as the difference between
the tournament's standings after the stage and before it (both cached,
`tournament_standings` with ``rounds_up_to``). The overall standings are unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.models import Stage
from scoring.rules import (
    Cut,
    PlayerRecord,
    RankedPlayer,
    carry_over,
    compute_standings,
    cut_standings,
)
from scoring.selectors.standings import RoundScore, StandingEntry, Standings, tournament_standings
from tournament.models import Player, Tournament


@dataclass(frozen=True)
class StageEntry:
    """One player's line in a stage's standings: ``carried`` from the earlier stage,
    ``total`` = carried + the stage's scores; ``rounds`` only the stage's."""

    registration_id: int
    player: Player
    team_or_club: str
    place: int | None
    carried: Fraction
    total: Fraction
    shared_place: bool
    decided_by: str | None
    withdrawn: bool
    rounds: Mapping[int, RoundScore]


@dataclass(frozen=True)
class CutLine:
    """The cut into a stage, as the pages explain it: the earlier stage's entries through
    (``qualified``, standings order) and those sharing the place across the line
    (``tied``, with ``open_seats`` of them through once ``resolved``). ``size`` None: the
    organiser's list (``manual``)."""

    size: int | None
    qualified: list[StageEntry]
    tied: list[StageEntry] = field(default_factory=list)
    open_seats: int = 0
    resolved: bool = True
    decided_by: str | None = None

    @property
    def manual(self) -> bool:
        return self.size is None


@dataclass(frozen=True)
class StageStandings:
    """A stage's standings: ``stage`` None for the qualifying stage; ``cut`` the cut into
    it (None for the qualifying stage)."""

    stage: Stage | None
    round_numbers: list[int]
    entries: list[StageEntry]
    cut: CutLine | None = None

    @property
    def qualified_ids(self) -> set[int]:
        return {entry.registration_id for entry in self.cut.qualified} if self.cut else set()


def with_next(
    stages: list[StageStandings],
) -> list[tuple[StageStandings, StageStandings | None]]:
    """Each stage with the one after it (None after the last): a stage's table marks the
    players through to the next one and explains its cut."""
    return [
        (current, stages[index + 1] if index + 1 < len(stages) else None)
        for index, current in enumerate(stages)
    ]


def tournament_stages(tournament: Tournament) -> list[Stage]:
    """The later stages, in order."""
    return list(Stage.objects.filter(tournament=tournament).order_by("first_round"))


def stage_standings(
    tournament: Tournament, *, fresh: bool = False, rounds_up_to: int | None = None
) -> list[StageStandings]:
    """Every stage's standings, the qualifying stage first; empty without stages.
    ``fresh`` and ``rounds_up_to`` as in `tournament_standings`."""
    stages = tournament_stages(tournament)
    if not stages:
        return []
    built: dict[int | None, Standings] = {}

    def after(number: int | None) -> Standings:
        if rounds_up_to is not None and (number is None or number > rounds_up_to):
            number = rounds_up_to
        if number not in built:
            built[number] = tournament_standings(tournament, fresh=fresh, rounds_up_to=number)
        return built[number]

    qualifying = after(stages[0].first_round - 1)
    result = [
        StageStandings(
            None,
            [n for n in qualifying.round_numbers if n < stages[0].first_round],
            [_entry(entry, Fraction(0), entry.total, entry.rounds) for entry in qualifying.entries],
        )
    ]
    tie_breaks = tournament.get_rules().tie_breaks
    for index, stage in enumerate(stages):
        last = stages[index + 1].first_round - 1 if index + 1 < len(stages) else None
        cut = _cut(stage, result[-1].entries)
        end, before = after(last), after(stage.first_round - 1)
        numbers = [n for n in end.round_numbers if n >= stage.first_round]
        result.append(
            StageStandings(
                stage, numbers, _ranked(stage, cut, end, before, numbers, tie_breaks), cut
            )
        )
    return result


def _entry(
    entry: StandingEntry, carried: Fraction, total: Fraction, rounds: Mapping[int, RoundScore]
) -> StageEntry:
    return StageEntry(
        entry.registration_id,
        entry.player,
        entry.team_or_club,
        entry.place,
        carried,
        total,
        entry.shared_place,
        entry.decided_by,
        entry.withdrawn,
        rounds,
    )


def _cut(stage: Stage, earlier: list[StageEntry]) -> CutLine:
    """Who goes from the earlier stage's standings into ``stage``: the best who still play, or
    the organiser's list."""
    chosen = set(stage.chosen)
    if stage.cut_size is None:
        qualified = [entry for entry in earlier if entry.registration_id in chosen]
        return CutLine(None, qualified, resolved=bool(qualified))
    by_key = {str(entry.registration_id): entry for entry in earlier}
    cut: Cut = cut_standings(_contenders(earlier), stage.cut_size, {str(pk) for pk in chosen})
    return CutLine(
        cut.size,
        [by_key[key] for key in cut.qualified],
        [by_key[key] for key in cut.tied],
        cut.open_seats,
        cut.resolved,
        cut.decided_by,
    )


def _contenders(earlier: list[StageEntry]) -> list[RankedPlayer]:
    """The earlier stage's ranked players who still play, placed again among themselves (a
    withdrawn player's seat goes to the next player; players sharing a place still share
    it)."""
    playing = [entry for entry in earlier if entry.place is not None and not entry.withdrawn]
    contenders: list[RankedPlayer] = []
    for index, entry in enumerate(playing):
        shared = index and playing[index - 1].place == entry.place
        place = contenders[-1].place if shared else index + 1
        contenders.append(
            RankedPlayer(str(entry.registration_id), place, entry.total, entry.decided_by)
        )
    return contenders


def _ranked(
    stage: Stage,
    cut: CutLine,
    end: Standings,
    before: Standings,
    numbers: list[int],
    tie_breaks: tuple[str, ...],
) -> list[StageEntry]:
    """The qualified players ranked by carry-over plus the stage's results."""
    ends = {entry.registration_id: entry for entry in end.entries}
    befores = {entry.registration_id: entry for entry in before.entries}
    bonus = stage.bonus_points()
    records, lines = [], {}
    for rank, qualified in enumerate(cut.qualified, start=1):
        pk = qualified.registration_id
        carried = Fraction(carry_over(stage.carry_over, qualified.total, rank, bonus))
        played = ends.get(pk)
        rounds = {n: played.rounds[n] for n in numbers if played and n in played.rounds}
        scores = [rounds[n].score for n in numbers if n in rounds]
        earlier_total = befores[pk].total if pk in befores else Fraction(0)
        stage_total = (played.total if played else earlier_total) - earlier_total
        # What the stage added beyond its hanchan: the penalties given in its rounds.
        penalties = stage_total - sum(score for score in scores if score is not None)
        records.append(
            PlayerRecord(
                key=str(pk),
                hanchan_scores=tuple(scores),
                places=tuple(rounds[n].place for n in numbers if n in rounds),
                penalties=(penalties,),
                sheet_penalties=sum((score.penalty for score in rounds.values()), Fraction(0)),
                carried=carried,
            )
        )
        lines[str(pk)] = (qualified, carried, rounds)
    entries = []
    for row in compute_standings(records, tie_breaks):
        qualified, carried, rounds = lines[row.key]
        entries.append(
            StageEntry(
                qualified.registration_id,
                qualified.player,
                qualified.team_or_club,
                row.place,
                carried,
                Fraction(row.total),
                row.shared,
                row.decided_by,
                qualified.withdrawn,
                rounds,
            )
        )
    return entries
