"""Hand value and payments: book tables reproduced cell by cell, limits, pao, draws, chombo."""

from __future__ import annotations

import pytest

from scoring.rules import (
    Hand,
    RulesError,
    base_points,
    noten_payments,
    resolve_ruleset,
    score_hand,
)
from tests.scoring.rules.helpers import MS, ORAN, WRC, ron, tsumo

# ---------------------------------------------------------------------------------------------
# Payment tables, transcribed from the rule books. fu -> {han: amount}. Cells the book leaves
# blank are the impossible pairs of docs/rules.md §6.1 (tested below).

# EMA 2012 sheet 'Est, sur pioche Tsumo' (dealer tsumo, each pays); 80-100 fu rows:
# Évriichi §18 'East'.
DEALER_TSUMO = {
    20: {2: 700, 3: 1300, 4: 2600},  # EMA 2012 sheet; Évriichi §18
    25: {3: 1600, 4: 3200},  # EMA 2012 sheet; Évriichi §18
    30: {1: 500, 2: 1000, 3: 2000, 4: 3900},  # EMA 2012 sheet; Évriichi §18
    40: {1: 700, 2: 1300, 3: 2600, 4: 4000},  # EMA 2012 sheet; Évriichi §18
    50: {1: 800, 2: 1600, 3: 3200, 4: 4000},  # EMA 2012 sheet; Évriichi §18
    60: {1: 1000, 2: 2000, 3: 3900, 4: 4000},  # EMA 2012 sheet; Évriichi §18
    70: {1: 1200, 2: 2300, 3: 4000, 4: 4000},  # EMA 2012 sheet; Évriichi §18
    80: {1: 1300, 2: 2600, 3: 4000, 4: 4000},  # Évriichi §18
    90: {1: 1500, 2: 2900, 3: 4000, 4: 4000},  # Évriichi §18
    100: {1: 1600, 2: 3200, 3: 4000, 4: 4000},  # Évriichi §18
    110: {1: 1800, 2: 3600, 3: 4000, 4: 4000},  # docs/rules.md §6.2
}
# EMA 2012 sheet 'Est, sur un écart Ron' (dealer ron); 80-100: Évriichi §18;
# 110: docs/rules.md §6.2.
DEALER_RON = {
    25: {2: 2400, 3: 4800, 4: 9600},  # EMA 2012 sheet; Évriichi §18
    30: {1: 1500, 2: 2900, 3: 5800, 4: 11600},  # EMA 2012 sheet; Évriichi §18
    40: {1: 2000, 2: 3900, 3: 7700, 4: 12000},  # EMA 2012 sheet; Évriichi §18
    50: {1: 2400, 2: 4800, 3: 9600, 4: 12000},  # EMA 2012 sheet; Évriichi §18
    60: {1: 2900, 2: 5800, 3: 11600, 4: 12000},  # EMA 2012 sheet; Évriichi §18
    70: {1: 3400, 2: 6800, 3: 12000, 4: 12000},  # EMA 2012 sheet; Évriichi §18
    80: {1: 3900, 2: 7700, 3: 12000, 4: 12000},  # Évriichi §18
    90: {1: 4400, 2: 8700, 3: 12000, 4: 12000},  # Évriichi §18
    100: {1: 4800, 2: 9600, 3: 12000, 4: 12000},  # Évriichi §18
    110: {1: 5300, 2: 10600, 3: 12000, 4: 12000},  # docs/rules.md §6.2
}
# EMA 2012 sheet 'Autres, sur pioche Tsumo' (non-dealer tsumo: each non-dealer, the dealer).
OTHER_TSUMO = {
    20: {2: (400, 700), 3: (700, 1300), 4: (1300, 2600)},  # EMA 2012 sheet; Évriichi §18
    25: {3: (800, 1600), 4: (1600, 3200)},  # EMA 2012 sheet; Évriichi §18
    30: {1: (300, 500), 2: (500, 1000), 3: (1000, 2000), 4: (2000, 3900)},  # EMA 2012; Évriichi
    40: {1: (400, 700), 2: (700, 1300), 3: (1300, 2600), 4: (2000, 4000)},  # EMA 2012; Évriichi
    50: {1: (400, 800), 2: (800, 1600), 3: (1600, 3200), 4: (2000, 4000)},  # EMA 2012; Évriichi
    60: {1: (500, 1000), 2: (1000, 2000), 3: (2000, 3900), 4: (2000, 4000)},  # EMA 2012; Évriichi
    70: {1: (600, 1200), 2: (1200, 2300), 3: (2000, 4000), 4: (2000, 4000)},  # EMA 2012; Évriichi
    80: {1: (700, 1300), 2: (1300, 2600), 3: (2000, 4000), 4: (2000, 4000)},  # Évriichi §18
    90: {1: (800, 1500), 2: (1500, 2900), 3: (2000, 4000), 4: (2000, 4000)},  # Évriichi §18
    100: {1: (800, 1600), 2: (1600, 3200), 3: (2000, 4000), 4: (2000, 4000)},  # Évriichi §18
    110: {1: (900, 1800), 2: (1800, 3600), 3: (2000, 4000), 4: (2000, 4000)},  # docs/rules.md §6.2
}
# EMA 2012 sheet 'Autres, sur un écart Ron' (non-dealer ron; Évriichi prints none);
# 80-110: docs/rules.md §6.2.
OTHER_RON = {
    25: {2: 1600, 3: 3200, 4: 6400},  # EMA 2012 sheet
    30: {1: 1000, 2: 2000, 3: 3900, 4: 7700},  # EMA 2012 sheet
    40: {1: 1300, 2: 2600, 3: 5200, 4: 8000},  # EMA 2012 sheet
    50: {1: 1600, 2: 3200, 3: 6400, 4: 8000},  # EMA 2012 sheet
    60: {1: 2000, 2: 3900, 3: 7700, 4: 8000},  # EMA 2012 sheet
    70: {1: 2300, 2: 4500, 3: 8000, 4: 8000},  # EMA 2012 sheet
    80: {1: 2600, 2: 5200, 3: 8000, 4: 8000},  # docs/rules.md §6.2
    90: {1: 2900, 2: 5800, 3: 8000, 4: 8000},  # docs/rules.md §6.2
    100: {1: 3200, 2: 6400, 3: 8000, 4: 8000},  # docs/rules.md §6.2
    110: {1: 3600, 2: 7100, 3: 8000, 4: 8000},  # docs/rules.md §6.2
}
# WRC kiriage cells: b = 1 920 is mangan [WRC 2015 §6.1; docs/rules.md §6.2, the WRC cells]
KIRIAGE = {(30, 4), (60, 3)}
WRC_KIRIAGE_VALUE = {
    "dealer_tsumo": 4000,
    "dealer_ron": 12000,
    "other_tsumo": (2000, 4000),
    "other_ron": 8000,
}


