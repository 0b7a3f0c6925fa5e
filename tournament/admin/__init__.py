"""The organisers' back office.

Organisers who are not superusers see only the tournaments they organise (their admin
permissions come from that role). Every save and deletion goes through a service
(`writes`), so it is atomic and audited; what only the services write (results, seats,
seating runs, the audit log) is read-only here (`base.ReadOnlyAdmin`).

Importing the package registers every admin (Django's autodiscovery imports it).
"""

from tournament.admin import (  # noqa: F401
    alerts,
    audit,
    players,
    registration_requests,
    registrations,
    rounds,
    site,
    staff,
    teams,
    tournaments,
)
