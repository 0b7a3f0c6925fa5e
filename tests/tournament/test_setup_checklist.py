"""The set-up checklist of the tournament's admin page: each step to do, done or a warning
with its reason, the first step not done marked next, and links to where it is done."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import (
    make_registration,
    make_registrations,
    make_rounds,
    make_seats,
    make_staff,
)
from tournament.checklist import State, setup_checklist
from tournament.models import Round, Tournament, TournamentStaff

pytestmark = pytest.mark.django_db
Role = TournamentStaff.Role


def steps(tournament: Tournament) -> dict:
    return {step.key: step for step in setup_checklist(tournament)}


@pytest.fixture
def referee(django_user_model):
    return django_user_model.objects.create_user("ref", password="pw-ref-12345")


def ready(tournament: Tournament, referee, players: int = 16) -> list:
    """Players, an official and rounds: everything before the seating."""
    registrations = make_registrations(tournament, players)
    make_staff(tournament, referee, Role.REFEREE)
    make_rounds(tournament)
    return registrations


def seat_round_one(tournament: Tournament, registrations: list) -> Round:
    first = tournament.rounds.get(number=1)
    make_seats(first, registrations)
    first.status = Round.Status.SEATED
    first.save()
    return first


def test_an_empty_tournament_starts_with_the_players(tournament):
    checklist = setup_checklist(tournament)
    assert [step.key for step in checklist] == [
        "players",
        "staff",
        "seating",
        "printing",
        "clock",
        "publication",
    ]
    players = checklist[0]
    assert players.state is State.TODO
    assert players.is_next
    assert [step.key for step in checklist if step.is_next] == ["players"]
    assert players.links[0].url == reverse(
        "admin:tournament_tournament_import", args=[tournament.pk]
    )
    assert players.links[1].url.startswith(reverse("admin:tournament_registration_add"))


def test_players_not_a_multiple_of_four_is_a_warning_with_the_substitutes_to_add(tournament):
    make_registrations(tournament, 13)
    players = steps(tournament)["players"]
    assert players.state is State.WARNING
    assert players.detail == (
        "13 players: not a multiple of 4. Add 3 substitutes on the seating page."
    )
    assert players.links[-1].url == reverse("seating:overview", args=[tournament.slug])
    assert players.is_next


def test_substitutes_enough_for_the_last_table_make_the_players_done(tournament):
    make_registrations(tournament, 13)
    for _ in range(3):
        make_registration(tournament, is_substitute=True)
    players = steps(tournament)["players"]
    assert players.state is State.DONE
    assert players.detail == "13 players, 4 tables."


def test_withdrawn_players_do_not_count(tournament):
    registrations = make_registrations(tournament, 17)
    registrations[0].status = registrations[0].Status.WITHDRAWN
    registrations[0].save()
    assert steps(tournament)["players"].detail == "16 players, 4 tables."


def test_staff_is_to_do_without_a_referee_then_done(tournament, referee, django_user_model):
    make_registrations(tournament, 8)
    staff = steps(tournament)["staff"]
    assert staff.state is State.TODO
    assert staff.is_next
    assert staff.links[0].url == reverse(
        "admin:tournament_tournament_officials", args=[tournament.pk]
    )
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    make_staff(tournament, referee, Role.REFEREE)
    assert steps(tournament)["staff"].state is State.DONE
    assert steps(tournament)["staff"].detail == "1 official."


def test_one_official_when_sheets_need_a_second_is_a_warning(tournament, referee):
    make_staff(tournament, referee, Role.HEAD_REFEREE)
    staff = steps(tournament)["staff"]
    assert tournament.confirmation_policy == Tournament.ConfirmationPolicy.SECOND_OFFICIAL
    assert staff.state is State.WARNING
    assert "second official" in staff.detail


def test_rounds_missing_are_a_warning(tournament, referee):
    make_registrations(tournament, 8)
    make_staff(tournament, referee, Role.REFEREE)
    make_staff(tournament, referee.__class__.objects.create_user("ref2"), Role.REFEREE)
    make_rounds(tournament, 3)
    seating = steps(tournament)["seating"]
    assert seating.state is State.WARNING
    assert seating.detail == (
        "3 of 8 rounds exist: save the tournament below to create the others."
    )
    assert seating.is_next


def test_round_one_not_seated_is_next_with_the_seating_page(tournament, referee):
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    ready(tournament, referee)
    checklist = steps(tournament)
    assert checklist["players"].state is State.DONE
    assert checklist["staff"].state is State.DONE
    seating = checklist["seating"]
    assert (seating.state, seating.is_next) == (State.TODO, True)
    assert seating.links[0].url == f"/manage/{tournament.slug}/seating/"
    assert checklist["printing"].state is State.TODO
    assert checklist["publication"].state is State.TODO


def test_round_one_seated_for_fewer_players_than_play_now_is_a_warning(tournament, referee):
    registrations = ready(tournament, referee, players=20)
    seat_round_one(tournament, registrations[:16])
    seating = steps(tournament)["seating"]
    assert seating.state is State.WARNING
    assert seating.detail == "Round 1 seats 16 players but 20 play now: seat it again."


def test_a_seated_published_round_one_makes_every_step_done(tournament, referee):
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    seat_round_one(tournament, ready(tournament, referee))
    checklist = setup_checklist(tournament)
    assert [(step.key, step.state) for step in checklist] == [
        ("players", State.DONE),
        ("staff", State.DONE),
        ("seating", State.DONE),
        ("printing", State.DONE),
        ("clock", State.DONE),
        ("publication", State.DONE),
    ]
    assert not any(step.is_next for step in checklist)
    printing = {link.url for link in checklist[3].links}
    assert f"/manage/{tournament.slug}/rounds/1/exports/score-sheets-pdf/" in printing
    assert f"/manage/{tournament.slug}/rounds/1/exports/seating-pdf/" in printing
    assert checklist[4].links[0].url == f"/manage/{tournament.slug}/rounds/1/clock/"
    assert checklist[4].detail.startswith("90 minutes a round")


def test_a_hidden_tournament_is_to_do_and_hidden_seating_a_warning(tournament, referee):
    seat_round_one(tournament, ready(tournament, referee))
    tournament.is_public = False
    tournament.save()
    publication = steps(tournament)["publication"]
    assert publication.state is State.TODO
    assert publication.links[0].url.endswith("#id_is_public")
    tournament.is_public = True
    tournament.show_seating = False
    tournament.save()
    publication = steps(tournament)["publication"]
    assert publication.state is State.WARNING
    assert publication.detail == "Public, but the seating is hidden from the players."


def test_the_checklist_reads_a_fixed_number_of_queries(
    tournament, referee, django_assert_max_num_queries
):
    seat_round_one(tournament, ready(tournament, referee, players=40))
    with django_assert_max_num_queries(5):
        setup_checklist(tournament)


def test_the_admin_page_shows_the_checklist_with_the_next_step_highlighted_in_french(
    client, organiser, tournament
):
    client.force_login(organiser)
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "Set-up checklist" in page
    assert 'class="step step-todo step-next" data-step="players" aria-current="step"' in page
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Liste de préparation" in page
    assert "Aucun joueur n’est encore inscrit." in page
    translation.deactivate()


def test_the_printing_step_offers_the_table_cards_while_the_tables_report(tournament, referee):
    seat_round_one(tournament, ready(tournament, referee))
    cards = f"/manage/{tournament.slug}/rounds/1/exports/table-cards-pdf/"
    printing = steps(tournament)["printing"]
    assert cards in {link.url for link in printing.links}
    assert printing.detail == "Round 1's seating, table cards and score sheets are ready to print."
    tournament.table_reports = False
    tournament.save()
    printing = steps(tournament)["printing"]
    assert cards not in {link.url for link in printing.links}
    assert printing.detail == "Round 1's seating and score sheets are ready to print."
