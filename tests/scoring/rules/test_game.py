"""Hand-by-hand replay: rotation, counters, riichi sticks, chombo, end of game per rule set."""

from __future__ import annotations

import pytest

from scoring.rules import Hand, RulesError, replay_game, resolve_ruleset
from tests.scoring.rules.helpers import MS, ORAN, WRC

SEATS = "ESWN"


def pass_deal(round_index: int) -> Hand:
    """A small non-dealer ron (1 han 30 fu = 1 000 [docs/rules.md §6.2]) that moves the deal."""
    dealer = SEATS[round_index % 4]
    winner = SEATS[(round_index + 1) % 4]
    loser = SEATS[(round_index + 2) % 4]
    assert dealer not in (winner, loser)
    return Hand("ron", winner=winner, loser=loser, han=1, fu=30)


def full_game(n: int = 8) -> list[Hand]:
    return [pass_deal(i) for i in range(n)]


def test_rounds_and_dealers_of_a_plain_hanchan():
    # E1..E4, S1..S4; the dealer of Ek/Sk started at seat k [WRC 2015 §4.2, §5.7.8]
    g = replay_game(WRC, full_game())
    assert [h.round for h in g.hands] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    assert [h.dealer for h in g.hands] == list("ESWNESWN")
    assert g.ended == "south4"  # [WRC 2015 §5.9]
    assert sum(g.final_points) == 120000


def test_dealer_keeps_the_deal_on_a_win_and_counters_grow():
    # [WRC 2015 §5.7.7, §5.7.8]
    hands = [
        Hand("tsumo", winner="E", han=2, fu=30),  # dealer wins: E1, +1 counter
        Hand("ron", winner="E", loser="N", han=1, fu=30),  # again: E1 1 counter
        Hand("ron", winner="S", loser="W", han=1, fu=30),  # non-dealer: E2, counters 0
    ]
    g = replay_game(WRC, hands)
    assert [(h.round, h.dealer, h.honba) for h in g.hands] == [
        ("E1", "E", 0),
        ("E1", "E", 1),
        ("E1", "E", 2),
    ]
    # 2 han 30 fu dealer tsumo = 1 000 each; 1 han 30 fu dealer ron 1 500 + 300
    # [docs/rules.md §6.2; WRC 2015 §5.7.7]; then 1 000 + 600 for S
    assert g.hands[0].deltas == (3000, -1000, -1000, -1000)
    assert g.hands[1].deltas == (1800, 0, 0, -1800)
    assert g.hands[2].deltas == (0, 1600, -1600, 0)
    assert (g.next_round, g.next_dealer, g.next_honba) == ("E2", "S", 0)


def test_draws_add_a_counter_and_move_the_deal_unless_dealer_tenpai():
    # [WRC 2015 §5.7.2, §5.7.7]
    hands = [
        Hand("draw", tenpai=("E",)),  # dealer tenpai: stays, +1
        Hand("draw", tenpai=("S",)),  # dealer noten: moves, +1
        Hand("draw", tenpai=()),  # S dealer noten: moves, +1
    ]
    g = replay_game(WRC, hands)
    assert [(h.round, h.honba) for h in g.hands] == [("E1", 0), ("E1", 1), ("E2", 2)]
    assert (g.next_round, g.next_honba) == ("E3", 3)
    assert g.hands[0].deltas == (3000, -1000, -1000, -1000)  # noten table, WRC 2015 §5.7.2


def test_riichi_sticks_stay_after_a_draw_and_go_to_the_next_winner():
    # [WRC 2015 §5.7.4, §6.1]
    hands = [
        Hand("draw", tenpai=("S", "W"), riichi=("S", "W")),
        Hand("ron", winner="N", loser="E", han=1, fu=30, riichi=("E",)),
    ]
    g = replay_game(WRC, hands)
    assert g.hands[0].riichi_sticks_after == 2
    assert g.hands[0].deltas == (-1500, 1500 - 1000, 1500 - 1000, -1500)
    # 1 han 30 fu + 1 counter = 1 300, plus 3 sticks for the winner
    assert g.hands[1].deltas == (-1300 - 1000, 0, 0, 1300 + 3000)
    assert g.riichi_sticks_left == 0


