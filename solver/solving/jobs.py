"""Units of solving work: a movement pair, or a placement subspace.

Under a no-removal limit (limits.py) every job has an unlimited twin (``unlimited=True``: the
same subspaces under the rules without the limit, in their own directory), which it reads to
tell cursed wins and blessed losses from draws.

A job names the subspaces it writes, the jobs whose files it reads (``inputs``), how heavy it is
(``weight``: positions; ``memory``: bytes at its peak) and how to do it (``run``: read the input
files, solve, write the files atomically). The scheduler (schedule.py) only ever calls these,
so it never asks what kind of job it holds; a new kind of job is one new class here.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import numpy as np

from ..core.codes import UNUSED
from ..format.fileformat import (DRAWS_LEVEL, FAST_LEVEL, SELECT_LEVEL, TableFile, check_file,
                                 write_distance_table, write_planes, write_pruned_dtw, write_table)
from ..database.folders import (draws_header, dtw_header, file_fields, file_path, read_draws,
                                read_planes, ruleset_dir, stored_values, table_header)
from ..hashing.index import Hasher, count_positions, shared_hasher
from ..core.progress import Reporter
from ..hashing.games import DRAWS, DTW, VALUES, game_of
from ..hashing.subspaces import Subspace, pair_key
from .curse import curse_plane
from .placement import evaluate, load_children, side_plane_of, side_planes_of
from .prune import pruned_beside, read_full_dtw
from ..core.draws import pair_ranks


@dataclass(frozen=True)
class Job:
    """A job writes the files of ``subspaces``; see the module docstring."""

    sub: Subspace
    unlimited: bool = False  # the twin without the no-removal limit, of a limited solve
    #: its dtw files are pruned when the solve ends (schedule.soon_pruned): written first at
    #: zstd's FAST_LEVEL, each with its pruned file beside it (prune.py; not part of the job's
    #: identity)
    fast_dtw: bool = field(default=False, compare=False)

    @property
    def name(self) -> str:
        return "/".join(s.name for s in self.subspaces) + (" (no limit)" if self.unlimited else "")

    @property
    def dtw_level(self) -> int:
        """zstd's level for the dtw files it writes (``fast_dtw``)."""
        return FAST_LEVEL if self.fast_dtw else SELECT_LEVEL

    def write_dtw(self, path, hdr, plane, anchors, stored, used) -> None:
        """Write a dtw file at ``dtw_level`` and, with ``fast_dtw``, the pruned file beside it
        (prune.pruned_beside), which the pruning at the solve's end takes instead of reading the
        whole file back."""
        write_distance_table(path, hdr, "dtw", plane, anchors, stored, used, self.dtw_level)
        if self.fast_dtw:
            write_pruned_dtw(pruned_beside(path), hdr, plane, anchors, stored, used)

    def writes_variant(self, variant):
        """The variant whose directory this job writes: without the limit for a twin."""
        return variant.unlimited if self.unlimited else variant

    def twin(self) -> "Job":
        """This job without the no-removal limit."""
        return type(self)(self.sub, unlimited=True)

    def _own(self, variant, jobs: list) -> list:
        """This job's inputs: ``jobs`` (the same subspaces' jobs) under this job's rules (the
        twins' inputs are twins), and, for a job of limited rules, its own twin, whose files
        it reads for the curse plane."""
        if self.unlimited:
            return [j.twin() for j in jobs]
        return jobs + ([self.twin()] if variant.limited else [])

    def curse_of(self, out, variant, sub, values):
        """(curse plane, (cursed wins, blessed losses)) of ``sub``'s values under the limit,
        from the twin's file; (None, None) for unlimited rules."""
        if not variant.limited or self.unlimited:
            return None, None

        unlimited = read_planes(file_path(out, variant.unlimited, sub), with_dtc=False)[0]
        plane, cw, bl = curse_plane(values, unlimited, sub.name)
        return plane, (cw, bl)

    @property
    def subspaces(self) -> tuple:
        return (self.sub,)

    @property
    def sort_key(self):
        return (self.order, self.sub, not self.unlimited)

    def __str__(self):
        return self.name

    def inputs(self, variant) -> list["Job"]:
        raise NotImplementedError

    def input_subspaces(self, variant) -> list[Subspace]:
        raise NotImplementedError

    def run(self, out, variant, reporter: Reporter | None = None, hasher: Hasher | None = None) -> int:
        """Solve the job from its input files and write its files; returns its positions (a job
        that ``reads_handoff`` also takes ``handoff=``: handoff.py)."""
        raise NotImplementedError

    #: whether ``run`` takes ``handoff`` (handoff.py): planes kept in memory by the job before
    reads_handoff = False

    def handoff_paths(self, out, variant) -> list:
        """The files whose kept planes ``run`` may take from a handoff (none)."""
        return []

    def files(self, out, variant) -> list[tuple[str, dict]]:
        """(path, the header fields it must hold) of every file the job writes."""
        v = self.writes_variant(variant)
        return [(file_path(out, v, s), file_fields(v, s)) for s in self.subspaces]

    def file_problems(self, out, variant) -> list[tuple[str, str | None]]:
        """(path, what is wrong with it or None) of every file the job writes: it must be
        complete, of the job's rules, subspace and kind, and its checksum must match (a resume
        trusts nothing else). Each file is read once."""
        return [(path, check_file(path, want)) for path, want in self.files(out, variant)]

    def done(self, out, variant) -> bool:
        """Whether every file of the job is sound (:meth:`file_problems`)."""
        return all(why is None for _, why in self.file_problems(out, variant))

    @staticmethod
    def set_aside(problems) -> list[str]:
        """Rename every file of ``problems`` (:meth:`file_problems`) that exists but is not one
        the job would write (damaged, foreign: other rules, subspace or kind) to
        ``NAME.set-aside``, so that nothing reads it and the job's new file does not silently
        replace it; returns what was done, a line each."""
        said = []
        for path, why in problems:
            if why is None or not os.path.lexists(path):
                continue
            aside = path + ".set-aside"
            os.replace(path, aside)
            said.append(f"set aside {why} (now {os.path.basename(aside)}); it is solved again")
        return said

    def weight(self, variant) -> int:
        board = variant.board
        return sum(count_positions(board, s.m, s.o) for s in self.subspaces)

    #: bytes at the job's peak per slot of its own and per slot of what it reads (measured for
    #: the values solve; the others from their arrays), plus the interpreter and tables
    own_bytes, read_bytes = 3, 2

    def memory(self, variant) -> int:
        """Bytes the job needs at its peak."""
        h = shared_hasher(variant.board)
        own = sum(h.slots(s) for s in self.subspaces)
        reads = sum(h.slots(c) for c in self.input_subspaces(variant))
        return int(self.own_bytes * own + self.read_bytes * reads + 400e6)


