"""What an official typed on a score sheet, and what the rules engine makes of it.

`SheetEntry` is the typed sheet (seats in E, S, W, N order, riichi sticks, hands, note);
it round-trips through the JSON stored in `SheetVersion.data`. `evaluate_entry` checks the
seats against the round's seating (and the substitutes against the round's other sheets),
replays the hands of a hand-by-hand sheet and scores the hanchan, collecting every fault
as a `RulesError` with a field path (`seats[2].points`, `hands[4].fu`) that the form maps
back to the field it concerns.

Not here: saving (`scoring.services.sheets`), translation of the codes
(`scoring.messages`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules import (
    SEATS,
    GameResult,
    HanchanResult,
    Hand,
    RulesError,
    RulesErrors,
    RuleSet,
    SeatSheet,
    Win,
    replay_game,
    score_hanchan,
)
from tournament.models import WIND_ORDER, Registration, Round, Seat


@dataclass(frozen=True)
class SeatEntry:
    """One line of the sheet. For a hand-by-hand sheet `points` and `chombo` are derived."""

    registration_id: int | None
    points: int | None = None
    chombo: int = 0
    late_minutes: int = 0
    substitute_id: int | None = None

    @property
    def absent(self) -> bool:
        return missed_hanchan(self.substitute_id, self.late_minutes)


def missed_hanchan(substitute_id: int | None, late_minutes: int) -> bool:
    """A substitute played and the registered player never came (missed hanchan): a
    substitute with no minutes late."""
    return substitute_id is not None and late_minutes == 0


#: The keys of one hand in `SheetVersion.data`, in their stored order. The sheet has one
#: column for the seat that is paid, "winner": a nagashi mangan's player is stored there.
_STORED_HAND_KEYS = (
    "result",
    "winner",
    "loser",
    "han",
    "fu",
    "yakuman",
    "riichi",
    "tenpai",
    "offender",
    "pao",
    "ron_claimants",
    "dead_hand",
    "noten_riichi",
    "time_up",
)


def hand_to_data(hand: Hand) -> dict[str, Any]:
    """A hand as the sheet stores it (JSON lists, the paid seat in "winner").

    Several winners on one discard are stored as the engine's JSON has them (docs/cli.md,
    "Several winners on one discard"): a `wins` list of objects, only on such a hand, so the
    hands stored before it are read and compared unchanged.
    """
    data = {key: getattr(hand, key) for key in _STORED_HAND_KEYS}
    if hand.result == "nagashi":
        data["winner"] = hand.player
    data = {key: list(value) if isinstance(value, tuple) else value for key, value in data.items()}
    if hand.wins:
        data["wins"] = [dataclasses.asdict(win) for win in hand.wins]
    return data


def hand_from_data(data: Mapping[str, Any]) -> Hand:
    """The hand a stored (or typed) sheet row describes; the reverse of `hand_to_data`."""
    values = {key: tuple(val) if isinstance(val, list) else val for key, val in data.items()}
    if values.get("result") == "nagashi":
        values["player"] = values.pop("winner", None)
    if "wins" in values:
        values["wins"] = tuple(Win(**win) for win in values["wins"])
    return Hand(**values)


@dataclass(frozen=True)
class SheetEntry:
    kind: str  # SheetVersion.Kind
    seats: tuple[SeatEntry, ...]
    riichi_sticks_left: int = 0
    hands: tuple[Hand, ...] = ()
    note: str = ""

    def to_data(self) -> dict[str, Any]:
        return {
            "seats": [
                {
                    "registration": seat.registration_id,
                    "points": seat.points,
                    "chombo": seat.chombo,
                    "late_minutes": seat.late_minutes,
                    "substitute": seat.substitute_id,
                }
                for seat in self.seats
            ],
            "riichi_sticks_left": self.riichi_sticks_left,
            "hands": [hand_to_data(hand) for hand in self.hands],
            "note": self.note,
        }

    @classmethod
    def from_data(cls, kind: str, data: dict[str, Any]) -> SheetEntry:
        seats = tuple(
            SeatEntry(
                registration_id=seat["registration"],
                points=seat["points"],
                chombo=seat["chombo"],
                late_minutes=seat["late_minutes"],
                substitute_id=seat["substitute"],
            )
            for seat in data["seats"]
        )
        hands = tuple(hand_from_data(hand) for hand in data.get("hands", []))
        return cls(
            kind=kind,
            seats=seats,
            riichi_sticks_left=data["riichi_sticks_left"],
            hands=hands,
            note=data.get("note", ""),
        )

    @property
    def time_up(self) -> bool:
        """The time limit ended the game after the last hand (WRC 2015 §8.2), marked on it."""
        return bool(self.hands) and self.hands[-1].time_up

    def agrees_with(self, other: SheetEntry) -> bool:
        """Whether two officials' entries of one paper sheet record the same hanchan.

        Two entries of the same kind must agree on everything but the note (two hand-by-hand
        entries hand by hand). A hand-by-hand entry and a final-score one agree when their
        results do (players, final points, chombo, lateness, substitutes, sticks left): one
        official may type the hands the other summed up, and the final-score entry has no
        hands to compare with.
        """
        mine, theirs = self.to_data(), other.to_data()
        keys = ("seats", "riichi_sticks_left")
        if self.kind == other.kind:
            keys += ("hands",)
        return all(mine[key] == theirs[key] for key in keys)

    def seat_sheets(self) -> list[SeatSheet]:
        """The engine's view of the seats; the player is the registration id."""
        return [
            _seat_sheet(
                seat.registration_id,
                seat.points,
                seat.chombo,
                seat.late_minutes,
                seat.substitute_id,
            )
            for seat in self.seats
        ]


