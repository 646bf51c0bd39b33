"""The second, independent method for placement values: alpha-beta search.

``PlacementSearch`` holds the movement-phase value planes of a variant in memory (2 bits per
slot) and searches the placement phase down to the end of placement, where it looks the result
up. It needs no placement databases, which makes it the cheaper route to the value of the start
position of the standard game; the placement sweep (placement.py) must agree with it.
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np

from ..format.fileformat import TableFile
from ..database.folders import file_in, file_path, open_checked
from ..core.codes import NAME_OF_SCORE, SCORE_OF_CODE
from ..core.errors import MissingSubspaceError, UnsupportedRulesError
from ..hashing.games import game_of
from ..hashing.index import Hasher
from ..hashing.subspaces import movement_subspaces
from ..core.position import Position
from ..core.progress import Reporter
from ..core.threads import run_tasks

VALUES = NAME_OF_SCORE  # score -> value name


class PlacementSearch:
    """Alpha-beta over placement with movement-phase lookups. ``tt_bits``: log2 of the
    transposition table's entries (16 bytes each: 256 MiB at the default 24)."""

    def __init__(self, db, variant, tt_bits: int = 24, reporter: Reporter | None = None):
        rep = reporter or Reporter(quiet=True)
        if game_of(variant).hand_pairs:
            raise UnsupportedRulesError(
                f"the placement search is over a placement phase without cycles; under "
                f"{variant.name}'s place-or-move turn a move keeps the counts: solve the hand "
                f"subspaces instead (morris solve --phase all)")
        self.variant = variant
        self.hasher = Hasher(variant.board)
        n = variant.board.n
        self.hasher.orbits(range(0, min(n, 2 * variant.pieces) + 1))
        subs = movement_subspaces(variant)
        paths = []
        for s in subs:
            path = file_path(db, variant, s)
            if not os.path.exists(path):
                raise MissingSubspaceError(
                    f"the search needs the movement subspace {s} ({path} is missing; "
                    f"solve it with: morris solve --out {db} {variant.cli_flags()})"
                )
            paths.append(path)
        # one buffer for every plane, each file decompressed into its place by a pool of
        # threads (zstd releases the GIL): no joined copy, the cores share the work
        sizes = []
        for path, s in zip(paths, subs):
            with open_checked(path, variant, s) as tf:  # (the one gate: rules, subspace, kind)
                sizes.append((tf.slots + 3) // 4)
        off = np.zeros((16, 16), dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        for s, start in zip(subs, starts):
            off[s.m, s.o] = start
        buf = np.empty(int(starts[-1]), dtype=np.uint8)

        order = sorted(range(len(paths)), key=lambda k: -sizes[k])  # (the largest first)
        done = threading.Lock()

        def load(t):
            k = order[t]
            with TableFile(paths[k]) as tf:  # straight into its place: no copy
                tf.bulk_into("wdl", buf[starts[k]:starts[k + 1]])
            with done:
                bar.update(1)

        with rep.bar(total=len(subs), desc="load movement values", unit="subspace") as bar:
            run_tasks(len(order), load, max(1, min(8, os.cpu_count() or 1)))
        self.mv_packed = buf
        self.mv_off = off
        self.tt_keys = np.full(1 << tt_bits, -1, dtype=np.int64)
        self.tt_vals = np.zeros(1 << tt_bits, dtype=np.int64)
        self.stats = np.zeros(3, dtype=np.int64)

    def value(self, pos: Position) -> int:
        """+1 win, 0 draw, -1 loss for the side to move."""
        from ..kernels.search import leaf_value, search  # (lazy: imports numba)

        if pos.variant.board != self.variant.board or pos.variant.rules != self.variant.rules:
            raise ValueError(f"a search over {self.variant.name} asked for a position of "
                             f"{pos.variant.name}")  # a bug of the caller's (tablebase keys)
        end = pos.outcome()
        if end is not None:
            return SCORE_OF_CODE[end]
        T = self.hasher.tables
        Ob = self.hasher.orbits(range(0, min(T.n, 2 * self.variant.pieces) + 1))
        if not pos.in_placement:
            return int(leaf_value(T, Ob, pos.mover, pos.opponent, self.mv_packed, self.mv_off))
        return int(search(T, Ob, game_of(self.variant).args, pos.mover, pos.opponent,
                          pos.mover_hand, pos.opponent_hand, self.mv_packed, self.mv_off,
                          self.tt_keys, self.tt_vals, self.stats))

    @property
    def nodes(self) -> int:
        return int(self.stats[0])


def start_value_by_search(db, variant, reporter=None) -> dict:
    t0 = time.perf_counter()
    s = PlacementSearch(db, variant, reporter=reporter)
    t1 = time.perf_counter()
    v = s.value(Position.start(variant))
    t2 = time.perf_counter()
    return {
        "value": VALUES[v], "method": "search", "nodes": s.nodes, "leaves": int(s.stats[1]),
        "tt_hits": int(s.stats[2]), "load_seconds": t1 - t0, "search_seconds": t2 - t1,
    }


def search_key(variant) -> tuple:
    """What a placement search's answers depend on: the rules (board and every option) and the
    piece count, which sets the movement subspaces it loads (``standard-3`` .. ``standard-8``
    share a ruleset but not a search: one loaded for 3 pieces knows nothing of 4-4)."""
    return (variant.ruleset_id, variant.pieces)


class SearchFallback:
    """The placement search behind a tablebase, its whole interface: ``get`` (the search of a
    variant, loaded once per :func:`search_key` over the first directory of ``files`` that
    holds all its movement files; None where none does), ``value`` (a position's value by
    search; None without a search), ``prepare`` (load in a background thread), ``loaded`` and
    ``load_seconds``. Thread-safe: loads and searches run one at a time (a search uses one
    transposition table)."""

    def __init__(self, files):
        self.files = files  # lookups.files.FileCache
        self._searches = {}
        self._seconds = {}
        self._lock = threading.Lock()

    def loaded(self, variant) -> bool:
        return search_key(variant) in self._searches

    def load_seconds(self, variant) -> float:
        return self._seconds.get(search_key(variant), 0.0)

    def get(self, variant) -> "PlacementSearch | None":
        key = search_key(variant)
        if key in self._searches:
            return self._searches[key]
        with self._lock:
            if key in self._searches:
                return self._searches[key]
            found = None
            t = time.perf_counter()
            subs = movement_subspaces(variant)
            dirs = [] if game_of(variant).hand_pairs else self.files.directories(variant)
            for d in dirs:  # (no search over the place-or-move turn's cycles)
                if all(os.path.exists(file_in(d, s)) for s in subs):
                    found = PlacementSearch(os.path.dirname(d), variant)
                    break
            self._seconds[key] = time.perf_counter() - t
            self._searches[key] = found
            return found

    def prepare(self, variant) -> threading.Thread:
        t = threading.Thread(target=self.get, args=(variant,), daemon=True, name="morris-search-load")
        t.start()
        return t

    def value(self, position: Position) -> str | None:
        s = self.get(position.variant)
        if s is None:
            return None
        with self._lock:
            return VALUES[s.value(position)]
