"""The organisers' seating pages: permissions, generate → preview → swap → apply, substitutes."""

import datetime
import re
from itertools import combinations

import pytest
from django.urls import URLResolver, get_resolver, reverse
from django.utils import timezone, translation
from django.utils.html import escape

from scoring.selectors.standings import tournament_standings
from seating.models import SeatingRun
from seating.services import fixed_table_set, seating_run_start
from seating.services import runs as runs_module
from seating.views.presentation import method_description
from tests.conftest import (
    make_registration,
    make_registrations,
    make_rounds,
    make_staff,
    make_tournament,
)
from tests.scoring.conftest import (
    enter,
    make_entry,
    table_registrations,
    two_rounds_played,
)
from tournament.models import Registration, Round, Seat, TournamentStaff
from tournament.services.registrations import registration_reinstate, registration_withdraw


@pytest.fixture
def inline_runs(settings):
    settings.SEATING_RUN_IN_BACKGROUND = False
    settings.SEATING_TIME_LIMIT = 1


@pytest.fixture
def event(db):
    tournament = make_tournament(rounds_count=3)
    registrations = make_registrations(tournament, 20, teams=5)
    make_rounds(tournament)
    return tournament, registrations


def overview_url(tournament) -> str:
    return reverse("seating:overview", args=[tournament.slug])


def run_url(run) -> str:
    return reverse("seating:run", args=[run.tournament.slug, run.pk])


def generate(client, tournament, **data):
    payload = {
        "rounds": [r.pk for r in tournament.rounds.all()],
        "priority": "tables",
        "keep_apart": "team",
        "seed": "11",
        "time_limit": "1",
    }
    payload.update(data)
    return client.post(reverse("seating:generate", args=[tournament.slug]), payload)


def seat_swiss_round(client, tournament, number: int):
    """Ask for a Swiss round from the standings, opponents first, as the organiser does."""
    return client.post(
        reverse("seating:swiss", args=[tournament.slug]),
        {
            "round": tournament.rounds.get(number=number).pk,
            "seed": "5",
            "keep_apart": "team",
            "priority": "opponents",
            "closeness": "1000",
        },
    )


def seat_every_round(client, tournament) -> None:
    """Generate a plan for every round and apply it, as the organiser does."""
    generate(client, tournament)
    run = SeatingRun.objects.get()
    client.post(reverse("seating:run_apply", args=[tournament.slug, run.pk]))


def test_anonymous_is_sent_to_login(client, event):
    tournament, _registrations = event
    response = client.get(overview_url(tournament))
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


@pytest.mark.parametrize("role", [TournamentStaff.Role.REFEREE, TournamentStaff.Role.HEAD_REFEREE])
def test_lower_roles_get_403(client, event, django_user_model, role):
    tournament, _registrations = event
    user = django_user_model.objects.create_user("ref", password="pw-ref-12345", is_staff=True)
    make_staff(tournament, user, role)
    client.force_login(user)
    assert client.get(overview_url(tournament)).status_code == 403
    assert generate(client, tournament).status_code == 403
    assert not SeatingRun.objects.exists()


def test_organiser_of_another_tournament_gets_403(client, event, django_user_model):
    tournament, _registrations = event
    user = django_user_model.objects.create_user("other", password="pw-o-12345", is_staff=True)
    make_staff(make_tournament(), user, TournamentStaff.Role.ORGANISER)
    client.force_login(user)
    assert client.get(overview_url(tournament)).status_code == 403


def test_organiser_sees_the_overview(client, event, django_user_model):
    tournament, _registrations = event
    user = django_user_model.objects.create_user("org", password="pw-org-12345", is_staff=True)
    make_staff(tournament, user, TournamentStaff.Role.ORGANISER)
    client.force_login(user)
    response = client.get(overview_url(tournament))
    assert response.status_code == 200
    assert "20 players to seat" in response.text
    assert "5 tables" in response.text


def test_tournament_change_page_links_to_seating(client, organiser, event):
    tournament, _registrations = event
    client.force_login(organiser)
    response = client.get(reverse("admin:tournament_tournament_change", args=[tournament.pk]))
    assert overview_url(tournament) in response.text


def _namespaced_views(resolver: URLResolver, namespace: str = ""):
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _namespaced_views(pattern, pattern.namespace or namespace)
        else:
            yield namespace, getattr(pattern.callback, "view_class", None)


