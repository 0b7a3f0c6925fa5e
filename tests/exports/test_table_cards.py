"""The table cards: one page a table with its players by wind, and a QR code that opens the
table's page for its players' report, made with the site's address of the download."""

import io

import pypdf
import segno
from django.urls import reverse

from scoring.exports.table_cards import TableCardsPdf, qr_drawing
from scoring.services.table_reports import table_key_reissue
from scoring.table_keys import table_of_key
from tests.exports.conftest import WRITTEN, pdf_squashed, pdf_text
from tournament.exports.base import PDF_CONTENT_TYPE

ORIGIN = "https://mahjong.example.org"


def _key(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


def test_table_cards_have_one_page_a_table_with_its_players(seated_round):
    filename, content_type, content = TableCardsPdf(seated_round, origin=ORIGIN).render()
    assert filename.endswith("-round-1-table-cards.pdf")
    assert content_type == PDF_CONTENT_TYPE
    reader = pypdf.PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 2  # 8 players, 2 tables
    first = "".join(reader.pages[0].extract_text().split())
    assert "Round1·Table1" in first
    assert all(name in first for name in WRITTEN[:4])
    assert not any(name in first for name in WRITTEN[4:])  # another table's players
    assert all(name in pdf_squashed(content) for name in WRITTEN)
    assert "Open de Paris" in pdf_text(content)


def test_a_cards_qr_code_opens_its_own_table(seated_round):
    cards = TableCardsPdf(seated_round, origin=ORIGIN + "/")
    url = cards.card_url(2, 0)
    assert url.startswith(f"{ORIGIN}/t/{seated_round.tournament.slug}/table/")
    access = table_of_key(seated_round.tournament, _key(url))
    assert (access.round, access.table_number) == (seated_round, 2)
    # The drawing's squares are the QR code of that address, module for module.
    drawing = qr_drawing(url)
    rows = list(segno.make(url, error="m").matrix_iter(border=4))
    module = drawing.width / len(rows)
    dark = {
        (round(shape.x / module), len(rows) - 1 - round(shape.y / module))
        for shape in drawing.contents
    }
    assert dark == {(x, y) for y, row in enumerate(rows) for x, on in enumerate(row) if on}


def test_a_card_printed_again_carries_the_new_issue(seated_round, organiser):
    table_key_reissue(round_=seated_round, table_number=1, acting_user=organiser)
    cards = TableCardsPdf(seated_round, origin=ORIGIN)
    assert table_of_key(seated_round.tournament, _key(cards.card_url(1, 0))) is None
    assert table_of_key(seated_round.tournament, _key(cards.card_url(1, 1))) is not None


def test_the_organiser_downloads_the_cards_from_the_round_exports(client, seated_round, organiser):
    client.force_login(organiser)
    tournament = seated_round.tournament
    response = client.get(
        reverse("staff:round_export", args=[tournament.slug, 1, "table-cards-pdf"])
    )
    assert response.status_code == 200
    assert response["Content-Type"] == PDF_CONTENT_TYPE
    assert "ZoéMartin" in pdf_squashed(response.content)
