"""Prove that at most 18 permutations of six agree pairwise in at most one place: M(6, 5) = 18.

    python bench/designs/permutation_code_6_5.py            # lengths 2 to 6; about 10 s
    python bench/designs/permutation_code_6_5.py --length 6

Why: with T tables, T rounds and nobody at a table twice, each player's tables are a
permutation of the T tables and two players meet as often as their permutations agree.
Players who pairwise meet at most once are therefore a permutation code of length T and
minimum distance T − 1, and its largest size M(T, T − 1) bounds them. Among 24 players at
6 tables, if at most 18 can pairwise meet at most once, the pairs meeting twice or more
leave no 19 players free of them, so there are at least 6 such pairs (24 players in 18
classes as evenly as possible: 6 pairs), hence at least 6 repeats in any 24 × 6 plan with
no table reused (metrics.PERMUTATION_CODES, metrics.repeat_lower_bound). Kløve (2000) gives
M(6, 5) = 18; this script checks it rather than citing it, and the smaller lengths too.

How: two permutations x, y agree in as many places as x⁻¹y has fixed points. Replacing
every word x by a·x·b (a, b fixed) or every x by x⁻¹ keeps the cycle type of each x⁻¹y,
so a code may be moved so that it contains the identity; and if its pair with the "least"
cycle type (in a fixed order of the types with at most one fixed point) is (u, v), moving u
to the identity and conjugating puts the representative σ of that type in the code, with
every pair of the code of that type or a later one. So for each type in turn the search
looks for a clique in the graph on the permutations compatible, with types no earlier, with
the identity, with σ and with each other. The maps above that keep {identity, σ} (a few
dozen to 192 of them) move cliques onto cliques: the third word is taken as the first
element, in the search order, of each orbit of those maps, and a whole orbit is dropped once
searched (a clique meeting it first there is moved onto one through its first element). The
rest is a max-clique branch and bound over int bitsets, pruned by a greedy colouring (each
colour class holds at most one word of a clique; Tomita's MCQ). For each length it searches
for codes of size 3, 4, … until none exists: the last size found is M, printed with a code
of that size (checked pair by pair) and the search effort for M + 1.

Pure Python, no dependency; it only reads seating.engine.metrics to compare the table there.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from seating.engine.metrics import PERMUTATION_CODES  # noqa: E402

Perm = tuple[int, ...]


def compose(a: Perm, b: Perm) -> Perm:
    """a·b: first b, then a."""
    return tuple(a[i] for i in b)


def inverse(p: Perm) -> Perm:
    out = [0] * len(p)
    for i, x in enumerate(p):
        out[x] = i
    return tuple(out)


def cycle_type(p: Perm) -> tuple[int, ...]:
    seen = [False] * len(p)
    lengths = []
    for start in range(len(p)):
        length = 0
        x = start
        while not seen[x]:
            seen[x] = True
            x = p[x]
            length += 1
        if length:
            lengths.append(length)
    return tuple(sorted(lengths, reverse=True))


def agreements(a: Perm, b: Perm) -> int:
    return sum(x == y for x, y in zip(a, b, strict=True))


class Graph:
    """Permutations of ``length``; ``rank[i][j]`` is the position of the cycle type of
    perms[i]⁻¹·perms[j] among the types with at most one fixed point (−1 if more)."""

    def __init__(self, length: int) -> None:
        self.perms = list(itertools.permutations(range(length)))
        index = {p: i for i, p in enumerate(self.perms)}
        # Types with a fixed point last: their pairs are the rarest, so the restricted
        # searches come last.
        self.types = sorted(
            {cycle_type(p) for p in self.perms if cycle_type(p).count(1) <= 1},
            key=lambda t: (t.count(1), t),
        )
        of_type = {t: k for k, t in enumerate(self.types)}
        type_rank = [of_type.get(cycle_type(p), -1) for p in self.perms]
        inverses = [inverse(p) for p in self.perms]
        self.rank = [
            [type_rank[index[compose(inverses[i], q)]] for q in self.perms]
            for i in range(len(self.perms))
        ]
        self.index = index

    def symmetries(self, sigma: int) -> list[list[int]]:
        """The maps x -> a·x·b and x -> a·x⁻¹·b that keep {identity, perms[sigma]}, as
        permutations of the indices."""
        identity = self.perms[0]
        s = self.perms[sigma]
        ends = {identity, s}
        maps = []
        for a in self.perms:
            a_inv = inverse(a)
            for b in (a_inv, compose(a_inv, s)):
                for invert in (False, True):

                    def image(x: Perm, a: Perm = a, b: Perm = b, invert: bool = invert) -> Perm:
                        return compose(compose(a, inverse(x) if invert else x), b)

                    if {image(identity), image(s)} == ends:
                        maps.append([self.index[image(p)] for p in self.perms])
        return maps


class Search:
    """Clique search over ``adjacency`` (int bitsets); counts the nodes it visits."""

    def __init__(self, adjacency: Sequence[int]) -> None:
        self.adjacency = adjacency
        self.nodes = 0

    def clique(self, candidates: int, size: int) -> list[int] | None:
        """A clique of ``size`` vertices among ``candidates``, or None."""
        if size <= 0:
            return []
        return self._expand(candidates, 0, [], size)

    def _expand(self, candidates: int, depth: int, chosen: list[int], size: int):
        self.nodes += 1
        adjacency = self.adjacency
        order: list[int] = []
        colours: list[int] = []
        uncoloured = candidates
        colour = 0
        while uncoloured:
            colour += 1
            free = uncoloured
            while free:
                low = free & -free
                v = low.bit_length() - 1
                free &= ~adjacency[v] & ~low
                uncoloured &= ~low
                order.append(v)
                colours.append(colour)
        for k in range(len(order) - 1, -1, -1):
            if depth + colours[k] < size:
                return None
            v = order[k]
            if depth + 1 == size:
                return [*chosen, v]
            found = self._expand(candidates & adjacency[v], depth + 1, [*chosen, v], size)
            if found is not None:
                return found
            candidates &= ~(1 << v)
        return None


@dataclass(frozen=True)
class Level:
    """The search for codes whose pairs all have type ``level`` or a later one and which
    contain the identity and ``sigma``, the first word of type ``level``."""

    sigma: int
    words: list[int]  # the other candidates, highest degree first
    adjacency: list[int]  # bitsets over ``words``
    orbits: list[tuple[int, int]]  # (first word's bit, bitset of its orbit), in search order


def level_search(graph: Graph, level: int) -> Level:
    rank = graph.rank
    sigma = rank[0].index(level)
    words = [
        x
        for x in range(1, len(graph.perms))
        if x != sigma and rank[0][x] >= level and rank[sigma][x] >= level
    ]
    # High degree first: the colouring then packs the dense part into few colours.
    degree = {x: sum(rank[x][y] >= level for y in words) for x in words}
    words.sort(key=lambda x: (-degree[x], x))
    bit = {x: k for k, x in enumerate(words)}
    adjacency = [sum(1 << bit[y] for y in words if y != x and rank[x][y] >= level) for x in words]
    maps = graph.symmetries(sigma)
    orbit_of: dict[int, int] = {}
    for x in words:
        if x not in orbit_of:
            for m in maps:
                orbit_of.setdefault(m[x], x)
    assert set(orbit_of) == set(words), "a symmetry left the candidates"
    orbits: dict[int, int] = {}
    for x, first in orbit_of.items():
        orbits[bit[first]] = orbits.get(bit[first], 0) | 1 << bit[x]
    return Level(sigma, words, adjacency, sorted(orbits.items()))


def find_code(graph: Graph, levels: list[Level], size: int) -> tuple[list[Perm] | None, int]:
    """A code of ``size`` words of distance ≥ length − 1 (None if there is none) and the
    search nodes spent."""
    if size <= 2:
        # The identity and a word of the first type.
        return [graph.perms[0], graph.perms[levels[0].sigma]][:size], 0
    nodes = 0
    for level in levels:
        search = Search(level.adjacency)
        remaining = (1 << len(level.words)) - 1
        for first, orbit in level.orbits:
            rest = search.clique(remaining & level.adjacency[first], size - 3)
            if rest is not None:
                found = [0, level.sigma, level.words[first], *(level.words[k] for k in rest)]
                return [graph.perms[x] for x in found], nodes + search.nodes
            remaining &= ~orbit
        nodes += search.nodes
    return None, nodes


def largest_code(length: int) -> tuple[int, list[Perm], int]:
    """(M(length, length − 1), a code of that size, nodes spent showing there is no larger)."""
    graph = Graph(length)
    levels = [level_search(graph, level) for level in range(len(graph.types))]
    best: list[Perm] = graph.perms[:1]
    for size in itertools.count(2):
        code, nodes = find_code(graph, levels, size)
        if code is None:
            return size - 1, best, nodes
        assert len(set(code)) == size
        assert all(agreements(a, b) <= 1 for a, b in itertools.combinations(code, 2))
        best = code
    raise AssertionError("unreachable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, action="append", help="default: 2 to 6")
    lengths = parser.parse_args().length or [2, 3, 4, 5, 6]
    for length in lengths:
        started = time.monotonic()
        m, code, nodes = largest_code(length)
        seconds = time.monotonic() - started
        print(
            f"M({length},{length - 1}) = {m}: no code of {m + 1} ({nodes} search nodes), "
            f"{seconds:.1f} s; a code of {m}:"
        )
        for word in code:
            print("   ", " ".join(map(str, word)))
        stored = PERMUTATION_CODES.get(length)
        if stored is not None:
            print(
                f"    metrics.PERMUTATION_CODES[{length}] = {stored}: "
                + ("agrees" if stored == m else "DISAGREES")
            )
            if stored != m:
                sys.exit(1)


if __name__ == "__main__":
    main()
