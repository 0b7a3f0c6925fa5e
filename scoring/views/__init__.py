"""Staff pages of the scoring app (mounted at /manage/<slug>/scoring/), mobile-first.

Every view uses `TournamentStaffMixin`: anonymous → login, staff of another tournament or a
lower role → 403. A POST validates the form, calls one service, turns its error into a
message next to the field, and redirects on success; the page always keeps what was typed.
"""
