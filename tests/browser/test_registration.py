"""A player registers from their phone, confirms from the mail, waits on the waiting list
and gets the place a withdrawal frees; bad input is answered on the form."""

import re

import pytest
from django.core import mail

from tests.browser.helpers import SIDEWAYS
from tests.conftest import make_tournament
from tournament.models import Registration, RegistrationRequest

pytestmark = pytest.mark.browser

TEXT = {
    "en": {
        "first": "First name",
        "last": "Last name",
        "email": "E-mail",
        "register": "Register",
        "sent": "Check your mail",
        "confirm": "Confirm my registration",
        "code": "Your check-in code",
        "waiting": "you are on the waiting list",
        "withdraw": "Withdraw my registration",
        "withdrawn": "Your registration is withdrawn.",
        "required": "This field is required.",
        "duplicate": "A player of this name is already registered with this address.",
    },
    "fr": {
        "first": "Prénom",
        "last": "Nom",
        "email": "E-mail",
        "register": "S’inscrire",
        "sent": "Consultez vos e-mails",
        "confirm": "Confirmer mon inscription",
        "code": "Votre code de pointage",
        "waiting": "vous êtes sur la liste d’attente",
        "withdraw": "Retirer mon inscription",
        "withdrawn": "Votre inscription est retirée.",
        "required": "Ce champ est obligatoire.",
        "duplicate": "Un joueur de ce nom est déjà inscrit avec cette adresse.",
    },
}


def _link(address: str, purpose: str) -> str:
    """The path of the latest link for `purpose` mailed to `address`."""
    bodies = [message.body for message in mail.outbox if message.to == [address]]
    paths = re.findall(rf"https?://[^/\s]+(/\S*/register/{purpose}/\S+/)", "\n".join(bodies))
    return paths[-1]


def _fill(page, text, first: str, email: str) -> None:
    page.get_by_label(text["first"], exact=True).fill(first)
    page.get_by_label(text["last"], exact=True).fill("Berg")
    page.get_by_label(text["email"], exact=True).fill(email)
    page.get_by_role("button", name=text["register"]).click()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db(transaction=True)
def test_register_confirm_wait_and_move_up_on_a_withdrawal(live_server, new_page, language):
    text = TEXT[language]
    tournament = make_tournament(self_registration=True, player_cap=1)
    form = f"{live_server.url}/t/{tournament.slug}/register/"

    def phone():
        return new_page(375, 667, is_mobile=True, extra_http_headers={"Accept-Language": language})

    anna = phone()
    anna.goto(form)
    assert anna.evaluate(SIDEWAYS) == {"page": 0, "boxes": []}
    # A name left out: its error on the form, the address typed still there, nothing saved.
    anna.get_by_label(text["email"], exact=True).fill("anna@example.org")
    anna.get_by_role("button", name=text["register"]).click()
    assert text["required"] in anna.content()
    assert anna.get_by_label(text["email"], exact=True).input_value() == "anna@example.org"
    assert not RegistrationRequest.objects.exists()
    _fill(anna, text, "Anna", "anna@example.org")
    assert text["sent"] in anna.locator("h1").inner_text()
    anna.goto(live_server.url + _link("anna@example.org", "confirm"))
    anna.get_by_role("button", name=text["confirm"]).click()
    assert text["code"] in anna.content()
    assert anna.locator(".check-in-qr svg").is_visible()
    assert anna.evaluate(SIDEWAYS) == {"page": 0, "boxes": []}

    # The same person again is refused on the form.
    again = phone()
    again.goto(form)
    _fill(again, text, "anna", "ANNA@example.org")
    assert text["duplicate"] in again.content()

    bo = phone()
    bo.goto(form)
    _fill(bo, text, "Bo", "bo@example.org")
    bo.goto(live_server.url + _link("bo@example.org", "confirm"))
    bo.get_by_role("button", name=text["confirm"]).click()
    assert text["waiting"] in bo.content()
    assert not Registration.objects.filter(player__first_name="Bo").exists()

    anna.goto(live_server.url + _link("anna@example.org", "withdraw"))
    anna.get_by_role("button", name=text["withdraw"]).click()
    assert text["withdrawn"] in anna.content()

    # Bo was told by mail, and the page of his link shows his place and code.
    bo.goto(live_server.url + _link("bo@example.org", "withdraw"))
    assert text["code"] in bo.content()
    registration = Registration.objects.get(player__first_name="Bo")
    assert registration.status == Registration.Status.REGISTERED
    assert registration.player.email == "bo@example.org"
