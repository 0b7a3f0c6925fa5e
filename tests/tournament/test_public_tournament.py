"""`public_tournament`: the anonymous readers' tournament, its SQL compiled once a process."""

import pytest

from tests.conftest import make_tournament
from tournament.selectors import public_tournament
from tournament.services.audit import audit_record

pytestmark = pytest.mark.django_db


def test_each_slug_reads_its_own_public_tournament_and_never_a_hidden_one():
    # Any stored option shows the JSON decoded; this uma is only data here, not a rule.
    first = make_tournament(is_public=True, rule_options={"uma": [20, 10, -10, -20]})
    second = make_tournament(is_public=True)
    hidden = make_tournament(is_public=False)
    # The same compiled query, a different slug each time.
    assert public_tournament(first.slug).pk == first.pk
    assert public_tournament(second.slug).pk == second.pk
    assert public_tournament(hidden.slug) is None
    assert public_tournament("no-such-open") is None
    assert public_tournament(f"{first.slug}' OR '1'='1") is None  # a parameter, not SQL
    # Read as the ORM reads it: a JSON field decoded, a date a date.
    found = public_tournament(first.slug)
    assert found.rule_options == {"uma": [20, 10, -10, -20]}
    assert found.start_date == first.start_date


def test_the_latest_audit_entry_comes_with_it_when_asked():
    tournament = make_tournament(is_public=True)
    assert public_tournament(tournament.slug, with_last_audit=True).last_audit is None
    entry = audit_record(tournament=tournament, actor=None, action="tournament.update")
    assert public_tournament(tournament.slug, with_last_audit=True).last_audit == entry.pk
    assert not hasattr(public_tournament(tournament.slug), "last_audit")
