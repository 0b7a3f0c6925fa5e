"""Rule sets: named, frozen configuration objects and validated overrides.

A :class:`RuleSet` holds every parameter of docs/rules.md §1 that the engine (or a form) needs.
Five are built in — ``wrc2015`` (WRC 2015), ``oran2015`` (ORAN-1), ``mahjongsoul`` (the
Évriichi slides as written), ``ema2016`` and ``ema2025`` (the EMA Riichi Competition Rules) —
and a tournament stores one key plus a mapping of overrides, which :func:`resolve_ruleset`
validates (unknown option, wrong type, out-of-range value → a
:class:`~scoring.rules.errors.RulesError`).

Each default below carries its source: ``[WRC 2015 §5.9.2]`` is section 5.9.2 of that rule
book (docs/rules.md §0 names the books), ``[A3]`` an assumption of docs/rules.md §11 (the
books are silent), ``[C18]`` a contradiction of docs/rules.md §12.
Some parameters are *informational*: they describe the rule set for the rule-book page and
the forms (red fives, renhou, minimum han…) but the engine does not evaluate hand
composition, so it does not enforce them. They are marked "(informational)".

Not here: how a hand or a sheet is scored (``hands``, ``hanchan``, ``game``, ``standings``).
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .bounds import LATE_MINUTES_MAX, PENALTY_PLAUSIBLE
from .errors import RulesError, RulesErrors
from .sources import citation

__all__ = [
    "RULESETS",
    "RuleSet",
    "OptionSpec",
    "resolve_ruleset",
    "ruleset_options",
    "TIE_BREAK_CRITERIA",
    "DEFAULT_TIE_BREAKS",
]

#: Criteria usable in :attr:`RuleSet.tie_breaks`, applied in order after the total
#: (see :mod:`scoring.rules.standings`).
TIE_BREAK_CRITERIA: dict[str, str] = {
    "best_hanchan": "higher best single hanchan score",
    "firsts": "more 1st places",
    "seconds": "more 2nd places",
    "thirds": "more 3rd places",
    "fewest_fourths": "fewer 4th places",
    "fewest_penalties": "fewer penalty points (closer to zero)",
    "played": "more hanchans played",
}

#: The largest start points, return points or points needed for riichi (docs/rules-engine.md,
#: "Ranges").
MAX_START = 100_000
#: The largest uma of a place, either way, in tournament points (WRC gives 15 [WRC 2015
#: §5.9.2]; 30 is the most in use).
MAX_UMA = 100

#: Default standings tie-break chain: total, then these, then a shared place.
DEFAULT_TIE_BREAKS: tuple[str, ...] = ("best_hanchan", "firsts", "seconds", "fewest_penalties")


def _opt(kind: str, help: str, **extra: Any) -> Any:
    """A dataclass field that is also a documented, overridable option."""
    return field(metadata={"kind": kind, "help": help, **extra})


@dataclass(frozen=True)
class RuleSet:
    """Every parameter of a rule set. Table points are ints; tournament points are ints.

    Build one with :func:`resolve_ruleset`, never by hand in application code, so that the
    values are validated.
    """

    key: str = field(metadata={"kind": "fixed", "help": "Identifier of the base rule set."})
    name: str = field(metadata={"kind": "fixed", "help": "Human-readable name."})

    # --- points and the hanchan score -------------------------------------------------
    # Ranges of the options: docs/rules-engine.md, "Ranges". A start or a target of more
    # than 100 000 is no riichi game (25 000 to 35 000 in use [WRC 2015 §4.1; Évriichi §7]);
    # 400 000 is a table of such starts.
    start_points: int = _opt(
        "points", "Table points each player starts with.", min=100, max=MAX_START
    )
    return_points: int = _opt(
        "points",
        "Return (target) points subtracted before dividing by 1 000.",
        min=100,
        max=MAX_START,
    )
    oka: int = _opt(
        "points",
        "Table points given to 1st place on top of uma (tied 1st share it).",
        min=0,
        max=4 * MAX_START,
    )
    uma: tuple[int, int, int, int] = _opt(
        "uma", "Uma of places 1-4 in tournament points; must sum to zero and not increase."
    )
    tie_mode: str = _opt(
        "choice",
        "Tied table points: 'split' = tied players share the uma/oka of their places; "
        "'seat_order' = the initial seat order E > S > W > N breaks the tie.",
        choices=("split", "seat_order"),
    )
    leftover_riichi: str = _opt(
        "choice",
        "Riichi sticks left on the table at the end: 'lost' (nobody gets them) or "
        "'to_first_place' (added to 1st place's table score; tied 1st share them).",
        choices=("lost", "to_first_place"),
    )

    # --- end of the game ---------------------------------------------------------------
    bust_ends_game: bool = _opt("bool", "A score strictly below zero ends the game.")
    south4_stop_points: int | None = _opt(
        "points_or_none",
        "In S4, the game stops after a dealer repeat when the dealer is 1st with at least "
        "this many points (null: no stop, i.e. no agari-yame).",
        min=0,
        max=4 * MAX_START,
    )
    west_extension_points: int | None = _opt(
        "points_or_none",
        "If nobody has this many points at the end of S4, play goes on into the West round "
        "and stops as soon as somebody has them (null: no West round).",
        min=0,
        max=4 * MAX_START,
    )
    time_limit_minutes: int | None = _opt(
        "int_or_none", "Recommended time limit of a hanchan (informational).", min=1, max=300
    )

    # --- hand value ----------------------------------------------------------------------
    kiriage: bool = _opt("bool", "Round base points 1 920 (30 fu 4 han, 60 fu 3 han) to mangan.")
    counted_yakuman: bool = _opt("bool", "13 han or more without a yakuman counts as yakuman.")
    multiple_yakuman: bool = _opt(
        "bool", "Yakuman stack (double yakuman); otherwise a hand pays one yakuman at most."
    )
    # 300 and 100 [WRC 2015 §5.7.7]; "1 500 ba" rules pay 1 500 and 500: at most twice that.
    honba_ron: int = _opt(
        "points", "Table points per counter (honba) added to a ron.", min=0, max=3000
    )
    honba_tsumo: int = _opt(
        "points", "Table points per counter paid by each payer of a tsumo.", min=0, max=1000
    )
    noten_total: int = _opt(
        "points",
        "Total noten payment at an exhaustive draw (split 1/2/3 ways; a multiple of 600).",
        min=0,
        max=12000,  # four times the books' 3 000 [WRC 2015 §5.7.2]
        # 1, 2 or 3 tenpai players share it and 3, 2 or 1 noten players pay it, each in
        # whole hundreds (3 000: 3 000 / 1 500 / 1 000 [WRC 2015 §5.7.2]), so a multiple of 600.
        step=600,
        step_why=", so that one, two or three tenpai players share it in hundreds",
    )
    nagashi_mangan: bool = _opt("bool", "Nagashi mangan is paid at an exhaustive draw.")
    abortive_draws: bool = _opt("bool", "Abortive draws exist (deal stays, +1 counter).")
    multiple_ron: str = _opt(
        "choice",
        "Several rons on one discard: 'head_bump' = only the claimant first in turn order "
        "after the discarder wins; 'double_ron' = up to two win, three rons are an abortive "
        "draw; 'triple_ron' = every claimant wins. The discarder pays each winner.",
        choices=("head_bump", "double_ron", "triple_ron"),
    )
    pao: bool = _opt(
        "bool", "Liability (pao) for Big Three Dragons / Big Four Winds as in WRC §6.2."
    )
    riichi_min_points: int | None = _opt(
        "points_or_none",
        "Points a player needs to declare riichi (null: may riichi with any score).",
        min=0,
        max=MAX_START,
    )
    # A set holds twelve fives; no hand needs more han than a limit hand [WRC 2015 §6.1].
    red_fives: int = _opt(
        "int", "Red fives in the set, each a dora (informational).", min=0, max=12
    )
    min_han: int = _opt("int", "Minimum han to win (informational).", min=1, max=13)
    renhou: str = _opt(
        "choice",
        "Value of renhou (informational).",
        choices=("mangan", "5han", "yakuman"),
    )
    daisharin: bool = _opt("bool", "Daisharin is a yakuman (informational).")
    double_wind_pair_fu: int = _opt(
        "int",
        "Fu for a pair of a wind that is both seat and round wind (informational).",
        min=2,
        max=4,  # 4 [WRC 2015 §6.3] or 2 [ORAN-1 §4.3.3]
    )
    kuitan: bool = _opt("bool", "Open all-simples is allowed (informational).")

    # --- penalties -------------------------------------------------------------------------
    chombo_model: str = _opt(
        "choice",
        "'penalty_points': chombo_amount penalty points off the global score, placement "
        "unchanged; 'table_points': chombo_amount table points off the final points, "
        "placement changed.",
        choices=("penalty_points", "table_points"),
    )
    # Table points: ten times ORAN's 10 000 [ORAN-1 §3.1.4]; in penalty points (WRC's 20
    # [WRC 2015 §7.1]) at most PENALTY_PLAUSIBLE, checked with the model (_check_chombo).
    chombo_amount: int = _opt(
        "int",
        "Size of one chombo (penalty points or table points, see chombo_model).",
        min=0,
        max=100_000,
    )
    # Penalty points: ten WRC chombo at most (PENALTY_PLAUSIBLE); a minute as dear as a chombo.
    late_points_per_minute: int = _opt(
        "int", "Penalty points per minute late, up to late_limit_minutes.", min=0, max=20
    )
    late_limit_minutes: int | None = _opt(
        "int_or_none",
        "A player later than this must be replaced by a substitute (null: no limit).",
        min=0,
        max=LATE_MINUTES_MAX,
    )
    late_substituted_penalty: int = _opt(
        "int",
        "Penalty points in total for a player late beyond the limit and substituted.",
        min=0,
        max=PENALTY_PLAUSIBLE,
    )
    missed_hanchan_penalty: int = _opt(
        "int",
        "Penalty points for a registered player who misses a hanchan.",
        min=0,
        max=PENALTY_PLAUSIBLE,
    )
    hanchans_per_event: int | None = _opt(
        "int_or_none", "Number of hanchans of the event (informational).", min=1, max=100
    )
    tie_breaks: tuple[str, ...] = _opt(
        "tie_breaks",
        "Standings tie-break chain after the total; players still equal share the place.",
    )


RULESETS: dict[str, RuleSet] = {
    "wrc2015": RuleSet(
        key="wrc2015",
        name="World Riichi Championship rules 2015",
        start_points=30000,  # [WRC 2015 §4.1]
        return_points=30000,  # score = (points - 30 000)/1 000 + uma [WRC 2015 §2.3, §5.9.2]
        oka=0,  # start = return: no oka [WRC 2015 §5.9.2]
        uma=(15, 5, -5, -15),  # [WRC 2015 §5.9.2]
        tie_mode="split",  # tied places share their uma [WRC 2015 §5.9.2]
        leftover_riichi="lost",  # nobody gets them [WRC 2015 §5.7.4, §5.9]
        bust_ends_game=False,  # play on below zero [WRC 2015 §4.1, §6.1]
        south4_stop_points=None,  # no agari-yame [WRC 2015 §5.9.1]
        west_extension_points=None,  # ends after South [WRC 2015 §5.8, §5.9]
        time_limit_minutes=90,  # recommended, optional [WRC 2015 §8.2]
        kiriage=True,  # 1 920 -> 2 000 [WRC 2015 §6.1]
        counted_yakuman=False,  # 13+ han = sanbaiman [WRC 2015 §6.1]
        multiple_yakuman=False,  # yakuman never stack [WRC 2015 §6.5]
        honba_ron=300,  # [WRC 2015 §5.7.7, §6.1]
        honba_tsumo=100,  # [WRC 2015 §5.7.7, §6.1]
        noten_total=3000,  # [WRC 2015 §5.7.2]
        nagashi_mangan=False,  # only winning hands are paid [WRC 2015 §6]
        abortive_draws=False,  # none [WRC 2015 §5.7.3]
        multiple_ron="head_bump",  # [WRC 2015 §5.4.1, §5.7.6]
        pao=True,  # Big Three Dragons, Big Four Winds [WRC 2015 §6.2]
        riichi_min_points=None,  # riichi allowed with a negative score [WRC 2015 §6.1, §6.5.1]
        red_fives=0,  # [WRC 2015 §3.3]
        min_han=1,  # [WRC 2015 §5.2]
        renhou="mangan",  # [WRC 2015 §6.5.4]
        daisharin=False,  # not a yaku [WRC 2015 §6.5]
        double_wind_pair_fu=4,  # [WRC 2015 §6.3]
        kuitan=True,  # [WRC 2015 §6.5.1]
        chombo_model="penalty_points",  # [WRC 2015 §7.1]
        chombo_amount=20,  # 20 penalty points [WRC 2015 §7.1]
        late_points_per_minute=1,  # 1-10 min: 1 point/min [WRC 2015 §7.2]
        late_limit_minutes=10,  # > 10 min: substitute [WRC 2015 §7.2]
        late_substituted_penalty=30,  # "only 30 points" [WRC 2015 §7.2; C18]
        missed_hanchan_penalty=20,  # [WRC 2015 §7.2]
        hanchans_per_event=None,  # not stated
        tie_breaks=DEFAULT_TIE_BREAKS,  # engine default (docs/rules-engine.md: tie-break chain)
    ),
    "oran2015": RuleSet(
        key="oran2015",
        name="ORAN-1 (North American Riichi Open) 2015",
        start_points=30000,  # [ORAN-1 §2.1, §3.1.2]
        return_points=30000,  # sheet's "differential" [ORAN-1 §3.4.1]
        oka=0,  # none [ORAN-1 §3.4.1]
        uma=(15, 5, -5, -15),  # "5-15" [ORAN-1 §2.1, §3.1.8]
        tie_mode="split",  # not stated; uma "as in the 2014 WRC" [ORAN-1 §2.1; A2]
        leftover_riichi="lost",  # struck from the count [ORAN-1 §2.2, §3.2.8]
        bust_ends_game=True,  # negative score ends the match [ORAN-1 §2.1, §3.1.2, §3.1.7]
        south4_stop_points=None,  # agari-yame not stated: not allowed [A4]
        west_extension_points=None,  # no West round [ORAN-1 §2.1, §3.1.7]
        time_limit_minutes=None,  # a limit exists, no value [ORAN-1 §3.1.7]
        kiriage=False,  # 3 840 -> 3 900 [ORAN-1 §4.3.4, scoring tables]
        counted_yakuman=False,  # [ORAN-1 §2.2, §3.2.2]
        multiple_yakuman=False,  # cap 32 000 / 48 000 [ORAN-1 §2.2, §3.2.3]
        honba_ron=300,  # [ORAN-1 §5.7]
        honba_tsumo=100,  # [ORAN-1 §5.7]
        noten_total=3000,  # [ORAN-1 §5.7; docs/rules.md §5.1]
        nagashi_mangan=True,  # [ORAN-1 §1, §4.4.10.6]
        abortive_draws=False,  # none [ORAN-1 §2.2, §3.2.1]
        multiple_ron="head_bump",  # atama-hane [ORAN-1 §2.1]
        pao=True,  # not stated: WRC rule [A6]
        riichi_min_points=1000,  # must be able to pay [ORAN-1 §3.1.2]
        red_fives=0,  # [ORAN-1 §2.1, §3.1.6]
        min_han=1,  # no 2-han minimum [ORAN-1 §2.2, §3.2.5]
        renhou="5han",  # stacks [ORAN-1 §2.2, §3.2.4, §4.4.10.5]
        daisharin=True,  # yakuman [ORAN-1 §4.4.3.7]
        double_wind_pair_fu=2,  # "2 fu for a value pair" [ORAN-1 §4.3.3; C13]
        kuitan=True,  # ari-ari [ORAN-1 §2.1, §3.1.1]
        chombo_model="table_points",  # deducted at the end, changes placement [ORAN-1 §3.1.4]
        chombo_amount=10000,  # [ORAN-1 §2.1, §3.1.4, §3.4.1]
        late_points_per_minute=0,  # "subject to sanction", entered by hand [ORAN-1 §3.4.3; A7]
        late_limit_minutes=None,  # no per-minute scale [A7]
        late_substituted_penalty=0,  # not stated [A7]
        missed_hanchan_penalty=0,  # not stated [A7]
        hanchans_per_event=8,  # 4 + 4 [ORAN-1 §2]
        tie_breaks=DEFAULT_TIE_BREAKS,  # engine default (docs/rules-engine.md: tie-break chain)
    ),
    "mahjongsoul": RuleSet(
        key="mahjongsoul",
        name="Mahjong Soul rules (Évriichi slides v1.9)",
        start_points=25000,  # [Évriichi §7]
        return_points=25000,  # not stated [A1]
        oka=0,  # not stated [A1]
        uma=(15, 5, -5, -15),  # the slides' example [Évriichi adv. 6]
        tie_mode="seat_order",  # E > S > W > N; 'split' is the alternative [Évriichi adv. 6]
        leftover_riichi="lost",  # not stated [A3]
        bust_ends_game=True,  # [Évriichi §7, §19]
        south4_stop_points=30000,  # S4 dealer 1st with >= 30 000 stops [Évriichi §19; C23]
        west_extension_points=30000,  # nobody at 30 000 after S4: West round [Évriichi §19]
        time_limit_minutes=None,  # not stated
        kiriage=False,  # [Évriichi §18 tables]
        counted_yakuman=False,  # "Sanbaiman 11+" [Évriichi §18]
        multiple_yakuman=True,  # Big Four Winds = 2, special waits +1 [Évriichi §4]
        honba_ron=300,  # [Évriichi §18]
        honba_tsumo=100,  # [Évriichi §18]
        noten_total=3000,  # [Évriichi §18]
        nagashi_mangan=True,  # [Évriichi adv. 1]
        abortive_draws=True,  # four kinds [Évriichi adv. 3]
        multiple_ron="head_bump",  # not stated [A5]
        pao=True,  # not stated: WRC rule [A6]
        riichi_min_points=None,  # only the 4-tile wall condition [Évriichi §16]
        red_fives=3,  # one per suit [Évriichi §14]
        min_han=1,  # [Évriichi §4]
        renhou="yakuman",  # [Évriichi §4]
        daisharin=False,  # not listed [Évriichi §4]
        double_wind_pair_fu=2,  # not stated (EMA 2012 sheet: 2 fu) [C13]
        kuitan=True,  # not stated
        chombo_model="penalty_points",  # not stated: WRC model [A8]
        chombo_amount=20,  # not stated: WRC amount [A8]
        late_points_per_minute=0,  # not stated
        late_limit_minutes=None,  # not stated
        late_substituted_penalty=0,  # not stated
        missed_hanchan_penalty=0,  # not stated
        hanchans_per_event=None,  # not stated
        tie_breaks=DEFAULT_TIE_BREAKS,  # engine default (docs/rules-engine.md: tie-break chain)
    ),
    "ema2016": RuleSet(
        key="ema2016",
        name="EMA Riichi Competition Rules 2016",
        start_points=30000,  # not in the text we have: WRC's value [A18]
        return_points=30000,  # [A18]
        oka=0,  # [A18]
        uma=(15, 5, -5, -15),  # "15,000/5,000/-5,000/-15,000" [EMA 2016 notes]
        tie_mode="split",  # [A18]
        leftover_riichi="to_first_place",  # sticks left go to the winner [EMA 2016 notes]
        bust_ends_game=False,  # [A18]
        south4_stop_points=None,  # [A18]
        west_extension_points=None,  # [A18]
        time_limit_minutes=None,  # [A18]
        kiriage=False,  # "4-30 is not rounded to mangan payment" [EMA 2016 notes]
        counted_yakuman=False,  # 13+ fan is a sanbaiman [EMA 2016 notes]
        multiple_yakuman=False,  # Big Four Winds a yakuman, not a double [EMA 2016 notes]
        honba_ron=300,  # [EMA 2016 §3.4.10]
        honba_tsumo=100,  # [EMA 2016 §3.4.10]
        noten_total=3000,  # [EMA 2016 §3.4.2]
        nagashi_mangan=False,  # "not allowed" [EMA 2016 notes]
        abortive_draws=False,  # a hand ends two ways [EMA 2016 §3.4; notes]
        multiple_ron="triple_ron",  # "one or more winning declarations" [EMA 2016 §3.4.9]
        pao=True,  # [EMA 2016 §3.3.9]
        riichi_min_points=None,  # [A18]
        red_fives=0,  # removed [EMA 2016 notes]
        min_han=1,  # the five-counter two-yaku rule is removed [EMA 2016 notes]
        renhou="mangan",  # [EMA 2016 notes]
        daisharin=False,  # [A18]
        double_wind_pair_fu=4,  # [A18]
        kuitan=True,  # open tanyao allowed [EMA 2016 notes]
        chombo_model="penalty_points",  # "20,000 points deduction after uma" [EMA 2016 notes]
        chombo_amount=20,  # [EMA 2016 notes]
        late_points_per_minute=1,  # EMA 2016 §5.7 not read: WRC's scale [A18]
        late_limit_minutes=10,  # [A18]
        late_substituted_penalty=30,  # [A18]
        missed_hanchan_penalty=20,  # [A18]
        hanchans_per_event=None,  # not stated
        tie_breaks=DEFAULT_TIE_BREAKS,  # engine default (docs/rules-engine.md: tie-break chain)
    ),
}
# The 2025 edition's text was not available: the 2016 values, kiriage as the Pantheon
# cross-check has it [A19].
RULESETS["ema2025"] = dataclasses.replace(
    RULESETS["ema2016"],
    key="ema2025",
    name="EMA Riichi Competition Rules 2025",
    kiriage=True,  # [A19]
)


@dataclass(frozen=True)
class OptionSpec:
    """Description of one overridable option, for forms and documentation."""

    name: str
    kind: str
    help: str
    defaults: Mapping[str, Any]
    choices: tuple[str, ...] | None = None
    min: int | None = None
    max: int | None = None
    #: Rule set key -> where its default comes from (book and section; "" where the book
    #: is silent), for the forms that show the default beside the option.
    sources: Mapping[str, str] = field(default_factory=dict)
    #: Table points of this kind are a multiple of ``step`` (None: any whole number).
    step: int | None = None


def ruleset_options() -> tuple[OptionSpec, ...]:
    """Every overridable option: name, kind, help, default and its citation per built-in
    rule set, limits.

    ``kind`` is one of ``points`` (int, multiple of 100; ``noten_total`` of 600),
    ``points_or_none``, ``int``, ``int_or_none``, ``bool``, ``choice`` (one of ``choices``),
    ``uma`` (four ints) and ``tie_breaks`` (list of criterion names, see
    :data:`TIE_BREAK_CRITERIA`).

    >>> [o.name for o in ruleset_options()][:3]
    ['start_points', 'return_points', 'oka']
    """
    specs = []
    for f in dataclasses.fields(RuleSet):
        kind = f.metadata["kind"]
        if kind == "fixed":
            continue
        specs.append(
            OptionSpec(
                name=f.name,
                kind=kind,
                help=f.metadata["help"],
                defaults={k: getattr(rs, f.name) for k, rs in RULESETS.items()},
                choices=f.metadata.get("choices"),
                min=f.metadata.get("min"),
                max=f.metadata.get("max"),
                sources={k: citation(k, f.name) for k in RULESETS},
                step=_points_step(f),
            )
        )
    return tuple(specs)


_FIELDS = {f.name: f for f in dataclasses.fields(RuleSet)}


def _points_step(f: dataclasses.Field) -> int | None:
    """Table points go by hundreds unless the option says otherwise; other numbers by one."""
    return f.metadata.get("step", 100) if f.metadata["kind"].startswith("points") else None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_flat(value: object) -> bool:
    """A value, or a list (or object) of values: nothing nested deeper, as no option is."""
    items = value.values() if isinstance(value, Mapping) else value
    if isinstance(items, list | tuple) or isinstance(value, Mapping):
        return not any(isinstance(item, list | tuple | Mapping) for item in items)
    return True


def _check_chombo(ruleset: RuleSet) -> RulesError | None:
    """A chombo in penalty points costs at most PENALTY_PLAUSIBLE (ten of WRC's 20
    [WRC 2015 §7.1]); the option's own maximum is for table points."""
    amount = ruleset.chombo_amount
    if ruleset.chombo_model == "penalty_points" and amount > PENALTY_PLAUSIBLE:
        return RulesError(
            "option_range",
            f"Option 'chombo_amount' must be at most {PENALTY_PLAUSIBLE} penalty points "
            f"(chombo_model 'penalty_points'); got {amount}.",
            field="options.chombo_amount",
            option="chombo_amount",
            max=PENALTY_PLAUSIBLE,
            value=amount,
            chombo_model=ruleset.chombo_model,
        )
    return None


