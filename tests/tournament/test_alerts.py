"""The players' e-mail alerts: seating published, seat changed, round about to start, penalty
given; each only to the players concerned and only on a change, queued once the write
commits, in the player's language, with a working unsubscribe link (Django's locmem backend:
`mail.outbox`)."""

import datetime
import re
from decimal import Decimal

import pytest
from django.core import mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from scoring.services.penalties import penalty_give
from scoring.services.round_status import round_status_change
from seating.services import seating_run_apply, seating_run_start
from seating.services.winds import seat_correction_record, winds_rebalance
from tests.conftest import (
    make_player,
    make_registration,
    make_rounds,
    make_seats,
    make_staff,
    seat_again,
)
from tournament.alerts.seats import seat_places
from tournament.alerts.tasks import (
    round_start_alerts_send,
    send_round_start_alerts,
    send_seat_alerts,
)
from tournament.models import (
    AlertSent,
    AuditEntry,
    Registration,
    RegistrationRequest,
    Round,
    TournamentStaff,
)
from tournament.services.alerts import registration_alerts_stop

pytestmark = pytest.mark.django_db

Role = TournamentStaff.Role


@pytest.fixture
def event(tournament, django_user_model):
    """Eight players with an address but the last (none given), four rounds not seated."""
    registrations = [
        make_registration(
            tournament, player=make_player(email=f"player{index}@example.org" if index < 7 else "")
        )
        for index in range(8)
    ]
    head = django_user_model.objects.create_user("head", password="pw-head-123")
    make_staff(tournament, head, Role.HEAD_REFEREE)
    return {
        "tournament": tournament,
        "players": registrations,
        "rounds": make_rounds(tournament, 4),
        "head": head,
    }


def mails_to(address: str) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if message.to == [address]]


def recipients() -> list[str]:
    return sorted(address for message in mail.outbox for address in message.to)


def seated(round_: Round, players: list[Registration], status=Round.Status.SEATED) -> Round:
    make_seats(round_, players)
    round_.status = status
    round_.save()
    return round_


def unsubscribe_path(message: mail.EmailMessage) -> str:
    url = re.search(r"http://localhost:8000(/\S+/alerts/stop/\S+/)", message.body)
    assert url, message.body
    return url.group(1)


def test_a_published_seating_tells_each_seated_player_with_an_address_where_to_sit(
    event, django_capture_on_commit_callbacks
):
    tournament, players, round_ = event["tournament"], event["players"], event["rounds"][0]
    round_.scheduled_start = datetime.datetime(2026, 6, 6, 10, 30, tzinfo=datetime.UTC)
    round_.save()
    with django_capture_on_commit_callbacks(execute=True):
        seat_again(round_, 7)
    # Seven addresses; the eighth player gave none.
    assert recipients() == sorted(f"player{index}@example.org" for index in range(7))
    first = players[0]
    seat = first.seats.get(round=round_)
    (message,) = mails_to("player0@example.org")
    assert message.subject == f"{tournament.name}: Round 1: your seat"
    lines = message.body.splitlines()
    assert lines[0] == "The seating of Round 1 is published."
    # 10:30 UTC is 12:30 in Paris, the tournament's zone.
    assert "Start: 6 June 2026, 12:30" in lines
    assert f"Table {seat.table_number}, {seat.get_wind_display()}" in lines
    for other in round_.seats.filter(table_number=seat.table_number).exclude(registration=first):
        assert f"{other.get_wind_display()}: {other.registration.player.display_name}" in lines
    page = f"http://localhost:8000/t/{tournament.slug}/players/{first.pk}/"
    assert f"Your page: {page}" in lines
    assert f"Your calendar: {page}calendar.ics" in lines
    link = "http://localhost:8000" + unsubscribe_path(message)
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_a_plan_of_several_rounds_gives_each_player_one_mail_with_every_round(
    event, django_capture_on_commit_callbacks
):
    rounds = event["rounds"][:2]
    run = seating_run_start(
        tournament=event["tournament"],
        rounds=rounds,
        seed=7,
        time_limit=1,
        background=False,
        acting_user=None,
    )
    with django_capture_on_commit_callbacks(execute=True):
        seating_run_apply(run=run, acting_user=None)
    assert recipients() == sorted(f"player{index}@example.org" for index in range(7))
    (message,) = mails_to("player4@example.org")
    assert message.subject == f"{event['tournament'].name}: Rounds 1, 2: your seats"
    lines = message.body.splitlines()
    assert lines[0] == "The seating of rounds 1, 2 is published."
    for round_ in rounds:
        seat = event["players"][4].seats.get(round=round_)
        header = lines.index(f"Round {round_.number}")
        assert lines[header + 1] == f"Table {seat.table_number}, {seat.get_wind_display()}"


