"""The database connection outlives a request on SQLite as on PostgreSQL: a new SQLite
connection reads the schema again on its first query (about 1.6 ms), more than every query
of a kept public page (docs/performance.md)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What a server does around each request: a query, then the end of the request, which closes
# the connections that are too old.
REQUEST = """
import django
django.setup()
from django.core.signals import request_finished, request_started
from django.db import connection
request_started.send(sender=None)
connection.ensure_connection()
request_finished.send(sender=None)
print(connection.settings_dict["CONN_MAX_AGE"], connection.connection is not None)
"""


def test_a_sqlite_connection_is_kept_after_a_request_for_as_long_as_the_environment_says(
    tmp_path,
):
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    environment.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", DB_CONN_MAX_AGE="30")
    printed = subprocess.run(
        [sys.executable, "-c", REQUEST],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed.split() == ["30", "True"]
