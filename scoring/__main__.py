"""JSON command-line interface of the rules engine (``docs/cli.md``).

Usage::

    echo '{"ruleset": "wrc2015", "seats": [...]}' | python -m scoring hanchan
    echo '{"ruleset": "wrc2015", "dealer": "E", "result": "ron", ...}' | python -m scoring hand
    echo '{"ruleset": "wrc2015", "hands": [...]}' | python -m scoring game

One JSON document on stdin, one on stdout, both UTF-8 whatever the locale (RFC 8259 §8.1).
Exit 0: success. Exit 2: understood but invalid under the rules. Exit 1: malformed input (not
UTF-8 JSON, wrong types, unknown keys). Errors are
``{"errors": [{"code", "message", "field", "params"}]}`` in both cases.

This module only parses and formats; every rule lives in :mod:`scoring.rules`. It must not
import Django (``tests/test_architecture.py`` checks it).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, BinaryIO, NoReturn

from scoring.rules import (
    SEATS,
    Hand,
    RulesError,
    RulesErrors,
    SeatSheet,
    Win,
    replay_game,
    resolve_ruleset,
    score_hanchan,
    score_hand,
    unusual_points,
)
from scoring.rules.hands import HandResult, WinResult

USAGE = "usage: python -m scoring {hanchan|hand|game} < input.json"


class Malformed(Exception):
    """Input that is not the JSON shape docs/cli.md describes (exit status 1)."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.field = code, message, field


def number(value: Fraction | int) -> float:
    """Tournament points as a JSON number: exact decimals print as such (27.3, 15.0).

    >>> number(Fraction(273, 10)), number(Fraction(-15)), number(Fraction(-327, 10))
    (27.3, -15.0, -32.7)
    """
    return float(Fraction(value))


# --- input checking ------------------------------------------------------------------------


