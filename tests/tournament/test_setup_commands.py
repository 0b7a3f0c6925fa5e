"""The quick start's commands: demo loading is idempotent, the organiser login works, and the
production settings pass Django's deployment checks."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from scoring.models import ScoreSheet
from tournament.demo import DEMO_SLUG
from tournament.models import Player, Registration, Round, Seat, Tournament

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_demo_is_loaded_once_and_kept_on_the_second_run():
    call_command("load_demo")
    call_command("load_demo")
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    assert Tournament.objects.filter(slug=DEMO_SLUG).count() == 1
    assert tournament.registrations.filter(is_substitute=False).count() == 36
    assert tournament.registrations.filter(is_substitute=True).exists()
    assert tournament.teams.count() == 9
    assert Round.objects.filter(tournament=tournament).count() == 8
    assert Player.objects.filter(registrations__is_substitute=False).count() == 36
    # every round seated: 9 tables of four, 8 rounds
    assert Seat.objects.filter(round__tournament=tournament).count() == 36 * 8
    assert ScoreSheet.objects.filter(
        round__tournament=tournament, status=ScoreSheet.Status.CONFIRMED
    ).exists()
    assert set(Registration.objects.values_list("player__country", flat=True)) >= {"JP", "KR"}


@pytest.mark.django_db
def test_the_printed_organiser_login_opens_the_admin(client, capsys):
    call_command("load_demo")
    call_command("ensure_organiser")
    printed = capsys.readouterr().out
    username, password = printed.split("Organiser login: ")[1].split("  ")[0].split(" / ")
    assert client.login(username=username, password=password)
    assert client.get("/admin/tournament/tournament/").status_code == 200
    call_command("ensure_organiser")  # a second run keeps the same login
    assert client.login(username=username, password=password)


def _without_test_only_variables() -> dict[str, str]:
    # The browser tests allow Django's ORM inside Playwright's event loop; production never does.
    return {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}


def test_production_settings_pass_the_deployment_checks():
    env = {
        **_without_test_only_variables(),
        "DEBUG": "0",
        "SECRET_KEY": "a-long-random-production-secret-" + "x" * 40,
        "ALLOWED_HOSTS": "riichi.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {
        **_without_test_only_variables(),
        "DEBUG": "0",
        "SECRET_KEY": "",
        "ALLOWED_HOSTS": "x.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
