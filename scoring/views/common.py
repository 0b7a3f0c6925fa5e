"""What the sheet pages share: resolving the round and table, describing a version."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.entries import (
    Evaluation,
    SheetEntry,
    TableContext,
    score_stored,
    table_context,
)
from scoring.messages import SUBSTITUTE_NOT_RANKED, message_for
from scoring.models import ScoreSheet, SheetVersion
from scoring.rules import (
    GameResult,
    HanchanResult,
    Hand,
    HandRecord,
    RulesError,
    RulesErrors,
    RuleSet,
    replay_game,
)
from scoring.signals import standings_changed_by_official
from tournament.formatting import format_points, format_score
from tournament.models import WIND_LABELS, WINDS, Round, Tournament
from tournament.permissions import TournamentStaffMixin


@dataclass(frozen=True)
class SeatLine:
    wind: str
    player: str
    substitute: str
    points: int | None
    chombo: int
    late_minutes: int
    place: int | None = None
    uma: str = ""
    penalty: str = ""
    score: str = ""
    # False for a substitute seated to fill a table: their result counts for nobody.
    ranked: bool = True

    @property
    def points_text(self) -> str:
        """The points grouped as everywhere on the sheet pages (42,300 / 42 300)."""
        return format_points(self.points)

    @property
    def substitute_note(self) -> str:
        """Under the substitute's name, in the words the score-sheet PDF prints too."""
        return str(SUBSTITUTE_NOT_RANKED)


@dataclass(frozen=True)
class HandLine:
    """One replayed hand as the sheet pages list it: where it was played, what happened in
    words (every winner of a ron on one discard named with their hand and what the discarder
    paid them), and each seat's change of points, deposits included."""

    number: int
    round: str
    honba: int
    result: str
    deltas: tuple[str, ...]  # E, S, W, N


def _value(han: int | None, fu: int | None, yakuman: int) -> str:
    """A winning hand's value as the referee wrote it: "2 han 30 fu", "6 han", "yakuman"."""
    if yakuman > 1:
        return _("%(count)s× yakuman") % {"count": yakuman}
    if yakuman:
        return _("yakuman")
    if fu is None:
        return _("%(han)s han") % {"han": han}
    return _("%(han)s han %(fu)s fu") % {"han": han, "fu": fu}


def _what_happened(record: HandRecord, hand: Hand) -> str:
    result = record.result
    if result.wins:
        # Several winners on one discard (EMA 2016 §3.4.9): the discarder pays each one.
        winners = "; ".join(
            _("%(winner)s %(value)s, paid %(points)s")
            % {
                "winner": WIND_LABELS[win.winner],
                "value": _value(win.han, win.fu, win.yakuman),
                "points": format_points(win.received),
            }
            for win in result.wins
        )
        return _("Ron on %(loser)s's discard: %(winners)s") % {
            "loser": WIND_LABELS[hand.loser],
            "winners": winners,
        }
    if result.result == "ron":
        return _("Ron by %(winner)s on %(loser)s's discard, %(value)s") % {
            "winner": WIND_LABELS[result.winner],
            "loser": WIND_LABELS[hand.loser],
            "value": _value(result.han, result.fu, result.yakuman),
        }
    if result.result == "tsumo":
        return _("Tsumo by %(winner)s, %(value)s") % {
            "winner": WIND_LABELS[result.winner],
            "value": _value(result.han, result.fu, result.yakuman),
        }
    if result.result == "nagashi":
        return _("Nagashi mangan by %(player)s") % {"player": WIND_LABELS[hand.player]}
    if result.result == "chombo":
        # The offender, or the noten riichi at a draw (each one a chombo)
        players = ", ".join(str(WIND_LABELS[seat]) for seat in result.chombo)
        return _("Chombo by %(player)s") % {"player": players}
    if result.result == "abortive":
        return _("Abortive draw")
    return _("Exhaustive draw")


def _signed(points: int) -> str:
    return (
        ""
        if points == 0
        else (f"+{format_points(points)}" if points > 0 else format_points(points))
    )


def hand_lines(game: GameResult, entry: SheetEntry) -> tuple[HandLine, ...]:
    """The replayed hands of a hand-by-hand sheet, for the sheet pages."""
    return tuple(
        HandLine(
            number=record.index + 1,
            round=f"{WIND_LABELS[record.round[0]]} {record.round[1:]}",
            honba=record.honba,
            result=_what_happened(record, hand),
            deltas=tuple(_signed(delta) for delta in record.deltas),
        )
        for record, hand in zip(game.hands, entry.hands, strict=True)
    )


