"""JSON command line of the seating generator (contract: docs/cli.md).

    python -m seating --players 32 --rounds 8 [--seed 7] [--teams teams.json]
                      [--time-limit 30] [--priority opponents|tables]
                      [--fixed-tables fixed.json] [--history history.json]

Players are numbered 1..N; a history may also name players who have left. Output on stdout
is one JSON document in UTF-8, ``{"rounds", "metrics"}``; ``rounds[r][t]`` is table t+1 of
new round r+1 in seat order E, S, W, N. Exit 2 (with ``{"errors": [...]}``) when the input
is understood but cannot be seated, e.g. a player count that is not a multiple of four; exit 1
for malformed input. No Django import here.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from typing import Any, NoReturn

from seating.engine import SeatingError, SeatingRequest, plan_seating
from seating.engine.planner import validate_player_count


class _InputError(Exception):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _InputError(message)


def _emit(doc: dict[str, Any]) -> None:
    """Write UTF-8 whatever the locale (docs/cli.md): under cp1252 a file name like
    "日本.json" in an error ended in a UnicodeEncodeError. Bytes of a file name that are not
    UTF-8 (Python keeps them as lone surrogates) become "?", so stdout stays UTF-8."""
    sys.stdout.buffer.write((json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8", "replace"))


def _fail(status: int, code: str, message: str, field: str | None, **params: Any) -> int:
    _emit({"errors": [{"code": code, "message": message, "field": field, "params": params}]})
    return status


def _duplicate_player(player: Any, field: str) -> SeatingError:
    return SeatingError(
        "duplicate_players",
        f"{field}: player {player} appears twice.",
        field=field,
        players=[player],
    )


#: A player number as written in a file's keys; ``int`` alone would also read "1_0" as 10,
#: " 2" as 2 and other scripts' digits (and fail on "²", which ``str.isdigit`` accepts).
_PLAYER_NUMBER = re.compile(r"-?[0-9]+")


def _load_json(path: str, field: str) -> Any:
    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise _duplicate_player(int(key) if _PLAYER_NUMBER.fullmatch(key) else key, field)
            seen[key] = value
        return seen

    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh, object_pairs_hook=unique_keys)
    except OSError as exc:
        raise _InputError(f"cannot read {path}: {exc.strerror}", field) from exc
    except json.JSONDecodeError as exc:
        raise _InputError(f"{path} is not valid JSON: {exc.msg}", field) from exc
    except UnicodeDecodeError as exc:
        raise _InputError(f"{path} is not UTF-8 text", field) from exc
    except RecursionError as exc:
        raise _InputError(f"{path} nests lists or objects too deeply to read", field) from exc
    except SeatingError:
        raise  # a player written twice (a ValueError too): exit 2 with the player's number
    except ValueError as exc:
        # int() stops at 4 300 digits; its message says to call sys.set_int_max_str_digits().
        raise _InputError(f"{path} has a number too long to read", field) from exc


def _player_number(key: str, field: str) -> int:
    """A key written as a whole number ("7", "07", "-1"), not one ``int`` merely accepts."""
    if not _PLAYER_NUMBER.fullmatch(key):
        raise _InputError(f"{field}: {key!r} is not a player number", field)
    try:
        return int(key)
    except ValueError as exc:  # more than 4 300 digits
        raise _InputError(
            f"{field}: a key of {len(key):,} digits is not a player number", field
        ) from exc


#: How an error message names the value a file gives each player.
_VALUE_NAMES = {str: "a team name (text)", int: "a table number (a whole number)"}


def _player_map(raw: Any, n: int, field: str, value_type: type) -> dict[int, Any]:
    if not isinstance(raw, dict):
        raise _InputError(f"{field} must be a JSON object mapping player number to value", field)
    out: dict[int, Any] = {}
    for key, value in raw.items():
        p = _player_number(key, field)
        if not isinstance(value, value_type) or isinstance(value, bool):
            raise _InputError(
                f"{field}: the value for player {p} must be {_VALUE_NAMES[value_type]}", field
            )
        if not 1 <= p <= n:
            raise SeatingError(
                "unknown_player",
                f"{field}: player {p} is not between 1 and {n}.",
                field=field,
                player=p,
                players=n,
            )
        if p in out:
            raise _duplicate_player(p, field)
        out[p] = value
    return out


def _history(raw: Any) -> tuple:
    """Check the types only: a table that is not four players is the engine's
    ``invalid_history`` (exit 2), with the table it names."""
    ok = isinstance(raw, list) and all(
        isinstance(rnd, list)
        and all(
            isinstance(t, list) and all(isinstance(p, int) and not isinstance(p, bool) for p in t)
            for t in rnd
        )
        for rnd in raw
    )
    if not ok:
        raise _InputError(
            "history must be a list of rounds, each a list of tables of 4 ids", "history"
        )
    return tuple(tuple(tuple(t) for t in rnd) for rnd in raw)


def _option_field(option: str | None) -> str | None:
    """The error field of an option, spelled as the engine's fields: --time-limit -> time_limit."""
    return option.lstrip("-").replace("-", "_") if option else None