def _cells(table):
    return [(fu, han, v) for fu, row in table.items() for han, v in row.items()]


@pytest.mark.parametrize("rs", [ORAN, MS], ids=lambda r: r.key)
@pytest.mark.parametrize(("fu", "han", "expected"), _cells(DEALER_TSUMO))
def test_dealer_tsumo_table(rs, fu, han, expected):
    assert tsumo(rs, dealer_wins=True, han=han, fu=fu) == expected


@pytest.mark.parametrize("rs", [ORAN, MS], ids=lambda r: r.key)
@pytest.mark.parametrize(("fu", "han", "expected"), _cells(DEALER_RON))
def test_dealer_ron_table(rs, fu, han, expected):
    assert ron(rs, dealer_wins=True, han=han, fu=fu) == expected


@pytest.mark.parametrize("rs", [ORAN, MS], ids=lambda r: r.key)
@pytest.mark.parametrize(("fu", "han", "expected"), _cells(OTHER_TSUMO))
def test_non_dealer_tsumo_table(rs, fu, han, expected):
    assert tsumo(rs, dealer_wins=False, han=han, fu=fu) == expected


@pytest.mark.parametrize("rs", [ORAN, MS], ids=lambda r: r.key)
@pytest.mark.parametrize(("fu", "han", "expected"), _cells(OTHER_RON))
def test_non_dealer_ron_table(rs, fu, han, expected):
    assert ron(rs, dealer_wins=False, han=han, fu=fu) == expected


