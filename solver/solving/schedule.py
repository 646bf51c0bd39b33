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
from dataclasses import dataclass, field, replace

from ..format.fileformat import remove_stale_temporaries
from ..database.folders import ruleset_dir
from ..core.memory import keep_freed_memory, small_pages
from ..core.errors import OutputError, ResourceError, UsageError, out_of_room
from .jobs import Job, MovementDraws, MovementDtw, PlacementSubspace, job_for, pair_job
from ..hashing.games import DRAWS, DTW, VALUES, game_of
from ..core.progress import Reporter
from ..hashing.subspaces import (check_movement, hand_subspaces, pair_key, check_placement,
                                 movement_subspaces, placement_closure, placement_subspaces)
from ..core.variants import variant_from_fields
from .cluster import dask_executor
from .handoff import Handoff
from .prune import dtw_subspaces, prunable, prune, readers, writes_dtw


def job_graph(variant, targets=None, max_pieces=None, phase="movement", dtw=False, draws=False):
    """(jobs in an order that puts every job after its inputs, {job: [jobs it reads]}).

    ``targets``: subspaces (movement or placement); without them every subspace of ``phase``
    (movement, placement or all; placement needs the whole movement phase). ``dtw``: the dtw
    files of the movement targets too (jobs.MovementDtw); ``draws``: their draw-value files
    (jobs.MovementDraws). Raises UsageError (a ValueError) naming a target that is not a
    subspace of the variant."""
    targets = list(targets or [])
    if dtw:
        check_dtw(variant, phase, targets)
    if draws and variant.limited:
        raise UsageError("--draws: draw values are defined without a no-removal limit; solve the "
                         "rules without it")
    for t in targets:
        (check_placement if t.placement else check_movement)(variant, t)
    if game_of(variant).hand_pairs:
        return _hand_job_graph(variant, targets, max_pieces, phase, dtw, draws)
    if not targets:
        if phase in ("placement", "all"):
            targets = placement_subspaces(variant)
        if phase in ("movement", "all"):
            targets += movement_subspaces(variant, max_pieces)
    place = placement_closure(variant, [t for t in targets if t.placement])
    wanted = [job_for(t) for t in targets if not t.placement] + [PlacementSubspace(s, dtw=dtw, draws=draws)
                                                                   for s in place]
    if dtw:
        wanted += [MovementDtw(pair_key(t)) for t in targets if not t.placement]
    if draws:
        wanted += [MovementDraws(pair_key(t)) for t in targets if not t.placement]
    return _order(variant, wanted)


def _order(variant, wanted):
    """(jobs in an order that puts every job after its inputs, {job: [jobs it reads]})."""
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


def _hand_job_graph(variant, targets, max_pieces, phase, dtw, draws):
    """:func:`job_graph` of the place-or-move game (Lasker Morris): every subspace is in a pair
    solved by retrograde analysis, a hand pair's exits leading to pairs with fewer pieces in
    hand or on the board (jobs.HandPair)."""
    if variant.limited:
        raise UsageError("the no-removal limit is not yet solved under the place-or-move turn "
                         "(Lasker Morris); solve without --no-removal-limit")
    if not targets:
        if phase in ("placement", "all"):
            targets = hand_subspaces(variant)
        if phase in ("movement", "all"):
            targets += movement_subspaces(variant, max_pieces)
    wanted = []
    for t in targets:
        wanted.append(pair_job(VALUES, t))
        if dtw:
            wanted.append(pair_job(DTW, t))
        if draws:
            wanted.append(pair_job(DRAWS, t))
    return _order(variant, wanted)


#: with a local pool (--jobs N): a job of at least this many positions runs alone on every
#: core (the large pairs: one job's memory, its kernels' threads), smaller ones N at a time
#: on a share of the cores each (their serial parts, reading and writing files, overlap)
ALONE = 100_000_000

