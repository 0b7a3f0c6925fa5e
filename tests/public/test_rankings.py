"""Live rankings, team rankings and the player page, fed by confirmed score sheets."""

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.services.penalties import penalty_give
from scoring.views import public as public_views
from tests.conftest import (
    confirm_sheet,
    make_player,
    make_registration,
    make_registrations,
    make_rounds,
    make_seats,
    make_staff,
    make_tournament,
)
from tournament.formatting import format_points, format_score
from tournament.invalidation import standings_changed
from tournament.models import WIND_ORDER, Registration, Round, Seat, Tournament, TournamentStaff
from tournament.services.registrations import (
    registration_disqualify,
    registration_reinstate,
    registration_withdraw,
)


def make_event(django_user_model, players: int = 8, teams: int = 2, **fields):
    """Round 1 seated, every table's sheet confirmed at once (single-entry policy)."""
    tournament = make_tournament(confirmation_policy=Tournament.ConfirmationPolicy.SINGLE, **fields)
    registrations = make_registrations(tournament, players, teams=teams)
    rounds = make_rounds(tournament, 2)
    make_seats(rounds[0], registrations)
    rounds[0].status = Round.Status.SEATED
    rounds[0].save()
    referee = django_user_model.objects.create_user(f"ref-{tournament.pk}", password="pw-referee-1")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    return tournament, registrations, rounds, referee


def confirm_round(round_, referee, tables: int) -> None:
    # WRC 2015 §5.9.2: (points − 30 000) / 1 000 + uma 15/5/−5/−15.
    for table in range(1, tables + 1):
        confirm_sheet(round_, table, referee)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(273, 10), "+27.3"),
        (Fraction(-26), "−26.0"),
        (Fraction(0), "0.0"),
        (Fraction(10, 3), "+3.33…"),  # two decimals cannot hold it: rounded, with an ellipsis
        (Fraction(-1225, 100), "−12.25"),  # a referee's penalty in hundredths: exact
        (Fraction(-9999999, 100), "−99999.99"),  # the largest penalty the form takes
        (None, ""),
    ],
)
def test_format_score(value, text):
    with translation.override("en"):
        assert format_score(value) == text


def test_format_score_uses_the_readers_locale():
    with translation.override("fr"):
        assert format_score(Fraction(273, 10)) == "+27,3"


@pytest.mark.parametrize(
    ("points", "text"),
    [(42300, "42,300"), (-5300, "−5,300"), (0, "0"), (None, "")],  # below zero [WRC 2015 §4.1]
)
def test_format_points_writes_the_minus_sign_as_scores_do(points, text):
    with translation.override("en"):
        assert format_points(points) == text


@pytest.mark.django_db
def test_rankings_show_places_and_scores_of_confirmed_sheets(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    response = client.get(reverse("public:rankings", args=[tournament.slug]))
    assert response.status_code == 200
    content = response.content.decode()
    assert "+27.3" in content
    assert "−26.0" in content
    assert "1=" in content  # the two table winners share first place
    rows = response.context["table"].rows
    assert [row.record["place"] for row in rows] == [1, 1, 3, 3, 5, 5, 7, 7]


@pytest.mark.django_db
def test_an_equal_total_ordered_by_a_tie_break_says_so(client, django_user_model):
    # WRC 2015 §5.9.2: table 1's East +27.3; table 2's East (50 000) +35.0, less a penalty of 7.7:
    # both on 27.3. The tie-break chain (docs/rules-engine.md, default: best hanchan first) puts
    # table 2's East first, 35.0 against 27.3; the page said nothing of why 1 was not 2.
    tournament, registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=1)
    confirm_sheet(rounds[0], 2, referee, points=(50000, 30000, 25000, 15000))
    head = django_user_model.objects.create_user("head", password="pw-head-1")
    make_staff(tournament, head, TournamentStaff.Role.HEAD_REFEREE)
    east_2 = Seat.objects.get(round=rounds[0], table_number=2, wind="E").registration
    penalty_give(registration=east_2, points=Decimal("7.7"), reason="Slow play", acting_user=head)
    response = client.get(reverse("public:rankings", args=[tournament.slug]))
    rows = response.context["table"].rows
    assert [(row.record["place"], row.record["decided_by"]) for row in rows][:3] == [
        (1, "best_hanchan"),
        (2, "best_hanchan"),
        (3, None),
    ]
    assert rows[0].record["registration_id"] == east_2.pk
    content = response.content.decode()
    assert content.count("Same total as the next place: decided by the best hanchan.") == 4
    assert (
        "† Same total as the next place: the tie-breaks decide, in this order: the best "
        "hanchan, more 1st places, more 2nd places, fewer penalty points." in content
    )
    with translation.override("fr"):
        page = client.get(
            reverse("public:rankings", args=[tournament.slug]), headers={"accept-language": "fr"}
        ).content.decode()
    assert "départagé par le meilleur hanchan" in page


