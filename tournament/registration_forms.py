"""The public forms of the registration and the check-in."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import RegistrationRequest

#: The field a person never sees (hidden by the page's style) and a bot fills in.
HONEYPOT_FIELD = "website"


class PlainLabels:
    """Labels without Django's colon, as the site's other forms."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class RegistrationRequestForm(PlainLabels, forms.ModelForm):
    """The player's legal names, as on their identity papers, the name the pages show if
    another, country, club, EMA number and e-mail address. A filled honeypot is answered as
    a success (`is_bot`) and nothing is saved: the bot learns nothing."""

    website = forms.CharField(
        label=_("Leave this field empty"),
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    class Meta:
        model = RegistrationRequest
        fields = RegistrationRequest.TYPED_FIELDS
        help_texts = {
            "first_name": _("Your legal name, as your federation records it."),
            "public_name": _(
                "The name the rankings and the seating show, if not the one above. "
                "The EMA results keep your legal name."
            ),
            "ema_number": _("Eight digits, if you have one."),
            "email": _("For the confirmation and the news of your registration only."),
        }
        widgets = {
            "ema_number": forms.TextInput(attrs={"inputmode": "numeric"}),
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
        }

    @property
    def is_bot(self) -> bool:
        return bool(self.data.get(HONEYPOT_FIELD))


class CheckInForm(PlainLabels, forms.Form):
    code = forms.CharField(
        label=_("Check-in code"),
        max_length=20,
        help_text=_("Eight letters and digits, in your registration mail."),
        widget=forms.TextInput(
            attrs={"autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false"}
        ),
    )
