"""The database connection outlives a request on SQLite as on PostgreSQL: a new SQLite
connection reads the schema again on its first query (about 1.6 ms), more than every query
of a kept public page (docs/performance.md)."""

from tests.conftest import django_process_output

# What a server does around each request: a query, then the end of the request, which closes
# the connections that are too old.
REQUEST = """
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
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    printed = django_process_output(REQUEST, DATABASE_URL=database, DB_CONN_MAX_AGE="30")
    assert printed.split() == ["30", "True"]
