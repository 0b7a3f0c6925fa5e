"""Alphabetical player lists and choices (seating by player, exports, score sheets, penalties):
accented names among the others, placeholder substitutes after the players."""

import pytest

from scoring.forms import PenaltyForm, SheetForm
from scoring.services.entries import table_context
from tests.conftest import make_player, make_registration, make_rounds, make_seats, make_tournament
from tests.exports.conftest import open_xlsx
from tournament.exports.seating import SeatingXlsx
from tournament.models import Player, Registration, Seat
from tournament.selectors import player_sort_key

# As the dropdowns show them, in the order wanted: Émile among the E, Ömer among the O.
PLAYERS = [("Anna", "Berg"), ("Émile", "Blanc"), ("Ömer", "Yılmaz"), ("Søren", "Ærø")]
PLACEHOLDERS = [("Substitute", "2"), ("Substitute", "10")]


def test_placeholder_substitutes_sort_after_the_players_and_by_number():
    names = [("Substitute", "10"), ("Zoé", "Martin"), ("Substitute", "2"), ("Ömer", "Yılmaz")]
    registrations = [
        Registration(player=Player(first_name=first, last_name=last)) for first, last in names
    ]
    ordered = sorted(registrations, key=player_sort_key)
    assert [r.player.sorted_name for r in ordered] == [
        "Martin, Zoé",
        "Yılmaz, Ömer",
        "Substitute 2",
        "Substitute 10",
    ]


@pytest.fixture
def mixed_round(db):
    """A table of four with accented first names and two placeholder substitutes."""
    tournament = make_tournament()
    registrations = {
        f"{first} {last}": make_registration(
            tournament,
            player=make_player(
                first_name=first, last_name=last, country="" if last.isdigit() else "FR"
            ),
            is_substitute=(first, last) in PLACEHOLDERS,
        )
        for first, last in reversed(PLAYERS + PLACEHOLDERS)
    }
    round_ = make_rounds(tournament, 1)[0]
    make_seats(round_, [registrations[f"{first} {last}"] for first, last in PLAYERS])
    return round_


def _labels(field) -> list[str]:
    return [str(label) for value, label in field.choices if value != ""]


def test_score_sheet_choices_put_accented_names_in_place_and_placeholders_last(mixed_round):
    form = SheetForm(context=table_context(mixed_round, 1))
    assert _labels(form.fields["E_player"]) == [
        "Anna Berg",
        "Émile Blanc",
        "Ömer Yılmaz",
        "Søren Ærø",
    ]
    assert _labels(form.fields["E_substitute"]) == ["Substitute 2", "Substitute 10"]


def test_penalty_choices_put_accented_names_in_place_and_leave_substitutes_out(mixed_round):
    form = PenaltyForm(tournament=mixed_round.tournament)
    # Substitutes are not ranked, so a penalty for them would count nowhere (WRC 2015 §7.2).
    assert _labels(form.fields["registration"]) == [
        "Anna Berg",
        "Émile Blanc",
        "Ömer Yılmaz",
        "Søren Ærø",
    ]
    registration = mixed_round.tournament.registrations.get(player__first_name="Émile")
    form = PenaltyForm(
        {"registration": registration.pk, "kind": "other", "points": "10", "reason": "Late"},
        tournament=mixed_round.tournament,
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["registration"] == registration


def test_seating_xlsx_writes_a_placeholder_as_its_name_after_the_players(mixed_round):
    placeholder = mixed_round.tournament.registrations.get(player__last_name="2")
    Seat.objects.create(round=mixed_round, table_number=2, wind="E", registration=placeholder)
    by_table, by_player = open_xlsx(SeatingXlsx(mixed_round).render()[2]).worksheets
    assert (2, "E", "Substitute 2", None, None) in list(by_table.iter_rows(values_only=True))
    names = [row[0] for row in by_player.iter_rows(min_row=2, values_only=True)]
    assert names == ["Ærø", "Berg", "Blanc", "Yılmaz", "Substitute 2"]  # Æ folded to AE