def test_the_seating_pages_are_the_seating_apps_own_urls():
    """Under the tournament's slug, from seating/urls.py: none is declared in the admin. (The
    public seating pages, seating.views.public, are in the site's public namespace.)"""
    assert reverse("seating:overview", args=["open"]) == "/manage/open/seating/"
    assert reverse("seating:run_swap", args=["open", 7]) == "/manage/open/seating/runs/7/swap/"
    namespaces = {
        namespace
        for namespace, view_class in _namespaced_views(get_resolver())
        if view_class is not None and view_class.__module__.startswith("seating.views.organiser")
    }
    assert namespaces == {"seating"}


def test_generate_preview_swap_apply(client, organiser, event, inline_runs):
    tournament, registrations = event
    client.force_login(organiser)
    response = generate(client, tournament)
    run = SeatingRun.objects.get()
    assert response.status_code == 302
    assert response.url == run_url(run)

    page = client.get(run_url(run))
    assert page.status_code == 200
    assert "Quality report" in page.text
    # Three rounds: a wind spread of 1 at best (⌈3/4⌉ − ⌊3/4⌋), shown as the bound.
    wind_row = re.search(r'class="quality-wind_imbalance">(.*?)</tr>', page.text, re.S)
    assert wind_row.group(1).split("<td>")[-1].startswith("≥ 1")
    assert registrations[0].player.full_name in page.text
    assert not Seat.objects.exists()

    tables = run.plan[1]["tables"]
    first, second = tables[0][0], tables[1][0]
    response = client.post(
        reverse("seating:run_swap", args=[tournament.slug, run.pk]),
        {"round": "2", "first": str(first), "second": str(second)},
    )
    assert response.status_code == 302
    page = client.get(run_url(run))
    assert "Before the last swap" in page.text
    run.refresh_from_db()
    assert run.plan[1]["tables"][0][0] == second

    response = client.post(reverse("seating:run_apply", args=[tournament.slug, run.pk]))
    assert response.status_code == 302
    assert Seat.objects.filter(round__tournament=tournament).count() == 60
    seat = Seat.objects.get(round__number=2, registration_id=second)
    assert (seat.table_number, seat.wind) == (1, "E")
    assert set(tournament.rounds.values_list("status", flat=True)) == {Round.Status.SEATED}


def test_one_round_is_named_in_the_singular(client, organiser, event, inline_runs):
    # Seating round 8 alone said "Seating applied to rounds 8."
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament, rounds=[tournament.rounds.get(number=2).pk])
    run = SeatingRun.objects.get()
    assert "replaces the seats of round 2 and" in client.get(run_url(run)).text
    apply_url = reverse("seating:run_apply", args=[tournament.slug, run.pk])
    page = client.post(apply_url, follow=True)
    assert "Seating applied to round 2." in [str(m) for m in page.context["messages"]]


