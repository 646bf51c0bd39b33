"""Where a solve's time goes, by phase: a profile of ``morris solve`` (issue 31's first table).

    python3 bench/profile_solve.py --out /tmp/morris-prof --max-pieces 6 [--phase all] [--dtw] [--draws]
    python3 bench/profile_solve.py --out /tmp/morris-prof --db tb --alone 8-8 [--runs 3]
    python3 bench/profile_solve.py --out /tmp/morris-prof --db tb --alone 6-6 --rules cetinsgame

Runs the solve in this process (as ``morris solve`` does without --jobs or --dask) with each
named phase of the library timed: the movement pair's count, propagation and finish (values,
dtw, draw values), the placement sweep, the reading of children's files and the compression and
writing of the results. Each phase's time is its own: a phase that calls another is charged
only for what is left (so the rows add up to the run). Prints a table (seconds, share, calls,
and cores: the process's CPU seconds, every thread's, over the phase's seconds: how busy the
machine's cores were on average, 2.00 being both of a 2-core machine);
``--json`` writes it too. Jobs already complete in --out are skipped (use an empty --out for a
profile of the whole run).

``--alone SUBSPACE`` profiles one job on a solved database: --out gets a link to every file of
--db but the job's own (its subspaces' files of the kinds the run writes: values, and dtw with
--dtw, draw values with --draws), the job is solved there (its inputs are the links: nothing
else runs), and its files are compared with --db's byte for byte (the script fails where they
differ). ``--runs N`` repeats it, its files removed each time. With --dtw, a child's dtw file
that the whole solve has pruned is read by deriving its wins from its own children (a sweep
of the child, charged to "read children"), which the solve never does: it prunes a file only
once no job is left to read it. Profile --dtw on a database solved with ``--full-dtw``. An
--alone run prunes nothing (as ``--full-dtw``): its dtw file is written whole, at the level
of a file kept whole, the same bytes as a --db solved with ``--full-dtw``; ``--fast-dtw``
writes it as a whole solve that prunes does (zstd's fast level, the pruned file beside it:
the writing a complete run pays), and a dtw file then counts as the same where its pruned
file is --db's.
"""

import argparse
import contextlib
import json
import os
import sys
import time
from collections import defaultdict

#: (module, function, phase): the library's phases, timed where they are looked up
PHASES = (
    ("morris.solving.retro", "count", "values: count"),
    ("morris.solving.retro", "propagate", "values: propagate"),
    ("morris.solving.retro", "finish", "values: finish"),
    ("morris.solving.retro", "count_exits", "dtw: count exits"),
    ("morris.solving.retro", "propagate_dtw", "dtw: propagate"),
    ("morris.solving.retro", "finish_dtw", "dtw: finish"),
    ("morris.solving.retro", "solve_pair_draws", "draw values: pair"),
    ("morris.solving.jobs", "evaluate", "placement: sweep"),
    ("morris.solving.jobs", "load_children", "read children"),
    ("morris.solving.jobs", "read_planes", "read children"),
    ("morris.solving.jobs", "read_full_dtw", "read children"),
    ("morris.solving.jobs", "read_draws", "read children"),
    ("morris.solving.jobs", "side_planes", "placement: side planes"),
    ("morris.solving.jobs", "stored_values", "read own values back"),
    ("morris.solving.jobs", "write_table", "compress and write"),
    ("morris.solving.jobs", "write_planes", "compress and write"),
    ("morris.solving.jobs", "write_distance_table", "compress and write"),
    ("morris.solving.jobs", "write_pruned_dtw", "compress and write"),
    ("morris.solving.schedule", "prune_finished", "prune dtw at the end"),
)

#: the kernels the phases call (their time is also in the phase that calls them): where the
#: movement pair's propagation goes (emit: predecessors; apply: their updates), by pass
KERNELS = tuple(("morris.kernels." + mod, name, f"{mod}.{name}") for mod, name in (
    ("retro", "count_pass"), ("retro", "emit"), ("retro", "apply"), ("retro", "finish"),
    ("dtw", "count_dtw"), ("dtw", "sched_flags"), ("dtw", "promote"), ("dtw", "level_counts"),
    ("dtw", "window_fill"), ("dtw", "promote_listed"), ("dtw", "finish_states"),
    ("draws", "count_draws"), ("draws", "promote_draws"), ("draws", "settle"),
    ("placement", "placement_sweep")))


