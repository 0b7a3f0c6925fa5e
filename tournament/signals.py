"""Signals of the tournament's own records, for the apps built on them to answer without the
ground floor importing them (as pretix lets its plugins contribute).
"""

from django.dispatch import Signal

#: Sent before registrations are deleted on their own (not with their tournament), with
#: ``registrations``, inside the delete's transaction. A receiver refuses by raising: the
#: scoring app while one of them holds results (`scoring.results_held`).
registrations_deleting = Signal()