def test_form_errors_keep_the_organisers_input(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    response = generate(client, tournament, rounds=[], seed="123")
    assert response.status_code == 200
    assert 'value="123"' in response.text
    assert not SeatingRun.objects.exists()


def test_swap_error_is_shown_and_nothing_changes(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament)
    run = SeatingRun.objects.get()
    player = run.plan[0]["tables"][0][0]
    response = client.post(
        reverse("seating:run_swap", args=[tournament.slug, run.pk]),
        {"round": "1", "first": str(player), "second": str(player)},
        follow=True,
    )
    assert "Choose two different players." in response.text
    plan = run.plan
    run.refresh_from_db()
    assert run.plan == plan


def test_progress_endpoint_reports_status(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament)
    run = SeatingRun.objects.get()
    data = client.get(reverse("seating:run_progress", args=[tournament.slug, run.pk])).json()
    assert data == {"status": "done", "progress": 1.0, "stalled": False}


def test_running_page_shows_a_progress_bar(client, organiser, event):
    tournament, _registrations = event
    client.force_login(organiser)
    run = seating_run_start(
        tournament=tournament,
        rounds=list(tournament.rounds.all()),
        background=True,
        acting_user=None,
    )  # the thread starts only on commit, which never comes in this test
    page = client.get(run_url(run))
    assert "<progress" in page.text
    assert "seating/seating.js" in page.text


def test_discard_leaves_seats_alone(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament)
    run = SeatingRun.objects.get()
    client.post(reverse("seating:run_discard", args=[tournament.slug, run.pk]))
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.DISCARDED
    assert not Seat.objects.exists()


def test_a_run_closed_by_another_organisers_apply_says_why(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament)  # made first: one run computes at a time
    # Another organiser's run, still computing (in the background: it starts on commit).
    running = seating_run_start(
        tournament=tournament,
        rounds=list(tournament.rounds.all()),
        background=True,
        acting_user=None,
    )
    applied = SeatingRun.objects.exclude(pk=running.pk).get()
    client.post(reverse("seating:run_apply", args=[tournament.slug, applied.pk]))
    page = client.get(run_url(running)).text
    assert "another proposal was applied meanwhile" in page
    assert "Generating the seating" not in page


def test_count_not_multiple_of_four_offers_one_click_substitutes(client, organiser, db):
    tournament = make_tournament(rounds_count=2)
    make_registrations(tournament, 17)
    make_rounds(tournament)
    client.force_login(organiser)
    page = client.get(overview_url(tournament))
    assert "Add 3 placeholder substitutes" in page.text
    url = reverse("seating:substitutes", args=[tournament.slug])
    client.post(url, {"count": "3"})
    assert Registration.objects.filter(tournament=tournament, is_substitute=True).count() == 3
    # A second click (stale page) adds nobody.
    client.post(url, {"count": "3"})
    assert Registration.objects.filter(tournament=tournament).count() == 20
    page = client.get(overview_url(tournament))
    assert "placeholder substitutes" not in page.text
    assert "including 3 substitutes" in page.text


def test_the_overview_names_the_substitutes_on_standby(client, organiser, db):
    tournament = make_tournament(rounds_count=2)
    make_registrations(tournament, 16)
    reserve = make_registration(tournament, is_substitute=True)
    make_rounds(tournament)
    client.force_login(organiser)
    page = client.get(overview_url(tournament))
    assert "16 players to seat" in page.text
    assert "1 substitute on standby, not seated" in page.text
    assert reserve.player.display_name in page.text
    assert "placeholder substitutes" not in page.text


def test_generate_with_a_bad_count_explains_and_seats_nobody(client, organiser, db):
    tournament = make_tournament(rounds_count=2)
    make_registrations(tournament, 18)
    make_rounds(tournament)
    client.force_login(organiser)
    response = generate(client, tournament, time_limit="1")
    assert response.status_code == 200
    assert "add 2 substitutes" in response.text
    assert not SeatingRun.objects.exists()


def test_swiss_round_from_the_standings_view(client, organiser, event, inline_runs):
    tournament, registrations = event
    client.force_login(organiser)
    response = seat_swiss_round(client, tournament, number=3)
    run = SeatingRun.objects.get()
    assert response.url == run_url(run)
    assert run.mode == SeatingRun.Mode.SWISS
    assert run.priority == SeatingRun.Priority.OPPONENTS
    assert run.snapshot["closeness_weight"] == 1000
    assert run.round_numbers == [3]
    seated = sorted(p for table in run.plan[0]["tables"] for p in table)
    assert seated == sorted(r.pk for r in registrations)


def test_a_swiss_round_seated_before_the_last_round_is_complete_says_so(
    client, organiser, inline_runs
):
    # Round 8 of the demo was seated from standings with round 5 half entered, and the page
    # only said "Ready for review". Then the warning was a one-time message: the progress
    # bar's reload (background runs, the default) took it away before the proposal showed.
    tournament, registrations, (_first, second, third) = two_rounds_played(
        organiser, tables_of_round_two=(1,)
    )
    client.force_login(organiser)
    client.post(
        reverse("seating:swiss", args=[tournament.slug]),
        {"round": third.pk, "seed": "5", "keep_apart": "team", "priority": "opponents"}
        | {"closeness": "1000"},
    )
    run = SeatingRun.objects.get()
    for _reload in range(2):
        response = client.get(run_url(run))
        (note,) = response.context["notes"]
        assert note.startswith("Round 2 was not complete when this proposal was made")
        assert note.endswith("Seat round 3 again once it is complete.")
        assert note in response.content.decode()
    # Entering the missing sheets does not make the proposal's groups right.
    for table in (2, 3):
        enter(second, table, make_entry(table_registrations(second, table)), organiser)
    assert client.get(run_url(run)).context["notes"] == [note]
    # Each ranked player's place in the standings the round came from is on the proposal
    # (equal players share one), so the organiser sees how closely its tables follow them.
    page = client.get(run_url(run)).content.decode()
    ranked = run.snapshot["standings"][: run.snapshot["ranked_players"]]
    assert len(ranked) == 12
    places = run.snapshot["places"]
    assert len(places) == 12
    for pk in ranked:
        name = re.escape(escape(next(r for r in registrations if r.pk == pk).player.display_name))
        place = places[str(pk)]
        assert re.search(rf'<span class="seating-standing"[^>]*>{place}\.</span> {name}<', page)


def test_a_swiss_proposal_numbers_players_by_their_place_in_the_rankings(
    client, organiser, inline_runs
):
    # Final Open, round 6: the player 30th had withdrawn, so the proposal wrote "30. Paul Martin"
    # for the player the rankings, printed and on every phone, showed 31st, and so on down to the
    # last table: the organiser checking the tables against the rankings saw every group below 30th
    # one place off. A withdrawn player's rounds still count in the ranking (WRC 2015 §7.1 leaves
    # out only the disqualified; docs/rules-engine.md, "Standings and the tie-break chain").
    tournament, registrations, (_first, _second, third) = two_rounds_played(organiser)
    entries = tournament_standings(tournament).entries
    withdrawn = next(r for r in registrations if r.pk == entries[1].registration_id)
    registration_withdraw(registration=withdrawn, reason="Train home", acting_user=organiser)
    make_registration(tournament, is_substitute=True)
    client.force_login(organiser)
    seat_swiss_round(client, tournament, number=3)
    page = client.get(run_url(SeatingRun.objects.get())).content.decode()
    places = {e.registration_id: e.place for e in tournament_standings(tournament).entries}
    assert places[withdrawn.pk] < max(places.values())  # players below them
    for registration in registrations:
        if registration.pk == withdrawn.pk:
            continue
        name = re.escape(escape(registration.player.display_name))
        place = places[registration.pk]
        assert re.search(rf'<span class="seating-standing"[^>]*>{place}\.</span> {name}<', page)


def test_a_swiss_round_without_standings_says_so_on_its_page(client, organiser, inline_runs):
    tournament = make_tournament(rounds_count=1)
    make_registrations(tournament, 8)
    (round_,) = make_rounds(tournament)
    client.force_login(organiser)
    client.post(
        reverse("seating:swiss", args=[tournament.slug]),
        {"round": round_.pk, "keep_apart": "team", "priority": "tables", "closeness": "10"},
    )
    response = client.get(run_url(SeatingRun.objects.get()))
    assert response.context["notes"] == [
        "There were no standings when this proposal was made: players were grouped in "
        "registration order."
    ]


def test_swapped_players_are_marked_in_the_preview(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament)
    run = SeatingRun.objects.get()
    first, second = run.plan[0]["tables"][0][1], run.plan[0]["tables"][2][3]
    client.post(
        reverse("seating:run_swap", args=[tournament.slug, run.pk]),
        {"round": "1", "first": str(first), "second": str(second)},
    )
    page = client.get(run_url(run))
    assert page.text.count('class="seating-swapped"') == 2
    assert 'id="last-swap"' in page.text


def add_fixed_table(client, registration, table_number: str):
    return client.post(
        reverse("admin:seating_fixedtable_add"),
        {"registration": registration.pk, "table_number": table_number, "reason": "Wheelchair"},
    )


def test_fixed_table_added_in_the_admin_is_audited(client, organiser, event):
    tournament, registrations = event
    client.force_login(organiser)
    response = add_fixed_table(client, registrations[2], "1")
    assert response.status_code == 302
    assert registrations[2].fixed_table.table_number == 1
    assert tournament.audit_entries.filter(action="seating.fixed_table_set").exists()
    page = client.get(overview_url(tournament))
    assert "Wheelchair" in page.text


def test_fixed_table_admin_says_why_a_table_cannot_be_fixed(client, organiser, event):
    tournament, registrations = event
    client.force_login(organiser)
    response = add_fixed_table(client, registrations[2], "99")
    assert response.status_code == 200
    assert "Table 99 does not exist" in response.text
    assert not tournament.audit_entries.filter(action="seating.fixed_table_set").exists()


def test_fixed_table_zero_says_what_is_wrong_not_the_constraint(client, organiser, event):
    _tournament, registrations = event
    client.force_login(organiser)
    response = add_fixed_table(client, registrations[2], "0")
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "table_number": ["Ensure this value is greater than or equal to 1."]
    }


