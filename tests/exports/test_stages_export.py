"""The standings by stage (XLSX and PDF): one sheet a stage, numbers as numbers, the players through
marked and the cut explained; offered to organisers once the tournament has a stage."""

import pytest
from django.urls import reverse

from scoring.exports.stages_pdf import StagesPdf
from scoring.exports.stages_xlsx import StagesXlsx
from scoring.services.stages import stage_choice_set
from tests.exports.conftest import open_xlsx, pdf_squashed
from tests.scoring.stages import final_stage, play_two_rounds


@pytest.fixture
def played(tournament, organiser):
    return play_two_rounds(tournament, organiser)


def test_each_stage_is_a_sheet_with_the_players_through_and_the_cut(played, organiser):
    tournament, p, _rounds = played
    stage = final_stage(tournament, organiser, name="Final: top 3", cut_size=3)
    stage_choice_set(stage=stage, registrations=[p[5]], acting_user=organiser)
    filename, _type, content = StagesXlsx(tournament).render()
    assert filename == f"{tournament.slug}-stages.xlsx"
    workbook = open_xlsx(content)
    # ":" cannot be in a sheet's name
    assert workbook.sheetnames == ["1. Qualifying", "2. Final top 3", "Tournament"]
    qualifying = [[cell.value for cell in row] for row in workbook["1. Qualifying"].iter_rows()]
    assert qualifying[0] == [
        "Place", "Last name", "First name", "Country", "Club / team", "Carried over", "R1", "R2",
        "Total", "Goes through to",
    ]  # fmt: skip
    # p4 first with 54.6 (27.3 twice), through
    assert qualifying[1][1:3] == [p[4].player.last_name, p[4].player.first_name]
    assert qualifying[1][6:] == [27.3, 27.3, 54.6, "Final: top 3"]
    assert sum(1 for row in qualifying[1:9] if row[9] == "Final: top 3") == 3
    assert qualifying[-1][0].endswith(f"the organiser chose {p[5].player}.")
    final = [[cell.value for cell in row] for row in workbook["2. Final top 3"].iter_rows()]
    # carried: half of 54.6, 52.6 and 12.0; no round of the final played yet
    assert [row[5] for row in final[1:]] == [27.3, 26.3, 6]


def test_the_stages_export_is_offered_once_there_is_a_stage(client, played, organiser):
    tournament, _p, _rounds = played
    client.force_login(organiser)
    exports = reverse("staff:exports", args=[tournament.slug])
    assert "stages-" not in client.get(exports).content.decode()
    final_stage(tournament, organiser)
    page = client.get(exports).content.decode()
    for kind in ("stages-xlsx", "stages-pdf"):
        assert kind in page
        response = client.get(reverse("staff:export", args=[tournament.slug, kind]))
        assert response.status_code == 200


def test_the_stages_pdf_lists_each_stage_marks_those_through_and_explains_the_cut(
    played, organiser
):
    tournament, p, _rounds = played
    p[4].player.first_name, p[4].player.last_name = "太郎", "山田"
    p[4].player.save()
    stage = final_stage(tournament, organiser, cut_size=3)
    stage_choice_set(stage=stage, registrations=[p[1]], acting_user=organiser)
    filename, content_type, content = StagesPdf(tournament).render()
    assert (filename, content_type) == (f"{tournament.slug}-stages.pdf", "application/pdf")
    text = pdf_squashed(content)
    assert "Qualifying" in text
    assert "Final" in text
    # 山田太郎 first with 54.6 and through, then p0 (52.6), then p1 chosen at the tie
    assert "→1山田太郎" in text
    assert "+54.6" in text
    assert f"theorganiserchose{p[1].player}.".replace(" ", "") in text
    # the final's carry-over: half of 54.6
    assert "+27.3" in text
