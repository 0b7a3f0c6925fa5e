"""Several winners on one discard on the referee's hand form: taken where the rule set lets
several players win (the EMA rule sets), refused under head bump in the rule's name, stored
in the engine's `wins` shape, shown winner by winner on the sheet page and on the printed
hand-by-hand sheet."""

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.exports.score_sheets import ScoreSheetsPdf
from scoring.messages import form_field_for
from scoring.models import ScoreSheet, SheetVersion
from scoring.rules import RulesError
from tests.exports.conftest import pdf_squashed
from tests.scoring.conftest import check_and_save, sheet_form_data


def _rules(event, ruleset: str) -> None:
    event["tournament"].ruleset = ruleset
    event["tournament"].save()


def _url(event, name: str = "hands") -> str:
    return reverse(f"scoring:{name}", args=[event["tournament"].slug, 1, 1])


def _double_ron(players, **changes) -> dict:
    """Hand 1: an exhaustive draw, East (the dealer) alone tenpai: East keeps the deal and a
    counter goes on the table. Hand 2: North, in riichi, and South both win on West's
    discard, North with 2 han 30 fu and South with a yakuman; the time is then up."""
    data = {
        **sheet_form_data(players),
        "hands-TOTAL_FORMS": "2",
        "hands-INITIAL_FORMS": "0",
        "hands-0-result": "draw",
        "hands-0-tenpai": ["E"],
        "hands-1-result": "ron",
        "hands-1-loser": "W",
        "hands-1-winner": "N",
        "hands-1-han": "2",
        "hands-1-fu": "30",
        "hands-1-riichi": ["N"],
        "hands-1-winner_2": "S",
        "hands-1-yakuman_2": "1",
        "time_up": "on",
    }
    data.update(changes)
    return data


@pytest.mark.parametrize("ruleset", ["ema2016", "ema2025"])
def test_a_double_ron_is_saved_with_each_winner_paid_by_the_discarder(
    referee, event, players, ruleset
):
    _rules(event, ruleset)
    response = check_and_save(referee, _url(event), _double_ron(players))
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get()
    # The hand as the engine's JSON has it (docs/cli.md, "Several winners on one discard")
    hand = sheet.current.data["hands"][1]
    assert hand["wins"] == [
        {"winner": "N", "han": 2, "fu": 30, "yakuman": 0, "pao": None},
        {"winner": "S", "han": None, "fu": None, "yakuman": 1, "pao": None},
    ]
    assert (hand["winner"], hand["han"], hand["fu"]) == (None, None, None)
    # Hand 1: 3,000 noten payments, all to East (EMA 2016 §3.4.2): 33,000 / 29,000 × 3.
    # Hand 2, one counter on the table: West pays each winning hand in full (EMA 2016
    # §3.4.9) with 300 a counter for each (EMA 2016 §3.4.10): North's 2 han 30 fu 2,000
    # + 300 (docs/rules.md §6.2), South's yakuman 32,000 + 300 (WRC 2015 §6.1), 34,600 in
    # all; North takes back the riichi stick of this hand (docs/rules.md, A17).
    points = [seat["points"] for seat in sheet.current.data["seats"]]
    assert points == [33000, 29000 + 32300, 29000 - 34600, 29000 + 2300]


def test_the_sheet_page_replays_the_hand_naming_every_winner(referee, event, players):
    _rules(event, "ema2016")
    check_and_save(referee, _url(event), _double_ron(players))
    view = referee.get(_url(event, "sheet")).context["current_view"]
    first, second = view.hand_lines
    assert first.result == "Exhaustive draw"
    assert (second.round, second.honba) == ("East 1", 1)
    assert second.result == (
        "Ron on West's discard: North 2 han 30 fu, paid 2,300; South yakuman, paid 32,300"
    )
    # Each seat's change, North's riichi stick paid and taken back (docs/rules.md, A17)
    assert second.deltas == ("", "+32,300", "−34,600", "+2,300")


