"""The score-sheet pages driven with the Django client, as an official at the table does."""

import copy
import datetime
import re
import time
import uuid

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.http import QueryDict
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format, time_format

from scoring.forms import with_room_for_more_hands
from scoring.models import Penalty, ScoreSheet, SheetVersion
from seating.selectors import swiss_standings
from seating.services import seating_run_apply, seating_run_swiss
from tests.conftest import make_registration, make_staff, make_tournament
from tests.scoring.conftest import (
    Role,
    check_and_save,
    enter,
    make_entry,
    seat_round,
    sheet_form_data,
    table_registrations,
)
from tournament.kept_input import (
    KEPT_INPUT_MAX_CHARACTERS,
    KEPT_INPUT_SECONDS,
    KEPT_INPUT_SESSION_KEY,
    KEPT_INPUT_USER_FIELD,
)
from tournament.models import Registration, Round, Tournament, TournamentStaff
from tournament.services.clock import clock_start

Status = ScoreSheet.Status


def _url(event, name="sheet", table=1, number=1):
    return reverse(f"scoring:{name}", args=[event["tournament"].slug, number, table])


def _policy(event, policy):
    event["tournament"].confirmation_policy = policy
    event["tournament"].save()


BAD_SHEETS = [
    pytest.param({"N": {"points": 18000}}, "__all__", "add up to", id="sum-off"),
    pytest.param(
        {"E": {"points": 42350}, "N": {"points": 18950}},
        "E_points",
        "not a multiple of 100",
        id="not-multiple-of-100",
    ),
    pytest.param({"S": {"player": "E"}}, "S_player", "already written", id="same-player-twice"),
    pytest.param({"W": {"player": "table2"}}, "W_player", "table 2", id="wrong-table"),
]


@pytest.mark.parametrize("action", ["check", "save"])
@pytest.mark.parametrize(("changes", "field", "text"), BAD_SHEETS)
def test_a_bad_sheet_is_refused_on_its_field_and_keeps_the_input(
    referee, event, players, changes, field, text, action
):
    other_table = table_registrations(event["rounds"][0], 2)
    changes = copy.deepcopy(changes)  # the parameters are shared between runs
    for seat in changes.values():
        if seat.get("player") == "E":
            seat["player"] = players[0].pk
        elif seat.get("player") == "table2":
            seat["player"] = other_table[2].pk
    data = sheet_form_data(players, **changes)
    response = referee.post(_url(event), {**data, "action": action})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert text in " ".join(errors[field])
    assert not SheetVersion.objects.exists()
    html = response.content.decode()
    for wind in ("E", "S", "W", "N"):
        assert f'value="{data[f"{wind}_points"]}"' in html  # everything typed is still there


@pytest.mark.parametrize("typed", ["25.000", "25,000", "25.5"])
def test_points_typed_with_a_dot_or_comma_are_refused_not_read_as_25(
    referee, event, players, typed
):
    # "25.000" is 25 000 written the European way; it was read as 25 ("25 is not a multiple
    # of 100") and added 25 to the sum. With 25 000 the four seats hold the 120 000 points
    # of four 30 000 starts (docs/rules.md §7.4 item 4).
    data = sheet_form_data(players, points=(typed, 41000, 35000, 19000))
    response = referee.post(_url(event), {**data, "action": "check"})
    errors = response.context["form"].errors
    assert errors["E_points"] == [
        "Enter the final points without a dot or comma: 25000, not 25.000."
    ]
    assert "__all__" not in errors  # no sum computed from a number nobody typed
    assert f'value="{typed}"' in response.content.decode()


def test_the_check_step_shows_place_uma_penalty_and_score(referee, event, players):
    data = sheet_form_data(players, S={"chombo": 1})
    response = referee.post(_url(event), {**data, "action": "check"})
    preview = response.context["preview"]
    # WRC 2015 §5.9.2 and §7.1: South 2nd, +5 uma, 20 chombo penalty points: 1 + 5 - 20
    south = preview.lines[1]
    assert (south.place, south.uma, south.penalty, south.score) == (2, "+5.0", "−20.0", "−14.0")
    assert not SheetVersion.objects.exists()


def test_saving_what_was_not_checked_shows_the_check_again(referee, event, players):
    data = sheet_form_data(players)
    response = referee.post(_url(event), {**data, "action": "save", "checked": "stale"})
    assert response.status_code == 200
    assert response.context["preview"] is not None
    assert not SheetVersion.objects.exists()


def test_a_double_submit_stores_one_result(referee, event, players):
    data = sheet_form_data(players)
    first = check_and_save(referee, _url(event), data)
    assert first.status_code == 302
    checked = referee.post(_url(event), {**data, "action": "check"})
    assert checked.status_code == 200  # the sheet is entered: the form is still offered
    again = referee.post(
        _url(event), {**data, "action": "save", "checked": checked.context.get("checked")}
    )
    assert again.status_code == 302
    assert SheetVersion.objects.count() == 1
    page = referee.get(_url(event))
    assert "nothing was saved twice" in page.content.decode()


def test_two_officials_saving_at_once_get_a_conflict_not_an_overwrite(
    client, event, players, django_user_model
):
    client.force_login(event["users"][Role.REFEREE])
    check_and_save(client, _url(event), sheet_form_data(players))
    client.force_login(event["users"]["referee2"])
    late = sheet_form_data(players, points=(42300, 31000, 19000, 27700), revision=0)
    response = check_and_save(client, _url(event), late)
    assert response.status_code == 200
    assert "someone else has saved it since" in response.context["error"]
    assert response.context["conflict"].lines[2].points == 27700  # what is saved now
    assert response.context["form"]["W_points"].value() == "19000"  # what they typed
    assert response.context["form"]["revision"].value() == "1"
    assert SheetVersion.objects.count() == 1


def test_single_entry_a_stale_page_keeps_the_input_and_a_resent_save_is_recognised(
    client, event, players
):
    _policy(event, Tournament.ConfirmationPolicy.SINGLE)
    client.force_login(event["users"][Role.REFEREE])
    saved = sheet_form_data(players)
    check_and_save(client, _url(event), saved)
    assert ScoreSheet.objects.get().status == Status.CONFIRMED
    # The same save sent again (a double tap, a retry after a lost connection)
    again = client.post(_url(event), {**saved, "action": "save", "checked": "x"}, follow=True)
    assert "nothing was saved twice" in again.content.decode()
    # A second official on a page loaded before the save: the input stays on the page
    client.force_login(event["users"]["referee2"])
    late = sheet_form_data(players, points=(42300, 31000, 19000, 27700), revision=0)
    for action in ("check", "save"):
        response = client.post(_url(event), {**late, "action": action, "checked": "x"})
        assert response.status_code == 200
        assert "confirmed by someone else" in response.context["error"]
        assert response.context["form"]["W_points"].value() == "19000"
        assert response.context["current_view"].lines[2].points == 27700  # what stands
    assert SheetVersion.objects.count() == 1


def test_phones_get_the_digits_keypad_for_counts_but_not_for_final_points(client, event):
    client.force_login(event["users"][Role.REFEREE])
    form = client.get(_url(event)).context["form"]
    numeric = {name for name, field in form.fields.items() if field.widget.attrs.get("inputmode")}
    assert numeric == {"riichi_sticks_left"} | {
        f"{wind}_{count}" for wind in "ESWN" for count in ("chombo", "late")
    }
    hands = client.get(_url(event, "hands")).context["formset"]
    assert {"han", "fu", "yakuman"} <= {
        name for name, field in hands.forms[0].fields.items() if field.widget.attrs.get("inputmode")
    }


def test_a_second_official_confirms_on_the_page(client, event, players):
    client.force_login(event["users"][Role.REFEREE])
    check_and_save(client, _url(event), sheet_form_data(players))
    response = client.post(_url(event, "confirm"), {"version": "1"}, follow=True)
    assert "A second official must confirm" in response.content.decode()
    assert ScoreSheet.objects.get().status == Status.ENTERED
    client.force_login(event["users"]["referee2"])
    page = client.get(_url(event))
    assert page.context["can_confirm"]
    client.post(_url(event, "confirm"), {"version": "1"})
    assert ScoreSheet.objects.get().status == Status.CONFIRMED
    locked = client.get(_url(event))
    assert locked.context["form"] is None


