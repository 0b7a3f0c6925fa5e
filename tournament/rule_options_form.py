"""The rule options of the tournament admin as typed fields, one per option of the rule set.

Each option of the rules engine (`scoring.rules.ruleset_options`) is a field of its kind: a
number with the engine's range, yes/no, a choice, the uma as four numbers, the tie-break
chain as names. Each field shows the rule set's default and where its rule book says so
(`scoring.rules.sources`). Only the options that differ from the rule set's default are
stored (`Tournament.rule_options`); one set back to its default is removed.

The JSON box of the stored overrides stays, as an advanced view. How the two meet:

- the fields show the rule set saved with the tournament; a field counts only if it was
  changed on the page (so that another rule set chosen on the same page does not take the
  old one's defaults as overrides);
- the JSON box shows what is stored and is applied only if it was edited; an option changed
  both in its field and, to another value, in the box is refused on both, nothing applied;
- the engine judges the result, and each of its errors is said beside the field it came
  from (the box for what was typed there), in the organiser's language (`option_message`).

Not here: whether the rules may still change (the admin form: not once sheets exist), the
messages of the engine's codes (`tournament.rule_options`).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring.rules import (
    RULESETS,
    TIE_BREAK_CRITERIA,
    OptionSpec,
    RulesError,
    RulesErrors,
    resolve_ruleset,
    ruleset_options,
)
from scoring.rules.rulesets import MAX_UMA
from tournament.rule_options import option_message

OPTIONS: tuple[OptionSpec, ...] = ruleset_options()
FIELD_PREFIX = "option_"

# The organiser's name of each option (the engine's names are the JSON box's).
OPTION_LABELS = {
    "start_points": _("Start points"),
    "return_points": _("Return points"),
    "oka": _("Oka (table points to 1st place)"),
    "uma": _("Uma (1st, 2nd, 3rd, 4th)"),
    "tie_mode": _("Equal table points"),
    "leftover_riichi": _("Riichi sticks left at the end"),
    "bust_ends_game": _("A score below zero ends the game"),
    "south4_stop_points": _("South 4 stop (agari-yame) from"),
    "west_extension_points": _("West round until somebody has"),
    "time_limit_minutes": _("Time limit of a hanchan (minutes)"),
    "kiriage": _("Kiriage mangan"),
    "counted_yakuman": _("Counted yakuman (13 han)"),
    "multiple_yakuman": _("Double yakuman"),
    "honba_ron": _("Counter (honba) on a ron"),
    "honba_tsumo": _("Counter (honba) per payer of a tsumo"),
    "noten_total": _("Noten payment in total"),
    "nagashi_mangan": _("Nagashi mangan"),
    "abortive_draws": _("Abortive draws"),
    "multiple_ron": _("Several rons on one discard"),
    "pao": _("Liability (pao)"),
    "riichi_min_points": _("Points needed to declare riichi"),
    "red_fives": _("Red fives"),
    "min_han": _("Minimum han"),
    "renhou": _("Renhou"),
    "daisharin": _("Daisharin is a yakuman"),
    "double_wind_pair_fu": _("Fu of a double wind pair"),
    "kuitan": _("Open all simples (kuitan)"),
    "chombo_model": _("Chombo taken as"),
    "chombo_amount": _("Size of a chombo"),
    "late_points_per_minute": _("Penalty points per minute late"),
    "late_limit_minutes": _("Minutes late before a substitute"),
    "late_substituted_penalty": _("Penalty of a late player substituted"),
    "missed_hanchan_penalty": _("Penalty of a missed hanchan"),
    "hanchans_per_event": _("Hanchans of the event"),
    "tie_breaks": _("Tie-breaks of the standings"),
}
CHOICE_LABELS = {
    "split": _("shared: tied players share the uma of their places"),
    "seat_order": _("seat order: East, South, West, North"),
    "lost": _("lost: nobody gets them"),
    "to_first_place": _("to the 1st place"),
    "head_bump": _("head bump: the first in turn order wins"),
    "double_ron": _("double ron: up to two win, three rons are an abortive draw"),
    "triple_ron": _("triple ron: every claimant wins"),
    "mangan": _("mangan"),
    "5han": _("5 han"),
    "yakuman": _("yakuman"),
    "penalty_points": _("penalty points: places unchanged"),
    "table_points": _("table points: places may change"),
}
PLACES = (_("1st place"), _("2nd place"), _("3rd place"), _("4th place"))


def field_name(option: str) -> str:
    """The form field of an option (the option's own name is the JSON box's)."""
    return FIELD_PREFIX + option


def _plain(value: Any) -> Any:
    """An option's value as JSON has it: tuples as lists."""
    return list(value) if isinstance(value, tuple) else value


