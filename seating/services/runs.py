"""Seating runs: generate a plan, review and adjust it, then apply it to the rounds' seats.

A run is created from a snapshot of the tournament (see `inputs`), computed by the pure
generator — on a worker (`compute_seating_run`, a task) for the admin, inline for tests and
the demo; a run whose worker died is recovered by `seating_runs_recover` — and
stays a proposal until the organiser applies it. Applying is the only write to `Seat`: it
replaces the seats of the run's rounds (never of a round already being played) in one
transaction, after checking that the snapshot still matches the database.
"""

import logging
import random
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from django_tasks import task

from seating.engine import (
    DEFAULT_CLOSENESS,
    SeatingError,
    SeatingRequest,
    evaluate,
    plan_seating,
    swiss_round,
    validate_swiss,
)
from seating.inputs import SeatingInput, load_input, player_names
from seating.messages import (
    engine_error_params,
    error_message,
    from_engine_error,
    seating_validation_error,
)
from seating.models import HEARTBEAT_SECONDS, SeatingRun
from seating.stage_players import stage_players
from tournament.alerts.seats import seat_alerts_queue, seat_places
from tournament.models import WINDS, Round, Seat, Tournament
from tournament.services.audit import audit_record

logger = logging.getLogger(__name__)

PROGRESS_INTERVAL = 0.5  # seconds between progress writes
#: How many times a stalled run is handed to a worker again before it fails: a run that kills
#: its worker every time (out of memory, say) must not do so for ever.
MAX_RECOVERIES = 1


def new_seed() -> int:
    """A fresh seed for a run whose organiser did not choose one (stored, so reproducible)."""
    return random.SystemRandom().randrange(1, 2**31)


def lock_runs(tournament: Tournament) -> None:
    """One run computes at a time per tournament (`seating_run_one_running`, checked by the
    run's `full_clean`): the tournament's row is locked first, so that a second click waits
    for the first one's run to be committed and is then told so, not a database error."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()


def open_runs_discard(tournament: Tournament, keep: SeatingRun | None = None) -> None:
    """Close the proposals under review and the runs still computing (but ``keep``): they
    were made for seats just replaced. A run closed while computing stays closed when it
    finishes (its worker only stores a plan on a running run)."""
    SeatingRun.objects.filter(
        tournament=tournament, status__in=[SeatingRun.Status.DONE, SeatingRun.Status.RUNNING]
    ).exclude(pk=keep.pk if keep else None).update(status=SeatingRun.Status.DISCARDED)


def check_rounds(tournament: Tournament, rounds: Sequence[Round]) -> list[Round]:
    if not rounds:
        raise seating_validation_error("no_rounds")
    played = set(tournament.rounds.played().values_list("pk", flat=True))
    for round_ in rounds:
        if round_.tournament_id != tournament.pk:
            raise ValueError("A round of another tournament.")
        if round_.pk in played:
            raise seating_validation_error("round_played", round=round_.number)
    return sorted(rounds, key=lambda round_: round_.number)


def _engine_request(run: SeatingRun, data: SeatingInput) -> SeatingRequest:
    return SeatingRequest(
        players=data.players,
        rounds=len(run.round_numbers),
        seed=run.seed,
        teams=data.teams,
        fixed_tables=data.fixed_tables,
        priority=run.priority,
        time_limit=float(run.time_limit),
        history=data.history,
        previous=data.previous,
    )


def _history_error(error: SeatingError, data: SeatingInput) -> SeatingError:
    """Engine history errors count rounds from 1; name the tournament's round instead."""
    if error.code == "invalid_history" and isinstance(error.params.get("round"), int):
        index = error.params["round"] - 1
        if 0 <= index < len(data.history_numbers):
            error.params["round"] = data.history_numbers[index]
    return error


def _metrics(data: SeatingInput, plan: list[dict[str, Any]]) -> dict[str, Any]:
    rounds = tuple(data.history) + tuple(
        tuple(tuple(table) for table in item["tables"]) for item in plan
    )
    metrics = evaluate(rounds, data.teams, data.fixed_tables, played=len(data.history))
    return metrics.as_json() | data.clashes(rounds[len(data.history) :])


