"""The rules engine's error codes in the user's language, and where each one is shown.

The engine raises `RulesError(code, params, field="seats[2].points")`; this module is the
one place that turns a code into a translated sentence (`message_for`) and a field path into
the form field it concerns (`form_field_for`). A code missing here falls back to the
engine's English sentence, so a new engine code is never swallowed; an invalid rule override
(the tournament admin's JSON) is said in the organiser's language too, by
`tournament.rule_options`. It also holds the note
every score sheet, page or PDF, writes under a substitute (`SUBSTITUTE_NOT_RANKED`), and why
the penalty form and service refuse an unranked player (`NOT_RANKED_NO_PENALTY`).
"""

from __future__ import annotations

import re
from fractions import Fraction

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from scoring.rules import RulesError
from tournament.formatting import format_points, format_score
from tournament.models import RULESET_CHOICES, WIND_LABELS, WINDS
from tournament.rule_options import OPTION_CODES, option_message

# WRC 2015 §7.2: a substitute's points, place and uma decide the table, never a ranking.
SUBSTITUTE_NOT_RANKED = _(
    "substitute, not ranked: these points, place and uma count for the table only"
)
# WRC 2015 §7.1, §7.2: a substitute's or a disqualified player's penalty would count nowhere.
NOT_RANKED_NO_PENALTY = _(
    "Penalties count only for ranked players: substitutes and disqualified players are "
    "not in the ranking (WRC 2015 §7.1, §7.2)."
)

