"""Alphabetical player lists and choices (seating by player, exports, score sheets, penalties,
the admin's lists): accented names among the others, placeholder substitutes after the
players."""

import pytest
from django.urls import reverse

from scoring.entries import table_context
from scoring.forms import PenaltyForm, SheetForm
from scoring.models import Penalty
from seating.exports.seating import SeatingXlsx
from seating.models import FixedTable
from tests.conftest import make_player, make_registration, make_rounds, make_seats, make_tournament
from tests.exports.conftest import open_xlsx
from tournament.exports.registrations import RegistrationsXlsx
from tournament.models import Player, Registration, Seat
from tournament.names import player_sort_key

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
    rows = list(by_table.iter_rows(values_only=True))
    assert (2, "East", "Substitute 2", None, None, None) in rows  # no club nor team either
    names = [row[0] for row in by_player.iter_rows(min_row=2, values_only=True)]
    assert names == ["Ærø", "Berg", "Blanc", "Yılmaz", "Substitute 2"]  # Æ folded to AE


def test_registrations_xlsx_lists_accented_names_in_place_and_placeholders_last(mixed_round):
    sheet = open_xlsx(RegistrationsXlsx(mixed_round.tournament).render()[2]).active
    last_names = [row[1] for row in sheet.iter_rows(min_row=2, values_only=True)]
    # As the seating by player: Æ folded to AE, "Substitute 1" not first but after the players.
    assert last_names == ["Ærø", "Berg", "Blanc", "Yılmaz", "2", "10"]


@pytest.fixture
def placeholders_and_players(db) -> list[Registration]:
    """Two placeholder substitutes and three players, created in the wrong order, as the
    admin should list them: players by last name, then the placeholders, 2 before 10."""
    tournament = make_tournament()
    names = [("Anna", "Berg"), ("Chloe", "Dubois"), ("Zoe", "Martin"), *PLACEHOLDERS]
    created = {
        (first, last): make_registration(
            tournament,
            player=make_player(first_name=first, last_name=last),
            is_substitute=(first, last) in PLACEHOLDERS,
        )
        for first, last in reversed(names)
    }
    return [created[name] for name in names]


def _names(rows) -> list[str]:
    """The players' names of registrations, players, or rows with a registration."""
    players = [getattr(getattr(row, "registration", row), "player", row) for row in rows]
    return [player.display_name for player in players]


def _search_box(client, app_label: str, model: str, field: str) -> list[str]:
    query = {"app_label": app_label, "model_name": model, "field_name": field}
    results = client.get(reverse("admin:autocomplete"), query).json()["results"]
    return [result["text"].split(" (")[0] for result in results]


def test_the_admin_lists_players_with_placeholders_last(admin_client, placeholders_and_players):
    expected = _names(placeholders_and_players)
    for changelist in ("tournament_registration_changelist", "tournament_player_changelist"):
        page = admin_client.get(reverse(f"admin:{changelist}"))
        assert _names(page.context["cl"].result_list) == expected, changelist
    # The search boxes of a fixed table's registration and of a registration's player.
    assert _search_box(admin_client, "seating", "fixedtable", "registration") == expected
    assert _search_box(admin_client, "tournament", "registration", "player") == expected


def _one_row_each(model: str, registrations: list[Registration], user) -> None:
    """A seat, a penalty or a fixed table for each registration, in the order given."""
    if model in ("registration", "player"):
        return  # those lists are of the registrations or players themselves
    tournament = registrations[0].tournament
    round_ = make_rounds(tournament, 1)[0]
    for table, registration in enumerate(registrations, start=1):
        if model == "seat":
            Seat.objects.create(
                round=round_, table_number=table, wind="E", registration=registration
            )
        elif model == "penalty":
            Penalty.objects.create(
                tournament=tournament,
                registration=registration,
                kind=Penalty.Kind.OTHER,
                points=-10,
                reason="Late",
                given_by=user,
            )
        else:
            FixedTable.objects.create(registration=registration, table_number=table)


@pytest.mark.parametrize(
    ("changelist", "column"),
    [
        ("admin:tournament_registration_changelist", "player"),
        ("admin:tournament_player_changelist", "last_name"),
        ("admin:tournament_seat_changelist", "registration"),
        ("admin:scoring_penalty_changelist", "registration"),
        ("admin:seating_fixedtable_changelist", "registration"),
    ],
)
def test_sorting_an_admin_list_by_player_puts_placeholders_last(
    admin_client, admin_user, placeholders_and_players, changelist, column
):
    registrations = placeholders_and_players
    _one_row_each(changelist.split("_")[1], registrations, admin_user)
    url = reverse(changelist)
    index = admin_client.get(url).context["cl"].list_display.index(column)
    for order, expected in ((str(index), registrations), (f"-{index}", registrations[::-1])):
        page = admin_client.get(url, {"o": order})
        assert _names(page.context["cl"].result_list) == _names(expected), order
