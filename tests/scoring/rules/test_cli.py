"""The JSON CLI through a subprocess: docs/cli.md contract, exit codes, docs/rules.md examples."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def run(command: str, payload) -> tuple[int, dict]:
    data = payload if isinstance(payload, str) else json.dumps(payload)
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", command],
        input=data,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    return proc.returncode, json.loads(proc.stdout)


def run_bytes(command: str, data: bytes, **env: str) -> tuple[int, bytes]:
    """The CLI fed raw bytes, with extra environment variables; stdout kept as bytes."""
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", command],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )
    return proc.returncode, proc.stdout


def seats(*points, **extra):
    out = [{"player": name, "points": p} for name, p in zip("ABCD", points, strict=False)]
    for seat, fields in extra.items():
        out["ESWN".index(seat)].update(fields)
    return out


def assert_error_shape(doc):
    assert set(doc) == {"errors"}
    assert doc["errors"]
    for e in doc["errors"]:
        assert {"code", "message", "field"} <= set(e)
        assert isinstance(e["message"], str)
        assert e["message"]


def test_hanchan_contract_example():
    # docs/cli.md example: Alice 42 300, 1st -> (42 300 - 30 000)/1 000 + 15 = 27.3
    code, out = run(
        "hanchan",
        {
            "ruleset": "wrc2015",
            "seats": [
                {
                    "player": "Alice",
                    "points": 42300,
                    "chombo": 0,
                    "late_minutes": 0,
                    "substitute": False,
                    "absent": False,
                },
                {"player": "Bob", "points": 31000},
                {"player": "Chloe", "points": 27700},
                {"player": "Dan", "points": 18000},
            ],
            "riichi_sticks_left": 1,
        },
    )
    assert code == 0
    alice = out["seats"][0]
    assert alice == {
        "seat": "E",
        "player": "Alice",
        "points": 42300,
        "place": 1,
        "uma": 15.0,
        "oka": 0.0,
        "table_score": 27.3,
        "penalty": 0.0,
        "score": 27.3,
        "ranked": True,
    }
    assert [s["score"] for s in out["seats"]] == [27.3, 6.0, -7.3, -27.0]


def test_rules_7_1_wrc_example():
    # [WRC 2015 §7.1]: 40 000 and first -> 25; next hanchan 20-point penalty at
    # 30 000 -> global 5
    code, out = run("hanchan", {"ruleset": "wrc2015", "seats": seats(40000, 30000, 30000, 20000)})
    assert code == 0
    assert out["seats"][0]["score"] == 25
    code, out = run(
        "hanchan",
        {"ruleset": "wrc2015", "seats": seats(30000, 30000, 30000, 30000, E={"chombo": 1})},
    )
    assert code == 0
    assert out["seats"][0]["penalty"] == -20
    assert 25 + out["seats"][0]["score"] == 5


def test_rules_7_1_tie_example():
    # [WRC 2015 §5.9.2]: two tied 1st get +10 each
    code, out = run("hanchan", {"ruleset": "wrc2015", "seats": seats(35000, 35000, 28000, 22000)})
    assert code == 0
    assert [(s["place"], s["uma"]) for s in out["seats"]] == [(1, 10), (1, 10), (3, -5), (4, -15)]


def test_rules_7_2_oran_sheet():
    # [ORAN-1 §3.4.1]; docs/rules.md §7.2
    code, out = run(
        "hanchan",
        {"ruleset": "oran2015", "seats": seats(14600, 22300, 36900, 46200, S={"chombo": 1})},
    )
    assert code == 0
    assert [s["score"] for s in out["seats"]] == [-20.4, -32.7, 11.9, 31.2]
    assert [s["table_score"] for s in out["seats"]] == [-20.4, -22.7, 11.9, 31.2]
    assert [s["penalty"] for s in out["seats"]] == [0, -10, 0, 0]
    assert [s["place"] for s in out["seats"]] == [3, 4, 2, 1]


@pytest.mark.parametrize(
    ("ruleset", "expected"),
    [("wrc2015", 8000), ("oran2015", 7700), ("mahjongsoul", 7700)],  # docs/rules.md §4.2
)
def test_rules_4_2_four_han_thirty_fu(ruleset, expected):
    code, out = run(
        "hand",
        {
            "ruleset": ruleset,
            "dealer": "E",
            "result": "ron",
            "winner": "S",
            "loser": "W",
            "han": 4,
            "fu": 30,
        },
    )
    assert code == 0
    assert out["payments"] == {"E": 0, "S": expected, "W": -expected, "N": 0}
    assert out["limit"] == ("mangan" if ruleset == "wrc2015" else None)


def test_rules_4_2_dealer_tsumo_counters_sticks():
    # docs/rules.md §4.2: 1 300 from each, +2 000 sticks -> dealer +5 900
    code, out = run(
        "hand",
        {
            "ruleset": "wrc2015",
            "dealer": "E",
            "result": "tsumo",
            "winner": "E",
            "han": 2,
            "fu": 30,
            "honba": 3,
            "riichi_sticks": 2,
        },
    )
    assert code == 0
    assert out["payments"] == {"E": 3900, "S": -1300, "W": -1300, "N": -1300}
    assert out["payments"]["E"] + out["riichi_collected"] == 5900
    assert out["dealer_retains"] is True
    assert out["next_honba"] == 4


def test_rules_4_2_non_dealer_ron_counter_sticks():
    # docs/rules.md §4.2: 5 200 + 300 from the discarder, + 3 000
    code, out = run(
        "hand",
        {
            "ruleset": "wrc2015",
            "dealer": "E",
            "result": "ron",
            "winner": "S",
            "loser": "W",
            "han": 3,
            "fu": 40,
            "honba": 1,
            "riichi_sticks": 3,
            "pao": None,
        },
    )
    assert code == 0
    assert out["payments"]["S"] == 5500
    assert out["riichi_collected"] == 3000
    assert out["next_honba"] == 0


@pytest.mark.parametrize(
    ("hand", "payments"),
    [
        # docs/rules.md §6.2 samples: non-dealer tsumo 3 han 30 fu = 1 000 / 2 000
        (
            {"result": "tsumo", "winner": "S", "han": 3, "fu": 30},
            {"E": -2000, "S": 4000, "W": -1000, "N": -1000},
        ),
        # dealer ron 2 han 25 fu = 2 400
        (
            {"result": "ron", "winner": "E", "loser": "N", "han": 2, "fu": 25},
            {"E": 2400, "S": 0, "W": 0, "N": -2400},
        ),
        # WRC kiriage: dealer tsumo 3 han 60 fu = 4 000 each
        (
            {"result": "tsumo", "winner": "E", "han": 3, "fu": 60},
            {"E": 12000, "S": -4000, "W": -4000, "N": -4000},
        ),
        # WRC 2015 §5.7.2: two tenpai, 1 500 each way
        ({"result": "draw", "tenpai": ["E", "N"]}, {"E": 1500, "S": -1500, "W": -1500, "N": 1500}),
        # WRC 2015 §6.2: pao on tsumo: the liable player pays 32 000
        (
            {"result": "tsumo", "winner": "S", "yakuman": 1, "pao": "N"},
            {"E": 0, "S": 32000, "W": 0, "N": -32000},
        ),
    ],
)
def test_rules_6_2_and_5_1_samples(hand, payments):
    code, out = run("hand", {"ruleset": "wrc2015", "dealer": "E", **hand})
    assert code == 0
    assert out["payments"] == payments


def test_chombo_output():
    # docs/cli.md: zero payments, deposits back, penalty; [WRC 2015 §7.1] 20 points
    code, out = run(
        "hand",
        {
            "ruleset": "wrc2015",
            "dealer": "E",
            "result": "chombo",
            "offender": "N",
            "riichi": ["E", "W"],
        },
    )
    assert code == 0
    assert out["riichi_returned"] == ["E", "W"]
    assert out["penalty_points"]["N"] == -20
    assert out["redeal"] is True
    assert set(out["payments"].values()) == {0}


def test_game_contract_example():
    # docs/cli.md game example: S wins 3 900 from W in E1 (3 han 30 fu, docs/rules.md §6.2)
    code, out = run(
        "game",
        {
            "ruleset": "wrc2015",
            "hands": [{"result": "ron", "winner": "S", "loser": "W", "han": 3, "fu": 30}],
        },
    )
    assert code == 0
    hand = out["hands"][0]
    assert (hand["index"], hand["round"], hand["dealer"], hand["honba"]) == (0, "E1", "E", 0)
    assert hand["payments"] == {"E": 0, "S": 3900, "W": -3900, "N": 0}
    assert hand["points_after"] == [30000, 33900, 26100, 30000]
    assert out["final_points"] == [30000, 33900, 26100, 30000]
    assert out["riichi_sticks_left"] == 0
    assert out["ended"] is None
    assert out["chombo"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_game_feeds_hanchan():
    # docs/cli.md: final_points, riichi_sticks_left and chombo are ready for `hanchan`
    hands = [
        {"result": "draw", "tenpai": ["S"], "riichi": ["S"]},
        {"result": "chombo", "offender": "W"},
    ]
    code, game = run("game", {"ruleset": "wrc2015", "hands": hands})
    assert code == 0
    sheet = [
        {"player": n, "points": p, "chombo": game["chombo"][s]}
        for n, p, s in zip("ABCD", game["final_points"], "ESWN", strict=True)
    ]
    code, out = run(
        "hanchan",
        {"ruleset": "wrc2015", "seats": sheet, "riichi_sticks_left": game["riichi_sticks_left"]},
    )
    assert code == 0
    assert out["seats"][2]["penalty"] == -20


def test_game_error_names_the_hand():
    hands = [{"result": "draw"}] * 5 + [
        {"result": "ron", "winner": "E", "loser": "S", "han": 1, "fu": 20}
    ]
    code, out = run("game", {"ruleset": "wrc2015", "hands": hands})
    assert code == 2
    assert_error_shape(out)
    assert out["errors"][0]["field"] == "hands[5].fu"
    assert out["errors"][0]["code"] == "ron_20_fu"


def test_exit_2_points_sum():
    code, out = run(
        "hanchan",
        {"ruleset": "wrc2015", "seats": seats(42000, 31000, 28000, 18000), "riichi_sticks_left": 2},
    )
    assert code == 2
    assert_error_shape(out)
    assert out["errors"][0]["code"] == "points_sum"
    assert "119,000" in out["errors"][0]["message"]


@pytest.mark.parametrize(
    ("command", "payload", "code"),
    [
        ("hanchan", "{not json", "json_invalid"),
        ("hanchan", [], "input_type"),
        ("hanchan", {"ruleset": "wrc2015", "seats": seats(1, 2, 3, "4")}, "input_type"),
        ("hanchan", {"ruleset": "wrc2015"}, "key_missing"),
        ("hanchan", {"ruleset": "wrc2015", "seats": [], "colour": 1}, "key_unknown"),
        ("hand", {"ruleset": "wrc2015", "result": "ron", "han": "3"}, "input_type"),
        (
            "game",
            {"ruleset": "wrc2015", "hands": [{"result": "draw", "tenpai": "E"}]},
            "input_type",
        ),
        ("seat", {}, "command_unknown"),
    ],
)
def test_exit_1_malformed(command, payload, code):
    status, out = run(command, payload)
    assert status == 1
    assert_error_shape(out)
    assert out["errors"][0]["code"] == code


@pytest.mark.parametrize(
    ("payload", "field"),
    [("{not json", None), ([], None), ({"ruleset": "wrc2015", "seats": [[]]}, "seats[0]")],
)
def test_malformed_field_names_the_input_or_is_null(payload, field):
    # docs/cli.md: `field` points at the offending input; the whole document has no path, so a
    # document that is not an object says null, like one that is not JSON (it said "").
    status, out = run("hanchan", payload)
    assert status == 1
    assert out["errors"][0]["field"] == field


@pytest.mark.parametrize(
    ("command", "payload", "code", "field"),
    [
        (
            "hanchan",
            {"ruleset": "wrc2015", "seats": seats(30000, 30000, 30000)},
            "seats_count",
            "seats",
        ),
        (
            "hanchan",
            {"ruleset": "nope", "seats": seats(30000, 30000, 30000, 30000)},
            "ruleset_unknown",
            "ruleset",
        ),
        (
            "hanchan",
            {
                "ruleset": "wrc2015",
                "options": {"kiriag": True},
                "seats": seats(30000, 30000, 30000, 30000),
            },
            "option_unknown",
            "options.kiriag",
        ),
        (
            "hand",
            {"ruleset": "wrc2015", "result": "nagashi", "player": "W"},
            "nagashi_not_in_ruleset",
            "result",
        ),
        (
            "hand",
            {
                "ruleset": "wrc2015",
                "result": "ron",
                "winner": "S",
                "loser": "W",
                "han": 1,
                "fu": 25,
            },
            "one_han_25_fu",
            "han",
        ),
        (
            # docs/cli.md `hand`: a yakuman count replaces han/fu, so both is refused
            "hand",
            {
                "ruleset": "wrc2015",
                "result": "ron",
                "winner": "S",
                "loser": "W",
                "han": 3,
                "fu": 40,
                "yakuman": 1,
            },
            "yakuman_with_han_fu",
            "han",
        ),
        (
            "game",
            {
                "ruleset": "wrc2015",
                "hands": [{"result": "tsumo", "winner": "S", "fu": 30, "yakuman": 1}],
            },
            "yakuman_with_han_fu",
            "hands[0].fu",
        ),
    ],
)
def test_exit_2_invalid(command, payload, code, field):
    status, out = run(command, payload)
    assert status == 2
    assert_error_shape(out)
    assert (out["errors"][0]["code"], out["errors"][0]["field"]) == (code, field)


def test_options_override_any_parameter():
    # docs/cli.md: "options" overrides any rule-set parameter
    code, out = run(
        "hand",
        {
            "ruleset": "oran2015",
            "options": {"kiriage": True},
            "result": "ron",
            "winner": "S",
            "loser": "W",
            "han": 4,
            "fu": 30,
        },
    )
    assert code == 0
    assert out["payments"]["S"] == 8000


def _four(**first):
    return [{"player": "A", "points": 30000, **first}, *seats(0, 30000, 30000, 30000)[1:]]


def _ron(**keys):
    return {
        "ruleset": "wrc2015",
        "result": "ron",
        "winner": "S",
        "loser": "W",
        "han": 1,
        "fu": 30,
        **keys,
    }


@pytest.mark.parametrize(
    ("command", "payload", "code", "params"),
    [
        (
            "hanchan",
            {"ruleset": "foo", "seats": _four()},
            "ruleset_unknown",
            {
                "ruleset": "foo",
                "choices": ["wrc2015", "oran2015", "mahjongsoul", "ema2016", "ema2025"],
            },
        ),
        (
            "hanchan",
            {"ruleset": "wrc2015", "seats": _four(chombo=-1)},
            "count_negative",
            {"value": -1},
        ),
        (
            "hanchan",
            {"ruleset": "wrc2015", "seats": _four(), "riichi_sticks_left": -2},
            "count_negative",
            {"value": -2},
        ),
        (
            "hand",
            _ron(honba=-1),
            "count_negative",
            {"value": -1},
        ),
        ("hand", {"ruleset": "wrc2015", "result": "win"}, "result_unknown", {"value": "win"}),
        (
            "hand",
            _ron(winner="X"),
            "seat_unknown",
            {"value": "X"},
        ),
        (
            "hand",
            {"ruleset": "wrc2015", "options": {"kiriage": "yes"}, "result": "draw"},
            "option_type",
            {"option": "kiriage", "expected": "true or false", "value": "yes"},
        ),
        (
            "hand",
            {"ruleset": "wrc2015", "options": {"tie_mode": "coin"}, "result": "draw"},
            "option_choice",
            {"option": "tie_mode", "choices": ["split", "seat_order"], "value": "coin"},
        ),
    ],
)
def test_error_params_are_the_values_given_not_their_repr(command, payload, code, params):
    # docs/cli.md error shape: a number stays a JSON number (-1, not "-1") and a token stays the
    # token ("foo", not "'foo'"), so a script can read params without parsing Python.
    status, out = run(command, payload)
    assert status == 2
    assert (out["errors"][0]["code"], out["errors"][0]["params"]) == (code, params)


def _sheet_bytes(first: str, second: str) -> bytes:
    sheet = {"ruleset": "wrc2015", "seats": seats(42300, 31000, 27700, 18000)}
    sheet["seats"][0]["player"], sheet["seats"][1]["player"] = first, second
    sheet["riichi_sticks_left"] = 1
    return json.dumps(sheet, ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252"])
def test_input_is_read_as_utf8_whatever_the_locale(encoding):
    # docs/cli.md: UTF-8 in and out. Read through a cp1252 locale (Windows pipes), "Émile" and
    # "émile" were two players and the sheet was scored; in UTF-8 they are one (docs/rules.md §7.4).
    status, stdout = run_bytes("hanchan", _sheet_bytes("Émile", "émile"), PYTHONIOENCODING=encoding)
    assert status == 2
    assert json.loads(stdout.decode("utf-8"))["errors"][0]["code"] == "player_repeated"


def test_names_outside_the_locale_pass_through():
    # "Łukasz" is c5 81 in UTF-8, and 0x81 has no character in cp1252: the sheet was refused
    # as "Not valid JSON: 'charmap' codec can't decode byte 0x81".
    data = _sheet_bytes("Łukasz", "山田")
    status, stdout = run_bytes("hanchan", data, PYTHONIOENCODING="cp1252")
    assert status == 0
    players = [s["player"] for s in json.loads(stdout.decode("utf-8"))["seats"][:2]]
    assert players == ["Łukasz", "山田"]


def test_input_that_is_not_utf8_is_refused_not_echoed():
    # A Latin-1 "é" went through the sheet and came out as a raw 0xE9 byte: stdout was not
    # UTF-8 any more. Now the input is malformed (exit 1) and stdout stays UTF-8 JSON.
    data = _sheet_bytes("Zoé", "B").replace("é".encode(), "é".encode("latin-1"))
    status, stdout = run_bytes("hanchan", data)
    assert status == 1
    (error,) = json.loads(stdout.decode("utf-8"))["errors"]
    assert error["code"] == "json_invalid"
    assert "not UTF-8" in error["message"]


def test_half_a_surrogate_pair_is_malformed_with_its_field():
    # "\ud800" is valid JSON syntax but not text: writing it back ended in a UnicodeEncodeError
    # traceback with nothing on stdout.
    status, stdout = run_bytes("hanchan", _sheet_bytes("X", "B").replace(b'"X"', b'"\\ud800"'))
    assert status == 1
    (error,) = json.loads(stdout.decode("utf-8"))["errors"]
    assert (error["code"], error["field"]) == ("json_invalid", "seats[0].player")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        # Deeper than the parser's recursion: RecursionError while decoding.
        ("[" * 100_000 + "]" * 100_000, None),
        # Parsed, then the option check overflowed the stack comparing the lists.
        (
            '{"ruleset": "wrc2015", "result": "draw", "options": {"uma": %s}}'
            % ("[" * 500 + "]" * 500),
            "options.uma" + "[0]" * 31,
        ),
    ],
)
def test_nesting_too_deep_is_malformed_input_not_a_traceback(text, field):
    # docs/cli.md: malformed input exits 1 with the error shape; both ended in a RecursionError
    # traceback with nothing on stdout.
    status, stdout = run_bytes("hand", text.encode())
    assert status == 1
    (error,) = json.loads(stdout.decode("utf-8"))["errors"]
    assert (error["code"], error["field"]) == ("json_invalid", field)
    assert "nested more than 32 levels" in error["message"]


def _strict_json(data: bytes) -> dict:
    """stdout parsed as RFC 8259 JSON: Python's own parser would take NaN and Infinity."""

    def refuse(name: str):
        raise AssertionError(f"{name} on stdout is not JSON")

    return json.loads(data.decode("utf-8"), parse_constant=refuse)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_numbers_json_does_not_have_are_malformed_input(number):
    # Python's parser reads NaN, Infinity and 1e400 (inf); the option check echoed them in
    # params, so stdout said "value": [NaN, 0, 0, 0], which is not JSON (exit 2 besides).
    text = f'{{"ruleset": "wrc2015", "result": "draw", "options": {{"uma": [{number}, 0, 0, 0]}}}}'
    status, stdout = run_bytes("hand", text.encode())
    assert status == 1
    (error,) = _strict_json(stdout)["errors"]
    assert error["code"] == "json_invalid"
    assert number in error["message"]


