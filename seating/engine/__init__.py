"""Pure seating generator for riichi tournaments (stdlib only; no Django import).

Public API (stable; the Django layer and the CLI call only these names):

* :class:`SeatingRequest` -> :func:`plan_seating` -> :class:`SeatingPlan` (new rounds +
  :class:`Metrics`): a whole tournament from a seed, or the remaining rounds of a running
  one (``history`` = rounds already played, possibly with a changed player set).
* :func:`swiss_round`: one round seated from the standings (:func:`validate_swiss` checks
  its request without computing it).
* :func:`evaluate`: the quality report of any plan (e.g. after a manual swap);
  :func:`pairs_always_together` names the pairs it cannot show.
* :func:`substitutes_needed`: how many substitutes make the count a multiple of four.
* :class:`SeatingError` (user-fixable, ``code``/``params``/``message``/``field``) and
  :class:`SeatingFatalError` (a bug).

See docs/seating.md for the guarantees and the algorithm.
"""

from .metrics import evaluate, pairs_always_together, repeat_lower_bound, substitutes_needed
from .model import (
    PRIORITIES,
    Metrics,
    Plan,
    Round,
    SeatingError,
    SeatingFatalError,
    SeatingPlan,
    SeatingRequest,
    Table,
)
from .planner import plan_seating
from .swiss import DEFAULT_CLOSENESS, swiss_round, validate_swiss

__all__ = [
    "DEFAULT_CLOSENESS",
    "PRIORITIES",
    "Metrics",
    "Plan",
    "Round",
    "SeatingError",
    "SeatingFatalError",
    "SeatingPlan",
    "SeatingRequest",
    "Table",
    "evaluate",
    "pairs_always_together",
    "plan_seating",
    "repeat_lower_bound",
    "substitutes_needed",
    "swiss_round",
    "validate_swiss",
]
