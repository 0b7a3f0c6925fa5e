"""Writes of the scoring app: score-sheet entry, confirmation, correction, penalties.

Every function is keyword-only, atomic, checks the acting official's role in the tournament
and leaves an audit entry in the same transaction. The numbers themselves are always asked
of the rules engine (`scoring.rules`), never recomputed here.
"""