def test_overview_flags_seated_rounds_that_no_longer_match_the_players(
    client, organiser, event, inline_runs
):
    tournament, registrations = event
    client.force_login(organiser)
    seat_every_round(client, tournament)
    assert "out of date" not in client.get(overview_url(tournament)).text
    registrations[0].status = Registration.Status.WITHDRAWN
    registrations[0].status_reason = "Ill"
    registrations[0].save()
    assert client.get(overview_url(tournament)).text.count("out of date") == 3


def test_overview_flags_seated_rounds_when_a_late_registration_benches_a_substitute(
    client, organiser, event, inline_runs
):
    # 19 players and a substitute fill five tables; a late registration takes the
    # substitute's place in the plan, while the seats still have the substitute, not them.
    tournament, registrations = event
    registrations[0].status = Registration.Status.WITHDRAWN
    registrations[0].save()
    substitute = make_registration(tournament, is_substitute=True)
    client.force_login(organiser)
    seat_every_round(client, tournament)
    assert "out of date" not in client.get(overview_url(tournament)).text
    make_registration(tournament)
    page = client.get(overview_url(tournament)).text
    assert escape(substitute.player.display_name) in page  # on standby
    assert page.count("out of date: the players changed") == 3


@pytest.mark.parametrize("with_substitute", [False, True])
def test_overview_flags_rounds_seated_without_a_reinstated_player(
    client, organiser, event, inline_runs, with_substitute
):
    # Withdrawn by mistake, every round seated without them, then reinstated: 16 seated
    # players become 17, or 19 and a substitute become 20 and the substitute goes to
    # standby. Either way the seats leave the player out.
    tournament, registrations = event
    registration_withdraw(registration=registrations[0], reason="Ill", acting_user=organiser)
    substitute = make_registration(tournament, is_substitute=True) if with_substitute else None
    if not with_substitute:
        registration_withdraw(registration=registrations[1], reason="Ill", acting_user=organiser)
        registration_withdraw(registration=registrations[2], reason="Ill", acting_user=organiser)
        registration_withdraw(registration=registrations[3], reason="Ill", acting_user=organiser)
    client.force_login(organiser)
    seat_every_round(client, tournament)
    assert not Seat.objects.filter(registration=registrations[0]).exists()
    assert "out of date" not in client.get(overview_url(tournament)).text
    registration_reinstate(
        registration=registrations[0], reason="Wrong player ticked", acting_user=organiser
    )
    page = client.get(overview_url(tournament)).text
    assert page.count("out of date: the players changed") == 3
    if substitute:
        assert escape(substitute.player.display_name) in page  # on standby now