def _read(data: bytes) -> object:
    """The input document: UTF-8 text holding one JSON value (RFC 8259 §8.1).

    Read as bytes, not through the locale's encoding, which under cp1252 (Windows) took
    "Émile" for another player than "émile" and let invalid bytes through to stdout.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Malformed(
            "json_invalid",
            f"The input is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start}); save it as UTF-8.",
        ) from exc
    try:
        doc = json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_not_a_number,
            parse_float=_finite,
            parse_int=_whole_number,
        )
    except json.JSONDecodeError as exc:
        raise Malformed("json_invalid", f"Not valid JSON: {exc}") from exc
    except RecursionError as exc:
        # The parser recurses once per level: nesting deeper than Python's stack.
        raise Malformed(
            "json_invalid",
            f"Not valid input: lists or objects nested more than {MAX_DEPTH} levels deep.",
        ) from exc
    _check_document(doc)
    return doc


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Refuse an object naming a key twice (RFC 8259 §4: names SHOULD be unique): Python kept
    the last value without a word, so a seat with "points" written twice was scored on the
    second. The seating CLI refuses a player written twice in its files likewise."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise Malformed(
                "json_invalid",
                f"Not valid input: the key {key!r} is written twice in one object; keep one.",
            )
        out[key] = value
    return out


def _not_a_number(name: str) -> NoReturn:
    """NaN, Infinity and -Infinity: Python's parser takes them, JSON has no such numbers, and
    echoed into an error's params they made stdout itself invalid JSON."""
    raise Malformed("json_invalid", f"Not valid JSON: {name} is not a JSON number; write a number.")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent, refused when no double holds it (1e400)."""
    value = float(text)
    if not math.isfinite(value):
        raise Malformed("json_invalid", f"Not valid JSON: {text} is too large a number.")
    return value


#: The largest whole number a JSON number carries exactly from one program to another
#: (IEEE 754 doubles: RFC 8259 §6, RFC 7493 §2.2).
MAX_EXACT_INT = 2**53 - 1


@dataclass(frozen=True)
class _LongNumber:
    """A whole number written with more digits than MAX_EXACT_INT: kept as its length, as
    int() stops at 4 300 digits with a traceback."""

    digits: int


def _whole_number(text: str) -> int | _LongNumber:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= len(str(MAX_EXACT_INT)) else _LongNumber(digits)


#: Nesting the CLI reads: its documents go 3 levels deep (hands[0].riichi[0]); deeper input
#: made the rules' own checks (a comparison, a repr) overflow Python's stack.
MAX_DEPTH = 32


def _check_document(doc: object) -> None:
    """Refuse what parses but cannot be handled: nesting deeper than :data:`MAX_DEPTH`; a
    whole number beyond ±MAX_EXACT_INT (1e400 points overflowed the float written out, 1e20
    was rounded); and a string that is not Unicode text (a \\u escape of half a surrogate
    pair, "\\ud800", parses, but no UTF-8 output can carry it back)."""
    stack: list[tuple[str | None, object, int]] = [(None, doc, 0)]
    while stack:
        path, value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Malformed(
                "json_invalid",
                f"Not valid input: lists or objects nested more than {MAX_DEPTH} levels deep.",
                path,
            )
        if isinstance(value, dict):
            for key in value:
                _check_string(key, path)
            stack.extend(
                (f"{path}.{k}" if path else k, v, depth + 1) for k, v in reversed(value.items())
            )
        elif isinstance(value, list):
            stack.extend(
                (f"{path or ''}[{i}]", v, depth + 1) for i, v in reversed(list(enumerate(value)))
            )
        elif isinstance(value, str):
            _check_string(value, path)
        elif isinstance(value, _LongNumber) or (
            isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_EXACT_INT
        ):
            got = (
                f"a number of {value.digits:,} digits"
                if isinstance(value, _LongNumber)
                else f"{value:,}"
            )
            raise Malformed(
                "input_type",
                f"{path or 'The input'} must be a whole number between {-MAX_EXACT_INT:,} and "
                f"{MAX_EXACT_INT:,}, what a JSON number carries exactly; got {got}.",
                path,
            )


def _check_string(text: str, field: str | None) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise Malformed(
            "json_invalid",
            f"Not valid text: the escape {text[exc.start]!a} is half of a surrogate pair; "
            "write the character itself, or both halves of its pair.",
            field,
        ) from exc


_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "int?": (
        lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
        "a whole number or null",
    ),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "str?": (lambda v: v is None or isinstance(v, str), "a string or null"),
    "seats": (
        lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
        'a list of seats ("E", "S", "W", "N")',
    ),
    "object": (lambda v: isinstance(v, dict), "an object"),
    "list": (lambda v: isinstance(v, list), "a list"),
}


def _take(
    obj: object, schema: Mapping[str, str], required: tuple[str, ...], where: str
) -> dict[str, Any]:
    """Check ``obj`` against ``schema`` (key -> type name); return the present keys."""
    prefix = f"{where}." if where else ""
    if not isinstance(obj, dict):
        # The whole document has no path: field null, as for input that is not JSON.
        raise Malformed(
            "input_type", f"{where or 'The input'} must be a JSON object.", where or None
        )
    for key in obj:
        if key not in schema:
            raise Malformed(
                "key_unknown",
                f"Unknown key {key!r}; expected some of: {', '.join(schema)}.",
                f"{prefix}{key}",
            )
    for key in required:
        if key not in obj:
            raise Malformed("key_missing", f"Missing key {key!r}.", f"{prefix}{key}")
    out = {}
    for key, value in obj.items():
        check, expected = _TYPES[schema[key]]
        if not check(value):
            raise Malformed(
                "input_type", f"{key!r} must be {expected}; got {value!r}.", f"{prefix}{key}"
            )
        out[key] = tuple(value) if schema[key] == "seats" else value
    return out


def _ruleset(doc: dict[str, Any]):
    return resolve_ruleset(doc["ruleset"], doc.get("options"))


_HAND_KEYS = {
    "result": "str",
    "winner": "str?",
    "loser": "str?",
    "han": "int?",
    "fu": "int?",
    "yakuman": "int",
    "pao": "str?",
    "tenpai": "seats",
    "player": "str?",
    "offender": "str?",
    "riichi": "seats",
    "ron_claimants": "seats",
    "dead_hand": "seats",
    "noten_riichi": "seats",
    "wins": "list",
}
_WIN_KEYS = {"winner": "str", "han": "int?", "fu": "int?", "yakuman": "int", "pao": "str?"}


def _hand(
    obj: object, schema: Mapping[str, str], required: tuple[str, ...], where: str
) -> dict[str, Any]:
    """A hand's keys, checked; each of several winners on one discard a :class:`Win`."""
    d = _take(obj, schema, required, where)
    prefix = f"{where}." if where else ""
    if "wins" in d:
        d["wins"] = tuple(
            Win(**_take(w, _WIN_KEYS, ("winner",), f"{prefix}wins[{i}]"))
            for i, w in enumerate(d["wins"])
        )
    return d


def _seat_map(values) -> dict[str, Any]:
    return dict(zip(SEATS, values, strict=True))


def _hand_json(res: HandResult) -> dict[str, Any]:
    return {
        "result": res.result,
        "winner": res.winner,
        "limit": res.limit,
        "base_points": res.base_points,
        "han": res.han,
        "fu": res.fu,
        "yakuman": res.yakuman,
        "payments": _seat_map(res.payments),
        "riichi_collected": res.riichi_collected,
        "riichi_returned": list(res.riichi_returned),
        "chombo": list(res.chombo),
        "penalty_points": _seat_map(res.penalty_points),
        "table_penalty": _seat_map(res.table_penalty),
        "redeal": res.redeal,
        "dealer_retains": res.dealer_retains,
        "next_honba": res.next_honba,
        "riichi_sticks_after": res.riichi_sticks_after,
        **({"wins": [_win_json(w) for w in res.wins]} if res.wins else {}),
    }


