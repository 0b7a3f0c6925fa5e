"""Value and payments of one hand: wins, exhaustive draws, nagashi, abortive draws, chombo.

Input is a :class:`Hand`, the one description of a hand (a game replay reads the same): the
already-counted han and (rounded) fu, or a yakuman count; the engine does not read tiles. It
turns them into base points and a limit name (WRC 2015 §6.1), rejects the impossible (han,
fu) pairs of docs/rules.md §6.1 with a reason, and pays the hand (docs/rules.md §4, §5): ron,
tsumo by dealer or non-dealer, counters (honba), riichi deposits, pao (WRC 2015 §6.2), noten
payments, nagashi mangan, chombo. It also says what happens next: does the dealer keep the
deal, how many counters the next hand has, is the hand replayed.

Seats are named by their starting wind ``"E" "S" "W" "N"``; payments are tuples in that
order. Payments never include riichi deposits: the deposits collected by the winner are
reported separately (``riichi_collected``), so ``sum(payments) == 0`` always.

Not here: the state of a whole game (:mod:`scoring.rules.game`), the score sheet
(:mod:`scoring.rules.hanchan`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, fields
from typing import Any

from .bounds import YAKUMAN_MAX, sticks_limit, too_high
from .errors import RulesError, RulesFatalError
from .rulesets import RuleSet
from .value import MANGAN, Win, WinResult, base_points, ceil100, check_han_fu

__all__ = [
    "SEATS",
    "RESULTS",
    "STATE_KEYS",
    "Hand",
    "HandResult",
    "Win",
    "WinResult",
    "base_points",
    "check_han_fu",
    "ceil100",
    "noten_payments",
    "score_hand",
]

#: Seats by starting wind, in table order (turn order is E -> S -> W -> N).
SEATS: tuple[str, str, str, str] = ("E", "S", "W", "N")
#: Kinds of hand results.
RESULTS = ("ron", "tsumo", "draw", "nagashi", "chombo", "abortive")

RIICHI_DEPOSIT = 1000  # one stick [WRC 2015 §6.5.1; ORAN-1 §4.4.8.1; Évriichi §16]

_SEAT_ROLES = {
    "winner": "the winner",
    "loser": "the discarder",
    "offender": "the seat that made the chombo",
    "player": "the nagashi mangan player",
}


def _seat_index(value: object, fld: str) -> int:
    if value is None:
        role = _SEAT_ROLES.get(fld, fld)
        raise RulesError(
            "seat_missing", f"This result needs {role}: fill in '{fld}'.", field=fld, key=fld
        )
    if value not in SEATS:
        raise RulesError(
            "seat_unknown",
            f"{value!r} is not a seat; use one of E, S, W, N (the starting winds).",
            field=fld,
            value=value,
        )
    return SEATS.index(str(value))


def _seat_set(values: Sequence[str], fld: str) -> tuple[int, ...]:
    idx = tuple(_seat_index(v, f"{fld}[{i}]") for i, v in enumerate(values))
    if len(set(idx)) != len(idx):
        raise RulesError("seat_repeated", "A seat is listed twice.", field=fld, seats=list(values))
    return idx


def noten_payments(ruleset: RuleSet, tenpai: Sequence[int]) -> tuple[int, ...]:
    """Noten payments at an exhaustive draw (WRC 2015 §5.7.2).

    >>> from scoring.rules.rulesets import RULESETS
    >>> noten_payments(RULESETS["wrc2015"], [0])
    (3000, -1000, -1000, -1000)
    >>> noten_payments(RULESETS["wrc2015"], [0, 3])
    (1500, -1500, -1500, 1500)
    """
    t = len(set(tenpai))
    if t in (0, 4):
        return (0, 0, 0, 0)
    total = ruleset.noten_total
    gain, loss = total // t, total // (4 - t)
    return tuple(gain if i in tenpai else -loss for i in range(4))


#: The state of the table before a hand: derived by a game replay, written for a lone hand.
STATE_KEYS = ("dealer", "honba", "riichi_sticks")


@dataclass(frozen=True)
class Hand:
    """One hand as written on a sheet: its result, the seats it names, its value.

    The one description of a hand for :func:`score_hand` (CLI ``hand``), for
    :func:`~scoring.rules.game.replay_game` (CLI ``game``) and for the score sheets the web
    stores. ``riichi`` are the seats that declared riichi in this hand (their deposit goes on
    the table); ``yakuman`` (a count) replaces han/fu; ``player`` is a nagashi mangan's seat;
    ``wins`` replaces ``winner``/``han``/``fu``/``yakuman``/``pao`` when several players win on
    one discard (a rule set whose ``multiple_ron`` is not ``head_bump``).
    :data:`APPLICABLE_KEYS` says which keys each result reads. See docs/cli.md for the rest.

    The state before the hand, ``dealer``, ``honba`` and ``riichi_sticks`` (the deposits
    already on the table), is ``None`` where it is not written: a lone hand then has East
    dealing, no counter and no stick; a game replay derives it and checks any value written
    against the replay. ``time_up`` marks a game's last hand at the time limit.

    Every field but ``result`` is keyword-only, so a field can be added without moving any
    caller's arguments.
    """

    result: str
    _: KW_ONLY
    winner: str | None = None
    loser: str | None = None
    han: int | None = None
    fu: int | None = None
    yakuman: int = 0
    pao: str | None = None
    tenpai: tuple[str, ...] = ()
    player: str | None = None
    offender: str | None = None
    riichi: tuple[str, ...] = ()
    ron_claimants: tuple[str, ...] = ()
    dead_hand: tuple[str, ...] = ()
    noten_riichi: tuple[str, ...] = ()
    wins: tuple[Win, ...] = ()
    dealer: str | None = None
    honba: int | None = None
    riichi_sticks: int | None = None
    time_up: bool = False


@dataclass(frozen=True)
class HandResult:
    """What a hand pays and what comes next.

    ``payments`` (E, S, W, N) sum to zero and exclude riichi deposits. ``riichi_collected``
    is what the winner takes from the table (deposits of earlier hands and of this one);
    ``riichi_returned`` the seats whose deposit of this hand goes back (chombo).
    ``penalty_points`` (tournament points, <= 0) and ``table_penalty`` (table points
    deducted on the sheet at the end, <= 0) record a chombo as the rule set defines it.
    ``riichi_sticks_after`` is what stays on the table for the next hand. With several
    winners on one discard, ``wins`` holds each one's value and takings, ``winner`` is the one
    nearest the discarder in turn order, and ``limit``…``yakuman`` are ``None``/0.
    """

    result: str
    winner: str | None
    limit: str | None
    base_points: int | None
    han: int | None
    fu: int | None
    yakuman: int
    payments: tuple[int, ...]  # one per seat, E, S, W, N (as every per-seat tuple here)
    riichi_collected: int
    riichi_returned: tuple[str, ...]
    chombo: tuple[str, ...]
    penalty_points: tuple[int, ...]
    table_penalty: tuple[int, ...]
    redeal: bool
    dealer_retains: bool
    next_honba: int
    riichi_sticks_after: int
    wins: tuple[WinResult, ...] = ()

    def payments_by_seat(self) -> dict[str, int]:
        return dict(zip(SEATS, self.payments, strict=True))


def _count(value: object, fld: str, high: int | None = None) -> int:
    """A count of the hand, whole, from 0 (to ``high``: :mod:`.bounds`)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RulesError(
            "count_negative",
            f"'{fld}' must be a whole number, zero or more; got {value!r}.",
            field=fld,
            value=value,
        )
    if high is not None and (above := too_high(value, high, fld)):
        raise above
    return value


