"""Where Lasker Morris's hand dtw and draw-value jobs spend their time, function by function.

    python3 bench/profile_hand.py --out DIR [--pieces 6]

DIR holds ``--variant lasker --pieces N --phase all --dtw --draws`` solved already (e.g. by
bench/game_rates.py). Every hand dtw and draw-value job (jobs.HandDtw, HandDraws) runs again
over it (its files are written again, the same bytes), with the solver's phase functions wrapped
by timers, and the seconds each spent of its own (less the wrapped functions it called) are
printed by kind of job.
"""

import argparse
import collections
import functools
import time

TOTALS = collections.Counter()
_STACK = []
_KIND = [None]


def timed(owner, name, label=None):
    """Wrap ``owner.name`` so that its own seconds go to TOTALS[(kind, label)]."""
    f = getattr(owner, name)
    label = label or name

    @functools.wraps(f)
    def wrapper(*a, **k):
        t0 = time.perf_counter()
        _STACK.append(label)
        try:
            return f(*a, **k)
        finally:
            _STACK.pop()
            dt = time.perf_counter() - t0
            TOTALS[(_KIND[0], label)] += dt
            if _STACK:
                TOTALS[(_KIND[0], _STACK[-1])] -= dt

    setattr(owner, name, wrapper)


def main(argv=None):
    from morris.core.variants import get_variant
    from morris.solving import jobs, retro
    from morris.solving.schedule import job_graph

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--pieces", type=int, default=6)
    args = ap.parse_args(argv)
    for n in ("count_exits", "propagate_dtw", "finish_dtw", "_count_draws", "lay_out",
              "sched_flags"):
        timed(retro, n)
    timed(retro.DK, "settle", "draws settle")
    timed(retro.DK, "promote_draws", "draws promote")
    timed(retro._Levels, "step", "propagation levels")
    for n in ("stored_values", "read_full_dtw", "read_draws", "write_planes"):
        timed(jobs, n, "file " + n)
    timed(jobs.Job, "write_dtw", "file write_dtw")
    timed(jobs.MovementDraws, "loaders", "file loaders")
    v = get_variant("lasker", pieces=args.pieces)
    graph, _ = job_graph(v, phase="all", dtw=True, draws=True)
    for j in graph:
        kind = ("dtw" if isinstance(j, jobs.HandDtw) else
                "draws" if isinstance(j, jobs.HandDraws) else None)
        if kind is None:
            continue
        _KIND[0] = kind
        t0 = time.perf_counter()
        j.run(args.out, v, None)
        TOTALS[(kind, "ALL")] += time.perf_counter() - t0
    for (kind, name), x in sorted(TOTALS.items()):
        print(f"{kind:6s} {name:30s} {x:8.1f} s")


if __name__ == "__main__":
    main()