@pytest.mark.django_db
def test_the_rankings_say_final_once_every_round_is_locked(client, django_user_model):
    # At the prize-giving the page still read "Live rankings" and kept polling every ten
    # seconds, every round's results locked and final.
    tournament, registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    make_seats(rounds[1], list(reversed(registrations)))
    Round.objects.filter(pk=rounds[1].pk).update(status=Round.Status.SEATED)
    confirm_round(rounds[1], referee, tables=2)
    Round.objects.filter(pk=rounds[0].pk).update(status=Round.Status.LOCKED)
    urls = (
        reverse("public:rankings", args=[tournament.slug]),
        reverse("public:tournament", args=[tournament.slug]),
    )
    for url in urls:
        page = client.get(url).content.decode()
        assert "Live rankings" in page
        assert "Final rankings" not in page
    assert "data-final" not in client.get(urls[0]).content.decode()
    Round.objects.filter(pk=rounds[1].pk).update(status=Round.Status.LOCKED)
    for url in urls:
        page = client.get(url).content.decode()
        assert "Final rankings" in page
        assert "Live rankings" not in page
    assert "data-final" in client.get(urls[0]).content.decode()


@pytest.mark.django_db
def test_a_round_seated_but_not_published_has_no_column(
    client, django_user_model, django_capture_on_commit_callbacks
):
    # Round 2's seats exist but the round is still "planned": an empty R2 column would tell
    # the players its seating is ready before the organiser publishes it.
    tournament, registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    make_seats(rounds[1], list(reversed(registrations)))
    assert rounds[1].status == Round.Status.PLANNED
    response = client.get(reverse("public:rankings", args=[tournament.slug]))
    assert response.context["standings"].round_numbers == [1]
    assert ">R2<" not in response.content.decode()
    Round.objects.filter(pk=rounds[1].pk).update(status=Round.Status.SEATED)
    with django_capture_on_commit_callbacks(execute=True):
        standings_changed(tournament)
    response = client.get(reverse("public:rankings", args=[tournament.slug]))
    assert response.context["standings"].round_numbers == [1, 2]


@pytest.mark.django_db
def test_round_with_unconfirmed_sheets_is_marked_provisional(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=1)
    response = client.get(reverse("public:rankings", args=[tournament.slug]))
    assert 'class="provisional"' in response.content.decode()
    assert response.context["standings"].provisional_rounds == {1}


@pytest.mark.django_db
def test_the_provisional_legend_comes_and_goes_with_the_polled_table(client, django_user_model):
    # A screen left on the rankings replaces only the table: the legend must come with it.
    # Without a provisional round its line stays, hidden, so that the rows do not move.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    shown = '<p class="muted provisional-legend">* provisional: some score sheets'
    hidden = '<p class="muted provisional-legend none">'
    url = reverse("public:rankings_rows", args=[tournament.slug])
    assert hidden in client.get(url).content.decode()  # nothing entered yet
    confirm_sheet(rounds[0], 1, referee)
    assert shown in client.get(url).content.decode()  # table 2 still to come
    confirm_sheet(rounds[0], 2, referee)
    assert hidden in client.get(url).content.decode()
    page = client.get(reverse("public:rankings", args=[tournament.slug])).content.decode()
    assert hidden in page
    assert shown not in page


