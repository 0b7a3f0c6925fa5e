"""Errors raised by the rules engine.

Two families, after Tabbycat's ``DrawUserError`` / ``DrawFatalError``:

* :class:`RulesError` — the input is understood but breaks a rule; the user can fix it.
  It carries a stable ``code`` (the Django layer translates codes), the ``params`` needed to
  build a message, the ``field`` it concerns (``"seats[2].points"``, ``"hands[5].fu"``) and an
  English ``message`` in the user's terms. Several may be raised together as
  :class:`RulesErrors`.
* :class:`RulesFatalError` — "cannot happen": an invariant of the engine itself failed. It is
  a bug, never the user's fault, and is not translated.

This module holds no rule logic.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

__all__ = ["ERROR_CODES", "RulesError", "RulesErrors", "RulesFatalError", "ErrorInfo"]

#: Every code the engine raises, with its parameters, for the Django layer's translations.
#: Keep codes stable: they are an API (tests/scoring/rules/test_errors.py checks the list).
ERROR_CODES: dict[str, str] = {
    # rule sets and options
    "ruleset_unknown": "Unknown rule-set key. params: ruleset, choices",
    "option_unknown": "Unknown option name. params: option",
    "option_type": "Option value of the wrong type. params: option, expected, value",
    "option_range": "Option value out of range (min, max, multiple of 100 (noten_total: of "
    "600), uma sum/order). "
    "params: option, value[, min][, max][, step][, chombo_model]",
    "option_choice": "Option value not among the choices. params: option, choices, value",
    # score sheet (hanchan)
    "seats_count": "Not exactly four seats. params: count",
    "player_missing": "A seat without a player name. params: -",
    "player_repeated": "The same player twice (sheet or standings). params: player[, seats]",
    "points_type": "Points are not a whole number. params: value",
    "points_not_multiple": "Points are not a multiple of 100. params: player, points",
    "points_range": "Final points no hanchan gives: beyond ±40 x start points. "
    "params: player, points, limit, start_points",
    "points_unusual": "A warning, never raised: final points beyond ±8 x start points, to "
    "confirm. params: seat, player, points, limit, start_points",
    "points_sum": "Σ points + 1 000 x sticks left != 4 x start points. "
    "params: total, expected, riichi_sticks_left, start_points",
    "points_sum_chombo_deducted": "The points are short by exactly the chombo deduction "
    "(chombo_model 'table_points'): written after it. params: total, expected, deducted",
    "count_negative": "A count (chombo, minutes, sticks, honba…) is negative or not whole. "
    "params: value",
    "count_too_high": "A count (chombo, minutes late, riichi sticks, han, fu, yakuman) beyond "
    "its range. params: value, max",
    "flag_type": "substitute/absent is not true/false. params: -",
    "absent_needs_substitute": "An absent player's seat is not marked substitute. params: player",
    "absent_and_late": "A seat is both absent and late. params: player",
    "late_needs_substitute": "Late beyond the limit but not substituted. "
    "params: player, minutes, limit",
    "substitute_too_early": "A substitute replaced a player late less than the limit. "
    "params: player, minutes, limit",
    # one hand
    "result_unknown": "Unknown result kind. params: value",
    "key_not_applicable": "A key that does not belong to this result. params: key, result",
    "seat_unknown": "Not one of E, S, W, N. params: value",
    "seat_missing": "A seat this result needs (winner, discarder…) is missing. params: key",
    "seat_repeated": "A seat listed twice. params: seats",
    "han_type": "Han is not a whole number. params: han",
    "han_missing": "A win without han or yakuman. params: -",
    "yakuman_with_han_fu": "Han or fu written together with a yakuman count. params: key, yakuman",
    "han_too_low": "Han < 1. params: han",
    "fu_type": "Fu is not a whole number. params: fu",
    "fu_missing": "Fu missing below 5 han. params: han",
    "fu_too_low": "Fu < 20. params: fu",
    "fu_not_rounded": "Fu not a multiple of 10 (other than 25). params: fu",
    "ron_20_fu": "20 fu on a ron (docs/rules.md §6.1 a). params: han, fu",
    "tsumo_1_han_20_fu": "1 han 20 fu tsumo (§6.1 b). params: han, fu",
    "one_han_25_fu": "1 han 25 fu (§6.1 c). params: han, fu",
    "tsumo_2_han_25_fu": "2 han 25 fu tsumo (§6.1 d). params: han, fu",
    "tsumo_with_loser": "A tsumo with a discarder. params: -",
    "winner_is_loser": "Winning on one's own discard. params: seat",
    "claimants_on_tsumo": "Ron claimants on a tsumo. params: -",
    "ron_priority": "Head bump gives the discard to another claimant. params: winner, claimed",
    "ron_claimants_all_win": "Several claimants and one winner where every claimant wins "
    "(multiple_ron not head_bump). params: ruleset",
    "wins_with_single_keys": "A winner list (wins) together with winner/han/fu/yakuman/pao/"
    "ron_claimants. params: key",
    "multiple_ron_not_in_ruleset": "Several winners on one discard under head_bump. "
    "params: ruleset",
    "ron_too_many_winners": "Three winners on one discard under double_ron (an abortive "
    "draw). params: count, max",
    "pao_not_in_ruleset": "Pao in a rule set without it. params: ruleset",
    "pao_needs_yakuman": "Pao without a yakuman. params: -",
    "pao_is_winner": "The winner named as liable. params: seat",
    "noten_riichi_is_tenpai": "A seat both tenpai and noten riichi. params: seat",
    "riichi_hand_not_shown": "A riichi seat at a draw neither tenpai, noten riichi nor dead "
    "hand. params: seat",
    "nagashi_not_in_ruleset": "Nagashi mangan in a rule set without it. params: ruleset",
    "abortive_not_in_ruleset": "Abortive draw in a rule set without it. params: ruleset",
    # game replay
    "hand_after_end": "A hand after the end of the game. params: index, ended",
    "hand_state_mismatch": "Written dealer/honba/sticks differ from the replay. "
    "params: key, written, expected",
    "noten_riichi_without_riichi": "A noten riichi for a seat that did not declare riichi "
    "in that hand of a game sheet. params: seat",
    "riichi_cannot_pay": "Riichi without the points the rule set requires. "
    "params: seat, points, min",
    # standings
    "penalty_type": "A penalty that is not an exact number. params: value",
    "penalty_sign": "A positive penalty (penalties are <= 0). params: value",
    "penalty_range": "A referee's penalty beyond 99 999.99 points. params: value, max",
    "tie_break_unknown": "Unknown tie-break criterion. params: value",
}


@dataclass(frozen=True)
class ErrorInfo:
    """Plain, serialisable view of one user error (what the CLI prints)."""

    code: str
    message: str
    field: str | None = None
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The CLI error shape: ``{"code", "message", "field"}`` (plus ``params``)."""
        return {
            "code": self.code,
            "message": self.message,
            "field": self.field,
            "params": {k: _jsonable(v) for k, v in self.params.items()},
        }


