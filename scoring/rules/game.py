"""Hand-by-hand replay of a hanchan (the CLI ``game``).

From the list of hands on a sheet, derive for every hand the round (E1 … S4, W1 … where the
rule set has a West round), the dealer, the counters (honba), the riichi sticks on the table
and the points after the hand; apply dealer rotation (the dealer keeps the deal on a win,
also as one of several winners on one discard [EMA 2016 §3.4.9], or when tenpai at a draw
[WRC 2015 §5.7.8]), chombo (replayed, same dealer and counters, this hand's deposits returned
[WRC 2015 §7.1]) and the end of the game (after S4 [WRC 2015
§5.9]; at a negative score where the rule set says so [ORAN-1 §3.1.7; Évriichi §19];
Évriichi's S4 stop and West round).

A sheet that stops before the end is valid (``ended`` is ``None``); a hand after the end or
an impossible hand raises a :class:`~scoring.rules.errors.RulesError` whose ``field`` names
the hand (``"hands[5]"``, ``"hands[5].fu"``).

Invariant: Σ points + 1 000 × sticks on the table = 4 × start points after every hand.
Not here: the value of one hand (:mod:`scoring.rules.hands`), the sheet's uma
(:mod:`scoring.rules.hanchan`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RulesError, RulesFatalError
from .hands import RIICHI_DEPOSIT, SEATS, STATE_KEYS, Hand, HandResult, score_hand
from .rulesets import RuleSet

__all__ = ["HandRecord", "GameResult", "replay_game", "round_name"]

EAST_SOUTH = 8  # E1..E4, S1..S4 [WRC 2015 §2.3, §5.1]
WEST_END = 12  # W4 is the last hand of a West round [A10]


def round_name(index: int) -> str:
    """``0`` → ``"E1"`` … ``7`` → ``"S4"``, ``8`` → ``"W1"``.

    >>> [round_name(i) for i in (0, 3, 4, 7, 8)]
    ['E1', 'E4', 'S1', 'S4', 'W1']
    """
    return f"{SEATS[index // 4]}{index % 4 + 1}"


@dataclass(frozen=True)
class HandRecord:
    """A replayed hand: the state before it, what it paid, the state after it.

    ``payments`` exclude riichi deposits (they sum to zero); ``deltas`` are the full change
    of each seat's points (deposits paid and collected included).
    """

    index: int
    round: str
    dealer: str
    honba: int
    riichi_sticks_before: int
    result: HandResult
    deltas: tuple[int, ...]  # one per seat, E, S, W, N (as every per-seat tuple here)
    points_after: tuple[int, ...]
    riichi_sticks_after: int
    ended: str | None


@dataclass(frozen=True)
class GameResult:
    """State at the end of the sheet, ready for :func:`scoring.rules.score_hanchan`.

    ``ended``: ``"south4"``, ``"bust"``, ``"south4_stop"`` (Évriichi's S4 stop), ``"west"``
    (somebody reached the target in the West round), ``"west4"`` (end of W4 [A10]),
    ``"time_limit"`` (a hand marked ``time_up`` [WRC 2015 §8.2]) or
    ``None`` when the sheet stops before the end. ``chombo`` counts per seat (E, S, W, N);
    ``penalty_points`` the chombo penalty points per seat.
    """

    hands: tuple[HandRecord, ...]
    final_points: tuple[int, ...]
    riichi_sticks_left: int
    ended: str | None
    chombo: tuple[int, ...]
    penalty_points: tuple[int, ...]
    next_round: str | None
    next_dealer: str | None
    next_honba: int


def _prefix(exc: RulesError, i: int) -> RulesError:
    return exc.with_field_prefix(f"hands[{i}]")


def replay_game(ruleset: RuleSet, hands: Sequence[Hand]) -> GameResult:
    """Replay ``hands`` from E1 under ``ruleset``.

    Each hand's state (dealer, counters, sticks on the table) comes from the hands before it;
    a state field the sheet writes is checked against it (code ``hand_state_mismatch``).

    >>> from scoring.rules.rulesets import RULESETS
    >>> g = replay_game(RULESETS["wrc2015"], [Hand("ron", winner="S", loser="W",
    ...     han=3, fu=30)])
    >>> g.final_points, g.next_round, g.next_dealer
    ((30000, 33900, 26100, 30000), 'E2', 'S')
    """
    points = [ruleset.start_points] * 4
    round_index = 0
    honba = 0
    sticks = 0
    chombo = [0, 0, 0, 0]
    penalty = [0, 0, 0, 0]
    ended: str | None = None
    records: list[HandRecord] = []
    for i, gh in enumerate(hands):
        if ended is not None:
            raise RulesError(
                "hand_after_end",
                f"Hand {i + 1} comes after the end of the game ({ended}, after hand {i}); "
                "remove it or correct the hands before it.",
                field=f"hands[{i}]",
                index=i,
                ended=ended,
            )
        dealer = round_index % 4
        played_round = round_name(round_index)
        try:
            if not isinstance(gh, Hand):
                raise RulesFatalError("hands must be Hand objects")
            declared = [SEATS.index(s) for s in gh.riichi if s in SEATS]
            if ruleset.riichi_min_points is not None:
                for s in declared:
                    if points[s] < ruleset.riichi_min_points:
                        raise RulesError(
                            "riichi_cannot_pay",
                            f"{SEATS[s]} has {points[s]:,} points and cannot declare riichi: "
                            f"it needs at least {ruleset.riichi_min_points:,}.",
                            field="riichi",
                            seat=SEATS[s],
                            points=points[s],
                            min=ruleset.riichi_min_points,
                        )
            for s in gh.noten_riichi:
                if s in SEATS and s not in gh.riichi:
                    # On a game sheet the hand's riichi declarers are known.
                    raise RulesError(
                        "noten_riichi_without_riichi",
                        f"{s} is ticked as a noten riichi but did not declare riichi in this "
                        "hand: tick the riichi too, or clear the noten riichi.",
                        field="noten_riichi",
                        seat=s,
                    )
            state = {"dealer": SEATS[dealer], "honba": honba, "riichi_sticks": sticks}
            for key in STATE_KEYS:
                written = getattr(gh, key)
                if written is not None and written != state[key]:
                    raise RulesError(
                        "hand_state_mismatch",
                        f"The sheet gives {key} = {written!r} for hand {i + 1}, but the hands "
                        f"before it give {state[key]!r}.",
                        field=key,
                        key=key,
                        written=written,
                        expected=state[key],
                    )
            hand = dataclasses.replace(gh, **state)
            res = score_hand(ruleset, hand)
        except RulesError as exc:
            raise _prefix(exc, i) from None
        deltas = list(res.payments)
        if res.result != "chombo":
            for s in declared:
                deltas[s] -= RIICHI_DEPOSIT
            for win in res.wins:  # several winners on one discard: each one's takings
                deltas[SEATS.index(win.winner)] += win.riichi_collected
            if res.result in ("ron", "tsumo") and not res.wins:
                deltas[SEATS.index(str(res.winner))] += res.riichi_collected
        for p in range(4):
            points[p] += deltas[p]
            chombo[p] += 1 if SEATS[p] in res.chombo else 0
            penalty[p] += res.penalty_points[p]
        before = sticks
        sticks = res.riichi_sticks_after
        if sum(points) + RIICHI_DEPOSIT * sticks != 4 * ruleset.start_points:
            raise RulesFatalError(f"points not conserved after hand {i}")
        honba = res.next_honba
        if not res.dealer_retains:
            round_index += 1
        if res.result != "chombo":
            ended = _end(ruleset, points, round_index, res, dealer)
        if gh.time_up and ended is None:
            ended = "time_limit"  # finish the hand in play, nothing after it [WRC 2015 §8.2]
        records.append(
            HandRecord(
                index=i,
                round=played_round,
                dealer=SEATS[dealer],
                honba=hand.honba,
                riichi_sticks_before=before,
                result=res,
                deltas=tuple(deltas),
                points_after=tuple(points),
                riichi_sticks_after=sticks,
                ended=ended,
            )
        )
    return GameResult(
        hands=tuple(records),
        final_points=tuple(points),
        riichi_sticks_left=sticks,
        ended=ended,
        chombo=tuple(chombo),
        penalty_points=tuple(penalty),
        next_round=None if ended else round_name(round_index),
        next_dealer=None if ended else SEATS[round_index % 4],
        next_honba=honba,
    )


def _first(points: Sequence[int]) -> int:
    """Seat in 1st place, ties broken by initial seat order (docs/rules.md §2.4)."""
    return min(range(4), key=lambda s: (-points[s], s))


def _end(
    ruleset: RuleSet, points: Sequence[int], next_round: int, res: HandResult, dealer: int
) -> str | None:
    """How the game ended after this hand, or ``None`` if it goes on."""
    if ruleset.bust_ends_game and min(points) < 0:
        return "bust"  # strictly negative [ORAN-1 §3.1.2, §3.1.7; Évriichi §7, §19]
    played = next_round - (0 if res.dealer_retains else 1)  # round of the hand just played
    if played == EAST_SOUTH - 1 and res.dealer_retains:
        stop = ruleset.south4_stop_points
        if stop is not None and _first(points) == dealer and points[dealer] >= stop:
            return "south4_stop"  # [Évriichi §19; C23: "at least"]
    target = ruleset.west_extension_points
    if played >= EAST_SOUTH and target is not None and max(points) >= target:
        return "west"  # stops as soon as somebody has the target [Évriichi §19; C23]
    if next_round == EAST_SOUTH:
        if target is not None and max(points) < target:
            return None  # nobody at the target: West round [Évriichi §19]
        return "south4"  # [WRC 2015 §5.8, §5.9; ORAN-1 §3.1.7]
    if next_round >= WEST_END:
        return "west4"  # not stated after W4: end of game [A10]
    return None
