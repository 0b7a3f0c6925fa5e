"""Penalties, substitutes, disqualification and the standings selector."""

import html
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from scoring.models import Penalty
from scoring.rules import PlayerRecord, compute_standings
from scoring.selectors.penalties import penalty_list
from scoring.selectors.standings import team_standings, tournament_standings
from scoring.services.penalties import penalty_cancel, penalty_give, player_disqualify
from tests.conftest import make_registration
from tests.scoring.conftest import Role, enter, make_entry, seat_round, table_registrations
from tournament.models import AuditEntry, Registration, Round, Tournament
from tournament.services.registrations import registration_reinstate


@pytest.fixture
def single(event):
    event["tournament"].confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    event["tournament"].save()
    return event


def _totals(tournament):
    return {
        entry.registration_id: entry.total for entry in tournament_standings(tournament).entries
    }


def test_chombo_and_lateness_on_the_sheet_are_penalties(single):
    round_, users = single["rounds"][0], single["users"]
    players = table_registrations(round_, 1)
    entry = make_entry(players, S={"chombo": 1}, W={"late_minutes": 4})
    enter(round_, 1, entry, users[Role.REFEREE])
    totals = _totals(single["tournament"])
    # WRC 2015 §7.1: chombo = 20 penalty points, placement unchanged: 1 + 5 - 20
    assert totals[players[1].pk] == Fraction(-14)
    # WRC 2015 §7.2: 1 point per minute late: -2.3 - 5 - 4
    assert totals[players[2].pk] == Fraction(-113, 10)
    lines = penalty_list(single["tournament"])
    assert [(line.kind, line.points) for line in lines] == [
        ("chombo", Fraction(-20)),
        ("lateness", Fraction(-4)),
    ]


def test_a_substitute_plays_and_the_absent_player_gets_the_missed_hanchan_penalty(single):
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    substitute = make_registration(tournament, is_substitute=True)
    players = table_registrations(round_, 1)
    enter(round_, 1, make_entry(players, N={"substitute_id": substitute.pk}), users["referee"])
    standings = tournament_standings(tournament)
    by_id = {entry.registration_id: entry for entry in standings.entries}
    assert substitute.pk not in by_id  # substitutes are never ranked
    absent = by_id[players[3].pk]
    # WRC 2015 §7.2: a missed hanchan costs 20 points; no hanchan score for the absent player
    assert absent.total == Fraction(-20)
    assert absent.rounds[1].points is None
    assert absent.rounds[1].penalty == Fraction(-20)
    assert [line.kind for line in penalty_list(tournament, players[3])] == ["missed_hanchan"]


def test_lateness_and_absence_priced_at_nothing_are_still_listed_for_the_referees(single):
    # ORAN-1 §3.4.3 (docs/rules.md A7, C17): lateness is "subject to sanction", no scale,
    # and an absent player replaced by a substitute has no fixed penalty: the sheet records
    # both at 0 points, and the head referee deciding a sanction must find them on the list.
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    tournament.ruleset = "oran2015"
    tournament.save()
    substitute = make_registration(tournament, is_substitute=True)
    players = table_registrations(round_, 1)
    points = (35000, 32000, 28000, 25000)  # 4 × 30 000 at an ORAN-1 table (docs/rules.md §7.4)
    entry = make_entry(players, points, W={"late_minutes": 5}, N={"substitute_id": substitute.pk})
    enter(round_, 1, entry, users["referee"])
    lines = penalty_list(tournament)
    assert [(line.registration_id, line.kind, line.points) for line in lines] == [
        (players[2].pk, "lateness", Fraction(0)),
        (players[3].pk, "missed_hanchan", Fraction(0)),
    ]
    assert (
        lines[0].reason == "5 minutes late (no penalty under these rules; a referee may give one)"
    )
    # ORAN-1 §3.4.1: (28 000 − 30 000)/1 000 − 5 for third; the lateness alone
    # takes nothing off.
    assert _totals(tournament)[players[2].pk] == Fraction(-7)


def test_a_substitutes_chombo_is_listed_under_the_substitute_not_the_replaced_player(single):
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    substitute = make_registration(tournament, is_substitute=True)
    players = table_registrations(round_, 1)
    entry = make_entry(players, W={"substitute_id": substitute.pk, "late_minutes": 12, "chombo": 1})
    enter(round_, 1, entry, users["referee"])
    late = players[2]
    # WRC 2015 §7.2: late beyond 10 minutes and replaced = 30 points; the substitute's own
    # chombo (§7.1) is taken off nobody, so it is not the late player's penalty.
    assert _totals(tournament)[late.pk] == Fraction(-30)
    assert [(line.kind, line.points) for line in penalty_list(tournament, late)] == [
        ("lateness", Fraction(-30))
    ]
    (chombo,) = [line for line in penalty_list(tournament) if line.kind == "chombo"]
    assert chombo.registration_id == substitute.pk
    assert "counts for nobody" in chombo.reason


