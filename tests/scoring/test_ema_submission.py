"""The EMA submission: the MERS preview from a tournament's data (weight, base ranks,
warnings), its staff page and the pack the organiser downloads.

The expected weights and base ranks are worked out by hand from the EMA's "Basics for
ranking system" (weight calculation; base rank 1000 × (N − place) / (N − 1))."""

from decimal import Decimal
from fractions import Fraction

import pytest
from django.db.models import F
from django.urls import reverse

from scoring.exports.ema_pack import EmaPackXlsx
from scoring.models import SeatResult
from scoring.rules import SCORE_UNIT
from scoring.selectors.ema import ema_preview, table_checks
from scoring.services.penalties import penalty_give
from tests.conftest import make_player, make_registration, make_rounds, make_staff, make_tournament
from tests.exports.conftest import open_xlsx
from tests.scoring.conftest import Role, enter, make_entry, seat_round, table_registrations
from tournament.models import Player, Registration


@pytest.fixture
def event(db, django_user_model):
    """A two-day tournament (6–7 June) of 9 players and 1 substitute; round 1 seats 8 of
    them at two tables, both sheets confirmed (single entry), the ninth has no result.

    Table 1: Zoé, Hugo (no EMA number), Lena, Aino (no nationality), points 42,300 /
    31,000 / 27,700 / 19,000, a chombo for South (Hugo).
    Table 2: four French players with numbers. Ninth: Giulia, IT. Substitute: Taro, JP.
    """
    tournament = make_tournament(name="Open de Paris", venue="Salle des fêtes")
    tournament.confirmation_policy = "single"
    tournament.save()
    people = [
        ("Zoé", "Martin", "FR", "04000001"),
        ("Hugo", "Bernard", "FR", ""),
        ("Lena", "Schmidt", "DE", "05000001"),
        ("Aino", "Korhonen", "", "09000004"),
        *[(f"Joueur{n}", "Dupont", "FR", f"0400001{n}") for n in range(4)],
    ]
    registrations = [
        make_registration(
            tournament,
            player=make_player(first_name=first, last_name=last, country=country, ema_number=ema),
        )
        for first, last, country, ema in people
    ]
    ninth = make_registration(
        tournament,
        player=make_player(
            first_name="Giulia", last_name="Rossi", country="IT", ema_number="08000001"
        ),
    )
    make_registration(
        tournament,
        player=make_player(
            first_name="Taro", last_name="Yamada", country="JP", ema_number="10000002"
        ),
        is_substitute=True,
    )
    round_ = make_rounds(tournament, 1)[0]
    seat_round(round_, registrations)
    organiser = django_user_model.objects.create_user("orga", password="pw-orga-123")
    make_staff(tournament, organiser, Role.ORGANISER)
    enter(round_, 1, make_entry(table_registrations(round_, 1), S={"chombo": 1}), organiser)
    enter(round_, 2, make_entry(table_registrations(round_, 2)), organiser)
    return {"tournament": tournament, "round": round_, "organiser": organiser, "ninth": ninth}


def test_the_weight_counts_days_players_substitutes_countries_and_qualification(event):
    tournament = event["tournament"]
    preview = ema_preview(tournament)
    # 2 days; 9 players + 1 substitute = 10 (≤ 40); FR, DE, IT, JP = 4 countries (≤ 5).
    assert (preview.days, preview.players, preview.substitutes) == (2, 9, 1)
    assert (preview.counted_players, preview.countries) == (10, 4)
    assert preview.weight.total == 2
    tournament.mers_qualification = True
    tournament.save()
    # Qualification "YES": +1.
    assert ema_preview(tournament).weight.total == 3


def test_a_player_who_withdrew_before_playing_is_not_a_participant(event):
    event["ninth"].status = Registration.Status.WITHDRAWN
    event["ninth"].save()
    preview = ema_preview(event["tournament"])
    assert preview.players == 8
    # Italy was the ninth player's country only.
    assert preview.countries == 3
    assert "no_result" not in {warning.code for warning in preview.warnings}


def test_base_ranks_follow_the_places_of_the_eight_ranked_players_ties_shared(event):
    preview = ema_preview(event["tournament"])
    ranked = preview.ranked
    # N = 8 ranked (the ninth has no place): place p earns 1000 × (8 − p) / 7. Both tables
    # score +27.3 / +6.0 / −7.3 / −26.0 (WRC 2015 §5.9.2), but Hugo's chombo (−20) takes
    # him to −14.0: 27.3, 27.3, 6.0, −7.3, −7.3, −14.0, −26.0, −26.0 → 1, 1, 3, 4, 4, 6, 7, 7.
    assert [line.place for line in ranked] == [1, 1, 3, 4, 4, 6, 7, 7]
    assert [line.base_rank for line in ranked] == [
        Fraction(1000),
        Fraction(1000),
        Fraction(5000, 7),
        Fraction(4000, 7),
        Fraction(4000, 7),
        Fraction(2000, 7),
        Fraction(1000, 7),
        Fraction(1000, 7),
    ]