def _win_json(win: WinResult) -> dict[str, Any]:
    return {
        "winner": win.winner,
        "limit": win.limit,
        "base_points": win.base_points,
        "han": win.han,
        "fu": win.fu,
        "yakuman": win.yakuman,
        "received": win.received,
        "riichi_collected": win.riichi_collected,
    }


# --- commands ------------------------------------------------------------------------------


def cmd_hanchan(doc: object) -> dict[str, Any]:
    d = _take(
        doc,
        {"ruleset": "str", "options": "object", "seats": "list", "riichi_sticks_left": "int"},
        ("ruleset", "seats"),
        "",
    )
    seat_keys = {
        "player": "str",
        "points": "int",
        "chombo": "int",
        "late_minutes": "int",
        "substitute": "bool",
        "absent": "bool",
    }
    seats = [
        SeatSheet(**_take(s, seat_keys, ("player", "points"), f"seats[{i}]"))
        for i, s in enumerate(d["seats"])
    ]
    rs = _ruleset(d)
    res = score_hanchan(rs, seats, d.get("riichi_sticks_left", 0))
    out: dict[str, Any] = {
        "ruleset": rs.key,
        "seats": [
            {
                "seat": s.seat,
                "player": s.player,
                "points": s.points,
                "place": s.place,
                "uma": number(s.uma),
                "oka": number(s.oka),
                "table_score": number(s.table_score),
                "penalty": number(s.penalty),
                "score": number(s.score),
                "ranked": s.ranked,
            }
            for s in res.seats
        ],
        "riichi_sticks_left": res.riichi_sticks_left,
    }
    warnings = unusual_points(rs, seats)
    if warnings:
        out["warnings"] = [warning.info.as_json() for warning in warnings]
    return out


def cmd_hand(doc: object) -> dict[str, Any]:
    schema = {
        "ruleset": "str",
        "options": "object",
        "dealer": "str",
        "honba": "int",
        "riichi_sticks": "int",
        **_HAND_KEYS,
    }
    d = _hand(doc, schema, ("ruleset", "result"), "")
    rs = _ruleset(d)
    d.pop("ruleset")
    d.pop("options", None)
    res = score_hand(rs, Hand(**d))
    return {"ruleset": rs.key, **_hand_json(res)}


def cmd_game(doc: object) -> dict[str, Any]:
    d = _take(doc, {"ruleset": "str", "options": "object", "hands": "list"}, ("ruleset",), "")
    schema = {
        **_HAND_KEYS,
        "dealer": "str",
        "honba": "int",
        "riichi_sticks": "int",
        "time_up": "bool",
    }
    hands = [
        Hand(**_hand(h, schema, ("result",), f"hands[{i}]"))
        for i, h in enumerate(d.get("hands", []))
    ]
    rs = _ruleset(d)
    g = replay_game(rs, hands)
    return {
        "ruleset": rs.key,
        "hands": [
            {
                "index": r.index,
                "round": r.round,
                "dealer": r.dealer,
                "honba": r.honba,
                "riichi_sticks_before": r.riichi_sticks_before,
                **{k: v for k, v in _hand_json(r.result).items() if k != "riichi_sticks_after"},
                "deltas": _seat_map(r.deltas),
                "points_after": list(r.points_after),
                "riichi_sticks_after": r.riichi_sticks_after,
                "ended": r.ended,
            }
            for r in g.hands
        ],
        "final_points": list(g.final_points),
        "riichi_sticks_left": g.riichi_sticks_left,
        "ended": g.ended,
        "chombo": _seat_map(g.chombo),
        "penalty_points": _seat_map(g.penalty_points),
        "next_round": g.next_round,
        "next_dealer": g.next_dealer,
        "next_honba": g.next_honba,
    }


COMMANDS = {"hanchan": cmd_hanchan, "hand": cmd_hand, "game": cmd_game}


def _write(stdout: BinaryIO, doc: dict[str, Any]) -> None:
    stdout.write((json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8"))


def main(
    argv: list[str] | None = None, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> int:
    """Run one command; return the exit status (0 ok, 1 malformed, 2 invalid)."""
    argv = sys.argv[1:] if argv is None else argv
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout.buffer if stdout is None else stdout
    if len(argv) != 1 or argv[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        _write(
            stdout,
            {
                "errors": [
                    {
                        "code": "command_unknown",
                        "message": f"Give one command among hanchan, hand, game. {USAGE}",
                        "field": None,
                    }
                ]
            },
        )
        return 1
    try:
        out = COMMANDS[argv[0]](_read(stdin.read()))
    except Malformed as exc:
        _write(stdout, {"errors": [{"code": exc.code, "message": exc.message, "field": exc.field}]})
        return 1
    except RulesErrors as exc:
        _write(stdout, {"errors": [e.info.as_json() for e in exc.errors]})
        return 2
    except RulesError as exc:
        _write(stdout, {"errors": [exc.info.as_json()]})
        return 2
    _write(stdout, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