def _jsonable(value: Any) -> Any:
    """A param as JSON: params keep the value the user gave (``-1``, ``"foo"``), so numbers
    stay numbers here and only what JSON cannot hold becomes its plain text, never a repr.

    >>> _jsonable(Fraction(-5)), _jsonable(Decimal("1.5")), _jsonable(("E", Fraction(1, 2)))
    (-5, 1.5, ['E', 0.5])
    >>> _jsonable({"a": 1}), _jsonable(Decimal("NaN")), _jsonable(None)
    ({'a': 1}, 'NaN', None)
    """
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Decimal) and value.is_finite():
        value = Fraction(value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)


class RulesError(ValueError):
    """A user-fixable violation of the rules.

    >>> e = RulesError("points_sum", "The points do not add up.", field="seats", total=1)
    >>> (e.code, e.field, e.params["total"])
    ('points_sum', 'seats', 1)
    """

    def __init__(self, code: str, message: str, *, field: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params: dict[str, Any] = dict(params)

    def with_field_prefix(self, prefix: str) -> RulesError:
        """Same error, with ``field`` nested under ``prefix`` (``hands[5]`` + ``fu``)."""
        nested = f"{prefix}.{self.field}" if self.field else prefix
        return RulesError(self.code, self.message, field=nested, **self.params)

    @property
    def info(self) -> ErrorInfo:
        return ErrorInfo(self.code, self.message, self.field, dict(self.params))

    def __repr__(self) -> str:
        return f"RulesError({self.code!r}, field={self.field!r}, params={self.params!r})"


class RulesErrors(ValueError):
    """Several :class:`RulesError` found in one input (e.g. a score sheet with two faults).

    Iterating yields the individual errors; ``.errors`` is a tuple of them.
    """

    def __init__(self, errors: Iterable[RulesError]) -> None:
        self.errors: tuple[RulesError, ...] = tuple(errors)
        if not self.errors:
            raise RulesFatalError("RulesErrors raised without any error")
        super().__init__("; ".join(e.message for e in self.errors))

    def __iter__(self):
        return iter(self.errors)

    def __len__(self) -> int:
        return len(self.errors)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(e.code for e in self.errors)


class RulesFatalError(RuntimeError):
    """An internal invariant failed: a bug in the engine, not a user error."""
