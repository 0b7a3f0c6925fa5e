"""Stages in a browser, the acceptance case of issue 28: a qualifying stage of 6 rounds, a
cut to 16 with a tie at 16th, and a 2-round final with halved carry-over. The organiser sets
the final in the back office, sees the tie at the cut line, settles it by choosing a
player, seats both final rounds by the standings; the public stages page, in English and
French, gives the final standings the hand computation below gives."""

import re
from fractions import Fraction as F

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from tests.conftest import confirm_sheet, make_player, make_registration, make_tournament
from tournament.models import Round, Seat, Tournament

pytestmark = pytest.mark.browser

WINDS = ("East", "South", "West", "North")
#: The qualifying tables (the same every round, rounds 1 to 6), points E, S, W, N, and what
#: each seat scores a round under WRC 2015 (return 30,000, uma +15/+5/−5/−15, §5.9.2).
QUALIFYING = {
    1: ((42300, 31000, 27700, 19000), ("27.3", "6", "-7.3", "-26")),
    2: ((40000, 32000, 28000, 20000), ("25", "7", "-7", "-25")),
    3: ((38000, 33000, 29000, 20000), ("23", "8", "-6", "-25")),
    4: ((36000, 34000, 30000, 20000), ("21", "9", "-5", "-25")),
    5: ((45000, 30000, 25000, 20000), ("30", "5", "-10", "-25")),
}
#: The four North players of tables 2 to 5 end the qualifying on −150 with the same hanchan:
#: they share 16th, no tie-break separates them, and the organiser takes North Table3.
TIED = ["North Table2", "North Table3", "North Table4", "North Table5"]
CHOSEN = "North Table3"
#: Both final rounds: every table E 42,300, S 31,000, W 27,700, N 19,000 (+27.3, +6.0,
#: −7.3, −26.0).
FINAL_SCORES = (F("27.3"), F(6), F("-7.3"), F(-26))


def _name(table: int, wind: int) -> str:
    return f"{WINDS[wind]} Table{table}"


def _qualifying_totals() -> dict[str, F]:
    return {
        _name(table, wind): 6 * F(score)
        for table, (_points, scores) in QUALIFYING.items()
        for wind, score in enumerate(scores)
    }


def _seat_by(order: list[str]) -> dict[str, F]:
    """What each player scores in a final round seated 1–4, 5–8… in ``order``."""
    return {name: FINAL_SCORES[index % 4] for index, name in enumerate(order)}


def hand_computed_final() -> list[tuple[str, F]]:
    """The final standings by hand: half the qualifying total, plus round 7 seated by it, plus
    round 8 seated by the standings after round 7."""
    qualifying = _qualifying_totals()
    through = sorted(
        (name for name in qualifying if not name.startswith("North")), key=qualifying.get
    )[::-1] + [CHOSEN]
    totals = {name: qualifying[name] / 2 for name in through}
    for _round in (7, 8):
        order = sorted(through, key=lambda name: -totals[name])
        for name, score in _seat_by(order).items():
            totals[name] += score
    return sorted(totals.items(), key=lambda item: -item[1])


def test_the_hand_computation():
    # e.g. East Table5: 6 × 30.0 = 180 halved 90, +27.3 (table 1 of round 7), +27.3 again
    final = hand_computed_final()
    assert final[0] == ("East Table5", F("144.6"))
    assert final[-1] == ("North Table3", F("-127"))
    assert len({total for _name, total in final}) == 16  # no shared place


def _play_qualifying(organiser) -> Tournament:
    tournament = make_tournament(
        is_public=True,
        rounds_count=8,
        confirmation_policy=Tournament.ConfirmationPolicy.SINGLE,
    )
    players = {
        (table, wind): make_registration(
            tournament, player=make_player(first_name=WINDS[wind], last_name=f"Table{table}")
        )
        for table in QUALIFYING
        for wind in range(4)
    }
    for number in range(1, 9):
        round_ = Round.objects.create(tournament=tournament, number=number)
        if number > 6:
            continue
        Seat.objects.bulk_create(
            Seat(round=round_, table_number=table, wind="ESWN"[wind], registration=registration)
            for (table, wind), registration in players.items()
        )
        for table, (points, _scores) in QUALIFYING.items():
            confirm_sheet(round_, table, organiser, points)
    return tournament