class UmaWidget(forms.MultiWidget):
    def __init__(self) -> None:
        limits = {"min": -MAX_UMA, "max": MAX_UMA, "class": "vIntegerField"}
        super().__init__([forms.NumberInput({**limits, "aria-label": place}) for place in PLACES])

    def decompress(self, value: Any) -> list:
        return list(value) if isinstance(value, list | tuple) else [None] * 4


class UmaField(forms.MultiValueField):
    """Four whole numbers; that they add up to zero and do not increase is the engine's."""

    widget = UmaWidget

    def __init__(self, **kwargs: Any) -> None:
        super().__init__([forms.IntegerField() for _place in PLACES], **kwargs)

    def compress(self, data_list: list) -> list[int]:
        return list(data_list)


class TieBreaksField(forms.CharField):
    """Tie-break names in order, separated by commas; which names exist is the engine's."""

    def prepare_value(self, value: Any) -> Any:
        return ", ".join(value) if isinstance(value, list | tuple) else value

    def to_python(self, value: Any) -> list[str]:
        text = super().to_python(value)
        return [name.strip() for name in text.split(",") if name.strip()]


def _option_field(spec: OptionSpec) -> forms.Field:
    label = OPTION_LABELS[spec.name]
    if spec.kind in ("points", "int", "points_or_none", "int_or_none"):
        limits = {"min": spec.min, "max": spec.max, "step": spec.step or 1}
        return forms.IntegerField(
            label=label,
            required=not spec.kind.endswith("_or_none"),
            widget=forms.NumberInput({k: v for k, v in limits.items() if v is not None}),
        )
    if spec.kind == "bool":
        return forms.BooleanField(label=label, required=False)
    if spec.kind == "choice":
        return forms.ChoiceField(label=label, choices=[(c, CHOICE_LABELS[c]) for c in spec.choices])
    if spec.kind == "uma":
        return UmaField(label=label)
    return TieBreaksField(label=label, required=False)


def _shown(spec: OptionSpec, value: Any) -> str:
    """A default as the field shows it."""
    if value is None:
        return str(_("none"))
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if spec.kind == "choice":
        return str(CHOICE_LABELS[value])
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) if value else str(_("none"))
    return str(value)


def _help(spec: OptionSpec, ruleset: str) -> str:
    """The rule set's default and its citation, then what the field takes."""
    values = {"default": _shown(spec, spec.defaults[ruleset]), "source": spec.sources[ruleset]}
    parts = [
        _("Default: %(default)s (%(source)s).") % values
        if values["source"]
        else _("Default: %(default)s (the rule book does not say; the engine's choice).") % values
    ]
    if spec.min is not None:
        parts.append(_("From %(min)s to %(max)s.") % {"min": spec.min, "max": spec.max})
    if spec.step and spec.step != 1:
        parts.append(_("A multiple of %(step)s.") % {"step": spec.step})
    if spec.kind.endswith("_or_none"):
        parts.append(_("Empty: none."))
    if spec.kind == "uma":
        parts.append(
            _("Each from -%(max)s to %(max)s; they add up to zero and do not increase.")
            % {"max": MAX_UMA}
        )
    if spec.kind == "tie_breaks":
        parts.append(
            _("Names separated by commas, among: %(names)s. Empty: equal totals share the place.")
            % {"names": ", ".join(TIE_BREAK_CRITERIA)}
        )
    return " ".join(str(part) for part in parts)


