"""An organiser on an empty site, only their superuser login, creates a tournament and follows
its set-up checklist's links to a seated, published first round with two invited officials;
one official then logs in through their login card's link."""

import re

import pytest
from django.contrib.auth import get_user_model

from tournament.models import Round, Tournament, TournamentStaff

pytestmark = pytest.mark.browser

PLAYERS = "\r\n".join(
    ["First name,Last name,Country"]
    + [
        f"{first},{last},FR"
        for first, last in [
            ("Zoé", "Martin"),
            ("Léa", "Dubois"),
            ("Hugo", "Bernard"),
            ("Inès", "Petit"),
            ("Louis", "Robert"),
            ("Chloé", "Richard"),
            ("Jules", "Durand"),
            ("Emma", "Moreau"),
        ]
    ]
)


def step(page, key: str):
    return page.locator(f'.setup-checklist [data-step="{key}"]')


def state(page, key: str) -> str:
    return step(page, key).locator(".step-state").inner_text()


def next_step(page) -> str:
    return page.locator(".setup-checklist .step-next").get_attribute("data-step")


def invite(page, name: str, role: str) -> str:
    """From the officials page: invite, and read the login card's link."""
    page.locator("#id_name").fill(name)
    page.locator("#id_role").select_option(label=role)
    page.get_by_role("button", name="Invite").click()
    page.wait_for_url(re.compile(r"/officials/\d+/card/$"))
    assert page.locator(".qr svg").count() == 1
    return page.locator(".link a").get_attribute("href")


@pytest.mark.django_db(transaction=True)
def test_organiser_sets_up_an_event_from_the_checklist_and_an_official_logs_in(
    live_server, new_page, settings
):
    settings.SEATING_RUN_IN_BACKGROUND = False
    settings.SEATING_TIME_LIMIT = 2
    get_user_model().objects.create_superuser("organiser", "o@example.org", "pw-organiser-1")
    page = new_page(1280, 900)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server.url}/admin/login/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill("pw-organiser-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/admin/$"))

    # The tournament, from the admin's index.
    page.locator("tr.model-tournament a.addlink").click()
    page.locator("#id_name").fill("Lyon Riichi Open")
    page.locator("#id_start_date").fill("06/06/2026")
    page.locator("#id_end_date").fill("07/06/2026")
    page.locator("#id_rounds_count").fill("2")
    page.get_by_role("button", name="Save and continue editing").click()
    page.wait_for_url(re.compile(r"/tournament/\d+/change/$"))
    checklist_url = page.url
    tournament = Tournament.objects.get()
    assert next_step(page) == "players"
    assert state(page, "players") == "To do"

    # Players: the import page the checklist links to.
    step(page, "players").get_by_role("link", name="Import players").click()
    page.get_by_label("Player list").set_input_files(
        {"name": "players.csv", "mimeType": "text/csv", "buffer": PLAYERS.encode()}
    )
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("button", name="Import", exact=True).click()
    page.wait_for_url(checklist_url)
    assert state(page, "players") == "Done"
    assert "8 players, 2 tables." in step(page, "players").inner_text()
    assert next_step(page) == "staff"

    # Staff: two officials invited, each with a login card.
    step(page, "staff").get_by_role("link", name="Invite an official").click()
    anna_link = invite(page, "Anna Berg", "Referee / scorer")
    page.get_by_role("link", name="Back to the officials").click()
    invite(page, "Bruno Petit", "Head referee")
    page.get_by_role("link", name="Back to the officials").click()
    page.get_by_role("link", name="Back to the tournament and its checklist").click()
    assert state(page, "staff") == "Done"
    assert next_step(page) == "seating"

    # Rounds and seating: generate round 1 and 2, apply.
    step(page, "seating").get_by_role("link", name="Seating").click()
    page.get_by_role("button", name="Generate a proposal").click()
    page.get_by_role("button", name="Apply this seating").click()
    assert "Seating applied to rounds 1, 2." in page.locator(".messagelist").inner_text()

    # Back to the checklist by the seating page's breadcrumb, the tournament's name.
    page.locator(".breadcrumbs").get_by_role("link", name=str(tournament)).click()
    page.wait_for_url(checklist_url)
    states = {
        key: state(page, key)
        for key in ("players", "staff", "seating", "printing", "clock", "publication")
    }
    assert set(states.values()) == {"Done"}, states
    assert page.locator(".setup-checklist .step-next").count() == 0
    first = Round.objects.get(tournament=tournament, number=1)
    assert first.status == Round.Status.SEATED
    assert first.seats.count() == 8
    assert {(s.user.username, s.role) for s in tournament.staff.select_related("user")} == {
        ("anna.berg", TournamentStaff.Role.REFEREE),
        ("bruno.petit", TournamentStaff.Role.HEAD_REFEREE),
    }

    # Published: the public page the checklist links to shows round 1's seating.
    step(page, "publication").get_by_role("link", name="Public page").click()
    assert page.locator("h1").inner_text() == "Lyon Riichi Open"

    # Anna logs in through her card's link, in her own browser, and chooses her password.
    phone = new_page(390, 844)
    phone.goto(anna_link)
    phone.get_by_role("button", name="Log in and choose my password").click()
    phone.wait_for_url(re.compile(r"/accounts/welcome/password/$"))
    phone.locator("#id_new_password1").fill("tile-wall-east-7")
    phone.locator("#id_new_password2").fill("tile-wall-east-7")
    phone.get_by_role("button", name="Save my password").click()
    phone.wait_for_url(f"{live_server.url}/")
    assert "Your password is set" in phone.content()
    assert "Lyon Riichi Open" in phone.content()
    # Used: the link no longer works.
    phone.goto(anna_link)
    assert "This link no longer works" in phone.locator("h1").inner_text()
