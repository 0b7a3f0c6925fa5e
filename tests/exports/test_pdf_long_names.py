"""Long names in narrow PDF cells wrap between words or after their own hyphen, never in
the middle of a word: "Fe" / "atherstoneha" / "ugh-Cholmon" / "deley" on a score sheet is
a name nobody at the table recognises."""

import re

import pytest

from scoring.exports.score_sheets import ScoreSheetsPdf
from scoring.exports.standings_pdf import StandingsPdf
from tests.conftest import make_player, make_registration
from tests.exports.conftest import pdf_text

LAST_NAME = "Featherstonehaugh-Cholmondeley"


def pieces(text: str) -> set[str]:
    """What the PDF wrote of the last name, line by line."""
    return set(re.findall(r"\S*(?:ehaugh|Cholm|ndeley)\S*", text))


@pytest.fixture
def long_name_round(seated_round):
    player = make_player(first_name="Bartholomew-Maximilian", last_name=LAST_NAME, country="GB")
    seat = seated_round.seats.get(table_number=1, wind="S")
    seat.registration = make_registration(seated_round.tournament, player=player)
    seat.save()
    return seated_round


@pytest.mark.parametrize("hands", [False, True])
def test_score_sheets_break_a_long_name_after_its_hyphen(long_name_round, hands):
    text = pdf_text(ScoreSheetsPdf(long_name_round, hands=hands).render()[2])
    # Seat header (and the hands' header): "Featherstonehaugh-" / "Cholmondeley"; the
    # signature lines have room for the whole name.
    assert pieces(text) <= {"Featherstonehaugh-", "Cholmondeley", LAST_NAME}
    assert "Featherstonehaugh-" in pieces(text)


def test_standings_pdf_breaks_a_long_name_after_its_hyphen(long_name_round):
    # Listed without a result yet: the name is in the player column all the same.
    text = pdf_text(StandingsPdf(long_name_round.tournament).render()[2])
    assert pieces(text) <= {"Featherstonehaugh-", "Cholmondeley", LAST_NAME}


@pytest.mark.parametrize("hands", [False, True])
def test_score_sheet_title_keeps_round_and_table_together(seated_round, hands):
    # Under a long tournament name the title wrapped before the table number, left alone
    # at the start of a third line ("… — Round 1 · Table" / "1").
    tournament = seated_round.tournament
    tournament.name = (
        "Featherstonehaugh-Cholmondeley Memorial — Open international Ångström de Paris 2026"
    )
    tournament.save()
    text = pdf_text(ScoreSheetsPdf(seated_round, hands=hands).render()[2])
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert not [line for line in lines if line.endswith("Table") or line in ("1", "2")]
    assert [line for line in lines if line.endswith("Round 1 · Table 2")]