def test_the_penalty_list_says_a_substitute_replaced_the_late_player(client, single):
    # WRC 2015 §7.2: 1 point a minute up to 10 minutes; later, a substitute plays and the
    # player loses 30 points in all. "15 minutes late −30.0" read as a wrong sum.
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    substitute = make_registration(tournament, is_substitute=True)
    players = table_registrations(round_, 1)
    entry = make_entry(players, W={"substitute_id": substitute.pk, "late_minutes": 15})
    enter(round_, 1, entry, users["referee"])
    client.force_login(users[Role.HEAD_REFEREE])
    page = client.get(reverse("scoring:penalties", args=[tournament.slug])).content.decode()
    assert "15 minutes late; a substitute played" in page


def test_a_missed_hanchan_loses_the_fewer_penalties_tie_break(single):
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    substitute = make_registration(tournament, is_substitute=True)
    absent = table_registrations(round_, 1)[3]
    enter(
        round_,
        1,
        make_entry(table_registrations(round_, 1), N={"substitute_id": substitute.pk}),
        users["referee"],
    )
    # WRC 2015 §5.9.2: 25 000 and 4th -> -5 - 15 = -20 (2nd and 3rd tie, uma split to 0);
    # the absent player's -20 is the missed-hanchan penalty [WRC 2015 §7.2]
    fourth = table_registrations(round_, 2)[3]
    enter(
        round_,
        2,
        make_entry(table_registrations(round_, 2), (35000, 30000, 30000, 25000)),
        users["referee"],
    )
    entries = {entry.registration_id: entry for entry in tournament_standings(tournament).entries}
    assert entries[absent.pk].total == entries[fourth.pk].total == -20
    # docs/rules-engine.md: the default tie-breaks end with "fewer penalty points"
    assert entries[fourth.pk].place < entries[absent.pk].place
    assert (entries[absent.pk].penalty_total, entries[fourth.pk].penalty_total) == (-20, 0)


def test_a_seat_needs_an_active_substitute(single):
    round_, users = single["rounds"][0], single["users"]
    players = table_registrations(round_, 1)
    not_a_substitute = table_registrations(round_, 2)[0]
    from scoring.rules import RulesErrors

    with pytest.raises(RulesErrors) as errors:
        enter(
            round_,
            1,
            make_entry(players, N={"substitute_id": not_a_substitute.pk}),
            users["referee"],
        )
    assert errors.value.codes == ("substitute_unknown",)


def test_discretionary_penalty_counts_and_cancelling_keeps_it_listed(single):
    tournament, users = single["tournament"], single["users"]
    player = single["registrations"][0]
    with pytest.raises(PermissionDenied):
        penalty_give(
            registration=player, points=Decimal(10), reason="phone", acting_user=users["referee"]
        )
    penalty = penalty_give(
        registration=player,
        points=Decimal(10),
        reason="Phone rang during the hand (WRC 2015 §7)",
        round_=single["rounds"][0],
        acting_user=users[Role.HEAD_REFEREE],
    )
    assert penalty.points == Decimal(-10)
    assert _totals(tournament)[player.pk] == Fraction(-10)
    with pytest.raises(ValidationError):
        penalty_cancel(penalty=penalty, reason=" ", acting_user=users[Role.HEAD_REFEREE])
    penalty_cancel(
        penalty=penalty, reason="It was the referee's phone", acting_user=users["organiser"]
    )
    assert _totals(tournament)[player.pk] == 0
    assert Penalty.objects.filter(pk=penalty.pk).exists()  # never deleted
    (line,) = penalty_list(tournament, player)
    assert line.cancelled
    assert line.cancel_reason == "It was the referee's phone"
    with pytest.raises(ValidationError):
        penalty_cancel(penalty=penalty, reason="again", acting_user=users[Role.HEAD_REFEREE])


def test_a_disqualified_player_leaves_the_ranking(single):
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    players = table_registrations(round_, 1)
    enter(round_, 1, make_entry(players), users[Role.REFEREE])
    with pytest.raises(PermissionDenied):
        player_disqualify(registration=players[0], reason="cheating", acting_user=users["referee"])
    player_disqualify(
        registration=players[0], reason="Cheating (WRC 2015 §7.1)", acting_user=users["organiser"]
    )
    players[0].refresh_from_db()
    assert players[0].status == Registration.Status.DISQUALIFIED
    assert Registration.objects.active().filter(pk=players[0].pk).count() == 0  # no more seating
    entries = tournament_standings(tournament).entries
    assert players[0].pk not in {entry.registration_id for entry in entries}
    assert entries[0].registration_id == players[1].pk
    assert entries[0].place == 1