def test_overview_flags_seated_rounds_that_break_a_new_fixed_table(
    client, organiser, event, inline_runs
):
    tournament, registrations = event
    client.force_login(organiser)
    seat_every_round(client, tournament)
    tables = set(
        Seat.objects.filter(registration=registrations[0]).values_list("table_number", flat=True)
    )
    fixed_table_set(registration=registrations[0], table_number=min(tables), acting_user=None)
    # The player sits at that table in one round only (no table reused): the others break it.
    page = client.get(overview_url(tournament)).text
    assert page.count("out of date: a player is not at their fixed table") == len(tables) - 1


def test_runs_and_fixed_tables_have_working_admin_lists(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament)
    run = SeatingRun.objects.get()
    assert client.get(reverse("admin:seating_seatingrun_changelist")).status_code == 200
    assert client.get(reverse("admin:seating_seatingrun_change", args=[run.pk])).status_code == 200
    assert client.get(reverse("admin:seating_fixedtable_changelist")).status_code == 200


def test_a_failed_run_says_why_and_can_be_discarded(client, organiser, event, monkeypatch):
    tournament, _registrations = event
    real = runs_module.plan_seating

    def failing(request, progress=None):
        if request.rounds:
            raise RuntimeError("out of memory")
        return real(request, progress)

    monkeypatch.setattr(runs_module, "plan_seating", failing)
    run = seating_run_start(
        tournament=tournament,
        rounds=list(tournament.rounds.all()),
        background=False,
        acting_user=None,
    )
    assert run.status == SeatingRun.Status.FAILED
    client.force_login(organiser)
    page = client.get(run_url(run))
    assert "The seating generator failed unexpectedly: out of memory" in page.text
    assert reverse("seating:run_discard", args=[tournament.slug, run.pk]) in page.text
    assert 'id="apply-button"' not in page.text


