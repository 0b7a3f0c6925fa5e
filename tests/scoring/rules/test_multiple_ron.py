"""EMA rule sets and several winners on one discard (multiple ron): engine, replay and CLI.

Sources (docs/rules.md §0): EMA 2016 is the EMA Riichi Competition Rules, 2016 edition; "EMA
2016 notes" the EMA's announcement of that edition (changes since 2012, differences from WRC
2015). [A17]–[A19] are the assumptions of docs/rules.md §11.
"""

from __future__ import annotations

import pytest

from scoring.rules import (
    RULESETS,
    Hand,
    RulesError,
    RulesErrors,
    Win,
    replay_game,
    resolve_ruleset,
    score_hand,
)
from tests.scoring.rules.test_cli import run

EMA16 = RULESETS["ema2016"]
EMA25 = RULESETS["ema2025"]


def double_ron(rs=EMA16, **kw) -> Hand:
    """W discards; N (2 han 30 fu) and S (a yakuman) both win: the contract's example."""
    hand = {
        "dealer": "E",
        "loser": "W",
        "wins": (Win("N", han=2, fu=30), Win("S", yakuman=1)),
        **kw,
    }
    return Hand("ron", **hand)


# --- the rule sets ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "ema2016", "ema2025"),
    [
        ("uma", (15, 5, -5, -15), (15, 5, -5, -15)),  # [EMA 2016 notes]
        ("kiriage", False, True),  # "4-30 is not rounded" [EMA 2016 notes]; 2025 [A19]
        ("counted_yakuman", False, False),  # 13+ fan is sanbaiman [EMA 2016 notes]
        ("multiple_yakuman", False, False),  # no double yakuman [EMA 2016 notes]
        ("abortive_draws", False, False),  # [EMA 2016 §3.4; notes]
        ("nagashi_mangan", False, False),  # [EMA 2016 notes]
        ("leftover_riichi", "to_first_place", "to_first_place"),  # [EMA 2016 notes]
        ("chombo_model", "penalty_points", "penalty_points"),  # [EMA 2016 notes]
        ("chombo_amount", 20, 20),  # "20,000 points deduction after uma" [EMA 2016 notes]
        ("honba_ron", 300, 300),  # [EMA 2016 §3.4.10]
        ("noten_total", 3000, 3000),  # [EMA 2016 §3.4.2]
        ("multiple_ron", "triple_ron", "triple_ron"),  # [EMA 2016 §3.4.9]
    ],
)
def test_ema_rule_sets_follow_the_rule_book(option, ema2016, ema2025):
    assert getattr(EMA16, option) == ema2016
    assert getattr(EMA25, option) == ema2025


@pytest.mark.parametrize("key", ["wrc2015", "oran2015", "mahjongsoul"])
def test_head_bump_stays_the_default_of_the_other_rule_sets(key):
    # [WRC 2015 §5.7.6; ORAN-1 §2.1; A5]
    assert RULESETS[key].multiple_ron == "head_bump"


def test_kiriage_differs_between_the_editions():
    # 30 fu 4 han non-dealer ron: 7 700 without kiriage [EMA 2016 notes], 8 000 with [A19]
    hand = Hand("ron", winner="S", loser="W", han=4, fu=30)
    assert score_hand(EMA16, hand).payments[1] == 7700
    assert score_hand(EMA25, hand).payments[1] == 8000


@pytest.mark.parametrize(
    ("value", "code"),
    [("quadruple_ron", "option_choice"), (True, "option_choice"), ("atamahane", "option_choice")],
)
def test_multiple_ron_option_is_validated(value, code):
    with pytest.raises(RulesErrors) as info:
        resolve_ruleset("ema2016", {"multiple_ron": value})
    (error,) = info.value
    assert (error.code, error.field) == (code, "options.multiple_ron")
    assert error.params["choices"] == ["head_bump", "double_ron", "triple_ron"]


# --- paying several winners ------------------------------------------------------------------


def test_double_ron_the_discarder_pays_each_winner():
    # The discarder "pays the full value of each hand" [EMA 2016 §3.4.9]: N 2 han 30 fu
    # non-dealer = 2 000; S yakuman non-dealer = 32 000 [EMA 2016 §4.1.2, 4 x 8 000].
    res = score_hand(EMA16, double_ron())
    assert res.payments == (0, 32000, -34000, 2000)
    assert [(w.winner, w.received, w.limit) for w in res.wins] == [
        ("N", 2000, None),
        ("S", 32000, "yakuman"),
    ]
    assert res.winner == "N"  # first in turn order after the discarder W
    assert (res.limit, res.base_points, res.han) == (None, None, None)


def test_double_ron_each_winner_gets_the_counters():
    # "Each counter on the table increases the value of a winning hand by 300" [EMA 2016
    # §3.4.10]: two counters add 600 to each of the two hands, all paid by the discarder.
    res = score_hand(EMA16, double_ron(honba=2))
    assert res.payments == (0, 32600, -35200, 2600)


