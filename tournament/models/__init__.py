"""Core records of an event: tournaments, players, registrations, teams, rounds and seats.

Integrity lives in the database (unique and check constraints) so that no form, admin action
or script can store a second seat for a player or a second registration for a person.
Scores and penalties live in the `scoring` app; seating plans are computed by `seating`.
"""

from tournament.models.alerts import AlertSent
from tournament.models.players import Player, Registration, RegistrationQuerySet, Team
from tournament.models.registration_requests import (
    RegistrationRequest,
    RegistrationRequestQuerySet,
)
from tournament.models.rounds import (
    WIND_LABELS,
    WIND_ORDER,
    WINDS,
    Round,
    RoundQuerySet,
    Seat,
    TableTimeGrant,
)
from tournament.models.staff import AuditEntry, TournamentStaff
from tournament.models.tournaments import (
    MAX_ROUNDS,
    MIN_ROUNDS,
    RULESET_CHOICES,
    Tournament,
    TournamentQuerySet,
)

__all__ = [
    "MAX_ROUNDS",
    "MIN_ROUNDS",
    "RULESET_CHOICES",
    "WINDS",
    "WIND_LABELS",
    "WIND_ORDER",
    "AlertSent",
    "AuditEntry",
    "Player",
    "Registration",
    "RegistrationQuerySet",
    "RegistrationRequest",
    "RegistrationRequestQuerySet",
    "Round",
    "RoundQuerySet",
    "Seat",
    "TableTimeGrant",
    "Team",
    "Tournament",
    "TournamentQuerySet",
    "TournamentStaff",
]
