"""Value types of the seating generator: the request, the plan, the metrics, the errors.

Everything here is a frozen dataclass of ints, strings and tuples, so a plan can be stored,
compared and reproduced (same request, same seed -> same plan). No algorithm lives here.

Glossary: a *round* is one hanchan played by every table at the same time; a *table* is a
tuple of four player ids in seat order East, South, West, North (the starting *wind*);
``rounds[r][t]`` is table number ``t + 1`` in round ``r + 1``. A *repeat* is a second (third,
...) meeting of the same two players at one table; *table reuse* is a player sitting at the
same table number more often than the fair maximum.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = [
    "Table",
    "Round",
    "Plan",
    "PRIORITIES",
    "SeatingRequest",
    "SeatingPlan",
    "Metrics",
    "SeatingError",
    "SeatingFatalError",
]

Table = tuple[int, int, int, int]
Round = tuple[Table, ...]
Plan = tuple[Round, ...]

#: ``"opponents"`` (the default): no pair meets three times while a plan with at most two
#: exists (nor beyond what counting forces), then few repeated meetings, then team clashes
#: and table revisits; ``"tables"``: no player at the same table number twice (WRC 2015
#: §8.1), then teams apart, then few repeated meetings.
PRIORITIES = ("tables", "opponents")


def _frozen_map(value: Mapping[Any, Any] | None) -> Mapping[Any, Any]:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True)
class SeatingRequest:
    """What to plan: ``rounds`` new rounds for ``players`` after the rounds in ``history``.

    * ``players``: the active players' ids (any distinct ints, e.g. registration pks); the
      count must be a multiple of four (see :func:`~seating.engine.substitutes_needed`).
    * ``teams``: player -> team/club/country; players of one team are kept apart.
    * ``fixed_tables``: player -> table number (1-based) the player must sit at every round
      (e.g. the accessible table).
    * ``priority``: ``"opponents"`` (default) or ``"tables"``, see :data:`PRIORITIES`.
    * ``time_limit``: seconds the search may use at most; constructions return at once and
      the search stops as soon as it reaches the lower bounds.
    * ``history``: rounds already played, each a tuple of tables of four ids in seat order
      E, S, W, N; ids of players who are no longer active are allowed. Every past meeting,
      table and wind counts for the new rounds; the history itself is never changed.
    * ``previous``: the seating the new rounds have now, when they are being re-seated (same
      shape as ``history``). The search also starts from it, so re-planning never ends worse
      than keeping it; players no longer active hand their seats to the newcomers. Ignored
      when it does not fit (another number of rounds or tables, players coming and going in
      different numbers).
    """

    players: tuple[int, ...]
    rounds: int
    seed: int = 0
    teams: Mapping[int, str] = field(default_factory=dict)
    fixed_tables: Mapping[int, int] = field(default_factory=dict)
    priority: str = "opponents"
    time_limit: float = 30.0
    history: tuple[Round, ...] = ()
    previous: tuple[Round, ...] = ()

    def __post_init__(self) -> None:
        # Normalise so the request is hashable-ish and cannot change under the planner.
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "teams", _frozen_map(self.teams))
        object.__setattr__(self, "fixed_tables", _frozen_map(self.fixed_tables))
        for name in ("history", "previous"):
            rounds = getattr(self, name)
            object.__setattr__(self, name, tuple(tuple(tuple(t) for t in rnd) for rnd in rounds))


@dataclass(frozen=True)
class Metrics:
    """Quality report of a plan (history + new rounds). Lower is better everywhere.

    * ``table_reuse``: extra (player, table) visits beyond the fair maximum ⌈rounds/tables⌉
      (1 while rounds <= tables); a fixed player's visits to the fixed table do not count.
    * ``repeat_pairs``: sum over pairs of max(0, meetings - 1).
    * ``max_meetings``: most meetings of any one pair.
    * ``wind_imbalance``: max over players of (max - min) of their E, S, W, N counts.
    * ``team_clashes``: same-team pairs seated together, summed over tables and rounds.
    * ``seconds``: wall time spent planning (0.0 for :func:`evaluate`).
    * ``repeat_lower_bound``: no plan can have fewer repeats than this
      (⌈N·max(0, 3R − (N − 1))/2⌉, plus repeats already fixed by the history and those the
      history forces: :func:`~seating.engine.metrics.repeats_forced_by_history`, and the
      meetings of players fixed to one table: :func:`~seating.engine.metrics.fixed_pairs`); for a
      plan with no table reuse, no plan without table reuse (on 16 players or fewer, that
      forces repeats: :func:`~seating.engine.metrics.pigeonhole_pairs`).
    * ``table_reuse_lower_bound``: likewise for table reuse: reuse already in the history
      plus the revisits it forces when the field has shrunk by a table
      (:func:`~seating.engine.metrics.reuse_forced_by_history`), or revisits that players
      fixed to a table force on the others.
    * ``wind_imbalance_lower_bound``: likewise for ``wind_imbalance``: the winds already
      played, and 2 when they leave some players unable to even out
      (:func:`~seating.engine.winds.least_spread`).
    * ``max_meetings_lower_bound``: likewise for ``max_meetings``: the history's, the
      meetings of players fixed to one table, the counting bound
      (:func:`~seating.engine.metrics.meetings_forced`), and 2 when ``repeat_lower_bound``
      forces a repeat (judged, like it, against plans without table reuse for a plan that
      has none).
    """

    table_reuse: int
    repeat_pairs: int
    max_meetings: int
    wind_imbalance: int
    team_clashes: int
    seconds: float = 0.0
    repeat_lower_bound: int = 0
    table_reuse_lower_bound: int = 0
    wind_imbalance_lower_bound: int = 0
    max_meetings_lower_bound: int = 0

    def as_json(self) -> dict[str, Any]:
        """Plain dict for the CLI and the Django layer."""
        return {
            "table_reuse": self.table_reuse,
            "repeat_pairs": self.repeat_pairs,
            "max_meetings": self.max_meetings,
            "wind_imbalance": self.wind_imbalance,
            "team_clashes": self.team_clashes,
            "seconds": round(self.seconds, 3),
            "repeat_lower_bound": self.repeat_lower_bound,
            "table_reuse_lower_bound": self.table_reuse_lower_bound,
            "wind_imbalance_lower_bound": self.wind_imbalance_lower_bound,
            "max_meetings_lower_bound": self.max_meetings_lower_bound,
        }


@dataclass(frozen=True)
class SeatingPlan:
    """The new rounds (after the history) and the metrics over history + new rounds.

    ``method`` says how the plan was made (``"construction"``, ``"search"``, ...), for logs.
    """

    rounds: Plan
    metrics: Metrics
    method: str = ""


class SeatingError(ValueError):
    """A user-fixable problem with a seating request.

    ``code`` is stable (the Django layer translates it), ``params`` hold the numbers a message
    needs, ``field`` names the offending input and ``message`` is plain English.

    >>> e = SeatingError("not_multiple_of_four", "Add 3 substitutes.", players=37,
    ...                  substitutes_needed=3)
    >>> (e.code, e.params["substitutes_needed"])
    ('not_multiple_of_four', 3)
    """

    def __init__(self, code: str, message: str, *, field: str | None = None, **params: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params: dict[str, Any] = dict(params)

    def as_json(self) -> dict[str, Any]:
        """The CLI error shape ``{"code", "message", "field", "params"}``."""
        return {
            "code": self.code,
            "message": self.message,
            "field": self.field,
            "params": dict(self.params),
        }

    def __repr__(self) -> str:
        return f"SeatingError({self.code!r}, params={self.params!r})"


class SeatingFatalError(RuntimeError):
    """An internal invariant failed: a bug in the generator, never the user's fault."""