def test_blind_entry_hides_the_first_entry_and_a_mismatch_shows_both(client, event, players):
    _policy(event, Tournament.ConfirmationPolicy.DOUBLE_BLIND)
    client.force_login(event["users"][Role.REFEREE])
    check_and_save(client, _url(event), sheet_form_data(players))
    client.force_login(event["users"]["referee2"])
    page = client.get(_url(event))
    assert page.context["blind"]
    assert page.context["current_view"] is None
    assert page.context["form"]["E_points"].value() is None
    check_and_save(
        client,
        _url(event),
        sheet_form_data(players, points=(42300, 31000, 19000, 27700), revision=1),
    )
    assert ScoreSheet.objects.get().status == Status.DISPUTED
    client.force_login(event["users"][Role.HEAD_REFEREE])
    page = client.get(_url(event))
    first, second = page.context["disputed"]
    assert (first.lines[2].points, second.lines[2].points) == (27700, 19000)
    assert "Version 2 is right" in page.content.decode()
    client.post(_url(event, "confirm"), {"version": "2"})
    sheet = ScoreSheet.objects.get()
    assert (sheet.status, sheet.current.number) == (Status.CONFIRMED, 2)


def test_correction_needs_a_reason_and_is_kept_in_the_history(client, event, players):
    _policy(event, Tournament.ConfirmationPolicy.SINGLE)
    client.force_login(event["users"][Role.REFEREE])
    check_and_save(client, _url(event), sheet_form_data(players))
    assert client.get(_url(event, "correct")).status_code == 403
    client.force_login(event["users"][Role.HEAD_REFEREE])
    page = client.get(_url(event, "correct"))
    assert page.context["form"]["W_points"].value() == 27700  # starts from the confirmed sheet
    data = sheet_form_data(players, points=(42300, 31000, 19000, 27700), revision=1)
    response = client.post(_url(event, "correct"), {**data, "action": "check"})
    assert "reason" in response.context["form"].errors
    data["reason"] = "Paper sheet says West 19 000"
    assert check_and_save(client, _url(event, "correct"), data).status_code == 302
    history = client.get(_url(event, "history"))
    html = history.content.decode()
    assert "Paper sheet says West 19 000" in html
    assert [item["version"].number for item in history.context["versions"]] == [2, 1]


def test_lateness_is_prefilled_from_the_check_in(referee, event, players):
    round_ = event["rounds"][0]
    round_.started_at = timezone.now() - datetime.timedelta(minutes=30)
    round_.save()
    Registration.objects.filter(pk=players[1].pk).update(
        checked_in_at=round_.started_at + datetime.timedelta(minutes=3, seconds=10)
    )
    page = referee.get(_url(event))
    assert page.context["form"]["S_late"].value() == 4
    assert page.context["form"]["E_late"].value() == 0


def _clock_started(round_, organiser, monkeypatch, *, scheduled: int, started: int):
    """The round scheduled and its clock first started that many minutes ago."""
    now = timezone.now()
    round_.scheduled_start = now - datetime.timedelta(minutes=scheduled)
    round_.save()
    monkeypatch.setattr(timezone, "now", lambda: now - datetime.timedelta(minutes=started))
    clock_start(round_=round_, acting_user=organiser)
    monkeypatch.undo()
    round_.refresh_from_db()
    return round_


def _checked_in(player, at) -> None:
    Registration.objects.filter(pk=player.pk).update(checked_in_at=at)


def test_lateness_counts_from_the_round_clock_not_the_schedule(
    referee, event, players, organiser, monkeypatch
):
    # The hall started 30 minutes behind schedule: a player checked in 3 minutes after the
    # clock started is 4 minutes late (whole minutes, rounded up), not 34 [WRC 2015 §7.2].
    round_ = _clock_started(event["rounds"][0], organiser, monkeypatch, scheduled=60, started=30)
    _checked_in(players[1], round_.started_at + datetime.timedelta(minutes=3, seconds=10))
    assert referee.get(_url(event)).context["form"]["S_late"].value() == 4


def test_a_round_begun_early_makes_nobody_late_before_the_scheduled_time(
    referee, event, players, organiser, monkeypatch
):
    # Clock started 10 minutes before the schedule; a player checked in 5 minutes before the
    # scheduled time came on time (0), one 3 min 10 s after it is 4 minutes late.
    round_ = _clock_started(event["rounds"][0], organiser, monkeypatch, scheduled=30, started=40)
    _checked_in(players[0], round_.scheduled_start - datetime.timedelta(minutes=4, seconds=50))
    _checked_in(players[1], round_.scheduled_start + datetime.timedelta(minutes=3, seconds=10))
    form = referee.get(_url(event)).context["form"]
    assert (form["E_late"].value(), form["S_late"].value()) == (0, 4)


def _hands_data(players, hands, revision=0, token=None):
    """The hands page's input. These few hands stand for a game the time limit ended (WRC
    2015 §8.2), which the sheet's box says: a sheet saved as finished must reach the end."""
    data = sheet_form_data(players, revision=revision)
    data["time_up"] = "on"
    for wind in ("E", "S", "W", "N"):
        data.pop(f"{wind}_points")
        data.pop(f"{wind}_chombo")
    data.pop("riichi_sticks_left")
    data["token"] = token or str(uuid.uuid4())
    total = len(hands) + 1
    data.update(
        {
            "hands-TOTAL_FORMS": str(total),
            "hands-INITIAL_FORMS": "0",
            "hands-MIN_NUM_FORMS": "0",
            "hands-MAX_NUM_FORMS": "60",
        }
    )
    for index, hand in enumerate(hands):
        for key, value in hand.items():
            data[f"hands-{index}-{key}"] = value
    return data


