"""Several winners on one discard, on the Django side: the engine's new refusals in English and
French, and the EMA rule sets offered to a tournament."""

import pytest
from django.utils import translation

from scoring.messages import message_for
from scoring.rules import RULESETS, Hand, RulesError, Win, score_hand
from tournament.models import RULESET_CHOICES


def _refusal(rs_key: str, hand: Hand) -> RulesError:
    with pytest.raises(RulesError) as info:
        score_hand(RULESETS[rs_key], hand)
    return info.value


TWO_WINNERS = Hand("ron", loser="W", wins=(Win("N", han=2, fu=30), Win("S", han=1, fu=30)))


@pytest.mark.parametrize(
    ("rs_key", "hand", "language", "expected"),
    [
        # WRC 2015 §5.7.6: head bump
        ("wrc2015", TWO_WINNERS, "en", "only the player first in turn order"),
        ("wrc2015", TWO_WINNERS, "fr", "seul le premier joueur dans l'ordre du tour"),
        # EMA 2016 §3.4.9: every claimant wins
        (
            "ema2016",
            Hand("ron", winner="N", loser="W", han=1, fu=30, ron_claimants=("N", "S")),
            "fr",
            "tous les joueurs qui ont annoncé ron",
        ),
        ("ema2016", Hand("ron", winner="N", loser="W", wins=TWO_WINNERS.wins), "fr", "un par un"),
    ],
)
def test_multiple_ron_refusals_are_said_in_the_readers_language(rs_key, hand, language, expected):
    error = _refusal(rs_key, hand)
    with translation.override(language):
        assert expected in message_for(error)


def test_three_rons_under_double_ron_name_the_limit_in_french():
    error = RulesError("ron_too_many_winners", "…", field="wins", count=3, max=2)
    with translation.override("fr"):
        assert message_for(error).startswith("Avec ces règles, 2 joueurs au plus gagnent")


def test_a_tournament_may_choose_the_ema_rule_sets():
    keys = [key for key, _label in RULESET_CHOICES]
    assert {"ema2016", "ema2025"} <= set(keys)
    assert set(keys) == set(RULESETS)
    with translation.override("fr"):
        labels = dict(RULESET_CHOICES)
        assert str(labels["ema2016"]) == "Règles de compétition riichi de l'EMA 2016"