def test_wrc_chombo_replays_the_hand():
    # [WRC 2015 §7.1]: no payment, deposits of that hand returned, older ones stay, no counter,
    # same dealer, 20 penalty points
    hands = [
        Hand("draw", tenpai=("E",), riichi=("E",)),  # E1, 1 stick left, 1 counter
        Hand("chombo", offender="W", riichi=("S",)),  # E1-1 replayed
        Hand("ron", winner="S", loser="W", han=1, fu=30),
    ]
    g = replay_game(WRC, hands)
    chombo = g.hands[1]
    assert (chombo.round, chombo.dealer, chombo.honba) == ("E1", "E", 1)
    assert chombo.deltas == (0, 0, 0, 0)
    assert chombo.riichi_sticks_after == 1
    assert (g.hands[2].round, g.hands[2].honba) == ("E1", 1)
    assert g.chombo == (0, 0, 1, 0)
    assert g.penalty_points == (0, 0, -20, 0)
    assert g.final_points == (33000 - 1000, 29000 + 1300 + 1000, 29000 - 1300, 29000)


def test_oran_chombo_is_deducted_on_the_sheet_not_in_play():
    # [ORAN-1 §2.1 "deferred negative score"; A9]: a chombo never busts during play
    hands = [Hand("chombo", offender="N")] * 3
    g = replay_game(ORAN, hands)
    assert g.final_points == (30000,) * 4
    assert g.chombo == (0, 0, 0, 3)
    assert g.ended is None


def test_wrc_plays_on_below_zero():
    # [WRC 2015 §4.1, §6.1]: a dealer yakuman ron leaves W at -18 000
    hands = [Hand("ron", winner="E", loser="W", yakuman=1)]
    g = replay_game(WRC, hands)
    assert g.final_points[2] == -18000
    assert g.ended is None


@pytest.mark.parametrize("rs", [ORAN, MS], ids=lambda r: r.key)
def test_bust_ends_the_game(rs):
    # [ORAN-1 §3.1.7; Évriichi §7, §19]: a negative score ends the game
    hands = [Hand("ron", winner="E", loser="W", yakuman=1), pass_deal(1)]
    with pytest.raises(RulesError) as info:
        replay_game(rs, hands)
    assert info.value.code == "hand_after_end"
    assert info.value.field == "hands[1]"
    assert replay_game(rs, hands[:1]).ended == "bust"


def test_oran_exactly_zero_is_not_bust():
    # [ORAN-1 §3.1.2]: a score of exactly 0 is not bankruptcy. Haneman: 12 000 non-dealer ron,
    # 18 000 dealer ron [WRC 2015 §6.1]
    hands = [
        Hand("ron", winner="S", loser="W", han=6),  # E1: W 30 000 - 12 000 = 18 000
        Hand("ron", winner="S", loser="W", han=6),  # E2 (S deals): W 18 000 - 18 000 = 0
    ]
    g = replay_game(ORAN, hands)
    assert g.final_points[2] == 0
    assert g.ended is None
    g = replay_game(ORAN, [*hands, Hand("draw", tenpai=("S",))])  # W pays 1 000 -> bust
    assert g.final_points[2] == -1000
    assert g.ended == "bust"


def test_hand_after_south4_is_an_error():
    # WRC 2015 §5.9: the game ends after S4; docs/cli.md: the error names the hand
    with pytest.raises(RulesError) as info:
        replay_game(WRC, full_game(9))
    assert info.value.code == "hand_after_end"
    assert info.value.field == "hands[8]"


def test_wrc_has_no_agari_yame():
    # [WRC 2015 §5.9.1]: the S4 dealer who wins while leading plays on
    hands = full_game(7) + [Hand("tsumo", winner="N", yakuman=1)]
    g = replay_game(WRC, hands)
    assert g.ended is None
    assert (g.next_round, g.next_dealer, g.next_honba) == ("S4", "N", 1)
    g = replay_game(WRC, [*hands, pass_deal(7)])
    assert g.ended == "south4"