def _seat_sheet(
    registration_id: int | None,
    points: int | None,
    chombo: int,
    late_minutes: int,
    substitute_id: int | None,
) -> SeatSheet:
    """The engine's line of one seat."""
    return SeatSheet(
        str(registration_id or ""),
        points,
        chombo,
        late_minutes,
        substitute_id is not None,
        missed_hanchan(substitute_id, late_minutes),
    )


def stored_seat_sheets(data: Mapping[str, Any]) -> list[SeatSheet]:
    """`SheetEntry.from_data(kind, data).seat_sheets()` read straight from the stored JSON,
    without its hands: a rebuild of the standings scores every sheet of the event."""
    return [
        _seat_sheet(
            seat["registration"],
            seat["points"],
            seat["chombo"],
            seat["late_minutes"],
            seat["substitute"],
        )
        for seat in data["seats"]
    ]


@dataclass(frozen=True)
class TableContext:
    """The seating a sheet is checked against, loaded once per request (three queries)."""

    round: Round
    table_number: int
    seated: tuple[Registration | None, ...]  # E, S, W, N
    seat_of: dict[int, tuple[int, str]]  # registration id -> (table, wind) in this round
    # active substitutes of the tournament, and any the table's standing sheet names
    substitutes: dict[int, Registration]
    registrations: dict[int, Registration]  # everyone seated in the round, and substitutes
    # substitute id -> table, from the current version of the round's other tables' sheets
    substitute_table: dict[int, int]
    # who played in person on this table's standing sheet: a player disqualified since
    # keeps that seat in a correction (the hanchan was played before)
    played_here: frozenset[int] = frozenset()


def table_context(round_: Round, table_number: int) -> TableContext:
    seats = list(
        Seat.objects.filter(round=round_).select_related(
            "registration__player", "registration__team"
        )
    )
    seated: list[Registration | None] = [None] * 4
    seat_of: dict[int, tuple[int, str]] = {}
    registrations: dict[int, Registration] = {}
    for seat in seats:
        seat_of[seat.registration_id] = (seat.table_number, seat.wind)
        registrations[seat.registration_id] = seat.registration
        if seat.table_number == table_number:
            seated[WIND_ORDER[seat.wind]] = seat.registration
    standing = _standing_seats(round_)
    written = [
        (table, seat["substitute"]) for table, seat in standing if seat["substitute"] is not None
    ]
    # This table's own substitutes stay choosable even after they withdrew: a correction
    # keeps them (they did play that hanchan).
    on_this_sheet = {sub for table, sub in written if table == table_number}
    played_here = frozenset(
        seat["registration"]
        for table, seat in standing
        if table == table_number and seat["substitute"] is None
    )
    of_tournament = Registration.objects.filter(tournament_id=round_.tournament_id)
    substitutes = {
        registration.pk: registration
        for registration in (
            of_tournament.filter(is_substitute=True).active()
            | of_tournament.filter(pk__in=on_this_sheet)
        ).select_related("player")
    }
    registrations.update(substitutes)
    elsewhere: dict[int, int] = {}
    for table, sub in written:
        if table != table_number:
            elsewhere.setdefault(sub, table)
    return TableContext(
        round_,
        table_number,
        tuple(seated),
        seat_of,
        substitutes,
        registrations,
        elsewhere,
        played_here,
    )


def _standing_seats(round_: Round) -> list[tuple[int, dict[str, Any]]]:
    """(table, seat) for every seat on the round's sheets, by table.

    Only the version that stands counts: a substitute typed on an older version (since
    corrected) plays nowhere. The table being entered is told apart by the caller, so a sheet
    that is corrected or continued never conflicts with itself.
    """
    rows = (
        round_.score_sheets.filter(current__isnull=False)
        .order_by("table_number")
        .values_list("table_number", "current__data")
    )
    return [(table, seat) for table, data in rows for seat in data.get("seats", [])]


@dataclass(frozen=True)
class Evaluation:
    """The engine's reading of a sheet: the entry with derived numbers, the hanchan score
    and, for a hand-by-hand sheet, the replayed game."""

    entry: SheetEntry
    result: HanchanResult
    game: GameResult | None = None