def _check_plan(data: SeatingInput, plan: list[dict[str, Any]]) -> None:
    """Hard constraints, checked once more before anything is stored or written: every
    active player exactly once per round, four per table, fixed tables honoured."""
    players = set(data.players)
    for item in plan:
        seated = [player for table in item["tables"] for player in table]
        if any(len(table) != 4 for table in item["tables"]) or sorted(seated) != sorted(players):
            raise RuntimeError(f"Round {item['number']} does not seat every player once.")
        for index, table in enumerate(item["tables"]):
            for player in table:
                fixed = data.fixed_tables.get(player)
                if fixed is not None and fixed != index + 1:
                    raise RuntimeError(f"Player {player} is not at fixed table {fixed}.")


class _RunClosed(Exception):
    """The run was discarded or replaced while computing: its plan would be thrown away."""


class _ProgressReporter:
    """Writes the generator's progress to the run, at most every PROGRESS_INTERVAL, and stops
    the generator once the run is no longer running: an organiser who discards a run and
    starts another would otherwise have both share the server for the whole time limit."""

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        self.last = 0.0

    def __call__(self, fraction: float) -> None:
        now = time.monotonic()
        if now - self.last < PROGRESS_INTERVAL:
            return
        self.last = now
        try:
            with transaction.atomic():  # a savepoint when the run is computed in a request
                updated = SeatingRun.objects.filter(
                    pk=self.run_id, status=SeatingRun.Status.RUNNING
                ).update(progress=min(max(float(fraction), 0.0), 0.99))
        except DatabaseError:
            # The bar misses a step; failing would lose the plan being computed.
            logger.warning("Seating run %s: progress not saved", self.run_id, exc_info=True)
            return
        if not updated:
            raise _RunClosed


def _fail(run: SeatingRun, code: str, params: dict[str, Any], message: str) -> None:
    SeatingRun.objects.filter(pk=run.pk, status=SeatingRun.Status.RUNNING).update(
        status=SeatingRun.Status.FAILED,
        error_code=code,
        error_params=params,
        error_message=message,
        finished_at=timezone.now(),
    )
    run.refresh_from_db()


def _computed_plan(run: SeatingRun, data: SeatingInput) -> tuple[list[dict[str, Any]], str, dict]:
    """The run's rounds from the generator, checked: (plan, method, metrics)."""
    progress = _ProgressReporter(run.pk)
    if run.mode == SeatingRun.Mode.SWISS:
        tables = swiss_round(
            run.snapshot["standings"],
            history=data.history,
            seed=run.seed,
            teams=data.teams,
            fixed_tables=data.fixed_tables,
            priority=run.priority,
            closeness_weight=run.snapshot["closeness_weight"],
            progress=progress,
        )
        plan = [{"number": run.round_numbers[0], "tables": [list(table) for table in tables]}]
        _check_plan(data, plan)
        return plan, "swiss", _metrics(data, plan)
    result = plan_seating(_engine_request(run, data), progress=progress)
    plan = [
        {"number": number, "tables": [list(table) for table in tables]}
        for number, tables in zip(run.round_numbers, result.rounds, strict=True)
    ]
    _check_plan(data, plan)
    return plan, result.method, result.metrics.as_json() | data.clashes(result.rounds)


def seating_run_execute(*, run: SeatingRun) -> SeatingRun:
    """Compute a running run's plan and store it for review (or store why it failed).

    Not one transaction: it may take the whole time limit, and writes its progress as it
    goes. A run discarded meanwhile stays discarded.
    """
    if run.status != SeatingRun.Status.RUNNING:
        return run
    data = SeatingInput.from_json(run.snapshot)
    try:
        plan, method, metrics = _computed_plan(run, data)
    except _RunClosed:
        run.refresh_from_db()
        return run
    except SeatingError as error:
        error = _history_error(error, data)
        names = player_names(run.tournament)
        _fail(run, error.code, engine_error_params(error, names), error.message)
        return run
    except Exception as error:
        logger.exception("Seating run %s failed", run.pk)
        _fail(run, "internal", {"detail": str(error)}, str(error))
        return run
    SeatingRun.objects.filter(pk=run.pk, status=SeatingRun.Status.RUNNING).update(
        status=SeatingRun.Status.DONE,
        progress=1.0,
        plan=plan,
        method=method[:100],
        metrics=metrics,
        generated_metrics=metrics,
        finished_at=timezone.now(),
    )
    run.refresh_from_db()
    return run


