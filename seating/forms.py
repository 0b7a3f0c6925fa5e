"""Forms of the seating pages. They parse fields; the generator and the services judge
whether a request can be seated (player count, fixed tables, played rounds)."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from seating.engine import DEFAULT_CLOSENESS
from seating.models import SeatingRun
from seating.selectors import default_keep_apart
from tournament.models import WIND_LABELS, WINDS, Registration, Round, Tournament
from tournament.names import choice_sort_key
from tournament.widgets import LongSelect

MAX_SEED = 2**31 - 1


class RoundChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Round) -> str:
        label = str(obj)
        if obj.is_swiss:
            label += " · " + str(_("Swiss"))
        return f"{label} ({obj.get_status_display()})"


class SeedField(forms.IntegerField):
    def __init__(self, **kwargs) -> None:
        super().__init__(
            label=_("Seed"),
            required=False,
            min_value=0,
            max_value=MAX_SEED,
            help_text=_("Leave empty for a new random seed. The same seed gives the same plan."),
            **kwargs,
        )


class KeepApartField(forms.ChoiceField):
    def __init__(self, **kwargs) -> None:
        super().__init__(
            label=_("Keep apart"),
            choices=SeatingRun.KeepApart.choices,
            help_text=_(
                "Players of the same team, club or country meet as little as possible. "
                "Chosen for you from what the players have: teams, else clubs, else nobody."
            ),
            **kwargs,
        )


class PriorityField(forms.ChoiceField):
    def __init__(self, **kwargs) -> None:
        kwargs.setdefault(
            "help_text",
            _(
                "“Opponents first” seats no pair together three times where a plan can avoid "
                "it, then repeats as few meetings as it can; a player may sit at a table "
                "number again. “Table reuse first” keeps everyone off the tables they sat "
                "at, even if the same players then meet in every round (16 players × 4 "
                "rounds). Both are perfect for most sizes."
            ),
        )
        super().__init__(
            label=_("Priority"),
            choices=SeatingRun.Priority.choices,
            initial=SeatingRun.Priority.OPPONENTS,
            **kwargs,
        )


#: Swiss rounds: weight of one place of spread in the standings inside a table, against a
#: repeated opponent's 100 (seating.engine.swiss).
CLOSENESS_CHOICES = [
    (1000, _("Keep the groups of the standings (1–4, 5–8, …) even if opponents meet again")),
    (DEFAULT_CLOSENESS, _("Balanced: meeting an opponent again weighs as much as ten places")),
    (1, _("Avoid meeting opponents again, even far from one's place")),
]


class GenerateForm(forms.Form):
    rounds = RoundChoiceField(
        label=_("Rounds to seat"),
        queryset=Round.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Rounds being played, and seated rounds you do not choose, keep their seats and "
            "count as history. Swiss rounds are usually seated later from the standings."
        ),
    )
    priority = PriorityField()
    keep_apart = KeepApartField()
    seed = SeedField()
    time_limit = forms.IntegerField(
        label=_("Search time (seconds)"),
        min_value=1,
        max_value=300,
        initial=20,
        help_text=_("Most sizes are solved at once; the search stops early when it can."),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        rounds = tournament.rounds.to_come()
        self.fields["time_limit"].initial = getattr(settings, "SEATING_TIME_LIMIT", 20)
        self.fields["rounds"].queryset = rounds
        self.fields["rounds"].initial = [r.pk for r in rounds if not r.is_swiss]
        self.fields["keep_apart"].initial = default_keep_apart(tournament)


class SwissForm(forms.Form):
    round = forms.ModelChoiceField(label=_("Round"), queryset=Round.objects.none())
    priority = PriorityField(
        help_text=_(
            "Late in an event each player has few tables left: “Opponents first” lets "
            "players sit at a table again rather than meet an opponent again, and never a "
            "third time where it can be avoided; “Table reuse first” keeps everyone off the "
            "tables they sat at, at the cost of repeated opponents and of the standings' "
            "groups."
        )
    )
    closeness = forms.TypedChoiceField(
        label=_("Standings"),
        coerce=int,
        choices=CLOSENESS_CHOICES,
        initial=DEFAULT_CLOSENESS,
        help_text=_(
            "Under “Table reuse first” nobody goes back to a table they sat at, even if that "
            "breaks the groups of the standings."
        ),
    )
    keep_apart = KeepApartField()
    seed = SeedField()

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        rounds = tournament.rounds.to_come()
        self.fields["round"].queryset = rounds
        swiss = [r for r in rounds if r.is_swiss]
        if swiss:
            self.fields["round"].initial = swiss[0].pk
        self.fields["keep_apart"].initial = default_keep_apart(tournament)


class SubstitutesForm(forms.Form):
    count = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class SwapForm(forms.Form):
    round = forms.TypedChoiceField(label=_("Round"), coerce=int)
    # Every player seated by the run, twice.
    first = forms.TypedChoiceField(label=_("Player"), coerce=int, widget=LongSelect)
    second = forms.TypedChoiceField(label=_("swaps seats with"), coerce=int, widget=LongSelect)

    def __init__(self, *args, run: SeatingRun, registrations: dict[int, Registration], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round"].choices = [
            (number, _("Round %(number)s") % {"number": number}) for number in run.round_numbers
        ]
        seated = {p for item in run.plan for table in item["tables"] for p in table}
        players = sorted(
            (registrations[pk] for pk in seated if pk in registrations),
            key=choice_sort_key,
        )
        choices = [("", "---------")] + [(r.pk, r.player.display_name) for r in players]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices


class SeatCorrectionForm(forms.Form):
    """The winds one table actually played: each of its four players in one wind."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("For example: South and West swapped seats at the start."),
    )

    def __init__(self, *args, players: list[Registration], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(player.pk, player.player.display_name) for player in players]
        for wind in WINDS:
            self.fields[wind] = forms.TypedChoiceField(
                label=WIND_LABELS[wind], choices=choices, coerce=int
            )
        self.order_fields([*WINDS, "reason"])

    def clean(self) -> dict:
        data = super().clean()
        chosen = [data[wind] for wind in WINDS if data.get(wind) is not None]
        for wind in WINDS:
            if data.get(wind) is not None and chosen.count(data[wind]) > 1:
                self.add_error(wind, _("Each player plays one wind: this one is chosen twice."))
        return data

    def played(self) -> list[int]:
        """The registrations in wind order, East, South, West, North."""
        return [self.cleaned_data[wind] for wind in WINDS]