def test_a_reinstated_player_is_ranked_again_and_can_be_penalised(single):
    # WRC 2015 §7.1: a disqualified player is not listed; a disqualification
    # overturned on appeal lists them again, with the hanchan they played.
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    players = table_registrations(round_, 1)
    enter(round_, 1, make_entry(players), users[Role.REFEREE])
    ranked = _totals(tournament)
    player_disqualify(registration=players[0], reason="Collusion", acting_user=users["organiser"])
    assert players[0].pk not in _totals(tournament)  # the standings are cached from here
    registration_reinstate(
        registration=players[0], reason="Appeal upheld", acting_user=users["organiser"]
    )
    assert _totals(tournament) == ranked
    (first, *_others) = tournament_standings(tournament).entries
    assert (first.registration_id, first.place, first.withdrawn) == (players[0].pk, 1, False)
    penalty_give(
        registration=players[0],
        points=Decimal(10),  # WRC 2015 §7.1: penalty points at the referee's discretion
        reason="Phone rang",
        acting_user=users[Role.HEAD_REFEREE],
    )
    assert _totals(tournament)[players[0].pk] == ranked[players[0].pk] - 10


def test_shared_places_and_provisional_rounds(single):
    tournament, rounds, users = single["tournament"], single["rounds"], single["users"]
    round_ = rounds[0]
    for table in (1, 2, 3):
        enter(round_, table, make_entry(table_registrations(round_, table)), users["referee"])
    seat_round(rounds[1], single["registrations"], shift=1)
    enter(rounds[1], 1, make_entry(table_registrations(rounds[1], 1)), users["referee"])
    standings = tournament_standings(tournament)
    assert standings.round_numbers == [1, 2]
    assert standings.complete_rounds == {1}
    assert standings.provisional_rounds == {2}
    top = [entry for entry in standings.entries if entry.place == 1]
    assert all(entry.shared_place for entry in top) == (len(top) > 1)


def test_standings_are_exactly_what_the_engine_computes(single):
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    points = {1: (42300, 31000, 27700, 19000), 2: (35000, 35000, 28000, 22000)}
    points[3] = (25000, 25000, 25000, 45000)
    for table, values in points.items():
        enter(
            round_, table, make_entry(table_registrations(round_, table), values), users["referee"]
        )
    from scoring.rules import SeatSheet, score_hanchan

    rules = tournament.get_rules()
    records = []
    for table, values in points.items():
        players = table_registrations(round_, table)
        sheet = [SeatSheet(str(p.pk), v) for p, v in zip(players, values, strict=True)]
        result = score_hanchan(rules, sheet)
        records += [
            PlayerRecord(str(p.pk), (seat.score,), places=(seat.place,))
            for p, seat in zip(players, result.seats, strict=True)
        ]
    expected = [
        (int(row.key), row.place, row.total) for row in compute_standings(records, rules.tie_breaks)
    ]
    got = [(e.registration_id, e.place, e.total) for e in tournament_standings(tournament).entries]
    assert got == expected
    # WRC 2015 §5.9.2: three tied 2nd places share (5 - 5 - 15) / 3 = -5 uma each
    assert {
        e.total for e in tournament_standings(tournament).entries if e.rounds[1].table_number == 3
    } == {
        Fraction(-10),
        Fraction(30),
    }


def test_players_sharing_a_place_and_those_without_a_result_are_listed_by_name(single):
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    tied = table_registrations(round_, 2)
    # Equal final points share their places' uma (WRC 2015 §5.9.2): East and South tie.
    enter(round_, 2, make_entry(tied, (35000, 35000, 28000, 22000)), users["referee"])
    waiting = table_registrations(round_, 3)
    for registration, last_name in [(tied[0], "Zeller"), (tied[1], "Abadie")] + [
        (waiting[0], "Yılmaz"),
        (waiting[1], "Ångström"),
    ]:
        registration.player.last_name = last_name
        registration.player.save()
    entries = tournament_standings(tournament).entries
    shared = [e.player.last_name for e in entries if e.place == 1]
    assert shared == ["Abadie", "Zeller"]
    unplaced = [e.player.last_name for e in entries if e.place is None]
    assert unplaced.index("Ångström") < unplaced.index("Yılmaz")


def test_team_standings_sum_the_members(single):
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    for table in (1, 2, 3):
        enter(round_, table, make_entry(table_registrations(round_, table)), users["referee"])
    teams = team_standings(tournament)
    assert len(teams) == 3
    entries = tournament_standings(tournament).entries
    for team in teams:
        assert team.total == sum(e.total for e in entries if e.team_name == team.team_name)
    assert [team.place for team in teams] == sorted(team.place for team in teams)


