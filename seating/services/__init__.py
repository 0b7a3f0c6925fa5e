"""Writes of the seating app: runs (generate, swap, apply, discard), substitutes, fixed tables.

Every function is atomic (a run's computation excepted, see `runs`) and audited.
"""

from seating.services.fixed_tables import fixed_table_remove, fixed_table_set
from seating.services.runs import (
    seating_run_apply,
    seating_run_discard,
    seating_run_execute,
    seating_run_start,
    seating_run_swap,
    seating_run_swiss,
)
from seating.services.substitutes import substitutes_add

__all__ = [
    "fixed_table_remove",
    "fixed_table_set",
    "seating_run_apply",
    "seating_run_discard",
    "seating_run_execute",
    "seating_run_start",
    "seating_run_swap",
    "seating_run_swiss",
    "substitutes_add",
]