@pytest.mark.parametrize(
    ("kind", "table"),
    [
        ("dealer_tsumo", DEALER_TSUMO),
        ("dealer_ron", DEALER_RON),
        ("other_tsumo", OTHER_TSUMO),
        ("other_ron", OTHER_RON),
    ],
)
def test_wrc_table_is_the_same_except_kiriage(kind, table):
    # docs/rules.md §6.2: the WRC table equals the others except the two kiriage cells
    # [WRC 2015 §6.1]
    dealer = kind.startswith("dealer")
    pay = tsumo if kind.endswith("tsumo") else ron
    for fu, han, value in _cells(table):
        expected = WRC_KIRIAGE_VALUE[kind] if (fu, han) in KIRIAGE else value
        assert pay(WRC, dealer_wins=dealer, han=han, fu=fu) == expected, (fu, han)


def test_kiriage_is_an_option():
    # C1: kiriage is a rule-set parameter [WRC 2015 §6.1 vs ORAN-1 §4.3.4]
    assert (
        ron(resolve_ruleset("oran2015", {"kiriage": True}), dealer_wins=False, han=4, fu=30) == 8000
    )
    assert (
        ron(resolve_ruleset("wrc2015", {"kiriage": False}), dealer_wins=False, han=4, fu=30) == 7700
    )


# ---------------------------------------------------------------------------------------------
# Limits, WRC 2015 §6.1 (and the EMA 2012 sheet 'Mains de limite', Évriichi §18 'Limit hand').
LIMITS = [
    # han, name, non-dealer ron, non-dealer tsumo (nd, dealer), dealer ron, dealer tsumo each
    (5, "mangan", 8000, (2000, 4000), 12000, 4000),  # WRC 2015 §6.1; EMA 2012 sheet; Évriichi §18
    (6, "haneman", 12000, (3000, 6000), 18000, 6000),  # WRC 2015 §6.1; EMA 2012 sheet; Évriichi §18
    (7, "haneman", 12000, (3000, 6000), 18000, 6000),  # WRC 2015 §6.1; EMA 2012 sheet; Évriichi §18
    (8, "baiman", 16000, (4000, 8000), 24000, 8000),  # WRC 2015 §6.1; EMA 2012 sheet; Évriichi §18
    (10, "baiman", 16000, (4000, 8000), 24000, 8000),  # WRC 2015 §6.1; EMA 2012 sheet; Évriichi §18
    (11, "sanbaiman", 24000, (6000, 12000), 36000, 12000),  # WRC 2015 §6.1; Évriichi §18 "11+"
    (12, "sanbaiman", 24000, (6000, 12000), 36000, 12000),  # WRC 2015 §6.1; EMA 2012 sheet "11-12"
    (13, "sanbaiman", 24000, (6000, 12000), 36000, 12000),  # no counted yakuman, WRC 2015 §6.1
    (20, "sanbaiman", 24000, (6000, 12000), 36000, 12000),  # no counted yakuman, WRC 2015 §6.1
]


@pytest.mark.parametrize("rs", [WRC, ORAN, MS], ids=lambda r: r.key)
@pytest.mark.parametrize(("han", "name", "o_ron", "o_tsumo", "d_ron", "d_tsumo"), LIMITS)
def test_limit_table(rs, han, name, o_ron, o_tsumo, d_ron, d_tsumo):
    assert base_points(rs, han, None)[1] == name
    assert ron(rs, dealer_wins=False, han=han) == o_ron
    assert tsumo(rs, dealer_wins=False, han=han) == o_tsumo
    assert ron(rs, dealer_wins=True, han=han) == d_ron
    assert tsumo(rs, dealer_wins=True, han=han) == d_tsumo


@pytest.mark.parametrize("rs", [WRC, ORAN, MS], ids=lambda r: r.key)
def test_yakuman_values(rs):
    # Yakuman: 32 000 / 8 000-16 000 / 48 000 / 16 000 [WRC 2015 §6.1; Évriichi §18; EMA 2012 sheet]
    assert ron(rs, dealer_wins=False, yakuman=1) == 32000
    assert tsumo(rs, dealer_wins=False, yakuman=1) == (8000, 16000)
    assert ron(rs, dealer_wins=True, yakuman=1) == 48000
    assert tsumo(rs, dealer_wins=True, yakuman=1) == 16000


def test_counted_yakuman_option_follows_003():
    # EMA 2012 sheet 'Mains de limite': 13+ = yakuman; 11-12 sanbaiman [C6]
    rs = resolve_ruleset("wrc2015", {"counted_yakuman": True})
    assert ron(rs, dealer_wins=False, han=13) == 32000
    assert ron(rs, dealer_wins=False, han=12) == 24000


