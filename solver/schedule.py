"""Which jobs to run, in what order, on which executor.

A solve is a graph of jobs (jobs.py): movement pairs, each reading the pairs its removals lead
to, and placement subspaces, each reading the next layer or the movement phase. ``job_graph``
lists the jobs some targets need, every job after its inputs; ``solve`` runs them, each as soon
as its inputs exist, skipping jobs whose files are complete and whose checksums match, so a
killed run resumes where it stopped (the job in progress is redone; files appear only complete,
by atomic rename). The same inputs give byte-identical files.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from .dbfile import remove_stale_temporaries, ruleset_dir
from .errors import MorrisError
from .jobs import Job, MovementPair, PlacementSubspace, job_for
from .progress import Reporter
from .subspaces import (Subspace, check_movement, check_placement, movement_subspaces,
                        placement_closure, placement_subspaces)


def job_graph(variant, targets=None, max_pieces=None, phase="movement"):
    """(jobs in an order that puts every job after its inputs, {job: [jobs it reads]}).

    ``targets``: subspaces (movement or placement); without them every subspace of ``phase``
    (movement, placement or all; placement needs the whole movement phase). Raises ValueError
    naming a target that is not a subspace of the variant."""
    targets = list(targets or [])
    for t in targets:
        (check_placement if t.placement else check_movement)(variant, t)
    if not targets:
        if phase in ("placement", "all"):
            targets = placement_subspaces(variant)
        if phase in ("movement", "all"):
            targets += movement_subspaces(variant, max_pieces)
    place = placement_closure(variant, [t for t in targets if t.placement])
    wanted = [job_for(t) for t in targets if not t.placement] + [PlacementSubspace(s) for s in place]
    jobs, deps, seen = [], {}, set()

    def visit(job):
        if job in seen:
            return
        seen.add(job)
        deps[job] = job.inputs(variant)
        for d in deps[job]:
            visit(d)
        jobs.append(job)

    for j in sorted(set(wanted), key=lambda j: j.sort_key):
        visit(j)
    return jobs, deps


def plan(variant, targets=None, max_pieces=None) -> list[Subspace]:
    """Movement pairs (top subspaces) to solve for the targets, every pair after those it needs."""
    jobs, _ = job_graph(variant, targets, max_pieces)
    return [j.sub for j in jobs if isinstance(j, MovementPair)]


#: Measured on the standard board with 2 cores (docs/benchmarks.md): positions solved per second
#: per core, and bytes of database file per position, by phase. Only for estimates.
RATES = {"movement": (2.0e6, 2.28 / 8), "placement": (2.5e6, 1.80 / 8)}


def estimate(variant, jobs, cores: int = 2) -> tuple[float, float]:
    """(seconds on ``cores`` cores, bytes of files) that ``jobs`` take, from :data:`RATES`."""
    secs = size = 0.0
    for j in jobs:
        rate, per_position = RATES["placement" if isinstance(j, PlacementSubspace) else "movement"]
        w = j.weight(variant)
        secs += w / (rate * cores)
        size += w * per_position
    return secs, size


def human_time(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def human_bytes(size: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{round(size)} bytes"


_HINTS: dict = {}


def solve_hint(variant, sub: Subspace, out) -> str:
    """What to solve for ``sub``, and what it costs (from :func:`estimate`); for a placement
    subspace also the cheaper route: the movement phase, then search."""
    key = (variant, sub, str(out))
    if key in _HINTS:
        return _HINTS[key]
    flags = variant.cli_flags()
    flags = f" {flags}" if flags else ""
    try:
        jobs, _ = job_graph(variant, [sub])
    except (ValueError, MorrisError) as exc:
        return f"({exc})"
    secs, size = estimate(variant, jobs)
    text = (f"solve it with: morris solve --out {out}{flags} {sub} ({len(jobs)} jobs: about "
            f"{human_time(secs)} on 2 cores and {human_bytes(size)} of files)")
    if sub.placement:
        mjobs, _ = job_graph(variant)
        msecs, msize = estimate(variant, mjobs)
        text += (f"; or solve the movement phase (morris solve --out {out}{flags}: about "
                 f"{human_time(msecs)}, {human_bytes(msize)}) and placement positions are valued "
                 f"by exact search")
    _HINTS[key] = text
    return text


@dataclass
class Plan:
    """What ``morris solve --plan`` prints: jobs, their weights, the heaviest dependency chain."""

    jobs: list
    deps: dict
    weight: dict
    total: int
    critical: list
    critical_weight: int


def critical_path(variant, jobs, deps) -> Plan:
    """The heaviest dependency chain: no number of machines finishes sooner than it."""
    weight = {j: j.weight(variant) for j in jobs}
    best = {}
    for j in jobs:  # jobs come after their inputs
        prev = max((best[d] for d in deps[j] if d in best), default=(0, []), key=lambda x: x[0])
        best[j] = (prev[0] + weight[j], prev[1] + [j])
    heavy = max(best.values(), key=lambda x: x[0]) if best else (0, [])
    return Plan(jobs, deps, weight, sum(weight.values()), heavy[1], heavy[0])


def run_job(out: str, variant_desc: dict, job: Job, threads: int | None = None, slot: int = 0,
            quiet: bool = True) -> dict:
    """Run one job in this process (a worker's entry point: plain arguments, picklable)."""
    from .variants import variant_from_description

    if threads:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    variant = variant_from_description(variant_desc)
    t0 = time.perf_counter()
    positions = job.run(out, variant, Reporter(quiet=quiet, lines=False, position=slot + 1))
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


def prepare_output(out, variant, rep) -> None:
    """Create the ruleset directory and clear what an interrupted run left; a directory that
    cannot be written is a clear :class:`OutputError`, not a traceback."""
    from .errors import OutputError

    d = ruleset_dir(out, variant)
    try:
        os.makedirs(d, exist_ok=True)
        for name in remove_stale_temporaries(d):
            rep.phase(f"removed {name}, left by an interrupted run")
        probe = os.path.join(d, f".write-test-{os.getpid()}")
        with open(probe, "wb"):
            pass
        os.remove(probe)
    except OSError as exc:
        raise OutputError(f"cannot write databases into {d}: {exc.strerror or exc}") from None


def solve(out, variant, targets=None, max_pieces=None, reporter=None, on_job=None, phase="movement",
          executor=None, executor_factory=None, threads=None, retries=2, submit=None,
          slots: int = 1) -> SolveSummary:
    """Solve every job needed for the targets, each as soon as its inputs exist.

    ``executor``: any ``concurrent.futures.Executor`` (default: run in this process);
    ``executor_factory``: makes a new one if the executor breaks (a local process pool whose
    worker died); ``submit(job, fn, *args)``: custom submission (Dask uses it to ask for memory;
    its workers show no bars); ``slots``: jobs run at once (one bar row each); a job that fails is
    retried ``retries`` times. Complete files are kept (resume).

    Progress: one bar for the whole solve (positions), one for each running job's phase when
    it lasts, and a line for each job that took a while (or for every job when there are few)."""
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    rep = reporter or Reporter()
    t0 = time.perf_counter()
    summary = SolveSummary()
    jobs, deps = job_graph(variant, targets, max_pieces, phase)
    prepare_output(out, variant, rep)
    executor = executor or InlineExecutor()
    inline = submit is None and isinstance(executor, InlineExecutor)
    desc = variant.describe()
    weight = {j: j.weight(variant) for j in jobs}
    done, running = set(), {}
    attempts = {}
    for j in jobs:
        if j.done(out, variant):
            done.add(j)
            summary.skipped.append(j.sub)
    waiting = [j for j in jobs if j not in done]
    if summary.skipped:
        rep.phase(f"{len(summary.skipped)} of {len(jobs)} jobs already complete")
    free_rows = list(range(max(1, slots)))
    row = {}
    job_bars = submit is None
    chatty = len(waiting) <= 60

    def launch(j):
        row[j] = free_rows.pop(0) if free_rows else 0
        args = (out, desc, j, threads, row[j], rep.quiet or not job_bars)
        f = submit(j, run_job, *args) if submit else executor.submit(run_job, *args)
        running[f] = j

    total = sum(weight[j] for j in waiting)
    with rep.bar(total=total, desc=f"solve {variant.ruleset_id}", unit="pos", leave=True) as bar:
        while waiting or running:
            for j in [j for j in waiting if all(d in done for d in deps[j])]:
                if inline and running:  # it ran already: count it before the next one
                    break
                waiting.remove(j)
                if chatty:
                    rep.phase(f"start {j.name} ({weight[j]:,} positions)")
                bar.set_postfix_str(f"jobs {len(done)}/{len(jobs)}, running {', '.join(x.name for x in [*running.values(), j])}")
                launch(j)
            if not running:
                raise RuntimeError(f"jobs can never start: {[j.name for j in waiting]}")
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for f in finished:
                j = running.pop(f)
                free_rows.append(row.pop(j))
                free_rows.sort()
                try:
                    info = f.result()
                except Exception as exc:
                    attempts[j] = attempts.get(j, 0) + 1
                    if isinstance(exc, BrokenProcessPool) and executor_factory:
                        executor = executor_factory()
                    if attempts[j] > retries:
                        raise RuntimeError(f"{j.name} failed {attempts[j]} times; last: {type(exc).__name__}: {exc}") from exc
                    rep.phase(f"{j.name} failed ({type(exc).__name__}: {exc}); retrying")
                    launch(j)
                    continue
                if not j.done(out, variant):
                    raise RuntimeError(f"{j.name} reported success but its files are not complete")
                done.add(j)
                summary.solved.append({"job": j, **info})
                bar.update(weight[j])
                if chatty or info["seconds"] >= 5:
                    rep.phase(f"[{len(done)}/{len(jobs)}] {j.name}: {info['positions']:,} positions "
                              f"in {info['seconds']:.1f} s")
                if on_job:
                    on_job(info)
    summary.seconds = time.perf_counter() - t0
    return summary


def solve_placement(out, variant, targets=None, reporter=None) -> SolveSummary:
    """Solve the placement subspaces (every reachable one, or what ``targets`` need), last layer
    first, after the movement phase they read (solved too if missing)."""
    return solve(out, variant, targets=targets or placement_subspaces(variant), phase="placement",
                 reporter=reporter)


def local_pool(jobs: int):
    """A process pool of ``jobs`` workers started with spawn (numba's threads do not survive fork)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))


def executor_options(variant, reporter, jobs: int | None = None, dask_address: str | None = None):
    """(keyword arguments for :func:`solve`, close function) for the chosen executor: this
    process (default), a local pool of ``jobs`` spawned workers, or a Dask cluster."""
    if dask_address:
        from .cluster import dask_executor

        return dask_executor(dask_address, variant, reporter)
    if jobs and jobs > 1:
        cores = os.cpu_count() or 1
        pool = local_pool(jobs)
        kwargs = dict(executor=pool, executor_factory=lambda: local_pool(jobs),
                      threads=max(1, cores // jobs), slots=jobs)
        return kwargs, lambda: kwargs["executor"].shutdown()
    return {}, lambda: None