def _play_round(tournament: Tournament, number: int, organiser) -> None:
    round_ = tournament.rounds.get(number=number)
    for table in (1, 2, 3, 4):
        confirm_sheet(round_, table, organiser)


def _final_standings(page) -> list[tuple[str, str]]:
    rows = page.locator("section.stage").nth(1).locator("tbody tr")
    return [
        (row.locator("td").nth(1).inner_text(), row.locator("td.total").inner_text())
        for row in rows.all()
    ]


def _shown(total: F, decimal: str) -> str:
    """A total as the page writes it: signed, one decimal (every total here is in tenths)."""
    tenths = abs(total) * 10
    assert tenths.denominator == 1
    sign = "+" if total > 0 else "−" if total < 0 else ""
    return f"{sign}{tenths.numerator // 10}{decimal}{tenths.numerator % 10}"


@pytest.mark.django_db(transaction=True)
def test_qualifying_cut_with_a_tie_and_a_halved_final_end_to_end(live_server, new_page, screenshot):
    organiser = get_user_model().objects.create_superuser("boss", "b@example.org", "pw-boss-1")
    tournament = _play_qualifying(organiser)
    staff = Client()
    staff.force_login(organiser)
    page = new_page(1280, 900, locale="en-GB")
    cookie = settings.SESSION_COOKIE_NAME
    page.context.add_cookies(
        [{"name": cookie, "value": staff.cookies[cookie].value, "url": live_server.url}]
    )

    # The organiser adds the final: from round 7, the best 16, carry-over halved.
    page.goto(f"{live_server.url}/admin/scoring/stage/add/")
    page.locator("#id_name").fill("Final")
    page.locator("#id_first_round").fill("7")
    page.locator("#id_cut_size").fill("16")
    page.locator("#id_carry_over").select_option(label="Halve the total")
    page.get_by_role("button", name="Save and continue editing").click()
    cut = page.locator(".field-cut").inner_text()
    assert "The best 16 players go through to Final." in cut
    assert (
        f"{', '.join(TIED)} share a place across the cut line and no tie-break separates "
        "them: the organiser chooses 1 of them."
    ) in cut

    # The tie at 16th settled: North Table3 goes through.
    page.locator("#id_players_from").select_option(label=f"{CHOSEN} ({tournament.name})")
    page.locator("#id_players_add").click()
    page.get_by_role("button", name="Save and continue editing").click()
    assert f"the organiser chose {CHOSEN}." in page.locator(".field-cut").inner_text()
    screenshot(page, "stage-admin", full_page=True)

    def seat_next_round(number: int) -> None:
        page.goto(f"{live_server.url}/admin/scoring/stage/")
        page.locator("#result_list tbody tr", has_text="Final").locator(
            "input[name=_selected_action]"
        ).check()
        page.locator("select[name=action]").select_option(
            label="Seat the next round of the stage by its standings"
        )
        page.get_by_role("button", name="Go").click()
        page.wait_for_url(re.compile(r"/admin/scoring/stage/$"))
        assert (
            f"Final: round {number} seated by the standings."
            in page.locator(".messagelist").inner_text()
        )

    seat_next_round(7)
    _play_round(tournament, 7, organiser)
    seat_next_round(8)
    _play_round(tournament, 8, organiser)

    expected = hand_computed_final()
    for locale, decimal, qualifying, halve in (
        ("en-GB", ".", "Qualifying", "Halve the total"),
        ("fr-FR", ",", "Qualifications", "Diviser le total par deux"),
    ):
        reader = new_page(1280, 900, locale=locale)
        reader.goto(f"{live_server.url}/t/{tournament.slug}/stages/")
        assert reader.locator("section.stage h2").all_inner_texts() == [qualifying, "Final"]
        assert halve in reader.locator("section.stage").nth(1).inner_text()
        assert _final_standings(reader) == [
            (name, _shown(total, decimal)) for name, total in expected
        ]
        # The qualifying table marks the 16 players through
        assert reader.locator("section.stage").nth(0).locator("tr.through").count() == 16
        screenshot(reader, f"stages-{locale}", full_page=True)