def _pair_jobs(kind: str, variant, top: Subspace) -> list:
    """The jobs of ``kind`` that write the files the pair of ``top`` reads (games.pair_inputs:
    a movement pair's removals, a hand pair's exits), each once."""
    out = []
    for c in game_of(variant).pair_inputs(top):
        j = pair_job(kind, c)
        if j not in out:
            out.append(j)
    return out


@dataclass(frozen=True)
class MovementPair(Job):
    """The movement subspaces (m, o) and (o, m), solved together by retrograde analysis
    (retro.py); named by the top subspace of the pair. A hand pair (:class:`HandPair`) is the
    same job over subspaces with pieces in hand: the game (games.py) says where either leads."""

    order = 0

    @property
    def subspaces(self) -> tuple:
        return self.sub.pair

    def inputs(self, variant) -> list[Job]:
        return self._own(variant, _pair_jobs(VALUES, variant, self.sub))

    def input_subspaces(self, variant) -> list[Subspace]:
        return game_of(variant).pair_inputs(self.sub)

    def run(self, out, variant, reporter=None, hasher=None) -> int:
        return sum(h["positions"] for h in self.solve(out, variant, reporter, hasher)["stats"].values())

    def child_planes(self, out, variant):
        """The value planes the solve reads: {subspace: plane}, every one at once."""
        return {c: read_planes(file_path(out, variant, c), with_dtc=False)[0]
                for c in self.input_subspaces(variant)}

    def solve(self, out, variant, reporter=None, hasher=None) -> dict:
        """``run``, returning per-subspace headers, phase seconds and levels (for benchmarks)."""
        from .retro import solve_pair  # (lazy: imports numba)

        rep = reporter or Reporter(quiet=True)
        hasher = hasher or Hasher(variant.board)
        variant = self.writes_variant(variant)
        os.makedirs(ruleset_dir(out, variant), exist_ok=True)
        t0 = time.perf_counter()
        children = self.child_planes(out, variant)
        t_load = time.perf_counter() - t0
        limit = game_of(variant).limit(self.sub)
        result = solve_pair(variant, self.sub, children, hasher, rep, limit=limit)
        del children
        t0 = time.perf_counter()
        stats = {}
        for sub in self.subspaces:
            values, dtc = result.values[sub], result.dtc[sub]
            curse, counts = self.curse_of(out, variant, sub, values)
            hdr = table_header(variant, sub, hasher, values, dtc, counts)
            write_table(file_path(out, variant, sub), hdr, values, dtc, hasher.anchor_reps(sub.o),
                        curse)
            stats[sub] = hdr
        seconds = dict(result.seconds, load=t_load, write=time.perf_counter() - t0)
        return {"pair": self.sub, "stats": stats, "seconds": seconds, "levels": result.levels}