def test_a_round_published_by_its_status_tells_its_seated_players(
    event, django_capture_on_commit_callbacks
):
    round_ = event["rounds"][0]
    make_seats(round_, event["players"][:4])
    with django_capture_on_commit_callbacks(execute=True):
        round_status_change(round_=round_, status=Round.Status.SEATED, acting_user=None)
    assert recipients() == [f"player{index}@example.org" for index in range(4)]


def test_a_reseat_tells_only_the_players_whose_table_wind_or_opponents_changed(
    event, django_capture_on_commit_callbacks
):
    round_ = seated(event["rounds"][0], event["players"])
    before = seat_places([round_.pk])[round_.pk]
    with django_capture_on_commit_callbacks(execute=True):
        seat_again(round_, 11)
    after = seat_places([round_.pk])[round_.pk]
    moved = {pk for pk in after if after[pk] != before[pk]}
    expected = sorted(
        player.player.email
        for player in event["players"]
        if player.pk in moved and player.player.email
    )
    assert recipients() == expected
    assert all(message.subject.endswith("Round 1: your seat changed") for message in mail.outbox)


def test_a_wind_correction_tells_the_two_players_who_swapped_and_nobody_else(
    event, django_capture_on_commit_callbacks
):
    p1, p2, p3, p4 = event["players"][:4]
    round_ = seated(event["rounds"][0], event["players"], status=Round.Status.PLAYING)
    with django_capture_on_commit_callbacks(execute=True):
        seat_correction_record(
            round_=round_,
            table_number=1,
            played=[p2.pk, p1.pk, p3.pk, p4.pk],
            reason="East and South swapped seats",
            acting_user=event["head"],
        )
    # West and North kept their wind and their opponents; table 2 was not touched.
    assert recipients() == ["player0@example.org", "player1@example.org"]
    (message,) = mails_to("player1@example.org")
    assert "Table 1, East" in message.body.splitlines()


def test_winds_evened_out_tell_the_players_whose_wind_moved(
    event, django_capture_on_commit_callbacks
):
    players = event["players"][:4]
    for shift, round_ in enumerate(event["rounds"]):
        seated(
            round_,
            players[-shift:] + players[:-shift] if shift else players,
            status=Round.Status.PLAYING if shift == 0 else Round.Status.SEATED,
        )
    p1, p2, p3, p4 = players
    seat_correction_record(
        round_=event["rounds"][0],
        table_number=1,
        played=[p2.pk, p1.pk, p3.pk, p4.pk],
        reason="Swapped",
        acting_user=event["head"],
    )
    ids = [round_.pk for round_ in event["rounds"][1:]]
    before = seat_places(ids)
    with django_capture_on_commit_callbacks(execute=True):
        assert winds_rebalance(tournament=event["tournament"], acting_user=event["head"])
    after = seat_places(ids)
    # One mail a player, however many of the rounds to come changed for them.
    expected = sorted(
        {
            registration.player.email
            for round_id in ids
            for registration in players
            if after[round_id][registration.pk] != before[round_id][registration.pk]
        }
    )
    assert expected
    assert recipients() == expected


def test_seat_alerts_wait_while_the_organisers_hide_the_seating(
    event, django_capture_on_commit_callbacks
):
    event["tournament"].show_seating = False
    event["tournament"].save()
    with django_capture_on_commit_callbacks(execute=True):
        seat_again(event["rounds"][0], 7)
    assert mail.outbox == []