# Keys that mean something for each kind of result (the state keys always apply).
APPLICABLE_KEYS: dict[str, set[str]] = {
    "ron": {"winner", "loser", "han", "fu", "yakuman", "pao", "ron_claimants", "riichi", "wins"},
    "tsumo": {"winner", "loser", "han", "fu", "yakuman", "pao", "riichi"},
    "draw": {"tenpai", "dead_hand", "noten_riichi", "riichi"},
    "nagashi": {"player", "tenpai", "dead_hand", "noten_riichi", "riichi"},
    "chombo": {"offender", "riichi"},
    "abortive": {"riichi"},
}
# The keys that mean something for some results only, in the order they are checked.
_RESULT_KEYS = tuple(
    f.name for f in fields(Hand) if f.name not in ("result", *STATE_KEYS, "time_up")
)


def _check_applicable(hand: Hand) -> None:
    """A key filled in for a result it does not belong to is a slip on the sheet (a draw
    with a winner, a chombo with han…): say so rather than silently ignore it."""
    allowed = APPLICABLE_KEYS[hand.result]
    for name in _RESULT_KEYS:
        value = getattr(hand, name)
        if name not in allowed and value not in (None, (), [], 0):
            raise RulesError(
                "key_not_applicable",
                f"'{name}' does not apply to a {hand.result}; remove it or change the result.",
                field=name,
                key=name,
                result=hand.result,
            )