@dataclass(frozen=True)
class PlacementSubspace(Job):
    """One placement subspace, evaluated in one forward pass from the next layer's files
    (placement.py). With ``dtw`` (``draws``), the same pass also gives its dtw file (``.mtw``;
    its draw-value file, ``.mdv``) from the children's: its inputs are then those jobs too."""

    dtw: bool = False
    draws: bool = False
    order = 1

    @property
    def name(self) -> str:
        return (self.sub.name + (" +dtw" if self.dtw else "") + (" +draws" if self.draws else "")
                + (" (no limit)" if self.unlimited else ""))

    def inputs(self, variant) -> list[Job]:
        out = []
        for c in self.input_subspaces(variant):
            if c.placement:
                js = [PlacementSubspace(c, dtw=self.dtw, draws=self.draws)]
            else:
                js = ([MovementPair(pair_key(c))] + ([MovementDtw(pair_key(c))] if self.dtw else [])
                      + ([MovementDraws(pair_key(c))] if self.draws else []))
            out += [j for j in js if j not in out]
        return sorted(self._own(variant, out), key=lambda j: j.sort_key)

    def files(self, out, variant) -> list[tuple[str, dict]]:
        v = self.writes_variant(variant)
        return super().files(out, variant) + [
            (file_path(out, v, self.sub, kind), file_fields(v, self.sub, kind))
            for kind, on in (("dtw", self.dtw), ("draw", self.draws)) if on]

    def input_subspaces(self, variant) -> list[Subspace]:
        return game_of(variant).placement_inputs(self.sub)

    #: reads the planes the job before it kept (handoff.py; schedule.run_job passes them)
    reads_handoff = True

    def handoff_paths(self, out, variant) -> list:
        """The files whose kept planes the job takes from a handoff: its children's values."""
        v = self.writes_variant(variant)
        return [file_path(out, v, c) for c in self.input_subspaces(v)]

    def run(self, out, variant, reporter=None, hasher=None, handoff=None) -> int:
        """Solve the subspace; ``handoff`` (handoff.Handoff): where a child's plane may be
        kept by the job before (taken instead of read) and where this job keeps its own."""
        hasher = hasher or Hasher(variant.board)
        variant = self.writes_variant(variant)
        os.makedirs(ruleset_dir(out, variant), exist_ok=True)
        path = file_path(out, variant, self.sub)
        # a side file already complete is kept (``--dtw --draws`` over a database with dtw
        # sweeps for the draw values alone)
        want_dtw = self.dtw and check_file(file_path(out, variant, self.sub, "dtw"),
                                           file_fields(variant, self.sub, "dtw")) is not None
        want_draws = self.draws and check_file(file_path(out, variant, self.sub, "draw"),
                                               file_fields(variant, self.sub, "draw")) is not None
        if not (want_dtw or want_draws):
            planes = load_children(out, variant, self.sub, handoff)
            vals, dtc = evaluate(variant, self.sub, planes, hasher, reporter=reporter)
            del planes
            positions = self._write_values(out, variant, hasher, vals, dtc)
            if handoff is not None:
                handoff.keep(path, "values", (vals, dtc))
            return positions
        form = ("side", want_dtw, want_draws)
        kept = {}
        for c in self.input_subspaces(variant) if handoff is not None else ():
            plane = handoff.take(file_path(out, variant, c), form)
            if plane is not None:
                kept[c] = plane
        planes = load_children(out, variant, self.sub, handoff, skip=kept)
        side = side_planes(out, variant, planes, want_dtw, want_draws)
        side["sides"].planes.update(kept)
        del kept
        vals, dtc, *extra = evaluate(variant, self.sub, planes, hasher, reporter, **side,
                                     release=True)
        wout = extra.pop(0) if want_dtw else None
        vout = extra.pop(0) if want_draws else None
        del planes, side, extra
        if check_file(path, file_fields(variant, self.sub)) is not None:
            self._write_values(out, variant, hasher, vals, dtc)
        stored = stored_values(path)  # (a file's unused slots hold a neighbour's value)
        used = vals != UNUSED
        if not _same_where(vals, stored, used):  # values kept from before: the same
            raise RuntimeError(f"{self.sub}: the sweep gives other values than its file")
        anchors = hasher.anchor_reps(self.sub.o)
        if want_dtw:
            hdr = dtw_header(variant, self.sub, vals, wout)
            self.write_dtw(file_path(out, variant, self.sub, "dtw"), hdr, wout, anchors, stored, used)
        if want_draws:  # no cycles in placement: no draw distance (all 0)
            dd = np.zeros(len(vals), dtype=np.uint8)
            write_planes(file_path(out, variant, self.sub, "draw"), draws_header(variant, self.sub, vout, dd, None),
                         {"dv": vout, "dd": dd}, anchors, DRAWS_LEVEL, stored)
            del dd
        if handoff is not None:  # (its files written: the writers' arrays let go first)
            del stored, used
            handoff.keep(path, form, side_plane_of(vals, dtc, vout, wout))
        return count_positions(variant.board, self.sub.m, self.sub.o)

    def _write_values(self, out, variant, hasher, vals, dtc) -> int:
        curse, counts = self.curse_of(out, variant, self.sub, vals)
        hdr = table_header(variant, self.sub, hasher, vals, dtc, counts)
        write_table(file_path(out, variant, self.sub), hdr, vals, dtc,
                    hasher.anchor_reps(self.sub.o), curse)
        return hdr["positions"]