def test_the_preview_says_what_the_score_holds_beside_the_uma(referee, event, players):
    # Options (docs/rules-engine.md, Rule sets: oka, leftover_riichi): a 25 000 start, 30 000
    # returned, an oka of 20 000 and the sticks left to 1st place. East's 35 000 scores (35 000 - 30
    # 000) / 1 000 + 15 uma (WRC 2015 §5.9.2) + 20 oka + 1 stick = +41.0, beside an uma column of
    # +15.0.
    event["tournament"].rule_options = {
        "start_points": 25000,
        "oka": 20000,
        "leftover_riichi": "to_first_place",
    }
    event["tournament"].save()
    data = sheet_form_data(players, points=(35000, 30000, 20000, 14000), sticks=1)
    response = referee.post(_url(event), {**data, "action": "check"})
    lines = response.context["preview"].lines
    assert (lines[0].uma, lines[0].score) == ("+15.0", "+41.0")
    name = players[0].player.display_name
    assert (
        f"Included in the scores: oka +20.0 to {name}; riichi sticks left +1.0 to {name}."
        in response.content.decode()
    )
    french = referee.post(_url(event), {**data, "action": "check"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert f"Compris dans les scores : oka +20,0 à {name}" in french.content.decode()


def test_hand_by_hand_sheet_saved_part_way_then_finished(referee, event, players):
    url = _url(event, "hands")
    first = [{"result": "ron", "winner": "S", "loser": "W", "han": "3", "fu": "30"}]
    response = referee.post(url, {**_hands_data(players, first), "action": "draft"})
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get()
    assert sheet.status == Status.IN_PROGRESS
    page = referee.get(url)
    assert page.context["formset"].forms[0]["winner"].value() == "S"  # continued where it stopped
    both = [
        *first,
        {"result": "tsumo", "winner": "E", "han": "2", "fu": "30", "riichi": ["E", "N"]},
        {"result": "chombo", "offender": "N"},
    ]
    data = _hands_data(players, both, revision=1)
    response = check_and_save(referee, url, data)
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == Status.ENTERED
    seats = sheet.current.data["seats"]
    # WRC 2015 §6.1: S rons W for 3 han 30 fu = 3 900; the deal
    # passes to S; E tsumo 2 han 30 fu: 1 000 from dealer S, 500 from W and N, plus both
    # riichi sticks. The chombo changes no table points in WRC (§7.1).
    assert [seat["points"] for seat in seats] == [33000, 32900, 25600, 28500]
    assert [seat["chombo"] for seat in seats] == [0, 0, 0, 1]


def test_hands_saved_part_way_are_continued_from_the_round_page(referee, event, players):
    # The next official opens the table from the round's page: it leads to the hands, and
    # the final-score page neither calls the hands so far an entered sheet nor offers their
    # running points (after one hand of a WRC hanchan) as final points.
    first = [{"result": "ron", "winner": "S", "loser": "W", "han": "3", "fu": "30"}]
    referee.post(_url(event, "hands"), {**_hands_data(players, first), "action": "draft"})
    round_page = referee.get(reverse("scoring:round", args=[event["tournament"].slug, 1]))
    assert f'href="{_url(event, "hands")}"' in round_page.content.decode()
    assert f'href="{_url(event)}"' not in round_page.content.decode()
    final_page = referee.get(_url(event))
    html = final_page.content.decode()
    assert "Entered sheet" not in html
    assert "Hands saved part-way: not counted until the sheet is finished" in html
    form = final_page.context["form"]
    assert [form[f"{wind}_points"].value() for wind in "ESWN"] == [None] * 4
    assert [form[f"{wind}_player"].value() for wind in "ESWN"] == [p.pk for p in players]


def test_hands_that_stop_before_the_end_of_the_game_are_not_saved_as_finished(
    referee, event, players
):
    # Two hands of a WRC hanchan, which ends after South 4 (WRC 2015 §5.8, §5.9):
    # S rons W, then W rons N, each deal passing on, so East 3 is next with West dealing.
    # Saved as finished, the running points would count as the whole hanchan's.
    url = _url(event, "hands")
    hands = [
        {"result": "ron", "winner": "S", "loser": "W", "han": "3", "fu": "30"},
        {"result": "ron", "winner": "W", "loser": "N", "han": "3", "fu": "30"},
    ]
    data = {**_hands_data(players, hands), "time_up": ""}
    for action in ("check", "save"):
        response = referee.post(url, {**data, "action": action})
        assert response.status_code == 200
        assert response.context["formset"].forms[1].non_field_errors() == [
            "The game is not over after hand 2: East 3 comes next, West dealing. Enter the "
            "hands left, or tick “The time was up” if the signal ended the game (WRC 2015 "
            "§8.2); to stop for now, save part-way."
        ]
        assert "checked" not in response.context
    assert not SheetVersion.objects.exists()
    response = referee.post(url, {**data, "action": "check"}, HTTP_ACCEPT_LANGUAGE="fr")
    error = response.context["formset"].forms[1].non_field_errors()[0]
    assert error.startswith("La partie n’est pas finie après la main 2 : Est 3 suit, Ouest")
    # Part-way, the same hands are kept as they are.
    assert referee.post(url, {**data, "action": "draft"}).status_code == 302
    # The time was up (WRC 2015 §8.2: the hand in play is finished, then the game ends): the
    # sheet is finished, and the last hand keeps the mark for whoever reads it again.
    response = check_and_save(referee, url, _hands_data(players, hands, revision=1))
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get()
    assert sheet.status == Status.ENTERED
    assert [hand["time_up"] for hand in sheet.current.data["hands"]] == [False, True]
    assert referee.get(url).context["form"]["time_up"].value() is True
    # The history says it too, for whoever reads the versions (a head referee in a dispute).
    history = referee.get(_url(event, "history")).content.decode()
    assert history.count("The time was up: the game ended with the last hand") == 1  # v2
    french = referee.get(_url(event, "history"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Le temps était écoulé : la partie s’est arrêtée à la dernière main" in french


def _two_hands_after_a_part_way_save(referee, event, players) -> tuple[str, list[dict]]:
    """Hand 1 (South's ron on West, 3 han 30 fu) saved part-way: the hands page and the two
    hands to check next (West's ron on North after it)."""
    url = _url(event, "hands")
    first = [{"result": "ron", "winner": "S", "loser": "W", "han": "3", "fu": "30"}]
    referee.post(url, {**_hands_data(players, first), "action": "draft"})
    return url, [*first, {"result": "ron", "winner": "W", "loser": "N", "han": "3", "fu": "30"}]


def test_checked_hands_are_saved_from_beside_the_check(referee, event, players):
    # On a phone the form's own Save is screens below the check (every hand, every seat):
    # the check has its Save beside it, and replaces the running score of the hands saved
    # part-way, which would push both a screen down. Two hands, the time up (WRC 2015 §8.2).
    url, hands = _two_hands_after_a_part_way_save(referee, event, players)
    response = referee.post(url, {**_hands_data(players, hands, revision=1), "action": "check"})
    html = response.content.decode()
    assert "Hands saved part-way: not counted" not in html
    preview = html.index('<section class="preview">')
    save = html.index(
        '<button type="submit" form="sheet-form" name="action" value="save" class="primary">'
        "Finish and save</button>"
    )
    assert preview < save < html.index('id="sheet-form" novalidate')
    final = referee.post(_url(event), {**sheet_form_data(players), "action": "check"})
    assert 'form="sheet-form" name="action" value="save" class="primary">Save</button>' in (
        final.content.decode()
    )


def test_a_game_played_to_its_end_needs_no_time_mark(referee, event, players):
    # Eight hands, each a 1-han 30-fu ron (1 000, docs/rules.md §6.2) by the seat after the
    # dealer: the deal passes every hand and South 4 ends the game (WRC 2015 §5.8).
    winners = [("S", "W"), ("W", "N"), ("N", "E"), ("E", "S")] * 2
    hands = [
        {"result": "ron", "winner": winner, "loser": loser, "han": "1", "fu": "30"}
        for winner, loser in winners
    ]
    data = {**_hands_data(players, hands), "time_up": ""}
    assert check_and_save(referee, _url(event, "hands"), data).status_code == 302
    assert ScoreSheet.objects.get().current.data["hands"][-1]["time_up"] is False


def test_a_check_with_every_row_filled_leaves_rows_for_the_hands_left(referee, event, players):
    # Eight 1-han 30-fu rons (docs/rules.md §6.2); East's first, as dealer, keeps the deal (WRC
    # 2015 §5.7.1), so after the eighth hand South 4 is still to play (WRC 2015 §5.8). The
    # page asks for the hands left: it must have rows to type them in, as a part-way save
    # gives, the eight hands kept as they were.
    winners = [("E", "S"), ("S", "W"), ("W", "N"), ("N", "E")] * 2
    hands = [
        {"result": "ron", "winner": winner, "loser": loser, "han": "1", "fu": "30"}
        for winner, loser in winners
    ]
    data = {**_hands_data(players, hands), "time_up": "", "hands-TOTAL_FORMS": "8"}
    response = referee.post(_url(event, "hands"), {**data, "action": "check"})
    forms = response.context["formset"].forms
    assert "South 4 comes next" in forms[7].non_field_errors()[0]
    assert [form["winner"].value() for form in forms[:8]] == [w for w, _loser in winners]
    assert len(forms) == 16
    assert not any(form["result"].value() for form in forms[8:])
    assert 'name="hands-TOTAL_FORMS" value="16"' in response.content.decode()


def test_a_sheet_without_hands_is_not_saved_as_finished(referee, event, players):
    data = {**_hands_data(players, []), "time_up": "", "action": "check"}
    response = referee.post(_url(event, "hands"), data)
    assert response.context["form"].non_field_errors() == [
        "No hand is entered yet: enter the hands, or the final scores instead."
    ]


def test_a_hand_after_the_mahjong_soul_stop_says_the_game_stopped(referee, event, players):
    # [Évriichi §19]: in South 4 the game stops when the dealer keeps the deal
    # in 1st place with at least 30 000. Seven 1-han 30-fu rons by the seat after the dealer
    # (1 000 each, docs/rules.md §6.2) reach South 4 at 23 000 / 26 000 / 25 000 / 26 000; North,
    # dealing, tsumos 3 han 30 fu (2 000 from each: 32 000) and is first: a ninth hand is
    # refused, on that hand, saying why.
    event["tournament"].ruleset = "mahjongsoul"
    event["tournament"].save()
    winners = [("S", "W"), ("W", "N"), ("N", "E"), ("E", "S"), ("S", "W"), ("W", "N")]
    hands = [
        {"result": "ron", "winner": winner, "loser": loser, "han": "1", "fu": "30"}
        for winner, loser in winners
    ]
    hands += [
        {"result": "ron", "winner": "N", "loser": "E", "han": "2", "fu": "30"},
        {"result": "tsumo", "winner": "N", "han": "3", "fu": "30"},
        {"result": "draw"},
    ]
    response = referee.post(
        _url(event, "hands"), {**_hands_data(players, hands), "action": "check"}
    )
    forms = response.context["formset"].forms
    assert not any(form.errors for form in forms[:8])
    assert forms[8].non_field_errors() == [
        "The game was over after hand 8: the South 4 dealer kept the deal in 1st place with "
        "enough points to stop. Remove this hand or correct the hands before it."
    ]


def test_a_bad_hand_is_shown_on_that_hand(referee, event, players):
    url = _url(event, "hands")
    hands = [
        {"result": "ron", "winner": "S", "loser": "W", "han": "3", "fu": "30"},
        {"result": "tsumo", "winner": "E", "han": "1", "fu": "25"},
    ]
    response = referee.post(url, {**_hands_data(players, hands), "action": "check"})
    formset = response.context["formset"]
    assert not formset.forms[0].errors
    assert "seven pairs" in " ".join(formset.forms[1].errors["han"])
    assert not SheetVersion.objects.exists()


def test_han_and_fu_with_a_yakuman_are_refused_on_that_hand(referee, event, players):
    # docs/cli.md `hand`: a yakuman count replaces han/fu; the sheet must not pay one silently.
    hands = [{"result": "ron", "winner": "S", "loser": "W", "han": "3", "fu": "30", "yakuman": "1"}]
    response = referee.post(
        _url(event, "hands"), {**_hands_data(players, hands), "action": "check"}
    )
    errors = response.context["formset"].forms[0].errors
    assert errors["han"] == ["A yakuman replaces han and fu: clear the han and fu, or the yakuman."]
    assert not SheetVersion.objects.exists()


def test_a_negative_penalty_is_explained(client, event):
    client.force_login(event["users"][Role.HEAD_REFEREE])
    url = reverse("scoring:penalties", args=[event["tournament"].slug])
    data = {"registration": event["registrations"][0].pk, "kind": "discretionary"}
    response = client.post(url, {**data, "points": "-10", "reason": "Phone"})
    assert response.context["form"].errors["points"] == [
        "Write the points taken off without a minus sign, e.g. 10."
    ]
    assert not Penalty.objects.exists()


def test_penalty_pages_give_and_cancel(client, event):
    client.force_login(event["users"][Role.HEAD_REFEREE])
    player = event["registrations"][0]
    url = reverse("scoring:penalties", args=[event["tournament"].slug])
    response = client.post(
        url,
        {"registration": player.pk, "kind": "discretionary", "points": "10", "reason": "Phone"},
    )
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert penalty.given_by == event["users"][Role.HEAD_REFEREE]
    cancel = reverse("scoring:penalty_cancel", args=[event["tournament"].slug, penalty.pk])
    assert "reason" in client.post(cancel, {"reason": ""}).context["form"].errors
    client.post(cancel, {"reason": "Wrong player"})
    penalty.refresh_from_db()
    assert penalty.is_cancelled
    page = client.get(url + f"?player={player.pk}")
    assert "Wrong player" in page.content.decode()


def test_disqualify_page(client, event):
    client.force_login(event["users"][Role.ORGANISER])
    player = event["registrations"][0]
    url = reverse("scoring:disqualify", args=[event["tournament"].slug, player.pk])
    assert "reason" in client.post(url, {"reason": ""}).context["form"].errors
    client.post(url, {"reason": "Collusion"})
    player.refresh_from_db()
    assert (player.status, player.status_reason) == (Registration.Status.DISQUALIFIED, "Collusion")


def test_disqualifying_a_seated_player_says_which_rounds_to_seat_again(client, event):
    # The message said "out of the ranking and of future seating" while the published
    # seating of the rounds to come still had them at a table.
    rounds = event["rounds"]
    seat_round(rounds[1], event["registrations"], shift=1)
    player = event["registrations"][0]
    client.force_login(event["users"][Role.ORGANISER])
    url = reverse("scoring:disqualify", args=[event["tournament"].slug, player.pk])
    page = client.post(url, {"reason": "Collusion"}, follow=True)
    (message,) = [str(m) for m in page.context["messages"]]
    assert "still seated in rounds 1, 2" in message
    assert "future seating" not in message


def test_a_substitute_seated_to_fill_a_table_is_shown_as_not_ranked(referee, players):
    # Round 4, table 8 of the demo: Alex Durand, a substitute seated to fill the last table,
    # read "42000, 1, +15.0, +27.0" like a ranked player.
    filler = players[2]
    filler.is_substitute = True
    filler.save(update_fields=["is_substitute"])
    response = referee.post(
        _url({"tournament": filler.tournament}), {**sheet_form_data(players), "action": "check"}
    )
    west = response.context["preview"].lines[2]
    assert west.player == filler.player.display_name
    assert not west.ranked
    assert "substitute, not ranked" in response.content.decode()


def test_the_substitute_list_offers_active_substitutes(referee, event):
    substitute = make_registration(event["tournament"], is_substitute=True)
    page = referee.get(_url(event))
    choices = [value for value, _label in page.context["form"].fields["N_substitute"].choices]
    assert substitute.pk in choices


def test_a_substitute_is_chosen_on_the_page(client, event, players):
    _policy(event, Tournament.ConfirmationPolicy.SINGLE)
    substitute = make_registration(event["tournament"], is_substitute=True)
    client.force_login(event["users"][Role.REFEREE])
    data = sheet_form_data(players, N={"substitute": substitute.pk})
    response = client.post(_url(event), {**data, "action": "check"})
    north = response.context["preview"].lines[3]
    # WRC 2015 §7.2: the absent registered player gets the missed-hanchan penalty only
    assert (north.substitute, north.penalty, north.score) == (
        substitute.player.full_name,
        "−20.0",
        "−20.0",
    )
    assert check_and_save(client, _url(event), data).status_code == 302
    assert ScoreSheet.objects.get().current.data["seats"][3]["substitute"] == substitute.pk


def test_a_correction_keeps_a_substitute_who_withdrew_since(client, event, players):
    # The substitute played this hanchan, then withdrew: correcting an unrelated number must
    # neither drop them (the form showed "nobody") nor credit their result to the absent player.
    _policy(event, Tournament.ConfirmationPolicy.SINGLE)
    substitute = make_registration(event["tournament"], is_substitute=True)
    client.force_login(event["users"][Role.REFEREE])
    check_and_save(client, _url(event), sheet_form_data(players, N={"substitute": substitute.pk}))
    Registration.objects.filter(pk=substitute.pk).update(status=Registration.Status.WITHDRAWN)
    client.force_login(event["users"][Role.HEAD_REFEREE])
    page = client.get(_url(event, "correct"))
    assert page.context["form"]["N_substitute"].value() == substitute.pk
    data = sheet_form_data(
        players, points=(42300, 31000, 27800, 18900), revision=1, N={"substitute": substitute.pk}
    )
    data["reason"] = "West 27 800 on the paper sheet"
    assert check_and_save(client, _url(event, "correct"), data).status_code == 302
    assert ScoreSheet.objects.get().current.data["seats"][3]["substitute"] == substitute.pk
    # A withdrawn substitute is not offered at the other tables.
    client.force_login(event["users"][Role.REFEREE])
    other = client.get(_url(event, table=2)).context["form"].fields["N_substitute"].choices
    assert substitute.pk not in [value for value, _label in other]


def test_liability_is_entered_with_the_hand(referee, event, players):
    hands = [{"result": "tsumo", "winner": "S", "yakuman": "1", "pao": "W"}]
    response = check_and_save(referee, _url(event, "hands"), _hands_data(players, hands))
    assert response.status_code == 302
    seats = ScoreSheet.objects.get().current.data["seats"]
    # WRC 2015 §6.2: on a tsumo the liable player pays the whole yakuman
    assert [seat["points"] for seat in seats] == [30000, 62000, -2000, 30000]


def test_a_substitute_at_another_table_is_refused_on_the_substitute_field(referee, event, players):
    _policy(event, Tournament.ConfirmationPolicy.SINGLE)
    substitute = make_registration(event["tournament"], is_substitute=True)
    check_and_save(referee, _url(event), sheet_form_data(players, N={"substitute": substitute.pk}))
    table_2 = table_registrations(event["rounds"][0], 2)
    data = sheet_form_data(table_2, S={"substitute": substitute.pk})
    response = referee.post(_url(event, table=2), {**data, "action": "check"})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors["S_substitute"] == ["This substitute already plays at table 1 in this round."]
    assert SheetVersion.objects.count() == 1


def _lock(event) -> None:
    round_ = event["rounds"][0]
    round_.status = Round.Status.LOCKED
    round_.save(update_fields=["status"])


LOCKED = "Round 1 is locked: its results are final. An organiser can unlock it."


def test_a_locked_round_refuses_the_save_and_keeps_the_input(referee, event, players):
    # Sent from a page loaded before the round was locked.
    _lock(event)
    data = sheet_form_data(players, points=(42300, 31000, 19000, 27700))
    for action in ("check", "save"):
        response = referee.post(_url(event), {**data, "action": action})
        assert response.status_code == 200  # shown again, not redirected away from the input
        assert response.context["error"] == LOCKED
        assert LOCKED in response.content.decode()
        assert response.context["form"]["W_points"].value() == "19000"
    assert not SheetVersion.objects.exists()


def test_the_penalty_form_refuses_a_locked_round_and_keeps_the_input(client, event):
    # WRC 2015 §7 penalty, in a round whose results are final.
    client.force_login(event["users"][Role.HEAD_REFEREE])
    _lock(event)
    url = reverse("scoring:penalties", args=[event["tournament"].slug])
    player = event["registrations"][0]
    data = {"registration": player.pk, "round": event["rounds"][0].pk, "kind": "discretionary"}
    offered = dict(client.get(url).context["form"].fields["round"].choices)
    assert [str(offered[round_.pk]) for round_ in event["rounds"][:2]] == [
        "Round 1 (locked)",
        "Round 2",
    ]
    response = client.post(url, {**data, "points": "10", "reason": "Phone rang"})
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors == {"round": [LOCKED]}
    assert (form["points"].value(), form["reason"].value()) == ("10", "Phone rang")
    assert LOCKED in response.content.decode()
    assert not Penalty.objects.exists()


def test_the_cancel_page_refuses_a_penalty_of_a_locked_round(client, event):
    client.force_login(event["users"][Role.HEAD_REFEREE])
    url = reverse("scoring:penalties", args=[event["tournament"].slug])
    data = {"registration": event["registrations"][0].pk, "round": event["rounds"][0].pk}
    client.post(url, {**data, "kind": "discretionary", "points": "10", "reason": "Phone"})
    penalty = Penalty.objects.get()
    _lock(event)
    cancel = reverse("scoring:penalty_cancel", args=[event["tournament"].slug, penalty.pk])
    listing = client.get(url).content.decode()
    assert cancel not in listing  # said before the referee writes a reason
    assert "Round locked" in listing
    assert LOCKED in client.get(cancel).content.decode()
    response = client.post(cancel, {"reason": "Wrong player"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [LOCKED]
    assert response.context["form"]["reason"].value() == "Wrong player"
    assert LOCKED in response.content.decode()
    penalty.refresh_from_db()
    assert not penalty.is_cancelled


def test_several_rons_on_one_discard_go_to_the_first_in_turn_order(referee, event, players):
    url = _url(event, "hands")
    # WRC 2015 §5.4.1, §5.7.6 (several rons: head bump): after W's discard N plays
    # before S, so N wins; 2 han 30 fu by a non-dealer is paid 2 000 (docs/rules.md §6.2).
    wrong = [
        {
            "result": "ron",
            "winner": "S",
            "loser": "W",
            "han": "2",
            "fu": "30",
            "ron_claimants": ["S", "N"],
        }
    ]
    response = referee.post(url, {**_hands_data(players, wrong), "action": "check"})
    hand = response.context["formset"].forms[0]
    assert "North is first in turn order" in " ".join(hand.errors["winner"])
    assert hand["ron_claimants"].value() == ["S", "N"]
    hands = [{**wrong[0], "winner": ""}]
    assert check_and_save(referee, url, _hands_data(players, hands)).status_code == 302
    seats = ScoreSheet.objects.get().current.data["seats"]
    assert [seat["points"] for seat in seats] == [30000, 30000, 28000, 32000]


def test_a_dead_hand_is_noten_and_a_noten_riichi_is_a_chombo(referee, event, players):
    hands = [
        # [WRC 2015 §2.2, §5.7.2]: W's dead hand is noten, so S is the
        # only tenpai: 1 000 from each of the three others.
        {"result": "draw", "tenpai": ["S", "W"], "dead_hand": ["W"]},
        # [WRC 2015 §5.7.2, §7.1]: N's noten riichi is a chombo: no noten
        # payments, the riichi stick goes back, table points untouched.
        {"result": "draw", "riichi": ["N"], "noten_riichi": ["N"]},
    ]
    response = check_and_save(referee, _url(event, "hands"), _hands_data(players, hands))
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get()
    seats = sheet.current.data["seats"]
    assert [seat["points"] for seat in seats] == [29000, 33000, 29000, 29000]
    assert [seat["chombo"] for seat in seats] == [0, 0, 0, 1]
    assert sheet.current.data["hands"][0]["dead_hand"] == ["W"]


def test_a_riichi_player_left_out_of_a_draw_is_asked_about_on_that_hand(referee, event, players):
    # [WRC 2015 §5.7.2]: a riichi player must show tenpai; the page asks which it was
    # rather than scoring W as a silent noten (or a silent chombo).
    hands = [{"result": "draw", "riichi": ["W"], "tenpai": ["S"]}]
    response = referee.post(
        _url(event, "hands"), {**_hands_data(players, hands), "action": "check"}
    )
    errors = response.context["formset"].forms[0].errors["tenpai"]
    assert errors == [
        "West declared riichi: tick West as tenpai, as a noten riichi (a chombo) or as a dead hand."
    ]
    assert response.context["formset"].forms[0]["riichi"].value() == ["W"]  # input kept
    assert not SheetVersion.objects.exists()


def test_nagashi_mangan_is_entered_in_the_winner_column(referee, event, players):
    event["tournament"].ruleset = "oran2015"
    event["tournament"].save()
    hands = [{"result": "nagashi", "winner": "S"}]
    response = check_and_save(referee, _url(event, "hands"), _hands_data(players, hands))
    assert response.status_code == 302
    seats = ScoreSheet.objects.get().current.data["seats"]
    # [ORAN-1 §4.4.10.6]: a non-dealer's nagashi is 4 000 from the dealer and
    # 2 000 from each other player.
    assert [seat["points"] for seat in seats] == [26000, 38000, 28000, 28000]
    page = referee.get(_url(event, "hands"))
    assert page.context["formset"].forms[0]["winner"].value() == "S"


def test_the_exports_link_is_offered_to_organisers_only(client, event):
    exports = reverse("staff:exports", args=[event["tournament"].slug])
    client.force_login(event["users"][Role.REFEREE])
    assert exports not in client.get(_url(event)).content.decode()  # it would answer 403
    client.force_login(event["users"][Role.ORGANISER])
    assert exports in client.get(_url(event)).content.decode()


def test_the_header_names_the_official_and_offers_to_log_out(client, event):
    # At a live event referees share phones: whoever holds one must see who is logged in.
    referee = event["users"][Role.REFEREE]
    client.force_login(referee)
    html = client.get(_url(event)).content.decode()
    assert "Logged in as referee-1" in html
    logout = re.search(rf'<form[^>]*action="{reverse("logout")}"[^>]*>(.*?)</form>', html, re.S)
    assert 'method="post"' in logout.group(0)
    assert 'name="csrfmiddlewaretoken"' in logout.group(1)
    assert "Log out" in logout.group(1)
    referee.first_name, referee.last_name = "Aiko", "Tanaka"
    referee.save()
    assert "Logged in as Aiko Tanaka" in client.get(_url(event)).content.decode()


def test_logging_out_from_the_header_ends_the_session(client, event):
    client.force_login(event["users"][Role.REFEREE])
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response.url == reverse("public:home")
    assert client.get(_url(event)).status_code == 302  # back to the login page


def test_an_anonymous_visitor_sees_no_account_in_the_header(client, event):
    html = client.get(reverse("public:tournament", args=[event["tournament"].slug])).content
    assert b"Logged in as" not in html
    assert reverse("logout").encode() not in html


def test_the_next_referee_finds_the_login_from_any_public_page(client, event):
    # After a Log out on a shared phone the public pages offer the login (then the home
    # page lists the tournaments one works in).
    login = f'href="{reverse("login")}">Staff login</a>'
    page = client.get(reverse("public:tournament", args=[event["tournament"].slug]))
    assert login in page.content.decode()
    assert login not in client.get(reverse("login")).content.decode()
    client.force_login(event["users"][Role.REFEREE])
    assert login not in client.get(reverse("public:home")).content.decode()


def test_a_logged_in_official_finds_the_score_sheets_from_the_public_pages(
    client, event, django_user_model
):
    # A referee who logged in from a public page (or came back to one) had no way to the
    # score sheets but the home page: the header offers them to the tournament's staff.
    slug = event["tournament"].slug
    sheets = f'href="{reverse("scoring:rounds", args=[slug])}">Score sheets</a>'
    public_pages = [
        reverse("public:tournament", args=[slug]),
        reverse("public:player", args=[slug, event["registrations"][0].pk]),
    ]
    client.force_login(event["users"][Role.REFEREE])
    for url in public_pages:
        assert sheets in client.get(url).content.decode()
    assert client.get(_url(event)).content.decode().count(sheets) == 1  # its own nav only
    elsewhere = django_user_model.objects.create_user("referee-elsewhere")
    make_staff(make_tournament(slug="other-open"), elsewhere, Role.REFEREE)
    client.force_login(elsewhere)
    for url in public_pages:
        assert sheets not in client.get(url).content.decode()  # it would answer 403
    client.logout()
    assert sheets not in client.get(public_pages[0]).content.decode()


def test_the_header_asks_the_officials_role_once_a_page(client, event):
    # The page's view (is it published?) and the "Score sheets" and "Exports" links each
    # asked the database for the user's role.
    client.force_login(event["users"][Role.ORGANISER])
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("public:tournament", args=[event["tournament"].slug]))
    assert "Score sheets</a>" in page.content.decode()
    assert "Exports</a>" in page.content.decode()
    role_column = f'"{TournamentStaff._meta.db_table}"."role"'
    assert sum(role_column in query["sql"] for query in queries.captured_queries) == 1


def test_the_hand_lists_name_the_players_of_the_table(referee, event, players):
    page = referee.get(_url(event, "hands"))
    winner = dict(page.context["formset"].forms[0].fields["winner"].choices)
    assert winner["S"] == f"South · {players[1].player.display_name}"


def test_the_staff_standings_mark_a_withdrawn_player(client, event):
    client.force_login(event["users"][Role.HEAD_REFEREE])
    registration = event["registrations"][0]
    registration.status = Registration.Status.WITHDRAWN
    registration.save()
    page = client.get(reverse("scoring:standings", args=[event["tournament"].slug]))
    row = next(r for r in page.context["rows"] if r["entry"].registration_id == registration.pk)
    assert row["entry"].withdrawn
    assert '<small class="muted">withdrawn</small>' in page.content.decode()


def test_a_missing_seat_field_is_also_named_at_the_top_of_the_page(referee, event, players):
    data = sheet_form_data(players)
    data["N_points"] = ""
    response = referee.post(_url(event), {**data, "action": "check"})
    assert response.context["problems"] == [
        ("North · Final points: This field is required.", "seat-N")
    ]
    html = response.content.decode()
    summary = html.index(
        '<li><a href="#seat-N">North · Final points: This field is required.</a></li>'
    )
    assert summary < html.index('id="sheet-form" novalidate')
    assert 'id="seat-N"' in html


def test_a_hand_check_names_the_hands_at_the_top_of_the_page(referee, event, players):
    # After a part-way save the page opens on the hands so far, and a hanchan's hands fill
    # screens of a phone: what Check found on hand 2 (a WRC game goes on to South 4, WRC
    # 2015 §5.8) and on a seat is listed first, each line leading to its hand or seat.
    url, hands = _two_hands_after_a_part_way_save(referee, event, players)
    data = {**_hands_data(players, hands, revision=1), "time_up": "", "S_player": players[0].pk}
    response = referee.post(url, {**data, "action": "check"})
    problems = response.context["problems"]
    assert problems[0] == (
        "Hand 2: The game is not over after hand 2: East 3 comes next, West dealing. Enter "
        "the hands left, or tick “The time was up” if the signal ended the game (WRC 2015 "
        "§8.2); to stop for now, save part-way.",
        "hand-2",
    )
    assert problems[1][1] == "seat-S"
    html = response.content.decode()
    summary = html.index('<ul class="errorlist nonfield problems"')
    assert summary < html.index("Hands saved part-way: not counted")
    assert summary < html.index('id="hand-2"')
    french = referee.post(url, {**data, "action": "check"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert french.context["problems"][0][0].startswith("Main 2 : La partie n’est pas finie")


def test_the_seat_errors_at_the_top_read_as_french_in_french(referee, event, players):
    # The colon was written in the code: "Nord · Points finaux: Ce champ est obligatoire."
    data = sheet_form_data(players)
    data["N_points"] = ""
    page = referee.post(_url(event), {**data, "action": "check"}, headers={"accept-language": "fr"})
    assert "Nord · Points finaux : Ce champ est obligatoire." in page.content.decode()


@pytest.mark.parametrize("name", ["sheet", "hands", "correct", "correct_hands"])
def test_a_locked_round_offers_no_entry_nor_correction(client, event, players, name):
    _policy(event, Tournament.ConfirmationPolicy.SINGLE)
    client.force_login(event["users"][Role.HEAD_REFEREE])
    check_and_save(client, _url(event), sheet_form_data(players))
    assert "Correct this sheet" in client.get(_url(event)).content.decode()
    _lock(event)
    page = client.get(_url(event, name))
    assert page.status_code == 200
    assert page.context["form"] is None
    html = page.content.decode()
    assert LOCKED in html
    assert "Correct this sheet" not in html
    assert "<form" not in html.split("</header>")[-1]


def test_a_locked_round_offers_no_confirmation(client, event, players):
    client.force_login(event["users"][Role.REFEREE])
    check_and_save(client, _url(event), sheet_form_data(players))
    client.force_login(event["users"]["referee2"])
    assert client.get(_url(event)).context["can_confirm"]
    _lock(event)
    page = client.get(_url(event))
    assert not page.context["can_confirm"]
    assert LOCKED in page.content.decode()


def test_the_staff_standings_give_no_place_before_a_hanchan(client, event):
    # WRC 2015 §7.2: no hanchan, no result to rank (it read "1=" for all).
    client.force_login(event["users"][Role.HEAD_REFEREE])
    page = client.get(reverse("scoring:standings", args=[event["tournament"].slug]))
    assert {row["place"] for row in page.context["rows"]} == {"–"}


def test_the_check_names_a_disqualified_player_in_a_seat(referee, event, players):
    # WRC 2015 §7.1: a disqualified player plays no more.
    players[2].status = Registration.Status.DISQUALIFIED
    players[2].status_reason = "Collusion"
    players[2].save()
    response = referee.post(_url(event), {**sheet_form_data(players), "action": "check"})
    assert not response.context.get("checked")
    assert response.context["form"].errors["W_player"] == [
        f"{players[2].player.display_name} is disqualified and plays no more (WRC 2015 §7.1): "
        "choose the substitute who played this seat."
    ]


@pytest.mark.parametrize("kind", ["substitute", "disqualified"])
def test_the_penalty_form_refuses_players_outside_the_ranking(client, event, kind):
    # WRC 2015 §7.1, §7.2: substitutes and the disqualified are not
    # ranked, so a penalty against them would count nowhere.
    client.force_login(event["users"][Role.HEAD_REFEREE])
    if kind == "substitute":
        player = make_registration(event["tournament"], is_substitute=True)
    else:
        player = event["registrations"][0]
        player.status = Registration.Status.DISQUALIFIED
        player.status_reason = "Collusion"
        player.save()
    url = reverse("scoring:penalties", args=[event["tournament"].slug])
    assert player.pk not in dict(client.get(url).context["form"].fields["registration"].choices)
    data = {"registration": player.pk, "kind": "discretionary", "points": "10", "reason": "x"}
    response = client.post(url, data)
    assert response.context["form"].errors["registration"] == [
        "Penalties count only for ranked players: substitutes and disqualified players are "
        "not in the ranking (WRC 2015 §7.1, §7.2)."
    ]
    assert not Penalty.objects.exists()


def test_a_substitutes_seat_shows_their_result_apart_from_the_absent_player(
    referee, event, players
):
    # WRC 2015 §7.2: the substitute's 38 000 decide the
    # table (1st, +15) but count for nobody's ranking; the absent player gets only −20.
    substitute = make_registration(event["tournament"], is_substitute=True)
    data = sheet_form_data(players, (38000, 31000, 27700, 23300), E={"substitute": substitute.pk})
    html = referee.post(_url(event), {**data, "action": "check"}).content.decode()
    rows = re.findall(
        r"<tr[^>]*>(.*?)</tr>", html[html.index('<tr class="substitute-seat">') :], re.S
    )
    sub_row, player_row = (re.sub(r"<[^>]+>|\s+", " ", row).split() for row in rows[:2])
    name = substitute.player.display_name
    assert " ".join(sub_row).startswith(f"E {name} substitute, not ranked")
    assert sub_row[-5:] == ["38,000", "1", "+15.0", "not", "ranked"]
    assert f"seat played by {name}: no hanchan points" in " ".join(player_row)
    assert player_row[-5:] == ["–", "–", "–", "−20.0", "−20.0"]


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Version 1, entered by {who} on {date} at {time}"),
        ("fr", "Version 1, saisie par {who} le {date} à {time}"),
    ],
)
def test_a_version_says_the_day_and_time_it_was_entered(referee, event, players, language, line):
    check_and_save(referee, _url(event), sheet_form_data(players))
    version = SheetVersion.objects.get()
    created = timezone.localtime(version.created_at)
    with translation.override(language):
        date = date_format(created, "SHORT_DATE_FORMAT")
        time = time_format(created, "TIME_FORMAT")
    expected = line.format(who=version.entered_by, date=date, time=time)
    for name in ("sheet", "history"):
        page = referee.get(_url(event, name), headers={"accept-language": language})
        assert expected in page.content.decode(), name


def test_a_penalty_in_hundredths_is_shown_exactly(client, event):
    client.force_login(event["users"][Role.HEAD_REFEREE])
    player = event["registrations"][0]
    url = reverse("scoring:penalties", args=[event["tournament"].slug])
    data = {"registration": player.pk, "kind": "discretionary", "reason": "Phone"}
    # Not a rule: the largest penalty PenaltyForm takes (max_digits=7, decimal_places=2).
    client.post(url, {**data, "points": "99999.99"})
    page = client.get(url + f"?player={player.pk}").content.decode()
    assert "−99999.99" in page
    assert "−99999.99…" not in page


@pytest.mark.parametrize(("language", "space"), [("en", ","), ("fr", "\xa0")])
def test_the_sheet_groups_every_points_value_alike(referee, event, players, language, space):
    data = sheet_form_data(players, points=(42300, 31000, 27700, 18000))
    page = referee.post(
        _url(event), {**data, "action": "check"}, headers={"accept-language": language}
    )
    html = page.content.decode()
    # The sum the error asks for: 4 × 30 000 start points under WRC (docs/rules.md §7.4 item 4).
    assert f"120{space}000" in html
    assert f'data-thousand-separator="{space}"' in html  # the hint while typing
    data = sheet_form_data(players)
    page = referee.post(
        _url(event), {**data, "action": "check"}, headers={"accept-language": language}
    )
    cells = re.findall(r'<td class="number">([^<]*)</td>', page.content.decode())
    assert [f"42{space}300", f"31{space}000", f"27{space}700", f"19{space}000"] == [
        cell for cell in cells if cell.endswith("00")
    ]


@pytest.mark.parametrize("name", ["sheet", "hands"])
def test_a_sheet_sent_after_the_session_ended_is_back_after_logging_in(
    client, event, players, name
):
    # The session ended (expired, or Log out in another tab) while the official typed: the
    # login must not cost them the sheet. Nothing is saved before they check it again.
    user = event["users"][Role.REFEREE]
    user.set_password("pw-referee-1")
    user.save()
    if name == "hands":
        data = _hands_data(players, [{"result": "draw", "tenpai": ["E", "S"]}])
    else:
        data = sheet_form_data(players, points=(42300, 31000, 27700, 19000))
    data["note"] = "Réclamation à la table"
    sent = _send_after_the_session_ended(client, user, _url(event, name), data)
    assert sent.status_code == 302
    assert sent.url.startswith(reverse("login"))
    back = client.post(
        reverse("login"),
        {"username": user.username, "password": "pw-referee-1", "next": _url(event, name)},
        follow=True,
    )
    form = back.context["form"]
    assert form["note"].value() == "Réclamation à la table"
    assert form["token"].value() == data["token"]  # a save is still recognised if resent
    if name == "sheet":
        assert form["W_points"].value() == "27700"
    else:
        assert back.context["formset"].forms[0]["result"].value() == "draw"
    assert "nothing was saved" in back.content.decode()
    assert not SheetVersion.objects.exists()
    again = client.get(_url(event, name))  # shown once, not every time the page opens
    assert again.context["form"]["note"].value() in (None, "")


def _send_after_the_session_ended(client, user, url: str, data: dict, language: str = "en"):
    """The page is opened logged in, the session ends (Log out in another tab), then the
    typed form is sent with the page's hidden fields."""
    client.force_login(user)
    page = client.get(url).content.decode()
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    client.logout()
    return client.post(url, {**hidden, **data, "action": "check"}, HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Your session ended before this sheet was saved. Log in again with the account"),
        ("fr", "Votre session a pris fin avant l’enregistrement de cette feuille."),
    ],
)
def test_the_login_after_the_session_ended_says_the_sheet_comes_back(
    client, event, players, language, text
):
    # Check pressed after the session ended leads to the login: a bare login page read as
    # if the sheet were lost, and an official would type it again elsewhere.
    user = event["users"][Role.REFEREE]
    sent = _send_after_the_session_ended(
        client, user, _url(event), sheet_form_data(players), language
    )
    login = client.get(sent.url, HTTP_ACCEPT_LANGUAGE=language)
    assert text in login.content.decode()
    # A form not kept (not sent from a sheet page) promises nothing.
    client.cookies.clear()
    refused = client.post(_url(event), {**sheet_form_data(players), "action": "check"})
    assert text not in client.get(refused.url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_a_sheet_kept_over_the_login_is_not_shown_to_another_official(client, event, players):
    # A shared phone: the session of the official who typed the sheet ended, and another
    # official logs in on it. The first one's input must not come back as theirs ("what you
    # typed"), to be saved under their name without their having read the paper sheet.
    typist, other = event["users"][Role.REFEREE], event["users"]["referee2"]
    other.set_password("pw-referee-2")
    other.save()
    data = {**sheet_form_data(players), "note": "Réclamation à la table"}
    assert _send_after_the_session_ended(client, typist, _url(event), data).status_code == 302
    page = client.post(
        reverse("login"),
        {"username": other.username, "password": "pw-referee-2", "next": _url(event)},
        follow=True,
    )
    assert page.context["user"] == other
    assert page.context["form"]["note"].value() in (None, "")
    assert "nothing was saved" not in page.content.decode()


@pytest.mark.parametrize(
    "sent",
    ["another tournament", "no official named", "far too big"],
)
def test_only_a_sheet_sent_from_a_sheet_page_is_kept_over_the_login(client, event, players, sent):
    # Anyone may post to a sheet's address, and each post without a session writes one: only
    # a sheet page's own form (it names the official), of a sheet's size, on an existing
    # tournament, is kept.
    url = _url(event)
    data = {**sheet_form_data(players), "action": "check", KEPT_INPUT_USER_FIELD: "1"}
    if sent == "another tournament":
        url = url.replace(event["tournament"].slug, "no-such-event")
    elif sent == "no official named":
        del data[KEPT_INPUT_USER_FIELD]
    else:
        data["note"] = "x" * (KEPT_INPUT_MAX_CHARACTERS + 1)
    assert client.post(url, data).status_code == 302  # to the login, as before
    assert KEPT_INPUT_SESSION_KEY not in client.session


def test_a_sheet_kept_over_the_login_is_not_given_back_hours_later(
    client, event, players, monkeypatch
):
    user = event["users"][Role.REFEREE]
    user.set_password("pw-referee-1")
    user.save()
    data = {**sheet_form_data(players), "note": "Réclamation à la table"}
    _send_after_the_session_ended(client, user, _url(event), data)
    later = time.time() + KEPT_INPUT_SECONDS + 60
    monkeypatch.setattr("tournament.kept_input.time.time", lambda: later)
    page = client.post(
        reverse("login"),
        {"username": user.username, "password": "pw-referee-1", "next": _url(event)},
        follow=True,
    )
    assert page.context["form"]["note"].value() in (None, "")
    assert "nothing was saved" not in page.content.decode()


def test_a_sheet_sent_from_a_page_older_than_the_login_says_so_in_the_sites_words(event, players):
    # A login in another tab renews the form's security token: the old tab's Save is
    # refused. The official gets the site's page in their language, not Django's notes
    # for developers (CSRF, DEBUG=True).
    client = Client(enforce_csrf_checks=True)
    client.force_login(event["users"][Role.REFEREE])
    client.get(_url(event))  # the page is opened: its token is the cookie's
    data = {**sheet_form_data(players), "action": "check", "csrfmiddlewaretoken": "x" * 64}
    refused = client.post(_url(event), data, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "Cette page avait expiré" in page
    assert "rien n’a été enregistré" in page
    assert "CSRF" not in page
    assert "DEBUG" not in page
    assert not SheetVersion.objects.exists()


def test_a_save_that_makes_the_table_disputed_is_announced_as_a_warning(client, event, players):
    # The sheet does not count: the official must not read it as done (shown in green).
    client.force_login(event["users"][Role.REFEREE])
    check_and_save(client, _url(event), sheet_form_data(players))
    client.force_login(event["users"]["referee2"])
    other = sheet_form_data(players, points=(42300, 31000, 19000, 27700), revision=1)
    check_and_save(client, _url(event), other)
    page = client.get(_url(event))
    assert '<li class="message-warning">Your entry differs from the first one' in (
        page.content.decode()
    )


@pytest.mark.parametrize(
    "policy",
    [Tournament.ConfirmationPolicy.DOUBLE_BLIND, Tournament.ConfirmationPolicy.SECOND_OFFICIAL],
)
def test_a_part_way_save_never_sets_another_official_s_full_entry_aside(
    client, event, players, policy
):
    """A second official typing the hands who pressed "Save part-way" made their one hand the
    current version: the table went back to "hands being entered", the first official's full
    entry was left out of the comparison (their work to type again), and under blind double
    entry the history then showed it to the official who must not see it."""
    _policy(event, policy)
    first = enter(event["rounds"][0], 1, make_entry(players), event["users"][Role.REFEREE])
    client.force_login(event["users"]["referee2"])
    url = _url(event, "hands")
    page = client.get(url)
    assert 'value="draft"' not in page.content.decode()  # no "Save part-way" offered
    hand = [{"result": "ron", "winner": "S", "loser": "W", "han": "3", "fu": "30"}]
    response = client.post(url, {**_hands_data(players, hand, revision=1), "action": "draft"})
    assert response.status_code == 200
    assert "has already entered this sheet in full" in response.context["error"]
    assert response.context["formset"].forms[0]["winner"].value() == "S"  # input kept
    french = client.post(
        url,
        {**_hands_data(players, hand, revision=1), "action": "draft"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert "a déjà saisi cette feuille en entier" in french.content.decode()
    sheet = ScoreSheet.objects.get()
    assert (sheet.status, sheet.current) == (Status.ENTERED, first.version)
    history = client.get(_url(event, "history")).context["versions"]
    if policy == Tournament.ConfirmationPolicy.DOUBLE_BLIND:
        assert [line["view"] for line in history] == [None]
    # The first official may still save their own sheet part-way (fixing their entry).
    client.force_login(event["users"][Role.REFEREE])
    assert 'value="draft"' in client.get(url).content.decode()


class _ReadAtMost(QueryDict):
    """Posted data that fails the test once read more often than a page needs."""

    reads = 0

    def get(self, key, default=None):
        self.reads += 1
        assert self.reads < 1000, "the posted data was read row by row past the formset's limit"
        return super().get(key, default)


def test_a_posted_count_of_hands_beyond_the_limit_costs_nothing(referee, event, players):
    """A hand count of 10**12 in the posted form (any referee can send one) kept the server
    process counting the rows it names, for hours: five such posts and no page answered."""
    data = _hands_data(players, [{"result": "ron", "winner": "S", "loser": "W", "han": "3"}])
    data["hands-TOTAL_FORMS"] = str(10**12)
    posted = _ReadAtMost(mutable=True)
    for key, value in data.items():
        posted[key] = value
    assert with_room_for_more_hands(posted)["hands-TOTAL_FORMS"] == str(10**12)
    response = referee.post(_url(event, "hands"), {**data, "action": "check"})
    assert response.status_code == 200
    assert not ScoreSheet.objects.exists()


def test_a_field_error_and_help_text_are_read_with_the_field(referee, event, players):
    # Django marks the field aria-invalid and aria-describedby="id_E_points_error", but the
    # page's error list had no id: a screen reader on the field said "invalid" and not why.
    data = sheet_form_data(players, points=(42350, 31000, 27700, 18950))
    html = referee.post(_url(event), {**data, "action": "check"}).content.decode()
    field = re.search(r"<input[^>]*name=\"E_points\"[^>]*>", html).group()
    assert 'aria-invalid="true"' in field
    described = re.search(r'aria-describedby="([^"]+)"', field).group(1).split()
    assert described == ["id_E_points_error"]
    error = re.search(r'<ul class="errorlist" id="id_E_points_error">(.*?)</ul>', html)
    assert "not a multiple of 100" in error.group(1)
    for names in re.findall(r'aria-describedby="([^"]+)"', html):  # every id is on the page
        for name in names.split():
            assert f'id="{name}"' in html, name


def test_the_time_up_box_is_read_with_its_help_text(referee, event):
    html = referee.get(_url(event, "hands")).content.decode()
    assert 'aria-describedby="id_time_up_helptext"' in html
    assert 'id="id_time_up_helptext"' in html


def test_a_correction_that_makes_a_swiss_round_stale_says_so(client, event, players):
    # Round 2 was seated as a Swiss round from round 1's standings; a head referee then
    # corrected a round 1 sheet (East and North read the wrong way round, WRC 2015 §5.9.2
    # example reversed). Only the admin's seating overview said the groups were stale.
    _policy(event, Tournament.ConfirmationPolicy.SINGLE)
    round_one, round_two = event["rounds"][0], event["rounds"][1]
    client.force_login(event["users"][Role.REFEREE])
    for table in (1, 2, 3):
        data = sheet_form_data(table_registrations(round_one, table))
        check_and_save(client, _url(event, table=table), data)
    standings, _unfinished = swiss_standings(event["tournament"], round_two)
    seating_run_apply(
        run=seating_run_swiss(
            tournament=event["tournament"],
            round=round_two,
            standings=standings,
            seed=5,
            background=False,
            acting_user=None,
        ),
        acting_user=None,
    )
    client.force_login(event["users"][Role.HEAD_REFEREE])
    data = sheet_form_data(players, points=(19000, 27700, 31000, 42300), revision=1)
    data["reason"] = "East and North read the wrong way round"
    response = check_and_save(client, _url(event, "correct"), data)
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert said == [
        "Saved and confirmed: the sheet counts in the standings.",
        "Round 2 was seated as a Swiss round from the standings before this sheet: an "
        "organiser seats it again (admin → Generate seating) before it is played.",
    ]
