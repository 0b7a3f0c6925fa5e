"""Reinstating a withdrawn or disqualified registration: the service, the admin action and
the registration's own pages and exports."""

from io import BytesIO

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from openpyxl import load_workbook

from tests.conftest import (
    make_player,
    make_registration,
    make_registrations,
    make_rounds,
    make_seats,
    make_staff,
    make_tournament,
)
from tournament.exports.registrations import RegistrationsXlsx
from tournament.models import AuditEntry, Registration, Round, TournamentStaff
from tournament.services.registrations import (
    registration_check_in,
    registration_disqualify,
    registration_reinstate,
    registration_withdraw,
)

pytestmark = pytest.mark.django_db
Role = TournamentStaff.Role


@pytest.fixture
def entry(tournament):
    return make_registration(tournament)


@pytest.mark.parametrize("leave", [registration_withdraw, registration_disqualify])
def test_a_player_who_left_is_registered_again_without_the_old_reason(entry, organiser, leave):
    registration_check_in(registration=entry, acting_user=organiser)
    leave(registration=entry, reason="Ticked the wrong line", acting_user=organiser)
    reinstated = registration_reinstate(
        registration=entry, reason="  Wrong player withdrawn  ", acting_user=organiser
    )
    entry.refresh_from_db()
    assert reinstated.status == entry.status == Registration.Status.REGISTERED
    # The check-in is done again on the day; the reason said why they left.
    assert (entry.checked_in_at, entry.status_reason) == (None, "")
    registration_check_in(registration=entry, acting_user=organiser)
    assert Registration.objects.get(pk=entry.pk).status == Registration.Status.CHECKED_IN


@pytest.mark.parametrize(
    ("leave", "previous"),
    [(registration_withdraw, "withdrawn"), (registration_disqualify, "disqualified")],
)
def test_the_audit_log_keeps_why_they_left_and_why_they_came_back(
    entry, organiser, leave, previous
):
    leave(registration=entry, reason="Collusion", acting_user=organiser)
    registration_reinstate(registration=entry, reason="Appeal upheld", acting_user=organiser)
    left, back = AuditEntry.objects.filter(tournament=entry.tournament).order_by("id")
    assert (left.reason, back.action, back.reason) == (
        "Collusion",
        "registration.reinstate",
        "Appeal upheld",
    )
    assert back.actor == organiser
    assert back.data == {"previous_status": previous, "previous_reason": "Collusion"}


@pytest.mark.parametrize(
    ("first", "then", "status"),
    [
        (registration_withdraw, registration_withdraw, "Withdrawn"),
        (registration_disqualify, registration_disqualify, "Disqualified"),
        # Withdrawn players stay in the ranking, disqualified ones do not (WRC 2015 §7.1).
        (registration_disqualify, registration_withdraw, "Disqualified"),
    ],
)
def test_a_player_who_left_is_not_withdrawn_or_disqualified_again(
    entry, organiser, first, then, status
):
    first(registration=entry, reason="Left at lunch", acting_user=organiser)
    with pytest.raises(ValidationError) as refused:
        then(registration=entry, reason="Ticked twice", acting_user=organiser)
    assert refused.value.messages == [
        f"{entry.player} is not changed: their registration is already “{status}” "
        "(reinstate them first if that was a mistake)."
    ]
    entry.refresh_from_db()
    assert (entry.status_reason, AuditEntry.objects.count()) == ("Left at lunch", 1)


def test_a_withdrawn_player_may_still_be_disqualified(entry, organiser):
    registration_withdraw(registration=entry, reason="Left at lunch", acting_user=organiser)
    registration_disqualify(registration=entry, reason="Collusion", acting_user=organiser)
    entry.refresh_from_db()
    assert entry.status == Registration.Status.DISQUALIFIED


@pytest.mark.parametrize("checked_in", [False, True])
def test_a_player_still_playing_is_not_reinstated(entry, organiser, checked_in):
    if checked_in:
        registration_check_in(registration=entry, acting_user=organiser)
    status = "Checked in" if checked_in else "Registered"
    with pytest.raises(ValidationError) as refused:
        registration_reinstate(registration=entry, reason="By mistake", acting_user=organiser)
    assert refused.value.messages == [
        f"{entry.player} cannot be reinstated: their registration is “{status}”, neither "
        "withdrawn nor disqualified."
    ]
    assert not AuditEntry.objects.filter(action="registration.reinstate").exists()