def test_yakuman_stack_only_where_the_rule_set_says():
    # WRC: never stack [WRC 2015 §6.5]; ORAN cap 32 000 [ORAN-1 §3.2.3]; MS: Big Four Winds = 2
    # [Évriichi §4] -> b = 8 000 x 2 (docs/rules.md §3.3)
    assert ron(WRC, dealer_wins=False, yakuman=2) == 32000
    assert ron(ORAN, dealer_wins=False, yakuman=2) == 32000
    assert ron(MS, dealer_wins=False, yakuman=2) == 64000
    assert ron(MS, dealer_wins=True, yakuman=2) == 96000


# ---------------------------------------------------------------------------------------------
# docs/rules.md §4.2 worked values


@pytest.mark.parametrize(
    ("rs", "expected"),
    [(WRC, 8000), (ORAN, 7700), (MS, 7700)],  # docs/rules.md §4.2 item 1
    ids=lambda x: getattr(x, "key", x),
)
def test_worked_4_han_30_fu_ron(rs, expected):
    assert ron(rs, dealer_wins=False, han=4, fu=30) == expected


def test_worked_dealer_tsumo_with_counters_and_sticks():
    # docs/rules.md §4.2: 2 han 30 fu dealer tsumo, 3 counters, 2 sticks: 1 000 + 300 from each,
    # + 2 000 sticks -> dealer +5 900
    res = score_hand(
        WRC, Hand("tsumo", dealer="E", winner="E", han=2, fu=30, honba=3, riichi_sticks=2)
    )
    assert res.payments == (3900, -1300, -1300, -1300)
    assert res.payments[0] + res.riichi_collected == 5900


def test_worked_non_dealer_ron_with_counter_and_sticks():
    # docs/rules.md §4.2: 3 han 40 fu non-dealer ron, 1 counter, 3 sticks: 5 200 + 300, + 3 000
    res = score_hand(
        WRC,
        Hand("ron", dealer="E", winner="S", loser="N", han=3, fu=40, honba=1, riichi_sticks=3),
    )
    assert res.payments == (0, 5500, 0, -5500)
    assert res.riichi_collected == 3000
    assert res.next_honba == 0
    assert not res.dealer_retains


def test_tsumo_can_exceed_ron_with_rounding():
    # Each payment rounded on its own [WRC 2015 §6.1]: 1 han 30 fu: tsumo 1 100 vs ron
    # 1 000; ORAN 4 han 30 fu 7 900 vs 7 700 [ORAN-1 scoring tables, note]
    nd, d = tsumo(ORAN, dealer_wins=False, han=1, fu=30)
    assert 2 * nd + d == 1100
    assert ron(ORAN, dealer_wins=False, han=1, fu=30) == 1000
    nd, d = tsumo(ORAN, dealer_wins=False, han=4, fu=30)
    assert 2 * nd + d == 7900
    assert ron(ORAN, dealer_wins=False, han=4, fu=30) == 7700


@pytest.mark.parametrize("honba", [0, 1, 4])
def test_counters_on_tsumo_and_ron(honba):
    # Counters: +300 per counter on a ron, +100 per payer on a tsumo [WRC 2015 §5.7.7, §6.1]
    assert ron(WRC, dealer_wins=False, han=1, fu=30, honba=honba) == 1000 + 300 * honba
    assert tsumo(WRC, dealer_wins=False, han=1, fu=30, honba=honba) == (
        300 + 100 * honba,
        500 + 100 * honba,
    )


# ---------------------------------------------------------------------------------------------
# docs/rules.md §6.1: impossible (han, fu) pairs

