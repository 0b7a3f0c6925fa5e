"""A tournament's rule overrides in the organiser's words.

An organiser types the overrides of the rule set's parameters as JSON in the tournament
admin; the rules engine (`scoring.rules.resolve_ruleset`) refuses a bad one with a
`RulesError` code. This module says each such code as a sentence in the active language,
the names and values written back as JSON, so that the tournament's own validation
(`Tournament.clean`) speaks the organiser's language. The other codes of the engine, those
of score sheets and hands, are said by `scoring.messages`. `RuleOptionsField` is the box
itself: it refuses text that is no overrides document before the engine sees it.
"""

from __future__ import annotations

import json

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from scoring.rules import RulesError, ruleset_options

# The rule overrides an organiser types as JSON in the tournament admin: the engine's option
# errors, the names and values written back as JSON.
OPTION_MESSAGES = {
    "ruleset_unknown": _("Unknown rule set %(ruleset)s; choose one of %(choices)s."),
    "option_unknown": _("Unknown option %(option)s. The options are: %(options)s."),
    "options_not_object": _(
        'The rule overrides must be an object of name: value, e.g. {"uma": [20, 10, -10, -20]}.'
    ),
    "option_type": _("Option %(option)s must be %(expected)s; got %(value)s."),
    "option_min": _("Option %(option)s must be at least %(min)s; got %(value)s."),
    "option_max": _("Option %(option)s must be at most %(max)s; got %(value)s."),
    "uma_range": _("Each place's uma must be between -%(max)s and %(max)s points; got %(value)s."),
    "chombo_range": _(
        "Option %(option)s must be at most %(max)s when a chombo costs penalty points "
        "(chombo_model penalty_points); got %(value)s."
    ),
    "option_step": _(
        "Option %(option)s must be a multiple of %(step)s table points; got %(value)s."
    ),
    "option_noten_step": _(
        "Option %(option)s must be a multiple of %(step)s table points, so that one, two or "
        "three tenpai players share it in hundreds; got %(value)s."
    ),
    "uma_sum": _("The uma must add up to zero; %(value)s adds up to %(total)s."),
    "uma_order": _("The uma must not increase from 1st to 4th place; got %(value)s."),
    "option_choice": _("Option %(option)s must be one of %(choices)s; got %(value)s."),
    "tie_breaks_choice": _(
        "Option %(option)s takes different names among %(choices)s; got %(value)s."
    ),
}
# What an option of each kind (scoring.rules.ruleset_options) must be.
OPTION_EXPECTED = {
    "points": _("a whole number"),
    "int": _("a whole number"),
    "points_or_none": _("a whole number or null"),
    "int_or_none": _("a whole number or null"),
    "bool": _("true or false"),
    "uma": _("a list of four whole numbers (1st, 2nd, 3rd, 4th)"),
    "tie_breaks": _("a list of tie-break names"),
}
_OPTION_KINDS = {spec.name: spec.kind for spec in ruleset_options()}


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def option_message(error: RulesError) -> str:
    """An option error in the organiser's words: which template its parameters call for
    (the engine's English sentence if they fit none)."""
    try:
        return _option_message(error)
    except (KeyError, TypeError, ValueError):
        return error.message


def _option_message(error: RulesError) -> str:
    params = error.params
    option = params.get("option")
    values = {key: _json(value) for key, value in params.items()}
    if error.code == "ruleset_unknown":
        key = "ruleset_unknown"
        values["choices"] = ", ".join(params.get("choices", ()))
    elif error.code == "option_unknown":
        key = "option_unknown"
        values["options"] = ", ".join(_OPTION_KINDS)
    elif error.code == "option_type" and option is None:
        key = "options_not_object"
    elif error.code == "option_type":
        key = "option_type"
        values["expected"] = OPTION_EXPECTED.get(_OPTION_KINDS.get(option), params["expected"])
    elif error.code == "option_choice":
        key = "tie_breaks_choice" if option == "tie_breaks" else "option_choice"
        values["choices"] = ", ".join(params.get("choices", ()))
    elif "min" in params:
        key = "option_min"
    elif "chombo_model" in params:
        key = "chombo_range"
    elif "max" in params:
        key = "uma_range" if option == "uma" else "option_max"
    elif "step" in params:
        key = "option_noten_step" if option == "noten_total" else "option_step"
    elif option == "uma" and sum(params["value"]) != 0:
        key = "uma_sum"
        values["total"] = _json(sum(params["value"]))
    else:
        key = "uma_order"
    return str(OPTION_MESSAGES[key] % values)


OPTION_CODES = (
    "ruleset_unknown",
    "option_unknown",
    "option_type",
    "option_range",
    "option_choice",
)


# Deeper than an option goes ({"uma": [...]} is 2 levels) and longer than any option's number
# (docs/rules-engine.md, "Ranges"): refused as text, before Python's own limits raise.
OVERRIDES_MAX_DEPTH = 8
OVERRIDES_MAX_DIGITS = 15


class _TooManyDigits(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _whole_number(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > OVERRIDES_MAX_DIGITS:
        raise _TooManyDigits(digits)
    return int(text)


def _depth(value) -> int:
    """How deep lists and objects nest in a parsed document (a value alone: 0)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict | list):
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


class RuleOptionsField(forms.JSONField):
    """The rule overrides box of the tournament admin. A 5 000-digit number stopped
    Python's int() and 100 000 "[" its JSON parser, each with a server error, on Save and
    again when the page showed the input back: such text is refused with a sentence (and
    shown back as typed); what parses is the engine's to judge (`Tournament.clean`)."""

    default_error_messages = {
        "too_deep": _(
            "The rule overrides nest lists or objects more than %(depth)s levels deep; an "
            "option is a value or a list of values."
        ),
        "too_long": _(
            "The rule overrides hold a number of %(digits)s digits; no option is that large."
        ),
    }

    def to_python(self, value):
        if isinstance(value, str) and value not in self.empty_values:
            self._refuse_unreadable(value)
        return super().to_python(value)

    def bound_data(self, data, initial):
        if isinstance(data, str):
            try:
                self._refuse_unreadable(data)
            except ValidationError:
                return InvalidJSONInput(data)
        return super().bound_data(data, initial)

    def _refuse_unreadable(self, text: str) -> None:
        """Parse with the limits; invalid JSON is left to Django's own message."""
        too_deep = ValidationError(
            self.error_messages["too_deep"],
            code="too_deep",
            params={"depth": OVERRIDES_MAX_DEPTH},
        )
        try:
            value = json.loads(text, parse_int=_whole_number)
        except _TooManyDigits as error:
            raise ValidationError(
                self.error_messages["too_long"],
                code="too_long",
                params={"digits": number_format(error.digits, force_grouping=True)},
            ) from None
        except RecursionError:
            raise too_deep from None
        except json.JSONDecodeError:
            return
        if _depth(value) > OVERRIDES_MAX_DEPTH:
            raise too_deep