@pytest.mark.django_db
def test_rankings_search_and_sort(client, django_user_model):
    tournament, registrations, rounds, referee = make_event(django_user_model)
    target = registrations[3].player
    target.last_name = "O’Connor-Müller"
    target.save()
    confirm_round(rounds[0], referee, tables=2)
    url = reverse("public:rankings", args=[tournament.slug])
    # "müller", "muller" and, as find my seat, the letters spelled out: "mueller"; the name
    # run together, as typed without its apostrophe and hyphen, and the keyboard's apostrophe.
    for query in ("müller", "muller", "mueller", "oconnormuller", "o'connor"):
        response = client.get(url, {"q": query})
        rows = response.context["table"].rows
        assert [row.record["name"] for row in rows] == [target.full_name], query
    response = client.get(url, {"sort": "-total"})
    totals = [row.record["total"] for row in response.context["table"].rows]
    assert totals == sorted(totals, reverse=True)
    response = client.get(url, {"sort": "total"})
    totals = [row.record["total"] for row in response.context["table"].rows]
    assert totals == sorted(totals)


@pytest.mark.django_db
def test_rankings_search_finds_a_cjk_name_typed_as_it_is_written(client, django_user_model):
    # Entered as given name / family name, shown family name first and run together.
    tournament, registrations, rounds, referee = make_event(django_user_model)
    target = registrations[2].player
    target.first_name, target.last_name = "太郎", "山田"
    target.save()
    confirm_round(rounds[0], referee, tables=2)
    response = client.get(reverse("public:rankings", args=[tournament.slug]), {"q": "山田太郎"})
    assert [row.record["name"] for row in response.context["table"].rows] == ["山田太郎"]
    # The page's own filter, as the reader types, looks in the same text.
    assert 'data-search="太郎 山田 山田太郎' in response.content.decode()


