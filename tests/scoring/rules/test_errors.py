"""Error codes are an API: every code raised is documented in ERROR_CODES, and vice versa."""

from __future__ import annotations

import re
from pathlib import Path

from scoring.rules import ERROR_CODES, RulesError, RulesErrors

SOURCE = Path(__file__).resolve().parents[3] / "scoring" / "rules"


def raised_codes() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in SOURCE.glob("*.py"))
    return set(re.findall(r'RulesError\(\s*"([a-z0-9_]+)"', text))


def test_every_raised_code_is_documented():
    assert raised_codes() - set(ERROR_CODES) == set()


def test_every_documented_code_is_raised():
    assert set(ERROR_CODES) - raised_codes() == set()


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