def test_a_run_left_running_after_a_restart_says_so(client, organiser, event):
    tournament, _registrations = event
    run = seating_run_start(
        tournament=tournament,
        rounds=list(tournament.rounds.all()),
        background=True,
        acting_user=None,
    )
    SeatingRun.objects.filter(pk=run.pk).update(
        created_at=timezone.now() - datetime.timedelta(hours=1)
    )
    client.force_login(organiser)
    page = client.get(run_url(run))
    assert "stopped before it finished" in page.text
    assert "<progress" not in page.text


def test_a_background_run_whose_heartbeat_stopped_is_stalled_long_before_its_time_limit(
    client, organiser, event
):
    tournament, _registrations = event
    run = seating_run_start(
        tournament=tournament,
        rounds=list(tournament.rounds.all()),
        time_limit=300,
        acting_user=None,
    )
    now = timezone.now()
    SeatingRun.objects.filter(pk=run.pk).update(
        status=SeatingRun.Status.RUNNING, heartbeat_at=now - datetime.timedelta(seconds=10)
    )
    run.refresh_from_db()
    assert not run.is_stalled  # beat 10 s ago: still computing
    SeatingRun.objects.filter(pk=run.pk).update(heartbeat_at=now - datetime.timedelta(minutes=1))
    client.force_login(organiser)
    page = client.get(run_url(run))
    assert "stopped before it finished" in page.text  # not after 300 s + 120 s
    # The recovery job hands it to a worker again (tests/seating/test_worker.py).
    assert "A running worker starts it again within a minute" in page.text


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_marks_a_running_run_alive():
    tournament = make_tournament(rounds_count=1)
    make_registrations(tournament, 8)
    make_rounds(tournament)
    run = seating_run_start(
        tournament=tournament,
        rounds=list(tournament.rounds.all()),
        background=False,
        acting_user=None,
    )
    SeatingRun.objects.filter(pk=run.pk).update(status=SeatingRun.Status.RUNNING)
    heartbeat = runs_module._Heartbeat(run.pk, interval=0.01)
    heartbeat.start()
    heartbeat.stopped.set()
    heartbeat.join(timeout=10)
    run.refresh_from_db()
    assert run.heartbeat_at is not None
    assert not run.is_stalled


@pytest.mark.parametrize(
    ("method", "english", "french"),
    [
        ("construction GF(5)", "finite-field construction", "construction sur un corps fini"),
        ("construction AG(2,4)", "finite-field construction", "construction sur un corps fini"),
        (
            "construction Z_2 × Z_4 + search from teams in seat classes",
            "arithmetic construction, then improved by a computer search",
            "construction arithmétique, puis amélioration par une recherche informatique",
        ),
        ("construction stored design (32 players)", "ready-made design", "plan préétabli"),
        (
            "best known plan (15 repeats)",
            "best plan known for this size",
            "meilleur plan connu pour cette taille",
        ),
        (
            "the current seating (repeat-free)",
            "the current seating, kept",
            "le placement actuel, conservé",
        ),
        ("search", "computer search", "recherche informatique"),
        ("swiss", "", ""),  # the run's mode already says "Swiss round from the standings"
    ],
)
def test_the_method_is_told_in_the_organisers_words(method, english, french):
    with translation.override("en"):
        assert method_description(method) == english
    with translation.override("fr"):
        assert method_description(method) == french


def test_the_run_page_shows_no_engine_label(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament)
    run = SeatingRun.objects.get()
    assert run.method.startswith("construction GF(5)")
    page = client.get(run_url(run)).text
    assert "How it was made: finite-field construction" in page
    assert "GF(5)" not in page
    record = client.get(reverse("admin:seating_seatingrun_change", args=[run.pk])).text
    assert "finite-field construction" in record
    assert "GF(5)" not in record