class _Heartbeat(threading.Thread):
    """Marks a run alive every HEARTBEAT_SECONDS while its worker computes it, so that the
    run's page and the recovery job can tell a run still computing from one whose worker was
    killed."""

    def __init__(self, run_id: int, interval: float = HEARTBEAT_SECONDS) -> None:
        super().__init__(name=f"seating-heartbeat-{run_id}", daemon=True)
        self.run_id = run_id
        self.interval = interval
        self.stopped = threading.Event()

    def beat(self) -> None:
        SeatingRun.objects.filter(pk=self.run_id, status=SeatingRun.Status.RUNNING).update(
            heartbeat_at=timezone.now()
        )

    def run(self) -> None:
        try:
            self.beat()
            while not self.stopped.wait(self.interval):
                self.beat()
        except Exception:
            logger.exception("Seating run %s: heartbeat stopped", self.run_id)
        finally:
            connection.close()


@task(priority=10)  # before the periodic jobs: an organiser is waiting for it
def compute_seating_run(run_id: int) -> None:
    """Compute a run on a worker (`manage.py db_worker`), its heartbeat beating meanwhile so
    that a run whose worker is killed is seen stalled and handed to another one
    (`seating_runs_recover`)."""
    heartbeat = _Heartbeat(run_id)
    heartbeat.beat()  # taken by a worker: its page counts from now, even for a quick run
    heartbeat.start()
    try:
        seating_run_execute(run=SeatingRun.objects.get(pk=run_id))
    finally:
        heartbeat.stopped.set()
        heartbeat.join()


def _compute(run: SeatingRun, background: bool | None) -> None:
    """Compute a new run now, or (`background`, default: the SEATING_RUN_IN_BACKGROUND
    setting, on) on a worker once the run is committed, its `progress` moving from 0 to 1."""
    if background is None:
        background = getattr(settings, "SEATING_RUN_IN_BACKGROUND", True)
    if not background:
        seating_run_execute(run=run)
        return
    transaction.on_commit(partial(compute_seating_run.enqueue, run.pk))


def seating_runs_recover(*, acting_user) -> list[SeatingRun]:
    """Every stalled run (its worker killed or restarted mid-computation, see `is_stalled`)
    handed to a worker again, up to MAX_RECOVERIES times, then failed with a message for the
    organiser: never "running" for ever. The runs changed, re-queued or failed."""
    changed = []
    for run_id in SeatingRun.objects.filter(status=SeatingRun.Status.RUNNING).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            run = SeatingRun.objects.select_for_update().select_related("tournament").get(pk=run_id)
            if not run.is_stalled:
                continue
            if run.recoveries < MAX_RECOVERIES:
                run.recoveries += 1
                run.progress = 0.0
                run.heartbeat_at = None
                run.queued_at = timezone.now()
                run.save(update_fields=["recoveries", "progress", "heartbeat_at", "queued_at"])
                transaction.on_commit(partial(compute_seating_run.enqueue, run.pk))
                action = "seating.requeue"
            else:
                _fail(run, "interrupted", {}, error_message("interrupted", {}))
                action = "seating.interrupted"
            audit_record(
                tournament=run.tournament,
                actor=acting_user,
                action=action,
                obj=run,
                data={"recoveries": run.recoveries},
            )
        changed.append(run)
    return changed


def seating_run_start(
    *,
    tournament: Tournament,
    rounds: Sequence[Round],
    seed: int | None = None,
    priority: str = SeatingRun.Priority.OPPONENTS,
    keep_apart: str = SeatingRun.KeepApart.TEAM,
    time_limit: int | None = None,
    background: bool | None = None,
    acting_user,
) -> SeatingRun:
    """Create a run for `rounds` (not played yet) and compute it.

    The request is validated at once (e.g. a player count that is not a multiple of four
    raises a ValidationError saying how many substitutes to add); see `_compute` for
    `background`.
    """
    if time_limit is None:
        time_limit = getattr(settings, "SEATING_TIME_LIMIT", 20)
    with transaction.atomic():
        lock_runs(tournament)
        rounds = check_rounds(tournament, rounds)
        numbers = [round_.number for round_ in rounds]
        data = load_input(tournament, keep_apart, numbers, stage_players(tournament, numbers))
        run = SeatingRun(
            tournament=tournament,
            mode=SeatingRun.Mode.PLAN,
            round_numbers=[round_.number for round_ in rounds],
            seed=new_seed() if seed is None else seed,
            priority=priority,
            keep_apart=keep_apart,
            time_limit=time_limit,
            snapshot=data.as_json(),
            created_by=acting_user if getattr(acting_user, "is_authenticated", False) else None,
        )
        run.full_clean()
        try:
            # Zero rounds: the engine only validates the request (players, fixed tables,
            # history), so the organiser hears about a user error at once.
            plan_seating(replace(_engine_request(run, data), rounds=0, time_limit=1.0))
        except SeatingError as error:
            error = _history_error(error, data)
            raise from_engine_error(error, player_names(tournament)) from error
        run.save()
        audit_record(
            tournament=tournament,
            actor=acting_user,
            action="seating.generate",
            obj=run,
            data={
                "rounds": run.round_numbers,
                "seed": run.seed,
                "priority": run.priority,
                "keep_apart": run.keep_apart,
                "players": len(data.players),
            },
        )
    _compute(run, background)
    return run