@pytest.mark.parametrize(
    ("command", "payload", "field"),
    [
        # 10**400 points (the other seats sum right): the float written out overflowed,
        # an OverflowError traceback with nothing on stdout.
        (
            "hanchan",
            {"ruleset": "wrc2015", "seats": seats(10**400, 30000, 30000, -(10**400) + 30000)},
            "seats[0].points",
        ),
        # 10**20 points were scored 9.999999999999998e+16, rounded where WRC 2015 §5.9.2
        # says "sans arrondir".
        (
            "hanchan",
            {"ruleset": "wrc2015", "seats": seats(10**20, 30000, 30000, -(10**20) + 30000)},
            "seats[0].points",
        ),
        (
            "hand",
            {
                "ruleset": "wrc2015",
                "options": {"uma": [10**400, 0, 0, -(10**400)]},
                "result": "draw",
            },
            "options.uma[0]",
        ),
    ],
)
def test_whole_numbers_beyond_what_json_carries_exactly_are_malformed(command, payload, field):
    status, out = run(command, payload)
    assert status == 1
    (error,) = out["errors"]
    assert (error["code"], error["field"]) == ("input_type", field)
    assert "9,007,199,254,740,991" in error["message"]


def test_a_number_too_long_for_python_is_malformed_with_its_field():
    # int() stops at 4 300 digits: a ValueError traceback that said to call
    # sys.set_int_max_str_digits().
    text = '{"ruleset": "wrc2015", "result": "draw", "honba": ' + "9" * 5000 + "}"
    status, stdout = run_bytes("hand", text.encode())
    assert status == 1
    (error,) = json.loads(stdout)["errors"]
    assert (error["code"], error["field"]) == ("input_type", "honba")
    assert "a number of 5,000 digits" in error["message"]


def test_the_largest_exact_whole_number_is_still_read():
    payload = {"ruleset": "wrc2015", "result": "draw", "honba": 2**53 - 1}
    status, out = run("hand", payload)
    assert status == 0
    assert out["next_honba"] == 2**53


def test_a_key_written_twice_is_malformed_not_the_last_value_silently():
    # The seat was scored on its second "points" (42 300, 1st) without a word.
    text = _sheet_bytes("A", "B").replace(b'"points": 42300', b'"points": 30000, "points": 42300')
    status, stdout = run_bytes("hanchan", text)
    assert status == 1
    (error,) = json.loads(stdout)["errors"]
    assert error["code"] == "json_invalid"
    assert "'points' is written twice" in error["message"]