def test_the_penalised_player_alone_is_told_the_points_round_and_reason(
    event, django_capture_on_commit_callbacks
):
    player = event["players"][2]
    with django_capture_on_commit_callbacks(execute=True):
        penalty_give(
            registration=player,
            points=Decimal("10"),
            reason="Phone rang",
            round_=event["rounds"][0],
            acting_user=event["head"],
        )
    (message,) = mail.outbox
    assert message.to == ["player2@example.org"]
    assert message.subject == f"{event['tournament'].name}: a penalty"
    assert message.body.splitlines()[:2] == [
        "A penalty of 10.0 points was given to you in Round 1.",
        "Reason: Phone rang",
    ]


def test_a_penalty_rolled_back_sends_nothing(event, django_capture_on_commit_callbacks):
    def give_then_fail() -> None:
        with transaction.atomic():
            penalty_give(
                registration=event["players"][2],
                points=Decimal("10"),
                reason="Phone rang",
                acting_user=event["head"],
            )
            raise RuntimeError("the request failed after the penalty")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        give_then_fail()
    assert mail.outbox == []


def test_the_mails_speak_french_on_a_french_site(
    settings, event, django_capture_on_commit_callbacks
):
    settings.LANGUAGE_CODE = "fr"
    round_ = event["rounds"][0]
    with django_capture_on_commit_callbacks(execute=True):
        seat_again(round_, 7)
        penalty_give(
            registration=event["players"][0],
            points=Decimal("5"),
            reason="Téléphone",
            round_=round_,
            acting_user=event["head"],
        )
    seat_mail, penalty_mail = mails_to("player0@example.org")
    seat = event["players"][0].seats.get(round=round_)
    wind = {"E": "Est", "S": "Sud", "W": "Ouest", "N": "Nord"}[seat.wind]
    assert seat_mail.subject == f"{event['tournament'].name} : Ronde 1 : votre place"
    assert seat_mail.body.splitlines()[0] == "Ronde 1 : le placement est publié."
    assert f"Table {seat.table_number}, {wind}" in seat_mail.body.splitlines()
    assert "Pour ne plus les recevoir" in seat_mail.body
    assert penalty_mail.body.splitlines()[0] == (
        "Ronde 1 : une pénalité de 5,0 points vous a été infligée."
    )


def test_a_player_who_registered_in_french_is_written_to_in_french(
    event, django_capture_on_commit_callbacks
):
    # On an English site, the player who filled the registration form in French.
    french = event["players"][1]
    RegistrationRequest.objects.create(
        tournament=event["tournament"],
        first_name=french.player.first_name,
        email=french.player.email,
        language="fr",
        status=RegistrationRequest.Status.REGISTERED,
        registration=french,
    )
    with django_capture_on_commit_callbacks(execute=True):
        seat_again(event["rounds"][0], 7)
    (to_french,) = mails_to("player1@example.org")
    (to_english,) = mails_to("player0@example.org")
    assert to_french.body.splitlines()[0] == "Ronde 1 : le placement est publié."
    assert to_english.body.splitlines()[0] == "The seating of Round 1 is published."


def test_the_start_of_a_round_is_announced_once_however_often_the_job_runs(event):
    now = timezone.now()
    soon, later, playing = event["rounds"][:3]
    for round_, minutes in ((soon, 8), (later, 30), (playing, 5)):
        round_.scheduled_start = now + datetime.timedelta(minutes=minutes)
        round_.save()
    seated(soon, event["players"])
    seated(later, event["players"])
    seated(playing, event["players"], status=Round.Status.PLAYING)

    assert round_start_alerts_send(now) == [soon]
    send_round_start_alerts.call()  # the worker's job, run again a moment later
    assert round_start_alerts_send(now) == []

    assert len(mail.outbox) == 7
    assert AlertSent.objects.get().round == soon
    (message,) = mails_to("player3@example.org")
    assert message.subject.startswith(f"{event['tournament'].name}: Round 1 starts at ")
    assert message.body.splitlines()[0] == "Round 1 starts in 8 minutes."


