"""The quick start's commands: demo loading is idempotent, the organiser login works, and the
production settings pass Django's deployment checks."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

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
def test_the_printed_organiser_login_opens_the_admin(client, capsys, settings, monkeypatch):
    settings.DEBUG = True  # the quick start's settings (the test runner turns DEBUG off)
    monkeypatch.delenv("ORGANISER_PASSWORD", raising=False)
    call_command("load_demo")
    call_command("ensure_organiser")
    printed = capsys.readouterr().out
    username, password = printed.split("Organiser login: ")[1].split("  ")[0].split(" / ")
    assert client.login(username=username, password=password)
    assert client.get("/admin/tournament/tournament/").status_code == 200
    call_command("ensure_organiser")  # a second run keeps the same login
    assert client.login(username=username, password=password)


@pytest.mark.django_db
@pytest.mark.parametrize("unset", [None, ""])
def test_production_never_creates_the_organiser_with_the_development_password(
    settings, monkeypatch, capsys, unset
):
    # With DEBUG off and no ORGANISER_PASSWORD, the command made a superuser whose password,
    # "riichi-organiser", the README prints for everyone to read.
    settings.DEBUG = False
    monkeypatch.delenv("ORGANISER_USERNAME", raising=False)
    if unset is None:
        monkeypatch.delenv("ORGANISER_PASSWORD", raising=False)
    else:
        monkeypatch.setenv("ORGANISER_PASSWORD", unset)
    with pytest.raises(CommandError, match="ORGANISER_PASSWORD"):
        call_command("ensure_organiser")
    assert not get_user_model().objects.filter(username="organiser").exists()
    monkeypatch.setenv("ORGANISER_PASSWORD", "chosen-for-the-event")
    call_command("ensure_organiser")
    assert get_user_model().objects.get(username="organiser").check_password("chosen-for-the-event")
    # The deploy's log gets the login, not the password chosen for it.
    printed = capsys.readouterr().out
    assert "Organiser login: organiser / (ORGANISER_PASSWORD)" in printed
    assert "chosen-for-the-event" not in printed
    monkeypatch.delenv("ORGANISER_PASSWORD")
    call_command("ensure_organiser")  # the login exists: nothing to create, nothing refused


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("password", "refusal"),
    [
        ("1", "This password is too short. It must contain at least 8 characters. This "),
        ("organiser1", "The password is too similar to the username."),
        ("password123", "This password is too common."),
    ],
)
def test_a_weak_organiser_password_is_refused_with_the_validators_messages(
    settings, monkeypatch, password, refusal
):
    # ensure_organiser made a superuser with the password "1": the validators the admin's
    # forms apply (AUTH_PASSWORD_VALIDATORS) were not asked.
    settings.DEBUG = False
    monkeypatch.delenv("ORGANISER_USERNAME", raising=False)
    monkeypatch.setenv("ORGANISER_PASSWORD", password)
    with pytest.raises(CommandError, match=f"ORGANISER_PASSWORD is refused: {refusal}"):
        call_command("ensure_organiser")
    assert not get_user_model().objects.filter(username="organiser").exists()


@pytest.mark.django_db
def test_an_organiser_login_an_admin_disabled_stays_disabled(client, monkeypatch):
    monkeypatch.setenv("ORGANISER_PASSWORD", "first-password")
    call_command("ensure_organiser")
    assert client.login(username="organiser", password="first-password")  # it has logged in
    organiser = get_user_model().objects.get(username="organiser")
    organiser.set_unusable_password()
    organiser.save()
    monkeypatch.setenv("ORGANISER_PASSWORD", "second-password")
    call_command("ensure_organiser")
    assert not get_user_model().objects.get(username="organiser").has_usable_password()


def _referee_logins(printed: str) -> list[tuple[str, str, str]]:
    """(username, password, address) of each "… referee login: …" line."""
    return re.findall(r"(?i)referee login: (\S+) / (\S+)  →  (\S+)", printed)


@pytest.mark.django_db
def test_the_printed_referee_logins_open_the_demos_score_sheets(client, capsys):
    # A newcomer trying the referee pages needs a referee's login, not only the organiser's.
    call_command("load_demo")
    logins = _referee_logins(capsys.readouterr().out)
    assert [username for username, _password, _url in logins] == [
        "demo-scorer",
        "demo-head-referee",
    ]
    penalties = reverse("scoring:penalties", args=[DEMO_SLUG])  # head referees and above
    for username, password, url in logins:
        assert client.login(username=username, password=password)
        assert client.get(url).status_code == 200
        assert client.get(penalties).status_code == (200 if "head" in username else 403)
    call_command("load_demo")  # a second run keeps the same logins
    assert _referee_logins(capsys.readouterr().out) == logins
    assert client.login(username=logins[0][0], password=logins[0][1])


@pytest.mark.django_db
def test_a_demo_referees_own_password_is_kept_and_not_printed(capsys):
    call_command("load_demo")
    scorer = get_user_model().objects.get(username="demo-scorer")
    scorer.set_password("chosen-by-the-organiser")
    scorer.save()
    capsys.readouterr()
    call_command("load_demo")
    assert "demo-scorer / (the one you set)" in capsys.readouterr().out
    scorer.refresh_from_db()
    assert scorer.check_password("chosen-by-the-organiser")


@pytest.mark.django_db
def test_a_demo_loaded_before_the_referees_had_passwords_gets_them(client, capsys):
    call_command("load_demo")
    scorer = get_user_model().objects.get(username="demo-scorer")
    scorer.set_unusable_password()  # as the demo left its officials until now
    scorer.save()
    capsys.readouterr()
    call_command("load_demo")
    username, password, _url = _referee_logins(capsys.readouterr().out)[0]
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


@pytest.mark.django_db
def test_a_demo_referee_an_admin_disabled_stays_disabled(client, capsys):
    # Loading the demo again gave a password back to an official whose password login an
    # admin had disabled, and printed it.
    call_command("load_demo")
    username, password, _url = _referee_logins(capsys.readouterr().out)[0]
    assert client.login(username=username, password=password)  # the official has logged in
    scorer = get_user_model().objects.get(username=username)
    scorer.set_unusable_password()
    scorer.save()
    call_command("load_demo")
    assert username not in [
        name for name, _password, _url in _referee_logins(capsys.readouterr().out)
    ]
    assert not client.login(username=username, password=password)
