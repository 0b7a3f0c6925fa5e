"""Plan whole tournaments and re-plan the rest of a running one.

Order of work: validate the request (user errors with codes), turn ids into dense indices,
fold the history into meeting / table-visit / wind counts, try an explicit construction
(instant and repeat-free; teams that do not pack into its seat classes are kept apart by
exchanging players' whole schedules, see relabel.py) or else the best plan known for the
size (known_plans.py), repair or search with simulated annealing where needed (fixed
tables, teams that still meet, history, sizes no construction covers), then give winds by
exact edge-colouring and measure the result with the shared checker.

This module knows nothing about Django; ids are opaque ints.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence

from .construction import Construction, best_construction, extended_design, partial_start
from .known_plans import known_plan
from .metrics import (
    allowed_visits,
    evaluate,
    fixed_pairs,
    meetings_forced,
    pair_counts,
    pigeonhole_pairs,
    repeat_lower_bound,
    repeats_forced_by_history,
    substitutes_needed,
)
from .model import (
    PRIORITIES,
    Round,
    SeatingError,
    SeatingFatalError,
    SeatingPlan,
    SeatingRequest,
)
from .relabel import relabel_teams
from .search import (
    Costs,
    SearchProblem,
    Weights,
    anneal,
    costs,
    map_slots,
    pair_cost,
    renumber_tables,
)
from .winds import assign_winds, wind_counts

__all__ = [
    "plan_seating",
    "validate_player_count",
    "validate_players",
    "weights_for",
    "MOVES_PER_SECOND",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
]

#: The search's time limit, in seconds: long enough for one move, at most a day.
MIN_TIME_LIMIT, MAX_TIME_LIMIT = 0.01, 86_400.0
#: The largest request planned: a field of 2000 players (500 tables) and 100 rounds are far
#: beyond any riichi tournament, and still planned in seconds. Beyond, the meeting counts
#: (players²) exhaust the memory and the rounds the time, whatever the time limit says.
MAX_PLAYERS, MAX_ROUNDS = 2000, 100

#: Search moves granted per second of ``time_limit``. The budget is counted in moves, not
#: seconds, so that a seed reproduces its plan; the reference machine (2 cores) makes 130 000
#: to 200 000 moves/s, so the budget normally ends before the clock does.
MOVES_PER_SECOND = 80_000

#: Move budget for fields of three tables or fewer: 8 and 12 players × 2–12 rounds, with and
#: without teams, reach the same plans with 200 000 moves as with 2.4 million (the budget
#: of the default 30 s), and their bound is often out of reach (e.g. a pair forced to meet
#: three times), so the search would otherwise run its whole time for nothing.
TINY_FIELD_MOVES = 200_000

#: Seconds the final check (metrics.evaluate) takes per seat of the history and the plan:
#: about 8 µs on the reference machine, 20 allowing for a loaded one. The winds stop that
#: long before the time limit, so that the whole run keeps it.
CHECK_SECONDS_PER_SEAT = 20e-6

#: Relabellings of a repeated design tried for the best table numbering (milliseconds each).
EXTENSION_TRIES = 8

#: Moves of the team relabelling of a construction (about a second on the reference machine;
#: it stops as soon as no teammates meet).
RELABEL_MOVES = 200_000


def weights_for(priority: str) -> Weights:
    """Cost weights for a priority: the first concern weighs 8 times a repeated meeting.
    Under "opponents" a meeting beyond the cap (a pair's third, mostly) weighs 8 repeats, a
    team clash 4 (as under "tables") and a table revisit an eighth of one: the rank puts
    them in that order, and the search must feel it too."""
    if priority == "opponents":
        return Weights(tables=2, teams=64, repeats=8, beyond=128)
    return Weights(tables=16, teams=8, repeats=1)


def validate_player_count(n: int) -> None:
    """Raise :class:`SeatingError` for fewer players than a table or more than
    :data:`MAX_PLAYERS` (the CLI asks before it lists players 1..N)."""
    if n < 4:
        # docs/cli.md: a count that is not a multiple of four says how many substitutes to add.
        short = "" if n < 1 else f": add {4 - n} substitute{'s' if n < 3 else ''}"
        raise SeatingError(
            "too_few_players",
            f"{n} player{'s' if n != 1 else ''} cannot fill a table{short}; at least 4 are needed.",
            field="players",
            players=n,
            substitutes_needed=4 - max(n, 0),
        )
    if n > MAX_PLAYERS:
        raise SeatingError(
            "too_many_players",
            f"{n} players are more than the generator seats; at most {MAX_PLAYERS}.",
            field="players",
            players=n,
            maximum=MAX_PLAYERS,
        )


def validate_players(players: Sequence[int], fixed_tables: Mapping[int, int] | None = None) -> None:
    """Raise :class:`SeatingError` for a player list the generator cannot seat."""
    n = len(players)
    if len(set(players)) != n:
        dupes = sorted({p for p in players if list(players).count(p) > 1})
        raise SeatingError(
            "duplicate_players",
            f"Players appear twice: {dupes}.",
            field="players",
            players=dupes,
        )
    validate_player_count(n)
    extra = substitutes_needed(n)
    if extra:
        raise SeatingError(
            "not_multiple_of_four",
            f"{n} players cannot be seated four to a table: add {extra} "
            f"substitute{'s' if extra > 1 else ''} (or remove {n % 4} player"
            f"{'s' if n % 4 > 1 else ''}).",
            field="players",
            players=n,
            substitutes_needed=extra,
        )
    n_tables = n // 4
    per_table: dict[int, int] = {}
    active = set(players)
    for p, t in (fixed_tables or {}).items():
        if p not in active:
            raise SeatingError(
                "fixed_player_unknown",
                f"Player {p} has a fixed table but is not among the players.",
                field="fixed_tables",
                player=p,
            )
        if not 1 <= t <= n_tables:
            raise SeatingError(
                "fixed_table_out_of_range",
                f"Player {p} is fixed to table {t}, but there are only {n_tables} tables.",
                field="fixed_tables",
                player=p,
                table=t,
                tables=n_tables,
            )
        per_table[t] = per_table.get(t, 0) + 1
        if per_table[t] > 4:
            raise SeatingError(
                "fixed_table_full",
                f"More than four players are fixed to table {t}.",
                field="fixed_tables",
                table=t,
            )


def validate_priority(priority: str) -> None:
    """Raise :class:`SeatingError` for a priority that is not one of :data:`PRIORITIES`."""
    if priority not in PRIORITIES:
        raise SeatingError(
            "invalid_priority",
            f"Priority must be one of {', '.join(PRIORITIES)}.",
            field="priority",
            priority=priority,
        )


def validate_history(history: Sequence[Round]) -> None:
    """Raise :class:`SeatingError` for a history table that is not four players seated once."""
    for r, rnd in enumerate(history):
        seen: set[int] = set()
        for t, table in enumerate(rnd):
            if len(table) != 4 or len(set(table)) != 4 or seen & set(table):
                raise SeatingError(
                    "invalid_history",
                    f"Round {r + 1}, table {t + 1} of the history is not four distinct "
                    "players seated once.",
                    field=f"history[{r}][{t}]",
                    round=r + 1,
                    table=t + 1,
                )
            seen |= set(table)


def _validate(request: SeatingRequest) -> None:
    validate_priority(request.priority)
    if request.rounds < 0:
        raise SeatingError(
            "invalid_rounds", "The number of rounds cannot be negative.", field="rounds"
        )
    if request.rounds > MAX_ROUNDS:
        raise SeatingError(
            "too_many_rounds",
            f"{request.rounds} rounds are more than the generator plans at once; "
            f"at most {MAX_ROUNDS}.",
            field="rounds",
            rounds=request.rounds,
            maximum=MAX_ROUNDS,
        )
    if not MIN_TIME_LIMIT <= request.time_limit <= MAX_TIME_LIMIT:  # NaN fails too
        raise SeatingError(
            "invalid_time_limit",
            f"The time limit must be between {MIN_TIME_LIMIT:g} and {MAX_TIME_LIMIT:g} seconds.",
            field="time_limit",
            time_limit=request.time_limit,
        )
    validate_players(request.players, request.fixed_tables)
    validate_history(request.history)


#: Nodes the exact packing of teams into seat classes may visit before the greedy one
#: takes over (the sizes seen, up to 2000 players, need a few hundred at most).
PACKING_NODES = 20_000


def _whole_team_classes(sizes: Mapping[int, int], n_classes: int, capacity: int) -> dict[int, int]:
    """team -> seat class, every team of two or more in one class, where the greedy fill
    below (the next team, largest first, to the emptiest class) would split a team and
    some packing (found within PACKING_NODES nodes) does not; else {}, and the greedy fill
    stands. It splits 48 players in 13 teams (nine of 4, four of 3): the fours fill the
    classes 12, 8, 8, 8 and a three is split, which then meets itself in every full
    construction.

    >>> _whole_team_classes({0: 4, 1: 4, 2: 3, 3: 3, 4: 2}, 2, 8)
    {0: 0, 1: 0, 2: 1, 3: 1, 4: 1}
    >>> _whole_team_classes({0: 5, 1: 5}, 2, 4), _whole_team_classes({0: 4, 1: 4}, 2, 4)
    ({}, {})
    """
    teams = sorted((t for t in sizes if sizes[t] > 1), key=lambda t: (-sizes[t], t))
    room = [capacity] * n_classes
    for t in teams:
        c = max(range(n_classes), key=lambda i: (room[i], -i))
        if room[c] < sizes[t]:
            break
        room[c] -= sizes[t]
    else:
        return {}
    room = [capacity] * n_classes
    chosen: dict[int, int] = {}
    failed: set[tuple[int, tuple[int, ...]]] = set()
    nodes = 0

    def place(i: int) -> bool:
        nonlocal nodes
        if i == len(teams):
            return True
        state = (i, tuple(sorted(room)))
        nodes += 1
        if state in failed or nodes > PACKING_NODES:
            return False
        size = sizes[teams[i]]
        tried: set[int] = set()
        for c in range(n_classes):
            if room[c] < size or room[c] in tried:
                continue
            tried.add(room[c])
            room[c] -= size
            chosen[teams[i]] = c
            if place(i + 1):
                return True
            room[c] += size
        failed.add(state)
        return False

    return chosen if place(0) else {}


def _pack_slots(construction: Construction, team: Sequence[int], rng: random.Random) -> list[int]:
    """slot -> dense player: teams packed into seat classes (one class never meets)."""
    n = len(team)
    n_classes = 4
    capacity = n // n_classes
    by_team: dict[int, list[int]] = {}
    loose: list[int] = []
    for p in range(n):
        if team[p] >= 0:
            by_team.setdefault(team[p], []).append(p)
        else:
            loose.append(p)
    members: list[list[int]] = [[] for _ in range(n_classes)]
    whole = _whole_team_classes({t: len(ps) for t, ps in by_team.items()}, n_classes, capacity)
    for t, c in whole.items():
        members[c].extend(by_team[t])
    for t in sorted(by_team, key=lambda k: (-len(by_team[k]), k)):
        if t in whole:
            continue
        pending = list(by_team[t])
        while pending:
            c = max(range(n_classes), key=lambda i: (capacity - len(members[i]), -i))
            room = capacity - len(members[c])
            members[c].extend(pending[:room])
            pending = pending[room:]
    for p in loose:
        c = max(range(n_classes), key=lambda i: (capacity - len(members[i]), -i))
        members[c].append(p)
    for m in members:
        rng.shuffle(m)
    slot_player = [0] * n
    cursor = [0] * n_classes
    for s, c in enumerate(construction.slot_class):
        slot_player[s] = members[c][cursor[c]]
        cursor[c] += 1
    return slot_player


def _usual_start(
    n_tables: int, rounds: int, team: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """The search's start where no construction covers the request: as much difference
    matrix as exists, teams packed into its seat classes."""
    return _seat_slots(partial_start(n_tables, rounds, rng), team, rng)


def _seat_slots(
    construction: Construction, team: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """Flat rounds of dense players, teams packed into the construction's seat classes."""
    slot_player = _pack_slots(construction, team, rng)
    return [[slot_player[s] for table in rnd for s in table] for rnd in construction.rounds]


def _numbered(
    problem: SearchProblem, seats: list[list[int]], rng: random.Random, deadline: float
) -> list[list[int]]:
    """A start for the search, fixed players at their tables and tables numbered."""
    if any(f >= 0 for f in problem.fixed):
        seats = [_place_fixed(s, problem.fixed, problem.n_tables) for s in seats]
    return renumber_tables(problem, seats, rng, deadline=deadline)


def _extended_start(
    problem: SearchProblem,
    team: Sequence[int],
    weights: Weights,
    rng: random.Random,
    priority: str,
    deadline: float,
) -> tuple[str, list[list[int]]] | None:
    """The design-and-repeat start (construction.extended_design), numbered: the best of a
    few relabellings of the repeated rounds, since some fit a fair numbering and some do
    not. None where no such design exists."""
    best: tuple[tuple[int, ...], str, list[list[int]]] | None = None
    for _ in range(EXTENSION_TRIES):
        extended = extended_design(problem.n_tables, problem.n_rounds, rng)
        if extended is None:
            return None
        seats = _numbered(problem, _seat_slots(extended, team, rng), rng, deadline)
        rank = _rank(problem, seats, weights, priority)
        if best is None or rank < best[0]:
            best = (rank, extended.name, seats)
    assert best is not None
    return best[1], best[2]


def _rank(
    problem: SearchProblem, seats: Sequence[Sequence[int]], weights: Weights, priority: str
) -> tuple[int, ...]:
    """Order of plans: weighted cost, after table reuse and team clashes when tables come
    first; after the meetings beyond the cap, team clashes and repeats when opponents do."""
    found = costs(problem, seats)
    cost = found.weighted(weights)
    if priority == "tables":
        return (found.reuse, found.clashes, cost)
    return (found.beyond, found.clashes, found.repeats, cost)


#: Share of the moves spent probing each start when the search has several; the start that
#: leads after its probe gets the rest.
PROBE_SHARE = 0.1


def progress_share(
    progress: Callable[[float], None] | None, start: float, share: float
) -> Callable[[float], None] | None:
    """``progress`` for a part of the work that starts at ``start`` and takes ``share``."""
    if progress is None:
        return None
    return lambda fraction: progress(min(1.0, start + fraction * share))


def _search_from_each(
    problem: SearchProblem,
    starts: Sequence[list[list[int]]],
    weights: Weights,
    rng: random.Random,
    deadline: float,
    target: int,
    max_moves: int,
    priority: str,
    progress: Callable[[float], None] | None,
) -> tuple[list[list[int]], int, int]:
    """Anneal from the best of ``starts``: (rounds, cost, index of the start it came from).

    With several starts, each is first annealed on a probe of PROBE_SHARE of the moves and
    the one ahead then gets the rest, so a second start costs little where it does not
    help. Stops as soon as a plan reaches ``target``."""

    def run(seats: list[list[int]], share: float, done: float) -> tuple[list[list[int]], int]:
        report = progress_share(progress, done, share)
        now = time.monotonic()
        return anneal(
            problem,
            seats,
            weights,
            rng,
            now + (deadline - now) * share / max(share, 1.0 - done),
            target,
            progress=report,
            max_moves=max(1, int(max_moves * share)),
            hard_tables=priority == "tables",
            hard_meetings=priority == "opponents",
        )

    if len(starts) == 1:
        seats, cost = run(starts[0], 1.0, 0.0)
        return seats, cost, 0
    leader: tuple[tuple[int, ...], list[list[int]], int, int] | None = None
    for index, start in enumerate(starts):
        seats, cost = run(start, PROBE_SHARE, index * PROBE_SHARE)
        rank = _rank(problem, seats, weights, priority)
        if leader is None or rank < leader[0]:
            leader = (rank, seats, cost, index)
        if cost <= target:
            return seats, cost, index
    assert leader is not None
    _, seats, cost, index = leader
    done = len(starts) * PROBE_SHARE
    seats, cost = run(seats, 1.0 - done, done)
    return seats, cost, index


#: 16 players × 5 rounds: AG(2,4), the only repeat-free plan, forces this many table
#: revisits beyond the fair share with nobody more than 3 times at a table
#: (construction.AG5_TABLE_NUMBERS); it is kept rather than traded for repeats.
AG5_REVISITS = 4


def _keeps_ag5(
    reuse: int, clashes: int, rep: int, hist_pairs: int, extra_revisits: int = 0
) -> bool:
    """A 16 × 5 plan as good as AG(2,4): no repeat beyond the history's, no clash, no more
    revisits than it forces (R > T, so repeat-free beats fewer revisits)."""
    return clashes == 0 and rep == hist_pairs and reuse <= AG5_REVISITS + extra_revisits


def _previous_start(
    request: SeatingRequest, index: Mapping[int, int], n_tables: int
) -> list[list[int]] | None:
    """``request.previous`` as flat rounds of dense players, the seats of players no longer
    active going to the newcomers (in id order); None when it does not fit."""
    previous = request.previous
    if not previous or len(previous) != request.rounds:
        return None
    if any(len(rnd) != n_tables or any(len(t) != 4 for t in rnd) for rnd in previous):
        return None
    seated = {p for table in previous[0] for p in table}
    if any({p for table in rnd for p in table} != seated for rnd in previous):
        return None
    gone = sorted(p for p in seated if p not in index)
    newcomers = sorted(p for p in index if p not in seated)
    if len(gone) != len(newcomers) or len(seated) != 4 * n_tables:
        return None
    heir = dict(zip(gone, newcomers, strict=True))
    return [[index[heir.get(p, p)] for table in rnd for p in table] for rnd in previous]


def _place_fixed(seats: list[int], fixed: Sequence[int], n_tables: int) -> list[int]:
    """Renumber tables (and if needed swap players) so fixed players sit at their table."""
    groups = [seats[4 * t : 4 * t + 4] for t in range(n_tables)]
    label: list[int] = [-1] * n_tables
    taken = [False] * n_tables
    for g, grp in enumerate(groups):
        for p in grp:
            f = fixed[p]
            if f >= 0 and not taken[f]:
                label[g] = f
                taken[f] = True
                break
    free = [t for t in range(n_tables) if not taken[t]]
    # Keep unaffected groups at their own number where possible (less table churn).
    for g in range(n_tables):
        if label[g] < 0 and not taken[g]:
            label[g] = g
            taken[g] = True
    free = [t for t in range(n_tables) if not taken[t]]
    for g in range(n_tables):
        if label[g] < 0:
            label[g] = free.pop()
    out = [0] * (4 * n_tables)
    for g, grp in enumerate(groups):
        out[4 * label[g] : 4 * label[g] + 4] = grp
    # Players still away from their fixed table swap with a free player there.
    for pos in range(len(out)):
        p = out[pos]
        f = fixed[p]
        if f >= 0 and pos // 4 != f:
            for k in range(4 * f, 4 * f + 4):
                q = out[k]
                if fixed[q] != f:
                    out[k], out[pos] = p, q
                    break
    return out


def _decode_slots(
    construction: Construction, history: Sequence[Round], index: Mapping[int, int]
) -> dict[int, int]:
    """slot -> dense player for players whose past tables match the construction's first
    rounds exactly (the history was planned by the same construction, or is a single
    round: any round is the construction's first, up to who is who): then the rest of the
    construction continues their plan without a single clash.

    Slots with the same past tables (after one round, the four at a table) take the players
    with those tables in any order."""
    h = len(history)
    by_signature: dict[tuple[int, ...], list[int]] = {}
    slot_tables: dict[int, list[int]] = {}
    for rnd in construction.rounds[:h]:
        for t, table in enumerate(rnd):
            for slot in table:
                slot_tables.setdefault(slot, []).append(t)
    for slot, tables in sorted(slot_tables.items()):
        by_signature.setdefault(tuple(tables), []).append(slot)
    player_tables: dict[int, list[int]] = {}
    for rnd in history:
        for t, table in enumerate(rnd):
            for p in table:
                player_tables.setdefault(p, []).append(t)
    decoded: dict[int, int] = {}
    for p, tables in sorted(player_tables.items()):
        slots = by_signature.get(tuple(tables))
        if p in index and len(tables) == h and slots:
            decoded[slots.pop(0)] = index[p]
    return decoded


def _apply_decoded(slot_player: list[int], decoded: Mapping[int, int]) -> list[int]:
    """Put decoded players into their slots; everybody else fills the remaining slots in
    the order the packing gave them."""
    placed = set(decoded.values())
    rest = [p for p in slot_player if p not in placed]
    out = []
    for slot in range(len(slot_player)):
        out.append(decoded[slot] if slot in decoded else rest.pop(0))
    return out


def plan_seating(
    request: SeatingRequest, progress: Callable[[float], None] | None = None
) -> SeatingPlan:
    """Plan ``request.rounds`` new rounds after ``request.history``.

    Same request (same seed) -> same plan, as long as the search is not cut short by the
    time limit on a slower machine (constructions are always reproducible).

    >>> plan = plan_seating(SeatingRequest(players=tuple(range(1, 21)), rounds=5))
    >>> (plan.metrics.repeat_pairs, plan.metrics.table_reuse, plan.metrics.wind_imbalance)
    (0, 0, 1)
    """
    started = time.monotonic()
    _validate(request)
    opponents_first = request.priority == "opponents"
    players = request.players
    n = len(players)
    n_tables = n // 4
    rn = request.rounds
    index = {p: i for i, p in enumerate(players)}
    rng = random.Random(request.seed)

    team_names = sorted({request.teams[p] for p in players if p in request.teams})
    team_index = {name: i for i, name in enumerate(team_names)}
    team = tuple(team_index[request.teams[p]] if p in request.teams else -1 for p in players)
    fixed = tuple(request.fixed_tables.get(p, 0) - 1 for p in players)

    meet0 = [0] * (n * n)
    visits0 = [0] * (n * n_tables)
    played = [0] * n
    for rnd in request.history:
        for t, table in enumerate(rnd):
            dense = [index[p] for p in table if p in index]
            for i, a in enumerate(dense):
                played[a] += 1
                if t < n_tables:
                    visits0[a * n_tables + t] += 1
                for b in dense[i + 1 :]:
                    meet0[a * n + b] += 1
                    meet0[b * n + a] += 1
    # The fair share counts every table number used, played rounds included, as evaluate does.
    all_tables = max([n_tables, *(len(rnd) for rnd in request.history)])
    allowed = tuple(allowed_visits(played[p] + rn, all_tables) for p in range(n))
    met = pair_counts(request.history)
    # "Opponents first": no pair meets more than twice, or than counting forces (pairs
    # fixed to one table left out: they meet every round by the organiser's choice).
    free_players = {p for p in players if p not in request.fixed_tables}
    cap = max(2, meetings_forced(met, players, rn, free_players)) if opponents_first else 0
    problem = SearchProblem(
        n_players=n,
        n_tables=n_tables,
        n_rounds=rn,
        meet0=tuple(meet0),
        visits0=tuple(visits0),
        allowed=allowed,
        team=team,
        fixed=fixed,
        meeting_cap=cap,
    )
    weights = weights_for(request.priority)
    # Leave a tenth of the time for winds and the final check.
    deadline = started + max(0.05, 0.9 * request.time_limit)
    hist_pairs = sum(pair_cost(c) for c in meet0) // 2
    has_fixed = any(f >= 0 for f in fixed)
    # Nobody at a table twice (tables first, while the rounds played and to plan fit the
    # tables: ⌈R/T⌉ = 1 visit) forces more repeats on tiny fields. Beyond, a player may sit
    # twice at a table among the new rounds; a fixed player may stay at his table: then only
    # the general bound holds.
    fresh = request.priority == "tables" and len(request.history) + rn <= n_tables and not has_fixed
    forced = repeat_lower_bound(n, rn, fresh_tables=fresh)
    if request.history:
        forced = max(forced, repeats_forced_by_history(met, set(players), rn))
    # A repeat costs 2 or more; the pigeonhole pairs recur between every two rounds, and a
    # pair meeting in all of them is the cheapest way to pay for that (pair_cost). Players
    # fixed to one table do meet in all of them.
    forced_cost = max(
        2 * forced,
        pigeonhole_pairs(n, fresh) * pair_cost(rn),
        fixed_pairs(request.fixed_tables) * pair_cost(rn),
    )
    # Meetings the history already has beyond the cap stay beyond it.
    fixed_at = request.fixed_tables
    hist_beyond = sum(
        c - cap
        for (a, b), c in met.items()
        if cap
        and c > cap
        and a in index
        and b in index
        and (a not in fixed_at or fixed_at[a] != fixed_at.get(b))
    )
    target = weights.repeats * (hist_pairs + forced_cost) + weights.beyond * hist_beyond

    method = "search"
    tables_first = request.priority == "tables"
    construction = best_construction(n_tables, rn, tables_first=tables_first) if rn else None
    known = None
    if construction is None and rn and tables_first and not request.history:
        # "Opponents first" may revisit tables to meet fewer people again: search instead.
        known = construction = known_plan(n_tables, rn)
    decoded: dict[int, int] = {}
    if request.history and rn:
        # Re-seating: a construction for all rounds, played ones included, often continues
        # the plan the history came from; choose who takes which slot to fit the history.
        longer = best_construction(n_tables, len(request.history) + rn, tables_first=tables_first)
        if longer is not None and longer.table_reuse_free:
            construction = Construction(
                longer.rounds[len(request.history) :], longer.slot_class, longer.name
            )
            decoded = _decode_slots(longer, request.history, index)
    alternatives: list[tuple[str, list[list[int]]]] = []
    if construction is not None:
        slot_player = _pack_slots(construction, team, rng)
        if decoded:
            slot_player = _apply_decoded(slot_player, decoded)
        flat_slots = [[s for table in rnd for s in table] for rnd in construction.rounds]
        if request.history:
            slot_player = map_slots(
                problem,
                flat_slots,
                slot_player,
                weights,
                rng,
                max_moves=400 * n * rn + 50_000,
                # At most half the time: the search may still have to repair.
                deadline=started + request.time_limit / 2,
            )
        elif any(t >= 0 for t in team):
            # Teams that do not pack into the seat classes: exchange whole schedules, which
            # keeps the construction repeat-free and reuse-free and moves only team clashes.
            # Fixed players keep their slots (their tables are placed afterwards).
            slot_player, _ = relabel_teams(
                flat_slots,
                slot_player,
                team,
                rng,
                frozen=[fixed[p] >= 0 for p in slot_player],
                max_moves=RELABEL_MOVES,
                deadline=started + request.time_limit / 3,
            )
        start = [[slot_player[s] for s in seats] for seats in flat_slots]
        method = f"construction {construction.name}"
        _reuse, clashes_left, repeats_cost, _beyond = costs(problem, start)
        if clashes_left and not request.history:
            # Team mates still meet in it: the search also starts from the usual start, where
            # teams fill seat classes that never meet (more repeats), and keeps the better.
            usual = _numbered(problem, _usual_start(n_tables, rn, team, rng), rng, deadline)
            alternatives.append(("teams in seat classes", usual))
        if known is not None:
            # Searching for fewer repeats than the best known plan is wasted time.
            target = max(target, weights.repeats * repeats_cost)
            method = known.name
    elif rn:
        start = _usual_start(n_tables, rn, team, rng)
        if not request.history:
            # Beyond the tables a longer design, repeated, may start closer to the bound.
            extended = _extended_start(problem, team, weights, rng, request.priority, deadline)
            if extended is not None:
                alternatives.append(extended)
    else:
        start = []
    current = _previous_start(request, index, n_tables)
    kept = None
    if current is not None:
        # Its own table numbers: renumbering (a heuristic) could only move the seats.
        if has_fixed:
            current = [_place_fixed(s, fixed, n_tables) for s in current]
        alternatives.append(("the current seating", current))
        if tables_first and n_tables == 4 and len(request.history) + rn == 5:
            # As for a fresh 16 × 5 plan: keep such current seats. A newcomer in a withdrawn
            # player's seats may sit twice at a table in fewer rounds than there are tables:
            # up to 2 more revisits each.
            newcomers = sum(1 for p in range(n) if played[p] == 0)
            if _keeps_ag5(*costs(problem, current)[:3], hist_pairs, extra_revisits=2 * newcomers):
                kept = current
    if has_fixed:
        start = [_place_fixed(s, fixed, n_tables) for s in start]

    seats = start
    if rn and construction is None:
        seats = renumber_tables(problem, seats, rng, deadline=deadline)
    reuse, clashes, rep, _beyond = found = costs(problem, seats) if rn else Costs(0, 0, 0, 0)
    cost = found.weighted(weights)
    if kept is not None:
        seats, method = kept, "the current seating (repeat-free)"
    elif rn and n_tables > 1 and cost > target:
        needs_more = True
        ag5 = (
            construction is not None
            and construction.name == "AG(2,4)"
            and rn == 5
            and not request.history
        )
        if ag5 and not has_fixed:
            # Its own table numbers are the best ones (AG5_TABLE_NUMBERS).
            needs_more = not _keeps_ag5(reuse, clashes, rep, hist_pairs)
        elif construction is not None and reuse > 0:
            # Keep the repeat-free groups and search the table numbers first (fixed players,
            # history).
            seats = renumber_tables(problem, seats, rng, deadline=deadline)
            seats, cost = anneal(
                problem,
                seats,
                weights,
                rng,
                deadline,
                cost - weights.tables * reuse,
                relabel_only=True,
                max_moves=200_000,
            )
            reuse, clashes, rep, _beyond = costs(problem, seats)
            needs_more = not (ag5 and _keeps_ag5(reuse, clashes, rep, hist_pairs))
        if needs_more and cost > target:
            max_moves = max(1, int(request.time_limit * MOVES_PER_SECOND))
            if n_tables <= 3:
                max_moves = min(max_moves, TINY_FIELD_MOVES)
            seats, cost, chosen = _search_from_each(
                problem,
                [seats, *(alt for _name, alt in alternatives)],
                weights,
                rng,
                deadline,
                target,
                max_moves,
                request.priority,
                progress,
            )
            method += " + search" if method != "search" else ""
            if chosen:
                method += f" from {alternatives[chosen - 1][0]}"

    groups = [
        [tuple(players[p] for p in s[4 * t : 4 * t + 4]) for t in range(n_tables)] for s in seats
    ]
    everyone = sorted(players)
    for rnd in groups:
        if sorted(p for table in rnd for p in table) != everyone:
            raise SeatingFatalError("a planned round does not seat every player exactly once")
    history_winds = wind_counts(request.history) if request.history else None
    seats_checked = 4 * sum(len(rnd) for rnd in (*request.history, *groups))
    new_rounds = assign_winds(
        groups,
        seed=request.seed,
        history_counts=history_winds,
        deadline=started + request.time_limit - CHECK_SECONDS_PER_SEAT * seats_checked,
    )
    if progress is not None:
        progress(1.0)
    metrics = evaluate(
        tuple(request.history) + new_rounds,
        request.teams,
        request.fixed_tables,
        played=len(request.history),
        seconds=time.monotonic() - started,
    )
    return SeatingPlan(rounds=new_rounds, metrics=metrics, method=method)