def test_reinstating_needs_a_reason(entry, organiser):
    registration_withdraw(registration=entry, reason="Left early", acting_user=organiser)
    with pytest.raises(ValidationError, match="Give a reason."):
        registration_reinstate(registration=entry, reason="   ", acting_user=organiser)
    entry.refresh_from_db()
    assert (entry.status, entry.status_reason) == (Registration.Status.WITHDRAWN, "Left early")
    assert not AuditEntry.objects.filter(action="registration.reinstate").exists()


def _reinstate(client, registrations, reason="Wrong line ticked"):
    return client.post(
        reverse("admin:tournament_registration_changelist"),
        {
            "action": "reinstate",
            "_selected_action": [r.pk for r in registrations],
            "reason": reason,
            "apply": "Confirm",
        },
    )


def _said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.fixture
def withdrawn(tournament, organiser):
    """Two players withdrawn from the tournament, one by mistake."""
    registrations = [
        make_registration(tournament, player=make_player(first_name="Léa", last_name="Dubois")),
        make_registration(tournament, player=make_player(first_name="Tomás", last_name="Ibáñez")),
    ]
    for registration in registrations:
        registration_withdraw(
            registration=registration, reason="Left for the train", acting_user=organiser
        )
    return registrations


def test_anonymous_is_sent_to_the_login_page(client, withdrawn):
    response = _reinstate(client, withdrawn)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
    assert Registration.objects.filter(status=Registration.Status.WITHDRAWN).count() == 2


def test_a_referee_with_the_staff_flag_is_refused(client, tournament, withdrawn, django_user_model):
    referee = django_user_model.objects.create_user("remi", is_staff=True)
    make_staff(tournament, referee, Role.REFEREE)
    client.force_login(referee)
    assert _reinstate(client, withdrawn).status_code == 403
    assert Registration.objects.filter(status=Registration.Status.WITHDRAWN).count() == 2


def test_an_organiser_of_another_tournament_reinstates_nobody_here(
    client, withdrawn, django_user_model
):
    # The action only sees the rows of the tournaments the user organises.
    co = django_user_model.objects.create_user("claire", is_staff=True)
    make_staff(make_tournament(), co, Role.ORGANISER)
    client.force_login(co)
    _reinstate(client, withdrawn)
    assert Registration.objects.filter(status=Registration.Status.WITHDRAWN).count() == 2
    assert not AuditEntry.objects.filter(action="registration.reinstate").exists()


def test_the_organiser_reinstates_and_is_told_whom(
    client, tournament, withdrawn, django_user_model
):
    co = django_user_model.objects.create_user("claire", is_staff=True)
    make_staff(tournament, co, Role.ORGANISER)
    client.force_login(co)
    response = _reinstate(client, withdrawn)
    assert response.status_code == 302
    assert _said(response) == ["Reinstated: Léa Dubois, Tomás Ibáñez."]
    assert Registration.objects.filter(status=Registration.Status.REGISTERED).count() == 2
    assert (
        AuditEntry.objects.filter(
            action="registration.reinstate", actor=co, reason="Wrong line ticked"
        ).count()
        == 2
    )


def test_the_reason_page_shows_why_each_one_left(admin_client, withdrawn):
    page = admin_client.post(
        reverse("admin:tournament_registration_changelist"),
        {"action": "reinstate", "_selected_action": [withdrawn[0].pk]},
    )
    assert page.status_code == 200
    assert "Reinstate players" in page.text
    assert "Withdrawn: Left for the train" in page.text
    assert Registration.objects.get(pk=withdrawn[0].pk).status == Registration.Status.WITHDRAWN


def test_a_blank_reason_asks_again(admin_client, withdrawn):
    page = _reinstate(admin_client, withdrawn, reason="   ")
    assert page.status_code == 200
    assert page.context["form"].errors == {"reason": ["This field is required."]}
    assert Registration.objects.filter(status=Registration.Status.WITHDRAWN).count() == 2


def test_a_player_still_playing_is_named_and_the_others_reinstated(
    admin_client, tournament, withdrawn
):
    playing = make_registration(
        tournament, player=make_player(first_name="Zoé", last_name="Martin")
    )
    said = _said(_reinstate(admin_client, [*withdrawn, playing]))
    assert said == [
        "Zoé Martin cannot be reinstated: their registration is “Registered”, neither "
        "withdrawn nor disqualified.",
        "Reinstated: Léa Dubois, Tomás Ibáñez.",
    ]