MESSAGES = {
    # Seats checked against the seating (scoring.entries)
    "seat_not_in_round": _("This player is not seated in this round."),
    "seat_wrong_table": _("This player is seated at table %(table)s in this round."),
    "seat_wrong_wind": _("This player starts as %(wind)s at this table."),
    "seat_disqualified": _(
        "%(player)s is disqualified and plays no more (WRC 2015 §7.1): choose the substitute "
        "who played this seat."
    ),
    "substitute_unknown": _("Choose an active substitute of this tournament."),
    "substitute_repeated": _("This substitute already plays another seat of this table."),
    "substitute_elsewhere": _("This substitute already plays at table %(table)s in this round."),
    "substitute_seated": _("This substitute is seated at table %(table)s in this round."),
    # The signed sheet (docs/rules.md §7.4)
    "seats_count": _("A score sheet has exactly four seats."),
    "player_missing": _("Every seat needs a player."),
    "player_repeated": _("This player is already written in another seat."),
    "points_type": _("Enter the final points as a whole number, e.g. 32100."),
    "points_not_multiple": _("%(points)s is not a multiple of 100; every payment is."),
    # The ranges of docs/rules-engine.md ("Ranges"), from scoring.rules.bounds.
    "points_range": _(
        "%(points)s points cannot come out of one hanchan: with %(start_points)s start points "
        "a player ends between −%(limit)s and %(limit)s."
    ),
    "points_unusual": _(
        "%(seat)s ends with %(points)s points, beyond %(limit)s either way: that takes a run "
        "of yakuman. Check it against the paper sheet."
    ),
    "count_negative": _("Enter a whole number, zero or more."),
    "count_too_high": _("At most %(max)s: %(value)s cannot be right."),
    "penalty_range": _("A penalty takes off at most %(max)s points."),
    "flag_type": _("Answer yes or no."),
    "absent_needs_substitute": _("The player is absent: choose the substitute who played."),
    "absent_and_late": _("An absent player has no minutes of lateness."),
    "late_needs_substitute": _(
        "%(minutes)s minutes late: after %(limit)s minutes a substitute plays the hanchan "
        "(WRC 2015 §7.2); choose the substitute."
    ),
    "substitute_too_early": _(
        "%(minutes)s minutes late: under %(limit)s minutes the player plays the hanchan "
        "and pays the lateness penalty (WRC 2015 §7.2); clear the substitute."
    ),
    "points_sum": ngettext_lazy(
        "The four scores add up to %(total)s; with %(riichi_sticks_left)s riichi stick left "
        "on the table they must add up to %(expected)s.",
        "The four scores add up to %(total)s; with %(riichi_sticks_left)s riichi sticks left "
        "on the table they must add up to %(expected)s.",
        "riichi_sticks_left",
    ),
    "points_sum_chombo_deducted": _(
        "The four scores add up to %(total)s, %(deducted)s short of %(expected)s: the "
        "chombo deduction. Write each player's points before it; it is made from the chombo "
        "count."
    ),
    # Hands (docs/rules.md §3–§6)
    "result_unknown": _("Choose ron, tsumo, draw or chombo."),
    "seat_unknown": _("Choose a seat: E, S, W or N."),
    "seat_missing": _("Choose the seat: this result needs it."),
    "seat_repeated": _("A seat is chosen twice."),
    "han_type": _("Han must be a whole number."),
    "han_missing": _("A win needs its han (or yakuman)."),
    "yakuman_with_han_fu": _(
        "A yakuman replaces han and fu: clear the han and fu, or the yakuman."
    ),
    "han_too_low": _("A winning hand has at least 1 han."),
    "fu_missing": _("A hand under 5 han needs its fu."),
    "fu_type": _("Fu must be a whole number."),
    "fu_too_low": _("Every win has at least 20 fu."),
    "fu_not_rounded": _("Fu are rounded up to a multiple of 10 (only seven pairs has 25)."),
    "ron_20_fu": _("A ron cannot have 20 fu."),
    "tsumo_1_han_20_fu": _("1 han 20 fu by tsumo cannot happen (pinfu tsumo is 2 han)."),
    "one_han_25_fu": _("1 han 25 fu cannot happen: 25 fu is seven pairs, itself 2 han."),
    "tsumo_2_han_25_fu": _("2 han 25 fu by tsumo cannot happen: seven pairs tsumo is 3 han."),
    "tsumo_with_loser": _("A tsumo has no discarder."),
    "winner_is_loser": _("The winner cannot be the discarder."),
    "ron_priority": _(
        "%(winner)s is first in turn order after the discarder, so %(winner)s wins this discard."
    ),
    "ron_claimants_all_win": _(
        "Under this rule set every player who called ron on the discard wins: enter each "
        "winner's hand (the second winner's in its own columns) and clear “Ron called by”."
    ),
    "wins_with_single_keys": _(
        "The winners are listed one by one: clear this, or enter a single winner."
    ),
    "multiple_ron_not_in_ruleset": _(
        "Under this rule set only the player first in turn order after the discarder wins "
        "(head bump, %(ruleset)s): keep that winner alone and clear the second winner."
    ),
    "ron_too_many_winners": _(
        "At most %(max)s players win on one discard under this rule set: three rons on one "
        "discard are an abortive draw."
    ),
    "key_not_applicable": _("Does not apply to this result; clear it or change the result."),
    "abortive_not_in_ruleset": _("This rule set has no abortive draws."),
    "nagashi_not_in_ruleset": _("This rule set has no nagashi mangan."),
    "pao_not_in_ruleset": _("This rule set has no liability (pao)."),
    "pao_needs_yakuman": _("Liability (pao) only applies to a yakuman."),
    "pao_is_winner": _("The winner cannot be liable."),
    "noten_riichi_is_tenpai": _("%(seat)s is ticked both as tenpai and as a noten riichi."),
    "riichi_hand_not_shown": _(
        "%(seat)s declared riichi: tick %(seat)s as tenpai, as a noten riichi (a chombo) or as "
        "a dead hand."
    ),
    "claimants_on_tsumo": _("A tsumo has no other claimants."),
    "hand_after_end": _(
        "The game was over after hand %(index)s: %(ended)s. Remove this hand or correct the "
        "hands before it."
    ),
    "hand_state_mismatch": _("This does not match the hands before it."),
    "game_not_over": _(
        "The game is not over after hand %(index)s: %(next_round)s comes next, %(dealer)s "
        "dealing. Enter the hands left, or tick “The time was up” if the signal ended the "
        "game (WRC 2015 §8.2); to stop for now, save part-way."
    ),
    "no_hands": _("No hand is entered yet: enter the hands, or the final scores instead."),
    "noten_riichi_without_riichi": _(
        "%(seat)s is ticked as a noten riichi without a riichi in this hand: tick the riichi "
        "too, or clear the noten riichi."
    ),
    "riichi_cannot_pay": _(
        "%(seat)s has %(points)s points and cannot declare riichi: it takes at least %(min)s."
    ),
}

