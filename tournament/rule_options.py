"""A tournament's rule overrides in the organiser's words.

An organiser types the overrides of the rule set's parameters as JSON in the tournament
admin; the rules engine (`scoring.rules.resolve_ruleset`) refuses a bad one with a
`RulesError` code. This module says each such code as a sentence in the active language,
the names and values written back as JSON, so that the tournament's own validation
(`Tournament.clean`) speaks the organiser's language. The other codes of the engine, those
of score sheets and hands, are said by `scoring.messages`.
"""

from __future__ import annotations

import json

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
