"""Forms of the score-sheet pages. They parse fields; every rule that spans fields (sum of
the points, players, substitutes, hands) is asked of the rules engine, and its errors are
put back on the field they concern (`scoring.messages`)."""

from __future__ import annotations

import dataclasses
import datetime
import math
import uuid
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from scoring.entries import SeatEntry, SheetEntry, TableContext, hand_from_data, hand_to_data
from scoring.messages import (
    NOT_RANKED_NO_PENALTY,
    WIN_COLUMNS,
    form_field_for,
    message_for,
    win_field,
)
from scoring.models import Penalty
from scoring.rules import (
    APPLICABLE_KEYS,
    Hand,
    RulesError,
    RulesErrors,
    RuleSet,
    check_penalty,
)
from tournament.models import WIND_LABELS, WINDS, Registration, Round
from tournament.names import choice_sort_key
from tournament.services.clock import table_clocks, table_time_left
from tournament.widgets import LongSelect

#: The fields of one seat on the sheet form, named "<wind>_<field>".
SEAT_FIELDS = ("player", "points", "chombo", "late", "substitute")


def _name(registration: Registration) -> str:
    return registration.player.display_name


def late_minutes_from_check_in(registration: Registration | None, round_: Round) -> int:
    """Minutes between the round's start and the player's check-in, when both are known and
    the check-in came after the start (the referee can change it). The start is the clock's
    first start, but never before the scheduled time: a round begun early makes nobody who
    came on time late."""
    starts = [moment for moment in (round_.started_at, round_.scheduled_start) if moment]
    start = max(starts) if starts else None
    checked_in = registration.checked_in_at if registration else None
    if not start or not checked_in or checked_in <= start:
        return 0
    if checked_in - start > datetime.timedelta(hours=3):
        return 0  # checked in for another session
    return math.ceil((checked_in - start).total_seconds() / 60)


class PointsField(forms.IntegerField):
    """Final points, whole table points. Django's IntegerField reads "25.000" as 25 (it drops
    a trailing ".000"), but at a table "25.000" is 25 000 written with a European thousands
    separator: a dot or a comma is refused, saying how to type the number, rather than read
    as a number nobody meant."""

    default_error_messages = {
        "separator": _("Enter the final points without a dot or comma: 25000, not 25.000."),
    }

    def to_python(self, value):
        if isinstance(value, str) and ("." in value or "," in value):
            raise ValidationError(self.error_messages["separator"], code="separator")
        return super().to_python(value)


def count_field(label: str, **kwargs) -> forms.IntegerField:
    """A count (chombo, minutes late, sticks, han, fu): phones show the digits keypad, which
    has no minus sign, as a count never needs one."""
    return forms.IntegerField(
        label=label,
        min_value=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        **kwargs,
    )