def seating_run_swiss(
    *,
    tournament: Tournament,
    round: Round,
    standings: Sequence[int],
    seed: int | None = None,
    keep_apart: str = SeatingRun.KeepApart.TEAM,
    priority: str = SeatingRun.Priority.OPPONENTS,
    closeness_weight: int = DEFAULT_CLOSENESS,
    incomplete_rounds: Sequence[int] = (),
    places: Mapping[int, int] | None = None,
    background: bool | None = None,
    acting_user,
) -> SeatingRun:
    """Create a run seating one round from the standings (registration ids, best first)
    and compute it, like `seating_run_start`.

    `incomplete_rounds`: earlier rounds whose score sheets were not all confirmed when the
    standings were read; kept with the run, whose page says so for as long as it is shown.
    `places`: each player's place in those standings, written on the proposal before their
    name; without it, their rank among the players seated.

    `closeness_weight`: what one place of spread in the standings inside a table weighs
    against a repeated opponent's 100 (see seating.engine.swiss).

    Active players missing from the standings (substitutes, late registrations) come last;
    players in the standings who no longer play are left out.
    """
    with transaction.atomic():
        lock_runs(tournament)
        rounds = check_rounds(tournament, [round])
        data = load_input(
            tournament, keep_apart, [round.number], stage_players(tournament, [round.number])
        )
        active = set(data.players)
        ranked = list(dict.fromkeys(pk for pk in standings if pk in active))
        in_standings = set(ranked)
        ranked += [pk for pk in data.players if pk not in in_standings]
        try:
            validate_swiss(ranked, data.history, data.fixed_tables, closeness_weight, priority)
        except SeatingError as error:
            error = _history_error(error, data)
            raise from_engine_error(error, player_names(tournament)) from error
        snapshot = data.as_json()
        snapshot["standings"] = ranked
        snapshot["closeness_weight"] = closeness_weight
        snapshot["incomplete_rounds"] = sorted(incomplete_rounds)
        snapshot["ranked_players"] = len(in_standings)
        if places is not None:
            snapshot["places"] = {str(pk): places[pk] for pk in in_standings if pk in places}
        run = SeatingRun(
            tournament=tournament,
            mode=SeatingRun.Mode.SWISS,
            round_numbers=[rounds[0].number],
            seed=new_seed() if seed is None else seed,
            keep_apart=keep_apart,
            priority=priority,
            snapshot=snapshot,
            created_by=acting_user if getattr(acting_user, "is_authenticated", False) else None,
        )
        run.full_clean()
        run.save()
        audit_record(
            tournament=tournament,
            actor=acting_user,
            action="seating.swiss",
            obj=run,
            data={
                "round": rounds[0].number,
                "seed": run.seed,
                "priority": priority,
                "closeness_weight": closeness_weight,
            },
        )
    _compute(run, background)
    return run


def _locked_open_run(run: SeatingRun) -> SeatingRun:
    run = SeatingRun.objects.select_for_update().select_related("tournament").get(pk=run.pk)
    if run.status != SeatingRun.Status.DONE:
        raise seating_validation_error("not_open", status=run.get_status_display())
    return run