def _seat_errors(entry: SheetEntry, context: TableContext) -> list[RulesError]:
    errors: list[RulesError] = []
    counts: dict[int, int] = {}
    for seat in entry.seats:
        if seat.registration_id is not None:
            counts[seat.registration_id] = counts.get(seat.registration_id, 0) + 1
    substitutes_used: dict[int, int] = {}
    for index, seat in enumerate(entry.seats):
        field = f"seats[{index}]"
        reg_id = seat.registration_id
        if reg_id is not None and counts[reg_id] == 1:
            where = context.seat_of.get(reg_id)
            if where is None:
                errors.append(
                    RulesError(
                        "seat_not_in_round",
                        "This player is not seated in this round.",
                        field=f"{field}.player",
                    )
                )
            elif where[0] != context.table_number:
                errors.append(
                    RulesError(
                        "seat_wrong_table",
                        f"This player is seated at table {where[0]} in this round.",
                        field=f"{field}.player",
                        table=where[0],
                    )
                )
            elif where[1] != SEATS[index]:
                errors.append(
                    RulesError(
                        "seat_wrong_wind",
                        f"This player starts as {where[1]} at this table.",
                        field=f"{field}.player",
                        wind=where[1],
                    )
                )
        registration = context.registrations.get(reg_id) if reg_id is not None else None
        if (
            registration is not None
            and registration.status == Registration.Status.DISQUALIFIED
            and seat.substitute_id is None
            and reg_id not in context.played_here
        ):
            # WRC 2015 §7.1: a disqualified player plays no more; a substitute takes the seat.
            errors.append(
                RulesError(
                    "seat_disqualified",
                    f"{registration.player.display_name} is disqualified and plays no more.",
                    field=f"{field}.player",
                    player=registration.player.display_name,
                )
            )
        if seat.substitute_id is not None:
            if seat.substitute_id not in context.substitutes:
                errors.append(
                    RulesError(
                        "substitute_unknown",
                        "Not an active substitute of this tournament.",
                        field=f"{field}.substitute",
                    )
                )
            elif seat.substitute_id in context.seat_of:
                # A substitute seated in this round plays that seat, not another one.
                own_table = context.seat_of[seat.substitute_id][0]
                errors.append(
                    RulesError(
                        "substitute_seated",
                        f"This substitute is seated at table {own_table} in this round.",
                        field=f"{field}.substitute",
                        table=own_table,
                    )
                )
            elif seat.substitute_id in substitutes_used:
                errors.append(
                    RulesError(
                        "substitute_repeated",
                        "This substitute already plays another seat of this table.",
                        field=f"{field}.substitute",
                    )
                )
            elif seat.substitute_id in context.substitute_table:
                # One person plays one table a round; the other table's sheet came first.
                other_table = context.substitute_table[seat.substitute_id]
                errors.append(
                    RulesError(
                        "substitute_elsewhere",
                        f"This substitute already plays at table {other_table} in this round.",
                        field=f"{field}.substitute",
                        table=other_table,
                    )
                )
            substitutes_used[seat.substitute_id] = index
    return errors


def evaluate_entry(
    ruleset: RuleSet, entry: SheetEntry, context: TableContext, finished: bool = True
) -> Evaluation:
    """Check a typed sheet and score it; raise `RulesErrors` listing every fault.

    A hand-by-hand sheet saved as `finished` must reach the end of the game (or the time
    limit, its last hand marked): hands left out would otherwise count as a whole hanchan.
    Hands saved part-way (`finished=False`) may stop anywhere.
    """
    errors = _seat_errors(entry, context)
    game = None
    if entry.hands or entry.kind == "hands":
        try:
            game = replay_game(ruleset, entry.hands)
        except RulesError as error:
            raise RulesErrors([*errors, error]) from None
        if finished and game.ended is None:
            errors.append(_game_not_over(game))
        entry = dataclasses.replace(
            entry,
            riichi_sticks_left=game.riichi_sticks_left,
            seats=tuple(
                dataclasses.replace(seat, points=points, chombo=chombo)
                for seat, points, chombo in zip(
                    entry.seats, game.final_points, game.chombo, strict=True
                )
            ),
        )
    try:
        result = score_hanchan(ruleset, entry.seat_sheets(), entry.riichi_sticks_left)
    except RulesErrors as engine_errors:
        taken = {error.field for error in engine_errors}
        errors = [error for error in errors if error.field not in taken]
        raise RulesErrors([*errors, *engine_errors]) from None
    if errors:
        raise RulesErrors(errors)
    return Evaluation(entry=entry, result=result, game=game)


def _game_not_over(game: GameResult) -> RulesError:
    if not game.hands:
        return RulesError("no_hands", "No hand is entered yet.", field="hands")
    last = len(game.hands) - 1
    return RulesError(
        "game_not_over",
        f"The game is not over after hand {last + 1}: {game.next_round} comes next.",
        field=f"hands[{last}]",
        index=last + 1,
        next_round=game.next_round,
        dealer=game.next_dealer,
    )


def score_stored(ruleset: RuleSet, kind: str, data: dict[str, Any]) -> HanchanResult:
    """Score a stored version (already checked when it was entered)."""
    entry = SheetEntry.from_data(kind, data)
    return score_hanchan(ruleset, entry.seat_sheets(), entry.riichi_sticks_left)
