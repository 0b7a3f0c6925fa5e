"""The ``python -m seating`` command line, run as a subprocess (docs/cli.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from seating.engine import evaluate

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> tuple[int, dict]:
    done = subprocess.run(
        [sys.executable, "-m", "seating", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def test_plan_has_the_documented_shape():
    code, out = run_cli("--players", "32", "--rounds", "7", "--seed", "7")
    assert code == 0
    assert set(out) == {"rounds", "metrics"}
    assert len(out["rounds"]) == 7
    for rnd in out["rounds"]:
        assert len(rnd) == 8
        assert sorted(p for table in rnd for p in table) == list(range(1, 33))
    metrics = out["metrics"]
    for key in ("table_reuse", "repeat_pairs", "max_meetings", "wind_imbalance"):
        assert isinstance(metrics[key], int)
    # Seven rounds: some wind once more than another (⌈7/4⌉ − ⌊7/4⌋), as the bound says.
    assert metrics["wind_imbalance"] == metrics["wind_imbalance_lower_bound"] == 1
    assert (metrics["repeat_pairs"], metrics["table_reuse"], metrics["max_meetings"]) == (0, 0, 1)
    assert metrics["team_clashes"] == 0
    assert isinstance(metrics["seconds"], float | int)


def test_same_seed_same_output():
    first = run_cli("--players", "20", "--rounds", "5", "--seed", "3")[1]
    again = run_cli("--players", "20", "--rounds", "5", "--seed", "3")[1]
    assert first["rounds"] == again["rounds"]


def test_player_count_not_multiple_of_four_exits_2_with_substitutes():
    code, out = run_cli("--players", "37", "--rounds", "4")
    assert code == 2
    (error,) = out["errors"]
    assert error["code"] == "not_multiple_of_four"
    assert error["field"] == "players"
    assert "add 3 substitutes" in error["message"]
    assert error["params"]["substitutes_needed"] == 3


def test_teams_file_keeps_teams_apart(tmp_path):
    teams = tmp_path / "teams.json"
    teams.write_text(json.dumps({str(p): f"club{p % 8}" for p in range(1, 33)}))
    code, out = run_cli("--players", "32", "--rounds", "7", "--teams", str(teams))
    assert code == 0
    assert out["metrics"]["team_clashes"] == 0


@pytest.mark.parametrize(
    "args",
    [
        ("--players", "x", "--rounds", "3"),
        ("--rounds", "3"),
        ("--players", "16", "--rounds", "3", "--teams", "/nonexistent/teams.json"),
        ("--players", "16", "--rounds", "3", "--time-limit", "nan"),
        ("--players", "16", "--rounds", "3", "--time-limit", "inf"),
    ],
)
def test_malformed_input_exits_1_with_error_shape(args):
    code, out = run_cli(*args)
    assert code == 1
    assert out["errors"][0]["code"] == "malformed_input"
    assert set(out["errors"][0]) >= {"code", "message", "field"}


def test_a_player_outside_the_field_exits_2(tmp_path):
    # Understood but invalid (docs/cli.md: exit 2), like the engine's own player errors.
    teams = tmp_path / "teams.json"
    teams.write_text(json.dumps({"99": "club"}))
    code, out = run_cli("--players", "16", "--rounds", "3", "--teams", str(teams))
    assert code == 2
    assert (out["errors"][0]["code"], out["errors"][0]["field"]) == ("unknown_player", "teams")


@pytest.mark.parametrize("text", ['{"1": 1, "01": 2}', '{"1": 1, "1": 2}'])
def test_a_player_twice_in_a_file_exits_2_instead_of_the_last_value_winning(tmp_path, text):
    fixed = tmp_path / "fixed.json"
    fixed.write_text(text)
    code, out = run_cli("--players", "16", "--rounds", "3", "--fixed-tables", str(fixed))
    assert code == 2
    assert out["errors"][0]["code"] == "duplicate_players"
    assert out["errors"][0]["params"]["players"] == [1]


@pytest.mark.parametrize("seconds", ["0", "-1", "0.0001", "1e308"])
def test_a_time_limit_out_of_range_exits_2(seconds):
    # The search divides its moves by the time; these used to end in a Python traceback.
    code, out = run_cli("--players", "24", "--rounds", "8", "--time-limit", seconds)
    assert code == 2
    assert (out["errors"][0]["code"], out["errors"][0]["field"]) == (
        "invalid_time_limit",
        "time_limit",
    )


def test_a_teams_file_that_is_not_utf8_is_malformed_input(tmp_path):
    teams = tmp_path / "teams.json"
    teams.write_bytes('{"1": "Équipe"}'.encode("latin-1"))
    code, out = run_cli("--players", "16", "--rounds", "3", "--teams", str(teams))
    assert code == 1
    assert (out["errors"][0]["code"], out["errors"][0]["field"]) == ("malformed_input", "teams")


@pytest.mark.parametrize(
    ("players", "message"), [(1, "add 3 substitutes"), (3, "add 1 substitute;")]
)
def test_fewer_players_than_a_table_says_how_many_substitutes_to_add(players, message):
    # docs/cli.md: N not a multiple of 4 exits 2, the message saying "how many substitutes to
    # add"; below one table the message only said that 4 are needed.
    code, out = run_cli("--players", str(players), "--rounds", "2")
    assert code == 2
    (error,) = out["errors"]
    assert error["code"] == "too_few_players"
    assert message in error["message"]
    assert error["params"]["substitutes_needed"] == 4 - players


@pytest.mark.parametrize(
    ("args", "code", "field"),
    [
        (("--players", "16", "--rounds", "-1"), "invalid_rounds", "rounds"),
        (("--players", "-4", "--rounds", "3"), "too_few_players", "players"),
        (("--players", "16", "--rounds", "3", "--priority", "x"), "invalid_priority", "priority"),
    ],
)
def test_a_value_understood_but_invalid_exits_2_with_the_engine_code(args, code, field):
    # docs/cli.md: exit 2 when the input "was understood but is invalid under the rules", as the
    # scoring CLI does for a negative stick count or an unknown rule set; these exited 1.
    status, out = run_cli(*args)
    assert status == 2
    assert (out["errors"][0]["code"], out["errors"][0]["field"]) == (code, field)


def test_a_history_table_of_three_is_an_invalid_history(tmp_path):
    # docs/cli.md: a history is tables "of four player numbers in seat order E, S, W, N"; a
    # table of three is understood but cannot be seated (exit 2).
    history = tmp_path / "history.json"
    history.write_text(json.dumps([[[1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]))
    code, out = run_cli("--players", "16", "--rounds", "2", "--history", str(history))
    assert code == 2
    error = out["errors"][0]
    assert (error["code"], error["field"]) == ("invalid_history", "history[0][0]")


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("--players", "x", "--rounds", "3"), "players"),
        (("--players", "16", "--rounds", "1.5"), "rounds"),
        (("--players", "16", "--rounds", "3", "--seed", "s"), "seed"),
        (("--players", "16", "--rounds", "3", "--time-limit", "soon"), "time_limit"),
        (("--players", "16"), "rounds"),
        (("--rounds", "3"), "players"),
    ],
)
def test_a_malformed_option_is_named_in_the_error_field(args, field):
    # docs/cli.md: the `field` names the option at fault; argparse's errors had field null.
    code, out = run_cli(*args)
    assert code == 1
    assert (out["errors"][0]["code"], out["errors"][0]["field"]) == ("malformed_input", field)


@pytest.mark.parametrize("text", ['{"1": [1, 2, 3, 4]}', "[[[1, 2, 3, true]]]", "[[1, 2, 3, 4]]"])
def test_a_history_file_of_the_wrong_shape_names_the_history_field(tmp_path, text):
    history = tmp_path / "history.json"
    history.write_text(text)
    code, out = run_cli("--players", "16", "--rounds", "2", "--history", str(history))
    assert code == 1
    assert (out["errors"][0]["code"], out["errors"][0]["field"]) == ("malformed_input", "history")


@pytest.mark.parametrize("key", ["1_0", " 2", "+3", "\u0661"])
def test_a_key_not_written_as_a_player_number_is_malformed(tmp_path, key):
    # int() reads "1_0" as player 10 and "١" (Arabic-Indic one) as player 1: a typo in a
    # teams file silently put another player in the team.
    teams = tmp_path / "teams.json"
    teams.write_text(json.dumps({key: "club"}))
    code, out = run_cli("--players", "16", "--rounds", "2", "--teams", str(teams))
    assert code == 1
    assert (out["errors"][0]["code"], out["errors"][0]["field"]) == ("malformed_input", "teams")


def test_a_key_written_twice_that_int_cannot_read_is_no_traceback(tmp_path):
    # "²" passed str.isdigit() and then crashed int() in the duplicate check.
    teams = tmp_path / "teams.json"
    teams.write_text('{"\\u00b2": "a", "\\u00b2": "b"}')
    code, out = run_cli("--players", "16", "--rounds", "2", "--teams", str(teams))
    assert code == 2
    assert out["errors"][0]["code"] == "duplicate_players"


@pytest.mark.parametrize(
    ("option", "text", "expected"),
    [("--teams", '{"1": 3}', "a team name"), ("--fixed-tables", '{"1": "1"}', "a table number")],
)
def test_a_value_of_the_wrong_type_is_named_in_words(tmp_path, option, text, expected):
    # The message said "must be a str" / "must be a int".
    path = tmp_path / "file.json"
    path.write_text(text)
    code, out = run_cli("--players", "16", "--rounds", "2", option, str(path))
    assert code == 1
    assert expected in out["errors"][0]["message"]


def test_history_names_players_who_left_and_the_metrics_count_it(tmp_path):
    # docs/cli.md (python -m seating): the history may name players who have left (outside 1..N); a
    # number in 1..N it never names is a late registration; only the new rounds are printed.
    played = run_cli("--players", "32", "--rounds", "7", "--seed", "4")[1]["rounds"][:3]
    played = [[[33 if p == 5 else p for p in table] for table in rnd] for rnd in played]
    history = tmp_path / "history.json"
    history.write_text(json.dumps(played))
    code, out = run_cli(
        "--players", "32", "--rounds", "4", "--seed", "4", "--history", str(history)
    )
    assert code == 0
    assert [sorted(p for t in rnd for p in t) for rnd in out["rounds"]] == [list(range(1, 33))] * 4
    whole = evaluate([tuple(map(tuple, rnd)) for rnd in played + out["rounds"]], played=3)
    assert {**whole.as_json(), "seconds": 0} == {**out["metrics"], "seconds": 0}


@pytest.mark.parametrize(
    ("args", "code", "field"),
    [
        # 4 million players: listing their meetings (players²) exhausted the memory and the
        # CLI died with a MemoryError traceback on stdout's place, not the error shape.
        (("--players", "4000000", "--rounds", "3"), "too_many_players", "players"),
        # 100 million rounds: the CLI ran on whatever --time-limit said, never answering.
        (("--players", "32", "--rounds", "100000000"), "too_many_rounds", "rounds"),
    ],
)
def test_a_size_beyond_the_generator_exits_2_at_once(args, code, field):
    status, out = run_cli(*args)
    assert status == 2
    error = out["errors"][0]
    assert (error["code"], error["field"]) == (code, field)
    assert error["params"]["maximum"] < int(args[1 if field == "players" else 3])


@pytest.mark.parametrize(
    ("option", "text", "message"),
    [
        # Deeper than the JSON parser recurses: a RecursionError traceback.
        ("--history", "[" * 100_000, "nests lists or objects too deeply"),
        # int() stops at 4 300 digits: a ValueError traceback saying to call
        # sys.set_int_max_str_digits(), for a value in the file and for a key.
        ("--history", "[[[1, 2, 3, " + "9" * 5000 + "]]]", "a number too long to read"),
        ("--teams", '{"' + "9" * 5000 + '": "club"}', "a key of 5,000 digits"),
    ],
)
def test_a_file_the_parser_cannot_read_is_malformed_input(tmp_path, option, text, message):
    # docs/cli.md: malformed input exits 1 with the error shape, never a traceback.
    path = tmp_path / "file.json"
    path.write_text(text)
    code, out = run_cli("--players", "16", "--rounds", "2", option, str(path))
    assert code == 1
    error = out["errors"][0]
    assert (error["code"], error["field"]) == ("malformed_input", option[2:])
    assert message in error["message"]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        # Under cp1252 (Windows pipes) the error naming the file ended in a UnicodeEncodeError.
        ("日本.json".encode(), "日本.json"),
        # A file name that is not UTF-8 came out as its raw byte: stdout was not UTF-8.
        (b"\xff.json", "?.json"),
    ],
)
def test_stdout_is_utf8_whatever_the_locale(tmp_path, name, shown):
    done = subprocess.run(
        [sys.executable, "-m", "seating", "--players", "16", "--rounds", "2", "--teams"]
        + [os.fsencode(tmp_path) + b"/" + name],
        cwd=ROOT,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "cp1252"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    (error,) = json.loads(done.stdout.decode("utf-8"))["errors"]
    assert error["code"] == "malformed_input"
    assert error["message"].endswith(f"/{shown}: No such file or directory")
