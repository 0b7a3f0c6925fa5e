"""The public registration's services: the player cap, the waiting list first come first
served and moving up on a withdrawal, duplicates refused, the mails each change sends."""

import datetime
import re

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.utils import timezone

from tests.conftest import make_player, make_registration, make_tournament
from tournament.models import AuditEntry, Player, Registration, RegistrationRequest
from tournament.registration_links import (
    CONFIRM,
    CONFIRM_DAYS,
    WITHDRAW,
    check_in_code,
    registration_of_code,
    request_of_key,
    request_url,
)
from tournament.services.registrations import registration_withdraw
from tournament.services.self_registration import (
    request_approve,
    request_confirm,
    request_submit,
    request_withdraw,
    requests_forget_unconfirmed,
)
from tournament.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament():
    return make_tournament(self_registration=True, player_cap=2)


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run the mails queued on commit, as a real commit would."""

    def run(service, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return run


def _data(number: int, **fields) -> dict[str, str]:
    return {
        "first_name": f"Anna{number}",
        "last_name": "Berg",
        "country": "SE",
        "email": f"anna{number}@example.org",
        **fields,
    }


def _confirmed(commit, tournament, number: int, **fields) -> RegistrationRequest:
    request = commit(
        request_submit, tournament=tournament, data=_data(number, **fields), acting_user=None
    )
    return commit(request_confirm, request=request, acting_user=None)


def test_a_request_sends_its_confirmation_link_and_registers_nobody_yet(open_tournament, commit):
    request = commit(request_submit, tournament=open_tournament, data=_data(1), acting_user=None)
    assert request.status == RegistrationRequest.Status.UNCONFIRMED
    assert not Player.objects.exists()
    assert not Registration.objects.exists()
    (message,) = mail.outbox
    assert message.to == ["anna1@example.org"]
    (key,) = re.findall(r"/register/confirm/([^/\s]+)/", message.body)
    assert request_of_key(open_tournament, key, CONFIRM) == request
    assert AuditEntry.objects.filter(action="registration_request.create", actor=None).exists()


def test_confirmed_requests_take_the_places_then_wait_in_order(open_tournament, commit):
    first, second, third, fourth = (_confirmed(commit, open_tournament, n) for n in range(4))
    assert [first.status, second.status] == [RegistrationRequest.Status.REGISTERED] * 2
    assert [third.status, fourth.status] == [RegistrationRequest.Status.WAITING] * 2
    assert list(open_tournament.registration_requests.waiting()) == [third, fourth]
    assert first.registration.player.email == "anna0@example.org"
    waiting_mail = mail.outbox[-1]
    assert "number 2 on the waiting list" in waiting_mail.body


def test_a_withdrawal_gives_the_place_to_the_first_waiting_who_is_told(open_tournament, commit):
    first, _second, third, fourth = (_confirmed(commit, open_tournament, n) for n in range(4))
    mail.outbox.clear()
    commit(request_withdraw, request=first, acting_user=None)
    first.registration.refresh_from_db()
    third.refresh_from_db()
    fourth.refresh_from_db()
    assert first.registration.status == Registration.Status.WITHDRAWN
    assert third.status == RegistrationRequest.Status.REGISTERED
    assert third.registration.status == Registration.Status.REGISTERED
    assert fourth.status == RegistrationRequest.Status.WAITING
    (message,) = mail.outbox
    assert message.to == ["anna2@example.org"]
    assert check_in_code(third.registration) in message.body


def test_an_organisers_withdrawal_in_the_admin_moves_the_list_too(open_tournament, commit):
    players = [make_registration(open_tournament) for _ in range(2)]
    waiting = _confirmed(commit, open_tournament, 1)
    assert waiting.status == RegistrationRequest.Status.WAITING
    commit(registration_withdraw, registration=players[0], reason="Ill", acting_user=None)
    waiting.refresh_from_db()
    assert waiting.status == RegistrationRequest.Status.REGISTERED


def test_a_raised_cap_lets_the_waiting_in(open_tournament, commit):
    requests = [_confirmed(commit, open_tournament, n) for n in range(3)]
    commit(tournament_update, tournament=open_tournament, data={"player_cap": 3}, acting_user=None)
    requests[2].refresh_from_db()
    assert requests[2].status == RegistrationRequest.Status.REGISTERED


def test_substitutes_take_no_place(open_tournament, commit):
    make_registration(open_tournament, is_substitute=True)
    make_registration(open_tournament)
    assert _confirmed(commit, open_tournament, 1).status == RegistrationRequest.Status.REGISTERED


def test_the_waiting_list_stays_once_the_tournament_runs(open_tournament, commit):
    first, _second, third = (_confirmed(commit, open_tournament, n) for n in range(3))
    open_tournament.status = open_tournament.Status.RUNNING
    open_tournament.save()
    commit(registration_withdraw, registration=first.registration, reason="Ill", acting_user=None)
    third.refresh_from_db()
    assert third.status == RegistrationRequest.Status.WAITING


def test_approval_comes_before_the_place(commit):
    tournament = make_tournament(self_registration=True, registration_approval=True)
    request = _confirmed(commit, tournament, 1)
    assert request.status == RegistrationRequest.Status.AWAITING_APPROVAL
    assert not Registration.objects.exists()
    assert "approves each registration" in mail.outbox[-1].body
    request = commit(request_approve, request=request, acting_user=None)
    assert request.status == RegistrationRequest.Status.REGISTERED


def test_a_second_confirmation_changes_nothing(open_tournament, commit):
    request = _confirmed(commit, open_tournament, 1)
    again = commit(request_confirm, request=request, acting_user=None)
    assert again.registration == request.registration
    assert Registration.objects.count() == 1


@pytest.mark.parametrize(
    ("registered", "typed", "field"),
    [
        ({"ema_number": "04010001"}, {"ema_number": "04010001"}, "ema_number"),
        ({}, {"first_name": "ANNA1", "email": "Anna1@Example.org"}, "email"),
    ],
)
def test_the_same_player_twice_is_refused(open_tournament, commit, registered, typed, field):
    _confirmed(commit, open_tournament, 1, **registered)
    with pytest.raises(ValidationError) as error:
        request_submit(tournament=open_tournament, data=_data(1, **typed), acting_user=None)
    assert field in error.value.message_dict
    assert open_tournament.registration_requests.count() == 1


def test_an_ema_number_on_record_with_another_address_is_refused(open_tournament):
    make_player(ema_number="04010001", email="someone@example.org")
    with pytest.raises(ValidationError) as error:
        request_submit(
            tournament=open_tournament,
            data=_data(1, ema_number="04010001"),
            acting_user=None,
        )
    assert "ema_number" in error.value.message_dict
    assert not RegistrationRequest.objects.exists()


def test_a_known_player_is_registered_not_created_again(open_tournament, commit):
    known = make_player(
        first_name="Anna1", last_name="Berg", ema_number="04010001", public_name="Anna B."
    )
    request = _confirmed(commit, open_tournament, 1, ema_number="04010001", public_name="Annie")
    assert request.registration.player == known
    known.refresh_from_db()
    # A blank field filled, nothing overwritten: the public name shows on other tournaments.
    assert (known.email, known.public_name) == ("anna1@example.org", "Anna B.")
    assert Player.objects.count() == 1


def test_the_public_name_typed_is_the_players_the_legal_name_kept(open_tournament, commit):
    request = _confirmed(commit, open_tournament, 1, public_name="Annie")
    player = request.registration.player
    assert (player.public_name, player.display_name, player.legal_name) == (
        "Annie",
        "Annie",
        "Anna1 Berg",
    )


def test_a_closed_form_takes_nothing():
    closed = make_tournament(
        self_registration=True,
        registration_closes=timezone.now() - datetime.timedelta(minutes=1),
    )
    with pytest.raises(ValidationError):
        request_submit(tournament=closed, data=_data(1), acting_user=None)
    assert not make_tournament().accepts_registrations()


def test_the_links_open_their_own_request_only(open_tournament, commit):
    request = commit(request_submit, tournament=open_tournament, data=_data(1), acting_user=None)
    key = request_url(request, WITHDRAW).rstrip("/").rsplit("/", 1)[1]
    assert request_of_key(open_tournament, key, WITHDRAW) == request
    assert request_of_key(open_tournament, key, CONFIRM) is None
    assert request_of_key(make_tournament(), key, WITHDRAW) is None
    assert request_of_key(open_tournament, key[:-2] + "xx", WITHDRAW) is None


def test_every_active_registration_has_a_code(open_tournament):
    imported = make_registration(open_tournament)
    code = check_in_code(imported)
    assert len(code) == 8
    assert code.isalnum()
    assert registration_of_code(open_tournament, f" {code[:4].lower()}-{code[4:]} ") == imported
    look_alike = code.replace("O", "0").replace("I", "1").replace("B", "8")
    assert registration_of_code(open_tournament, look_alike) == imported
    assert registration_of_code(make_tournament(), code) is None
    assert registration_of_code(open_tournament, "AAAAAAAA") is None


def test_a_registration_withdrawn_in_the_admin_is_not_withdrawn_again_from_the_link(
    open_tournament, commit
):
    request = _confirmed(commit, open_tournament, 1)
    commit(registration_withdraw, registration=request.registration, reason="Ill", acting_user=None)
    request.refresh_from_db()
    assert request.is_withdrawn
    with pytest.raises(ValidationError, match="already withdrawn"):
        request_withdraw(request=request, acting_user=None)


def test_a_request_never_confirmed_does_not_stop_a_second_one(open_tournament, commit):
    # The first mail lost, or its link expired: the player sends the form again; only one of
    # the two confirmations goes through.
    first = commit(request_submit, tournament=open_tournament, data=_data(1), acting_user=None)
    second = commit(request_submit, tournament=open_tournament, data=_data(1), acting_user=None)
    commit(request_confirm, request=second, acting_user=None)
    with pytest.raises(ValidationError):
        request_confirm(request=first, acting_user=None)
    assert Registration.objects.count() == 1


def test_the_mails_speak_the_language_of_the_form(open_tournament, commit):
    commit(
        request_submit,
        tournament=open_tournament,
        data=_data(1),
        language="fr",
        acting_user=None,
    )
    (message,) = mail.outbox
    assert message.subject == f"Confirmez votre inscription à {open_tournament.name}"
    assert "Bonjour Anna1 Berg," in message.body


def test_requests_never_confirmed_are_forgotten_once_their_link_has_expired(
    open_tournament, commit
):
    now = timezone.now()
    old, recent = (
        commit(request_submit, tournament=open_tournament, data=_data(n), acting_user=None)
        for n in (1, 2)
    )
    confirmed = _confirmed(commit, open_tournament, 3)
    # The confirmation link works for CONFIRM_DAYS; a day's margin past it.
    eight_days_ago = now - datetime.timedelta(days=CONFIRM_DAYS + 1, minutes=1)
    RegistrationRequest.objects.filter(pk__in=[old.pk, confirmed.pk]).update(
        created_at=eight_days_ago
    )
    assert requests_forget_unconfirmed(now=now, acting_user=None) == 1
    assert set(RegistrationRequest.objects.all()) == {recent, confirmed}
    audit = AuditEntry.objects.get(action="registration_request.forget_unconfirmed")
    assert (audit.tournament, audit.data) == (open_tournament, {"count": 1})
    assert requests_forget_unconfirmed(now=now, acting_user=None) == 0
