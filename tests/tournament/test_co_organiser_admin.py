"""A co-organiser (an Organiser role, not a superuser) runs their tournament from the admin
and sees nothing of another one."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Penalty
from tests.conftest import (
    admin_form_data,
    make_player,
    make_registration,
    make_registrations,
    make_rounds,
    make_seats,
    make_staff,
    make_tournament,
)
from tournament.models import AuditEntry, Player, Registration, Team, Tournament, TournamentStaff

pytestmark = pytest.mark.django_db
Role = TournamentStaff.Role


@pytest.fixture
def events(django_user_model) -> dict:
    """Ours, organised by the co-organiser, and another where they only referee."""
    ours = make_tournament(name="Lyon Riichi Open", slug="lyon")
    other = make_tournament(name="Paris Winter Cup", slug="paris")
    make_rounds(ours)
    make_rounds(other)
    co = django_user_model.objects.create_user("claire", password="pw-claire-123", is_staff=True)
    make_staff(ours, co, Role.ORGANISER)
    make_staff(other, co, Role.REFEREE)
    return {
        "ours": ours,
        "other": other,
        "co": co,
        "our_entry": make_registration(ours, player=make_player(first_name="Anna")),
        "their_entry": make_registration(other, player=make_player(first_name="Bruno")),
    }


@pytest.fixture
def co_client(client, events):
    client.force_login(events["co"])
    return client


def test_the_co_organiser_logs_in_and_finds_the_event_s_models(client, events):
    response = client.post(
        reverse("admin:login"),
        {"username": "claire", "password": "pw-claire-123", "next": reverse("admin:index")},
        follow=True,
    )
    index = response.content.decode()
    assert response.status_code == 200
    assert reverse("admin:tournament_registration_changelist") in index
    assert reverse("admin:seating_fixedtable_changelist") in index
    # Accounts and roles stay with the superusers.
    assert reverse("admin:auth_user_changelist") not in index


def test_every_list_holds_only_the_organised_tournament(co_client, events):
    for name in ("tournament", "registration", "round"):
        page = co_client.get(reverse(f"admin:tournament_{name}_changelist"))
        assert page.status_code == 200
        rows = {getattr(row, "tournament", row) for row in page.context["cl"].result_list}
        assert rows == {events["ours"]}, name
    # Nor do the list's filters name the other tournament.
    page = co_client.get(reverse("admin:tournament_registration_changelist")).content.decode()
    assert "Lyon Riichi Open" in page
    assert "Paris Winter Cup" not in page


def test_the_other_tournament_s_rows_cannot_be_opened(co_client, events):
    for url in (
        reverse("admin:tournament_tournament_change", args=[events["other"].pk]),
        reverse("admin:tournament_registration_change", args=[events["their_entry"].pk]),
    ):
        response = co_client.get(url)
        assert response.status_code == 302  # "doesn't exist. Perhaps it was deleted?"
        assert response["Location"] == reverse("admin:index")
    import_page = reverse("admin:tournament_tournament_import", args=[events["other"].pk])
    assert co_client.get(import_page).status_code == 404


def test_a_registration_goes_only_to_the_organised_tournament(co_client, events):
    url = reverse("admin:tournament_registration_add")
    choices = co_client.get(url).context["adminform"].form.fields["tournament"].queryset
    assert list(choices) == [events["ours"]]
    player = make_player(first_name="Chloé")
    data = {"player": player.pk, "tournament": events["other"].pk}
    response = co_client.post(url, data)
    assert response.status_code == 200
    assert "tournament" in response.context["adminform"].form.errors
    assert not Registration.objects.filter(player=player).exists()
    data["tournament"] = events["ours"].pk
    assert co_client.post(url, data).status_code == 302
    assert Registration.objects.get(player=player).tournament == events["ours"]


def test_the_co_organiser_changes_the_tournament_but_neither_creates_nor_deletes_one(
    co_client, events
):
    ours = events["ours"]
    url = reverse("admin:tournament_tournament_change", args=[ours.pk])
    data = admin_form_data(co_client.get(url))
    data["venue"] = "Salle des fêtes, Lyon"
    assert co_client.post(url, data).status_code == 302
    ours.refresh_from_db()
    assert ours.venue == "Salle des fêtes, Lyon"
    assert co_client.get(reverse("admin:tournament_tournament_add")).status_code == 403
    delete = reverse("admin:tournament_tournament_delete", args=[ours.pk])
    assert co_client.post(delete, {"post": "yes"}).status_code == 403
    assert Tournament.objects.filter(pk=ours.pk).exists()


def test_the_player_page_asks_once_where_the_player_is_registered(co_client, events):
    # Django checks the change and delete permissions several times for one page; the
    # question "registered in a tournament you do not organise?" is asked of the database once.
    url = reverse("admin:tournament_player_change", args=[events["their_entry"].player.pk])
    with CaptureQueriesContext(connection) as queries:
        assert co_client.get(url).status_code == 200
    asked = [
        q["sql"]
        for q in queries.captured_queries
        if 'FROM "tournament_registration"' in q["sql"] and "NOT" in q["sql"]
    ]
    assert len(asked) == 1


def test_the_staff_list_is_read_only_for_a_co_organiser(co_client, events):
    assert co_client.get(reverse("admin:tournament_tournamentstaff_changelist")).status_code == 200
    assert co_client.get(reverse("admin:tournament_tournamentstaff_add")).status_code == 403


def test_a_player_of_another_tournament_is_not_changed_from_here(co_client, events):
    theirs = events["their_entry"].player
    url = reverse("admin:tournament_player_change", args=[theirs.pk])
    assert co_client.get(url).context["has_change_permission"] is False
    said = [str(message) for message in get_messages(co_client.get(url).wsgi_request)]
    assert any("registered in a tournament you do not organise" in text for text in said)
    data = {"first_name": "Changed", "last_name": theirs.last_name}
    assert co_client.post(url, data).status_code == 403
    delete = reverse("admin:tournament_player_delete", args=[theirs.pk])
    assert co_client.post(delete, {"post": "yes"}).status_code == 403
    theirs.refresh_from_db()
    assert theirs.first_name == "Bruno"
    ours = events["our_entry"].player
    assert co_client.get(reverse("admin:tournament_player_change", args=[ours.pk])).context[
        "has_change_permission"
    ]


def test_the_co_organiser_checks_players_in(co_client, events):
    response = co_client.post(
        reverse("admin:tournament_registration_changelist"),
        {"action": "check_in", "_selected_action": [events["our_entry"].pk]},
    )
    assert response.status_code == 302
    events["our_entry"].refresh_from_db()
    assert events["our_entry"].status == Registration.Status.CHECKED_IN


def test_results_stay_read_only(co_client, events):
    penalty = Penalty.objects.create(
        tournament=events["ours"],
        registration=events["our_entry"],
        kind=Penalty.Kind.DISCRETIONARY,
        points=-5,  # any amount: not a rule value, the penalty only has to exist
        reason="Phone rang",
        given_by=events["co"],
    )
    url = reverse("admin:scoring_penalty_change", args=[penalty.pk])
    assert co_client.get(url).context["has_change_permission"] is False
    assert co_client.get(reverse("admin:scoring_penalty_add")).status_code == 403


def test_a_referee_with_the_staff_flag_gets_no_admin_row(client, events, django_user_model):
    referee = django_user_model.objects.create_user("remi", is_staff=True)
    make_staff(events["ours"], referee, Role.REFEREE)
    client.force_login(referee)
    index = client.get(reverse("admin:index"))
    assert index.status_code == 200
    assert reverse("admin:tournament_registration_changelist") not in index.content.decode()
    response = client.get(reverse("admin:tournament_registration_changelist"))
    assert response.status_code == 403


@pytest.mark.parametrize(("role", "opened"), [(Role.ORGANISER, True), (Role.REFEREE, False)])
def test_an_organiser_role_opens_the_admin(admin_client, events, django_user_model, role, opened):
    user = django_user_model.objects.create_user("new-staff")
    response = admin_client.post(
        reverse("admin:tournament_tournamentstaff_add"),
        {"tournament": events["ours"].pk, "user": user.pk, "role": role},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.is_staff is opened
    said = [str(message) for message in get_messages(response.wsgi_request)]
    opened_message = "The account “new-staff” can now log in to the admin"
    assert any(text.startswith(opened_message) for text in said) is opened
    assert AuditEntry.objects.filter(action="staff.admin_opened").exists() is opened


def test_the_tournament_s_staff_lines_open_the_admin_too(admin_client, events, django_user_model):
    user = django_user_model.objects.create_user("inline-staff")
    url = reverse("admin:tournament_tournament_change", args=[events["ours"].pk])
    data = admin_form_data(admin_client.get(url))
    prefix = "staff"
    index = int(data[f"{prefix}-TOTAL_FORMS"])
    data[f"{prefix}-TOTAL_FORMS"] = str(index + 1)
    data.update({f"{prefix}-{index}-user": user.pk, f"{prefix}-{index}-role": Role.ORGANISER})
    assert admin_client.post(url, data).status_code == 302
    user.refresh_from_db()
    assert user.is_staff


def test_the_co_organiser_deletes_the_duplicate_she_just_added(co_client, events):
    # The namesake warning says "register that record and delete this one".
    duplicate = make_player(first_name="Anna", last_name=events["our_entry"].player.last_name)
    delete = reverse("admin:tournament_player_delete", args=[duplicate.pk])
    assert co_client.post(delete, {"post": "yes"}).status_code == 302
    assert not Player.objects.filter(pk=duplicate.pk).exists()


def test_removing_the_last_organiser_role_closes_the_admin(admin_client, events):
    co = events["co"]
    staff = TournamentStaff.objects.get(user=co, role=Role.ORGANISER)
    delete = reverse("admin:tournament_tournamentstaff_delete", args=[staff.pk])
    response = admin_client.post(delete, {"post": "yes"})
    co.refresh_from_db()
    assert not co.is_staff
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert any("“claire” organises no tournament any more" in text for text in said)
    # A referee role elsewhere keeps nothing open in the admin; the role itself stays.
    assert TournamentStaff.objects.filter(user=co, role=Role.REFEREE).exists()


def test_an_account_with_permissions_of_its_own_keeps_its_staff_status(admin_client, events):
    co = events["co"]
    co.user_permissions.add(Permission.objects.get(codename="view_user"))
    staff = TournamentStaff.objects.get(user=co, role=Role.ORGANISER)
    admin_client.post(
        reverse("admin:tournament_tournamentstaff_delete", args=[staff.pk]), {"post": "yes"}
    )
    co.refresh_from_db()
    assert co.is_staff


def test_a_refusal_in_the_admin_leads_back_to_it(co_client, events):
    # The staff line's user name links to the user's page, which is for administrators.
    page = co_client.get(reverse("admin:auth_user_change", args=[events["co"].pk]))
    assert page.status_code == 403
    text = page.content.decode()
    assert "Your account may not open this page of the admin" in text
    assert reverse("admin:index") in text
    assert "no role in this tournament" not in text


def test_the_admin_login_points_referees_to_their_own(client):
    page = client.get(reverse("admin:login")).content.decode()
    assert "Referees and scorers log in on the" in page
    assert f'href="{reverse("login")}"' in page


def test_the_tournament_column_is_left_out_for_one_who_runs_one_tournament(co_client, admin_client):
    # Claire organises one tournament; the superuser sees two.
    url = reverse("admin:tournament_registration_changelist")
    assert "tournament" not in co_client.get(url).context["cl"].list_display
    assert "tournament" in admin_client.get(url).context["cl"].list_display


def test_a_registration_stays_in_its_tournament_and_keeps_the_player_of_its_results(
    co_client, events
):
    entry = events["our_entry"]
    url = reverse("admin:tournament_registration_change", args=[entry.pk])
    form = co_client.get(url).context["adminform"].form
    assert "tournament" not in form.fields  # read-only once registered
    assert "player" in form.fields  # no result yet: a wrong player can still be corrected
    Penalty.objects.create(
        tournament=events["ours"],
        registration=entry,
        kind=Penalty.Kind.DISCRETIONARY,
        points=-5,  # any amount: not a rule value, the penalty only has to exist
        reason="Phone rang",
        given_by=events["co"],
    )
    assert "player" not in co_client.get(url).context["adminform"].form.fields


def test_the_seat_list_offers_only_the_organised_tournament_s_round_numbers(co_client, events):
    make_seats(events["ours"].rounds.get(number=1), make_registrations(events["ours"], 4))
    make_seats(events["other"].rounds.get(number=3), make_registrations(events["other"], 4))
    page = co_client.get(reverse("admin:tournament_seat_changelist"))
    rounds = next(spec for spec in page.context["cl"].filter_specs if spec.title == "round")
    assert [number for number, _label in rounds.lookup_choices] == [1]


def test_another_organiser_s_player_history_is_theirs(co_client, events):
    theirs = events["their_entry"].player
    url = reverse("admin:tournament_player_history", args=[theirs.pk])
    assert co_client.get(url).status_code == 403
    ours = events["our_entry"].player
    assert (
        co_client.get(reverse("admin:tournament_player_history", args=[ours.pk])).status_code == 200
    )


def test_a_role_given_to_another_account_closes_the_first_one_s_admin(
    admin_client, events, django_user_model
):
    co, successor = events["co"], django_user_model.objects.create_user("bob")
    staff = TournamentStaff.objects.get(user=co, role=Role.ORGANISER)
    url = reverse("admin:tournament_tournamentstaff_change", args=[staff.pk])
    response = admin_client.post(
        url, {"tournament": events["ours"].pk, "user": successor.pk, "role": Role.ORGANISER}
    )
    assert response.status_code == 302
    co.refresh_from_db()
    successor.refresh_from_db()
    assert (co.is_staff, successor.is_staff) == (False, True)


@pytest.mark.parametrize(
    "model_name", ["registration", "team", "round", "seat", "tournamentstaff", "auditentry"]
)
def test_no_row_of_the_other_tournament_opens(co_client, events, model_name):
    # Rows of each tournament-scoped list: the other tournament's first row (the staff
    # list's is Claire's own referee role there) answers as a row that does not exist, or
    # is refused.
    other = events["other"]
    Team.objects.create(tournament=other, name="Paris Team")
    AuditEntry.objects.create(tournament=other, action="other.test")
    model = apps.get_model("tournament", model_name)
    path = "round__tournament" if model_name == "seat" else "tournament"
    make_seats(other.rounds.first(), make_registrations(other, 4))
    row = model.objects.filter(**{path: other}).first()
    for action in ("change", "history", "delete"):
        url = reverse(f"admin:tournament_{model_name}_{action}", args=[row.pk])
        response = co_client.get(url)
        # 403 where the role may not delete rows of that kind at all.
        assert response.status_code in (302, 403), (action, response.status_code)
        if response.status_code == 302:
            assert response["Location"] == reverse("admin:index")
    listed_rows = co_client.get(reverse(f"admin:tournament_{model_name}_changelist"))
    assert row not in listed_rows.context["cl"].result_list


@pytest.mark.parametrize(
    ("model_name", "field_name", "app_label"),
    [
        ("registration", "team", "tournament"),
        ("fixedtable", "registration", "seating"),
    ],
)
def test_the_search_boxes_offer_only_the_organised_tournament(
    co_client, events, model_name, field_name, app_label
):
    # The admin's autocomplete endpoint answers the search boxes of the forms.
    Team.objects.create(tournament=events["ours"], name="Lyon Team")
    Team.objects.create(tournament=events["other"], name="Paris Team")
    response = co_client.get(
        reverse("admin:autocomplete"),
        {"app_label": app_label, "model_name": model_name, "field_name": field_name},
    )
    assert response.status_code == 200
    offered = {int(result["id"]) for result in response.json()["results"]}
    remote = Team if field_name == "team" else Registration
    assert offered
    assert offered <= set(
        remote.objects.filter(tournament=events["ours"]).values_list("pk", flat=True)
    )


@pytest.mark.parametrize("model", ["registration", "team"])
def test_a_new_row_starts_in_the_only_tournament_one_organises(co_client, events, model):
    # The co-organiser organises Lyon only (a referee role in Paris opens no admin row).
    page = co_client.get(reverse(f"admin:tournament_{model}_add"))
    assert page.context["adminform"].form.initial["tournament"] == events["ours"].pk


def test_a_new_row_is_left_to_choose_for_one_who_organises_two(co_client, events):
    TournamentStaff.objects.filter(tournament=events["other"]).update(role=Role.ORGANISER)
    page = co_client.get(reverse("admin:tournament_registration_add"))
    assert "tournament" not in page.context["adminform"].form.initial
