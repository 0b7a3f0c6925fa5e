"""The typed sheet's JSON (`SheetVersion.data`): rows stored before keep loading, unchanged."""

from scoring.entries import SheetEntry
from scoring.rules import Hand

SEATS = [
    {"registration": pk, "points": None, "chombo": 0, "late_minutes": 0, "substitute": None}
    for pk in (1, 2, 3, 4)
]


def _stored_hand(**values) -> dict:
    return {
        "result": "draw",
        "winner": None,
        "loser": None,
        "han": None,
        "fu": None,
        "yakuman": 0,
        "riichi": [],
        "tenpai": [],
        "offender": None,
        "pao": None,
        "ron_claimants": [],
        "dead_hand": [],
        "noten_riichi": [],
        "time_up": False,
    } | values


def test_a_stored_nagashi_mangan_names_its_player_in_the_winner_column():
    # Nagashi mangan [ORAN-1 §4.4.10.6]: the sheet's one column for the seat that is paid
    # holds its player; the engine reads that seat as the hand's player.
    data = {
        "seats": SEATS,
        "riichi_sticks_left": 0,
        "hands": [
            _stored_hand(result="ron", winner="S", loser="W", han=3, fu=30, riichi=["W"]),
            _stored_hand(result="nagashi", winner="N", tenpai=["E"], time_up=True),
        ],
        "note": "",
    }
    entry = SheetEntry.from_data("hands", data)
    assert entry.hands == (
        Hand("ron", winner="S", loser="W", han=3, fu=30, riichi=("W",)),
        Hand("nagashi", player="N", tenpai=("E",), time_up=True),
    )
    assert entry.to_data() == data