_RuleOptionFields = forms.Form.__class__(
    "_RuleOptionFields",
    (forms.Form,),
    {"__module__": __name__, **{field_name(spec.name): _option_field(spec) for spec in OPTIONS}},
)


class RuleOptionsForm(_RuleOptionFields, forms.ModelForm):
    """A tournament's form with a field for each rule option (see the module's docstring).
    Its Meta (model and fields) is the admin's."""

    OPTION_FIELDS = tuple(field_name(spec.name) for spec in OPTIONS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        key = self.instance.ruleset if self.instance.ruleset in RULESETS else "wrc2015"
        stored = self.initial.get("rule_options")
        stored = stored if isinstance(stored, dict) else {}
        # What each field showed: the stored override, else the rule set's default.
        self.shown_options = {
            spec.name: _plain(stored.get(spec.name, spec.defaults[key])) for spec in OPTIONS
        }
        for spec in OPTIONS:
            field = self.fields[field_name(spec.name)]
            field.initial = self.shown_options[spec.name]
            field.help_text = _help(spec, key)
        self.option_inputs_changed: list[str] = []

    def clean(self) -> dict:
        cleaned = super().clean()
        if "rule_options" in cleaned and "ruleset" in cleaned:
            self._merge_options(cleaned)
        return cleaned

    def _merge_options(self, cleaned: dict) -> None:
        """The overrides to store: the JSON box if edited, the fields changed on top, only
        what differs from the rule set's default; the engine's errors beside their field."""
        stored = self.initial.get("rule_options") or {}
        typed = cleaned["rule_options"] if cleaned["rule_options"] is not None else {}
        box_edited = typed != stored
        edited = {
            spec.name: cleaned[field_name(spec.name)]
            for spec in OPTIONS
            if field_name(spec.name) in cleaned
            and cleaned[field_name(spec.name)] != self.shown_options[spec.name]
        }
        self.option_inputs_changed = [field_name(name) for name in edited]
        if box_edited:
            self.option_inputs_changed.append("rule_options")
        if box_edited and isinstance(typed, dict) and self._refuse_conflicts(typed, edited):
            return
        if box_edited and not isinstance(typed, dict):
            merged: Any = typed
        else:
            merged = {**(typed if box_edited else stored), **edited}
        key = cleaned["ruleset"]
        try:
            ruleset = resolve_ruleset(key, merged)
        except (RulesError, RulesErrors) as error:
            faults = error.errors if isinstance(error, RulesErrors) else [error]
            cleaned.pop("rule_options", None)
            for fault in faults:
                option = fault.params.get("option")
                target = field_name(option) if option in edited else "rule_options"
                self.add_error(target, ValidationError(option_message(fault), code=fault.code))
            return
        default = RULESETS[key]
        # What the engine took from an empty box of another type ("", []) is no override.
        names = merged if isinstance(merged, dict) else {}
        cleaned["rule_options"] = {
            name: _plain(getattr(ruleset, name))
            for name in names
            if getattr(ruleset, name) != getattr(default, name)
        }

    def _refuse_conflicts(self, typed: dict, edited: dict) -> bool:
        """An option changed in its field and, to another value, in the JSON box."""
        stored = self.initial.get("rule_options") or {}
        missing = object()
        conflicts = [
            name
            for name, value in edited.items()
            if typed.get(name, missing) != stored.get(name, missing) and typed.get(name) != value
        ]
        for name in conflicts:
            message = _(
                "You changed %(option)s both here and in the stored overrides (JSON) below, "
                "to different values: change it in one place only."
            ) % {"option": OPTION_LABELS[name]}
            self.add_error(field_name(name), message)
            self.add_error("rule_options", message)
        return bool(conflicts)
