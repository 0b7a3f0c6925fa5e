"""Signals of the scoring app, for the apps built on it to answer without scoring importing
them (as pretix lets its plugins contribute).
"""

from django.dispatch import Signal

#: Sent after an official's save changed a tournament's standings (a sheet confirmed, or
#: corrected), with ``tournament``. Each receiver returns a list of warnings for that official
#: in the active language, e.g. the seating app's: a Swiss round to come was seated from the
#: standings before the change.
standings_changed_by_official = Signal()
