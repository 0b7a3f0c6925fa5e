"""An import that fails half-way leaves nothing behind: no player, team, registration or
audit entry from the file, whatever stops it (a crash, a database constraint)."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from tournament.importing import ImportRow
from tournament.models import AuditEntry, Player, Registration, Team
from tournament.services import players as players_service
from tournament.services.players import players_import

ROWS = [
    {
        "first_name": f"Zoé{index}",
        "last_name": "Martin",
        "country": "FR",
        "ema_number": f"{index + 1:08d}",
        "team": f"Team {index % 5}",
    }
    for index in range(120)
]


def _nothing_from_the_file(tournament) -> None:
    assert not Player.objects.filter(last_name="Martin").exists()
    assert not Registration.objects.filter(tournament=tournament).exists()
    assert not Team.objects.filter(tournament=tournament).exists()
    assert not AuditEntry.objects.filter(action="players.import").exists()


@pytest.mark.django_db(transaction=True)
def test_a_crash_on_the_50th_row_leaves_nothing(tournament, monkeypatch):
    saved = []
    original_save = Player.save

    def save_until_the_50th(self, *args, **kwargs):
        saved.append(self.first_name)
        if len(saved) == 50:
            raise RuntimeError("the server was stopped")
        return original_save(self, *args, **kwargs)

    monkeypatch.setattr(Player, "save", save_until_the_50th)
    with pytest.raises(RuntimeError):
        players_import(tournament=tournament, rows=ROWS, acting_user=None)
    assert len(saved) == 50
    _nothing_from_the_file(tournament)


@pytest.mark.django_db(transaction=True)
def test_a_constraint_hit_half_way_leaves_nothing(tournament, monkeypatch):
    """The 60th row repeats the 10th row's EMA number and the row check misses it: the
    database's unique constraint stops the import there, and the first 59 rows go too."""
    rows = [dict(row) for row in ROWS]
    rows[59]["ema_number"] = rows[9]["ema_number"]

    def check_nothing(tournament, rows, *, acting_user):
        return [ImportRow(line=index + 2, values=dict(row)) for index, row in enumerate(rows)]

    monkeypatch.setattr(players_service, "check_rows", check_nothing)
    with pytest.raises((IntegrityError, ValidationError)):
        players_import(tournament=tournament, rows=rows, acting_user=None)
    _nothing_from_the_file(tournament)


@pytest.mark.django_db(transaction=True)
def test_a_complete_import_writes_every_row_and_one_audit_entry(tournament):
    outcome = players_import(tournament=tournament, rows=ROWS, acting_user=None)
    assert outcome.created == len(ROWS)
    assert Registration.objects.filter(tournament=tournament).count() == len(ROWS)
    assert AuditEntry.objects.filter(action="players.import").count() == 1