IMPOSSIBLE = [
    ("ron", 1, 20, "ron_20_fu"),  # §6.1 a
    ("ron", 2, 20, "ron_20_fu"),  # §6.1 a
    ("ron", 4, 20, "ron_20_fu"),  # §6.1 a
    ("tsumo", 1, 20, "tsumo_1_han_20_fu"),  # §6.1 b
    ("ron", 1, 25, "one_han_25_fu"),  # §6.1 c
    ("tsumo", 1, 25, "one_han_25_fu"),  # §6.1 c
    ("tsumo", 2, 25, "tsumo_2_han_25_fu"),  # §6.1 d
    ("ron", 2, 10, "fu_too_low"),  # §6.1 fu < 20 (WRC 2015 §6.3)
    ("tsumo", 2, 32, "fu_not_rounded"),  # §6.1 not a multiple of 10 (WRC 2015 §6.1)
    ("ron", 2, 35, "fu_not_rounded"),  # §6.1 not a multiple of 10 (WRC 2015 §6.1)
    ("ron", 0, 30, "han_too_low"),  # §6.1 han < 1 (WRC 2015 §6.1)
    ("ron", 3, None, "fu_missing"),  # fu needed below 5 han (WRC 2015 §6.1)
]


@pytest.mark.parametrize("rs", [WRC, ORAN, MS], ids=lambda r: r.key)
@pytest.mark.parametrize(("result", "han", "fu", "code"), IMPOSSIBLE)
def test_impossible_combinations_are_rejected(rs, result, han, fu, code):
    hand = Hand(
        result, dealer="E", winner="S", loser="W" if result == "ron" else None, han=han, fu=fu
    )
    with pytest.raises(RulesError) as info:
        score_hand(rs, hand)
    assert info.value.code == code
    assert info.value.field in ("han", "fu")


@pytest.mark.parametrize(
    ("result", "han", "fu"),
    [
        ("tsumo", 2, 20),  # pinfu tsumo: the only 20-fu hand (§6.1 a, b)
        ("ron", 2, 25),  # seven pairs ron (§6.1 c)
        ("tsumo", 3, 25),  # seven pairs tsumo (§6.1 d)
        ("ron", 4, 140),  # fu above 110 computed by formula (§6.1)
        ("ron", 5, None),  # fu ignored from 5 han (WRC 2015 §6.1)
    ],
)
def test_possible_edge_combinations_are_accepted(result, han, fu):
    hand = Hand(
        result, dealer="E", winner="S", loser="W" if result == "ron" else None, han=han, fu=fu
    )
    assert sum(score_hand(WRC, hand).payments) == 0


# ---------------------------------------------------------------------------------------------
# Pao, WRC 2015 §6.2


@pytest.mark.parametrize("honba", [0, 2])
def test_pao_tsumo_liable_pays_everything(honba):
    # WRC 2015 §6.2: non-dealer winner 32 000 + 300h from the liable player, others nothing
    res = score_hand(WRC, Hand("tsumo", dealer="E", winner="S", yakuman=1, pao="W", honba=honba))
    assert res.payments == (0, 32000 + 300 * honba, -(32000 + 300 * honba), 0)
    # dealer winner: 48 000 + 300h
    res = score_hand(WRC, Hand("tsumo", dealer="E", winner="E", yakuman=1, pao="N", honba=honba))
    assert res.payments == (48000 + 300 * honba, 0, 0, -(48000 + 300 * honba))


@pytest.mark.parametrize("honba", [0, 3])
def test_pao_ron_split_half_counters_on_discarder(honba):
    # WRC 2015 §6.2: discarder and liable each pay half (16 000 / 24 000); counters by discarder
    res = score_hand(
        WRC, Hand("ron", dealer="E", winner="S", loser="N", yakuman=1, pao="W", honba=honba)
    )
    assert res.payments == (0, 32000 + 300 * honba, -16000, -(16000 + 300 * honba))
    res = score_hand(
        WRC, Hand("ron", dealer="E", winner="E", loser="S", yakuman=1, pao="N", honba=honba)
    )
    assert res.payments == (48000 + 300 * honba, -(24000 + 300 * honba), 0, -24000)


def test_pao_liable_discarder_pays_all():
    # [A14]: the liable player discarded the winning tile: he pays the whole ron
    res = score_hand(
        WRC, Hand("ron", dealer="E", winner="S", loser="W", yakuman=1, pao="W", honba=1)
    )
    assert res.payments == (0, 32300, -32300, 0)


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        (Hand("ron", winner="S", loser="W", han=5, pao="N"), "pao_needs_yakuman"),
        (Hand("tsumo", winner="S", yakuman=1, pao="S"), "pao_is_winner"),
        (Hand("tsumo", winner="S", yakuman=1, pao="X"), "seat_unknown"),
    ],
)
def test_pao_errors(hand, code):
    # Pao exists only for yakuman (Big Three Dragons / Big Four Winds) [WRC 2015 §6.2]
    with pytest.raises(RulesError) as info:
        score_hand(WRC, hand)
    assert info.value.code == code
    assert info.value.field == "pao"