class Profile:
    """Exclusive seconds, CPU seconds (the process's, every thread's) and calls per phase (a
    stack: an inner phase's time is its own)."""

    def __init__(self):
        self.seconds = defaultdict(float)
        self.cpu = defaultdict(float)
        self.calls = defaultdict(int)
        self.stack = []

    def wrap(self, phase, fn):
        def timed(*args, **kwargs):
            t0, c0 = time.perf_counter(), time.process_time()
            self.stack.append([0.0, 0.0])
            try:
                return fn(*args, **kwargs)
            finally:
                inner, inner_cpu = self.stack.pop()
                spent, cpu = time.perf_counter() - t0, time.process_time() - c0
                self.seconds[phase] += spent - inner
                self.cpu[phase] += cpu - inner_cpu
                self.calls[phase] += 1
                if self.stack:
                    self.stack[-1][0] += spent
                    self.stack[-1][1] += cpu
        return timed

    @contextlib.contextmanager
    def installed(self, table=PHASES):
        """The functions of ``table`` timed inside the block, and as they were after it (those
        an older install lacks are left out, so that it can be profiled against this one)."""
        import importlib

        saved = []
        for module, name, phase in table:
            mod = importlib.import_module(module)
            if not hasattr(mod, name):
                continue
            saved.append((mod, name, getattr(mod, name)))
            setattr(mod, name, self.wrap(phase, getattr(mod, name)))
        try:
            yield self
        finally:
            for mod, name, fn in reversed(saved):
                setattr(mod, name, fn)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--rules", default=None, help="a preset (morris rules), for --variant")
    ap.add_argument("--no-removal-limit", type=int, default=None, help="(with --variant)")
    ap.add_argument("--no-flying", action="store_true", help="(with --variant)")
    ap.add_argument("--double-mill-removes", type=int, default=None, help="(with --variant)")
    ap.add_argument("--max-pieces", type=int, default=None)
    ap.add_argument("--phase", default="movement", choices=["movement", "placement", "all"])
    ap.add_argument("--dtw", action="store_true")
    ap.add_argument("--draws", action="store_true")
    ap.add_argument("--json", default=None, help="also write the table here")
    ap.add_argument("--alone", default=None, metavar="SUBSPACE",
                    help="profile this subspace's job alone, the other files linked from --db")
    ap.add_argument("--db", default=None, help="(with --alone) a solved database")
    ap.add_argument("--runs", type=int, default=1, help="(with --alone) profiles, one by one")
    ap.add_argument("--keep-memory", action="store_true",
                    help="as morris solve --keep-memory: freed memory kept for the next job")
    ap.add_argument("--fast-dtw", action="store_true",
                    help="(with --alone --dtw) write the dtw file as a whole solve does: at "
                         "zstd's fast level, its pruned file beside it")
    args = ap.parse_args(argv)
    if (args.alone is None) != (args.db is None):
        ap.error("--alone and --db go together")
    if args.alone is None:
        return report(profile(args), args.json, vars(args))
    status = 0
    for run in range(args.runs):
        status |= profile_alone(args, run)
    return status


def profile_alone(args, run) -> int:
    """Run ``run`` of --alone: link, profile, compare the job's files with --db's (with
    --fast-dtw, a dtw file is the same where its pruned file beside is: --db pruned)."""
    from morris.solving.prune import pruned_beside

    kinds = (".mtb",) + ((".mtw",) if args.dtw else ()) + ((".mdv",) if args.draws else ())
    own = link_all_but(args.db, args.out, variant_of(args), args.alone, kinds)
    result = profile(args, targets=[args.alone])
    differ = [os.path.basename(dst) for src, dst in own if not same_bytes(src, dst)
              and not (args.fast_dtw and same_bytes(src, pruned_beside(dst)))]
    print(f"run {run + 1}: {args.alone} alone, its {len(own)} files "
          + (f"DIFFER from --db's: {', '.join(differ)}" if differ else "the same as --db's"))
    report(result, args.json and f"{args.json}.{run + 1}" if args.runs > 1 else args.json,
           vars(args))
    return int(bool(differ))


def variant_of(args):
    """The variant ``--variant`` (with ``--no-removal-limit``, ``--no-flying`` and
    ``--double-mill-removes``) or ``--rules`` names."""
    from morris.core.variants import get_variant

    if args.rules:
        return get_variant(rules=args.rules)
    return get_variant(args.variant, no_removal_limit=args.no_removal_limit,
                       flying=False if args.no_flying else None,
                       double_mill_removes=args.double_mill_removes)


def link_all_but(db, out, variant, name, kinds=(".mtb",)) -> list:
    """Link every file of ``db``'s ruleset folder into ``out``'s but those of the job holding
    subspace ``name`` whose names end in one of ``kinds`` (the files the run writes; removed
    from ``out``); returns [(db's file, out's path)] of those. Under a no-removal limit, the
    unlimited twin's folder is linked whole (the job reads its twin)."""
    from morris.hashing.subspaces import Subspace
    from morris.solving.jobs import job_for

    if variant.limited:
        link_folder(db, out, variant.unlimited, set(), kinds)
    return link_folder(db, out, variant,
                       {s.name for s in job_for(Subspace.parse(name), variant).subspaces}, kinds)


