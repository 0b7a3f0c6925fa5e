"""The hand-by-hand sheet's "time was up" box follows the table's own end: the round's plus
the extra time the head referee gave it (WRC 2015 §8.2)."""

import datetime

from django.urls import reverse
from django.utils import timezone

from tests.scoring.conftest import Role
from tests.scoring.test_sheet_pages import _hands_data
from tournament.models import Round
from tournament.services.clock import table_time_grant

HANDS = [{"result": "ron", "winner": "S", "loser": "W", "han": "3", "fu": "30"}]


def _after_the_round(event, minutes_past: int) -> None:
    round_ = event["rounds"][0]
    started = timezone.now() - datetime.timedelta(
        minutes=event["tournament"].round_minutes + minutes_past
    )
    Round.objects.filter(pk=round_.pk).update(
        status=Round.Status.PLAYING, clock_running_since=started
    )


def _grant(event, minutes: int) -> None:
    table_time_grant(
        round_=event["rounds"][0],
        table_number=1,
        minutes=minutes,
        one_more_hand=False,
        reason="Long dispute",
        acting_user=event["users"][Role.HEAD_REFEREE],
    )


def _url(event) -> str:
    return reverse("scoring:hands", args=[event["tournament"].slug, 1, 1])


def test_the_box_is_ticked_once_the_tables_own_end_has_passed(referee, event):
    _after_the_round(event, minutes_past=2)
    assert referee.get(_url(event)).context["form"]["time_up"].value() is True


def test_a_table_given_time_still_plays_when_the_round_is_up(referee, event, players):
    _after_the_round(event, minutes_past=2)
    _grant(event, minutes=10)
    form = referee.get(_url(event)).context["form"]
    assert form["time_up"].value() is False
    assert "Table 1 was given 10 extra minutes by the head referee." in form["time_up"].help_text
    response = referee.post(_url(event), {**_hands_data(players, HANDS), "action": "check"})
    assert response.context["form"].errors["time_up"] == [
        "Table 1 still has 8 minutes on the clock, its extra time included: untick the box, "
        "or save part-way."
    ]
