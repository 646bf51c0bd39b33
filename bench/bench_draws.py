"""The draw values of movement pairs, timed on a solved database (issue 31).

    python3 bench/bench_draws.py --db tb 8-5 7-5 6-6 [--runs 2] [--variant six --no-flying]

Solves each pair's draw values again in this process (``retro.solve_pair_draws``, as the
``MovementDraws`` job does: the pair's values and its children's draw-value files read from
--db) and prints, per run, the whole pass and its count phase: ``count`` (``count_draws``
over both parts) and ``level 0`` (the predecessors of won positions that take the moves into
them off the counts). The planes are compared with --db's draw-value files (the script fails
where they differ). Another install's code runs the same with its python:
``/path/venv/bin/python bench/bench_draws.py ...`` (the job's loaders, or for code that
predates them the same written out, called without ``tallies``).
"""

import argparse
import statistics
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--no-flying", action="store_true")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("pairs", nargs="+", help="one subspace of each pair, e.g. 8-5")
    args = ap.parse_args()

    import numpy as np

    import morris
    from morris.core.variants import get_variant
    from morris.database.folders import file_path, read_draws
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.solving import retro
    from morris.solving.jobs import pair_job

    v = get_variant(args.variant, flying=False if args.no_flying else None)
    times = {}
    step = retro._Levels.step
    count = retro.DK.count_draws

    def timed_step(self, d, flags, apply):
        t = time.perf_counter()
        out = step(self, d, flags, apply)
        if d == 0:
            times["level 0"] = times.get("level 0", 0.0) + time.perf_counter() - t
        return out

    def timed_count(*a):
        t = time.perf_counter()
        count(*a)
        times["count"] = times.get("count", 0.0) + time.perf_counter() - t

    retro._Levels.step = timed_step
    retro.DK.count_draws = timed_count

    print(f"code: {morris.__file__}")
    for name in args.pairs:
        top = Subspace.parse(name)
        job = pair_job("draws", top)
        # the job's own loaders (code from before them: the same, written out here)
        values, children, ranks, tallies = (job.loaders(args.db, v) if hasattr(job, "loaders")
                                            else _loaders(args.db, v, top))
        rows = []
        for _ in range(args.runs):
            times.clear()
            t = time.perf_counter()
            if tallies is None:  # code from before the tallies
                got = retro.solve_pair_draws(v, top, values, children, ranks, Hasher(v.board))
            else:
                got = retro.solve_pair_draws(v, top, values, children, ranks, Hasher(v.board),
                                             None, tallies)
            total = time.perf_counter() - t
            for s in top.pair:
                want = read_draws(file_path(args.db, v, s, "draw"), values(s))
                if not all(np.array_equal(a, b) for a, b in zip(got[s], want)):
                    sys.exit(f"{s}: the draw values differ from {args.db}'s file")
            del got
            rows.append((total, times.get("count", 0.0), times.get("level 0", 0.0)))
            print(f"{name}: {total:.1f} s (count {rows[-1][1]:.1f} s, level 0 {rows[-1][2]:.1f} s);"
                  " the planes the same as the files'", flush=True)
        if len(rows) > 1:
            med = [statistics.median(r[k] for r in rows) for k in range(3)]
            print(f"{name}: median of {len(rows)}: {med[0]:.1f} s (count {med[1]:.1f}, "
                  f"level 0 {med[2]:.1f})")


def _loaders(db, v, top):
    """(values, children, ranks, None): the loaders of ``MovementDraws.run`` in the code from
    before ``MovementDraws.loaders`` and ``tallies``, for timing that code."""
    from morris.core.draws import pair_ranks
    from morris.database.folders import file_path, read_draws, stored_values
    from morris.format.fileformat import TableFile

    headers = {}
    for s in top.pair:
        with TableFile(file_path(db, v, s)) as tf:
            headers[s] = tf.header

    def values(s):
        return stored_values(file_path(db, v, s))

    def children(c):
        x = values(c)
        return x, read_draws(file_path(db, v, c, "draw"), x, distances=False)[0]

    return values, children, pair_ranks(headers), None


if __name__ == "__main__":
    main()
