"""Where each default of a built-in rule set comes from, as data.

The comments of :data:`~scoring.rules.rulesets.RULESETS` cite a rule book and section for
each value, for the reader of the code; this module holds the same citations for the forms
that show an organiser each option's default (the tournament admin's rule options), so that
the page can say "WRC 2015 §5.9.2" beside the uma. ``A1`` … and ``C1`` … are the assumptions
and contradictions of docs/rules.md §11 and §12; an empty citation is a value the book does
not state (the engine's own default). tests/scoring/test_rule_sources.py keeps the two in
step.

Not here: the values themselves (:mod:`scoring.rules.rulesets`).
"""

from __future__ import annotations

import re

__all__ = ["SOURCES", "citation"]

#: Rule set key -> option -> the citation of its default, as the comment of RULESETS has it.
SOURCES: dict[str, dict[str, str]] = {
    "wrc2015": {
        "start_points": "WRC 2015 §4.1",
        "return_points": "WRC 2015 §2.3, §5.9.2",
        "oka": "WRC 2015 §5.9.2",
        "uma": "WRC 2015 §5.9.2",
        "tie_mode": "WRC 2015 §5.9.2",
        "leftover_riichi": "WRC 2015 §5.7.4, §5.9",
        "bust_ends_game": "WRC 2015 §4.1, §6.1",
        "south4_stop_points": "WRC 2015 §5.9.1",
        "west_extension_points": "WRC 2015 §5.8, §5.9",
        "time_limit_minutes": "WRC 2015 §8.2",
        "kiriage": "WRC 2015 §6.1",
        "counted_yakuman": "WRC 2015 §6.1",
        "multiple_yakuman": "WRC 2015 §6.5",
        "honba_ron": "WRC 2015 §5.7.7, §6.1",
        "honba_tsumo": "WRC 2015 §5.7.7, §6.1",
        "noten_total": "WRC 2015 §5.7.2",
        "nagashi_mangan": "WRC 2015 §6",
        "abortive_draws": "WRC 2015 §5.7.3",
        "multiple_ron": "WRC 2015 §5.4.1, §5.7.6",
        "pao": "WRC 2015 §6.2",
        "riichi_min_points": "WRC 2015 §6.1, §6.5.1",
        "red_fives": "WRC 2015 §3.3",
        "min_han": "WRC 2015 §5.2",
        "renhou": "WRC 2015 §6.5.4",
        "daisharin": "WRC 2015 §6.5",
        "double_wind_pair_fu": "WRC 2015 §6.3",
        "kuitan": "WRC 2015 §6.5.1",
        "chombo_model": "WRC 2015 §7.1",
        "chombo_amount": "WRC 2015 §7.1",
        "late_points_per_minute": "WRC 2015 §7.2",
        "late_limit_minutes": "WRC 2015 §7.2",
        "late_substituted_penalty": "WRC 2015 §7.2; C18",
        "missed_hanchan_penalty": "WRC 2015 §7.2",
        "hanchans_per_event": "",
        "tie_breaks": "",
    },
    "oran2015": {
        "start_points": "ORAN-1 §2.1, §3.1.2",
        "return_points": "ORAN-1 §3.4.1",
        "oka": "ORAN-1 §3.4.1",
        "uma": "ORAN-1 §2.1, §3.1.8",
        "tie_mode": "ORAN-1 §2.1; A2",
        "leftover_riichi": "ORAN-1 §2.2, §3.2.8",
        "bust_ends_game": "ORAN-1 §2.1, §3.1.2, §3.1.7",
        "south4_stop_points": "A4",
        "west_extension_points": "ORAN-1 §2.1, §3.1.7",
        "time_limit_minutes": "ORAN-1 §3.1.7",
        "kiriage": "ORAN-1 §4.3.4, scoring tables",
        "counted_yakuman": "ORAN-1 §2.2, §3.2.2",
        "multiple_yakuman": "ORAN-1 §2.2, §3.2.3",
        "honba_ron": "ORAN-1 §5.7",
        "honba_tsumo": "ORAN-1 §5.7",
        "noten_total": "ORAN-1 §5.7; docs/rules.md §5.1",
        "nagashi_mangan": "ORAN-1 §1, §4.4.10.6",
        "abortive_draws": "ORAN-1 §2.2, §3.2.1",
        "multiple_ron": "ORAN-1 §2.1",
        "pao": "A6",
        "riichi_min_points": "ORAN-1 §3.1.2",
        "red_fives": "ORAN-1 §2.1, §3.1.6",
        "min_han": "ORAN-1 §2.2, §3.2.5",
        "renhou": "ORAN-1 §2.2, §3.2.4, §4.4.10.5",
        "daisharin": "ORAN-1 §4.4.3.7",
        "double_wind_pair_fu": "ORAN-1 §4.3.3; C13",
        "kuitan": "ORAN-1 §2.1, §3.1.1",
        "chombo_model": "ORAN-1 §3.1.4",
        "chombo_amount": "ORAN-1 §2.1, §3.1.4, §3.4.1",
        "late_points_per_minute": "ORAN-1 §3.4.3; A7",
        "late_limit_minutes": "A7",
        "late_substituted_penalty": "A7",
        "missed_hanchan_penalty": "A7",
        "hanchans_per_event": "ORAN-1 §2",
        "tie_breaks": "",
    },
    "mahjongsoul": {
        "start_points": "Évriichi §7",
        "return_points": "A1",
        "oka": "A1",
        "uma": "Évriichi adv. 6",
        "tie_mode": "Évriichi adv. 6",
        "leftover_riichi": "A3",
        "bust_ends_game": "Évriichi §7, §19",
        "south4_stop_points": "Évriichi §19; C23",
        "west_extension_points": "Évriichi §19",
        "time_limit_minutes": "",
        "kiriage": "Évriichi §18 tables",
        "counted_yakuman": "Évriichi §18",
        "multiple_yakuman": "Évriichi §4",
        "honba_ron": "Évriichi §18",
        "honba_tsumo": "Évriichi §18",
        "noten_total": "Évriichi §18",
        "nagashi_mangan": "Évriichi adv. 1",
        "abortive_draws": "Évriichi adv. 3",
        "multiple_ron": "A5",
        "pao": "A6",
        "riichi_min_points": "Évriichi §16",
        "red_fives": "Évriichi §14",
        "min_han": "Évriichi §4",
        "renhou": "Évriichi §4",
        "daisharin": "Évriichi §4",
        "double_wind_pair_fu": "C13",
        "kuitan": "",
        "chombo_model": "A8",
        "chombo_amount": "A8",
        "late_points_per_minute": "",
        "late_limit_minutes": "",
        "late_substituted_penalty": "",
        "missed_hanchan_penalty": "",
        "hanchans_per_event": "",
        "tie_breaks": "",
    },
    "ema2016": {
        "start_points": "A18",
        "return_points": "A18",
        "oka": "A18",
        "uma": "EMA 2016 notes",
        "tie_mode": "A18",
        "leftover_riichi": "EMA 2016 notes",
        "bust_ends_game": "A18",
        "south4_stop_points": "A18",
        "west_extension_points": "A18",
        "time_limit_minutes": "A18",
        "kiriage": "EMA 2016 notes",
        "counted_yakuman": "EMA 2016 notes",
        "multiple_yakuman": "EMA 2016 notes",
        "honba_ron": "EMA 2016 §3.4.10",
        "honba_tsumo": "EMA 2016 §3.4.10",
        "noten_total": "EMA 2016 §3.4.2",
        "nagashi_mangan": "EMA 2016 notes",
        "abortive_draws": "EMA 2016 §3.4; notes",
        "multiple_ron": "EMA 2016 §3.4.9",
        "pao": "EMA 2016 §3.3.9",
        "riichi_min_points": "A18",
        "red_fives": "EMA 2016 notes",
        "min_han": "EMA 2016 notes",
        "renhou": "EMA 2016 notes",
        "daisharin": "A18",
        "double_wind_pair_fu": "A18",
        "kuitan": "EMA 2016 notes",
        "chombo_model": "EMA 2016 notes",
        "chombo_amount": "EMA 2016 notes",
        "late_points_per_minute": "A18",
        "late_limit_minutes": "A18",
        "late_substituted_penalty": "A18",
        "missed_hanchan_penalty": "A18",
        "hanchans_per_event": "",
        "tie_breaks": "",
    },
}
# The 2025 edition is the 2016 one but for kiriage (rulesets.py, A19).
SOURCES["ema2025"] = {**SOURCES["ema2016"], "kiriage": "A19"}

_NOTES = {"A": "docs/rules.md §11", "C": "docs/rules.md §12"}


def citation(key: str, option: str) -> str:
    """The citation of a rule set's default for a reader: an assumption or contradiction
    named with the section of docs/rules.md that holds it; "" where the book is silent.

    >>> citation("wrc2015", "uma")
    'WRC 2015 §5.9.2'
    >>> citation("oran2015", "tie_mode")
    'ORAN-1 §2.1; docs/rules.md §11 A2'
    """
    return re.sub(
        r"\b([AC])(\d+)\b",
        lambda match: f"{_NOTES[match.group(1)]} {match.group(0)}",
        SOURCES[key][option],
    )