def test_mahjongsoul_south4_stop():
    # [Évriichi §19]: in S4, stop when the dealer (N) is 1st with at least 30 000 after a
    # dealer repeat
    hands = full_game(7) + [Hand("tsumo", winner="N", han=3, fu=30)]  # N +6 000
    g = replay_game(MS, hands)
    assert g.final_points[3] >= 30000
    assert g.ended == "south4_stop"


def test_mahjongsoul_south4_dealer_not_first_plays_on():
    # [Évriichi §19]: the stop needs the dealer to be 1st; E has a mangan lead (12 000)
    hands = (
        [Hand("tsumo", winner="E", han=5), pass_deal(0)]
        + [pass_deal(i) for i in range(1, 7)]
        + [Hand("tsumo", winner="N", han=1, fu=30)]
    )
    g = replay_game(MS, hands)
    assert g.hands[-1].round == "S4"
    assert g.ended is None
    assert (g.next_round, g.next_honba) == ("S4", 1)


def test_mahjongsoul_south4_stop_threshold_is_at_least_30000():
    # [Évriichi §19]: "premier au score avec au moins 30 000 points". After 7 draws S4 has
    # 7 counters (300 each on a ron, WRC 2015 §5.7.7): a dealer ron of 2 han 30 fu
    # (2 900 [EMA 2012 sheet]) + 2 100 takes N to exactly 30 000 and stops; 1 han 50 fu
    # (2 400) + 2 100 leaves N first on 29 500, and S4 goes on.
    draws = [Hand("draw") for _ in range(7)]
    g = replay_game(MS, [*draws, Hand("ron", winner="N", loser="E", han=2, fu=30)])
    assert (g.final_points[3], g.ended) == (30000, "south4_stop")
    g = replay_game(MS, [*draws, Hand("ron", winner="N", loser="E", han=1, fu=50)])
    assert (g.final_points[3], g.ended, g.next_round) == (29500, None, "S4")


def test_mahjongsoul_bust_is_below_zero_not_at_zero():
    # [Évriichi §7]: the game ends "lorsqu'un joueur passe dans le négatif de points".
    # Three mangan rons off W (8 000 each [WRC 2015 §6.1]) and a 1-tenpai draw (1 000 to
    # pay, WRC 2015 §5.7.2) leave W on exactly 0: the game goes on.
    to_zero = [
        Hand("ron", winner="S", loser="W", han=5),
        Hand("ron", winner="E", loser="W", han=5),
        Hand("ron", winner="S", loser="W", han=5),
        Hand("draw", tenpai=("E",)),
    ]
    g = replay_game(MS, to_zero)
    assert (g.final_points[2], g.ended, g.next_round) == (0, None, "S1")
    # W's riichi stick from 0 (the book sets no minimum to declare) takes W below zero.
    g = replay_game(MS, [*to_zero, Hand("draw", tenpai=tuple(SEATS), riichi=("W",))])
    assert (g.final_points[2], g.ended) == (-1000, "bust")


def test_mahjongsoul_west_extension():
    # [Évriichi §19]: nobody at 30 000 at the end of S4 -> West round, which stops as soon as
    # somebody has 30 000 [C23: engine uses >= 30 000]
    draws = [Hand("draw") for _ in range(8)]  # nobody tenpai: deal moves, nobody paid
    g = replay_game(MS, draws)
    assert g.ended is None
    assert g.next_round == "W1"
    g = replay_game(MS, [*draws, Hand("ron", winner="S", loser="W", han=3, fu=30)])
    assert g.hands[-1].round == "W1"
    # 8 counters after 8 draws (WRC 2015 §5.7.2): 3 900 + 2 400 = 6 300 -> S has 31 300 >= 30 000
    assert g.final_points[1] == 31300
    assert g.ended == "west"


def test_mahjongsoul_west_round_ends_after_w4():
    # [A10]: after W4 with nobody at 30 000, the game ends
    draws = [Hand("draw") for _ in range(12)]
    g = replay_game(MS, draws)
    assert g.ended == "west4"
    assert [h.round for h in g.hands][-4:] == ["W1", "W2", "W3", "W4"]


