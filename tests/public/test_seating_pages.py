"""Public seating pages, projector views and find-my-seat."""

import pytest
from django.urls import reverse

from tests.conftest import (
    make_player,
    make_registration,
    make_registrations,
    make_rounds,
    make_seats,
    make_staff,
    make_tournament,
)
from tournament.models import Registration, Round, TournamentStaff
from tournament.services.registrations import registration_reinstate, registration_withdraw


def seated_tournament(players: int = 8, **fields):
    tournament = make_tournament(**fields)
    registrations = make_registrations(tournament, players)
    rounds = make_rounds(tournament, 2)
    make_seats(rounds[0], registrations)
    rounds[0].status = Round.Status.SEATED
    rounds[0].save()
    return tournament, registrations, rounds


@pytest.mark.django_db
def test_seating_by_table_lists_every_player(client):
    tournament, registrations, _rounds = seated_tournament()
    response = client.get(reverse("public:seating", args=[tournament.slug, 1]))
    assert response.status_code == 200
    content = response.content.decode()
    for registration in registrations:
        assert registration.player.full_name in content
    assert "Table 2" in content


@pytest.mark.django_db
def test_seating_by_player_is_alphabetical(client):
    tournament = make_tournament()
    names = ["Zimmer", "Abel", "Müller", "Étienne"]
    registrations = [
        make_registration(tournament, player=make_player(first_name="A", last_name=name))
        for name in names
    ]
    round_ = make_rounds(tournament, 1)[0]
    make_seats(round_, registrations)
    round_.status = Round.Status.SEATED
    round_.save()
    response = client.get(reverse("public:projector_players", args=[tournament.slug, 1]))
    content = response.content.decode()
    positions = [content.index(name) for name in ["Abel", "Étienne", "Müller", "Zimmer"]]
    assert positions == sorted(positions)


@pytest.mark.django_db
def test_planned_round_seating_is_not_public(client):
    tournament, _registrations, _rounds = seated_tournament()
    response = client.get(reverse("public:seating", args=[tournament.slug, 2]))
    assert response.status_code == 404


@pytest.mark.django_db
def test_hidden_seating_is_404_for_anonymous_but_shown_to_staff(client, django_user_model):
    tournament, _registrations, _rounds = seated_tournament(show_seating=False)
    for name in ("seating", "projector_tables", "projector_players"):
        assert client.get(reverse(f"public:{name}", args=[tournament.slug, 1])).status_code == 404
    find = reverse("public:find_seat", args=[tournament.slug])
    assert client.get(find, {"q": "Player"}).status_code == 404
    referee = django_user_model.objects.create_user("ref", password="pw-ref-12345")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    client.force_login(referee)
    assert client.get(reverse("public:seating", args=[tournament.slug, 1])).status_code == 200


@pytest.mark.django_db
def test_hidden_tournament_is_404(client):
    tournament, _registrations, _rounds = seated_tournament(is_public=False)
    assert client.get(reverse("public:tournament", args=[tournament.slug])).status_code == 404
    assert client.get(reverse("public:seating", args=[tournament.slug, 1])).status_code == 404
    assert client.get(reverse("public:clock", args=[tournament.slug, 1])).status_code == 404


@pytest.mark.django_db
def test_find_my_seat_ignores_case_and_accents(client):
    tournament = make_tournament()
    zoe = make_registration(tournament, player=make_player(first_name="Zoé", last_name="Martin"))
    others = make_registrations(tournament, 3)
    round_ = make_rounds(tournament, 1)[0]
    make_seats(round_, [*others[:2], zoe, others[2]])
    round_.status = Round.Status.PLAYING
    round_.save()
    response = client.get(reverse("public:find_seat", args=[tournament.slug]), {"q": "zoe mar"})
    content = response.content.decode()
    assert "Zoé Martin" in content
    assert "Table 1" in content
    assert "West" in content
    for other in others:
        assert other.player.full_name in content  # her table-mates


@pytest.mark.parametrize(
    ("first_name", "last_name", "query"),
    [
        ("Ömer", "Yılmaz", "yilmaz"),  # Turkish dotless ı
        ("Søren", "Ærø", "soren aero"),
        ("Đorđe", "Łoś", "dorde los"),
        ("Jürgen", "Strauß", "strauss"),
        ("Jürgen", "Müller", "juergen mueller"),  # German spelling without ü
        ("Søren", "Ærø", "soeren aeroe"),  # Danish spelling without ø, æ
        ("Åsa", "Öberg", "aasa oeberg"),
        ("Siobhán", "O’Connor", "oconnor"),  # typed without the apostrophe
        ("Siobhán", "O’Connor", "o'connor"),  # the keyboard's apostrophe for the typographic
        ("Jean-Pierre", "Lefèvre", "jeanpierre"),
        ("Þórður", "Sigurðsson", "thordur sigurdsson"),  # Icelandic thorn, spelled "th"
    ],
)
@pytest.mark.django_db
def test_find_my_seat_finds_letters_typed_without_their_stroke_or_dot(
    client, first_name, last_name, query
):
    tournament = make_tournament()
    player = make_player(first_name=first_name, last_name=last_name)
    registrations = [
        make_registration(tournament, player=player),
        *make_registrations(tournament, 3),
    ]
    round_ = make_rounds(tournament, 1)[0]
    make_seats(round_, registrations)
    round_.status = Round.Status.PLAYING
    round_.save()
    response = client.get(reverse("public:find_seat", args=[tournament.slug]), {"q": query})
    assert player.display_name in response.content.decode()