@pytest.mark.django_db
def test_rows_endpoint_answers_304_until_a_sheet_is_confirmed(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    url = reverse("public:rankings_rows", args=[tournament.slug])
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    confirm_round(rounds[0], referee, tables=1)
    changed = client.get(url, headers={"if-none-match": etag})
    assert changed.status_code == 200
    assert "+27.3" in changed.content.decode()


@pytest.mark.django_db
def test_the_page_carries_its_table_etag_so_the_first_poll_costs_a_304(client, django_user_model):
    # The page's script polls at once (for its status line): it asks whether the table it
    # came with changed, instead of downloading the whole ranking a second time.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=1)
    for query in ("", "?q=martin", "?sort=-total"):
        page = client.get(reverse("public:rankings", args=[tournament.slug]) + query)
        attribute = re.search(r'data-etag="([^"]+)"', page.content.decode()).group(1)
        etag = attribute.replace("&quot;", '"')
        url = reverse("public:rankings_rows", args=[tournament.slug]) + query
        assert client.get(url, headers={"if-none-match": etag}).status_code == 304


@pytest.mark.django_db
def test_query_strings_the_ranking_does_not_read_share_one_rendering(
    client, django_user_model, monkeypatch
):
    # Each new query string was a fresh rendering (about a second at 500 players) and a
    # cache entry: a loop of ?x=<random> from the hall's Wi-Fi could keep the workers busy.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=1)
    rendered = []
    render = public_views.render_to_string
    monkeypatch.setattr(
        public_views,
        "render_to_string",
        lambda *args, **kwargs: rendered.append(args[0]) or render(*args, **kwargs),
    )
    url = reverse("public:rankings_rows", args=[tournament.slug])
    for query in ("", "?x=1", "?x=2&utm_source=qr", "?sort=bogus", "?sort=-nothing"):
        response = client.get(url + query)
        assert response.status_code == 200
        assert "x=" not in response.content.decode()  # nor in the sort links
    assert rendered == ["public/_ranking_table.html"]
    for query in ("?sort=-total", "?sort=r1", "?q=martin"):
        client.get(url + query)
    assert len(rendered) == 4


@pytest.mark.django_db
def test_hidden_rankings_are_404_for_anonymous(client, django_user_model):
    tournament, registrations, _rounds, referee = make_event(django_user_model, show_rankings=False)
    urls = [
        reverse("public:rankings", args=[tournament.slug]),
        reverse("public:rankings_rows", args=[tournament.slug]),
        reverse("public:team_rankings", args=[tournament.slug]),
        reverse("public:player", args=[tournament.slug, registrations[0].pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(referee)
    for url in urls:
        assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_player_page_shows_table_opponents_and_rank(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    east, south, west, north = [
        seat.registration
        for seat in Seat.objects.filter(round=rounds[0], table_number=1).order_by("id")
    ]
    response = client.get(reverse("public:player", args=[tournament.slug, east.pk]))
    assert response.status_code == 200
    content = response.content.decode()
    for opponent in (south, west, north):
        assert opponent.player.full_name in content
    assert "42,300" in content
    assert "+27.3" in content
    (row,) = response.context["rounds"]
    assert (row["table_number"], row["wind"], row["place"], row["rank"]) == (1, "E", 1, 1)
    assert "<svg" in content


@pytest.mark.django_db
def test_team_rankings_sum_the_members(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    response = client.get(reverse("public:team_rankings", args=[tournament.slug]))
    assert response.status_code == 200
    rows = list(response.context["table"].data)
    assert {row["name"] for row in rows} == {"Team 1", "Team 2"}
    assert sum(row["total"] for row in rows) == 0  # scores of a table sum to zero


@pytest.mark.django_db
def test_team_rankings_without_teams_is_404(client, django_user_model):
    tournament, _registrations, _rounds, _referee = make_event(django_user_model, teams=0)
    assert client.get(reverse("public:team_rankings", args=[tournament.slug])).status_code == 404


@pytest.mark.parametrize("players", [8, 48])
@pytest.mark.django_db
def test_ranking_pages_query_count_does_not_grow(
    client, django_user_model, django_assert_max_num_queries, players
):
    tournament, registrations, rounds, referee = make_event(django_user_model, players=players)
    confirm_round(rounds[0], referee, tables=players // 4)
    pages = [
        reverse("public:rankings", args=[tournament.slug]),
        reverse("public:rankings_rows", args=[tournament.slug]),
        reverse("public:team_rankings", args=[tournament.slug]),
        reverse("public:player", args=[tournament.slug, registrations[0].pk]),
        reverse("public:tournament", args=[tournament.slug]),
    ]
    for url in pages:
        client.get(url)  # warm the standings cache as a live event would
        with django_assert_max_num_queries(15):
            assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_unknown_sort_and_odd_search_do_not_break_the_page(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    url = reverse("public:rankings", args=[tournament.slug])
    assert client.get(url, {"sort": "nonsense"}).status_code == 200
    response = client.get(url, {"q": "<script>%'\""})
    assert response.status_code == 200
    assert "<script>%" not in response.content.decode()


@pytest.mark.django_db
def test_the_rank_chart_keeps_svg_numbers_in_french(client, django_user_model):
    # SVG coordinates are numbers, never localised: "22,0" would put the dot at 0, 0
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    east = Seat.objects.filter(round=rounds[0], table_number=1).order_by("id").first()
    url = reverse("public:player", args=[tournament.slug, east.registration.pk])
    content = client.get(url, headers={"accept-language": "fr"}).content.decode()
    svg = content[content.index("<svg") : content.index("</svg>")]
    coordinates = re.findall(r' (?:cx|cy|x|y|x1|y1|x2|y2)="([^"]*)"', svg)
    assert coordinates
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", value) for value in coordinates), coordinates
    (points,) = re.findall(r' points="([^"]*)"', svg)
    assert re.fullmatch(r"[\d.]+,[\d.]+( [\d.]+,[\d.]+)*", points), points


@pytest.mark.django_db
def test_a_withdrawn_player_stays_ranked_and_is_marked(client, django_user_model):
    tournament, registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    east = Seat.objects.filter(round=rounds[0], table_number=1).order_by("id").first()
    withdrawn = east.registration
    withdrawn.status = Registration.Status.WITHDRAWN
    withdrawn.save()
    standings_changed(tournament)
    response = client.get(reverse("public:rankings", args=[tournament.slug]))
    row = next(r for r in response.context["table"].data if r["registration_id"] == withdrawn.pk)
    assert row["withdrawn"] is True
    assert row["place"] == 1  # the round played still counts
    assert "withdrawn</small>" in response.content.decode()


@pytest.mark.parametrize(
    ("status", "english", "french"),
    [
        # WRC 2015 §7.1: a disqualified player is not in the ranking.
        (
            Registration.Status.DISQUALIFIED,
            "Disqualified · Not in the ranking.",
            "Disqualifié · Absent du classement.",
        ),
        # Withdrawn: still ranked on the rounds played, as the rankings say ("withdrawn").
        (
            Registration.Status.WITHDRAWN,
            "Withdrawn · The rounds played still count in the ranking.",
            "Retiré · Les rondes jouées comptent toujours au classement.",
        ),
    ],
)
@pytest.mark.django_db
def test_the_player_page_says_a_player_no_longer_plays_but_not_why(
    client, django_user_model, status, english, french
):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    east = Seat.objects.filter(round=rounds[0], table_number=1).order_by("id").first()
    registration = east.registration
    registration.status = status
    registration.status_reason = "Collusion with the player at West"
    registration.save()
    standings_changed(tournament)
    url = reverse("public:player", args=[tournament.slug, registration.pk])
    for language, text in (("en", english), ("fr", french)):
        content = client.get(url, headers={"accept-language": language}).content.decode()
        notice = re.search(r'<p class="notice player-status">(.*?)</p>', content, re.S)
        assert notice, content
        assert re.sub(r"<[^>]+>", "", notice.group(1)) == text
        assert "Collusion" not in content


@pytest.mark.django_db
def test_the_player_page_of_a_player_who_plays_has_no_status_notice(client, django_user_model):
    tournament, registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    url = reverse("public:player", args=[tournament.slug, registrations[0].pk])
    assert "player-status" not in client.get(url).content.decode()


@pytest.mark.parametrize(
    "leave", [registration_withdraw, registration_disqualify], ids=["withdrawn", "disqualified"]
)
@pytest.mark.django_db
def test_a_reinstated_player_is_ranked_and_no_longer_marked(
    client, django_user_model, organiser, leave
):
    # WRC 2015 §7.1: a disqualified player is left out of the rankings, a
    # withdrawn one marked "withdrawn"; reinstated, they are listed as any other player.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    east = Seat.objects.filter(round=rounds[0], table_number=1).order_by("id").first()
    registration = east.registration
    leave(registration=registration, reason="Collusion at West", acting_user=organiser)
    rankings = reverse("public:rankings", args=[tournament.slug])
    client.get(rankings)  # the table as it was, cached
    registration_reinstate(registration=registration, reason="Appeal upheld", acting_user=organiser)
    response = client.get(rankings)
    rows = {row["registration_id"]: row for row in response.context["table"].data}
    assert (rows[registration.pk]["place"], rows[registration.pk]["withdrawn"]) == (1, False)
    assert "withdrawn</small>" not in response.content.decode()
    page = client.get(reverse("public:player", args=[tournament.slug, registration.pk]))
    assert "player-status" not in page.content.decode()
    assert page.context["entry"].place == 1  # shared with the other table's East


@pytest.mark.django_db
def test_an_official_lands_on_the_home_page_with_their_tournaments(client, django_user_model):
    tournament, _registrations, _rounds, referee = make_event(django_user_model)
    client.force_login(referee)
    content = client.get(reverse("public:home")).content.decode()
    assert reverse("scoring:rounds", args=[tournament.slug]) in content
    assert reverse("staff:exports", args=[tournament.slug]) not in content  # organisers only


@pytest.mark.django_db
def test_players_without_a_hanchan_have_no_place_and_come_last(client, django_user_model):
    # WRC 2015 §7.2: a player's total is the sum of hanchan scores; a late
    # registration has none yet, so no place (not 0.0 above every negative total).
    tournament, registrations, rounds, referee = make_event(django_user_model, teams=0)
    confirm_round(rounds[0], referee, tables=2)
    late = make_registrations(tournament, 2)
    response = client.get(reverse("public:rankings", args=[tournament.slug]))
    rows = [row.record for row in response.context["table"].rows]
    assert [row["place"] for row in rows] == [1, 1, 3, 3, 5, 5, 7, 7, None, None]
    assert {row["registration_id"] for row in rows[-2:]} == {late[0].pk, late[1].pk}
    assert 'title="No hanchan played">–</span>' in response.context["table_html"]
    fourth = next(seat.registration for seat in Seat.objects.filter(round=rounds[0], wind="N"))
    page = client.get(reverse("public:player", args=[tournament.slug, fourth.pk]))
    (row,) = page.context["rounds"]
    assert row["rank"] == 7  # the two late players at 0 are not counted above −26.0


@pytest.mark.parametrize("ruleset", ["wrc2015", "oran2015"])
@pytest.mark.django_db
def test_the_player_page_says_who_played_the_seat_of_an_absent_player(
    client, django_user_model, ruleset
):
    """A player replaced by a substitute did not play that round: their page must not show
    the round as played (a bare score and opponents they never met)."""
    import uuid

    from scoring.entries import SeatEntry, SheetEntry
    from scoring.services.sheets import sheet_enter

    tournament, _registrations, rounds, referee = make_event(django_user_model, ruleset=ruleset)
    substitute = make_registration(
        tournament, is_substitute=True, player=make_player(first_name="Pascal", last_name="Henry")
    )
    seats = sorted(
        Seat.objects.filter(round=rounds[0], table_number=1), key=lambda s: WIND_ORDER[s.wind]
    )
    absent = seats[3].registration
    entry = SheetEntry(
        kind="final",
        seats=tuple(
            SeatEntry(
                registration_id=seat.registration_id,
                points=points,
                substitute_id=substitute.pk if seat.registration == absent else None,
            )
            # WRC 2015 §5.9.2's example final scores (4 × 30 000, docs/rules.md §7.4 item 4).
            for seat, points in zip(seats, (42300, 31000, 27700, 19000), strict=True)
        ),
    )
    sheet_enter(
        round_=rounds[0],
        table_number=1,
        entry=entry,
        token=uuid.uuid4(),
        revision=0,
        acting_user=referee,
    )
    confirm_sheet(rounds[0], 2, referee)

    response = client.get(reverse("public:player", args=[tournament.slug, absent.pk]))
    (row,) = response.context["rounds"]
    assert row["substitute_name"] == "Pascal Henry"
    assert "Absent: Pascal Henry (substitute) played this seat." in response.content.decode()
    with translation.override("fr"):
        french = client.get(
            reverse("public:player", args=[tournament.slug, absent.pk]),
            headers={"accept-language": "fr"},
        ).content.decode()
    assert "Absent : Pascal Henry (remplaçant) a joué cette place." in french
    played = client.get(reverse("public:player", args=[tournament.slug, seats[0].registration.pk]))
    (row,) = played.context["rounds"]
    assert row["substitute_name"] == ""
    assert "Absent:" not in played.content.decode()


@pytest.mark.django_db
def test_a_tied_players_page_writes_their_rank_as_the_rankings_write_their_place(
    client, django_user_model
):
    # Both tables end alike: the two easts share 1st. The rankings and the page's header
    # said "1=" and the page's rank column "1": one way to write a tie, the rankings'.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    east = Seat.objects.filter(round=rounds[0], table_number=1, wind="E").get().registration
    rankings = client.get(reverse("public:rankings", args=[tournament.slug])).content.decode()
    row = re.search(rf'data-registration="{east.pk}".*?<td[^>]*>(.*?)</td>', rankings, re.S)
    assert row.group(1).strip() == "1="
    page = client.get(reverse("public:player", args=[tournament.slug, east.pk])).content.decode()
    assert "Place 1=" in page
    assert re.findall(r'<td class="number rank">(.*?)</td>', page) == ["1="]
    assert "Round 1: rank 1=" in page


@pytest.mark.django_db
def test_a_players_page_answers_its_poll_with_a_304_until_a_sheet_changes_it(
    client, django_user_model
):
    # The page re-reads itself: unchanged, a poll costs a 304 and no rendering; a sheet
    # confirmed at the player's table gives them their result on the next poll.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    east = Seat.objects.get(round=rounds[0], table_number=2, wind="E").registration
    url = reverse("public:player", args=[tournament.slug, east.pk])
    page = client.get(url)
    etag = page["ETag"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in page.content.decode()
    assert "+27.3" not in page.content.decode()
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    confirm_sheet(rounds[0], 2, referee)
    changed = client.get(url, headers={"if-none-match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert "+27.3" in changed.content.decode()
    french = client.get(url, headers={"if-none-match": changed["ETag"], "accept-language": "fr"})
    assert french.status_code == 200  # another language is another page