def side_planes(out, variant, planes: dict, dtw: bool, draws: bool) -> dict:
    """``placement.evaluate``'s ``sides`` argument (``{"sides": placement.Sides}``), as asked:
    every child of ``planes`` (``placement.load_children``'s, moved out of it) with its whole
    dtw plane and its stored draw values, from the files under ``out``, read with its values."""

    def read_dtw(c, values, lane):
        read_full_dtw(file_path(out, variant, c, "dtw"), values, out=lane)

    def read_dv(c, values, lane):
        read_draws(file_path(out, variant, c, "draw"), values, distances=False, dv_out=lane)

    return {"sides": side_planes_of(planes, read_dtw if dtw else None, read_dv if draws else None)}


def _same_where(a: np.ndarray, b: np.ndarray, where: np.ndarray, chunk: int = 1 << 24) -> bool:
    """Whether ``a`` and ``b`` agree wherever ``where`` holds (a chunk at a time: no per-slot
    temporaries of the whole plane)."""
    for i in range(0, len(a), chunk):
        w = where[i: i + chunk]
        if not np.array_equal(a[i: i + chunk][w], b[i: i + chunk][w]):
            return False
    return True


@dataclass(frozen=True)
class _PairFiles(Job):
    """Files of a movement pair beside its values (``path``), computed from the pair's values
    and the same files of the pairs its removals lead to."""

    suffix = ""
    kind = ""  # the files' kind (folders.file_path)
    job_kind = ""  # the job kind (games.py; pair_job)

    @property
    def name(self) -> str:
        return "/".join(s.name for s in self.subspaces) + self.suffix

    @property
    def subspaces(self) -> tuple:
        return self.sub.pair

    def inputs(self, variant) -> list[Job]:
        return [pair_job(VALUES, self.sub)] + _pair_jobs(self.job_kind, variant, self.sub)

    def input_subspaces(self, variant) -> list[Subspace]:
        return game_of(variant).pair_inputs(self.sub)

    def files(self, out, variant) -> list[tuple[str, dict]]:
        return [(file_path(out, variant, s, self.kind), file_fields(variant, s, self.kind))
                for s in self.subspaces]