def test_pao_can_be_switched_off():
    rs = resolve_ruleset("mahjongsoul", {"pao": False})  # [A6] default is WRC's rule
    with pytest.raises(RulesError) as info:
        score_hand(rs, Hand("tsumo", winner="S", yakuman=1, pao="W"))
    assert info.value.code == "pao_not_in_ruleset"


# ---------------------------------------------------------------------------------------------
# Several rons on one discard: head bump [WRC 2015 §5.4.1, §5.7.6; ORAN-1 §2.1; A5]


@pytest.mark.parametrize(
    ("loser", "claimants", "winner"),
    [
        ("W", ["E", "S"], "E"),  # after W comes N, then E
        ("W", ["S", "N"], "N"),
        ("E", ["N", "W", "S"], "S"),
        ("N", ["W", "S"], "S"),
    ],
)
def test_head_bump(loser, claimants, winner):
    res = score_hand(WRC, Hand("ron", loser=loser, ron_claimants=tuple(claimants), han=1, fu=30))
    assert res.winner == winner


def test_head_bump_rejects_the_wrong_winner():
    with pytest.raises(RulesError) as info:
        score_hand(WRC, Hand("ron", loser="W", winner="S", ron_claimants=("E", "S"), han=1, fu=30))
    assert info.value.code == "ron_priority"
    assert info.value.params["winner"] == "E"


# ---------------------------------------------------------------------------------------------
# Exhaustive draw [WRC 2015 §5.7.2; Évriichi §18]

NOTEN = [
    ((), (0, 0, 0, 0)),  # 0 tenpai: nothing
    (("S",), (-1000, 3000, -1000, -1000)),  # 1 tenpai: 1 000 from each noten, 3 000 in
    (("E", "W"), (1500, -1500, 1500, -1500)),  # 2 tenpai: 1 500 each way
    (("E", "S", "N"), (1000, 1000, -3000, 1000)),  # 3 tenpai: the noten pays 3 000
    (("E", "S", "W", "N"), (0, 0, 0, 0)),  # 4 tenpai: nothing
]


@pytest.mark.parametrize("rs", [WRC, ORAN, MS], ids=lambda r: r.key)
@pytest.mark.parametrize(("tenpai", "expected"), NOTEN)
def test_noten_payments(rs, tenpai, expected):
    res = score_hand(rs, Hand("draw", dealer="E", tenpai=tenpai, honba=2, riichi_sticks=1))
    assert res.payments == expected
    assert res.next_honba == 3  # WRC 2015 §5.7.2: +1 after any draw
    assert res.dealer_retains == ("E" in tenpai)  # WRC 2015 §5.7.8
    assert res.riichi_sticks_after == 1  # WRC 2015 §5.7.4: deposits stay


def test_dead_hand_counts_noten():
    # A dead hand is noten [WRC 2015 §2.2, §7.1]
    res = score_hand(WRC, Hand("draw", dealer="S", tenpai=("S", "W"), dead_hand=("S",)))
    assert res.payments == (-1000, -1000, 3000, -1000)
    assert not res.dealer_retains
    assert tuple(noten_payments(WRC, [2])) == res.payments


def test_noten_riichi_is_a_chombo():
    # WRC 2015 §5.7.2, §7.1: noten riichi = chombo: no noten payments, no counter, replay
    res = score_hand(
        WRC,
        Hand("draw", dealer="E", tenpai=("E",), noten_riichi=("W",), honba=1, riichi=("W",)),
    )
    assert res.result == "chombo"
    assert res.chombo == ("W",)
    assert res.payments == (0, 0, 0, 0)
    assert res.next_honba == 1
    assert res.redeal
    assert res.penalty_points == (0, 0, -20, 0)  # [WRC 2015 §7.1]
    assert res.riichi_returned == ("W",)  # WRC 2015 §7.1; docs/rules.md §2.5


