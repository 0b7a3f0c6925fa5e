"""Withdrawing, disqualifying or deleting registrations, in the admin and elsewhere."""

import uuid
from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Penalty, ScoreSheet, SheetVersion
from scoring.results_held import ResultsHeldError, results_held, results_held_for
from tests.conftest import (
    make_registration,
    make_registrations,
    make_rounds,
    make_seats,
    make_tournament,
)
from tournament.models import Registration, Round, Tournament


@pytest.fixture
def seated(db):
    """Eight players seated in rounds 1 (being played), 2 and 3 (to come)."""
    tournament = make_tournament(rounds_count=3)
    registrations = make_registrations(tournament, 8)
    rounds = make_rounds(tournament)
    for round_ in rounds:
        make_seats(round_, registrations)
    Round.objects.filter(pk=rounds[0].pk).update(status=Round.Status.PLAYING)
    Round.objects.filter(pk__in=[r.pk for r in rounds[1:]]).update(status=Round.Status.SEATED)
    return registrations


def _act(client, action: str, registrations):
    return client.post(
        reverse("admin:tournament_registration_changelist"),
        {
            "action": action,
            "_selected_action": [r.pk for r in registrations],
            "reason": "Left for a family emergency",
            "apply": "Confirm",
        },
    )


@pytest.mark.parametrize(
    ("action", "status"),
    [("withdraw", Registration.Status.WITHDRAWN), ("disqualify", Registration.Status.DISQUALIFIED)],
)
def test_the_action_says_who_is_still_seated_in_the_rounds_to_come(
    admin_client, seated, action, status
):
    response = _act(admin_client, action, seated[:2])
    assert response.status_code == 302
    assert {r.status for r in Registration.objects.filter(pk__in=[r.pk for r in seated[:2]])} == {
        status
    }
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    names = [str(r.player) for r in seated[:2]]
    # It said "2 registrations updated.", not what was done to whom.
    assert f"{status.label}: {names[0]}, {names[1]}." in texts
    assert (
        f"Still seated in the rounds to come: {names[0]} (rounds 2, 3); {names[1]} (rounds 2, 3). "
        "Seat those rounds again (Generate seating) before they are played."
    ) in texts


def test_no_warning_when_the_rounds_to_come_are_not_seated(admin_client, seated):
    Round.objects.filter(number__in=[2, 3]).update(status=Round.Status.PLANNED)
    Registration.objects.get(pk=seated[0].pk).seats.filter(round__number__gt=1).delete()
    response = _act(admin_client, "withdraw", seated[:1])
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    assert texts == [f"Withdrawn: {seated[0].player}."]


def _delete(client, registration):
    return client.post(
        reverse("admin:tournament_registration_delete", args=[registration.pk]), {"post": "yes"}
    )


def test_a_seated_registration_is_withdrawn_not_deleted(admin_client, seated):
    # Its seats hold the rounds played; the database's refusal named "seat" objects.
    response = _delete(admin_client, seated[0])
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "admin:tournament_registration_change", args=[seated[0].pk]
    )
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert any("is not deleted: seated in rounds 1, 2, 3. Withdraw them" in t for t in said)
    assert Registration.objects.filter(pk=seated[0].pk).exists()


def test_delete_selected_refuses_registrations_that_hold_results(admin_client, seated):
    spare = make_registration(seated[0].tournament)
    response = admin_client.post(
        reverse("admin:tournament_registration_changelist"),
        {"action": "delete_selected", "_selected_action": [seated[1].pk, spare.pk], "post": "yes"},
    )
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert any("seated in rounds 1, 2, 3" in text for text in said)
    assert Registration.objects.filter(pk__in=[seated[1].pk, spare.pk]).count() == 2


def test_a_registration_entered_by_mistake_is_deleted(admin_client, seated):
    spare = make_registration(seated[0].tournament)
    assert _delete(admin_client, spare).status_code == 302
    assert not Registration.objects.filter(pk=spare.pk).exists()


def _name_on_a_sheet(round_: Round, players, substitute, user) -> None:
    """A sheet of table 2 on which `substitute` replaced the second of `players`."""
    sheet = ScoreSheet.objects.create(round=round_, table_number=2)
    seats = [{"registration": r.pk, "substitute": None} for r in players]
    seats[1]["substitute"] = substitute.pk
    SheetVersion.objects.create(
        sheet=sheet,
        number=1,
        kind=SheetVersion.Kind.FINAL,
        action=SheetVersion.Action.ENTRY,
        data={"seats": seats},
        entered_by=user,
        token=uuid.uuid4(),
    )


def test_a_substitute_named_on_a_score_sheet_holds_results(seated, django_user_model):
    # The sheet's data is all that ties a substitute who replaced an absent player.
    tournament = seated[0].tournament
    substitute = make_registration(tournament, is_substitute=True)
    round_ = Round.objects.get(tournament=tournament, number=1)
    _name_on_a_sheet(round_, seated[4:8], substitute, django_user_model.objects.create_user("s"))
    held = results_held(substitute)
    assert held.substitute_at == [(1, 2)]
    assert (held.seated_rounds, held.penalties) == ([], 0)
    assert not results_held(make_registration(tournament))