@transaction.atomic
def seating_run_swap(
    *, run: SeatingRun, round_number: int, first: int, second: int, acting_user
) -> SeatingRun:
    """Swap two players (registration ids) in one round of a proposed plan: each takes the
    other's table and wind. The quality report before the swap is kept for comparison."""
    run = _locked_open_run(run)
    data = SeatingInput.from_json(run.snapshot)
    if first == second:
        raise seating_validation_error("swap_same_player")
    plan = [
        {"number": item["number"], "tables": [list(table) for table in item["tables"]]}
        for item in run.plan
    ]
    item = next((item for item in plan if item["number"] == round_number), None)
    positions = {}
    for table_index, table in enumerate(item["tables"] if item else []):
        for seat_index, player in enumerate(table):
            if player in (first, second):
                positions[player] = (table_index, seat_index)
    if len(positions) != 2:
        raise seating_validation_error("swap_unknown_player", round=round_number)
    names = player_names(run.tournament)
    for player, other in ((first, second), (second, first)):
        fixed = data.fixed_tables.get(player)
        if fixed is not None and positions[other][0] + 1 != fixed:
            raise seating_validation_error(
                "swap_fixed_table", player_name=names.get(player, str(player)), table=fixed
            )
    (t1, s1), (t2, s2) = positions[first], positions[second]
    item["tables"][t1][s1], item["tables"][t2][s2] = second, first
    _check_plan(data, plan)
    run.previous_metrics = run.metrics
    run.metrics = _metrics(data, plan)
    run.plan = plan
    run.swaps = [*run.swaps, {"round": round_number, "players": [first, second]}]
    run.save(update_fields=["plan", "metrics", "previous_metrics", "swaps"])
    audit_record(
        tournament=run.tournament,
        actor=acting_user,
        action="seating.swap",
        obj=run,
        data={
            "round": round_number,
            "players": [names.get(first), names.get(second)],
            "metrics": run.metrics,
        },
    )
    return run


@transaction.atomic
def seating_run_apply(*, run: SeatingRun, acting_user) -> list[Round]:
    """Replace the seats of the run's rounds by its plan, mark them seated, and close the
    other open or running runs of the tournament (they were made for seats that no longer
    exist)."""
    run = _locked_open_run(run)
    tournament = run.tournament
    rounds = list(
        Round.objects.select_for_update()
        .filter(tournament=tournament, number__in=run.round_numbers)
        .order_by("number")
    )
    if [round_.number for round_ in rounds] != sorted(run.round_numbers):
        raise seating_validation_error("stale")
    check_rounds(tournament, rounds)
    data = SeatingInput.from_json(run.snapshot)
    seated = stage_players(tournament, run.round_numbers)
    if not load_input(tournament, run.keep_apart, run.round_numbers, seated).same_seats_as(data):
        raise seating_validation_error("stale")
    _check_plan(data, run.plan)
    by_number = {round_.number: round_ for round_ in rounds}
    round_ids = [round_.pk for round_ in rounds]
    published = [round_.pk for round_ in rounds if round_.status == Round.Status.PLANNED]
    places = seat_places(round_ids)
    Seat.objects.filter(round__in=rounds).delete()
    # The plan was checked above and the database constraints hold the rest; one
    # bulk insert instead of a full_clean per seat keeps a 40-table tournament fast.
    Seat.objects.bulk_create(
        Seat(
            round=by_number[item["number"]],
            table_number=table_index + 1,
            wind=WINDS[seat_index],
            registration_id=player,
        )
        for item in run.plan
        for table_index, table in enumerate(item["tables"])
        for seat_index, player in enumerate(table)
    )
    for round_ in rounds:
        round_.seating_seed = run.seed
        round_.status = Round.Status.SEATED
        # A Swiss run marks its round; a whole plan leaves the organiser's flags as they are.
        round_.is_swiss = round_.is_swiss or run.mode == SeatingRun.Mode.SWISS
        round_.save(update_fields=["seating_seed", "status", "is_swiss"])
    Round.objects.filter(pk__in=round_ids).schedule_changed()
    seat_alerts_queue(before=places, round_ids=round_ids, published=published)
    run.status = SeatingRun.Status.APPLIED
    run.save(update_fields=["status"])
    open_runs_discard(tournament, keep=run)
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action="seating.apply",
        obj=run,
        data={
            "rounds": run.round_numbers,
            "seed": run.seed,
            "mode": run.mode,
            "metrics": run.metrics,
            "swaps": run.swaps,
        },
    )
    return rounds


@transaction.atomic
def seating_run_discard(*, run: SeatingRun, acting_user) -> SeatingRun:
    """Drop a proposal (or a run still computing, or one that stopped): nothing is seated."""
    run = SeatingRun.objects.select_for_update().select_related("tournament").get(pk=run.pk)
    if run.status in (SeatingRun.Status.APPLIED, SeatingRun.Status.DISCARDED):
        raise seating_validation_error("not_open", status=run.get_status_display())
    run.status = SeatingRun.Status.DISCARDED
    run.save(update_fields=["status"])
    audit_record(tournament=run.tournament, actor=acting_user, action="seating.discard", obj=run)
    return run


def run_error_message(run: SeatingRun) -> str:
    """Why a run failed, in the current language ("" if it did not fail)."""
    if run.status != SeatingRun.Status.FAILED:
        return ""
    return error_message(run.error_code or "internal", run.error_params, run.error_message)
