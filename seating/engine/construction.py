"""Explicit constructions of repeat-free plans (no search, no randomness needed).

* **Difference-matrix construction** (docs/seating-theory.md, "A finite-field
  construction"): players are (class i ∈ 0..3, x ∈ G, y ∈ Z_m) for an abelian group G of
  order Q, T = Q·m tables (u, y). In round r player (i, x, y) sits at table
  (x + k[r][i], y). Two players of classes i ≠ j meet only in the round where
  k[r][i] − k[r][j] = x' − x, so at most once
  when these differences are distinct over the rounds; players of one class never meet;
  a player's table changes every round when k[r][i] is distinct over r. With G = GF(Q)
  (Q a prime power ≥ 5) k[r][i] = e_r·a_i works for R <= Q rounds; for other table counts
  a small backtracking search over Z_T finds such a matrix for as many rounds as it can,
  and longer matrices found offline are stored (matrices.py: 40, 48, 56, 60, 72 players).
* **AG(2,4)** for 16 players: the five parallel classes of the affine plane of order 4,
  the only 5-round repeat-free plan for 16 players.
* **Cyclic designs** (rotational.py) for the sizes near (N − 1)/3 rounds that the above
  miss (24 players up to 7 rounds, 28 up to 9, 36 up to 11, 40 up to 13, 44 up
  to 14): repeat-free; the tables are numbered afterwards (rotational.number_tables)
  and may be revisited.
* **Designs stored whole** (stored_designs.py), tables numbered: 32 players up to 10
  rounds.

A construction returns *slots*, not players: the planner decides which player takes which
slot (teams packed into one class never meet). Table numbering and winds are done elsewhere.
"""

from __future__ import annotations

import functools
import random
import time
from dataclasses import dataclass

from .matrices import Group, stored_matrix
from .rotational import BASE_ROUNDS, number_tables, rotational_rounds
from .stored_designs import STORED_DESIGNS, stored_design_rounds