@dataclass(frozen=True)
class MovementDtw(_PairFiles):
    """The dtw files (``.mtw``: plies to the end of the game) of a movement pair, from the pair's
    values and the dtw files of the pairs its removals lead to (retro.solve_pair_dtw). Rules
    without a no-removal limit only: dtw is the distance of perfect play with no counter.
    About 5 bytes per slot of the pair (state, exit levels, values) and 1.5 per slot read (one
    part's child, 3 bytes a slot, at a time)."""

    order = 2
    suffix = " dtw"
    kind = "dtw"
    job_kind = DTW
    own_bytes, read_bytes = 5, 1.5

    def run(self, out, variant, reporter=None, hasher=None) -> int:
        from .retro import solve_pair_dtw  # (lazy: imports numba)

        hasher = hasher or Hasher(variant.board)

        def values(s):
            return stored_values(file_path(out, variant, s))

        def children(c):  # (values, dtw or dtw // 2, whether halved)
            v = values(c)
            return (v,) + read_full_dtw(file_path(out, variant, c, "dtw"), v, halved=True)

        planes = solve_pair_dtw(variant, self.sub, values, children, hasher, reporter)
        positions = 0
        for s in self.subspaces:
            stored = values(s)
            used = hasher.used_mask(s)
            vals = stored.copy()
            vals[~used] = UNUSED
            hdr = dtw_header(variant, s, vals, planes[s])
            del vals
            self.write_dtw(file_path(out, variant, s, "dtw"), hdr, planes[s], hasher.anchor_reps(s.o),
                           stored, used)
            positions += count_positions(variant.board, s.m, s.o)
        return positions


@dataclass(frozen=True)
class MovementDraws(_PairFiles):
    """The draw-value files (``.mdv``; docs/draws.md) of a movement pair, from the pair's values
    and the draw-value files of the pairs its removals lead to (retro.solve_pair_draws). Rules
    without a no-removal limit only. About 6 bytes per slot of the pair (state, exit keys, draw
    values, the values or draw distances) and 1 per slot read (one part's child, 2 bytes a slot,
    at a time)."""

    order = 3
    suffix = " draws"
    kind = "draw"
    job_kind = DRAWS
    own_bytes, read_bytes = 6, 1

    def loaders(self, out, variant) -> tuple:
        """(values, children, ranks, tallies): what ``retro.solve_pair_draws`` reads, from the
        files under ``out`` (the loaders read a file at each call; ranks and tallies come from
        the pair's values files' headers)."""
        headers = {}
        for s in self.subspaces:
            with TableFile(file_path(out, variant, s)) as tf:
                headers[s] = tf.header

        def values(s):
            return stored_values(file_path(out, variant, s))

        def children(c):
            v = values(c)
            return v, read_draws(file_path(out, variant, c, "draw"), v, distances=False)[0]

        tallies = {s: (int(h["wins"]), int(h["draws"])) for s, h in headers.items()}
        return values, children, pair_ranks(headers), tallies

    def run(self, out, variant, reporter=None, hasher=None) -> int:
        from .retro import solve_pair_draws  # (lazy: imports numba)

        hasher = hasher or Hasher(variant.board)
        values, children, ranks, tallies = self.loaders(out, variant)
        planes = solve_pair_draws(variant, self.sub, values, children, ranks, hasher, reporter,
                                  tallies)
        for s in self.subspaces:
            dv, dd = planes[s]
            write_planes(file_path(out, variant, s, "draw"), draws_header(variant, s, dv, dd, ranks[s]),
                         {"dv": dv, "dd": dd}, hasher.anchor_reps(s.o), DRAWS_LEVEL, values(s))
        return sum(count_positions(variant.board, s.m, s.o) for s in self.subspaces)


