"""Numbers beyond their range (docs/rules-engine.md, "Ranges") are refused with a sentence
on every way in (the sheet forms, the penalty form, the rule overrides box, an archive),
points past ±8 × the start points are saved only once confirmed, and a number stored before
the ranges still shows on every page and export."""

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from scoring.models import Penalty, ScoreSheet, SheetVersion
from tests.conftest import (
    admin_form_data,
    confirm_sheet,
    make_registrations,
    make_rounds,
    make_staff,
    make_tournament,
)
from tests.scoring.conftest import (
    Role,
    check_and_save,
    seat_round,
    sheet_form_data,
)
from tournament.exports.archive import ArchiveError, archive_import, archive_json
from tournament.exports.registry import ROUND_EXPORTS, TOURNAMENT_EXPORTS
from tournament.formatting import format_points, format_score
from tournament.models import Tournament, TournamentStaff


def _url(event, name="sheet"):
    return reverse(f"scoring:{name}", args=[event["tournament"].slug, 1, 1])


@pytest.mark.parametrize(
    ("points", "seat", "field", "message"),
    [
        # 10³⁰ points that add up to 4 × 30 000 [WRC 2015 §4.1]: a 500 before
        (
            (10**30, -(10**30) + 120000, 0, 0),
            {},
            "E_points",
            "1.000e+30 points cannot come out of one hanchan: with 30,000 start points a "
            "player ends between −1,200,000 and 1,200,000.",
        ),
        # 10⁴⁰⁰ chombo (20 points each [WRC 2015 §7.1]): a 500 before
        (
            (42300, 31000, 27700, 19000),
            {"E": {"chombo": "1" + "0" * 400}},
            "E_chombo",
            "At most 10: 1.000e+400 cannot be right.",
        ),
        # 4 230 000 that adds up: checked without a word before
        (
            (4230000, -1370000, -1370000, -1370000),
            {},
            "E_points",
            "4,230,000 points cannot come out of one hanchan",
        ),
    ],
)
def test_check_refuses_a_number_no_hanchan_gives(
    referee, event, players, points, seat, field, message
):
    data = sheet_form_data(players, points=points, **seat)
    response = referee.post(_url(event), {**data, "action": "check"})
    assert response.status_code == 200
    assert response.context["form"].errors[field][0].startswith(message)
    assert response.context.get("preview") is None
    assert not SheetVersion.objects.exists()


def test_check_refuses_them_in_french(referee, event, players):
    data = sheet_form_data(players, points=(4230000, -1370000, -1370000, -1370000))
    response = referee.post(
        _url(event), {**data, "action": "check"}, headers={"accept-language": "fr"}
    )
    assert (
        response.context["form"]
        .errors["E_points"][0]
        .startswith("4\xa0230\xa0000 points ne peuvent pas sortir d’un seul hanchan")
    )


def test_unusual_points_are_saved_only_once_confirmed(referee, event, players):
    # 250 000 is past 8 × 30 000 [WRC 2015 §4.1]: a run of yakuman, or a typo.
    data = sheet_form_data(players, points=(250000, -50000, -40000, -40000))
    checked = referee.post(_url(event), {**data, "action": "check"})
    (warning,) = checked.context["unusual"]
    assert warning.startswith("East ends with 250,000 points, beyond 240,000 either way")
    digest = checked.context["checked"]
    unticked = referee.post(_url(event), {**data, "action": "save", "checked": digest})
    assert unticked.status_code == 200
    assert unticked.context["form"].errors["unusual_confirmed"]
    assert not SheetVersion.objects.exists()
    ticked = {**data, "action": "save", "checked": digest, "unusual_confirmed": "on"}
    assert referee.post(_url(event), ticked).status_code == 302
    assert SheetVersion.objects.get().data["seats"][0]["points"] == 250000


def test_usual_points_ask_nothing_more(referee, event, players):
    assert check_and_save(referee, _url(event), sheet_form_data(players)).status_code == 302