def test_the_action_speaks_french(admin_client, tournament, withdrawn):
    admin_client.cookies["django_language"] = "fr"
    playing = make_registration(
        tournament, player=make_player(first_name="Zoé", last_name="Martin")
    )
    listing = admin_client.get(reverse("admin:tournament_registration_changelist"))
    assert "Réintégrer (avec un motif)" in listing.text
    page = admin_client.post(
        reverse("admin:tournament_registration_changelist"),
        {"action": "reinstate", "_selected_action": [withdrawn[0].pk]},
    )
    assert "Retiré : Left for the train" in page.text  # a space before the colon in French
    said = _said(_reinstate(admin_client, [withdrawn[0], playing]))
    assert said == [
        "Impossible de réintégrer Zoé Martin : inscription au statut « Inscrit », ni retirée ni "
        "disqualifiée.",
        "Réintégration : Léa Dubois.",
    ]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "Not seated in the rounds to come: Léa Dubois (rounds 2, 3). Seat those rounds "
            "again (Generate seating) before they are played.",
        ),
        (
            "fr",
            "Aucune place dans les rondes à venir pour Léa Dubois (rondes 2, 3). Refaites le "
            "placement de ces rondes (Générer le placement) avant qu’elles ne soient jouées.",
        ),
    ],
)
def test_the_action_names_the_rounds_seated_without_the_player(
    admin_client, tournament, withdrawn, language, expected
):
    # Rounds 2 and 3 were seated while Léa Dubois was out; round 1 is being played.
    others = make_registrations(tournament, 8)
    for round_ in make_rounds(tournament, 3):
        make_seats(round_, others)
    Round.objects.filter(tournament=tournament, number=1).update(status=Round.Status.PLAYING)
    Round.objects.filter(tournament=tournament, number__gt=1).update(status=Round.Status.SEATED)
    admin_client.cookies["django_language"] = language
    said = _said(_reinstate(admin_client, withdrawn[:1]))
    assert said[1:] == [expected]


def test_no_warning_for_a_player_still_seated_or_a_substitute(admin_client, tournament, organiser):
    # Withdrawn after the seating, reinstated before anyone seated the rounds again: the
    # seats are theirs still. A substitute has a seat only when a table needs one.
    players = make_registrations(tournament, 8)
    substitute = make_registration(tournament, is_substitute=True)
    for round_ in make_rounds(tournament, 2):
        make_seats(round_, players)
    Round.objects.filter(tournament=tournament).update(status=Round.Status.SEATED)
    for registration in (players[0], substitute):
        registration_withdraw(registration=registration, reason="Ill", acting_user=organiser)
    said = _said(_reinstate(admin_client, [players[0], substitute]))
    assert said == [f"Reinstated: {players[0].player}, {substitute.player}."]


def test_the_registrations_export_and_the_status_filter_see_them_registered(
    admin_client, tournament, organiser, withdrawn
):
    registration_reinstate(registration=withdrawn[0], reason="Wrong line", acting_user=organiser)
    _filename, _type, content = RegistrationsXlsx(tournament).render()
    sheet = load_workbook(BytesIO(content)).active
    status = {(row[0], row[1]): row[-1] for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert status == {("Léa", "Dubois"): "Registered", ("Tomás", "Ibáñez"): "Withdrawn"}
    listed = reverse("admin:tournament_registration_changelist")
    for status_filter, names in (("withdrawn", ["Tomás Ibáñez"]), ("registered", ["Léa Dubois"])):
        page = admin_client.get(listed, {"status__exact": status_filter})
        assert [str(r.player) for r in page.context["cl"].result_list] == names


def test_the_registration_no_longer_says_why_they_left(admin_client, organiser, withdrawn):
    registration_reinstate(registration=withdrawn[0], reason="Wrong line", acting_user=organiser)
    page = admin_client.get(reverse("admin:tournament_registration_change", args=[withdrawn[0].pk]))
    assert "Left for the train" not in page.text
    log = admin_client.get(reverse("admin:tournament_auditentry_changelist"))
    assert "Left for the train" in log.text
    assert "Wrong line" in log.text
