"""Property-based invariants (docs/rules.md §10) with hypothesis."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import assume, given
from hypothesis import strategies as st

from scoring.rules import (
    RULESETS,
    Hand,
    RulesError,
    SeatSheet,
    replay_game,
    resolve_ruleset,
    score_hanchan,
    score_hand,
)

SEATS = "ESWN"
rulesets = st.sampled_from(sorted(RULESETS))
seats = st.sampled_from(SEATS)
fus = st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130])


@st.composite
def wins(draw):
    result = draw(st.sampled_from(["ron", "tsumo"]))
    winner = draw(seats)
    loser = draw(seats.filter(lambda s: s != winner)) if result == "ron" else None
    yakuman = draw(st.integers(0, 3))
    pao = None
    if yakuman and draw(st.booleans()):
        pao = draw(seats.filter(lambda s: s != winner))
    # A yakuman count replaces han/fu (docs/cli.md): a hand has one or the other.
    han = None if yakuman else draw(st.integers(1, 15))
    fu = None if yakuman else draw(fus)
    return dict(result=result, winner=winner, loser=loser, yakuman=yakuman, pao=pao, han=han, fu=fu)


@given(rulesets, wins(), seats, st.integers(0, 10), st.integers(0, 5))
def test_payments_balance(key, win, dealer, honba, sticks):
    # docs/rules.md §10: payments sum to zero, every amount is a multiple of 100
    hand = Hand(dealer=dealer, honba=honba, riichi_sticks=sticks, **win)
    try:
        res = score_hand(RULESETS[key], hand)
    except RulesError:
        assume(False)
        return
    assert sum(res.payments) == 0
    assert all(p % 100 == 0 for p in res.payments)
    assert res.payments[SEATS.index(res.winner)] > 0
    assert res.riichi_collected == 1000 * sticks
    assert sum(1 for p in res.payments if p < 0) >= 1


@st.composite
def sheets(draw, start: int):
    sticks = draw(st.integers(0, 4))
    # hundreds from a small range so that ties happen often
    values = [draw(st.integers(-50, 500)) * 100 for _ in range(3)]
    if draw(st.booleans()):
        values[1] = values[0]
    last = 4 * start - 1000 * sticks - sum(values)
    return values + [last], sticks


@given(st.sampled_from(["wrc2015", "oran2015"]), sheets(30000))
def test_uma_and_table_scores_sum(key, sheet):
    # docs/rules.md §10: Σ uma = 0; WRC/ORAN: Σ table scores = -(sticks left) (no chombo)
    points, sticks = sheet
    res = score_hanchan(
        RULESETS[key], [SeatSheet(n, p) for n, p in zip("ABCD", points, strict=True)], sticks
    )
    assert sum(s.uma for s in res.seats) == 0
    assert sum(s.table_score for s in res.seats) == -sticks


@given(st.sampled_from(["split", "seat_order"]), sheets(25000))
def test_mahjongsoul_uma_sums_to_zero(tie_mode, sheet):
    points, sticks = sheet
    rs = resolve_ruleset("mahjongsoul", {"tie_mode": tie_mode})
    res = score_hanchan(rs, [SeatSheet(n, p) for n, p in zip("ABCD", points, strict=True)], sticks)
    assert sum(s.uma for s in res.seats) == 0
    assert sorted(s.place for s in res.seats)[0] == 1


@given(sheets(30000), st.permutations(range(4)), st.sampled_from(["wrc2015", "oran2015"]))
def test_tie_splitting_is_symmetric(sheet, perm, key):
    # Permuting the seats permutes the results: the split depends on points only [WRC 2015 §5.9.2]
    points, sticks = sheet
    base = [SeatSheet(n, p) for n, p in zip("ABCD", points, strict=True)]
    moved = [base[i] for i in perm]
    a = {s.player: s for s in score_hanchan(RULESETS[key], base, sticks).seats}
    b = {s.player: s for s in score_hanchan(RULESETS[key], moved, sticks).seats}
    for player in "ABCD":
        assert (a[player].place, a[player].uma, a[player].score) == (
            b[player].place,
            b[player].uma,
            b[player].score,
        )


@st.composite
def game_hands(draw):
    kind = draw(st.sampled_from(["ron", "tsumo", "draw", "chombo", "nagashi", "abortive"]))
    riichi = tuple(draw(st.lists(seats, unique=True, max_size=2)))
    if kind in ("ron", "tsumo"):
        w = draw(wins())
        w["result"] = kind
        if kind == "ron" and w["loser"] is None:
            w["loser"] = draw(seats.filter(lambda s: s != w["winner"]))
        if kind == "tsumo":
            w["loser"] = None
        return Hand(riichi=riichi, **w)
    if kind == "draw":
        return Hand("draw", tenpai=tuple(draw(st.lists(seats, unique=True))), riichi=riichi)
    if kind == "nagashi":
        return Hand("nagashi", player=draw(seats), riichi=riichi)
    if kind == "abortive":
        return Hand("abortive", riichi=riichi)
    return Hand("chombo", offender=draw(seats), riichi=riichi)


@given(rulesets, st.lists(game_hands(), max_size=25))
def test_replay_conserves_points_and_sticks(key, hands):
    # docs/rules.md §10: Σ points + 1 000 x sticks = 4 x start after every hand
    rs = RULESETS[key]
    kept: list[Hand] = []
    for hand in hands:  # keep the hands the rules accept, stop at the end of the game
        try:
            g = replay_game(rs, [*kept, hand])
        except RulesError:
            continue
        kept.append(hand)
        if g.ended:
            break
    g = replay_game(rs, kept)
    for record in g.hands:
        assert sum(record.points_after) + 1000 * record.riichi_sticks_after == 4 * rs.start_points
        # counters grow by one, reset to zero, or stay (chombo) [docs/rules.md §10]
        nxt = record.result.next_honba
        assert nxt in (0, record.honba, record.honba + 1)
    assert sum(g.final_points) + 1000 * g.riichi_sticks_left == 4 * rs.start_points
    assert Fraction(sum(g.final_points), 1000) == 4 * rs.start_points / 1000 - g.riichi_sticks_left