def test_noten_riichi_with_dead_hand_just_pays_noten():
    # WRC 2015 §7.2, the noten riichi exception: dead hand after riichi -> pays as noten
    res = score_hand(
        WRC, Hand("draw", dealer="E", tenpai=("E",), noten_riichi=("W",), dead_hand=("W",))
    )
    assert res.result == "draw"
    assert res.payments == (3000, -1000, -1000, -1000)


@pytest.mark.parametrize("rs", [WRC, ORAN], ids=lambda r: r.key)
def test_riichi_player_missing_from_the_draw_is_refused(rs):
    # A riichi player must show a tenpai hand [WRC 2015 §5.7.2; ORAN-1 §4.2.2]; W declared
    # riichi and is neither tenpai, noten riichi nor a dead hand: the sheet must say which.
    with pytest.raises(RulesError) as info:
        score_hand(rs, Hand("draw", dealer="E", tenpai=("S",), riichi=("W",)))
    assert (info.value.code, info.value.field) == ("riichi_hand_not_shown", "tenpai")
    assert "W declared riichi" in str(info.value)
    # Each of the three answers is accepted: tenpai (WRC 2015 §5.7.2: 1 500 each way), noten
    # riichi (chombo, WRC 2015 §7.1), dead hand (pays as noten, the WRC 2015 §7.2 exception).
    shown = score_hand(rs, Hand("draw", dealer="E", tenpai=("S", "W"), riichi=("W",)))
    assert shown.payments == (-1500, 1500, 1500, -1500)
    fault = Hand("draw", dealer="E", tenpai=("S",), riichi=("W",), noten_riichi=("W",))
    assert score_hand(rs, fault).chombo == ("W",)
    dead = Hand("draw", dealer="E", tenpai=("S",), riichi=("W",), dead_hand=("W",))
    assert score_hand(rs, dead).payments == (-1000, 3000, -1000, -1000)


# ---------------------------------------------------------------------------------------------
# Nagashi mangan [Évriichi adv. 1; ORAN-1 §4.4.10.6]; not in WRC


@pytest.mark.parametrize("rs", [ORAN, MS], ids=lambda r: r.key)
def test_nagashi(rs):
    # Dealer: 4 000 from each; non-dealer: 4 000 from the dealer, 2 000 from the others;
    # no counters [A15]
    res = score_hand(rs, Hand("nagashi", dealer="E", player="E", honba=2))
    assert res.payments == (12000, -4000, -4000, -4000)
    res = score_hand(rs, Hand("nagashi", dealer="E", player="W", tenpai=("E",), honba=2))
    assert res.payments == (-4000, -2000, 8000, -2000)
    assert res.dealer_retains
    assert res.next_honba == 3


@pytest.mark.parametrize("rs", [ORAN, MS], ids=lambda r: r.key)
def test_nagashi_overrides_the_riichi_check(rs):
    # Nagashi "overrides the tenpai/noten payments as well as any check for furiten
    # riichi" [ORAN-1 §4.4.10.6] (MS silent: the same); N's noten riichi is no chombo here.
    for noten_riichi in ((), ("N",)):
        res = score_hand(
            rs,
            Hand("nagashi", dealer="E", player="W", riichi=("N",), noten_riichi=noten_riichi),
        )
        assert (res.result, res.chombo) == ("nagashi", ())
        assert res.payments == (-4000, -2000, 8000, -2000)  # Évriichi adv. 1; ORAN-1 §4.4.10.6
        assert res.riichi_sticks_after == 1  # N's deposit stays on the table (WRC 2015 §5.7.4)


def test_nagashi_is_an_error_in_wrc():
    # docs/rules.md §1: not in the WRC rules (only winning hands are paid [WRC 2015 §6])
    with pytest.raises(RulesError) as info:
        score_hand(WRC, Hand("nagashi", player="W"))
    assert info.value.code == "nagashi_not_in_ruleset"


# ---------------------------------------------------------------------------------------------
# Chombo [WRC 2015 §7.1; ORAN-1 §3.1.4] and abortive draws [Évriichi adv. 3]


def test_wrc_chombo():
    # No payment, deposits of this hand back, no counter, same dealer, 20 penalty points
    res = score_hand(
        WRC,
        Hand("chombo", dealer="S", offender="N", riichi=("E", "W"), honba=2, riichi_sticks=1),
    )
    assert res.payments == (0, 0, 0, 0)
    assert res.riichi_returned == ("E", "W")
    assert res.riichi_sticks_after == 1
    assert res.penalty_points == (0, 0, 0, -20)
    assert res.table_penalty == (0, 0, 0, 0)
    assert res.redeal
    assert res.dealer_retains
    assert res.next_honba == 2


