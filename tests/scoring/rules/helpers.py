"""Small factories shared by the rules-engine tests (no Django)."""

from __future__ import annotations

from scoring.rules import RULESETS, Hand, RuleSet, score_hand

WRC = RULESETS["wrc2015"]
ORAN = RULESETS["oran2015"]
MS = RULESETS["mahjongsoul"]


def ron(rs: RuleSet, *, dealer_wins: bool, han=None, fu=None, yakuman=0, honba=0) -> int:
    """What the discarder pays (E deals; the winner is E or S, W discards)."""
    winner = "E" if dealer_wins else "S"
    res = score_hand(
        rs,
        Hand(
            "ron",
            dealer="E",
            winner=winner,
            loser="W",
            han=han,
            fu=fu,
            yakuman=yakuman,
            honba=honba,
        ),
    )
    return -res.payments[2]


def tsumo(rs: RuleSet, *, dealer_wins: bool, han=None, fu=None, yakuman=0, honba=0):
    """Dealer tsumo: what each pays. Non-dealer tsumo: (each non-dealer, the dealer)."""
    if dealer_wins:
        res = score_hand(
            rs,
            Hand("tsumo", dealer="E", winner="E", han=han, fu=fu, yakuman=yakuman, honba=honba),
        )
        assert res.payments[1] == res.payments[2] == res.payments[3]
        return -res.payments[1]
    res = score_hand(
        rs, Hand("tsumo", dealer="E", winner="S", han=han, fu=fu, yakuman=yakuman, honba=honba)
    )
    assert res.payments[2] == res.payments[3]
    return (-res.payments[2], -res.payments[0])
