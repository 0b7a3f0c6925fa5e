"""Signals of the tournament's own records, for the apps built on them to answer without the
ground floor importing them (as pretix lets its plugins contribute).
"""

from django.dispatch import Signal

#: Sent before registrations are deleted on their own (not with their tournament), with
#: ``registrations``, inside the delete's transaction. A receiver refuses by raising: the
#: scoring app while one of them holds results (`scoring.results_held`).
registrations_deleting = Signal()

#: Sent before the tournament's complete archive is given to ``user`` (the Exports page's
#: download), with ``tournament`` and ``user``. A receiver refuses it by answering a sentence
#: that says why (None: no objection): the scoring app while the archive would show a blind
#: first entry to the official who may still enter that sheet second
#: (`scoring.blind_entry`).
archive_requested = Signal()

#: Sent inside the transaction of a change that can change what every confirmed score sheet
#: of ``tournament`` scores: its rule set or options changed, or the tournament restored from
#: an archive. The scoring app scores the sheets again (`scoring.services.seat_results`).
results_rescored = Signal()