def test_oran_chombo_is_a_deferred_table_deduction():
    # ORAN: 10 000 table points taken off at the end [ORAN-1 §2.1, §3.1.4]
    res = score_hand(ORAN, Hand("chombo", dealer="E", offender="E"))
    assert res.table_penalty == (-10000, 0, 0, 0)
    assert res.penalty_points == (0, 0, 0, 0)
    assert res.dealer_retains  # dealer keeps the deal [ORAN-1 §3.1.4]


def test_abortive_draw_only_in_mahjongsoul():
    # [Évriichi adv. 3]: deal does not move, +1 counter; WRC has none [WRC 2015 §5.7.3]
    res = score_hand(MS, Hand("abortive", dealer="W", honba=1, riichi=("S",)))
    assert res.dealer_retains
    assert res.next_honba == 2
    assert res.riichi_sticks_after == 1
    with pytest.raises(RulesError) as info:
        score_hand(WRC, Hand("abortive"))
    assert info.value.code == "abortive_not_in_ruleset"


@pytest.mark.parametrize(
    ("hand", "code", "field"),
    [
        (Hand("win"), "result_unknown", "result"),
        (Hand("ron", winner="S", loser="S", han=1, fu=30), "winner_is_loser", "loser"),
        (Hand("ron", winner="S", han=1, fu=30), "seat_missing", "loser"),
        (Hand("tsumo", winner="S", loser="W", han=1, fu=30), "tsumo_with_loser", "loser"),
        (Hand("ron", winner="S", loser="W"), "han_missing", "han"),
        (
            Hand("ron", winner="S", loser="W", han=1, fu=30, honba=-1),
            "count_negative",
            "honba",
        ),
        (Hand("draw", tenpai=("E", "E")), "seat_repeated", "tenpai"),
    ],
)
def test_malformed_hands(hand, code, field):
    with pytest.raises(RulesError) as info:
        score_hand(WRC, hand)
    assert (info.value.code, info.value.field) == (code, field)


@pytest.mark.parametrize(
    ("hand", "key"),
    [
        (Hand("draw", winner="S"), "winner"),
        (Hand("chombo", offender="N", han=3), "han"),
        (Hand("tsumo", winner="S", han=1, fu=30, tenpai=("E",)), "tenpai"),
        (Hand("ron", winner="S", loser="W", han=1, fu=30, offender="N"), "offender"),
    ],
)
def test_keys_that_do_not_belong_to_the_result_are_rejected(hand, key):
    with pytest.raises(RulesError) as info:
        score_hand(WRC, hand)
    assert info.value.code == "key_not_applicable"
    assert info.value.field == key


@pytest.mark.parametrize(
    ("han", "fu", "key"),
    [(3, 40, "han"), (13, None, "han"), (None, 40, "fu")],
)
@pytest.mark.parametrize("result", ["ron", "tsumo"])
def test_han_or_fu_with_a_yakuman_is_rejected(result, han, fu, key):
    # docs/cli.md `hand`: a yakuman count replaces han and fu; both written is a slip, never paid
    # silently as one of them.
    loser = "W" if result == "ron" else None
    hand = Hand(result, winner="S", loser=loser, han=han, fu=fu, yakuman=1)
    with pytest.raises(RulesError) as info:
        score_hand(WRC, hand)
    assert (info.value.code, info.value.field) == ("yakuman_with_han_fu", key)
    assert info.value.params == {"key": key, "yakuman": 1}


def test_a_hand_without_its_state_is_scored_as_the_first_hand_of_a_game():
    # docs/cli.md `hand`: dealer "E", honba 0 and riichi_sticks 0 when not written. Non-dealer
    # ron 3 han 30 fu: 3 900 [EMA 2012 sheet].
    alone = Hand("ron", winner="S", loser="W", han=3, fu=30)
    first = Hand("ron", winner="S", loser="W", han=3, fu=30, dealer="E", honba=0, riichi_sticks=0)
    assert score_hand(WRC, alone) == score_hand(WRC, first)
    assert score_hand(WRC, alone).payments == (0, 3900, -3900, 0)
