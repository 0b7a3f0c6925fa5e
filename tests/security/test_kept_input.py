"""A sheet sent after the session ended is kept over the login by the browser, not the
server: anyone may post to a sheet's address, and each such post wrote a session of up to
64 KB that lived two weeks (200 posts: 13 MB in 3.6 s)."""

import re
from pathlib import Path

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import make_registrations, make_rounds, make_staff, make_tournament
from tests.scoring.conftest import seat_round, sheet_form_data
from tournament.kept_input import (
    KEPT_INPUT_COOKIE,
    KEPT_INPUT_MAX_CHARACTERS,
    KEPT_INPUT_SECONDS,
    KEPT_INPUT_USER_FIELD,
)
from tournament.models import TournamentStaff

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(db, django_user_model):
    """Round 1 of a tournament seated at one table, its referee and the sheet's address."""
    tournament = make_tournament()
    players = make_registrations(tournament, 4)
    seat_round(make_rounds(tournament, 1)[0], players)
    referee = django_user_model.objects.create_user("referee-1", password="pw-referee-1")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    url = reverse("scoring:sheet", args=[tournament.slug, 1, 1])
    return {"url": url, "players": players, "referee": referee}


def test_posts_of_visitors_without_a_session_write_nothing_on_the_server(client, table):
    data = {**sheet_form_data(table["players"]), "action": "check", KEPT_INPUT_USER_FIELD: "1"}
    data["note"] = "x" * (KEPT_INPUT_MAX_CHARACTERS - 1000)
    for _post in range(20):
        client.cookies.clear()  # a new visitor each time, as a script posting in a loop
        sent = client.post(table["url"], data)
        assert sent.status_code == 302
        assert sent.url.startswith(reverse("login"))
    assert not Session.objects.exists()


def test_the_browser_keeps_the_sheet_for_an_hour_and_script_cannot_read_it(client, table):
    data = {**sheet_form_data(table["players"]), "action": "check", KEPT_INPUT_USER_FIELD: "1"}
    cookie = client.post(table["url"], data).cookies[KEPT_INPUT_COOKIE]
    assert cookie["max-age"] == KEPT_INPUT_SECONDS
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    assert len(KEPT_INPUT_COOKIE) + len(cookie.value) <= 4000


def test_a_sheet_too_big_for_a_cookie_is_not_kept(client, table):
    # Within the size of a sheet, but text that does not compress: more than a cookie holds.
    data = {**sheet_form_data(table["players"]), "action": "check", KEPT_INPUT_USER_FIELD: "1"}
    data["note"] = "".join(chr(0x4E00 + (index * 7919) % 20000) for index in range(2000))
    sent = client.post(table["url"], data)
    assert sent.status_code == 302
    assert KEPT_INPUT_COOKIE not in sent.cookies


def test_a_sheet_sent_after_the_session_expired_is_back_after_the_login(client, table):
    # The session expired on the server (or was purged) while the referee typed: the browser
    # still sends its cookie, which names no session any more.
    referee = table["referee"]
    client.force_login(referee)
    page = client.get(table["url"]).content.decode()
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    Session.objects.all().delete()
    data = {**hidden, **sheet_form_data(table["players"]), "note": "Réclamation à la table"}
    sent = client.post(table["url"], {**data, "action": "check"})
    assert sent.url.startswith(reverse("login"))
    assert not Session.objects.exists()
    back = client.post(
        reverse("login"),
        {"username": referee.username, "password": "pw-referee-1", "next": table["url"]},
        follow=True,
    )
    assert back.context["form"]["note"].value() == "Réclamation à la table"
    assert "nothing was saved" in back.content.decode()
    assert not client.cookies[KEPT_INPUT_COOKIE].value  # taken over by the login


def test_a_forged_kept_sheet_is_ignored(client, table):
    referee = table["referee"]
    client.cookies[KEPT_INPUT_COOKIE] = "forged:value"
    back = client.post(
        reverse("login"),
        {"username": referee.username, "password": "pw-referee-1", "next": table["url"]},
        follow=True,
    )
    assert back.status_code == 200
    assert "nothing was saved" not in back.content.decode()


@pytest.mark.django_db
def test_expired_sessions_are_purged_by_the_command_of_the_production_checklist():
    checklist = (ROOT / "docs" / "production.md").read_text().split("## Checklist")[1]
    assert "manage.py clearsessions" in checklist
    expired, live = SessionStore(), SessionStore()
    expired.set_expiry(-60)
    for session in (expired, live):
        session["kept"] = "something"
        session.save()
    call_command("clearsessions")
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]