def link_folder(db, out, variant, mine, kinds=(".mtb",)) -> list:
    """Link every file of ``db``'s ruleset folder of ``variant`` into ``out``'s but those of the
    subspaces named in ``mine`` that end in one of ``kinds`` (removed from ``out``); returns
    [(db's file, out's path)] of those."""
    from morris.database.folders import ruleset_dir, subspace_of

    src, dst = ruleset_dir(db, variant), ruleset_dir(out, variant)
    os.makedirs(dst, exist_ok=True)
    own = []
    for f in sorted(os.listdir(src)):
        target = os.path.join(dst, f)
        if subspace_of(f) in mine and f.endswith(kinds):
            own.append((os.path.join(src, f), target))
            if os.path.lexists(target):
                os.remove(target)
        elif not os.path.lexists(target):
            os.symlink(os.path.abspath(os.path.join(src, f)), target)
    return own


def same_bytes(a, b) -> bool:
    import filecmp

    return os.path.isfile(b) and filecmp.cmp(a, b, shallow=False)


def profile(args, targets=None):
    """(phase profile, kernel profile, total seconds) of one solve as ``args`` asks."""
    from morris.core.progress import Reporter
    from morris.hashing.subspaces import Subspace
    from morris.solving.schedule import solve

    prof, kern = Profile(), Profile()
    with prof.installed(), kern.installed(KERNELS), fast_dtw(getattr(args, "fast_dtw", False)):
        t0, c0 = time.perf_counter(), time.process_time()
        solve(args.out, variant_of(args),
              targets=targets and [Subspace.parse(t) for t in targets],
              max_pieces=args.max_pieces, phase=args.phase,
              reporter=Reporter(quiet=True), dtw=args.dtw, draws=args.draws,
              prune_dtw=not targets,  # (--alone: the links' files are --db's, left whole)
              keep_memory=args.keep_memory)
        total = time.perf_counter() - t0
        prof.cpu["total"] = time.process_time() - c0
    return prof, kern, total


@contextlib.contextmanager
def fast_dtw(on: bool):
    """With ``on``, the solve's jobs that write dtw write it as a whole solve that prunes does
    (``Job.fast_dtw``: zstd's FAST_LEVEL, the pruned file beside it), though an --alone run
    prunes nothing."""
    from morris.solving import schedule
    from morris.solving.prune import dtw_subspaces, writes_dtw

    graph = schedule.job_graph

    def patched(variant, *a, **kw):  # (as though every dtw file were pruned at the end)
        jobs, deps = graph(variant, *a, **kw)
        every = {s for j in jobs if writes_dtw(j) for s in dtw_subspaces(j)}
        return schedule.fast_dtw_jobs(variant, jobs, deps, soon=every)

    if on:
        schedule.job_graph = patched
    try:
        yield
    finally:
        schedule.job_graph = graph


def report(result, json_path, arguments) -> int:
    """Print the tables of a profile (and write them to ``json_path``)."""
    prof, kern, total = result
    rows = sorted(prof.seconds.items(), key=lambda kv: -kv[1])
    other = "other (scheduling, hashing tables, ...)"
    cpu_total = prof.cpu.get("total", 0.0)
    cpu = dict(prof.cpu, **{other: cpu_total - sum(v for k, v in prof.cpu.items() if k != "total"),
                            "total": cpu_total})
    rest = total - sum(prof.seconds.values())

    def cores(phase, s):  # (cores busy on average: CPU seconds over seconds)
        return f"{cpu[phase] / s:6.2f}" if s > 0 else f"{'':>6}"

    print(f"{'phase':<40} {'seconds':>9} {'share':>6} {'calls':>6} {'cores':>6}")
    for phase, s in rows + [(other, rest)]:
        print(f"{phase:<40} {s:9.1f} {100 * s / total:5.1f}% {prof.calls.get(phase, ''):>6} "
              f"{cores(phase, s)}")
    print(f"{'total':<40} {total:9.1f} {'':>6} {'':>6} {cores('total', total)}")
    print(f"\n{'kernel (inside the phases above)':<40} {'seconds':>9} {'share':>6} {'calls':>6}")
    for name, s in sorted(kern.seconds.items(), key=lambda kv: -kv[1]):
        print(f"{name:<40} {s:9.1f} {100 * s / total:5.1f}% {kern.calls[name]:>6}")
    if json_path:
        with open(json_path, "w") as f:
            json.dump({"total": total, "phases": dict(prof.seconds), "calls": dict(prof.calls),
                       "cpu": cpu,
                       "kernels": dict(kern.seconds), "kernel_calls": dict(kern.calls),
                       "args": arguments}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