def test_applying_names_the_round_or_the_rounds(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    seat_swiss_round(client, tournament, number=3)
    run = SeatingRun.objects.get()
    assert "round 3 ·" in client.get(run_url(run)).text
    apply_url = reverse("seating:run_apply", args=[tournament.slug, run.pk])
    page = client.post(apply_url, follow=True, headers={"accept-language": "fr"})
    assert "Placement appliqué à la ronde 3." in page.text
    generate(client, tournament, rounds=[r.pk for r in tournament.rounds.filter(number__lt=3)])
    run = SeatingRun.objects.latest("pk")
    apply_url = reverse("seating:run_apply", args=[tournament.slug, run.pk])
    assert "Seating applied to rounds 1, 2." in client.post(apply_url, follow=True).text


def test_pairs_seated_together_in_every_round_are_named(client, organiser, db, inline_runs):
    # 16 players × 4 rounds, tables first: every plan with no table revisited and the fewest
    # repeats (12) seats some pair together in all four rounds (docs/seating.md, an exhaustive
    # CP-SAT count); the report's totals alone hide that.
    tournament = make_tournament(rounds_count=4)
    make_registrations(tournament, 16)
    make_rounds(tournament)
    client.force_login(organiser)
    generate(client, tournament)
    run = SeatingRun.objects.get()
    page = client.get(run_url(run)).text
    note = re.search(r'id="always-together">(.*?)</p>', page, re.S).group(1)
    assert "in every round of this proposal" in note
    assert "Opponents first" in note
    registrations = {r.pk: r for r in tournament.registrations.all()}
    plan = [item["tables"] for item in run.plan]
    for a, b in combinations(registrations, 2):
        together = all(any(a in t and b in t for t in tables) for tables in plan)
        named = f"{registrations[a].player.display_name} and {registrations[b].player.display_name}"
        assert (named in note) == together
    # In French the advice said "une table déjà occupée" (taken by others, not sat at before)
    # and "à cette taille" (a size of what?).
    client.cookies["django_language"] = "fr"
    note = re.search(r'id="always-together">(.*?)</p>', client.get(run_url(run)).text, re.S)
    assert "à une table où il a déjà joué" in note.group(1)
    assert "pour ce nombre de joueurs et de rondes" in note.group(1)


def test_no_pair_is_named_when_none_meets_every_round(client, organiser, event, inline_runs):
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament, priority="opponents")
    run = SeatingRun.objects.get()
    assert run.metrics["max_meetings"] < 3
    assert 'id="always-together"' not in client.get(run_url(run)).text


def test_players_fixed_to_one_table_are_not_named_as_always_together(
    client, organiser, event, inline_runs
):
    # Two players fixed to table 1 (a wheelchair place, say) meet in every round by the
    # organiser's own choice: naming them, and pointing to "Opponents first" as a way to
    # seat them apart, told the organiser something no priority can do.
    tournament, registrations = event
    for registration in registrations[:2]:
        fixed_table_set(
            registration=registration, table_number=1, reason="Wheelchair", acting_user=None
        )
    client.force_login(organiser)
    generate(client, tournament, keep_apart="none")
    run = SeatingRun.objects.get()
    plan = [item["tables"] for item in run.plan]
    first, second = (registration.player.display_name for registration in registrations[:2])
    assert all({registrations[0].pk, registrations[1].pk} <= set(tables[0]) for tables in plan)
    assert f"{first} and {second}" not in client.get(run_url(run)).text


def test_an_applied_proposal_seated_again_later_says_it_is_no_longer_in_place(
    client, organiser, event, inline_runs
):
    # Rounds 1-3 applied from one proposal, then round 2 seated again from another: both
    # read "Applied", and the first one's page showed its round 2 as if it were in force.
    tournament, _registrations = event
    client.force_login(organiser)
    generate(client, tournament)
    first = SeatingRun.objects.get()
    client.post(reverse("seating:run_apply", args=[tournament.slug, first.pk]))
    generate(client, tournament, rounds=[tournament.rounds.get(number=2).pk], seed="12")
    second = SeatingRun.objects.exclude(pk=first.pk).get()
    client.post(reverse("seating:run_apply", args=[tournament.slug, second.pk]))
    page = client.get(run_url(first)).text
    assert "Applied, then seated again by a later proposal" in page
    assert f"Round 2: proposal {second.pk}" in page
    assert "seated again by a later proposal" not in client.get(run_url(second)).text
    overview = client.get(overview_url(tournament)).text
    assert f"Applied · replaced by {second.pk}" in overview
