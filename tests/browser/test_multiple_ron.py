"""A referee enters a double ron on the hands page of an EMA tournament (Playwright on
Debian's chromium): the second winner's columns show for a ron, the third winner's once a
second is chosen, and the sheet's replay names both winners."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.models import ScoreSheet
from tests.browser.test_staff_pages import log_in
from tests.conftest import make_registrations, make_rounds, make_seats, make_staff, make_tournament
from tournament.models import Round, Tournament, TournamentStaff

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_a_referee_enters_a_double_ron_and_the_replay_shows_both_winners(live_server, new_page):
    tournament = make_tournament(
        ruleset="ema2016", confirmation_policy=Tournament.ConfirmationPolicy.SINGLE
    )
    (round_,) = make_rounds(tournament, 1)
    make_seats(round_, make_registrations(tournament, 4))
    round_.status = Round.Status.PLAYING
    round_.save()
    referee = get_user_model().objects.create_user("ron-referee", password="pw-ron-referee-1")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    page = new_page(390, 844, has_touch=True, is_mobile=True)
    log_in(page, live_server, "ron-referee", "pw-ron-referee-1")
    page.goto(live_server.url + reverse("scoring:hands", args=[tournament.slug, 1, 1]))

    # Hand 1: an exhaustive draw, East (the dealer) alone tenpai: one counter on the table.
    page.select_option("#id_hands-0-result", "draw")
    assert not page.is_visible("#id_hands-0-winner_2")  # only a ron has several winners
    page.locator("#id_hands-0-tenpai label", has_text="East").click()
    # Hand 2: West discards, North (in riichi) and South both call ron.
    page.select_option("#id_hands-1-result", "ron")
    assert page.is_visible("#id_hands-1-winner_2")
    assert not page.is_visible("#id_hands-1-winner_3")  # until a second winner is chosen
    page.select_option("#id_hands-1-loser", "W")
    page.select_option("#id_hands-1-winner", "N")
    page.fill("#id_hands-1-han", "2")
    page.fill("#id_hands-1-fu", "30")
    page.locator("#id_hands-1-riichi label", has_text="North").click()
    page.select_option("#id_hands-1-winner_2", "S")
    page.fill("#id_hands-1-yakuman_2", "1")
    assert page.is_visible("#id_hands-1-winner_3")  # room for a third (EMA 2016 §3.4.9)
    page.locator("label.check", has_text="The time was up").click()
    page.click("button[value=check]")
    page.click("button[value=save]")
    assert "Saved and confirmed" in page.inner_text(".messages")

    replay = page.inner_text(".current .hand-lines")
    # West pays each winning hand with 300 a counter (EMA 2016 §3.4.9, §3.4.10): 2 han 30 fu
    # 2,000 (docs/rules.md §6.2) and a yakuman 32,000 (WRC 2015 §6.1).
    assert "Ron on West's discard: North 2 han 30 fu, paid 2,300; South yakuman, paid 32,300" in (
        replay
    )
    assert "−34,600" in replay
    hand = ScoreSheet.objects.get().current.data["hands"][1]
    assert [win["winner"] for win in hand["wins"]] == ["N", "S"]