def score_hand(ruleset: RuleSet, hand: Hand) -> HandResult:
    """Pay one hand under ``ruleset``; raise :class:`RulesError` if it cannot happen.

    docs/rules.md §4.2: 2 han 30 fu, dealer tsumo, 3 counters, 2 sticks -> 1 300 from each.

    >>> from scoring.rules.rulesets import RULESETS
    >>> r = score_hand(RULESETS["wrc2015"], Hand("tsumo", dealer="E", winner="E",
    ...     han=2, fu=30, honba=3, riichi_sticks=2))
    >>> r.payments, r.riichi_collected
    ((3900, -1300, -1300, -1300), 2000)
    """
    if hand.result not in RESULTS:
        raise RulesError(
            "result_unknown",
            f"Unknown result {hand.result!r}; use one of {', '.join(RESULTS)}.",
            field="result",
            value=hand.result,
        )
    _check_applicable(hand)
    # State not written: a lone hand is the first of a game (East deals, no counter, no stick).
    dealer = _seat_index("E" if hand.dealer is None else hand.dealer, "dealer")
    # Counters are the replay's, or written for a lone hand: no one types them on a sheet.
    honba = _count(0 if hand.honba is None else hand.honba, "honba")
    sticks = _count(
        0 if hand.riichi_sticks is None else hand.riichi_sticks,
        "riichi_sticks",
        sticks_limit(ruleset),
    )
    riichi = _seat_set(hand.riichi, "riichi")
    on_table = sticks + len(riichi)
    ctx = _Ctx(ruleset, hand, dealer, honba, sticks, riichi, on_table)
    if hand.result in ("ron", "tsumo"):
        result = ctx.win()
    elif hand.result == "chombo":
        offender = _seat_index(hand.offender, "offender")
        result = ctx.chombo((offender,))
    elif hand.result == "abortive":
        if not ruleset.abortive_draws:
            raise RulesError(
                "abortive_not_in_ruleset",
                f"The rule set {ruleset.key} has no abortive draws.",
                field="result",
                ruleset=ruleset.key,
            )
        result = ctx.no_payment(dealer_retains=True, next_honba=honba + 1)
    else:
        result = ctx.draw()
    if sum(result.payments) != 0 or any(p % 100 for p in result.payments):
        raise RulesFatalError(f"unbalanced payments {result.payments}")
    return result


@dataclass(frozen=True)
class _Paid:
    """One winning hand's value and what it pays, before the deposits."""

    payments: tuple[int, ...]
    base_points: int
    limit: str | None
    han: int | None
    fu: int | None
    yakuman: int