__all__ = [
    "Construction",
    "GaloisField",
    "prime_power",
    "difference_construction",
    "affine_plane_16",
    "best_construction",
    "partial_start",
    "extended_design",
]


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p**k`` for a prime p, else None.

    >>> prime_power(9), prime_power(8), prime_power(12), prime_power(7)
    ((3, 2), (2, 3), None, (7, 1))
    """
    if q < 2:
        return None
    p = 2
    while p * p <= q and q % p:
        p += 1
    if q % p:
        p = q
    k, rest = 0, q
    while rest % p == 0:
        rest //= p
        k += 1
    return (p, k) if rest == 1 else None


class GaloisField:
    """GF(q) for a prime power q; elements are ints 0..q-1 (base-p digit vectors).

    >>> f = GaloisField(4)
    >>> all(f.mul(a, f.inv(a)) == 1 for a in range(1, 4))
    True
    """

    def __init__(self, q: int) -> None:
        pk = prime_power(q)
        if pk is None:
            raise ValueError(f"{q} is not a prime power")
        self.q, (self.p, self.k) = q, pk
        p, k = pk
        modulus = self._irreducible(p, k)
        self.add_table = [[self._add(a, b) for b in range(q)] for a in range(q)]
        self.mul_table = [[self._mul(a, b, modulus) for b in range(q)] for a in range(q)]
        self.neg = [next(b for b in range(q) if self.add_table[a][b] == 0) for a in range(q)]

    def _digits(self, a: int) -> list[int]:
        out = []
        for _ in range(self.k):
            out.append(a % self.p)
            a //= self.p
        return out

    def _num(self, digits: list[int]) -> int:
        n = 0
        for d in reversed(digits):
            n = n * self.p + d
        return n

    def _add(self, a: int, b: int) -> int:
        return self._num(
            [(x + y) % self.p for x, y in zip(self._digits(a), self._digits(b), strict=True)]
        )

    def _polymulmod(self, a: list[int], b: list[int], modulus: list[int]) -> list[int]:
        p, k = self.p, self.k
        prod = [0] * (2 * k)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                prod[i + j] = (prod[i + j] + x * y) % p
        # Reduce by the monic modulus of degree k (coefficients low to high, length k + 1).
        for d in range(2 * k - 1, k - 1, -1):
            c = prod[d]
            if c:
                for i in range(k + 1):
                    prod[d - k + i] = (prod[d - k + i] - c * modulus[i]) % p
        return prod[:k]

    def _mul(self, a: int, b: int, modulus: list[int]) -> int:
        if self.k == 1:
            return a * b % self.p
        return self._num(self._polymulmod(self._digits(a), self._digits(b), modulus))

    def _irreducible(self, p: int, k: int) -> list[int]:
        if k == 1:
            return [0, 1]
        for n in range(p**k):
            coeffs = []
            m = n
            for _ in range(k):
                coeffs.append(m % p)
                m //= p
            poly = coeffs + [1]
            if poly[0] == 0:
                continue
            # No root and no factor of degree <= k/2: brute force over monic divisors.
            if not self._has_factor(poly, p, k):
                return poly
        raise ValueError("no irreducible polynomial found")

    @staticmethod
    def _has_factor(poly: list[int], p: int, k: int) -> bool:
        for d in range(1, k // 2 + 1):
            for n in range(p**d):
                div = []
                m = n
                for _ in range(d):
                    div.append(m % p)
                    m //= p
                div.append(1)
                rem = list(poly)
                for i in range(len(rem) - 1, d - 1, -1):
                    c = rem[i]
                    if c:
                        for j in range(d + 1):
                            rem[i - d + j] = (rem[i - d + j] - c * div[j]) % p
                if not any(rem[:d]):
                    return True
        return False

    def add(self, a: int, b: int) -> int:
        return self.add_table[a][b]

    def mul(self, a: int, b: int) -> int:
        return self.mul_table[a][b]

    def inv(self, a: int) -> int:
        return next(b for b in range(1, self.q) if self.mul_table[a][b] == 1)


@dataclass(frozen=True)
class Construction:
    """Repeat-free rounds over slots 0..N-1: ``rounds[r][t]`` is the set of four slots at
    table t. ``slot_class[s]`` is the seat class of slot s (slots of one class never meet).
    ``table_reuse_free`` says no slot visits a table more than ⌈R/T⌉ times (so never twice
    while rounds <= tables)."""

    rounds: tuple[tuple[tuple[int, int, int, int], ...], ...]
    slot_class: tuple[int, ...]
    name: str
    table_reuse_free: bool = True


def _from_matrix(
    q: int, m: int, add: list[list[int]], neg: list[int], k: list[tuple[int, ...]], name: str
) -> Construction:
    """Rounds of the difference-matrix construction; slot (i, x, y) = i*T + y*Q + x."""
    n_tables = q * m
    rounds = []
    for row in k:
        tables = []
        for y in range(m):
            for u in range(q):
                # Class i player at table u has x = u - k_i.
                tables.append(tuple(i * n_tables + y * q + add[u][neg[row[i]]] for i in range(4)))
        rounds.append(tuple(tables))
    slot_class = tuple(s // n_tables for s in range(4 * n_tables))
    return Construction(tuple(rounds), slot_class, name)


def difference_construction(n_tables: int, rounds: int) -> Construction | None:
    """The finite-field construction for T = Q·m tables, Q a prime power >= max(5, R)."""
    best_q = None
    for q in range(max(5, rounds), n_tables + 1):
        if n_tables % q == 0 and prime_power(q):
            best_q = q
            break
    if best_q is None:
        return None
    f = GaloisField(best_q)
    a = (1, 2, 3, 4)  # four distinct non-zero elements
    k = [tuple(f.mul(e, ai) for ai in a) for e in range(rounds)]
    return _from_matrix(best_q, n_tables // best_q, f.add_table, f.neg, k, f"GF({best_q})")


def cyclic_matrix(
    n: int,
    rounds: int,
    seed: int = 0,
    deadline: float | None = None,
    max_nodes: int = 200_000,
    max_checks: int | None = None,
) -> list[tuple[int, ...]]:
    """Backtracking for rows k[r] in Z_n^4 with k[0] = 0 and, for every pair of rows
    (including an implicit zero row), differences distinct over r. Returns as many rows as
    it could find (at least the zero row), up to ``rounds``. ``max_checks`` bounds the
    candidate rows looked at: deep in the tree a node may scan up to n⁴ of them."""
    rng = random.Random(seed)
    pairs = [(i, j) for i in range(-1, 4) for j in range(i + 1, 4)]
    used = [[False] * n for _ in pairs]
    for u in used:
        u[0] = True
    rows: list[tuple[int, ...]] = [(0, 0, 0, 0)]
    best = list(rows)
    nodes = 0
    checks = 0

    def ok(c: tuple[int, ...]) -> bool:
        for idx, (i, j) in enumerate(pairs):
            d = (c[j] - (c[i] if i >= 0 else 0)) % n
            if used[idx][d]:
                return False
        return True

    def mark(c: tuple[int, ...], value: bool) -> None:
        for idx, (i, j) in enumerate(pairs):
            used[idx][(c[j] - (c[i] if i >= 0 else 0)) % n] = value

    def candidates() -> list[tuple[int, ...]]:
        nonlocal checks
        out = []
        vals = list(range(1, n))
        rng.shuffle(vals)
        for a in vals:
            checks += 1
            if used[0][a]:
                continue
            for b in vals:
                checks += 1
                if b == a or used[1][b] or used[4][(b - a) % n]:
                    continue
                for c in vals:
                    checks += 1
                    if c in (a, b) or used[2][c] or used[5][(c - a) % n]:
                        continue
                    if used[7][(c - b) % n]:
                        continue
                    for d in vals:
                        checks += 1
                        if max_checks is not None and checks > max_checks:
                            return out
                        cand = (a, b, c, d)
                        if d in (a, b, c):
                            continue
                        if ok(cand):
                            out.append(cand)
                            if len(out) >= 64:
                                return out
        return out

    def search() -> bool:
        nonlocal nodes, best
        if len(rows) > len(best):
            best = list(rows)
        if len(rows) >= rounds:
            return True
        nodes += 1
        if nodes > max_nodes or (deadline is not None and time.monotonic() > deadline):
            return False
        if max_checks is not None and checks > max_checks:
            return False
        for cand in candidates():
            rows.append(cand)
            mark(cand, True)
            if search():
                return True
            mark(cand, False)
            rows.pop()
        return False

    search()
    return best


#: Candidate rows the cyclic search may look at (about a second). Measured from 5 to 100
#: tables, its longest matrix came early and the rest of the 20 000 nodes (up to a minute)
#: rarely added a row: within this budget it is as long, or one row shorter at 28, 38, 41,
#: 47, 48, 84, 87 and 98 tables (rows used only beyond 0.8 × tables rounds).
CYCLIC_CHECKS = 4_000_000


@functools.lru_cache(maxsize=64)
def _cyclic_rows(n: int, rounds: int) -> tuple[tuple[int, ...], ...]:
    """Work-bounded (not clock-bounded, so reproducible) search, cached per size: about a
    second at most on the reference machine, where 20 000 nodes alone took up to a minute
    for large n, whatever the time limit."""
    return tuple(cyclic_matrix(n, rounds, seed=0, max_nodes=20_000, max_checks=CYCLIC_CHECKS))


#: Table number (from 0) of line c of each parallel class of AG(2,4) below: over five rounds
#: four players sit three times at one table (4 revisits beyond the fair 2) and nobody more.
#: Of the 24⁴ numberings only one kind does better (3 revisits), and only by seating one
#: player at the same table in all five rounds (bench/designs/ag5_numberings.py).
AG5_TABLE_NUMBERS = ((0, 1, 2, 3), (0, 1, 2, 3), (0, 2, 3, 1), (1, 2, 3, 0), (1, 3, 0, 2))


def affine_plane_16() -> Construction:
    """AG(2,4): points GF(4)^2; five parallel classes of four lines each, one per round,
    line c at table AG5_TABLE_NUMBERS[slope][c]."""
    f = GaloisField(4)
    rounds = []
    for slope in range(5):
        tables: list[tuple[int, ...]] = [()] * 4
        for c in range(4):
            if slope == 4:
                pts = [4 * c + y for y in range(4)]
            else:
                pts = [4 * x + f.add(f.mul(slope, x), c) for x in range(4)]
            tables[AG5_TABLE_NUMBERS[slope][c]] = tuple(pts)
        rounds.append(tuple(tables))
    return Construction(tuple(rounds), tuple(p // 4 for p in range(16)), "AG(2,4)", False)


def best_construction(
    n_tables: int, rounds: int, *, tables_first: bool = True
) -> Construction | None:
    """A repeat-free plan for ``rounds`` rounds at ``n_tables`` tables if a construction
    gives one: table-reuse-free, or else one whose tables are numbered afterwards (AG(2,4),
    the cyclic designs). With ``tables_first`` a cyclic design is used only when rounds >
    tables: at rounds <= tables (24 x 6) its groups cannot be numbered without table
    revisits, and a search that keeps tables fresh does better on repeats."""
    if rounds <= 0:
        return None
    if n_tables == 4 and rounds <= 5:
        full = affine_plane_16()
        return Construction(full.rounds[:rounds], full.slot_class, full.name, rounds <= 1)
    if rounds <= n_tables:
        found = difference_construction(n_tables, rounds)
        if found is not None:
            return found
        stored = stored_matrix(n_tables, rounds)
        if stored is not None and len(stored[1]) == rounds:
            group, rows = stored
            return _from_matrix(group.order, 1, group.add, group.neg, rows, group.name)
        if stored is None and n_tables >= 5:
            k = _cyclic_rows(n_tables, rounds)
            if len(k) == rounds:
                z = Group((n_tables,))
                return _from_matrix(n_tables, 1, z.add, z.neg, k, z.name)
    stored = stored_design_rounds(n_tables, rounds)
    if stored is not None:
        n_players = 4 * n_tables
        slot_class = tuple(4 * s // n_players for s in range(n_players))
        return Construction(stored, slot_class, f"stored design ({n_players} players)")
    if tables_first and rounds <= n_tables:
        return None
    return _rotational(n_tables, rounds)


def _rotational(n_tables: int, rounds: int) -> Construction | None:
    n_players = 4 * n_tables
    planned = rotational_rounds(n_players, rounds)
    if planned is None:
        return None
    # Seat classes only guide where teams are packed; the team relabelling then measures
    # real meetings (a cyclic design has no four classes that never meet).
    slot_class = tuple(4 * s // n_players for s in range(n_players))
    numbered, fair = number_tables(planned, n_tables)
    name = f"cyclic design Z_{BASE_ROUNDS[n_players][0]}"
    rounds_ = tuple(tuple(tables) for tables in numbered)
    return Construction(rounds_, slot_class, name, table_reuse_free=fair)


def _best_rows(n_tables: int, rounds: int) -> tuple[int, list, list, list, bool]:
    """The longest difference matrix we can get quickly, over a group G of order Q with
    T = Q·m: (Q, rows, G's addition table, G's negation, complete?). A complete matrix
    (GF(Q), or a stored one) is not extended by the Latin completion of partial_start."""
    z = Group((n_tables,))
    best: tuple[int, list, list, list, bool] = (n_tables, [(0, 0, 0, 0)], z.add, z.neg, False)
    for q in range(5, n_tables + 1):
        if n_tables % q == 0 and prime_power(q):
            f = GaloisField(q)
            rows = [tuple(f.mul(e, ai) for ai in (1, 2, 3, 4)) for e in range(min(q, rounds))]
            if len(rows) > len(best[1]):
                best = (q, rows, f.add_table, f.neg, True)
    stored = stored_matrix(n_tables, min(rounds, n_tables))
    if stored is not None and len(stored[1]) > len(best[1]):
        group, rows = stored
        # Over Z_T the Latin completion (arithmetic mod T) may still add rounds.
        cyclic = group.factors == (n_tables,)
        best = (group.order, rows, group.add, group.neg, not cyclic)
    if stored is None and len(best[1]) < min(rounds, n_tables) and n_tables >= 5:
        rows = _cyclic_rows(n_tables, rounds)
        if len(rows) > len(best[1]):
            best = (n_tables, rows, z.add, z.neg, False)
    return best


def extended_design(n_tables: int, rounds: int, rng: random.Random) -> Construction | None:
    """A second start for the search beyond the tables (rounds > tables): the longest
    cyclic or stored design with fewer rounds, then its rounds again (see _extended), if it
    has more rounds than a difference matrix gives partial_start. Its groups are repeat-free
    up to the design's length, but they may not all fit a fair table numbering, so the
    planner searches from both starts."""
    if rounds <= n_tables or n_tables < 5:
        return None
    design = _longest_design(n_tables, rounds)
    if design is None or len(design.rounds) <= len(_best_rows(n_tables, rounds)[1]):
        return None
    return _extended(design, rounds, rng)


def _longest_design(n_tables: int, rounds: int) -> Construction | None:
    """The cyclic or stored repeat-free design with the most rounds, fewer than ``rounds``."""
    candidates: list[Construction] = []
    stored = STORED_DESIGNS.get(4 * n_tables)
    if stored is not None:
        found = stored_design_rounds(n_tables, min(rounds - 1, len(stored[0])))
        if found is not None:
            slot_class = tuple(s // n_tables for s in range(4 * n_tables))
            candidates.append(Construction(found, slot_class, "stored design", False))
    cyclic = BASE_ROUNDS.get(4 * n_tables)
    if cyclic is not None:
        found_rounds = rotational_rounds(4 * n_tables, min(rounds - 1, cyclic[0]))
        if found_rounds is not None:
            slot_class = tuple(s // n_tables for s in range(4 * n_tables))
            rounds_ = tuple(tuple(tables) for tables in found_rounds)
            candidates.append(Construction(rounds_, slot_class, "cyclic design", False))
    return max(candidates, key=lambda c: len(c.rounds), default=None)


def _extended(design: Construction, rounds: int, rng: random.Random) -> Construction:
    """``design`` followed by its own rounds again, each pass under a new random relabelling
    of the players: the added rounds repeat no meeting among themselves within a pass, and
    where the design already made every pair meet (AG(2,4), a resolvable BIBD) no round
    can do better."""
    n = len(design.slot_class)
    out = list(design.rounds)
    while len(out) < rounds:
        relabel = list(range(n))
        rng.shuffle(relabel)
        for rnd in design.rounds[: rounds - len(out)]:
            out.append(tuple(tuple(relabel[s] for s in table) for table in rnd))
    return Construction(tuple(out[:rounds]), design.slot_class, f"{design.name} extended", False)


def partial_start(n_tables: int, rounds: int, rng: random.Random) -> Construction:
    """A starting plan for the search when no construction covers all rounds.

    As many repeat-free rounds as a difference matrix gives; then, while rounds <= tables,
    rounds that keep every slot at a new table (each class takes table shifts it has not had
    yet); beyond that, rounds that seat classmates together (they have never met)."""
    if n_tables < 4:
        slots = list(range(4 * n_tables))
        out = []
        for _ in range(rounds):
            rng.shuffle(slots)
            out.append(tuple(tuple(slots[4 * t : 4 * t + 4]) for t in range(n_tables)))
        return Construction(
            tuple(out), tuple(s // n_tables for s in range(4 * n_tables)), "random", False
        )
    if n_tables == 4:
        # AG(2,4) has every pair meet once, so any round after its five adds 24 repeats.
        return _extended(affine_plane_16(), rounds, rng)
    q, rows, add, neg, complete = _best_rows(n_tables, rounds)
    m = n_tables // q
    rows = list(rows)
    # Latin completion: each class gets shifts it has not used, avoiding used differences.
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
    while not complete and len(rows) < min(rounds, q):
        used = [{row[i] for row in rows} for i in range(4)]
        diffs = {(i, j): {(row[j] - row[i]) % q for row in rows} for i, j in pairs}
        best_row, best_bad = None, None
        for _ in range(200):
            cand = tuple(rng.choice([v for v in range(q) if v not in used[i]]) for i in range(4))
            bad = sum((cand[j] - cand[i]) % q in diffs[(i, j)] for i, j in pairs)
            if best_bad is None or bad < best_bad:
                best_row, best_bad = cand, bad
        rows.append(best_row)
    base = _from_matrix(q, m, add, neg, rows, "partial")
    out = list(base.rounds)
    # Beyond: classmates together (slots of one class have never met).
    while len(out) < rounds:
        members = [[s for s in range(4 * n_tables) if base.slot_class[s] == c] for c in range(4)]
        pool: list[int] = []
        for mem in members:
            rng.shuffle(mem)
            pool.extend(mem)
        out.append(tuple(tuple(pool[4 * t : 4 * t + 4]) for t in range(n_tables)))
    return Construction(tuple(out[:rounds]), base.slot_class, "partial", False)