def test_mahjongsoul_south4_ends_when_somebody_has_30000():
    # [Évriichi §19]: S4 ends normally when somebody has at least 30 000
    # after 7 small hands E has 24 000; a mangan ron (8 000 [WRC 2015 §6.1]) -> 32 000
    hands = full_game(7) + [Hand("ron", winner="E", loser="S", han=5)]
    g = replay_game(MS, hands)
    assert g.final_points[0] == 32000
    assert g.ended == "south4"


def test_impossible_hand_names_the_hand():
    # docs/cli.md: "hands[5].fu"
    hands = full_game(5) + [Hand("ron", winner="E", loser="S", han=2, fu=20)]
    with pytest.raises(RulesError) as info:
        replay_game(WRC, hands)
    assert info.value.code == "ron_20_fu"
    assert info.value.field == "hands[5].fu"


def test_riichi_player_missing_from_a_draw_names_the_hand_in_a_game():
    # [WRC 2015 §5.7.2]: the error points at the hand whose tenpai list is incomplete
    hands = [Hand("draw", tenpai=("E",), riichi=("N",))]
    with pytest.raises(RulesError) as info:
        replay_game(WRC, hands)
    assert (info.value.code, info.value.field) == ("riichi_hand_not_shown", "hands[0].tenpai")


def test_a_noten_riichi_needs_the_riichi_on_a_game_sheet():
    # [WRC 2015 §5.7.2]: only a riichi declarer can be a noten riichi; a game sheet
    # knows each hand's declarers, so a noten riichi without the riichi contradicts it.
    hands = [Hand("draw", tenpai=("E",), noten_riichi=("S",))]
    with pytest.raises(RulesError) as info:
        replay_game(WRC, hands)
    assert (info.value.code, info.value.field) == (
        "noten_riichi_without_riichi",
        "hands[0].noten_riichi",
    )
    fixed = [Hand("draw", tenpai=("E",), riichi=("S",), noten_riichi=("S",))]
    assert replay_game(WRC, fixed).chombo == (0, 1, 0, 0)  # WRC 2015 §7.1


def test_written_state_is_checked():
    # a sheet that writes dealer/honba/sticks must agree with the replay
    hands = [Hand("draw", tenpai=("E",)), Hand("draw", honba=0)]
    with pytest.raises(RulesError) as info:
        replay_game(WRC, hands)
    assert info.value.code == "hand_state_mismatch"
    assert info.value.field == "hands[1].honba"
    assert replay_game(WRC, [hands[0], Hand("draw", honba=1, dealer="E")]).next_honba == 2


def test_oran_riichi_needs_1000_points():
    # [ORAN-1 §3.1.2]: must be able to pay (1 000 yes, 900 no)
    rs = resolve_ruleset("oran2015", {"bust_ends_game": False})
    # a yakuman ron (32 000) leaves W at -2 000
    hands = [
        Hand("ron", winner="S", loser="W", yakuman=1),
        Hand("draw", riichi=("W",), tenpai=("W",)),
    ]
    with pytest.raises(RulesError) as info:
        replay_game(rs, hands)
    assert info.value.code == "riichi_cannot_pay"
    assert info.value.field == "hands[1].riichi"
    # WRC: riichi allowed with a negative score [WRC 2015 §6.1]
    assert replay_game(WRC, hands).riichi_sticks_left == 1


def test_time_limit_ends_after_the_hand_in_play():
    # [WRC 2015 §8.2]: at the gong the hand in play is finished; no dealer repeat afterwards
    hands = [Hand("tsumo", winner="E", han=2, fu=30, time_up=True)]
    g = replay_game(WRC, hands)
    assert g.ended == "time_limit"
    with pytest.raises(RulesError) as info:
        replay_game(WRC, [*hands, pass_deal(0)])
    assert info.value.field == "hands[1]"


def test_chombo_in_the_last_hand_is_not_replayed():
    # [WRC 2015 §8.2]: a chombo in the last hand after the gong is not replayed
    g = replay_game(WRC, [pass_deal(0), Hand("chombo", offender="W", time_up=True)])
    assert g.ended == "time_limit"
    assert g.penalty_points == (0, 0, -20, 0)