@dataclass(frozen=True)
class SheetDescription:
    """A version (or an unsaved entry) as the sheet pages show it: each seat's line with what
    the rules engine makes of it."""

    lines: list[SeatLine]
    riichi_sticks_left: int
    note: str
    hands: int
    error: str = ""
    version: SheetVersion | None = None
    # What the score holds beside the uma (an oka, the sticks left to 1st place), as the
    # printed sheet has rows for them: "oka +20.0 to Zoé Martin".
    bonuses: tuple[str, ...] = ()
    # The time limit ended the game after the last hand (WRC 2015 §8.2): said wherever the
    # sheet is shown, its history included, since it is why the hands stop before the end.
    time_up: bool = False
    # A hand-by-hand sheet's hands as the engine replays them, every winner named.
    hand_lines: tuple[HandLine, ...] = ()


def _name(context: TableContext, registration_id: int | None) -> str:
    if registration_id is None:
        return ""
    registration = context.registrations.get(registration_id)
    return registration.player.display_name if registration else f"#{registration_id}"


def describe(
    entry: SheetEntry,
    result: HanchanResult | None,
    context: TableContext,
    version: SheetVersion | None = None,
    error: str = "",
    game: GameResult | None = None,
) -> SheetDescription:
    lines = []
    for index, seat in enumerate(entry.seats):
        score = result.seats[index] if result else None
        registration = context.registrations.get(seat.registration_id)
        lines.append(
            SeatLine(
                wind=WINDS[index],
                player=_name(context, seat.registration_id),
                substitute=_name(context, seat.substitute_id),
                points=seat.points,
                chombo=seat.chombo,
                late_minutes=seat.late_minutes,
                place=score.place if score else None,
                uma=format_score(score.uma) if score else "",
                penalty=format_score(score.penalty) if score else "",
                score=format_score(score.score) if score else "",
                ranked=not (registration and registration.is_substitute),
            )
        )
    bonuses = []
    for line, score in zip(lines, result.seats if result else (), strict=False):
        name = line.substitute or line.player
        if score.oka:
            bonuses.append(
                _("oka %(score)s to %(player)s")
                % {"score": format_score(score.oka), "player": name}
            )
        if score.riichi_bonus:
            bonuses.append(
                _("riichi sticks left %(score)s to %(player)s")
                % {"score": format_score(score.riichi_bonus), "player": name}
            )
    return SheetDescription(
        lines,
        entry.riichi_sticks_left,
        entry.note,
        len(entry.hands),
        error,
        version,
        tuple(bonuses),
        time_up=entry.time_up,
        hand_lines=hand_lines(game, entry) if game is not None else (),
    )


def describe_version(
    version: SheetVersion, context: TableContext, rules: RuleSet
) -> SheetDescription:
    entry = SheetEntry.from_data(version.kind, version.data)
    try:
        result = score_stored(rules, version.kind, version.data)
        game = replay_game(rules, entry.hands) if entry.hands else None
    except (RulesError, RulesErrors) as errors:
        found = errors.errors if isinstance(errors, RulesErrors) else (errors,)
        return describe(entry, None, context, version, "; ".join(map(message_for, found)))
    return describe(entry, result, context, version, game=game)


def describe_evaluation(evaluation: Evaluation, context: TableContext) -> SheetDescription:
    return describe(evaluation.entry, evaluation.result, context, game=evaluation.game)


class TableMixin(TournamentStaffMixin):
    """Resolves `self.round`, `self.table_number`, `self.sheet` (or None), `self.context`."""

    def setup_table(self) -> None:
        self.round = get_object_or_404(
            Round.objects.select_related("tournament"),
            tournament=self.tournament,
            number=self.kwargs["number"],
        )
        self.table_number = self.kwargs["table"]
        self.context = table_context(self.round, self.table_number)
        if not any(self.context.seated):
            raise Http404
        self.sheet = (
            ScoreSheet.objects.select_related("current__entered_by")
            .filter(round=self.round, table_number=self.table_number)
            .first()
        )
        self.rules = self.tournament.get_rules()

    def get(self, request, *args, **kwargs):
        self.setup_table()
        return super().get(request, *args, **kwargs)

    def table_url(self, name: str) -> str:
        """The address of this table's page `scoring:<name>` (sheet, hands, history…)."""
        return reverse(
            f"scoring:{name}",
            kwargs={
                "slug": self.tournament.slug,
                "number": self.round.number,
                "table": self.table_number,
            },
        )

    def base_context(self) -> dict:
        return {
            "round": self.round,
            "table_number": self.table_number,
            "sheet": self.sheet,
            "status": self.sheet.status if self.sheet else ScoreSheet.Status.NOT_ENTERED,
            "status_label": (
                self.sheet.get_status_display()
                if self.sheet
                else ScoreSheet.Status.NOT_ENTERED.label
            ),
            "seated": list(zip(WINDS, self.context.seated, strict=True)),
        }


def warn_of_consequences(request: HttpRequest, tournament: Tournament) -> None:
    """A sheet just confirmed or corrected changed the standings: whatever was built on the
    ones before says so to the official at once (`standings_changed_by_official`)."""
    responses = standings_changed_by_official.send(sender=ScoreSheet, tournament=tournament)
    for _receiver, warnings in responses:
        for warning in warnings:
            messages.warning(request, warning)
