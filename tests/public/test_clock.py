"""The round clock: services, state JSON and the staff's controls (WRC 2015 §8.2)."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from scoring.models import ScoreSheet
from tests.conftest import make_rounds, make_staff, make_tournament
from tournament.models import AuditEntry, Round, TournamentStaff
from tournament.services.clock import (
    clock_extend,
    clock_pause,
    clock_reset,
    clock_start,
    clock_state,
)


@pytest.fixture
def round_(db) -> Round:
    return make_rounds(make_tournament(round_minutes=90), 1)[0]


def test_a_new_clock_shows_the_full_round_time_stopped(round_):
    state = clock_state(round_)
    assert state["running"] is False
    assert state["remaining_seconds"] == 90 * 60


def test_start_pause_resume_keeps_the_time_played(round_, organiser, monkeypatch):
    start = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: start)
    clock_start(round_=round_, acting_user=organiser)
    monkeypatch.setattr(timezone, "now", lambda: start + datetime.timedelta(minutes=10))
    clock_pause(round_=round_, acting_user=organiser)
    monkeypatch.setattr(timezone, "now", lambda: start + datetime.timedelta(minutes=30))
    round_.refresh_from_db()
    assert clock_state(round_)["remaining_seconds"] == 80 * 60  # the pause does not count
    clock_start(round_=round_, acting_user=organiser)
    monkeypatch.setattr(timezone, "now", lambda: start + datetime.timedelta(minutes=35))
    round_.refresh_from_db()
    assert clock_state(round_)["remaining_seconds"] == 75 * 60
    assert clock_state(round_)["running"] is True


def test_extend_adds_five_minutes_and_reset_restores_the_full_time(round_, organiser):
    clock_extend(round_=round_, acting_user=organiser)
    round_.refresh_from_db()
    assert clock_state(round_)["remaining_seconds"] == 95 * 60
    clock_start(round_=round_, acting_user=organiser)
    clock_reset(round_=round_, acting_user=organiser)
    round_.refresh_from_db()
    assert clock_state(round_) | {"server_time": None} == {
        "round": 1,
        "over": False,
        "running": False,
        "remaining_seconds": 90 * 60,
        "total_seconds": 90 * 60,
        "server_time": None,
        "ends_at": None,
        "time_zone": round_.tournament.time_zone,
        "tables": [],
    }


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (Round.Status.SEATED, Round.Status.PLAYING),
        (Round.Status.PLANNED, Round.Status.PLANNED),  # nobody is seated: nothing is played
        (Round.Status.PLAYING, Round.Status.PLAYING),  # resumed after a pause
        (Round.Status.FINISHED, Round.Status.FINISHED),
    ],
)
def test_starting_the_clock_of_a_seated_round_marks_it_playing(round_, organiser, before, after):
    # Seating treats a playing round as played: a proposal made before the start can no
    # longer move its players (Round.PLAYED_STATUSES).
    Round.objects.filter(pk=round_.pk).update(status=before)
    clock_start(round_=round_, acting_user=organiser)
    round_.refresh_from_db()
    assert round_.status == after
    assert AuditEntry.objects.get(action="round.clock_start").data["status"] == after


@pytest.mark.parametrize(("sheet_saved", "after"), [(False, "seated"), (True, "playing")])
def test_resetting_a_clock_started_by_mistake_makes_the_round_seated_again(
    round_, organiser, sheet_saved, after
):
    # Until a sheet is saved nothing was played: the round can still be seated.
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.SEATED)
    clock_start(round_=round_, acting_user=organiser)
    if sheet_saved:
        ScoreSheet.objects.create(round=round_, table_number=1, revision=1)
    clock_reset(round_=round_, acting_user=organiser)
    round_.refresh_from_db()
    assert round_.status == after


def test_the_first_start_is_when_the_round_began_and_a_reset_forgets_it(
    round_, organiser, monkeypatch
):
    # Lateness is counted from it (WRC 2015 §7.2): a pause and a resume do not move it.
    start = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: start)
    clock_start(round_=round_, acting_user=organiser)
    monkeypatch.setattr(timezone, "now", lambda: start + datetime.timedelta(minutes=10))
    clock_pause(round_=round_, acting_user=organiser)
    clock_start(round_=round_, acting_user=organiser)
    round_.refresh_from_db()
    assert round_.started_at == start
    clock_reset(round_=round_, acting_user=organiser)
    round_.refresh_from_db()
    assert round_.started_at is None


def test_starting_a_running_clock_is_refused(round_, organiser):
    clock_start(round_=round_, acting_user=organiser)
    with pytest.raises(ValidationError, match="already running"):
        clock_start(round_=round_, acting_user=organiser)


def test_pausing_a_stopped_clock_is_refused(round_, organiser):
    with pytest.raises(ValidationError, match="not running"):
        clock_pause(round_=round_, acting_user=organiser)


def test_every_clock_change_is_audited(round_, organiser):
    clock_start(round_=round_, acting_user=organiser)
    clock_pause(round_=round_, acting_user=organiser)
    actions = list(AuditEntry.objects.order_by("id").values_list("action", "actor"))
    assert actions == [
        ("round.clock_start", organiser.pk),
        ("round.clock_pause", organiser.pk),
    ]


@pytest.mark.parametrize(
    ("status", "over"),
    [
        (Round.Status.PLAYING, False),
        (Round.Status.FINISHED, True),
        (Round.Status.LOCKED, True),  # every sheet confirmed and the results locked
    ],
)
def test_a_finished_rounds_clock_is_over_and_stopped(client, round_, organiser, status, over):
    # The clock was left running when the organiser finished the round: the screens went on
    # counting down to "Time!" in a round nobody played any more.
    clock_start(round_=round_, acting_user=organiser)
    Round.objects.filter(pk=round_.pk).update(status=status)
    url = reverse("public:clock_state", args=[round_.tournament.slug, 1])
    state = client.get(url).json()
    assert (state["over"], state["running"]) == (over, not over)
    page = client.get(reverse("public:clock", args=[round_.tournament.slug, 1]))
    assert f'data-over="{int(over)}"' in page.content.decode()


def test_clock_state_is_public_json(client, round_):
    url = reverse("public:clock_state", args=[round_.tournament.slug, 1])
    response = client.get(url)
    assert response.status_code == 200
    assert response.json()["remaining_seconds"] == 90 * 60
    assert response["Cache-Control"] == "no-store"


def test_clock_page_renders_for_anonymous(client, round_):
    response = client.get(reverse("public:clock", args=[round_.tournament.slug, 1]))
    assert response.status_code == 200
    assert 'id="round-clock"' in response.content.decode()


def test_clock_controls_walk_the_permission_ladder(client, round_, django_user_model):
    tournament = round_.tournament
    url = reverse("staff:clock_control", args=[tournament.slug, 1, "start"])
    assert client.post(url).status_code == 302  # anonymous → login
    assert AuditEntry.objects.count() == 0
    referee = django_user_model.objects.create_user("ref", password="pw-ref-12345")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    client.force_login(referee)
    assert client.post(url).status_code == 403
    other = make_tournament()
    boss = django_user_model.objects.create_user("boss2", password="pw-boss-12345")
    make_staff(other, boss, TournamentStaff.Role.ORGANISER)
    client.force_login(boss)
    assert client.post(url).status_code == 403
    assert AuditEntry.objects.count() == 0
    # The head referee runs the clock in the playing room (WRC 2015 §8.2), and so may the
    # organiser.
    head = django_user_model.objects.create_user("head", password="pw-head-12345")
    make_staff(tournament, head, TournamentStaff.Role.HEAD_REFEREE)
    organiser = django_user_model.objects.create_user("org", password="pw-org-12345")
    make_staff(tournament, organiser, TournamentStaff.Role.ORGANISER)
    for user, action in ((head, "start"), (organiser, "pause")):
        client.force_login(user)
        url = reverse("staff:clock_control", args=[tournament.slug, 1, action])
        assert client.post(url).status_code == 302
        assert AuditEntry.objects.latest("pk").actor == user
    round_.refresh_from_db()
    assert round_.clock_running_since is None
    assert round_.started_at is not None


def test_the_score_sheets_round_page_leads_head_referees_to_the_clock(
    client, round_, django_user_model
):
    tournament = round_.tournament
    page = reverse("scoring:round", args=[tournament.slug, 1])
    clock = reverse("staff:clock", args=[tournament.slug, 1])
    for name, role, opens in (
        ("ref", TournamentStaff.Role.REFEREE, False),
        ("head", TournamentStaff.Role.HEAD_REFEREE, True),
    ):
        user = django_user_model.objects.create_user(name, password=f"pw-{name}-12345")
        make_staff(tournament, user, role)
        client.force_login(user)
        assert (clock in client.get(page).content.decode()) is opens
        assert client.get(clock).status_code == (200 if opens else 403)


def test_clock_control_error_is_a_message_not_a_crash(client, round_, organiser):
    client.force_login(organiser)
    url = reverse("staff:clock_control", args=[round_.tournament.slug, 1, "pause"])
    response = client.post(url, follow=True)
    assert "not running" in response.content.decode()


def test_clock_control_refuses_get_and_unknown_actions(client, round_, organiser):
    client.force_login(organiser)
    slug = round_.tournament.slug
    assert client.get(reverse("staff:clock_control", args=[slug, 1, "start"])).status_code == 405
    assert client.post(reverse("staff:clock_control", args=[slug, 1, "boom"])).status_code == 404
