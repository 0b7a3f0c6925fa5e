"""Forms of the ground floor's staff pages: extra time for one table on the clock page."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.services.clock import MAX_TABLE_MINUTES


class TableTimeForm(forms.Form):
    """What the head referee grants one table: minutes, one more hand, or both, and why."""

    table_number = forms.TypedChoiceField(label=_("Table"), coerce=int)
    minutes = forms.IntegerField(
        label=_("Extra minutes"),
        min_value=0,
        max_value=MAX_TABLE_MINUTES,
        initial=5,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    one_more_hand = forms.BooleanField(
        label=_("One more hand after the time is up"), required=False
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("For example: a long dispute, a late substitute."),
    )

    def __init__(self, *args, tables: list[int], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table_number"].choices = [(table, table) for table in tables]

    def clean(self) -> dict:
        data = super().clean()
        if data.get("minutes") == 0 and not data.get("one_more_hand"):
            self.add_error(
                "minutes", _("Give the table some minutes, or tick “One more hand”, or both.")
            )
        return data
