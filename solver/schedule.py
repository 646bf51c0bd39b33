"""Which subspaces to solve, in what order, and the solve of one pair into files.

The movement phase forms a dependency graph of pairs: the pair of (m, o) needs the pairs its
removals lead to, (o-1, m) and (m-1, o). ``plan`` lists the pairs needed for some targets,
dependencies first; ``solve`` runs them, skipping pairs whose files are complete and whose
checksums match, so a killed run resumes where it stopped (the pair in progress is redone;
files appear only complete, by atomic rename). The same inputs give byte-identical files.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from . import __version__
from .dbfile import SUFFIX, TableFile, check_file, plane_stats, remove_stale_temporaries, write_table
from .index import Hasher, Subspace, count_positions, movement_subspaces
from .retro import Reporter, pair_children, solve_pair
from .tablebase import ruleset_fields
from .variants import LOSE_BELOW

HASH_SCHEME = "anchor-orbit-colex-v1"


def pair_key(sub: Subspace) -> Subspace:
    """The top subspace naming the pair that contains ``sub``."""
    return sub.pair[0]


def dependencies(top: Subspace) -> list[Subspace]:
    """Pairs (by top subspace) that the pair of ``top`` reads."""
    out = []
    for child in pair_children(top).values():
        if child is not None:
            k = pair_key(child)
            if k not in out:
                out.append(k)
    return out


def plan(variant, targets=None, max_pieces=None) -> list[Subspace]:
    """Pairs (top subspaces) to solve for the targets, every pair after those it needs."""
    if targets is None:
        targets = movement_subspaces(variant, max_pieces)
    for t in targets:
        if t.placement:
            raise ValueError(f"{t} is a placement subspace (use the placement solver)")
        if not (LOSE_BELOW <= t.m <= variant.pieces and LOSE_BELOW <= t.o <= variant.pieces):
            raise ValueError(
                f"subspace {t} is outside {variant.name}: movement subspaces have "
                f"{LOSE_BELOW}..{variant.pieces} pieces a side"
            )
    needed = []
    seen = set()

    def visit(top):
        if top in seen:
            return
        seen.add(top)
        for dep in dependencies(top):
            visit(dep)
        needed.append(top)

    for t in sorted({pair_key(t) for t in targets}):
        visit(t)
    return needed


def table_path(out: str, variant, sub: Subspace) -> str:
    return os.path.join(out, variant.ruleset_id, sub.name + SUFFIX)


def pair_done(out, variant, top: Subspace) -> bool:
    return all(check_file(table_path(out, variant, s)) is None for s in top.pair)


def table_header(variant, sub: Subspace, hasher: Hasher, values, dtc) -> dict:
    board = variant.board
    st = plane_stats(values, dtc)
    positions = st["positions"]
    hdr = ruleset_fields(variant)
    hdr.update(
        format="morris-tablebase",
        generator=f"morris-solver {__version__}",
        points=list(board.points),
        symmetries=len(board.symmetries),
        symmetry_perms=[list(p) for p in board.symmetries.perms],
        subspace=sub.name,
        phase="placement" if sub.placement else "movement",
        m=sub.m, o=sub.o, hm=sub.hm, ho=sub.ho,
        hash={"scheme": HASH_SCHEME, "anchor": "opponent", "orbits": int(len(hasher.anchor_reps(sub.o)))},
        positions=positions,
        wins=st["wins"],
        losses=st["losses"],
        draws=positions - st["wins"] - st["losses"],
        max_win_dtc=st["max_win_dtc"],
        max_loss_dtc=st["max_loss_dtc"],
        distance="dtc",
    )
    expected = count_positions(board, sub.m, sub.o)
    if positions != expected:
        raise RuntimeError(f"{sub}: {positions} used slots, Burnside counts {expected}")
    return hdr


def load_values(out, variant, sub: Subspace):
    with TableFile(table_path(out, variant, sub)) as tf:
        return tf.values_all()


def solve_one_pair(out, variant, top: Subspace, reporter=None, hasher=None) -> dict:
    """Solve the pair of ``top`` from the files of its dependencies and write its files."""
    rep = reporter or Reporter(quiet=True)
    hasher = hasher or Hasher(variant.board)
    os.makedirs(os.path.join(out, variant.ruleset_id), exist_ok=True)
    t0 = time.perf_counter()
    children = {}
    for child in pair_children(top).values():
        if child is not None and child not in children:
            rep.phase(f"[{top}] load {child}")
            children[child] = load_values(out, variant, child)
    t_load = time.perf_counter() - t0
    result = solve_pair(variant, top, children, hasher, rep)
    del children
    t0 = time.perf_counter()
    stats = {}
    for sub in top.pair:
        rep.phase(f"[{sub}] write")
        values, dtc = result.values[sub], result.dtc[sub]
        hdr = table_header(variant, sub, hasher, values, dtc)
        write_table(table_path(out, variant, sub), hdr, values, dtc, hasher.anchor_reps(sub.o))
        stats[sub] = hdr
    seconds = dict(result.seconds, load=t_load, write=time.perf_counter() - t0)
    return {"pair": top, "stats": stats, "seconds": seconds, "levels": result.levels}


@dataclass(frozen=True, order=True)
class Job:
    """One unit of work: a movement pair (named by its top subspace) or a placement subspace."""

    kind: str  # "pair" or "placement"
    sub: Subspace

    @property
    def name(self) -> str:
        return "/".join(s.name for s in self.sub.pair) if self.kind == "pair" else self.sub.name

    def subspaces(self):
        return self.sub.pair if self.kind == "pair" else (self.sub,)


def job_graph(variant, targets=None, max_pieces=None, phase="movement"):
    """(jobs in an order that puts every job after its inputs, {job: [jobs it reads]}).

    ``targets``: subspaces (movement or placement); without them every subspace of ``phase``
    (movement, placement or all; placement needs the whole movement phase)."""
    from .placement import child_subspaces, closure, reads_file

    variant.require_solvable()
    targets = list(targets or [])
    move_t = [t for t in targets if not t.placement]
    place_t = [t for t in targets if t.placement]
    if not targets:
        if phase in ("placement", "all"):
            from .index import placement_subspaces

            place_t = placement_subspaces(variant)
        if phase in ("movement", "all") and not place_t:
            move_t = None
    pairs = plan(variant, move_t, max_pieces) if (move_t is None or move_t) else []
    if place_t:
        pairs = plan(variant, None)  # the placement phase reads every movement subspace
    jobs = [Job("pair", t) for t in pairs]
    deps = {j: [Job("pair", d) for d in dependencies(j.sub)] for j in jobs}
    dm = variant.rules.double_mill_removes
    for sub in closure(variant, place_t):
        j = Job("placement", sub)
        reads = []
        for child, movement in child_subspaces(sub, dm).values():
            if reads_file(child, movement):
                reads.append(Job("pair", pair_key(child)) if movement else Job("placement", child))
        jobs.append(j)
        deps[j] = sorted(set(reads))
    return jobs, deps


def critical_path(variant, jobs, deps):
    """(positions along the heaviest dependency chain, that chain, positions of all jobs)."""
    board = variant.board
    weight = {j: sum(count_positions(board, s.m, s.o) for s in j.subspaces()) for j in jobs}
    best = {}
    for j in jobs:  # jobs come after their inputs
        prev = max((best[d] for d in deps[j] if d in best), default=(0, []), key=lambda x: x[0])
        best[j] = (prev[0] + weight[j], prev[1] + [j])
    total = sum(weight.values())
    heavy = max(best.values(), key=lambda x: x[0]) if best else (0, [])
    return heavy[0], heavy[1], total, weight


def job_done(out, variant, job) -> bool:
    return all(check_file(table_path(out, variant, s)) is None for s in job.subspaces())


def memory_estimate(variant, job) -> int:
    """Bytes a job needs at its peak (measured: 2 bytes per slot of the pair while solving,
    plus 1 per slot of what it reads, plus the interpreter and tables)."""
    h = Hasher(variant.board)
    own = sum(h.slots(s) for s in job.subspaces())
    reads = 0
    if job.kind == "pair":
        reads = sum(h.slots(c) for c in pair_children(job.sub).values() if c is not None)
    else:
        from .placement import child_subspaces

        reads = sum(h.slots(c) for c, _ in child_subspaces(job.sub, variant.rules.double_mill_removes).values()
                    if c.m >= 0)
    return int(3 * own + 2 * reads + 400e6)


def run_job(out: str, variant_desc: dict, kind: str, sub_name: str, threads: int | None = None) -> dict:
    """Run one job in this process (a worker's entry point: plain arguments, picklable)."""
    from .variants import variant_from_description

    if threads:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    variant = variant_from_description(variant_desc)
    sub = Subspace.parse(sub_name)
    t0 = time.perf_counter()
    if kind == "pair":
        info = solve_one_pair(out, variant, sub)
        positions = sum(h["positions"] for h in info["stats"].values())
    else:
        from .placement import solve_placement_subspace

        positions = solve_placement_subspace(out, variant, sub)
    return {"positions": positions, "seconds": time.perf_counter() - t0, "pid": os.getpid()}


class InlineExecutor:
    """An executor that runs each job at once in this process (the default)."""

    def submit(self, fn, *args, **kwargs):
        from concurrent.futures import Future

        f = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # the driver decides what to do with it
            f.set_exception(exc)
        return f

    def shutdown(self, wait=True):
        pass


@dataclass
class SolveSummary:
    solved: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    seconds: float = 0.0


def solve(out, variant, targets=None, max_pieces=None, reporter=None, on_pair=None, phase="movement",
          executor=None, executor_factory=None, threads=None, retries=2, submit=None) -> SolveSummary:
    """Solve every job needed for the targets, each as soon as its inputs exist.

    ``executor``: any ``concurrent.futures.Executor`` (default: run in this process);
    ``executor_factory``: makes a new one if the executor breaks (a local process pool whose
    worker died); ``submit(job, fn, *args)``: custom submission (Dask uses it to ask for memory);
    a job that fails is retried ``retries`` times. Complete files are kept (resume)."""
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    rep = reporter or Reporter()
    t0 = time.perf_counter()
    summary = SolveSummary()
    jobs, deps = job_graph(variant, targets, max_pieces, phase)
    for name in remove_stale_temporaries(os.path.join(out, variant.ruleset_id)):
        rep.phase(f"removed {name}, left by an interrupted run")
    os.makedirs(os.path.join(out, variant.ruleset_id), exist_ok=True)
    executor = executor or InlineExecutor()
    desc = variant.describe()
    done, waiting, running = set(), list(jobs), {}
    attempts = {}
    for j in jobs:
        if job_done(out, variant, j):
            done.add(j)
            summary.skipped.append(j.sub)
    waiting = [j for j in waiting if j not in done]
    if summary.skipped:
        rep.phase(f"{len(summary.skipped)} of {len(jobs)} jobs already complete")

    def status():
        return f"[done {len(done)}/{len(jobs)}, running {len(running)}, waiting {len(waiting)}]"

    def launch(j):
        args = (out, desc, j.kind, j.sub.name, threads)
        f = submit(j, run_job, *args) if submit else executor.submit(run_job, *args)
        running[f] = j

    while waiting or running:
        for j in [j for j in waiting if all(d in done for d in deps[j])]:
            waiting.remove(j)
            rep.phase(f"{status()} start {j.name}")
            launch(j)
        if not running:
            raise RuntimeError(f"jobs can never start: {[j.name for j in waiting]}")
        finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
        for f in finished:
            j = running.pop(f)
            try:
                info = f.result()
            except Exception as exc:
                attempts[j] = attempts.get(j, 0) + 1
                if isinstance(exc, BrokenProcessPool) and executor_factory:
                    executor = executor_factory()
                if attempts[j] > retries:
                    raise RuntimeError(f"{j.name} failed {attempts[j]} times; last: {type(exc).__name__}: {exc}") from exc
                rep.phase(f"{status()} {j.name} failed ({type(exc).__name__}: {exc}); retrying")
                launch(j)
                continue
            if not job_done(out, variant, j):
                raise RuntimeError(f"{j.name} reported success but its files are not complete")
            done.add(j)
            summary.solved.append({"job": j, **info})
            rep.phase(f"{status()} {j.name}: {info['positions']:,} positions in {info['seconds']:.1f} s")
            if on_pair:
                on_pair(info)
    summary.seconds = time.perf_counter() - t0
    return summary


def local_pool(jobs: int):
    """A process pool of ``jobs`` workers started with spawn (numba's threads do not survive fork)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))
