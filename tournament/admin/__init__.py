"""The organisers' back office.

Organisers who are not superusers see only the tournaments they organise (their admin
permissions come from that role). Status changes and imports go through services so they
are atomic and audited.

Importing the package registers every admin (Django's autodiscovery imports it).
"""

from tournament.admin import (  # noqa: F401
    audit,
    players,
    registrations,
    rounds,
    site,
    staff,
    teams,
    tournaments,
)