def _check_option(name: str, value: object) -> object:
    """Validate one override and return it in its canonical type (tuples for lists)."""
    f = _FIELDS[name]
    kind = f.metadata["kind"]
    minimum = f.metadata.get("min")
    maximum = f.metadata.get("max")
    fld = f"options.{name}"

    def bad(expected: str) -> RulesError:
        # Nested lists (100 000 deep, from a file) are shown as far as a reader reads them.
        shown = repr(value) if _is_flat(value) else reprlib.repr(value)
        return RulesError(
            "option_type",
            f"Option '{name}' must be {expected}; got {shown}.",
            field=fld,
            option=name,
            expected=expected,
            value=value if _is_flat(value) else shown,
        )

    def high(limit: int) -> RulesError:
        return RulesError(
            "option_range",
            f"Option '{name}' must be at most {limit}; got {value!r}.",
            field=fld,
            option=name,
            max=limit,
            value=value,
        )

    def low() -> RulesError:
        return RulesError(
            "option_range",
            f"Option '{name}' must be at least {minimum}; got {value!r}.",
            field=fld,
            option=name,
            min=minimum,
            value=value,
        )

    if not _is_flat(value):
        raise bad("a value or a list of values")
    if kind in ("points_or_none", "int_or_none") and value is None:
        return None
    if kind in ("points", "points_or_none", "int", "int_or_none"):
        if not _is_int(value):
            raise bad("a whole number" + (" or null" if kind.endswith("_or_none") else ""))
        if minimum is not None and value < minimum:
            raise low()
        if maximum is not None and value > maximum:
            raise high(maximum)
        step = _points_step(f)
        if step and value % step:
            raise RulesError(
                "option_range",
                f"Option '{name}' must be a multiple of {step} table points"
                f"{f.metadata.get('step_why', '')}; got {value}.",
                field=fld,
                option=name,
                step=step,
                value=value,
            )
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if kind == "choice":
        choices = f.metadata["choices"]
        if value not in choices:
            raise RulesError(
                "option_choice",
                f"Option '{name}' must be one of {', '.join(choices)}; got {value!r}.",
                field=fld,
                option=name,
                choices=list(choices),
                value=value,
            )
        return value
    if kind == "uma":
        if not isinstance(value, list | tuple) or len(value) != 4 or not all(map(_is_int, value)):
            raise bad("a list of four whole numbers (1st, 2nd, 3rd, 4th)")
        uma = tuple(value)
        if any(abs(u) > MAX_UMA for u in uma):
            raise RulesError(
                "option_range",
                f"Option 'uma' takes places' uma between -{MAX_UMA} and {MAX_UMA}; got "
                f"{list(uma)}.",
                field=fld,
                option=name,
                max=MAX_UMA,
                value=list(uma),
            )
        if sum(uma) != 0:
            raise RulesError(
                "option_range",
                f"Option 'uma' must add up to zero; {list(uma)} adds up to {sum(uma)}.",
                field=fld,
                option=name,
                value=list(uma),
            )
        if any(a < b for a, b in zip(uma, uma[1:], strict=False)):
            raise RulesError(
                "option_range",
                f"Option 'uma' must not increase from 1st to 4th place; got {list(uma)}.",
                field=fld,
                option=name,
                value=list(uma),
            )
        return uma
    if kind == "tie_breaks":
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise bad("a list of tie-break names")
        unknown = [v for v in value if v not in TIE_BREAK_CRITERIA]
        if unknown or len(set(value)) != len(value):
            raise RulesError(
                "option_choice",
                f"Option 'tie_breaks' takes distinct names among "
                f"{', '.join(TIE_BREAK_CRITERIA)}; got {list(value)}.",
                field=fld,
                option=name,
                choices=list(TIE_BREAK_CRITERIA),
                value=list(value),
            )
        return tuple(value)
    raise RulesError("option_unknown", f"'{name}' cannot be overridden.", field=fld, option=name)


