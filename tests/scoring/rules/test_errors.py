"""Error codes are an API: every code raised is documented in ERROR_CODES, and vice versa."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.rules import (
    ERROR_CODES,
    Penalty,
    PlayerRecord,
    RulesError,
    RulesErrors,
    SeatSheet,
    compute_standings,
    validate_sheet,
)
from scoring.rules.hands import check_han_fu
from tests.scoring.rules.helpers import WRC

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "scoring" / "rules"
DOC = ROOT / "docs" / "rules-engine.md"


def raised_codes() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in SOURCE.glob("*.py"))
    return set(re.findall(r'RulesError\(\s*"([a-z0-9_]+)"', text))


def test_every_raised_code_is_documented():
    assert raised_codes() - set(ERROR_CODES) == set()


def test_every_documented_code_is_raised():
    assert set(ERROR_CODES) - raised_codes() == set()


def documented_rules_errors() -> dict[str, str]:
    """docs/rules-engine.md's table of codes: code -> its params column."""
    text = DOC.read_text(encoding="utf-8")
    return dict(re.findall(r"^\| `([a-z0-9_]+)` \| .*? \| (.*?) \|$", text, re.M))


def test_every_raised_code_is_in_the_docs_table_with_its_params():
    # The docs are what a CLI user reads: a code missing there (substitute_too_early was)
    # cannot be looked up. Codes come from the source and ERROR_CODES, params from the latter.
    documented = documented_rules_errors()
    assert raised_codes() | set(ERROR_CODES) <= set(documented)
    params = {code: text.split("params: ")[1] for code, text in ERROR_CODES.items()}
    assert {code: documented[code] for code in params} == params


def test_every_malformed_input_code_is_in_the_docs():
    cli = (ROOT / "scoring" / "__main__.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'(?:Malformed\(\s*|"code": )"([a-z_]+)"', cli))
    paragraph = DOC.read_text(encoding="utf-8").split("Exit-1", 1)[1].split("\n\n", 1)[0]
    assert codes == {"json_invalid", "input_type", "key_unknown", "key_missing", "command_unknown"}
    assert codes <= set(re.findall(r"`([a-z_]+)`", paragraph))


def test_error_carries_code_params_field_message():
    err = RulesError("points_sum", "msg", field="seats", total=1)
    assert (err.code, err.params, err.field, err.message) == (
        "points_sum",
        {"total": 1},
        "seats",
        "msg",
    )
    assert err.with_field_prefix("hands[2]").field == "hands[2].seats"
    group = RulesErrors([err, RulesError("seats_count", "m2")])
    assert group.codes == ("points_sum", "seats_count")
    assert list(group) == list(group.errors)


@pytest.mark.parametrize(
    ("call", "code", "params"),
    [
        (lambda: check_han_fu(2.5, 30, "ron"), "han_type", {"han": 2.5}),
        (lambda: check_han_fu(2, 30.0, "ron"), "fu_type", {"fu": 30.0}),
        (
            lambda: validate_sheet(
                WRC, [SeatSheet(p, 30000) for p in "ABC"] + [SeatSheet("D", 1.5)]
            ),
            "points_type",
            {"value": 1.5},
        ),
        (
            lambda: compute_standings([PlayerRecord("A", (1,), (Penalty(-1.5, "x"),))]),
            "penalty_type",
            {"value": -1.5},
        ),
    ],
)
def test_params_keep_the_value_given_not_its_repr(call, code, params):
    # The CLI prints params as JSON: a repr ("'foo'", "-1") would leak Python into it.
    with pytest.raises((RulesError, RulesErrors)) as info:
        call()
    error = info.value.errors[0] if isinstance(info.value, RulesErrors) else info.value
    assert (error.code, error.params, error.info.as_json()["params"]) == (code, params, params)


def test_no_param_is_built_with_repr():
    # repr() belongs in the English message only; a param is the value itself.
    text = "\n".join(p.read_text(encoding="utf-8") for p in SOURCE.glob("*.py"))
    assert re.findall(r"\b\w+=repr\(", text) == []
