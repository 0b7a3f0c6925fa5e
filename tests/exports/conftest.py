"""Helpers to reopen exported files."""

import io

import pypdf
import pytest
from openpyxl import load_workbook

from tests.conftest import make_player, make_registration, make_rounds, make_seats, make_tournament
from tournament.models import Round

# Names in several scripts on purpose: the PDFs must keep every one of them.
NAMES = [
    ("Zoé", "Martin", "FR"),
    ("太郎", "山田", "JP"),
    ("민준", "김", "KR"),
    ("Łukasz", "Wiśniewski", "PL"),
    ("Hugo", "Bernard", "FR"),
    ("Lena", "Schmidt", "DE"),
    ("Aino", "Korhonen", "FI"),
    ("Giulia", "Rossi", "IT"),
]

# How the exports write them (squashed, without spaces): family name first in CJK.
WRITTEN = [
    "ZoéMartin",
    "山田太郎",
    "김민준",
    "ŁukaszWiśniewski",
    "HugoBernard",
    "LenaSchmidt",
    "AinoKorhonen",
    "GiuliaRossi",
]


def pdf_text(content: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)


def pdf_squashed(content: bytes) -> str:
    """The PDF's text without spaces or line breaks (extraction splits words unpredictably)."""
    return "".join(pdf_text(content).split())


def open_xlsx(content: bytes):
    return load_workbook(io.BytesIO(content))


@pytest.fixture
def seated_round(db) -> Round:
    tournament = make_tournament(name="Open de Paris", venue="Salle des fêtes")
    registrations = [
        make_registration(
            tournament, player=make_player(first_name=first, last_name=last, country=country)
        )
        for first, last, country in NAMES
    ]
    round_ = make_rounds(tournament, 1)[0]
    make_seats(round_, registrations)
    round_.status = Round.Status.SEATED
    round_.save()
    return round_