def _require(args: argparse.Namespace, *names: str) -> None:
    """Required options checked here rather than by argparse, so the error names the field."""
    for name in names:
        if getattr(args, name) is None:
            raise _InputError(f"--{_option_field(name)} is required", name)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    parser = _Parser(
        prog="python -m seating",
        usage="%(prog)s --players N --rounds R [options]",
        description=__doc__.splitlines()[0],
        # A value argparse cannot convert raises ArgumentError, which names the option.
        exit_on_error=False,
    )
    parser.add_argument("--players", type=int, help="number of players N (required)")
    parser.add_argument("--rounds", type=int, help="rounds to plan (required)")
    parser.add_argument("--seed", type=int, default=0, help="same seed, same plan")
    parser.add_argument("--teams", help="JSON file: player number -> team name")
    parser.add_argument("--fixed-tables", help="JSON file: player number -> table number")
    parser.add_argument("--history", help="JSON file: rounds already played")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds, at most")
    # No argparse ``choices``: an unknown priority is the engine's invalid_priority (exit 2).
    parser.add_argument("--priority", default="opponents", metavar="{opponents,tables}")
    try:
        args = parser.parse_args(argv)
        _require(args, "players", "rounds")
        # Before players 1..N are listed: a huge N would exhaust the memory.
        validate_player_count(args.players)
        if not math.isfinite(args.time_limit):
            raise _InputError("--time-limit must be a number of seconds", "time_limit")
        n = args.players
        teams = _player_map(_load_json(args.teams, "teams"), n, "teams", str) if args.teams else {}
        fixed = (
            _player_map(_load_json(args.fixed_tables, "fixed_tables"), n, "fixed_tables", int)
            if args.fixed_tables
            else {}
        )
        history = _history(_load_json(args.history, "history")) if args.history else ()
    except argparse.ArgumentError as exc:
        return _fail(1, "malformed_input", str(exc), _option_field(exc.argument_name))
    except _InputError as exc:
        return _fail(1, "malformed_input", exc.message, exc.field)
    except SeatingError as exc:
        return _fail(2, exc.code, exc.message, exc.field, **exc.params)

    request = SeatingRequest(
        players=tuple(range(1, n + 1)),
        rounds=args.rounds,
        seed=args.seed,
        teams=teams,
        fixed_tables=fixed,
        priority=args.priority,
        time_limit=args.time_limit,
        history=history,
    )
    try:
        plan = plan_seating(request)
    except SeatingError as exc:
        return _fail(2, exc.code, exc.message, exc.field, **exc.params)
    _emit(
        {
            "rounds": [[list(table) for table in rnd] for rnd in plan.rounds],
            "metrics": plan.metrics.as_json(),
        }
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