#: Positions solved per second per core, and bytes of files per position (the dtw files pruned
#: as a solve leaves them), by game (games.GameSpec.family) and kind of job (:func:`job_kind`),
#: for a whole game on 2 cores (docs/benchmarks.md, "Rates by game"; bench/game_rates.py): the
#: standard game's and Six's measured on their whole solutions; Morabaraba's and Lasker's
#: measured with 6 a side and scaled to the whole game by the standard game's ratio between its
#: whole solution and its solve with 6 a side, their bytes the standard game's; Morabaraba's
#: movement values from its own run's large pairs. What the
#: estimates of ``--plan`` and of a missing file's advice take; a game or kind not here takes
#: the standard game's (:func:`rate_of`).
RATES = {
    "standard": {"movement": (3.25e6, 0.211), "movement dtw": (2.31e6, 0.102),
                 "movement draws": (5.09e6, 0.0838), "placement": (4.76e6, 0.211),
                 "placement all": (2.45e6, 0.397)},
    "six": {"movement": (1.66e6, 0.4), "movement dtw": (1.28e6, 0.166),
            "movement draws": (5.07e6, 0.0446), "placement all": (5.13e5, 0.706)},
    # (movement: its own run's 8-8 .. 9-6/6-9 at 0.76 of the standard game's complete run on the
    # same pairs, times the standard's 3.25; the 6-a-side scaling said 1.53)
    "morabaraba": {"movement": (2.48e6, 0.211), "movement dtw": (9.84e5, 0.102),
                   "movement draws": (4.68e6, 0.0838), "placement all": (2.32e6, 0.397)},
    "lasker": {"movement": (3.20e6, 0.211), "movement dtw": (2.35e6, 0.102),
               "movement draws": (4.85e6, 0.0838), "hand": (1.37e6, 0.211),
               "hand dtw": (8.05e5, 0.102), "hand draws": (2.43e6, 0.0838)},
}


def job_kind(job) -> str:
    """The kind of ``job`` that :data:`RATES` times: ``movement``, ``hand`` (a hand pair of the
    place-or-move turn) or ``placement``, then `` dtw`` or `` draws`` for a pair's dtw or draw-value
    files; ``placement all`` for a placement job that writes its dtw or draw values too."""
    if isinstance(job, PlacementSubspace):
        return "placement all" if job.dtw or job.draws else "placement"
    base = "hand" if job.sub.placement else "movement"
    if isinstance(job, MovementDtw):
        return base + " dtw"
    if isinstance(job, MovementDraws):
        return base + " draws"
    return base


def rate_of(variant, kind: str) -> tuple[float, float]:
    """(positions/s/core, bytes/position) of a kind of job of ``variant``'s game (:data:`RATES`:
    the game's measured figure, else the standard game's; a kind not measured, its job's values
    kind)."""
    base = kind.split()[0]
    for table in (RATES.get(game_of(variant).family, {}), RATES["standard"]):
        if kind in table:
            return table[kind]
        if base in table:
            return table[base]
    return RATES["standard"]["movement"]


def check_dtw(variant, phase, targets) -> None:
    """Refuse dtw where it is not defined: under a no-removal limit (dtw is the distance of play
    without a counter)."""
    if variant.limited:
        raise UsageError("--dtw: the distance to the end of the game is defined without a "
                         "no-removal limit; solve the rules without it")


def estimate(variant, jobs, cores: int = 2) -> tuple[float, float]:
    """(seconds on ``cores`` cores, bytes of files) that ``jobs`` take, at their game's rates
    (:func:`rate_of`)."""
    secs = size = 0.0
    for j in jobs:
        rate, per_position = rate_of(variant, job_kind(j))
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


def present_jobs(out, variant, jobs) -> list:
    """The jobs of ``jobs`` whose every file is present under ``out`` (not read: a resume checks
    each one's header and checksum before it trusts it). For ``morris solve --plan`` over a run
    in progress: what is done, and what is left."""
    return [j for j in jobs if all(os.path.isfile(path) for path, _ in j.files(out, variant))]


