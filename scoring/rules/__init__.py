"""Pure Riichi Mahjong rules engine for the tournament manager (stdlib only, no Django).

It values and pays hands, replays a hanchan hand by hand, scores a signed score sheet and
ranks a tournament, under a named rule set (``wrc2015``, ``oran2015``, ``mahjongsoul``,
``ema2016``, ``ema2025``) with validated overrides. The specification is ``docs/rules.md``
(each rule with its rule book and section; the books win when they disagree). Inputs and
outputs are frozen dataclasses, ints and :class:`fractions.Fraction`; user-fixable errors are
:class:`RulesError` / :class:`RulesErrors` with stable codes; :class:`RulesFatalError` is a
bug.

Glossary
--------
hanchan
    One game of East and South rounds (E1 … S4) between four players [WRC 2015 §2.3].
seat / wind
    A player's place at the table, named by the *starting* wind E, S, W, N (East deals
    first; turn order E → S → W → N). Arrays are always in that order.
place
    1st … 4th at the end of a hanchan by table points (standard competition ranking for
    ties: 1, 1, 3, 4).
uma
    Tournament points given by place (WRC +15/+5/−5/−15 [WRC 2015 §5.9.2]).
oka
    Bonus for 1st place when the return points exceed the start points (none in WRC/ORAN).
chombo
    A major foul: the hand is replayed and the offender penalised (WRC 20 penalty points,
    ORAN 10 000 table points) [WRC 2015 §7.1; ORAN-1 §3.1.4].
honba
    Continuance counter: +1 after a dealer win or a draw, reset by a non-dealer win; each
    adds 300 to the next win [WRC 2015 §5.7.7].
table points / tournament points
    Sticks (ints, multiples of 100) vs scores (exact; 1 point = 1 000 table points).

One hand is a :class:`Hand` wherever it goes: scored alone (:func:`score_hand`), replayed in
a game (:func:`replay_game`) or stored on a score sheet by the web.

Modules: :mod:`.errors`, :mod:`.bounds` (the range of every number), :mod:`.rulesets`,
:mod:`.sources` (where each default comes from), :mod:`.value` (what a winning hand is
worth), :mod:`.hands`, :mod:`.game`, :mod:`.hanchan`, :mod:`.units` (the whole unit scores
are counted in), :mod:`.standings`, :mod:`.stages` (the cut between two stages and the score
carried over).
"""

from .bounds import check_penalty, unusual_points_limit
from .errors import ERROR_CODES, RulesError, RulesErrors, RulesFatalError
from .game import GameResult, HandRecord, replay_game, round_name
from .hanchan import (
    HanchanResult,
    SeatScore,
    SeatSheet,
    check_sheet_numbers,
    score_hanchan,
    unusual_points,
    validate_sheet,
)
from .hands import (
    APPLICABLE_KEYS,
    SEATS,
    Hand,
    HandResult,
    Win,
    WinResult,
    base_points,
    ceil100,
    check_han_fu,
    noten_payments,
    score_hand,
)
from .rulesets import (
    DEFAULT_TIE_BREAKS,
    RULESETS,
    TIE_BREAK_CRITERIA,
    OptionSpec,
    RuleSet,
    resolve_ruleset,
    ruleset_options,
)
from .stages import CARRY_OVER_POLICIES, Cut, RankedPlayer, carry_over, cut_standings
from .standings import (
    Penalty,
    PlayerRecord,
    StandingRow,
    TeamMember,
    TeamStandingRow,
    compute_standings,
    compute_team_standings,
    running_ranks,
)
from .units import SCORE_UNIT, to_units

__all__ = [
    "APPLICABLE_KEYS",
    "CARRY_OVER_POLICIES",
    "DEFAULT_TIE_BREAKS",
    "ERROR_CODES",
    "RULESETS",
    "SCORE_UNIT",
    "SEATS",
    "TIE_BREAK_CRITERIA",
    "Cut",
    "GameResult",
    "Hand",
    "HandRecord",
    "HandResult",
    "HanchanResult",
    "OptionSpec",
    "Penalty",
    "PlayerRecord",
    "RankedPlayer",
    "RuleSet",
    "RulesError",
    "RulesErrors",
    "RulesFatalError",
    "SeatScore",
    "SeatSheet",
    "StandingRow",
    "TeamMember",
    "TeamStandingRow",
    "Win",
    "WinResult",
    "base_points",
    "carry_over",
    "ceil100",
    "check_han_fu",
    "check_penalty",
    "check_sheet_numbers",
    "compute_standings",
    "compute_team_standings",
    "cut_standings",
    "noten_payments",
    "replay_game",
    "resolve_ruleset",
    "round_name",
    "running_ranks",
    "ruleset_options",
    "score_hand",
    "score_hanchan",
    "to_units",
    "unusual_points",
    "unusual_points_limit",
    "validate_sheet",
]
