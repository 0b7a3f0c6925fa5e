"""Rule sets: built-in values (docs/rules.md §1) and validated overrides."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.rules import RULESETS, RulesError, RulesErrors, RuleSet, resolve_ruleset
from scoring.rules.hands import noten_payments
from scoring.rules.rulesets import ruleset_options

# docs/rules.md §1, one row per parameter the engine enforces: (option, WRC, ORAN, MS)
MATRIX = [
    ("start_points", 30000, 30000, 25000),  # [WRC 2015 §4.1; ORAN-1 §2.1; Évriichi §7]
    ("return_points", 30000, 30000, 25000),  # [WRC 2015 §5.9.2; ORAN-1 §3.4.1; A1]
    ("oka", 0, 0, 0),  # none / none / [A1]
    # [WRC 2015 §5.9.2; ORAN-1 §3.1.8; Évriichi adv. 6]
    ("uma", (15, 5, -5, -15), (15, 5, -5, -15), (15, 5, -5, -15)),
    ("tie_mode", "split", "split", "seat_order"),  # [WRC 2015 §5.9.2; A2; Évriichi adv. 6]
    ("leftover_riichi", "lost", "lost", "lost"),  # [WRC 2015 §5.9; ORAN-1 §3.2.8; A3]
    ("bust_ends_game", False, True, True),  # [WRC 2015 §4.1; ORAN-1 §3.1.7; Évriichi §19]
    ("south4_stop_points", None, None, 30000),  # [WRC 2015 §5.9.1; A4; Évriichi §19]
    ("west_extension_points", None, None, 30000),  # [WRC 2015 §5.9; ORAN-1 §3.1.7; Évriichi §19]
    ("kiriage", True, False, False),  # [WRC 2015 §6.1; ORAN-1 §4.3.4; Évriichi §18]
    ("counted_yakuman", False, False, False),  # [WRC 2015 §6.1; ORAN-1 §3.2.2; Évriichi §18]
    ("multiple_yakuman", False, False, True),  # [WRC 2015 §6.5; ORAN-1 §3.2.3; Évriichi §4]
    ("nagashi_mangan", False, True, True),  # [WRC 2015 §6; ORAN-1 §4.4.10.6; Évriichi adv. 1]
    ("abortive_draws", False, False, True),  # [WRC 2015 §5.7.3; ORAN-1 §3.2.1; Évriichi adv. 3]
    ("pao", True, True, True),  # [WRC 2015 §6.2; A6]
    ("chombo_model", "penalty_points", "table_points", "penalty_points"),  # [WRC 2015/ORAN-1; A8]
    ("chombo_amount", 20, 10000, 20),  # [WRC 2015 §7.1; ORAN-1 §3.1.4; A8]
    ("late_points_per_minute", 1, 0, 0),  # [WRC 2015 §7.2; A7]
    ("late_limit_minutes", 10, None, None),  # [WRC 2015 §7.2; A7]
    ("late_substituted_penalty", 30, 0, 0),  # [WRC 2015 §7.2; C18]
    ("missed_hanchan_penalty", 20, 0, 0),  # [WRC 2015 §7.2]
    ("honba_ron", 300, 300, 300),  # [WRC 2015 §5.7.7; ORAN-1 §5.7; Évriichi §18]
    ("honba_tsumo", 100, 100, 100),  # [WRC 2015 §6.1]
    ("noten_total", 3000, 3000, 3000),  # [WRC 2015 §5.7.2; Évriichi §18]
    ("riichi_min_points", None, 1000, None),  # [WRC 2015 §6.1; ORAN-1 §3.1.2; Évriichi §16]
]


@pytest.mark.parametrize(("option", "wrc", "oran", "ms"), MATRIX)
def test_builtin_values_follow_rules_md_section_1(option, wrc, oran, ms):
    assert getattr(RULESETS["wrc2015"], option) == wrc
    assert getattr(RULESETS["oran2015"], option) == oran
    assert getattr(RULESETS["mahjongsoul"], option) == ms


def test_rule_sets_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        RULESETS["wrc2015"].kiriage = False


def test_every_field_is_documented_as_an_option():
    names = {o.name for o in ruleset_options()}
    fields = {f.name for f in dataclasses.fields(RuleSet)} - {"key", "name"}
    assert names == fields
    assert all(o.help and set(o.defaults) == set(RULESETS) for o in ruleset_options())


def test_override_returns_a_new_ruleset():
    rs = resolve_ruleset("wrc2015", {"uma": [20, 10, -10, -20], "kiriage": False})
    assert rs.uma == (20, 10, -10, -20)
    assert rs.kiriage is False
    assert RULESETS["wrc2015"].kiriage is True


def test_unknown_ruleset():
    with pytest.raises(RulesError) as info:
        resolve_ruleset("tenhou")
    assert info.value.code == "ruleset_unknown"
    assert info.value.field == "ruleset"


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"kiriag": True}, "option_unknown"),
        ({"key": "x"}, "option_unknown"),
        ({"kiriage": 1}, "option_type"),
        ({"start_points": "30000"}, "option_type"),
        ({"start_points": True}, "option_type"),
        ({"start_points": 30050}, "option_range"),
        ({"start_points": 0}, "option_range"),
        ({"chombo_amount": -1}, "option_range"),
        ({"uma": [15, 5, -5]}, "option_type"),
        ({"uma": [15, 5, -5, -10]}, "option_range"),
        ({"uma": [-15, -5, 5, 15]}, "option_range"),
        ({"tie_mode": "coin"}, "option_choice"),
        ({"tie_breaks": ["best_hanchan", "best_hanchan"]}, "option_choice"),
        ({"late_limit_minutes": -1}, "option_range"),
    ],
)
def test_bad_overrides(options, code):
    with pytest.raises(RulesErrors) as info:
        resolve_ruleset("wrc2015", options)
    assert info.value.codes == (code,)
    assert info.value.errors[0].field == f"options.{next(iter(options))}"


def test_null_is_accepted_where_an_option_may_be_off():
    rs = resolve_ruleset("mahjongsoul", {"south4_stop_points": None, "west_extension_points": None})
    assert rs.south4_stop_points is None


def test_several_bad_options_reported_together():
    with pytest.raises(RulesErrors) as info:
        resolve_ruleset("wrc2015", {"kiriage": "yes", "foo": 1})
    assert set(info.value.codes) == {"option_type", "option_unknown"}


@pytest.mark.parametrize("total", [1000, 2000, 3100])
def test_a_noten_total_that_cannot_be_shared_in_hundreds_is_refused(total):
    # [WRC 2015 §5.7.2]: the 3 000 are paid 3 000 / 1 500 / 1 000 by each noten
    # player (1, 2, 3 noten) and received 1 000 / 1 500 / 3 000 by each tenpai player: every
    # share is whole hundreds only for a multiple of 600. 1 000 gave 333-point shares, and a
    # draw then stopped the engine (RulesFatalError) instead of the option being refused.
    with pytest.raises(RulesErrors) as info:
        resolve_ruleset("wrc2015", {"noten_total": total})
    assert info.value.codes == ("option_range",)
    assert info.value.errors[0].field == "options.noten_total"
    assert "one, two or three tenpai players" in info.value.errors[0].message


@pytest.mark.parametrize("total", [0, 600, 6000])
def test_a_noten_total_shared_in_hundreds_pays_every_draw(total):
    # [WRC 2015 §5.7.2]: split between 1, 2 or 3 tenpai players; payments balance in hundreds
    rs = resolve_ruleset("wrc2015", {"noten_total": total})
    for tenpai in ([0], [0, 1], [0, 1, 2]):
        payments = noten_payments(rs, tenpai)
        assert sum(payments) == 0
        assert all(p % 100 == 0 for p in payments)
        assert sum(p for p in payments if p > 0) == total