def test_deleting_a_seated_registration_outside_the_admin_is_refused_with_the_reason(seated):
    # A shell or a command got the database's ProtectedError, naming seats but no player.
    with pytest.raises(ResultsHeldError) as refused:
        seated[0].delete()
    assert refused.value.held == {seated[0]: results_held(seated[0])}
    assert str(refused.value) == (
        f"{seated[0].player} is not deleted: seated in rounds 1, 2, 3. Withdraw them instead "
        "(action “Withdraw”, with a reason), so that the rounds played keep their results."
    )
    assert Registration.objects.filter(pk=seated[0].pk).exists()


def test_a_queryset_delete_of_a_substitute_named_on_a_sheet_deletes_nothing(
    seated, django_user_model
):
    # Nothing in the database protected the substitute: the delete went through and left a
    # seat of the round's results nobody's.
    tournament = seated[0].tournament
    substitute = make_registration(tournament, is_substitute=True)
    spare = make_registration(tournament)
    round_ = Round.objects.get(tournament=tournament, number=1)
    _name_on_a_sheet(round_, seated[4:8], substitute, django_user_model.objects.create_user("s"))
    with pytest.raises(ResultsHeldError) as refused:
        Registration.objects.filter(pk__in=[substitute.pk, spare.pk]).delete()
    assert list(refused.value.held) == [substitute]
    assert "a substitute on the score sheet of round 1, table 2" in str(refused.value)
    assert Registration.objects.filter(pk__in=[substitute.pk, spare.pk]).count() == 2
    tournament.registrations.filter(pk=spare.pk).delete()
    assert not Registration.objects.filter(pk=spare.pk).exists()


def test_deleting_the_tournament_deletes_its_registrations_holding_results_too(
    django_user_model,
):
    # The guard is for a registration deleted on its own; a tournament deleted as a whole
    # takes its registrations with it. (Seats, penalties and a sheet's current version
    # still stop a tournament delete in the database, as before.)
    tournament = make_tournament(rounds_count=1)
    players = make_registrations(tournament, 4)
    substitute = make_registration(tournament, is_substitute=True)
    (round_,) = make_rounds(tournament)
    _name_on_a_sheet(round_, players, substitute, django_user_model.objects.create_user("s"))
    assert results_held(substitute)
    tournament.delete()
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Registration.objects.filter(tournament_id=tournament.pk).exists()


def test_the_admin_says_every_result_the_registration_holds(admin_client, seated, admin_user):
    tournament = seated[0].tournament
    round_ = Round.objects.get(tournament=tournament, number=1)
    _name_on_a_sheet(round_, seated[4:8], seated[0], admin_user)
    Penalty.objects.create(
        tournament=tournament,
        registration=seated[0],
        round=round_,
        kind=Penalty.Kind.OTHER,
        points=Decimal("-20"),  # an amount for the test, not a rule value
        reason="Phone rang",
        given_by=admin_user,
    )
    said = [str(m) for m in get_messages(_delete(admin_client, seated[0]).wsgi_request)]
    assert said == [
        f"{seated[0].player} is not deleted: seated in rounds 1, 2, 3; given 1 penalty; a "
        "substitute on the score sheet of round 1, table 2. Withdraw them instead (action "
        "“Withdraw”, with a reason), so that the rounds played keep their results."
    ]
    assert Registration.objects.filter(pk=seated[0].pk).exists()


def test_the_delete_check_reads_any_number_of_registrations_in_three_queries(
    seated, django_assert_num_queries
):
    # "Delete selected" over a whole list checked row by row (3 queries and every sheet's
    # data each); the batch gives each registration the same answer.
    spare = make_registration(seated[0].tournament)
    everyone = [*seated, spare]
    with django_assert_num_queries(3):
        held = results_held_for(everyone)
    assert held == {registration.pk: results_held(registration) for registration in everyone}
    assert held[seated[0].pk].seated_rounds == [1, 2, 3]
    assert not held[spare.pk]


def test_the_change_page_reads_the_score_sheets_once(admin_client, seated):
    # Django asks the read-only fields two or three times for one page; each time read
    # every score sheet's data of the tournament (results_held).
    url = reverse("admin:tournament_registration_change", args=[seated[0].pk])
    with CaptureQueriesContext(connection) as queries:
        assert admin_client.get(url).status_code == 200
    reads = [q for q in queries.captured_queries if 'FROM "scoring_sheetversion"' in q["sql"]]
    assert len(reads) == 1


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "cannot be checked in: their registration is “Withdrawn”."),
        ("fr", "Impossible de pointer {name} : inscription au statut « Retiré »."),
    ],
)
def test_checking_in_a_withdrawn_player_says_why_in_a_sentence(
    admin_client, seated, language, expected
):
    # It read "Léa Dubois is Withdrawn and cannot be checked in." (a label mid-sentence; in
    # French "est Retiré", in the masculine whoever the player is, then "son inscription est
    # « Retiré »", a feminine noun with a masculine label).
    withdrawn = seated[0]
    Registration.objects.filter(pk=withdrawn.pk).update(status=Registration.Status.WITHDRAWN)
    admin_client.cookies["django_language"] = language
    response = _act(admin_client, "check_in", [withdrawn])
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    assert any(expected.format(name=withdrawn.player) in text for text in texts), texts
