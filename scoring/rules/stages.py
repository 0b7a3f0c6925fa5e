"""Stages of a tournament: the cut between two stages and the score carried over.

A tournament may have a qualifying stage and later stages (a semi-final, a final). Between
two stages comes the **cut**: the best ``size`` players of the earlier stage's standings go
through. The standings' tie-break chain (:func:`scoring.rules.compute_standings`) already
orders equal totals; a **tie at the cut line** is a place shared by players on both sides of
the line (the chain could not separate them): the players above it are through, and the
organiser chooses who takes the seats left among the tied ones (``chosen``). Each qualified
player starts the next stage with a **carry-over** of their earlier total: all of it (keep),
half of it (halve), nothing (reset) or a fixed bonus by their rank in the qualified list
(bonus). The rule books have no stages (WRC 2015 ranks by the global score only, §2.3):
these are the application's own rules, documented in docs/organiser-guide.md ("Stages").

Not here: reading the standings or storing the choice (the Django layer's job).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import RulesFatalError

__all__ = ["CARRY_OVER_POLICIES", "Cut", "RankedPlayer", "carry_over", "cut_standings"]

#: keep: the whole earlier total; halve: half of it; reset: 0; bonus: a fixed bonus by rank.
CARRY_OVER_POLICIES = ("keep", "halve", "reset", "bonus")


@dataclass(frozen=True)
class RankedPlayer:
    """One line of the earlier stage's standings, in their order: ``place`` as the standings
    give it (shared places repeat: 1, 1, 3), ``decided_by`` the tie-break criterion that
    separated this player from an equal total, if any."""

    key: str
    place: int
    total: int | Fraction
    decided_by: str | None = None


@dataclass(frozen=True)
class Cut:
    """Who goes through to the next stage.

    ``qualified``: the keys through, in standings order (the chosen ones among the tied in
    their standings order too). ``tied``: the players sharing the place across the line (empty
    without a tie); ``open_seats``: how many of them go through; ``resolved``: false while the
    organiser's choice among them is missing or wrong (then ``qualified`` holds only the
    players above the tie). ``decided_by``: the tie-break criterion that separated the last
    player through from the first one out on an equal total, if one did.
    """

    size: int
    qualified: tuple[str, ...]
    tied: tuple[str, ...] = ()
    open_seats: int = 0
    resolved: bool = True
    decided_by: str | None = None


def cut_standings(rows: Sequence[RankedPlayer], size: int, chosen: Collection[str] = ()) -> Cut:
    """The best ``size`` players of ``rows`` (the standings, best first).

    >>> rows = [RankedPlayer("a", 1, 30), RankedPlayer("b", 2, 20, "firsts"),
    ...     RankedPlayer("c", 3, 20, "firsts"), RankedPlayer("d", 3, 10), RankedPlayer("e", 3, 10)]
    >>> cut_standings(rows, 2)
    Cut(size=2, qualified=('a', 'b'), tied=(), open_seats=0, resolved=True, decided_by='firsts')
    >>> cut_standings(rows, 4).tied, cut_standings(rows, 4).resolved
    (('c', 'd', 'e'), False)
    >>> cut_standings(rows, 4, chosen={"a", "c", "e"}).qualified
    ('a', 'b', 'c', 'e')
    """
    if size < 1:
        raise RulesFatalError(f"a cut keeps at least one player, not {size}")
    if len(rows) <= size:
        return Cut(size, tuple(row.key for row in rows))
    first_out = rows[size]
    if first_out.place > size:  # the line falls between two places
        last_in = rows[size - 1]
        decided_by = first_out.decided_by if last_in.total == first_out.total else None
        return Cut(size, tuple(row.key for row in rows[:size]), decided_by=decided_by)
    above = tuple(row.key for row in rows if row.place < first_out.place)
    tied = tuple(row.key for row in rows if row.place == first_out.place)
    open_seats = size - len(above)
    picked = tuple(key for key in tied if key in chosen)
    if len(picked) != open_seats:
        return Cut(size, above, tied, open_seats, resolved=False)
    return Cut(size, above + picked, tied, open_seats)


def carry_over(
    policy: str, total: int | Fraction, rank: int, bonus: Sequence[int | Fraction] = ()
) -> int | Fraction:
    """What a qualified player brings into the next stage: ``total`` is their earlier total,
    ``rank`` their rank in the qualified list (1 = best), ``bonus`` the bonus of each rank
    (ranks beyond it bring 0). Halving is exact (a ``Fraction`` when odd).

    >>> carry_over("keep", 53, 1), carry_over("halve", 53, 1), carry_over("reset", 53, 1)
    (53, Fraction(53, 2), 0)
    >>> carry_over("bonus", 53, 2, (30, 20, 10)), carry_over("bonus", 53, 4, (30, 20, 10))
    (20, 0)
    """
    if policy == "keep":
        return total
    if policy == "halve":
        half = Fraction(total) / 2
        return half.numerator if half.denominator == 1 else half
    if policy == "reset":
        return 0
    if policy == "bonus":
        return bonus[rank - 1] if rank <= len(bonus) else 0
    raise RulesFatalError(f"unknown carry-over policy {policy!r}; use {CARRY_OVER_POLICIES}")