def test_warnings_name_missing_numbers_nationalities_and_missing_results(event):
    warnings = {warning.code: warning for warning in ema_preview(event["tournament"]).warnings}
    assert [player.first_name for player in warnings["missing_ema_number"].players] == ["Hugo"]
    assert [player.first_name for player in warnings["missing_country"].players] == ["Aino"]
    assert [player.first_name for player in warnings["no_result"].players] == ["Giulia"]
    assert warnings["missing_ema_number"].message == "1 player has no EMA number: Hugo Bernard."


def test_no_warning_when_every_player_is_ready(db):
    tournament = make_tournament()
    for number in range(4):
        make_registration(tournament, player=make_player(ema_number=f"0400000{number}"))
    # Nobody has played yet: each of them still waits for a result, nothing else is wrong.
    assert [warning.code for warning in ema_preview(tournament).warnings] == ["no_result"]


def test_a_table_whose_scores_do_not_sum_to_zero_is_flagged(event):
    assert all(check.balanced for check in table_checks(event["tournament"]))
    # A stored score off by one point at table 2 (as a corrupted row would be).
    row = SeatResult.objects.filter(sheet__table_number=2).order_by("pk").first()
    SeatResult.objects.filter(pk=row.pk).update(score=F("score") + SCORE_UNIT)
    checks = {check.table_number: check for check in table_checks(event["tournament"])}
    assert checks[1].balanced
    assert not checks[2].balanced
    assert checks[2].total == 1


def test_the_pack_reopens_with_results_penalties_table_check_and_observer_report(event):
    tournament = event["tournament"]
    penalty_give(
        registration=event["ninth"],
        points=Decimal(5),
        reason="Phone",
        acting_user=event["organiser"],
    )
    row = SeatResult.objects.filter(sheet__table_number=2).order_by("pk").first()
    SeatResult.objects.filter(pk=row.pk).update(score=F("score") - SCORE_UNIT)
    filename, _type, content = EmaPackXlsx(tournament).render()
    assert filename == f"{tournament.slug}-ema-pack.xlsx"
    workbook = open_xlsx(content)
    assert workbook.sheetnames == [
        "EMA results",
        "Penalties and chombo",
        "Table check",
        "Observer report",
    ]
    results = list(workbook["EMA results"].values)
    assert results[0] == ("Place", "EMA number", "Last name", "First name", "Country", "Points")
    assert len(results) == 1 + 8
    penalties = list(workbook["Penalties and chombo"].values)[1:]
    kinds = {(line[3], line[5]) for line in penalties}
    assert ("Hugo", "Chombo") in kinds
    assert any(line[3] == "Giulia" and line[7] == "Phone" for line in penalties)
    checks = list(workbook["Table check"].values)
    assert checks[0] == ("Round", "Table", "Sum of scores", "Check")
    assert checks[1] == (1, 1, 0, "OK")
    assert checks[2] == (1, 2, -1, "Does not sum to zero")
    report = dict(list(workbook["Observer report"].values)[1:])
    assert report["Tournament"] == "Open de Paris"
    assert report["Venue"] == "Salle des fêtes"
    assert report["MERS weight"] == 2
    assert report["Players counted (at most 3 substitutes)"] == 10
    assert report["Countries"] == 4
    assert "Round 1 (2 tables)" in report
    assert report["First day"].date().isoformat() == "2026-06-06"


def test_the_organiser_downloads_the_pack(client, event):
    tournament = event["tournament"]
    client.force_login(event["organiser"])
    url = reverse("staff:export", kwargs={"slug": tournament.slug, "kind": "ema-pack-xlsx"})
    response = client.get(url)
    assert response.status_code == 200
    assert "ema-pack.xlsx" in response["Content-Disposition"]
    assert "Observer report" in open_xlsx(response.content).sheetnames


def test_the_staff_page_shows_weight_warnings_and_base_ranks(client, event, django_user_model):
    tournament = event["tournament"]
    referee = django_user_model.objects.create_user("ref", password="pw-ref-1234")
    make_staff(tournament, referee, Role.REFEREE)
    client.force_login(referee)
    response = client.get(reverse("scoring:ema", kwargs={"slug": tournament.slug}))
    assert response.status_code == 200
    page = response.content.decode()
    assert '<span class="mers-weight">2.0</span>' in page
    assert "1 player has no nationality: Aino Korhonen." in page
    assert "714.29" in page  # 3rd of 8: 1000 × 5 / 7
    # The download is the organiser's: a referee is not offered it.
    assert "ema-pack-xlsx" not in page


def test_the_staff_page_speaks_french(client, event):
    client.force_login(event["organiser"])
    response = client.get(
        reverse("scoring:ema", kwargs={"slug": event["tournament"].slug}),
        headers={"accept-language": "fr"},
    )
    page = response.content.decode()
    assert "Poids MERS" in page
    assert "ema-pack-xlsx" in page


def test_the_staff_page_writes_half_points_as_decimals(client, event):
    tournament = event["tournament"]
    # Two more countries (ES, NL): 6 in all, "6 <= X <= 9" → +0.5, a weight of 2.5.
    Player.objects.filter(first_name="Joueur0").update(country="ES")
    Player.objects.filter(first_name="Joueur1").update(country="NL")
    client.force_login(event["organiser"])
    page = client.get(reverse("scoring:ema", kwargs={"slug": tournament.slug})).content.decode()
    assert '<span class="mers-weight">2.5</span>' in page
    assert '<td class="number">0.5</td>' in page
    assert "1/2" not in page