def resolve_ruleset(key: str, options: Mapping[str, object] | None = None) -> RuleSet:
    """The built-in rule set ``key`` with validated ``options`` applied.

    Raises :class:`RulesError` for an unknown key, and :class:`RulesErrors` (every fault at
    once) for unknown options, wrong types or out-of-range values.

    >>> resolve_ruleset("wrc2015").uma
    (15, 5, -5, -15)
    >>> resolve_ruleset("mahjongsoul", {"tie_mode": "split"}).tie_mode
    'split'
    >>> resolve_ruleset("wrc2015", {"kiriage": "yes"})
    Traceback (most recent call last):
    ...
    scoring.rules.errors.RulesErrors: Option 'kiriage' must be true or false; got 'yes'.
    """
    if not isinstance(key, str) or key not in RULESETS:
        raise RulesError(
            "ruleset_unknown",
            f"Unknown rule set {key!r}; choose one of {', '.join(RULESETS)}.",
            field="ruleset",
            ruleset=key,
            choices=list(RULESETS),
        )
    base = RULESETS[key]
    if not options:
        return base
    if not isinstance(options, Mapping):
        raise RulesError(
            "option_type", "Options must be an object of name: value.", field="options"
        )
    errors: list[RulesError] = []
    changes: dict[str, object] = {}
    for name, value in options.items():
        if name not in _FIELDS or _FIELDS[name].metadata["kind"] == "fixed":
            errors.append(
                RulesError(
                    "option_unknown",
                    f"Unknown option {name!r}. Known options: "
                    f"{', '.join(o.name for o in ruleset_options())}.",
                    field=f"options.{name}",
                    option=str(name),
                )
            )
            continue
        try:
            changes[name] = _check_option(name, value)
        except RulesError as exc:
            errors.append(exc)
    if errors:
        raise RulesErrors(errors)
    ruleset = dataclasses.replace(base, **changes)
    if chombo := _check_chombo(ruleset):
        raise RulesErrors([chombo])
    return ruleset