def test_a_start_moved_later_is_announced_again_once(event):
    now = timezone.now()
    round_ = seated(event["rounds"][0], event["players"])
    round_.scheduled_start = now + datetime.timedelta(minutes=8)
    round_.save()
    assert round_start_alerts_send(now) == [round_]
    # The head referee puts the start back by half an hour.
    round_.scheduled_start += datetime.timedelta(minutes=30)
    round_.save()
    assert round_start_alerts_send(now) == []  # not within ten minutes yet
    later = now + datetime.timedelta(minutes=30)
    assert round_start_alerts_send(later) == [round_]
    assert round_start_alerts_send(later) == []
    first, second = mails_to("player3@example.org")
    assert (
        first.body.splitlines()[0]
        == second.body.splitlines()[0]
        == ("Round 1 starts in 8 minutes.")
    )
    assert first.subject != second.subject  # each with its own hour


def test_the_unsubscribe_link_asks_then_stops_every_alert_without_login(
    client, event, django_capture_on_commit_callbacks
):
    player = event["players"][0]
    with django_capture_on_commit_callbacks(execute=True):
        seat_again(event["rounds"][0], 7)
    path = unsubscribe_path(mails_to("player0@example.org")[0])

    page = client.get(path)
    assert page.status_code == 200
    assert b"Stop the e-mails" in page.content
    player.refresh_from_db()
    assert player.alerts_stopped_at is None  # a link scanner's GET stops nothing

    assert b"data-alerts-stopped" in client.post(path).content
    player.refresh_from_db()
    stopped = player.alerts_stopped_at
    assert stopped is not None
    assert client.post(path).status_code == 200  # again: the first stop stands
    player.refresh_from_db()
    assert player.alerts_stopped_at == stopped
    assert AuditEntry.objects.filter(action="registration.alerts_stop").count() == 1

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        penalty_give(
            registration=player, points=Decimal("5"), reason="Late", acting_user=event["head"]
        )
        seat_again(event["rounds"][1], 7)
    assert "player0@example.org" not in recipients()
    assert len(recipients()) == 6


def test_an_altered_or_foreign_unsubscribe_key_is_not_found(
    client, event, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        seat_again(event["rounds"][0], 7)
    path = unsubscribe_path(mails_to("player0@example.org")[0])
    slug = event["tournament"].slug
    assert client.post(path[:-2] + "x/").status_code == 404
    assert client.post(path.replace(f"/t/{slug}/", "/t/another-open/")).status_code == 404
    assert not Registration.objects.filter(alerts_stopped_at__isnull=False).exists()


def test_the_organisers_switch_the_alerts_back_on_for_a_player_who_asks(
    admin_client, event, django_capture_on_commit_callbacks
):
    stopped, never = event["players"][:2]
    registration_alerts_stop(registration=stopped, acting_user=None)
    response = admin_client.post(
        reverse("admin:tournament_registration_changelist"),
        {"action": "alerts_restart", "_selected_action": [stopped.pk, never.pk]},
        follow=True,
    )
    assert "E-mail alerts switched back on for 1 player." in response.content.decode()
    stopped.refresh_from_db()
    assert stopped.alerts_stopped_at is None
    assert AuditEntry.objects.filter(action="registration.alerts_restart").count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        penalty_give(
            registration=stopped, points=Decimal("5"), reason="Late", acting_user=event["head"]
        )
    assert recipients() == ["player0@example.org"]


def test_no_task_is_queued_for_players_who_could_get_no_mail(
    tournament, django_capture_on_commit_callbacks
):
    players = [make_registration(tournament) for _ in range(4)]  # no address given
    (round_,) = make_rounds(tournament, 1)
    with django_capture_on_commit_callbacks() as callbacks:
        seat_again(round_, 7)
    queued = [getattr(callback, "func", None) for callback in callbacks]
    assert send_seat_alerts.enqueue not in queued
    assert round_.seats.count() == len(players)