def run_job(out: str, variant_desc: dict, job: Job, threads: int | None = None, slot: int = 0,
            quiet: bool = True, keep_memory: bool = False, handoff: Handoff | None = None) -> dict:
    """Run one job in this process (a worker's entry point: plain arguments, picklable), its
    arrays without numpy's huge-page advice (core/memory.small_pages); ``keep_memory``: the
    process keeps what it frees for its next job (core/memory.py); ``handoff`` (jobs run one
    after another in this process): the planes the job before kept, of which the job takes
    what it reads and the rest is let go first (handoff.py)."""
    if keep_memory:
        keep_freed_memory()
    if threads:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    variant = variant_from_fields(variant_desc)
    t0 = time.perf_counter()
    rep = Reporter(quiet=quiet, lines=False, position=slot + 1)
    kwargs = {}
    if handoff is not None:
        handoff.keep_only(job.handoff_paths(out, variant))  # (none for a job that reads none)
        if job.reads_handoff:
            kwargs["handoff"] = handoff
    with small_pages():
        positions = job.run(out, variant, rep, **kwargs)
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
    #: dtw files pruned to their losses at the end (prune.prune): files, bytes before and after
    pruned: dict = field(default_factory=dict)
    #: child planes a job took from the job before it instead of reading them (handoff.py)
    handed: int = 0


def prepare_output(out, variant, rep) -> None:
    """Create the ruleset directory and clear what an interrupted run left; a directory that
    cannot be written is a clear :class:`OutputError`, not a traceback."""
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
          slots: int = 1, dtw: bool = False, draws: bool = False,
          prune_dtw: bool = True, alone: int | None = None, cores: int | None = None,
          keep_memory: bool = False) -> SolveSummary:
    """Solve every job needed for the targets, each as soon as its inputs exist.

    ``executor``: any ``concurrent.futures.Executor`` (default: run in this process);
    ``executor_factory``: makes a new one if the executor breaks (a local process pool whose
    worker died); ``submit(job, fn, *args)``: custom submission (Dask uses it to ask for memory;
    its workers show no bars); ``slots``: jobs run at once (one bar row each); ``alone`` (with
    ``cores``): a job of at least that many positions runs alone, on ``cores`` threads, the
    others ``slots`` at a time on ``threads`` each (:func:`executor_options`); a job that fails
    is retried ``retries`` times. Complete files are kept (resume). With ``dtw``, the dtw files
    whose readers are all complete are then pruned to their losses (``prune_dtw``; prune.py).
    ``keep_memory``: this process and the workers keep the memory a job frees for the next
    (core/memory.py: faster where a fresh page is costly, at a higher peak). The jobs and the
    pruning run on small pages (core/memory.small_pages).

    Progress: one bar for the whole solve (positions), one for each running job's phase when
    it lasts, and a line for each job that took a while (or for every job when there are few).
    The phases: :func:`job_graph`, :func:`prepare_output`, then a :class:`_Run` skips the
    complete jobs and drives the rest."""
    rep = reporter or Reporter()
    t0 = time.perf_counter()
    if keep_memory:
        keep_freed_memory()
    jobs, deps = job_graph(variant, targets, max_pieces, phase, dtw, draws)
    if dtw and prune_dtw:
        jobs, deps = fast_dtw_jobs(variant, jobs, deps)
    prepare_output(out, variant, rep)
    run = _Run(out, variant, jobs, deps, rep, executor or InlineExecutor(), executor_factory,
               threads, retries, submit, slots, on_job, alone, cores, keep_memory)
    run.skip_complete()
    with small_pages():  # (core/memory.py: fresh arrays cheaper; run_job's jobs too)
        run.drive()
        if run.handoff is not None:
            run.summary.handed = run.handoff.taken
            run.handoff.clear()
        if dtw and prune_dtw:
            run.summary.pruned = prune_finished(out, variant, rep)
    run.summary.seconds = time.perf_counter() - t0
    return run.summary


def soon_pruned(variant, jobs) -> set:
    """The subspaces whose dtw files a solve of ``jobs`` (its whole plan, the complete jobs
    too) prunes when it ends: those that may be pruned (prune.prunable) and that every job of
    the whole game reading them is a job of the plan (prune.readers_complete then holds).
    Killed and resumed, the solve prunes them at the resumed run's end."""
    whole, deps = job_graph(variant, None, None, "all", dtw=True)
    read_by = readers(whole, deps)
    game = set(read_by)
    planned = {s for j in jobs if writes_dtw(j) for s in dtw_subspaces(j)}
    return {s for s in planned if prunable(variant, s, game)
            and all(set(dtw_subspaces(j)) <= planned for j in read_by.get(s, []))}


