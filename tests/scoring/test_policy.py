"""The confirmation policy's predicates (docs/score-sheets.md, "Confirmation"): what the sheet
pages offer and what the sheet services accept are both these answers."""

from types import SimpleNamespace

import pytest

from scoring.models import ScoreSheet, SheetVersion
from scoring.policy import awaits_second_entry, hidden_from, may_confirm
from tournament.models import Tournament

Policy = Tournament.ConfirmationPolicy
Status = ScoreSheet.Status
FIRST, SECOND = SimpleNamespace(pk=1), SimpleNamespace(pk=2)


def _entered_by_first(status: str = Status.ENTERED) -> ScoreSheet:
    return ScoreSheet(status=status, current=SheetVersion(entered_by_id=FIRST.pk))


@pytest.mark.parametrize(
    ("policy", "official", "confirms"),
    [
        (Policy.SINGLE, FIRST, True),
        (Policy.SECOND_OFFICIAL, FIRST, False),  # not one's own entry
        (Policy.SECOND_OFFICIAL, SECOND, True),
        (Policy.DOUBLE_BLIND, FIRST, False),  # a second entry confirms, never a button
        (Policy.DOUBLE_BLIND, SECOND, False),
    ],
)
def test_who_may_confirm_an_entered_sheet(policy, official, confirms):
    tournament = Tournament(confirmation_policy=policy)
    assert may_confirm(tournament, _entered_by_first(), official) is confirms


@pytest.mark.parametrize("status", [Status.IN_PROGRESS, Status.CONFIRMED, Status.DISPUTED])
def test_only_an_entered_sheet_is_confirmed_or_awaits_a_second_entry(status):
    tournament = Tournament(confirmation_policy=Policy.SECOND_OFFICIAL)
    sheet = _entered_by_first(status)
    assert not may_confirm(tournament, sheet, SECOND)
    assert not awaits_second_entry(sheet, SECOND)
    assert not may_confirm(tournament, None, SECOND)


@pytest.mark.parametrize("policy", list(Policy))
def test_the_first_entry_is_hidden_from_the_second_official_under_blind_entry_only(policy):
    tournament = Tournament(confirmation_policy=policy)
    sheet = _entered_by_first()
    assert awaits_second_entry(sheet, SECOND)
    assert not awaits_second_entry(sheet, FIRST)
    blind = policy == Policy.DOUBLE_BLIND
    assert hidden_from(tournament, sheet, sheet.current, SECOND) is blind
    assert not hidden_from(tournament, sheet, sheet.current, FIRST)
