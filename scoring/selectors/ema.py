"""Reads for the tournament's submission to the European Mahjong Association: the MERS
preview (its weight, each ranked player's base rank, what to fix before sending) and the
check that every confirmed table's scores sum to zero.

The counts the weight is made of come from the standings (`tournament_standings`, fresh):
the participating players are the ranked registrations (substitutes and disqualified
players are not ranked, WRC 2015 §7.1) less those who withdrew before playing a hanchan;
the substitutes are the registered ones still active; the countries are those of both. The
formulas are the rules engine's (`scoring.rules.mers`, after the EMA's "Basics for ranking
system").
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import F, Sum
from django.utils.translation import ngettext

from scoring.models import SeatResult
from scoring.rules import SCORE_UNIT
from scoring.rules.mers import MersWeight, base_ranks, counted_players, mers_weight
from scoring.selectors.standings import StandingEntry, tournament_standings
from tournament.models import Player, Registration, Seat, Tournament
from tournament.names import isolate


@dataclass(frozen=True)
class RankedPlayer:
    """A line of the results the EMA receives, with the base rank its place earns."""

    place: int
    player: Player
    total: Fraction
    base_rank: Fraction


@dataclass(frozen=True)
class EmaWarning:
    """Something to fix before the results are sent, and the players it concerns.

    ``code``: missing_ema_number, missing_country, no_result. No two players share an EMA
    number: the database refuses it (`Player`'s constraint player_unique_ema_number).
    """

    code: str
    players: tuple[Player, ...]

    @property
    def message(self) -> str:
        count = len(self.players)
        names = ", ".join(isolate(player.legal_name) for player in self.players)
        texts = {
            "missing_ema_number": ngettext(
                "%(count)s player has no EMA number: %(names)s.",
                "%(count)s players have no EMA number: %(names)s.",
                count,
            ),
            "missing_country": ngettext(
                "%(count)s player has no nationality: %(names)s.",
                "%(count)s players have no nationality: %(names)s.",
                count,
            ),
            "no_result": ngettext(
                "%(count)s player has no result yet: %(names)s.",
                "%(count)s players have no result yet: %(names)s.",
                count,
            ),
        }
        return texts[self.code] % {"count": count, "names": names}


@dataclass(frozen=True)
class EmaPreview:
    days: int
    players: int
    substitutes: int
    countries: int
    qualification: bool
    weight: MersWeight
    ranked: list[RankedPlayer]
    warnings: list[EmaWarning]

    @property
    def counted_players(self) -> int:
        """The players the weight counts: every player and at most three substitutes."""
        return counted_players(self.players, self.substitutes)


def _warnings(participants: list[StandingEntry]) -> list[EmaWarning]:
    players = [entry.player for entry in participants]
    warnings = []
    missing_number = tuple(player for player in players if not player.ema_number)
    if missing_number:
        warnings.append(EmaWarning("missing_ema_number", missing_number))
    missing_country = tuple(player for player in players if not player.country)
    if missing_country:
        warnings.append(EmaWarning("missing_country", missing_country))
    without_result = tuple(entry.player for entry in participants if entry.place is None)
    if without_result:
        warnings.append(EmaWarning("no_result", without_result))
    return warnings


def ema_preview(tournament: Tournament) -> EmaPreview:
    """The MERS preview from the tournament's data as it stands now."""
    standings = tournament_standings(tournament, fresh=True)
    participants = [
        entry for entry in standings.entries if entry.place is not None or not entry.withdrawn
    ]
    substitutes = list(
        Registration.objects.filter(tournament=tournament, is_substitute=True)
        .active()
        .select_related("player")
    )
    countries = {entry.player.country.code for entry in participants} | {
        registration.player.country.code for registration in substitutes
    }
    countries.discard("")
    placed = [entry for entry in participants if entry.place is not None]
    ranks = base_ranks([entry.place for entry in placed])
    days = (tournament.end_date - tournament.start_date).days + 1
    return EmaPreview(
        days=days,
        players=len(participants),
        substitutes=len(substitutes),
        countries=len(countries),
        qualification=tournament.mers_qualification,
        weight=mers_weight(
            days=days,
            players=len(participants),
            substitutes=len(substitutes),
            countries=len(countries),
            qualification=tournament.mers_qualification,
        ),
        ranked=[
            RankedPlayer(entry.place, entry.player, entry.total, rank)
            for entry, rank in zip(placed, ranks, strict=True)
        ],
        warnings=_warnings(participants),
    )


@dataclass(frozen=True)
class TableCheck:
    """The sum of a confirmed table's scores before penalties: zero, or a fault to find."""

    round_number: int
    table_number: int
    total: Fraction

    @property
    def balanced(self) -> bool:
        return self.total == 0


def table_checks(tournament: Tournament) -> list[TableCheck]:
    """Every confirmed table's sum of scores (uma and points; penalties, which nobody
    receives, left out), in round and table order, in one query."""
    sums = (
        SeatResult.objects.filter(tournament=tournament)
        .values("round__number", "sheet__table_number")
        .annotate(total=Sum(F("score") - F("penalty")))
        .order_by("round__number", "sheet__table_number")
    )
    return [
        TableCheck(
            row["round__number"], row["sheet__table_number"], Fraction(row["total"], SCORE_UNIT)
        )
        for row in sums
    ]


@dataclass(frozen=True)
class ScheduledRound:
    number: int
    scheduled_start: datetime.datetime | None
    tables: int


def round_schedule(tournament: Tournament) -> list[ScheduledRound]:
    """Each round with its scheduled start and its number of tables, for the observer's
    report, in two queries."""
    tables: dict[int, set[int]] = defaultdict(set)
    for round_id, table in Seat.objects.filter(round__tournament=tournament).values_list(
        "round_id", "table_number"
    ):
        tables[round_id].add(table)
    return [
        ScheduledRound(round_.number, round_.scheduled_start, len(tables[round_.pk]))
        for round_ in tournament.rounds.order_by("number")
    ]
