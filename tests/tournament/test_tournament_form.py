"""The organiser's tournament form explains what is wrong instead of failing."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from tests.conftest import (
    admin_form_data,
    confirm_sheet,
    make_registrations,
    make_rounds,
    make_seats,
    make_tournament,
)
from tournament.models import Round, Tournament


@pytest.mark.django_db
@pytest.mark.parametrize("options", [{"uma": [20, 10, -10, -10]}, {"foo": 1}])
def test_invalid_rule_overrides_are_an_error_on_the_field(options):
    # An uma that does not sum to zero, an unknown option: refused with the engine's reason
    tournament = make_tournament()
    tournament.rule_options = options
    with pytest.raises(ValidationError) as info:
        tournament.full_clean()
    assert list(info.value.message_dict) == ["rule_options"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "english", "french"),
    [
        # The uma sums to zero and does not increase (docs/rules-engine.md, Rule sets; WRC 2015
        # §5.9.2 gives +15/+5/-5/-15)
        (
            {"uma": [20, 10, -10, -30]},
            "The uma must add up to zero; [20, 10, -10, -30] adds up to -10.",
            "La somme de l’uma doit être nulle ; [20, 10, -10, -30] fait -10.",
        ),
        (
            {"uma": [10, 20, -10, -20]},
            "The uma must not increase from 1st to 4th place; got [10, 20, -10, -20].",
            "L’uma ne doit pas augmenter de la 1re à la 4e place ; reçu [10, 20, -10, -20].",
        ),
        (
            {"umaa": [20, 10, -10, -20]},
            'Unknown option "umaa". The options are: start_points, return_points, oka, uma,',
            'Option "umaa" inconnue. Les options sont : start_points, return_points, oka, uma,',
        ),
        (
            {"uma": "20-10"},
            'Option "uma" must be a list of four whole numbers (1st, 2nd, 3rd, 4th); got "20-10".',
            'L’option "uma" doit être une liste de quatre nombres entiers (1re, 2e, 3e, 4e '
            'place) ; reçu "20-10".',
        ),
        (
            {"kiriage": "yes"},
            'Option "kiriage" must be true or false; got "yes".',
            'L’option "kiriage" doit être true ou false ; reçu "yes".',
        ),
        (
            {"start_points": 25050},
            'Option "start_points" must be a multiple of 100 table points; got 25050.',
            'L’option "start_points" doit être un multiple de 100 points de table ; reçu 25050.',
        ),
        (
            # WRC 2015 §5.7.2: the 3 000 noten payment is shared by one, two or three players
            {"noten_total": 1000},
            'Option "noten_total" must be a multiple of 600 table points, so that one, two or '
            "three tenpai players share it in hundreds; got 1000.",
            'L’option "noten_total" doit être un multiple de 600 points de table, pour qu’un, '
            "deux ou trois joueurs tenpai se la partagent en centaines ; reçu 1000.",
        ),
        (
            {"chombo_amount": -20},
            'Option "chombo_amount" must be at least 0; got -20.',
            'L’option "chombo_amount" doit valoir au moins 0 ; reçu -20.',
        ),
        (
            {"tie_mode": "coin"},
            'Option "tie_mode" must be one of split, seat_order; got "coin".',
            'L’option "tie_mode" doit être l’une de ces valeurs : split, seat_order ; reçu "coin".',
        ),
        (
            ["uma"],
            'The rule overrides must be an object of name: value, e.g. {"uma": [20, 10, -10, '
            "-20]}.",
            "Les modifications des règles s’écrivent comme un objet nom: valeur, p. ex. "
            '{"uma": [20, 10, -10, -20]}.',
        ),
    ],
)
def test_a_bad_override_is_explained_in_the_organisers_language(options, english, french):
    # The admin is in French for a French organiser: the engine's English reason was shown
    # there as it was ("Option 'uma' must add up to zero; …"), with Python's quotes
    tournament = make_tournament()
    tournament.rule_options = options
    for language, expected in (("en", english), ("fr", french)):
        with translation.override(language), pytest.raises(ValidationError) as info:
            tournament.full_clean()
        [message] = info.value.message_dict["rule_options"]
        assert message.startswith(expected)


@pytest.mark.django_db
def test_a_last_day_before_the_first_day_says_so():
    tournament = make_tournament()
    tournament.end_date = tournament.start_date - datetime.timedelta(days=1)
    with pytest.raises(ValidationError) as info:
        tournament.full_clean()
    assert info.value.message_dict == {"end_date": ["The last day cannot be before the first day."]}


def _add_form_data(admin_client, **values) -> dict:
    """The admin's add page as the organiser fills it in (inline management forms too)."""
    data = admin_form_data(admin_client.get(reverse("admin:tournament_tournament_add")))
    data.update(name="QA Cup", slug="qa-cup", start_date="2026-12-01", end_date="2026-12-02")
    data.update(values)
    return data