def test_standings_take_a_constant_number_of_queries(single, django_assert_max_num_queries):
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    for table in (1, 2, 3):
        enter(round_, table, make_entry(table_registrations(round_, table)), users["referee"])
    # 9 reads of results (the penalties apart, and the ids of the seats and of the results,
    # which the next build compares); the rest is the database cache backend's own
    # bookkeeping (the version built and, apart, what the next build starts from: a read and
    # a write each)
    with django_assert_max_num_queries(28):
        tournament_standings(tournament)
    with django_assert_max_num_queries(4):
        tournament_standings(tournament)  # cached


def test_the_cache_follows_a_change(single):
    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    players = table_registrations(round_, 1)
    assert _totals(tournament)[players[0].pk] == 0
    enter(round_, 1, make_entry(players), users[Role.REFEREE])
    assert _totals(tournament)[players[0].pk] == Fraction(273, 10)


def test_the_standings_version_changes_when_a_change_commits(
    single, django_capture_on_commit_callbacks
):
    from tournament.invalidation import standings_version

    tournament, round_, users = single["tournament"], single["rounds"][0], single["users"]
    before = standings_version(tournament.pk)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        enter(round_, 1, make_entry(table_registrations(round_, 1)), users[Role.REFEREE])
    assert standings_version(tournament.pk) == before  # nothing before the commit
    for callback in callbacks:
        callback()
    assert standings_version(tournament.pk) != before


def test_no_penalty_for_a_substitute_or_a_disqualified_player(single):
    # WRC 2015 §7.1, §7.2: neither is ranked; the service refuses too.
    substitute = make_registration(single["tournament"], is_substitute=True)
    disqualified = single["registrations"][0]
    player_disqualify(
        registration=disqualified, reason="Collusion", acting_user=single["users"]["organiser"]
    )
    for registration in (substitute, disqualified):
        with pytest.raises(ValidationError) as refused:
            penalty_give(
                registration=registration,
                points=Decimal(10),
                reason="phone",
                acting_user=single["users"][Role.HEAD_REFEREE],
            )
        assert "registration" in refused.value.message_dict
    assert not Penalty.objects.exists()


def _give(single, round_=None) -> Penalty:
    # WRC 2015 §7: a discretionary penalty, e.g. a phone ringing.
    return penalty_give(
        registration=single["registrations"][0],
        points=Decimal(10),
        reason="Phone rang",
        round_=round_,
        acting_user=single["users"][Role.HEAD_REFEREE],
    )


def _lock(round_: Round) -> None:
    round_.status = Round.Status.LOCKED
    round_.save(update_fields=["status"])


LOCKED = "Round 1 is locked: its results are final. An organiser can unlock it."


def test_a_locked_round_takes_no_new_penalty(single):
    # docs/score-sheets.md: a locked round's results are final, its penalties too.
    round_ = single["rounds"][0]
    _lock(round_)
    with pytest.raises(ValidationError) as refused:
        _give(single, round_)
    assert refused.value.message_dict == {"round": [LOCKED]}
    assert not Penalty.objects.exists()
    assert not AuditEntry.objects.filter(action="penalty.give").exists()


def test_a_penalty_of_a_locked_round_is_not_cancelled(single):
    round_ = single["rounds"][0]
    penalty = _give(single, round_)
    _lock(round_)
    with pytest.raises(ValidationError) as refused:
        penalty_cancel(
            penalty=penalty, reason="Wrong player", acting_user=single["users"]["organiser"]
        )
    assert refused.value.messages == [LOCKED]
    assert not hasattr(refused.value, "error_dict")  # not about one field of the form
    penalty.refresh_from_db()
    assert not penalty.is_cancelled
    assert _totals(single["tournament"])[penalty.registration_id] == Fraction(-10)


def test_a_tournament_wide_penalty_is_given_and_cancelled_whatever_rounds_are_locked(single):
    _lock(single["rounds"][0])
    penalty = _give(single)
    penalty_cancel(penalty=penalty, reason="Wrong player", acting_user=single["users"]["organiser"])
    penalty.refresh_from_db()
    assert penalty.is_cancelled


@pytest.mark.parametrize(
    ("language", "note"),
    [
        ("en", "Shown with the penalty on the player's public page."),
        ("fr", "Affichée avec la pénalité sur la page publique du joueur."),
    ],
)
def test_the_penalty_form_says_its_reason_is_public(client, single, language, note):
    """The reason typed for a penalty is on the player's public page, while a
    disqualification's stays with the staff; the form did not say so."""
    tournament = single["tournament"]
    registration = single["registrations"][0]
    client.force_login(single["users"][Role.HEAD_REFEREE])
    url = reverse("scoring:penalties", args=[tournament.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert html.escape(note) in page
    reason = "Phone rang at table 3"
    given = {"registration": registration.pk, "kind": "discretionary", "points": "5"}
    client.post(url, {**given, "reason": reason})
    client.logout()
    public = client.get(reverse("public:player", args=[tournament.slug, registration.pk]))
    assert reason in public.content.decode()