def test_double_ron_riichi_sticks():
    # [A17]: a winner who declared riichi in this hand takes back their stick; the winner
    # first in turn order after the discarder (N after W) takes the rest: 2 sticks of earlier
    # hands and E's deposit of this hand.
    res = score_hand(EMA16, double_ron(riichi_sticks=2, riichi=("E", "S")))
    takings = {w.winner: w.riichi_collected for w in res.wins}
    assert takings == {"N": 3000, "S": 1000}
    assert res.riichi_collected == 4000
    assert res.riichi_sticks_after == 0


def test_the_dealer_among_two_winners_keeps_the_deal():
    # A counter is placed when East wins "whether more players win or not" [EMA 2016 §3.4.9]
    hand = Hand(
        "ron",
        dealer="E",
        loser="S",
        honba=1,
        wins=(Win("W", han=1, fu=30), Win("E", han=3, fu=30)),
    )
    res = score_hand(EMA16, hand)
    # W (non-dealer, 1 000 + 300) is first after S; E (dealer 3 han 30 fu = 5 800 + 300).
    assert res.payments == (6100, -7400, 1300, 0)
    assert (res.dealer_retains, res.next_honba) == (True, 2)


def test_a_non_dealer_double_ron_passes_the_deal_and_clears_the_counters():
    # "All counters are removed after a hand where another player than East declared a win,
    # and East did not" [EMA 2016 §3.4.10]
    res = score_hand(EMA16, double_ron(honba=3))
    assert (res.dealer_retains, res.next_honba) == (False, 0)


def test_triple_ron_under_triple_ron():
    # Up to three winners [EMA 2016 §3.4.9: "one or more winning declarations"]
    hand = Hand(
        "ron",
        loser="W",
        wins=(Win("E", han=1, fu=30), Win("S", han=1, fu=30), Win("N", han=1, fu=30)),
    )
    res = score_hand(EMA16, hand)
    assert res.payments == (1500, 1000, -3500, 1000)
    assert [w.winner for w in res.wins] == ["N", "E", "S"]  # turn order after W


# --- what the engine refuses -----------------------------------------------------------------


def test_head_bump_refuses_two_winners():
    with pytest.raises(RulesError) as info:
        score_hand(RULESETS["wrc2015"], double_ron())
    assert (info.value.code, info.value.field) == ("multiple_ron_not_in_ruleset", "wins")


def test_head_bump_takes_one_winner_written_in_wins():
    hand = Hand("ron", loser="W", wins=(Win("N", han=2, fu=30),))
    assert score_hand(RULESETS["wrc2015"], hand).payments == (0, 0, -2000, 2000)


def test_double_ron_refuses_a_third_winner():
    rs = resolve_ruleset("ema2016", {"multiple_ron": "double_ron"})
    hand = Hand(
        "ron",
        loser="W",
        wins=(Win("E", han=1, fu=30), Win("S", han=1, fu=30), Win("N", han=1, fu=30)),
    )
    with pytest.raises(RulesError) as info:
        score_hand(rs, hand)
    assert info.value.code == "ron_too_many_winners"
    assert info.value.params == {"count": 3, "max": 2}
    assert score_hand(rs, double_ron()).payments == (0, 32000, -34000, 2000)


@pytest.mark.parametrize(
    ("hand", "code", "field"),
    [
        (double_ron(winner="N"), "wins_with_single_keys", "winner"),
        (double_ron(han=2), "wins_with_single_keys", "han"),
        (double_ron(ron_claimants=("N", "S")), "wins_with_single_keys", "ron_claimants"),
        (double_ron(loser="N"), "winner_is_loser", "wins[0].winner"),
        (
            Hand("ron", loser="W", wins=(Win("N", han=2, fu=30), Win("N", han=1, fu=30))),
            "seat_repeated",
            "wins",
        ),
        (
            Hand("ron", loser="W", wins=(Win("N", han=2, fu=30), Win("S", han=1, fu=20))),
            "ron_20_fu",
            "wins[1].fu",
        ),
        (Hand("ron", loser="W", wins=(Win("N", han=2, fu=30), Win("Q"))), "seat_unknown", None),
        (
            Hand("tsumo", winner="S", han=1, fu=30, wins=(Win("N", han=2, fu=30),)),
            "key_not_applicable",
            "wins",
        ),
        (
            Hand("ron", winner="N", loser="W", han=1, fu=30, ron_claimants=("N", "S")),
            "ron_claimants_all_win",
            "ron_claimants",
        ),
    ],
)
def test_inconsistent_winners_are_refused(hand, code, field):
    with pytest.raises(RulesError) as info:
        score_hand(EMA16, hand)
    assert info.value.code == code
    if field is not None:
        assert info.value.field == field