# ---------------------------------------------------------------------------- Lasker Morris
def pair_job(kind: str, sub: Subspace) -> Job:
    """The pair job of ``kind`` (games.VALUES, DTW, DRAWS) holding ``sub``: a movement pair's,
    or a hand pair's when ``sub`` has pieces in hand."""
    jobs = {VALUES: (MovementPair, HandPair), DTW: (MovementDtw, HandDtw),
            DRAWS: (MovementDraws, HandDraws)}[kind]
    return jobs[sub.placement](pair_key(sub))


@dataclass(frozen=True)
class HandPair(MovementPair):
    """A hand pair of Lasker Morris (the place-or-move turn): (m, o, hm, ho) and (o, m, ho, hm),
    solved together by retrograde analysis like a movement pair (their quiet slides lead into
    each other), every placement and every removal an exit into a subspace solved before
    (kernels/hand.py). Its inputs are the game's (games.pair_inputs); it differs from a
    movement pair in how it holds its children: one part's at a time."""

    def child_planes(self, out, variant):
        """A loader (retro.count reads one part's children at a time: up to four planes each,
        which together outweigh the pair)."""
        def load(c):
            return read_planes(file_path(out, variant, c), with_dtc=False)[0]
        return load

    def memory(self, variant) -> int:
        """Bytes at the peak: the pair's 3 a slot beside the larger part's children (2 a slot)."""
        return hand_memory(self, variant, self.read_bytes)


def hand_memory(job, variant, per_child_slot: float) -> int:
    """Bytes at the peak of a hand pair's job: ``job.own_bytes`` a slot of the pair beside one
    part's children at a time, the larger part's (``per_child_slot`` bytes a slot of them: the
    drivers in retro.py load a part's children, count it, and drop them)."""
    h = shared_hasher(variant.board)
    game = game_of(variant)
    own = sum(h.slots(s) for s in job.subspaces)
    reads = max(sum(h.slots(c) for c in set(game.children(s)) - {None}) for s in job.subspaces)
    return int(job.own_bytes * own + per_child_slot * reads + 400e6)


@dataclass(frozen=True)
class HandDtw(MovementDtw):
    """The dtw files of a hand pair (:class:`HandPair`), as :class:`MovementDtw`'s; one part's
    children held at a time (values and dtw: 3 bytes a slot)."""

    def memory(self, variant) -> int:
        return hand_memory(self, variant, 3)


@dataclass(frozen=True)
class HandDraws(MovementDraws):
    """The draw-value files of a hand pair (:class:`HandPair`), as :class:`MovementDraws`'; one
    part's children held at a time (values and draw values: 2 bytes a slot)."""

    def memory(self, variant) -> int:
        return hand_memory(self, variant, 2)


def job_for(sub: Subspace, variant=None) -> Job:
    """The job that writes the file of ``sub`` (a hand pair's under the place-or-move turn)."""
    if variant is not None and game_of(variant).hand_pairs:
        return pair_job(VALUES, sub)
    return PlacementSubspace(sub) if sub.placement else MovementPair(pair_key(sub))