def test_a_penalty_beyond_the_range_is_refused_and_a_large_one_is_pointed_out(client, event):
    client.force_login(event["users"][Role.HEAD_REFEREE])
    player = event["registrations"][0]
    url = reverse("scoring:penalties", args=[event["tournament"].slug])
    data = {"registration": player.pk, "kind": "discretionary", "reason": "Phone"}
    response = client.post(url, {**data, "points": "100000"})
    assert response.context["form"].errors["points"] == [
        "A penalty takes off at most 99999.99 points."
    ]
    assert not Penalty.objects.exists()
    response = client.post(url, {**data, "points": "250"})
    assert response.status_code == 302
    # Ten WRC chombo are 200 points [WRC 2015 §7.1]: recorded, and said to be unusual.
    texts = [str(message) for message in get_messages(response.wsgi_request)]
    assert any("more than 200 points" in text for text in texts)


def _penalty(registration, points: Decimal, given_by) -> Penalty:
    """A penalty written as it stands in the database, past the form and the service."""
    return Penalty.objects.create(
        tournament=registration.tournament,
        registration=registration,
        kind=Penalty.Kind.OTHER,
        points=points,
        reason="Phone",
        given_by=given_by,
    )


def _standings_pages(tournament: Tournament, registration_id: int) -> list[str]:
    slug = tournament.slug
    pages = [
        reverse("public:rankings", args=[slug]),
        reverse("public:rankings_rows", args=[slug]),
        reverse("public:player", args=[slug, registration_id]),
        reverse("scoring:standings", args=[slug]),
        reverse("scoring:round", args=[slug, 1]),
        reverse("scoring:sheet", args=[slug, 1, 1]),
        reverse("scoring:history", args=[slug, 1, 1]),
        reverse("scoring:penalties", args=[slug]),
    ]
    pages += [reverse("staff:export", args=[slug, kind]) for kind in TOURNAMENT_EXPORTS]
    pages += [reverse("staff:round_export", args=[slug, 1, kind]) for kind in ROUND_EXPORTS]
    return pages


@pytest.mark.django_db
def test_numbers_stored_before_the_ranges_still_show_everywhere(client, django_user_model):
    # Two sheets of 10³⁰ points for one player, a correction of 10⁴⁰ and the largest penalty
    # the database holds, written as they were before the ranges.
    tournament = make_tournament(confirmation_policy="single")
    registrations = make_registrations(tournament, 4)
    rounds = make_rounds(tournament, 2)
    boss = django_user_model.objects.create_user("boss")
    make_staff(tournament, boss, Role.ORGANISER)
    for round_, points in ((rounds[0], 10**30), (rounds[1], 10**40)):
        seat_round(round_, registrations)
        outcome = confirm_sheet(round_, 1, boss)
        data = outcome.version.data
        data["seats"][0]["points"] = points
        data["seats"][1]["points"] = 120000 - 27700 - 19000 - points  # adds up
        SheetVersion.objects.filter(pk=outcome.version.pk).update(data=data)
    _penalty(registrations[0], Decimal("-999999.99"), boss)  # what the database holds
    client.force_login(boss)
    for url in _standings_pages(tournament, registrations[0].pk):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(10**40, 3), "+3.333e+39…"),
        (Fraction(-(10**400)), "−1.000e+400"),
        (Fraction(2 * 10**27), "+2.000e+27"),
        (Fraction(10**17 + 1, 10), "+10,000,000,000,000,000.1"),  # grouped as points are
    ],
)
def test_a_score_of_any_size_is_written(value, text):
    with translation.override("en"):
        assert format_score(value).replace(",", "") == text.replace(",", "")


