"""The value of one winning hand: base points and limit name from han and fu, or a yakuman.

Checks the (han, fu) pairs that cannot happen (docs/rules.md §6.1) and turns a possible one
into base points *b* and a limit name (WRC 2015 §6.1), kiriage and counted yakuman as the rule
set says. The engine does not read tiles: han and fu come counted. It also holds one
winner's hand and takings when several players win on one discard (:class:`Win`,
:class:`WinResult`).

Not here: who pays what (:mod:`scoring.rules.hands`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .bounds import FU_MAX, HAN_MAX, too_high
from .errors import RulesError
from .rulesets import RuleSet

__all__ = ["MANGAN", "YAKUMAN", "Win", "WinResult", "base_points", "ceil100", "check_han_fu"]


@dataclass(frozen=True)
class Win:
    """One winner's hand when several players win on one discard (``Hand.wins``).

    ``han``/``fu`` or ``yakuman`` as for a single winner; ``pao`` the seat liable for this
    winner's Big Three Dragons or Big Four Winds.
    """

    winner: str | None = None
    han: int | None = None
    fu: int | None = None
    yakuman: int = 0
    pao: str | None = None


@dataclass(frozen=True)
class WinResult:
    """What one of several winners on one discard gets.

    ``received``: the table points the discarder (and a liable player) pay this winner,
    counters included; ``riichi_collected``: the deposits this winner takes from the table.
    """

    winner: str
    limit: str | None
    base_points: int
    han: int | None
    fu: int | None
    yakuman: int
    received: int
    riichi_collected: int


# Limits from 5 han: (lowest han, name, base points) [WRC 2015 §6.1; ORAN-1 §5.6; Évriichi §18;
# EMA 2012 sheet]
_LIMITS = ((11, "sanbaiman", 6000), (8, "baiman", 4000), (6, "haneman", 3000), (5, "mangan", 2000))
MANGAN = 2000  # cap of the formula [WRC 2015 §6.1; ORAN-1 §4.3.4]
YAKUMAN = 8000  # [WRC 2015 §6.1; Évriichi §18]
KIRIAGE_FROM = 1920  # 30 fu 4 han / 60 fu 3 han, rounded to mangan in WRC [WRC 2015 §6.1]


def ceil100(x: int) -> int:
    """Round up to the next multiple of 100 [WRC 2015 §6.1].

    >>> ceil100(3840), ceil100(3900), ceil100(0)
    (3900, 3900, 0)
    """
    return -(-x // 100) * 100


def check_han_fu(han: int, fu: int | None, result: str) -> None:
    """Reject the (han, fu) pairs that cannot happen (docs/rules.md §6.1).

    >>> check_han_fu(2, 25, "ron")
    >>> try:
    ...     check_han_fu(1, 20, "tsumo")
    ... except RulesError as e:
    ...     print(e.code)
    tsumo_1_han_20_fu
    """
    if not isinstance(han, int) or isinstance(han, bool):
        raise RulesError("han_type", "Han must be a whole number.", field="han", han=han)
    if han < 1:
        raise RulesError(
            "han_too_low",
            f"A winning hand has at least 1 han (one yaku); got {han}.",
            field="han",
            han=han,
        )
    if above := too_high(han, HAN_MAX, "han"):
        raise above
    if han >= 5:
        return  # fu are ignored from 5 han [WRC 2015 §6.1]
    if fu is None:
        raise RulesError("fu_missing", f"A {han}-han hand needs its fu.", field="fu", han=han)
    if not isinstance(fu, int) or isinstance(fu, bool):
        raise RulesError("fu_type", "Fu must be a whole number.", field="fu", fu=fu)
    if fu < 20:
        raise RulesError(
            "fu_too_low", f"Every win has at least 20 fu; got {fu}.", field="fu", fu=fu
        )
    if above := too_high(fu, FU_MAX, "fu"):
        raise above
    if fu != 25 and fu % 10:
        raise RulesError(
            "fu_not_rounded",
            f"Fu are rounded up to a multiple of 10 (only seven pairs has 25); got {fu}.",
            field="fu",
            fu=fu,
        )
    if fu == 20 and result == "ron":
        raise RulesError(
            "ron_20_fu",
            "A ron cannot have 20 fu: a closed ron gets +10 and an open hand at least 30.",
            field="fu",
            han=han,
            fu=fu,
        )
    if fu == 20 and han == 1 and result == "tsumo":
        raise RulesError(
            "tsumo_1_han_20_fu",
            "1 han 20 fu by tsumo cannot happen: a 20-fu (pinfu) tsumo also has menzen "
            "tsumo, so at least 2 han.",
            field="han",
            han=han,
            fu=fu,
        )
    if fu == 25 and han == 1:
        raise RulesError(
            "one_han_25_fu",
            "1 han 25 fu cannot happen: 25 fu is seven pairs only, itself 2 han.",
            field="han",
            han=han,
            fu=fu,
        )
    if fu == 25 and han == 2 and result == "tsumo":
        raise RulesError(
            "tsumo_2_han_25_fu",
            "2 han 25 fu by tsumo cannot happen: seven pairs by tsumo also has menzen "
            "tsumo, so at least 3 han.",
            field="han",
            han=han,
            fu=fu,
        )


def base_points(
    ruleset: RuleSet, han: int | None = None, fu: int | None = None, yakuman: int = 0
) -> tuple[int, str | None]:
    """Base points *b* and limit name of a hand (WRC 2015 §6.1). Does not validate.

    >>> wrc, oran = _builtin("wrc2015"), _builtin("oran2015")
    >>> base_points(wrc, 4, 30), base_points(oran, 4, 30)
    ((2000, 'mangan'), (1920, None))
    >>> base_points(wrc, 13, None), base_points(wrc, yakuman=2)
    ((6000, 'sanbaiman'), (8000, 'yakuman'))
    """
    if yakuman:
        units = yakuman if ruleset.multiple_yakuman else 1
        return YAKUMAN * units, "yakuman"
    assert han is not None
    if han >= 13 and ruleset.counted_yakuman:
        return YAKUMAN, "yakuman"
    for low, name, value in _LIMITS:
        if han >= low:
            return value, name
    assert fu is not None
    b = fu * 2 ** (han + 2)
    if b >= MANGAN or (ruleset.kiriage and b == KIRIAGE_FROM):
        return MANGAN, "mangan"
    return b, None


def _builtin(key: str) -> RuleSet:
    from .rulesets import RULESETS

    return RULESETS[key]