def test_the_admin_form_shows_a_bad_override_on_its_field(admin_client):
    data = _add_form_data(admin_client, rule_options='{"uma": [20, 10, -10, -10]}')
    response = admin_client.post(reverse("admin:tournament_tournament_add"), data)
    assert response.status_code == 200
    assert "rule_options" in response.context["adminform"].form.errors


def test_a_new_tournament_gets_its_rounds_and_no_round_beyond_them(admin_client):
    data = _add_form_data(admin_client, rounds_count="5", rule_options="{}")
    response = admin_client.post(reverse("admin:tournament_tournament_add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    tournament = Tournament.objects.get(slug="qa-cup")
    assert list(tournament.rounds.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    sixth = Round(tournament=tournament, number=6)
    with pytest.raises(ValidationError) as info:
        sixth.full_clean()
    assert info.value.message_dict["number"] == [
        "This tournament has 5 rounds: raise its number of rounds first."
    ]


def _change_form_data(admin_client, tournament, **values) -> dict:
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    data = admin_form_data(admin_client.get(url))
    data.update(values)
    return data


def _tournament_with_a_sheet(organiser) -> Tournament:
    tournament = make_tournament(confirmation_policy=Tournament.ConfirmationPolicy.SINGLE)
    round_ = make_rounds(tournament)[0]
    make_seats(round_, make_registrations(tournament, 4))
    confirm_sheet(round_, 1, organiser)
    return tournament


RULES_CHANGE_REFUSED = (
    "Score sheets have already been entered under the current rules: changing the rule set "
    "or its options would change every result entered so far, locked rounds included. Keep "
    "the rules of this tournament as they are."
)


@pytest.mark.parametrize(
    "change",
    [
        {"ruleset": "mahjongsoul"},
        # An uma of 20/10 instead of WRC's +15/+5/−5/−15 (WRC 2015 §5.9.2).
        {"rule_options": '{"uma": [20, 10, -10, -20]}'},
    ],
)
def test_the_rules_cannot_change_once_a_sheet_exists(admin_client, organiser, change):
    tournament = _tournament_with_a_sheet(organiser)
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    response = admin_client.post(url, _change_form_data(admin_client, tournament, **change))
    assert response.status_code == 200
    (field,) = change
    assert response.context["adminform"].form.errors[field] == [RULES_CHANGE_REFUSED]
    tournament.refresh_from_db()
    assert (tournament.ruleset, tournament.rule_options) == ("wrc2015", {})


def test_everything_else_can_change_once_a_sheet_exists(admin_client, organiser):
    tournament = _tournament_with_a_sheet(organiser)
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    data = _change_form_data(admin_client, tournament, venue="Salle des fêtes")
    assert admin_client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.venue == "Salle des fêtes"


def test_the_rules_can_change_while_no_sheet_exists(admin_client, tournament):
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    data = _change_form_data(
        admin_client, tournament, ruleset="mahjongsoul", rule_options='{"uma": [15, 5, -5, -15]}'
    )
    assert admin_client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.ruleset == "mahjongsoul"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("round_minutes", "0", "Ensure this value is greater than or equal to 1."),
        ("rounds_count", "0", "Ensure this value is greater than or equal to 1."),
        ("rounds_count", "41", "Ensure this value is less than or equal to 40."),
    ],
)
def test_out_of_range_numbers_say_what_is_wrong_not_the_constraint(
    admin_client, tournament, field, value, message
):
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    response = admin_client.post(url, _change_form_data(admin_client, tournament, **{field: value}))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {field: [message]}