@dataclass
class _Ctx:
    rs: RuleSet
    hand: Hand
    dealer: int
    honba: int
    sticks: int
    riichi: tuple[int, ...]
    on_table: int

    def _result(self, **kw: object) -> HandResult:
        base: dict[str, Any] = {
            "result": self.hand.result,
            "winner": None,
            "limit": None,
            "base_points": None,
            "han": None,
            "fu": None,
            "yakuman": 0,
            "payments": (0, 0, 0, 0),
            "riichi_collected": 0,
            "riichi_returned": (),
            "chombo": (),
            "penalty_points": (0, 0, 0, 0),
            "table_penalty": (0, 0, 0, 0),
            "redeal": False,
            "dealer_retains": False,
            "next_honba": self.honba,
            "riichi_sticks_after": self.on_table,
        }
        base.update(kw)
        return HandResult(**base)

    # -- wins -------------------------------------------------------------------------------
    def win(self) -> HandResult:
        h = self.hand
        tsumo = h.result == "tsumo"
        loser = None
        if not tsumo:
            loser = _seat_index(h.loser, "loser")
        elif h.loser is not None:
            raise RulesError(
                "tsumo_with_loser",
                "A tsumo has no discarder: leave 'loser' empty.",
                field="loser",
            )
        if h.wins:
            assert loser is not None  # wins apply to a ron only (APPLICABLE_KEYS)
            return self._several(loser)
        winner = self._winner(loser)
        one = self._pay(winner, loser, Win(None, h.han, h.fu, h.yakuman, h.pao))
        win_dealer = winner == self.dealer
        return self._result(
            winner=SEATS[winner],
            limit=one.limit,
            base_points=one.base_points,
            han=one.han,
            fu=one.fu,
            yakuman=one.yakuman,
            payments=one.payments,
            riichi_collected=RIICHI_DEPOSIT * self.on_table,
            dealer_retains=win_dealer,
            next_honba=self.honba + 1 if win_dealer else 0,
            riichi_sticks_after=0,
        )

    def _pay(self, winner: int, loser: int | None, w: Win) -> _Paid:
        """One winner's hand valued and paid (counters included), by the discarder on a ron."""
        rs = self.rs
        if winner == loser:
            raise RulesError(
                "winner_is_loser",
                "The winner cannot win on their own discard.",
                field="loser",
                seat=SEATS[winner],
            )
        yakuman = _count(w.yakuman, "yakuman", YAKUMAN_MAX)
        han, fu = w.han, w.fu
        if yakuman:
            # A yakuman count replaces han/fu (docs/cli.md): both written is a slip on the sheet,
            # so say so rather than pay one of them silently.
            for key, value in (("han", han), ("fu", fu)):
                if value is not None:
                    raise RulesError(
                        "yakuman_with_han_fu",
                        f"A yakuman replaces han and fu: clear '{key}' or the yakuman count.",
                        field=key,
                        key=key,
                        yakuman=yakuman,
                    )
        else:
            if han is None:
                raise RulesError(
                    "han_missing", "A win needs its han (or a yakuman count).", field="han"
                )
            check_han_fu(han, fu, self.hand.result)
            if han >= 5:
                fu = None
        b, limit = base_points(rs, han, fu, yakuman)
        if yakuman and rs.multiple_yakuman:
            yakuman_paid = yakuman
        else:
            yakuman_paid = 1 if yakuman else 0
        pao = self._pao(w.pao, yakuman, winner)
        payments = [0, 0, 0, 0]
        win_dealer = winner == self.dealer
        if loser is None:
            shares = {}
            for p in range(4):
                if p == winner:
                    continue
                mult = 2 if (win_dealer or p == self.dealer) else 1
                shares[p] = ceil100(mult * b) + rs.honba_tsumo * self.honba
            if pao is not None:
                # The liable player pays the whole hand, counters included [WRC 2015 §6.2]
                payments[pao] -= sum(shares.values())
            else:
                for p, amount in shares.items():
                    payments[p] -= amount
        else:
            value = ceil100((6 if win_dealer else 4) * b)
            # Every winning hand on a discard gets the counters: "each counter on the table
            # increases the value of a winning hand by 300 points" [EMA 2016 §3.4.10].
            counters = rs.honba_ron * self.honba
            if pao is not None and pao != loser:
                # Discarder and liable player pay half each; counters by the discarder
                # [WRC 2015 §6.2]. If the liable player discarded, he pays it all [A14].
                half = value // 2
                payments[pao] -= half
                payments[loser] -= value - half + counters
            else:
                payments[loser] -= value + counters
        payments[winner] = -sum(payments)
        return _Paid(tuple(payments), b, limit, han, fu, yakuman_paid)

    def _several(self, loser: int) -> HandResult:
        """Several winners on one discard, where the rule set allows it: the discarder pays
        each winning hand in full [EMA 2016 §3.4.9]; see :meth:`_sticks` for the deposits."""
        h, rs = self.hand, self.rs
        for key in ("winner", "han", "fu", "yakuman", "pao", "ron_claimants"):
            if getattr(h, key) not in (None, 0, ()):
                raise RulesError(
                    "wins_with_single_keys",
                    f"The winners are listed in 'wins': clear '{key}', or write one winner "
                    "without 'wins'.",
                    field=key,
                    key=key,
                )
        seats = _seat_set(tuple(w.winner for w in h.wins), "wins")
        for i, seat in enumerate(seats):
            if seat == loser:
                raise RulesError(
                    "winner_is_loser",
                    "The discarder cannot win on their own discard.",
                    field=f"wins[{i}].winner",
                    seat=SEATS[seat],
                )
        if len(seats) > 1 and rs.multiple_ron == "head_bump":
            raise RulesError(
                "multiple_ron_not_in_ruleset",
                f"Under the rule set {rs.key} only the claimant first in turn order after the "
                "discarder wins (head bump): keep that winner alone.",
                field="wins",
                ruleset=rs.key,
            )
        if len(seats) == 3 and rs.multiple_ron == "double_ron":
            raise RulesError(
                "ron_too_many_winners",
                "At most two players win on one discard under double_ron: three rons on one "
                "discard are an abortive draw (sanchahou).",
                field="wins",
                count=3,
                max=2,
            )
        paid: list[tuple[int, _Paid]] = []
        for i, (seat, w) in enumerate(zip(seats, h.wins, strict=True)):
            try:
                paid.append((seat, self._pay(seat, loser, w)))
            except RulesError as exc:
                raise exc.with_field_prefix(f"wins[{i}]") from None
        # In turn order after the discarder: the first takes what no winner reclaims.
        paid.sort(key=lambda sp: (sp[0] - loser) % 4)
        takings = self._sticks([seat for seat, _ in paid])
        payments = [sum(p.payments[s] for _, p in paid) for s in range(4)]
        dealer_wins = any(seat == self.dealer for seat, _ in paid)
        return self._result(
            winner=SEATS[paid[0][0]],
            payments=tuple(payments),
            riichi_collected=RIICHI_DEPOSIT * self.on_table,
            # The dealer keeps the deal and a counter is placed when East wins "whether more
            # players win or not" [EMA 2016 §3.4.9, §3.4.10].
            dealer_retains=dealer_wins,
            next_honba=self.honba + 1 if dealer_wins else 0,
            riichi_sticks_after=0,
            wins=tuple(
                WinResult(
                    winner=SEATS[seat],
                    limit=p.limit,
                    base_points=p.base_points,
                    han=p.han,
                    fu=p.fu,
                    yakuman=p.yakuman,
                    received=p.payments[seat],
                    riichi_collected=takings[seat],
                )
                for seat, p in paid
            ),
        )

    def _sticks(self, winners: list[int]) -> dict[int, int]:
        """Deposits on several winners: each winner who declared riichi in this hand takes
        their own stick back, the winner first in turn order after the discarder takes the
        rest (earlier hands' sticks, the losers' deposits) [A17]."""
        takings = dict.fromkeys(winners, 0)
        reclaimed = [s for s in winners if s in self.riichi]
        for s in reclaimed:
            takings[s] += RIICHI_DEPOSIT
        takings[winners[0]] += RIICHI_DEPOSIT * (self.on_table - len(reclaimed))
        return takings

    def _winner(self, loser: int | None) -> int:
        h = self.hand
        if h.ron_claimants:
            if loser is None:
                raise RulesError(
                    "claimants_on_tsumo",
                    "Ron claimants only exist on a discard (ron).",
                    field="ron_claimants",
                )
            claimants = _seat_set(h.ron_claimants, "ron_claimants")
            if loser in claimants:
                raise RulesError(
                    "winner_is_loser",
                    "The discarder cannot claim ron on their own discard.",
                    field="ron_claimants",
                    seat=SEATS[loser],
                )
            if len(claimants) > 1 and self.rs.multiple_ron != "head_bump":
                raise RulesError(
                    "ron_claimants_all_win",
                    f"Under the rule set {self.rs.key} every claimant wins: write each "
                    "winner's hand in 'wins'.",
                    field="ron_claimants",
                    ruleset=self.rs.key,
                )
            # Head bump: the claimant first in turn order after the discarder wins
            # [WRC 2015 §5.4.1, §5.7.6; ORAN-1 §2.1]
            first = min(claimants, key=lambda s: (s - loser) % 4)
            if h.winner is not None and _seat_index(h.winner, "winner") != first:
                raise RulesError(
                    "ron_priority",
                    f"{SEATS[first]} is first in turn order after the discarder "
                    f"{SEATS[loser]}, so {SEATS[first]} wins the discard, not {h.winner}.",
                    field="winner",
                    winner=SEATS[first],
                    claimed=h.winner,
                )
            return first
        return _seat_index(h.winner, "winner")

    def _pao(self, seat: str | None, yakuman: int, winner: int) -> int | None:
        if seat is None:
            return None
        pao = _seat_index(seat, "pao")
        if not self.rs.pao:
            raise RulesError(
                "pao_not_in_ruleset",
                f"The rule set {self.rs.key} has no liability (pao).",
                field="pao",
                ruleset=self.rs.key,
            )
        if not yakuman:
            raise RulesError(
                "pao_needs_yakuman",
                "Liability (pao) only exists for a Big Three Dragons or Big Four Winds "
                "yakuman; give the yakuman count.",
                field="pao",
            )
        if pao == winner:
            raise RulesError(
                "pao_is_winner",
                "The winner cannot be the liable player.",
                field="pao",
                seat=SEATS[pao],
            )
        return pao

    # -- hands without a winner -----------------------------------------------------------------
    def no_payment(self, *, dealer_retains: bool, next_honba: int, **kw: object) -> HandResult:
        return self._result(dealer_retains=dealer_retains, next_honba=next_honba, **kw)

    def chombo(self, offenders: tuple[int, ...]) -> HandResult:
        """Chombo: nothing paid, this hand's deposits back, same dealer and counters, replay
        [WRC 2015 §7.1]; ORAN: dealer keeps the deal [ORAN-1 §3.1.4], non-dealer [A8]."""
        rs = self.rs
        points = [0, 0, 0, 0]
        table = [0, 0, 0, 0]
        for o in offenders:
            if rs.chombo_model == "penalty_points":
                points[o] -= rs.chombo_amount
            else:
                table[o] -= rs.chombo_amount
        return self._result(
            result="chombo",
            chombo=tuple(SEATS[o] for o in offenders),
            riichi_returned=tuple(SEATS[r] for r in self.riichi),
            penalty_points=tuple(points),
            table_penalty=tuple(table),
            redeal=True,
            dealer_retains=True,
            next_honba=self.honba,
            riichi_sticks_after=self.sticks,
        )

    def _check_riichi_hands_shown(
        self, tenpai: set[int], dead: set[int], noten_riichi: list[int]
    ) -> None:
        """Every riichi player must show a tenpai hand at a draw [WRC 2015 §5.7.2]: the sheet says
        which way each one went, so a forgotten tick never becomes a silent noten or chombo."""
        for s in self.riichi:
            if s not in tenpai and s not in dead and s not in noten_riichi:
                raise RulesError(
                    "riichi_hand_not_shown",
                    f"{SEATS[s]} declared riichi, so must show a tenpai hand at the draw: list "
                    f"{SEATS[s]} as tenpai, as a noten riichi (a chombo) or as a dead hand.",
                    field="tenpai",
                    seat=SEATS[s],
                )

    def draw(self) -> HandResult:
        h, rs = self.hand, self.rs
        tenpai = set(_seat_set(h.tenpai, "tenpai"))
        dead = set(_seat_set(h.dead_hand, "dead_hand"))
        tenpai -= dead  # a dead hand is noten [WRC 2015 §2.2, §7.1; ORAN-1 §4.2.2]
        noten_riichi = [s for s in _seat_set(h.noten_riichi, "noten_riichi") if s not in dead]
        for s in noten_riichi:
            if s in tenpai:
                raise RulesError(
                    "noten_riichi_is_tenpai",
                    f"{SEATS[s]} is listed both as tenpai and as a noten riichi.",
                    field="noten_riichi",
                    seat=SEATS[s],
                )
        # A nagashi mangan overrides the check of the riichi hands [ORAN-1 §4.4.10.6]; MS
        # silent: same.
        if h.result != "nagashi":
            self._check_riichi_hands_shown(tenpai, dead, noten_riichi)
            if noten_riichi:
                # Noten riichi = chombo: no noten payments, no counter, replay
                # [WRC 2015 §5.7.2, §7.1]
                return self.chombo(tuple(noten_riichi))
        dealer_retains = self.dealer in tenpai
        if h.result == "nagashi":
            if not rs.nagashi_mangan:
                raise RulesError(
                    "nagashi_not_in_ruleset",
                    f"The rule set {rs.key} has no nagashi mangan.",
                    field="result",
                    ruleset=rs.key,
                )
            player = _seat_index(h.player, "player")
            # Mangan payment, no counters [Évriichi adv. 1; ORAN-1 §4.4.10.6; A15]
            payments = [0, 0, 0, 0]
            for p in range(4):
                if p != player:
                    dealer_side = player == self.dealer or p == self.dealer
                    payments[p] = -ceil100((2 if dealer_side else 1) * MANGAN)
            payments[player] = -sum(payments)
            return self._result(
                winner=SEATS[player],
                limit="mangan",
                base_points=MANGAN,
                payments=tuple(payments),
                dealer_retains=dealer_retains,
                next_honba=self.honba + 1,
            )
        return self._result(
            payments=noten_payments(rs, sorted(tenpai)),
            dealer_retains=dealer_retains,
            next_honba=self.honba + 1,
        )