class SheetForm(forms.Form):
    """The four seats of a table: final points or, for a hand-by-hand sheet, only the
    players, lateness and substitutes (the points come from the hands)."""

    token = forms.UUIDField(widget=forms.HiddenInput)
    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    riichi_sticks_left = count_field(_("Riichi sticks left on the table"), initial=0)
    time_up = forms.BooleanField(
        label=_("The time was up: the game ended with the last hand"),
        help_text=_(
            "WRC 2015 §8.2: at the signal the hand in play is finished, then the game ends. "
            "Leave it unticked for a game played to its end."
        ),
        required=False,
    )
    note = forms.CharField(
        label=_("Note"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
    # Shown by Check beside points past ±8 × the start points (scoring.rules.unusual_points),
    # under the Save it goes with: outside the form element, so it names the form.
    unusual_confirmed = forms.BooleanField(
        label=_("These points are right: they are on the signed paper sheet"),
        required=False,
        widget=forms.CheckboxInput(attrs={"form": "sheet-form"}),
    )

    def __init__(self, *args, context: TableContext, kind: str = "final", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.context = context
        self.kind = kind
        players = sorted(
            (
                registration
                for registration in context.registrations.values()
                if registration.pk in context.seat_of
            ),
            key=lambda registration: (choice_sort_key(registration), registration.pk),
        )
        player_choices = [("", "—")] + [
            (registration.pk, _name(registration)) for registration in players
        ]
        substitute_choices = [("", _("— nobody, the player played"))] + [
            (registration.pk, _name(registration))
            for registration in sorted(context.substitutes.values(), key=choice_sort_key)
        ]
        for index, wind in enumerate(WINDS):
            seated = context.seated[index]
            self.fields[f"{wind}_player"] = forms.TypedChoiceField(
                label=_("Player"),
                choices=player_choices,
                widget=LongSelect,
                coerce=int,
                initial=seated.pk if seated else None,
            )
            if kind == "final":
                self.fields[f"{wind}_points"] = PointsField(
                    label=_("Final points"),
                    # No inputmode="numeric": iPhones would show a keypad without the minus
                    # sign, and final points may be negative (WRC 2015: play continues).
                    widget=forms.NumberInput(attrs={"step": 100}),
                )
                self.fields[f"{wind}_chombo"] = count_field(_("Chombo"), initial=0)
            self.fields[f"{wind}_late"] = count_field(
                _("Minutes late"), initial=late_minutes_from_check_in(seated, context.round)
            )
            self.fields[f"{wind}_substitute"] = forms.TypedChoiceField(
                label=_("Substitute"),
                choices=substitute_choices,
                widget=LongSelect,
                coerce=int,
                required=False,
                empty_value=None,
            )
        if kind == "final":
            del self.fields["time_up"]
        else:
            del self.fields["riichi_sticks_left"]
            self._time_up_at_table_end()
        self.initial.setdefault("token", uuid.uuid4())

    def _time_up_at_table_end(self) -> None:
        """The box follows this table's own end (the round's plus the head referee's extra
        time): ticked on a new sheet once it has passed, refused while the table has time."""
        round_, table = self.context.round, self.context.table_number
        self.minutes_left = table_time_left(round_, table)
        self.initial.setdefault("time_up", self.minutes_left == 0)
        own = table_clocks(round_).get(table)
        notes = []
        if own is not None and own.extra_minutes:
            notes.append(
                _("Table %(table)s was given %(minutes)s extra minutes by the head referee.")
                % {"table": table, "minutes": own.extra_minutes}
            )
        if own is not None and own.one_more_hand:
            notes.append(str(_("It plays one more hand after its time is up.")))
        if notes:
            field = self.fields["time_up"]
            field.help_text = " ".join([str(field.help_text), *notes])

    def clean_time_up(self) -> bool:
        time_up = self.cleaned_data["time_up"]
        if time_up and self.minutes_left:
            raise ValidationError(
                _(
                    "Table %(table)s still has %(minutes)s minutes on the clock, its extra "
                    "time included: untick the box, or save part-way."
                ),
                code="time_not_up",
                params={"table": self.context.table_number, "minutes": self.minutes_left},
            )
        return time_up

    def seat_rows(self) -> list[dict]:
        """The bound fields of each seat, for the template."""
        rows = []
        for index, wind in enumerate(WINDS):
            row = {"wind": wind, "label": WIND_LABELS[wind], "seated": self.context.seated[index]}
            for name in SEAT_FIELDS:
                if f"{wind}_{name}" in self.fields:
                    row[name] = self[f"{wind}_{name}"]
            rows.append(row)
        return rows

    def field_error_summary(self) -> list[tuple[str, str]]:
        """Each field's errors as (text, anchor of the seat or field), listed at the top of
        the page: Check shows the page again from its top, and on a phone the field itself
        may be screens further down ("North · Final points: …")."""
        lines = []
        for row in self.seat_rows():
            for name in SEAT_FIELDS:
                field = row.get(name)
                if field is not None:
                    lines += [
                        (
                            _("%(seat)s · %(field)s: %(error)s")
                            % {"seat": row["label"], "field": field.label, "error": error},
                            f"seat-{row['wind']}",
                        )
                        for error in field.errors
                    ]
        for name in ("riichi_sticks_left", "time_up", "note", "reason", "unusual_confirmed"):
            if name in self.fields:
                field = self[name]
                lines += [
                    (
                        _("%(field)s: %(error)s") % {"field": field.label, "error": error},
                        field.id_for_label,
                    )
                    for error in field.errors
                ]
        return lines

    @staticmethod
    def initial_from(entry: SheetEntry) -> dict:
        """Initial values showing a stored entry (to edit, correct or compare it)."""
        initial: dict = {
            "riichi_sticks_left": entry.riichi_sticks_left,
            "time_up": entry.time_up,
            "note": entry.note,
        }
        for wind, seat in zip(WINDS, entry.seats, strict=True):
            initial.update(
                {
                    f"{wind}_player": seat.registration_id,
                    f"{wind}_points": seat.points,
                    f"{wind}_chombo": seat.chombo,
                    f"{wind}_late": seat.late_minutes,
                    f"{wind}_substitute": seat.substitute_id,
                }
            )
        return initial

    def to_entry(self, hands: tuple[Hand, ...] = ()) -> SheetEntry:
        data = self.cleaned_data
        seats = tuple(
            SeatEntry(
                registration_id=data[f"{wind}_player"],
                points=data.get(f"{wind}_points"),
                chombo=data.get(f"{wind}_chombo") or 0,
                late_minutes=data[f"{wind}_late"],
                substitute_id=data[f"{wind}_substitute"],
            )
            for wind in WINDS
        )
        if hands and data.get("time_up"):
            # The sheet's one box marks the game's last hand, as the engine reads it.
            hands = (*hands[:-1], dataclasses.replace(hands[-1], time_up=True))
        return SheetEntry(
            kind=self.kind,
            seats=seats,
            riichi_sticks_left=data.get("riichi_sticks_left") or 0,
            hands=hands,
            note=data["note"],
        )

    def add_rules_errors(self, errors: RulesErrors, hand_forms=None) -> None:
        """Put each engine error on its field (hand errors on the hand's form)."""
        for error in errors:
            hand_index, name = form_field_for(error)
            message = message_for(error)
            if hand_index is not None and hand_forms is not None:
                form = hand_forms[hand_index] if hand_index < len(hand_forms) else None
                if form is not None:
                    name = HandForm.FIELD_FOR.get(name, name)
                    form.add_error(name if name in form.fields else None, message)
                    continue
            self.add_error(name if name in self.fields else None, message)


class CorrectionForm(SheetForm):
    reason = forms.CharField(
        label=_("Reason for the correction"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class TableReportForm(SheetForm):
    """The players' report of their own table (final scores): the referee's form, with each
    seat's player fixed to whom the seating put there, as a table reports only itself."""

    def __init__(self, *args, context: TableContext, **kwargs) -> None:
        super().__init__(*args, context=context, kind="final", **kwargs)
        for index, wind in enumerate(WINDS):
            seated = context.seated[index]
            field = self.fields[f"{wind}_player"]
            field.choices = [(seated.pk, _name(seated))] if seated else [("", "—")]
            field.disabled = True


SEAT_CHOICES = [("", "—")] + [(wind, WIND_LABELS[wind]) for wind in WINDS]


def _seats_field(label: str) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label,
        choices=SEAT_CHOICES[1:],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )


class HandForm(forms.Form):
    """One hand of a hand-by-hand sheet; a row left without a result is ignored.

    The winner column also names the nagashi mangan player: one column for the seat that
    is paid, as on the paper sheet.
    """

    # Engine field -> the column of this form that shows its error.
    FIELD_FOR = {"player": "winner"}
    # Keys the engine reads for a result only to refuse them (a tsumo has no discarder); a
    # ron's `wins` are the extra winners' columns (`extra_win_fields`).
    NOT_ASKED = {"tsumo": {"loser"}, "ron": {"wins"}}
    #: How many players win on one discard at most, by the rule set's `multiple_ron`.
    WINNERS_AT_MOST = {"head_bump": 1, "double_ron": 2, "triple_ron": 3}

    @classmethod
    def fields_by_result(cls, rules: RuleSet) -> dict[str, list[str]]:
        """The columns that mean something for each result, from the engine's own list, so
        the page can show only those; a ron has the extra winners' columns where the rule
        set lets several players win on one discard."""
        extra = cls.extra_win_fields(cls.WINNERS_AT_MOST[rules.multiple_ron])
        return {
            result: sorted(
                {cls.FIELD_FOR.get(key, key) for key in keys} - cls.NOT_ASKED.get(result, set())
                | (set(extra) if result == "ron" else set())
            )
            for result, keys in APPLICABLE_KEYS.items()
        }

    @staticmethod
    def extra_win_fields(winners: int) -> list[str]:
        """The columns of the second and later winners on one discard (`winner_2`, `han_2`…)."""
        return [win_field(column, index) for index in range(1, winners) for column in WIN_COLUMNS]

    result = forms.ChoiceField(
        label=_("Result"),
        required=False,
        choices=[
            ("", "—"),
            ("ron", _("Ron")),
            ("tsumo", _("Tsumo")),
            ("draw", _("Exhaustive draw")),
            ("chombo", _("Chombo")),
        ],
    )
    winner = forms.ChoiceField(label=_("Winner"), choices=SEAT_CHOICES, required=False)
    loser = forms.ChoiceField(label=_("Discarder"), choices=SEAT_CHOICES, required=False)
    han = count_field(_("Han"), required=False)
    fu = count_field(_("Fu"), required=False)
    yakuman = count_field(_("Yakuman"), required=False)
    # Several winners on one discard (EMA 2016 §3.4.9): each further winner's own hand.
    winner_2 = forms.ChoiceField(label=_("Second winner"), choices=SEAT_CHOICES, required=False)
    han_2 = count_field(_("Han, second winner"), required=False)
    fu_2 = count_field(_("Fu, second winner"), required=False)
    yakuman_2 = count_field(_("Yakuman, second winner"), required=False)
    winner_3 = forms.ChoiceField(label=_("Third winner"), choices=SEAT_CHOICES, required=False)
    han_3 = count_field(_("Han, third winner"), required=False)
    fu_3 = count_field(_("Fu, third winner"), required=False)
    yakuman_3 = count_field(_("Yakuman, third winner"), required=False)
    riichi = _seats_field(_("Riichi"))
    tenpai = _seats_field(_("Tenpai"))
    ron_claimants = _seats_field(_("Ron called by"))
    dead_hand = _seats_field(_("Dead hand"))
    noten_riichi = _seats_field(_("Noten riichi"))
    offender = forms.ChoiceField(label=_("Chombo by"), choices=SEAT_CHOICES, required=False)
    pao = forms.ChoiceField(label=_("Liable (pao)"), choices=SEAT_CHOICES, required=False)

    def __init__(self, *args, rules=None, seat_names: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if seat_names:
            # "South · Zoé Martin": the referee picks the person, the sheet stores the seat.
            named = [
                (wind, f"{label} · {seat_names[wind]}" if seat_names.get(wind) else label)
                for wind, label in SEAT_CHOICES[1:]
            ]
            for name in ("winner", "winner_2", "winner_3", "loser", "offender", "pao"):
                self.fields[name].choices = [SEAT_CHOICES[0], *named]
        extra = []
        if rules is not None and rules.nagashi_mangan:
            extra.append(("nagashi", _("Nagashi mangan")))
        if rules is not None and rules.abortive_draws:
            extra.append(("abortive", _("Abortive draw")))
        self.fields["result"].choices = [*self.fields["result"].choices, *extra]
        if rules is not None and not rules.pao:
            del self.fields["pao"]

    def is_blank(self) -> bool:
        return not self.cleaned_data.get("result")

    def error_summary(self, number: int) -> list[tuple[str, str]]:
        """This hand's errors as (text, anchor of the hand), for the top of the page: a
        hanchan's hands fill screens of a phone ("Hand 4 · Han: …")."""
        anchor = f"hand-{number}"
        lines = [
            (_("Hand %(number)s: %(error)s") % {"number": number, "error": error}, anchor)
            for error in self.non_field_errors()
        ]
        for field in self.visible_fields():
            lines += [
                (
                    _("Hand %(number)s · %(field)s: %(error)s")
                    % {"number": number, "field": field.label, "error": error},
                    anchor,
                )
                for error in field.errors
            ]
        return lines

    def _win(self, index: int) -> dict[str, Any]:
        """One winner's columns, as an object of the engine's `wins`."""
        data = self.cleaned_data
        return {
            "winner": data[win_field("winner", index)] or None,
            "han": data[win_field("han", index)],
            "fu": data[win_field("fu", index)],
            "yakuman": data[win_field("yakuman", index)] or 0,
            "pao": (data.get("pao") or None) if index == 0 else None,
        }

    def to_hand(self) -> Hand:
        """The hand of this row: its columns are the stored sheet's (`hand_from_data`).

        With a second (or third) winner filled in, the winners go in `wins`, one object per
        winner's columns up to the last one filled: a winner's row left blank before it is
        the engine's to refuse, on that row.
        """
        data = self.cleaned_data
        filled = [
            index
            for index in range(1, max(self.WINNERS_AT_MOST.values()))
            if any(data[win_field(column, index)] not in (None, "") for column in WIN_COLUMNS)
        ]
        row = {
            "result": data["result"],
            "loser": data["loser"] or None,
            "riichi": data["riichi"],
            "tenpai": data["tenpai"],
            "offender": data["offender"] or None,
            "ron_claimants": data["ron_claimants"],
            "dead_hand": data["dead_hand"],
            "noten_riichi": data["noten_riichi"],
        }
        if filled:
            row["wins"] = [self._win(index) for index in range(max(filled) + 1)]
        else:
            row.update(self._win(0))
        return hand_from_data(row)

    @staticmethod
    def initial_from(hand: Hand) -> dict:
        row = hand_to_data(hand)
        # Several winners: the first in the single winner's columns, the others numbered.
        wins = row.get("wins") or [row]
        initial = {}
        for index, win in enumerate(wins):
            initial |= {
                win_field("winner", index): win["winner"] or "",
                win_field("han", index): win["han"],
                win_field("fu", index): win["fu"],
                win_field("yakuman", index): win["yakuman"] or None,
            }
        return {
            "result": row["result"],
            "loser": row["loser"] or "",
            **initial,
            "riichi": row["riichi"],
            "tenpai": row["tenpai"],
            "offender": row["offender"] or "",
            "pao": wins[0]["pao"] or "",
            "ron_claimants": row["ron_claimants"],
            "dead_hand": row["dead_hand"],
            "noten_riichi": row["noten_riichi"],
        }


HandFormSet = forms.formset_factory(HandForm, extra=8, max_num=60, absolute_max=80)


def with_room_for_more_hands(data: QueryDict, prefix: str = "hands") -> QueryDict:
    """The posted hands with empty rows after the last one written, as a part-way save
    gives: a sheet shown again after Check, every row filled in, told the referee to "enter
    the hands left" and had no row to enter them in."""
    key = f"{prefix}-TOTAL_FORMS"
    total = data.get(key, "")
    if not total.isdigit():
        return data  # a broken management form: the formset says so
    total = int(total)
    # Rows past the formset's limit are never read (the formset refuses so many): a posted
    # count of 10**12 kept a server process in this loop for hours.
    rows = min(total, HandFormSet.absolute_max)
    used = max(
        (index + 1 for index in range(rows) if data.get(f"{prefix}-{index}-result")), default=0
    )
    wanted = max(total, min(used + HandFormSet.extra, HandFormSet.max_num))
    if wanted == total:
        return data
    data = data.copy()
    data[key] = str(wanted)
    return data


class PenaltyRoundField(forms.ModelChoiceField):
    """Says which rounds are locked before the referee picks one: a penalty there is
    refused (its results are final)."""

    def label_from_instance(self, obj: Round) -> str:
        if obj.is_locked:
            return _("%(round)s (locked)") % {"round": obj}
        return str(obj)


class PenaltyForm(forms.Form):
    registration = forms.ModelChoiceField(
        label=_("Player"), queryset=Registration.objects.none(), widget=LongSelect
    )
    round = PenaltyRoundField(label=_("Round"), queryset=Round.objects.none(), required=False)
    kind = forms.ChoiceField(label=_("Kind"), choices=Penalty.Kind.choices)
    points = forms.DecimalField(
        label=_("Penalty points"),
        min_value=Decimal("0.01"),
        decimal_places=2,
        help_text=_("Taken off the player's total, e.g. 10."),
        error_messages={
            "min_value": _("Write the points taken off without a minus sign, e.g. 10."),
        },
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        # Unlike a disqualification's reason, which stays with the staff.
        help_text=_("Shown with the penalty on the player's public page."),
    )

    def __init__(self, *args, tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["registration"]
        # Any registration of this tournament is read, so that one not ranked is told why
        # (clean_registration); another tournament's is not in it.
        field.queryset = tournament.registrations.select_related("player")
        field.error_messages["invalid_choice"] = _("This player is not in this tournament.")
        # Only ranked players are offered: a substitute's or a disqualified player's penalty
        # counts nowhere. Sorted in Python: the database's order puts "Émile" after "Zoé"
        # and the placeholder "Substitute 1" under "1".
        ranked = tournament.registrations.ranked().select_related("player")
        field.choices = [("", field.empty_label)] + [
            (registration.pk, _name(registration))
            for registration in sorted(ranked, key=choice_sort_key)
        ]
        self.fields["round"].queryset = tournament.rounds.order_by("number")

    def clean_registration(self) -> Registration:
        registration = self.cleaned_data["registration"]
        if not registration.is_ranked:
            raise ValidationError(NOT_RANKED_NO_PENALTY)
        return registration

    def clean_points(self) -> Decimal:
        """At most what the rules engine takes (`check_penalty`), said in its words."""
        points = self.cleaned_data["points"]
        try:
            check_penalty(-Fraction(points))
        except RulesError as error:
            raise ValidationError(message_for(error)) from None
        return points


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
