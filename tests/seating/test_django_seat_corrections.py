"""A wrong-seat correction: the head referee records the winds one table actually played in
one round (the same four players, another order) with the reason. The seats become the
winds played and the sheet is checked against them; the correction and the audit log keep
both; the winds of the rounds to come are re-checked and, when asked, evened out by the
seating engine (docs/seating-theory.md: each player's winds as even as possible)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.entries import evaluate_entry, table_context
from scoring.rules import RulesErrors
from seating.models import SeatCorrection
from seating.selectors import wind_balance
from seating.services.winds import seat_correction_record, winds_rebalance
from tests.conftest import make_registrations, make_rounds, make_seats, make_staff, make_tournament
from tests.scoring.conftest import Role, make_entry
from tournament.models import WIND_ORDER, AuditEntry, Round, Seat


@pytest.fixture
def event(db, django_user_model):
    """One table of four, four rounds: round 1 playing, rounds 2–4 seated in a rotation
    that gives every player each wind once."""
    tournament = make_tournament(rounds_count=4)
    players = make_registrations(tournament, 4)
    rounds = make_rounds(tournament, 4)
    for shift, round_ in enumerate(rounds):
        make_seats(round_, players[-shift:] + players[:-shift] if shift else players)
        round_.status = Round.Status.PLAYING if shift == 0 else Round.Status.SEATED
        round_.save()
    head = django_user_model.objects.create_user("head", password="pw-head-123")
    make_staff(tournament, head, Role.HEAD_REFEREE)
    return {"tournament": tournament, "players": players, "rounds": rounds, "head": head}


def _winds(round_: Round, table: int = 1) -> list[int]:
    seats = Seat.objects.filter(round=round_, table_number=table)
    return [seat.registration_id for seat in sorted(seats, key=lambda s: WIND_ORDER[s.wind])]


def _swap_east_and_south(event, reason="East and South swapped seats at the start"):
    p1, p2, p3, p4 = event["players"]
    return seat_correction_record(
        round_=event["rounds"][0],
        table_number=1,
        played=[p2.pk, p1.pk, p3.pk, p4.pk],
        reason=reason,
        acting_user=event["head"],
    )


def test_the_seats_become_the_winds_played_and_the_record_keeps_both(event):
    p1, p2, p3, p4 = event["players"]
    correction = _swap_east_and_south(event)
    assert _winds(event["rounds"][0]) == [p2.pk, p1.pk, p3.pk, p4.pk]
    assert (correction.planned, correction.played) == (
        [p1.pk, p2.pk, p3.pk, p4.pk],
        [p2.pk, p1.pk, p3.pk, p4.pk],
    )
    entry = AuditEntry.objects.get(action="seating.seat_correction")
    assert entry.reason == "East and South swapped seats at the start"
    names = [registration.player.display_name for registration in event["players"]]
    assert entry.data["planned"] == dict(zip("ESWN", names, strict=True))
    assert entry.data["played"] == dict(zip("ESWN", [names[1], names[0], *names[2:]], strict=True))


def test_the_sheet_is_checked_against_the_winds_played(event):
    p1, p2, p3, p4 = event["players"]
    round_ = event["rounds"][0]
    rules = event["tournament"].get_rules()
    _swap_east_and_south(event)
    evaluate_entry(rules, make_entry([p2, p1, p3, p4]), table_context(round_, 1))
    with pytest.raises(RulesErrors) as refused:
        evaluate_entry(rules, make_entry([p1, p2, p3, p4]), table_context(round_, 1))
    assert {error.code for error in refused.value} == {"seat_wrong_wind"}


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ((0, 1, 2, 3), "These are the winds the table was seated in"),
        ((0, 0, 2, 3), "Give each of the table's four players one wind."),
    ],
)
def test_a_correction_that_is_no_correction_is_refused(event, order, message):
    players = event["players"]
    with pytest.raises(ValidationError, match=message):
        seat_correction_record(
            round_=event["rounds"][0],
            table_number=1,
            played=[players[index].pk for index in order],
            reason="Swapped",
            acting_user=event["head"],
        )
    assert not SeatCorrection.objects.exists()


@pytest.mark.parametrize(
    ("number", "status", "message"),
    [(2, Round.Status.SEATED, "not played yet"), (1, Round.Status.LOCKED, "locked")],
)
def test_only_a_round_played_and_not_locked_is_corrected(event, number, status, message):
    round_ = event["rounds"][number - 1]
    Round.objects.filter(pk=round_.pk).update(status=status)
    p1, p2, p3, p4 = _winds(round_)
    with pytest.raises(ValidationError, match=message):
        seat_correction_record(
            round_=round_,
            table_number=1,
            played=[p2, p1, p3, p4],
            reason="Swapped",
            acting_user=event["head"],
        )
    assert _winds(round_) == [p1, p2, p3, p4]


def test_the_winds_to_come_are_rechecked_and_evened_out(event):
    tournament = event["tournament"]
    assert wind_balance(tournament).spread == 0
    _swap_east_and_south(event)
    balance = wind_balance(tournament)
    # Round 4 seats player 2 as East again: East twice, South never.
    assert (balance.spread, balance.least, balance.can_be_evened) == (2, 0, True)
    assert [row.registration for row in balance.uneven] == event["players"][:2]
    tables_before = {number: set(_winds(event["rounds"][number - 1])) for number in (2, 3, 4)}
    changed = winds_rebalance(tournament=tournament, acting_user=event["head"])
    assert [round_.number for round_ in changed] == [2, 3, 4]
    assert wind_balance(tournament).spread == 0
    assert {n: set(_winds(event["rounds"][n - 1])) for n in (2, 3, 4)} == tables_before
    assert _winds(event["rounds"][0])[:2] == [event["players"][1].pk, event["players"][0].pk]
    assert AuditEntry.objects.get(action="seating.winds_rebalance").data == {
        "rounds": [2, 3, 4],
        "largest_spread": [2, 0],
    }
    assert winds_rebalance(tournament=tournament, acting_user=event["head"]) == []


def _page(event, table=None) -> str:
    args = [event["tournament"].slug, 1]
    if table is None:
        return reverse("seating:winds", args=args)
    return reverse("seating:seat_correction", args=[*args, table])


def test_the_pages_walk_the_permission_ladder(client, event, django_user_model):
    assert client.get(_page(event)).status_code == 302  # to the login
    referee = django_user_model.objects.create_user("referee")
    make_staff(event["tournament"], referee, Role.REFEREE)
    client.force_login(referee)
    assert client.get(_page(event)).status_code == 403
    assert client.post(_page(event, 1), {"reason": "x"}).status_code == 403
    client.force_login(event["head"])
    assert client.get(_page(event)).status_code == 200
    assert client.get(_page(event, 1)).status_code == 200
    assert client.get(_page(event, 9)).status_code == 404


def _form(event, order, reason="East and South swapped") -> dict:
    players = event["players"]
    return {**{w: players[i].pk for w, i in zip("ESWN", order, strict=True)}, "reason": reason}


def test_a_correction_on_the_page_shows_in_its_history(client, event):
    client.force_login(event["head"])
    response = client.post(_page(event, 1), _form(event, (1, 0, 2, 3)), follow=True)
    page = response.content.decode()
    assert "The winds played at table 1 are recorded." in page
    assert "East and South swapped" in page
    history = response.context["history"][0]["winds"]
    names = [registration.player.display_name for registration in event["players"]]
    assert history[0] == ("East", names[0], names[1])
    assert history[1] == ("South", names[1], names[0])
    assert response.context["balance"].can_be_evened
    assert "Even out the winds of the rounds to come" in page


def test_a_refused_correction_says_why_and_keeps_the_choice(client, event):
    client.force_login(event["head"])
    response = client.post(_page(event, 1), _form(event, (1, 1, 2, 3)))
    form = response.context["form"]
    assert form.errors["S"] == ["Each player plays one wind: this one is chosen twice."]
    assert (form["E"].value(), form["reason"].value()) == (
        str(event["players"][1].pk),
        "East and South swapped",
    )
    french = client.post(_page(event, 1), _form(event, (0, 1, 2, 3)), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Ce sont les vents dans lesquels la table était placée" in french.content.decode()
    assert not SeatCorrection.objects.exists()


def test_evening_out_from_the_page(client, event):
    _swap_east_and_south(event)
    client.force_login(event["head"])
    url = reverse("seating:winds_rebalance", args=[event["tournament"].slug, 1])
    response = client.post(url, follow=True)
    assert "The winds of rounds 2, 3, 4 are evened out." in response.content.decode()
    assert response.context["balance"].spread == 0