_SEAT_FIELD = re.compile(r"^seats\[(\d)\]\.(\w+)$")
_HAND_FIELD = re.compile(r"^hands\[(\d+)\](?:\.(.+))?")
# One of several winners on one discard: `wins` (the winners as a whole), `wins[1]`,
# `wins[1].fu`.
_WIN_FIELD = re.compile(r"^wins(?:\[(\d+)\](?:\.(\w+))?)?$")
#: A winner's own columns on the hand form; the first winner's are the single winner's.
WIN_COLUMNS = ("winner", "han", "fu", "yakuman")
SEAT_FIELD_NAMES = {
    "player": "player",
    "points": "points",
    "chombo": "chombo",
    "late_minutes": "late",
    "substitute": "substitute",
    "absent": "substitute",
}


# Why a game was over (`GameResult.ended`): a referee adding a hand after it needs the
# reason, the Mahjong Soul stop rule [Évriichi §19] above all.
GAME_ENDS = {
    "south4": _("the South round was over"),
    "bust": _("a score went below zero"),
    "south4_stop": _("the South 4 dealer kept the deal in 1st place with enough points to stop"),
    "west": _("a player reached the target points in the West round"),
    "west4": _("the West round was over"),
    "time_limit": _("the time was up"),
}

_SEAT_PARAMS = ("seat", "winner", "wind", "dealer")
# Counts a plural message (ngettext_lazy) chooses its form by: they stay numbers.
_COUNT_PARAMS = ("riichi_sticks_left",)


def _param(key: str, value):
    """Numbers grouped as the reader writes them, below zero with the sheets' minus sign; a
    seat letter as the wind's name; how a game ended in words; a rule set by its name."""
    if key in _COUNT_PARAMS:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return format_points(value)
    if isinstance(value, Fraction):
        return format_score(value, signed=False)
    if key in _SEAT_PARAMS and value in WIND_LABELS:
        return WIND_LABELS[value]
    if key == "ended":
        return GAME_ENDS.get(value, value)
    if key == "ruleset":
        return dict(RULESET_CHOICES).get(value, value)
    if key == "next_round" and isinstance(value, str) and value[:1] in WIND_LABELS:
        return f"{WIND_LABELS[value[0]]} {value[1:]}"
    return value


def message_for(error: RulesError) -> str:
    """The error as a sentence in the active language."""
    if error.code in OPTION_CODES:
        return option_message(error)
    template = MESSAGES.get(error.code)
    if template is None:
        return error.message
    params = {key: _param(key, value) for key, value in error.params.items()}
    try:
        # `%` on the lazy message itself: a plural one picks its form from the parameters.
        return str(template % params)
    except (KeyError, TypeError, ValueError):
        return error.message


def win_field(column: str, index: int) -> str:
    """The hand form's field of one winner's column: the first winner's are the single
    winner's (`fu`), the second's and third's numbered (`fu_2`, `winner_3`)."""
    return column if index == 0 else f"{column}_{index + 1}"


def _hand_field(path: str, error: RulesError) -> str | None:
    """The hand form's field an engine path inside a hand concerns (`fu` for `fu`, `fu_2`
    for `wins[1].fu`); the winners as a whole (too many, or not allowed) are shown on the
    first winner past what the rules take: the second under head bump, the third where
    two at most win (`max`)."""
    win = _WIN_FIELD.match(path)
    if win is None:
        return path.split("[")[0].split(".")[0] or None
    index = int(win.group(1)) if win.group(1) is not None else error.params.get("max", 1)
    column = win.group(2)
    if column == "pao" and index == 0:
        return "pao"
    return win_field(column if column in WIN_COLUMNS else "winner", index)


def form_field_for(error: RulesError) -> tuple[int | None, str | None]:
    """Where to show the error: (hand index or None, field name or None for the form).

    Seat fields are named `<wind>_<field>` (`W_points` for `seats[2].points`); hand fields
    are the field of the hand's form (`fu` for `hands[4].fu`), with the hand's index.
    """
    path = error.field or ""
    seat = _SEAT_FIELD.match(path)
    if seat:
        name = SEAT_FIELD_NAMES.get(seat.group(2))
        return None, f"{WINDS[int(seat.group(1))]}_{name}" if name else None
    hand = _HAND_FIELD.match(path)
    if hand:
        return int(hand.group(1)), _hand_field(hand.group(2) or "", error)
    if path == "riichi_sticks_left":
        return None, "riichi_sticks_left"
    return None, None
