"""Tournament totals and ranking (standings).

A player's total is the sum of their hanchan scores (each already includes that hanchan's
chombo and lateness penalties, see :class:`scoring.rules.hanchan.SeatScore`) plus the other
penalty points recorded against the registration (discretionary penalties, each with a
reason). A record with ``ranked=False`` gets no place: it is listed after the ranked rows
with ``place=None`` (e.g. a disqualified player [WRC 2015 §7.1], or one who has not played yet;
the caller decides which). Players with equal totals are separated by the tie-break chain
(:attr:`scoring.rules.RuleSet.tie_breaks`); players still equal share the place
(competition ranking 1, 1, 3).

The default chain: total → best single hanchan score → more 1st places → more 2nd places →
fewer penalty points → shared place. The rule books give no tie-break (WRC only ranks by the
global score [WRC 2015 §2.3]); this chain is the engine's documented default, configurable.

Two rankings derive from the players' totals, with no tie-break (equal sums share the place):
the teams by the sum of their members' totals (:func:`compute_team_standings`), and each
player's rank after every round by the running sums (:func:`running_ranks`). The rule books
rank neither; these are the application's own rules.

Scores leave the engine as exact integers in :data:`SCORE_UNIT` (:mod:`.units`), so that
the Django layer stores and caches plain integers and sums them without ``Fraction``. The
rankings take either: given integers (units), they add and compare integers and give integer
totals, many times faster than ``Fraction`` arithmetic for a thousand players; given
``Fraction`` values, ``Fraction`` totals. Either way the order is the same, since units are a
fixed multiple of points.

Not here: loading scores from the database, caching (the Django layer's job).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import RulesError, RulesErrors
from .rulesets import DEFAULT_TIE_BREAKS, TIE_BREAK_CRITERIA
from .units import SCORE_UNIT, to_units

__all__ = [
    "SCORE_UNIT",
    "Penalty",
    "PlayerRecord",
    "StandingRow",
    "TeamMember",
    "TeamStandingRow",
    "compute_standings",
    "compute_team_standings",
    "running_ranks",
    "to_units",
]


@dataclass(frozen=True)
class Penalty:
    """Penalty points outside a score sheet (e.g. a referee's discretionary penalty).

    ``points`` is signed and added to the total: a penalty is negative (``Fraction(-5)``).
    """

    points: Fraction
    reason: str = ""


@dataclass(frozen=True)
class PlayerRecord:
    """One registration's results, as the Django layer loads them.

    ``hanchan_scores``: one entry per round, the :attr:`SeatScore.score` of that hanchan or
    ``None`` (not played / not yet). ``places``: the place at the table per round (``None``
    where unknown), used by the ``firsts``/``seconds``… tie-breaks. ``penalties``: penalty
    points outside the sheets, as :class:`Penalty` or plain signed numbers (<= 0).
    ``sheet_penalties`` (<= 0): the penalty points already inside ``hanchan_scores``
    (chombo, lateness, a missed hanchan); not added again, but "fewer penalty points"
    counts them. ``ranked``: false for a player listed without a place. ``carried``: the
    score brought from an earlier stage (:func:`scoring.rules.stages.carry_over`), added to
    the total.
    """

    key: str
    hanchan_scores: tuple[int | Fraction | None, ...] = ()
    penalties: tuple[Penalty | Fraction | int, ...] = ()
    ranked: bool = True
    places: tuple[int | None, ...] = ()
    name: str = ""
    sheet_penalties: Fraction | int = 0
    carried: int | Fraction = 0


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings. ``place`` is ``None`` for an unranked player.

    ``shared``: the place is shared with another player; ``decided_by``: the tie-break
    criterion that separated this player from an equal total, if any. ``penalty_total``:
    the penalties outside the sheets (``total = hanchan_total + penalty_total + carried``);
    ``penalty_points``: every penalty point, sheets included (``fewest_penalties``);
    ``carried``: the score brought from an earlier stage.
    """

    key: str
    place: int | None
    total: int | Fraction
    hanchan_total: int | Fraction
    penalty_total: int | Fraction
    penalty_points: int | Fraction
    played: int
    best_hanchan: int | Fraction | None
    firsts: int
    seconds: int
    thirds: int
    fourths: int
    shared: bool
    decided_by: str | None
    ranked: bool
    carried: int | Fraction = 0


def _exact(value: int | Fraction) -> int | Fraction:
    """An int as it is (exact and fast to add); anything else as a ``Fraction``."""
    return value if type(value) is int else Fraction(value)


def _penalty_value(p: object, fld: str) -> int | Fraction:
    value = p.points if isinstance(p, Penalty) else p
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise RulesError(
            "penalty_type",
            f"A penalty must be an exact number (int or Fraction); got {value!r}.",
            field=fld,
            value=value,
        )
    value = _exact(value)
    if value > 0:
        raise RulesError(
            "penalty_sign",
            f"Penalties are negative or zero points added to the total; got {value}.",
            field=fld,
            value=value,
        )
    return value


def _sort_key(row: dict, criterion: str) -> object:
    """Smaller sorts first (better). ``row``: a :class:`StandingRow`'s fields by name."""
    if criterion == "best_hanchan":  # a player without a hanchan after every score
        return (row["best_hanchan"] is None, -(row["best_hanchan"] or 0))
    if criterion == "firsts":
        return -row["firsts"]
    if criterion == "seconds":
        return -row["seconds"]
    if criterion == "thirds":
        return -row["thirds"]
    if criterion == "fewest_fourths":
        return row["fourths"]
    if criterion == "fewest_penalties":
        return -row["penalty_points"]
    if criterion == "played":
        return -row["played"]
    raise RulesError(
        "tie_break_unknown",
        f"Unknown tie-break {criterion!r}; use names among {', '.join(TIE_BREAK_CRITERIA)}.",
        field="tie_breaks",
        value=criterion,
    )


def compute_standings(
    records: Sequence[PlayerRecord], tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS
) -> tuple[StandingRow, ...]:
    """Rank the players: total, then ``tie_breaks`` in order, then a shared place.

    Players sharing a place, and the unranked ones after them, keep the order of
    ``records``: the caller chooses it (the Django layer lists them by name).

    >>> F = Fraction
    >>> rows = compute_standings([PlayerRecord("a", (F(10), F(-5))),
    ...     PlayerRecord("b", (F(5), None), (Penalty(F(-20), "phone"),)),
    ...     PlayerRecord("c", (F(-5), F(10))), PlayerRecord("d", (), (), ranked=False)],
    ...     tie_breaks=())
    >>> [(r.key, r.place, str(r.total)) for r in rows]
    [('a', 1, '5'), ('c', 1, '5'), ('b', 3, '-15'), ('d', None, '0')]
    """
    errors: list[RulesError] = []
    seen: set[str] = set()
    # Each row's fields by name: the frozen StandingRow is built once, with its place (a
    # thousand rows built twice cost more than the ranking itself).
    rows: list[dict] = []
    for i, rec in enumerate(records):
        if rec.key in seen:
            errors.append(
                RulesError(
                    "player_repeated",
                    f"{rec.key} appears twice in the standings input.",
                    field=f"records[{i}].key",
                    player=rec.key,
                )
            )
        seen.add(rec.key)
        scores = [s if type(s) is int else Fraction(s) for s in rec.hanchan_scores if s is not None]
        pens = []
        for j, p in enumerate(rec.penalties):
            try:
                pens.append(_penalty_value(p, f"records[{i}].penalties[{j}]"))
            except RulesError as exc:
                errors.append(exc)
        hanchan_total = sum(scores)
        penalty_total = sum(pens)
        carried = _exact(rec.carried)
        places = rec.places
        rows.append(
            {
                "key": rec.key,
                "total": hanchan_total + penalty_total + carried,
                "hanchan_total": hanchan_total,
                "penalty_total": penalty_total,
                "penalty_points": penalty_total + _exact(rec.sheet_penalties),
                "played": len(scores),
                "best_hanchan": max(scores) if scores else None,
                "firsts": places.count(1),
                "seconds": places.count(2),
                "thirds": places.count(3),
                "fourths": places.count(4),
                "ranked": rec.ranked,
                "carried": carried,
            }
        )
    for c in tie_breaks:
        if c not in TIE_BREAK_CRITERIA:
            errors.append(
                RulesError(
                    "tie_break_unknown",
                    f"Unknown tie-break {c!r}; use names among {', '.join(TIE_BREAK_CRITERIA)}.",
                    field="tie_breaks",
                    value=c,
                )
            )
    if errors:
        raise RulesErrors(errors)

    def full_key(r: dict) -> tuple:
        return (-r["total"], *(_sort_key(r, c) for c in tie_breaks))

    # A stable sort: players sharing a place stay in the order they were given. Each key is
    # computed once.
    keyed = sorted(((full_key(r), r) for r in rows if r["ranked"]), key=lambda pair: pair[0])
    keys = [key for key, _row in keyed]
    ranked = [row for _key, row in keyed]

    def separating(a: dict, b: dict) -> str | None:
        """The criterion that separates two players with the same total."""
        if a["total"] != b["total"]:
            return None
        return next((c for c in tie_breaks if _sort_key(a, c) != _sort_key(b, c)), None)

    out: list[StandingRow] = []
    for pos, row in enumerate(ranked):
        # the group of players sharing this place: [start, end]
        start = pos
        while start > 0 and keys[start - 1] == keys[pos]:
            start -= 1
        end = pos
        while end + 1 < len(ranked) and keys[end + 1] == keys[pos]:
            end += 1
        above = separating(ranked[start - 1], row) if start > 0 else None
        below = separating(row, ranked[end + 1]) if end + 1 < len(ranked) else None
        out.append(
            StandingRow(place=start + 1, shared=end > start, decided_by=above or below, **row)
        )
    out.extend(
        StandingRow(place=None, shared=False, decided_by=None, **r) for r in rows if not r["ranked"]
    )
    return tuple(out)


@dataclass(frozen=True)
class TeamMember:
    """One listed player's total, counted for their team (``key`` as in :class:`PlayerRecord`)."""

    key: str
    team: str
    total: Fraction


@dataclass(frozen=True)
class TeamStandingRow:
    """One line of the team standings: ``members`` are the members' keys in the order given,
    ``shared`` says another team has the same total."""

    team: str
    place: int
    total: Fraction
    members: tuple[str, ...]
    shared: bool


def _competition_places(totals: Iterable[Fraction]) -> dict[Fraction, int]:
    """Each total's place, the largest first: one more than the number of larger totals, so
    equal totals share it (1, 1, 3)."""
    places: dict[Fraction, int] = {}
    for index, total in enumerate(sorted(totals, reverse=True)):
        places.setdefault(total, index + 1)
    return places


def compute_team_standings(members: Iterable[TeamMember]) -> tuple[TeamStandingRow, ...]:
    """Rank the teams by the sum of their members' totals; equal sums share the place and are
    listed by team name (no tie-break: a team has no hanchan of its own to compare).

    The caller decides who counts: the Django layer passes the listed players, so that a
    disqualified member or a substitute counts for nothing.

    >>> F = Fraction
    >>> rows = compute_team_standings([TeamMember("a", "Yuki", F(10)),
    ...     TeamMember("b", "Ame", F(-8)), TeamMember("c", "Yuki", F(-6)),
    ...     TeamMember("d", "Kaze", F(4))])
    >>> for r in rows:
    ...     print(r.place, r.team, r.total, r.members, r.shared)
    1 Kaze 4 ('d',) True
    1 Yuki 4 ('a', 'c') True
    3 Ame -8 ('b',) False
    """
    keys: dict[str, list[str]] = {}
    totals: dict[str, Fraction] = {}
    for member in members:
        keys.setdefault(member.team, []).append(member.key)
        totals[member.team] = totals.get(member.team, Fraction(0)) + member.total
    places = _competition_places(totals.values())
    counts: dict[Fraction, int] = {}
    for total in totals.values():
        counts[total] = counts.get(total, 0) + 1
    return tuple(
        TeamStandingRow(team, places[total], total, tuple(keys[team]), counts[total] > 1)
        for team, total in sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    )


def running_ranks(
    scores: Mapping[str, Mapping[int, Fraction]],
    round_numbers: Iterable[int],
    penalties: Mapping[str, Iterable[tuple[int | None, Fraction]]] | None = None,
) -> dict[int, dict[str, int]]:
    """Each player's rank after each of ``round_numbers``: round number → key → rank.

    ``scores``: each player's hanchan scores by round number (each includes its sheet's
    penalties). ``penalties``: the other penalty points as (round number, points), a penalty
    without a round counting from the start. After round r, the players with a score in a
    round up to r are ranked by those scores plus the penalties up to r; equal sums share the
    rank. No tie-break, so the last rank may differ from the place in :func:`compute_standings`.

    >>> F = Fraction
    >>> ranks = running_ranks({"a": {1: F(10), 2: F(-20)}, "b": {1: F(-5), 2: F(5)},
    ...     "c": {2: F(15)}, "d": {}}, [1, 2], {"b": [(None, F(-5)), (2, F(-10))]})
    >>> ranks
    {1: {'a': 1, 'b': 2}, 2: {'a': 2, 'b': 3, 'c': 1}}
    """
    penalties = penalties or {}
    asked = sorted(set(round_numbers))
    running: dict[int, dict[str, Fraction]] = {number: {} for number in asked}
    for key, by_round in scores.items():
        if not by_round:
            continue
        first = min(by_round)  # ranked from the first round they have a score in
        # Their scores and penalties in round order (a penalty without a round first), summed
        # in one pass as the rounds asked for go by.
        dated = sorted(
            [
                *by_round.items(),
                *(
                    (-math.inf if given_in is None else given_in, points)
                    for given_in, points in penalties.get(key, ())
                ),
            ],
            key=lambda item: item[0],
        )
        total, summed = Fraction(0), 0
        for number in asked:
            while summed < len(dated) and dated[summed][0] <= number:
                total += dated[summed][1]
                summed += 1
            if number >= first:
                running[number][key] = total
    ranks: dict[int, dict[str, int]] = {}
    for number, totals in running.items():
        places = _competition_places(totals.values())
        ranks[number] = {key: places[total] for key, total in totals.items()}
    return ranks