def test_points_of_any_size_are_written():
    with translation.override("en"):
        assert format_points(-(10**5000)) == "−1.000e+5000"
        assert format_points(10**17) == "100,000,000,000,000,000"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"chombo_amount": ' + "9" * 5000 + "}", "a number of 5,000 digits"),
        ('{"start_points": 1' + "0" * 39 + "}", "a number of 40 digits"),
        ("[" * 100_000, "more than 8 levels deep"),
        ('{"uma": ' + "[" * 9 + "]" * 9 + "}", "more than 8 levels deep"),
        ('{"chombo_amount": 100000000000000}', "must be at most 100000; got 100000000000000"),
    ],
)
def test_the_rule_overrides_box_refuses_what_no_option_is(admin_client, text, message):
    page = admin_client.get(reverse("admin:tournament_tournament_add"))
    data = admin_form_data(page)
    data.update(name="QA Cup", slug="qa-cup", start_date="2026-12-01", end_date="2026-12-02")
    response = admin_client.post(
        reverse("admin:tournament_tournament_add"), {**data, "rule_options": text}
    )
    assert response.status_code == 200
    (error,) = response.context["adminform"].form.errors["rule_options"]
    assert message in error
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "english", "french"),
    [
        (
            {"chombo_amount": 10**35},
            'Option "chombo_amount" must be at most 100000; got 1' + "0" * 35 + ".",
            'L’option "chombo_amount" doit valoir au plus 100000 ; reçu 1' + "0" * 35 + ".",
        ),
        (
            {"start_points": 10**39},
            'Option "start_points" must be at most 100000; got 1' + "0" * 39 + ".",
            'L’option "start_points" doit valoir au plus 100000 ; reçu 1' + "0" * 39 + ".",
        ),
        (
            # WRC 2015 §7.1: 20 penalty points a chombo; ten of them at most
            {"chombo_amount": 500},
            'Option "chombo_amount" must be at most 200 when a chombo costs penalty points',
            'L’option "chombo_amount" doit valoir au plus 200 quand un chombo coûte des points',
        ),
        (
            # WRC 2015 §5.9.2: 15; 100 at most either way
            {"uma": [150, 50, -50, -150]},
            "Each place's uma must be between -100 and 100 points; got [150, 50, -50, -150].",
            "L’uma de chaque place doit être comprise entre -100 et 100 points ; reçu [150, 50, "
            "-50, -150].",
        ),
    ],
)
def test_an_option_beyond_its_range_is_said_in_the_organisers_words(options, english, french):
    tournament = make_tournament()
    tournament.rule_options = options
    for language, expected in (("en", english), ("fr", french)):
        with translation.override(language), pytest.raises(ValidationError) as info:
            tournament.full_clean()
        (message,) = info.value.message_dict["rule_options"]
        assert message.startswith(expected)


@pytest.fixture
def archived_sheet(django_user_model) -> dict:
    """The archive of a tournament with one confirmed sheet and a penalty (imported as a
    copy beside it)."""
    tournament = make_tournament(confirmation_policy="single")
    registrations = make_registrations(tournament, 4)
    (round_,) = make_rounds(tournament, 1)
    seat_round(round_, registrations)
    boss = get_user_model().objects.create_user("boss")
    make_staff(tournament, boss, TournamentStaff.Role.ORGANISER)
    confirm_sheet(round_, 1, boss)
    _penalty(registrations[0], Decimal("-5"), boss)
    return json.loads(archive_json(tournament))


def _object(data: dict, label: str) -> dict:
    return next(entry for entry in data["objects"] if entry["model"] == label)


@pytest.mark.django_db
def test_an_archive_brings_no_number_the_forms_refuse(archived_sheet):
    version = _object(archived_sheet, "scoring.sheetversion")
    version["fields"]["data"]["seats"][0]["points"] = 10**40
    with pytest.raises(ArchiveError) as error:
        archive_import(archived_sheet, slug="copy")
    assert "seats[0].points" in str(error.value)
    assert "cannot come out of one hanchan" in str(error.value)
    assert not Tournament.objects.filter(slug="copy").exists()


@pytest.mark.django_db
def test_an_archive_brings_no_penalty_beyond_the_range(archived_sheet):
    _object(archived_sheet, "scoring.penalty")["fields"]["points"] = "-150000.00"
    with pytest.raises(ArchiveError) as error:
        archive_import(archived_sheet, slug="copy")
    assert "A penalty takes off at most 99999.99 points." in str(error.value)


@pytest.mark.django_db
def test_an_archive_within_the_ranges_still_imports(archived_sheet):
    tournament = archive_import(archived_sheet, slug="copy")
    assert ScoreSheet.objects.get(round__tournament=tournament).status == "confirmed"