# --- the replay ------------------------------------------------------------------------------


def test_replay_double_ron_dealer_keeps_deal_and_sticks_go_by_the_rule_book():
    hands = [
        Hand("draw", tenpai=("E",), riichi=("E",)),  # E1-0: E tenpai, 1 stick stays
        Hand(
            "ron",
            loser="S",
            riichi=("W",),
            wins=(Win("W", han=1, fu=30), Win("E", han=3, fu=30)),
        ),
    ]
    g = replay_game(EMA16, hands)
    second = g.hands[1]
    assert (second.round, second.honba, second.riichi_sticks_before) == ("E1", 1, 1)
    # W: 1 000 + 300 [§3.4.10], its own stick back and the rest (E's stick of hand 1) [A17];
    # E: 5 800 + 300. S pays both.
    assert second.deltas == (6100, -7400, 1300 + 1000, 0)
    assert g.final_points == (
        30000 + 3000 - 1000 + 6100,
        30000 - 1000 - 7400,
        29000 + 1300 + 1000,
        29000,
    )
    assert (g.next_round, g.next_dealer, g.next_honba) == ("E1", "E", 2)
    assert g.riichi_sticks_left == 0


# --- the CLI ---------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["ema2016", "ema2025"])
def test_cli_hand_accepts_the_ema_rule_sets_and_several_winners(key):
    status, out = run(
        "hand",
        {
            "ruleset": key,
            "dealer": "E",
            "result": "ron",
            "loser": "W",
            "wins": [{"winner": "N", "han": 2, "fu": 30}, {"winner": "S", "yakuman": 1}],
            "honba": 1,
            "riichi_sticks": 1,
        },
    )
    assert status == 0, out
    # [EMA 2016 §3.4.9, §3.4.10]: 2 000 + 300 and 32 000 + 300 from W; the stick to N [A17]
    assert out["payments"] == {"E": 0, "S": 32300, "W": -34600, "N": 2300}
    assert out["wins"] == [
        {
            "winner": "N",
            "limit": None,
            "base_points": 480,
            "han": 2,
            "fu": 30,
            "yakuman": 0,
            "received": 2300,
            "riichi_collected": 1000,
        },
        {
            "winner": "S",
            "limit": "yakuman",
            "base_points": 8000,
            "han": None,
            "fu": None,
            "yakuman": 1,
            "received": 32300,
            "riichi_collected": 0,
        },
    ]


def test_cli_hand_under_head_bump_refuses_two_winners_with_exit_2():
    status, out = run(
        "hand",
        {
            "ruleset": "wrc2015",
            "result": "ron",
            "loser": "W",
            "wins": [{"winner": "N", "han": 2, "fu": 30}, {"winner": "S", "han": 1, "fu": 30}],
        },
    )
    assert status == 2
    (error,) = out["errors"]
    assert (error["code"], error["field"]) == ("multiple_ron_not_in_ruleset", "wins")
    assert "head bump" in error["message"]


@pytest.mark.parametrize(
    ("wins", "field"),
    [
        ([{"han": 2, "fu": 30}], "wins[0].winner"),
        ([{"winner": "N", "han": "2"}], "wins[0].han"),
        ([{"winner": "N", "han": 2, "fu": 30, "dora": 1}], "wins[0].dora"),
        ("N", "wins"),
    ],
)
def test_cli_malformed_winners_exit_1(wins, field):
    status, out = run("hand", {"ruleset": "ema2016", "result": "ron", "loser": "W", "wins": wins})
    assert status == 1
    assert out["errors"][0]["field"] == field


def test_cli_game_replays_a_double_ron():
    status, out = run(
        "game",
        {
            "ruleset": "ema2016",
            "hands": [
                {
                    "result": "ron",
                    "loser": "S",
                    "wins": [
                        {"winner": "W", "han": 1, "fu": 30},
                        {"winner": "E", "han": 3, "fu": 30},
                    ],
                },
                {
                    "result": "ron",
                    "loser": "E",
                    "wins": [{"winner": "S", "han": 1, "fu": 30}, {"winner": "N", "hann": 1}],
                },
            ],
        },
    )
    assert status == 1  # the second hand's winner has an unknown key
    assert out["errors"][0]["field"] == "hands[1].wins[1].hann"
    status, out = run(
        "game",
        {
            "ruleset": "ema2016",
            "hands": [
                {
                    "result": "ron",
                    "loser": "S",
                    "wins": [
                        {"winner": "W", "han": 1, "fu": 30},
                        {"winner": "E", "han": 3, "fu": 30},
                    ],
                }
            ],
        },
    )
    assert status == 0, out
    assert out["final_points"] == [35800, 23200, 31000, 30000]
    assert (out["next_round"], out["next_dealer"], out["next_honba"]) == ("E1", "E", 1)
    assert [w["winner"] for w in out["hands"][0]["wins"]] == ["W", "E"]