def test_head_bump_refuses_a_second_winner_naming_the_rule_and_keeping_the_hand(
    referee, event, players
):
    _rules(event, "wrc2015")
    response = referee.post(_url(event), {**_double_ron(players), "action": "check"})
    assert response.status_code == 200
    assert not response.context.get("checked")
    hand = response.context["formset"].forms[1]
    # WRC 2015 §5.7.6: only the claimant first in turn order after the discarder wins
    (error,) = hand.errors["winner_2"]
    assert "only the player first in turn order after the discarder wins" in error
    assert "(head bump, World Riichi Championship rules 2015)" in error
    # Nothing typed is lost
    assert (hand["winner_2"].value(), hand["yakuman_2"].value()) == ("S", "1")
    assert (hand["winner"].value(), hand["han"].value(), hand["fu"].value()) == ("N", "2", "30")
    assert not SheetVersion.objects.exists()


def test_head_bump_refusal_is_said_in_french(referee, event, players):
    _rules(event, "wrc2015")
    with translation.override("fr"):
        response = referee.post(
            _url(event),
            {**_double_ron(players), "action": "check"},
            headers={"accept-language": "fr"},
        )
    (error,) = response.context["formset"].forms[1].errors["winner_2"]
    assert "atama-hane" in error
    assert "Règles du championnat du monde de riichi 2015" in error


def test_a_fault_in_the_second_winners_hand_is_shown_on_its_own_column(referee, event, players):
    _rules(event, "ema2016")
    data = _double_ron(players, **{"hands-1-yakuman_2": "", "hands-1-han_2": "1"})
    data["hands-1-fu_2"] = "20"
    response = referee.post(_url(event), {**data, "action": "check"})
    hand = response.context["formset"].forms[1]
    assert hand.errors["fu_2"] == ["A ron cannot have 20 fu."]
    assert "fu" not in hand.errors
    assert hand["fu_2"].value() == "20"


def test_a_double_ron_saved_part_way_comes_back_in_its_columns(referee, event, players):
    _rules(event, "ema2016")
    data = _double_ron(players, action="draft")
    del data["time_up"]
    assert referee.post(_url(event), data).status_code == 302
    hand = referee.get(_url(event)).context["formset"].forms[1]
    assert hand.initial["winner"] == "N"
    assert (hand.initial["winner_2"], hand.initial["yakuman_2"]) == ("S", 1)
    assert hand.initial["han_2"] is None


def test_only_a_rule_set_with_several_winners_shows_their_columns(referee, event):
    _rules(event, "ema2016")
    ron = referee.get(_url(event)).context["hand_fields"]["ron"]
    assert {"winner_2", "han_2", "fu_2", "yakuman_2", "winner_3"} <= set(ron)
    _rules(event, "wrc2015")
    ron = referee.get(_url(event)).context["hand_fields"]["ron"]
    assert not {"winner_2", "winner_3"} & set(ron)


def test_the_printed_hand_sheet_says_how_to_write_several_winners(event):
    round_ = event["rounds"][0]
    _rules(event, "ema2016")
    text = pdf_squashed(ScoreSheetsPdf(round_, hands=True).render()[2])
    assert "Severalwinnersononediscard:onelineforeachwinner" in text
    _rules(event, "wrc2015")
    round_.tournament.refresh_from_db()
    text = pdf_squashed(ScoreSheetsPdf(round_, hands=True).render()[2])
    assert "Severalwinners" not in text


@pytest.mark.parametrize(
    ("error", "where"),
    [
        # WRC 2015 §5.7.6 (head bump): the second winner is the one too many
        (RulesError("multiple_ron_not_in_ruleset", "…", field="hands[1].wins"), (1, "winner_2")),
        # docs/rules-engine.md, multiple_ron "double_ron": two at most, the third too many
        (RulesError("ron_too_many_winners", "…", field="hands[1].wins", max=2), (1, "winner_3")),
        (RulesError("seat_missing", "…", field="hands[3].wins[1]"), (3, "winner_2")),
        (RulesError("han_missing", "…", field="hands[0].wins[2].han"), (0, "han_3")),
        (RulesError("ron_20_fu", "…", field="hands[0].wins[0].fu"), (0, "fu")),
        (RulesError("pao_needs_yakuman", "…", field="hands[0].wins[0].pao"), (0, "pao")),
        (RulesError("seat_repeated", "…", field="hands[4].riichi[1]"), (4, "riichi")),
    ],
)
def test_each_winners_fault_is_put_on_that_winners_column(error, where):
    assert form_field_for(error) == where