def fast_dtw_jobs(variant, jobs, deps, soon=None):
    """(jobs, deps) with ``fast_dtw`` set on the jobs whose dtw files are all pruned when the
    solve ends (``soon``: those subspaces, :func:`soon_pruned`'s by default): they are written
    at zstd's FAST_LEVEL first, and the pruned files are the same bytes."""
    if soon is None:
        soon = soon_pruned(variant, jobs)
    fast = {j: replace(j, fast_dtw=True) for j in jobs
            if writes_dtw(j) and set(dtw_subspaces(j)) <= soon}
    return ([fast.get(j, j) for j in jobs],
            {fast.get(j, j): [fast.get(d, d) for d in ds] for j, ds in deps.items()})


def prune_finished(out, variant, rep) -> dict:
    """Prune the dtw files whose every reader in the whole game is complete (prune.py)."""
    t0 = time.perf_counter()
    jobs, deps = job_graph(variant, None, None, "all", dtw=True)
    done = prune(out, variant, jobs, deps, rep)
    if done["files"]:
        rep.phase(f"pruned {done['files']} dtw files to their losses: {done['before']:,} -> "
                  f"{done['after']:,} bytes in {time.perf_counter() - t0:.1f} s")
    return done


class _Run:
    """One solve's jobs in flight: which are done, waiting and running, on which bar row."""

    def __init__(self, out, variant, jobs, deps, rep, executor, executor_factory, threads,
                 retries, submit, slots, on_job, alone=None, cores=None, keep_memory=False):
        self.out, self.variant, self.jobs, self.deps, self.rep = out, variant, jobs, deps, rep
        self.executor, self.executor_factory = executor, executor_factory
        self.threads, self.retries, self.submit, self.on_job = threads, retries, submit, on_job
        self.inline = submit is None and isinstance(executor, InlineExecutor)
        self.desc = variant.describe()
        self.weight = {j: j.weight(variant) for j in jobs}
        self.summary = SolveSummary()
        self.done, self.running, self.attempts, self.row = set(), {}, {}, {}
        self.waiting = list(jobs)
        self.free_rows = list(range(max(1, slots)))
        self.slots, self.alone, self.cores = max(1, slots), alone, cores
        self.keep_memory = keep_memory
        #: the planes a job keeps for the next (handoff.py): where jobs run one by one here
        self.handoff = Handoff() if self.inline else None
        #: the jobs that run alone on every core (``alone``), and how many threads each job
        #: got (a retry gets the same)
        self.heavy = {j for j in jobs if alone is not None and self.weight[j] >= alone}
        self.threads_of = {}

    def skip_complete(self) -> None:
        """Jobs whose files are complete and whose checksums match are not run again."""
        for j in self.jobs:
            problems = j.file_problems(self.out, self.variant)
            if all(why is None for _, why in problems):
                self.done.add(j)
                self.summary.skipped.append(j.sub)
            else:  # a damaged or foreign file is never read as a child nor replaced unsaid
                for line in j.set_aside(problems):
                    self.rep.phase(line)
        self.waiting = [j for j in self.jobs if j not in self.done]
        if self.summary.skipped:
            self.rep.phase(f"{len(self.summary.skipped)} of {len(self.jobs)} jobs already complete")

    def launch(self, j) -> None:
        self.row[j] = self.free_rows.pop(0) if self.free_rows else 0
        threads = self.threads_of.setdefault(j, self.cores if j in self.heavy else self.threads)
        args = (self.out, self.desc, j, threads, self.row[j],
                self.rep.quiet or self.submit is not None, self.keep_memory)
        if self.submit:
            f = self.submit(j, run_job, *args)
        else:  # (a handoff only where the jobs run here, one by one: no other executor sees it)
            kw = {"handoff": self.handoff} if self.handoff is not None else {}
            f = self.executor.submit(run_job, *args, **kw)
        self.running[f] = j

    def drive(self) -> None:
        """Start every job whose inputs are done, wait for one to finish, until none is left."""
        from concurrent.futures import FIRST_COMPLETED, wait

        chatty = len(self.waiting) <= 60
        total = sum(self.weight[j] for j in self.waiting)
        with self.rep.bar(total=total, desc=f"solve {self.variant.ruleset_id}", unit="pos",
                          leave=True) as bar:
            while self.waiting or self.running:
                self.start_ready(bar, chatty)
                if not self.running:
                    raise RuntimeError(f"jobs can never start: {[j.name for j in self.waiting]}")
                finished, _ = wait(list(self.running), return_when=FIRST_COMPLETED)
                for f in finished:
                    self.collect(f, bar, chatty)

    def start_ready(self, bar, chatty: bool) -> None:
        for j in [j for j in self.waiting if all(d in self.done for d in self.deps[j])]:
            if self.inline and self.running:  # it ran already: count it before the next one
                break
            if not self.may_start(j):
                break
            self.waiting.remove(j)
            if chatty:
                self.rep.phase(f"start {j.name} ({self.weight[j]:,} positions)")
            names = ", ".join(x.name for x in [*self.running.values(), j])
            bar.set_postfix_str(f"jobs {len(self.done)}/{len(self.jobs)}, running {names}")
            self.launch(j)

    def may_start(self, j) -> bool:
        """Whether ``j`` (the next ready job) starts now. With ``alone``: a heavy job waits
        until nothing runs and then runs alone; nothing starts beside it, and a light job
        starts while fewer than ``slots`` run (none starts ahead of a heavy job that waits,
        which is the long pairs' critical path). Without: every ready job is submitted (the
        executor queues them)."""
        if self.alone is None:
            return True
        if any(r in self.heavy for r in self.running.values()):
            return False
        if j in self.heavy:
            return not self.running
        return len(self.running) < self.slots

    def collect(self, f, bar, chatty: bool) -> None:
        """A finished job: counted when its files are complete, retried when it failed."""
        from concurrent.futures.process import BrokenProcessPool

        j = self.running.pop(f)
        self.free_rows.append(self.row.pop(j))
        self.free_rows.sort()
        try:
            info = f.result()
        except Exception as exc:
            if out_of_room(exc):  # a retry would fail the same way: say so once
                raise ResourceError(
                    f"{j.name}: {out_of_room(exc)}; what it was writing is removed, the "
                    f"{len(self.done)} complete jobs are kept, and the same command resumes "
                    f"once there is room") from None
            self.attempts[j] = self.attempts.get(j, 0) + 1
            if isinstance(exc, BrokenProcessPool) and self.executor_factory:
                self.executor = self.executor_factory()
            if self.attempts[j] > self.retries:
                raise RuntimeError(f"{j.name} failed {self.attempts[j]} times; last: "
                                   f"{type(exc).__name__}: {exc}") from exc
            self.rep.phase(f"{j.name} failed ({type(exc).__name__}: {exc}); retrying")
            self.launch(j)
            return
        if not j.done(self.out, self.variant):
            raise RuntimeError(f"{j.name} reported success but its files are not complete")
        self.done.add(j)
        self.summary.solved.append({"job": j, **info})
        bar.update(self.weight[j])
        if chatty or info["seconds"] >= 5:
            self.rep.phase(f"[{len(self.done)}/{len(self.jobs)}] {j.name}: {info['positions']:,} "
                           f"positions in {info['seconds']:.1f} s")
        if self.on_job:
            self.on_job(info)


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

        return dask_executor(dask_address, variant, reporter)
    if jobs and jobs > 1:
        cores = os.cpu_count() or 1
        pool = local_pool(jobs)
        kwargs = dict(executor=pool, executor_factory=lambda: local_pool(jobs),
                      threads=max(1, cores // jobs), slots=jobs, alone=ALONE, cores=cores)
        return kwargs, lambda: kwargs["executor"].shutdown()
    return {}, lambda: None