# Chinese, Japanese and Korean names are entered as given name / family name and shown
# family name first, run together (山田太郎): the way every page writes them.
CJK_NAMES = [("太郎", "山田"), ("小明", "王"), ("민준", "김")]


@pytest.mark.parametrize(("first_name", "last_name"), CJK_NAMES)
@pytest.mark.django_db
def test_find_my_seat_finds_a_cjk_name_typed_as_it_is_written(client, first_name, last_name):
    tournament, registrations, _rounds = seated_tournament()
    player = registrations[5].player
    player.first_name, player.last_name = first_name, last_name
    player.save()
    url = reverse("public:find_seat", args=[tournament.slug])
    response = client.get(url, {"q": player.display_name})
    assert [match.registration for match in response.context["matches"]] == [registrations[5]]
    assert "Table 2" in response.content.decode()


@pytest.mark.django_db
def test_find_my_seat_shows_the_next_seated_round_after_a_finished_one(client):
    tournament, registrations, rounds = seated_tournament(players=4)
    rounds[0].status = Round.Status.FINISHED
    rounds[0].save()
    make_seats(rounds[1], list(reversed(registrations)))
    rounds[1].status = Round.Status.SEATED
    rounds[1].save()
    target = registrations[0].player
    response = client.get(
        reverse("public:find_seat", args=[tournament.slug]), {"q": target.last_name}
    )
    assert response.context["round"] == rounds[1]
    assert response.context["matches"][0].seat.wind == "N"


@pytest.mark.django_db
def test_find_my_seat_says_when_nobody_matches(client):
    tournament, _registrations, _rounds = seated_tournament()
    response = client.get(reverse("public:find_seat", args=[tournament.slug]), {"q": "Nobody"})
    assert "No player matches" in response.content.decode()


@pytest.mark.parametrize(
    ("language", "notice"),
    [
        ("en", "4 more players match “test”: type more of your name to find yours."),
        ("fr", "4 personnes de plus correspondent à « test » : tapez une plus grande partie"),
    ],
)
@pytest.mark.django_db
def test_find_my_seat_says_when_more_players_match_than_it_shows(client, language, notice):
    # 24 players named Test…: 20 cards, and the player further down the alphabet is told
    # to type more rather than left to think they are not seated.
    tournament, registrations, _rounds = seated_tournament(players=24)
    url = reverse("public:find_seat", args=[tournament.slug])
    response = client.get(url, {"q": "test"}, headers={"accept-language": language})
    assert len(response.context["matches"]) == 20
    assert notice in response.content.decode()
    response = client.get(url, {"q": registrations[-1].player.display_name})
    assert len(response.context["matches"]) == 1
    assert "more players match" not in response.content.decode()


@pytest.mark.django_db
def test_find_my_seat_says_when_a_player_no_longer_plays(client):
    tournament, registrations, _rounds = seated_tournament()
    withdrawn = registrations[0]
    withdrawn.status = Registration.Status.WITHDRAWN
    withdrawn.save()
    response = client.get(
        reverse("public:find_seat", args=[tournament.slug]), {"q": withdrawn.player.last_name}
    )
    content = response.content.decode()
    assert f"{withdrawn.player.display_name} no longer plays in this tournament." in content
    assert "No player matches" not in content


@pytest.mark.django_db
def test_find_my_seat_gives_a_reinstated_player_their_seat(client, organiser):
    # Withdrawn by mistake after round 1 was seated, reinstated before it was seated again.
    tournament, registrations, _rounds = seated_tournament()
    player = registrations[0]
    registration_withdraw(registration=player, reason="Ticked by mistake", acting_user=organiser)
    registration_reinstate(registration=player, reason="Wrong line", acting_user=organiser)
    response = client.get(
        reverse("public:find_seat", args=[tournament.slug]), {"q": player.player.last_name}
    )
    (match,) = response.context["matches"]
    assert (match.registration, match.seat.table_number) == (player, 1)
    assert "no longer plays" not in response.content.decode()


@pytest.mark.parametrize("players", [8, 40])
@pytest.mark.django_db
def test_seating_pages_query_count_does_not_grow(client, django_assert_max_num_queries, players):
    tournament, registrations, _rounds = seated_tournament(players=players)
    query = {"q": registrations[-1].player.last_name}
    for url, data in (
        (reverse("public:seating", args=[tournament.slug, 1]), {}),
        (reverse("public:projector_players", args=[tournament.slug, 1]), {}),
        (reverse("public:find_seat", args=[tournament.slug]), query),
    ):
        client.get(url, data)  # kept whole in the cache, as every phone after the first finds it
        with django_assert_max_num_queries(6):
            assert client.get(url, data).status_code == 200


@pytest.mark.parametrize("players", [8, 40])
@pytest.mark.django_db
def test_clock_and_tournament_pages_query_count_does_not_grow(
    client, django_assert_max_num_queries, players
):
    tournament, _registrations, _rounds = seated_tournament(players=players)
    for url in (
        reverse("public:tournament", args=[tournament.slug]),
        reverse("public:clock", args=[tournament.slug, 1]),
        reverse("public:clock_state", args=[tournament.slug, 1]),
    ):
        with django_assert_max_num_queries(6):
            assert client.get(url).status_code == 200
