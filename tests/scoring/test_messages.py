"""Engine errors in the reader's language: plurals follow the count they speak of."""

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.messages import message_for
from scoring.rules import RulesError
from tests.scoring.conftest import Role, sheet_form_data, table_registrations


def _points_sum(sticks: int) -> RulesError:
    # What the engine raises when the four scores miss 4 × 30 000 − 1 000 per stick left
    # (docs/rules.md §7.4 item 4: 120 000 under WRC).
    return RulesError(
        "points_sum",
        "The four scores do not add up.",
        field="seats",
        total=120000,
        expected=120000 - 1000 * sticks,
        riichi_sticks_left=sticks,
    )


@pytest.mark.parametrize(
    ("language", "sticks", "expected"),
    [
        ("en", 0, "with 0 riichi sticks left on the table they must add up to 120,000."),
        ("en", 1, "with 1 riichi stick left on the table they must add up to 119,000."),
        ("en", 2, "with 2 riichi sticks left on the table they must add up to 118,000."),
        # French: singular for 0 and 1 (Plural-Forms: n > 1).
        ("fr", 0, "avec 0 bâton de riichi resté sur la table, ils doivent totaliser 120"),
        ("fr", 1, "avec 1 bâton de riichi resté sur la table, ils doivent totaliser 119"),
        ("fr", 2, "avec 2 bâtons de riichi restés sur la table, ils doivent totaliser 118"),
    ],
)
def test_the_riichi_sticks_left_are_counted_in_singular_or_plural(language, sticks, expected):
    with translation.override(language):
        assert expected in message_for(_points_sum(sticks))


def test_other_messages_keep_their_grouped_numbers_and_wind_names():
    error = RulesError("seat_wrong_table", "Wrong table.", field="seats[1].player", table=12)
    assert message_for(error) == "This player is seated at table 12 in this round."
    error = RulesError("points_not_multiple", "Not a multiple.", points=42350)
    assert message_for(error) == "42,350 is not a multiple of 100; every payment is."
    # Below zero with the minus sign the sheet's points use (U+2212), not a hyphen; points
    # must be multiples of 100 (docs/rules.md §7.4 item 2).
    error = RulesError("points_not_multiple", "Not a multiple.", points=-5350)
    assert message_for(error) == "−5,350 is not a multiple of 100; every payment is."
    error = RulesError("noten_riichi_is_tenpai", "Both.", seat="W")
    assert message_for(error).startswith("West is ticked both")


def test_the_sheet_page_says_one_riichi_stick(client, event):
    client.force_login(event["users"][Role.REFEREE])
    players = table_registrations(event["rounds"][0], 1)
    url = reverse("scoring:sheet", args=[event["tournament"].slug, 1, 1])
    data = sheet_form_data(players, sticks=1)  # the points still add up to 120,000
    response = client.post(url, {**data, "action": "check"})
    errors = " ".join(response.context["form"].errors["__all__"])
    assert "with 1 riichi stick left on the table" in errors
    assert "riichi sticks" not in errors


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "add up to 110,000, 10,000 short of 120,000: the chombo deduction."),
        ("fr", "totalisent 110 000, 10 000 de moins que 120 000 : la déduction du chombo."),
    ],
)
def test_points_written_after_the_chombo_deduction_say_so_in_both_languages(language, expected):
    # ORAN: 10 000 table points per chombo [ORAN-1 §3.1.4], written off the sheet's points.
    error = RulesError(
        "points_sum_chombo_deducted",
        "short by the deduction",
        field="seats",
        total=110000,
        expected=120000,
        deducted=10000,
    )
    with translation.override(language):
        assert expected in message_for(error).replace("\u202f", " ").replace("\xa0", " ")


@pytest.mark.parametrize(
    ("language", "ended", "expected"),
    [
        # WRC 2015 §5.9: the game ends when the South round is over
        ("en", "south4", "The game was over after hand 8: the South round was over."),
        # ORAN [ORAN-1 §3.1.7], Mahjong Soul [Évriichi §7, §19]: a score below zero ends it
        ("en", "bust", "The game was over after hand 8: a score went below zero."),
        # Mahjong Soul [Évriichi §19]: the South 4 dealer first with 30 000 or more stops it
        (
            "en",
            "south4_stop",
            "The game was over after hand 8: the South 4 dealer kept the deal in 1st place "
            "with enough points to stop.",
        ),
        ("fr", "bust", "La partie était finie après la main 8 : un score est passé sous zéro."),
    ],
)
def test_a_hand_after_the_end_says_which_hand_ended_the_game_and_why(language, ended, expected):
    error = RulesError("hand_after_end", "After the end.", field="hands[8]", index=8, ended=ended)
    with translation.override(language):
        assert message_for(error).startswith(expected)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "East has 100 points and cannot declare riichi: it takes at least 1,000."),
        # French groups thousands with a no-break space (1\u00a0000)
        ("fr", "Est a 100 points et ne peut pas déclarer riichi : il en faut au moins 1\u00a0000."),
    ],
)
def test_a_riichi_that_cannot_be_paid_names_the_seat_and_the_points(language, expected):
    # ORAN [ORAN-1 §3.1.2]: a player must be able to pay the 1 000 deposit (1 000 yes, 900 no).
    error = RulesError(
        "riichi_cannot_pay", "Cannot pay.", field="hands[4].riichi", seat="E", points=100, min=1000
    )
    with translation.override(language):
        assert message_for(error) == expected
