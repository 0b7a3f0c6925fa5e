"""Error codes are an API: every code raised is documented in ERROR_CODES, and vice versa."""

from __future__ import annotations

import re
from pathlib import Path

from scoring.rules import ERROR_CODES, RulesError, RulesErrors

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
