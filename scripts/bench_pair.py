"""Time the phases of one movement pair's passes on solved files: the values count, and the
draw-value pass (its count, the step that takes the moves into won positions off the counts,
the grades' levels).

    python3 scripts/bench_pair.py --db DIR [--variant standard] [--runs 3] 6-5 6-6

``--db`` must hold the pair's values and draw-value files and those of the pairs its removals
lead to (e.g. ``morris solve --out DIR --max-pieces 6 --draws``). Prints the median of --runs
runs of each phase (the machine's other work shows in them: run it with nothing else going).
"""

import argparse
import statistics
import time


def time_values_count(variant, hasher, top, db, runs):
    """Median seconds of the values' count phase (retro.count) of the pair of ``top``."""
    from morris.core.progress import Reporter
    from morris.solving import retro as R
    from morris.solving.jobs import MovementPair

    children = MovementPair(top).child_planes(db, variant)
    pair = R.lay_out(hasher, top, variant)
    times = []
    for _ in range(runs + 1):  # (the first compiles or loads the kernel)
        t = time.perf_counter()
        R.count(variant, hasher, top, pair, children, Reporter(quiet=True))
        times.append(time.perf_counter() - t)
    return statistics.median(times[1:]), sum(pair.slots)


def time_draws(variant, hasher, top, db):
    """Seconds of the draw-value pass of the pair of ``top`` by part: {count, won step,
    grades, total}, and the levels and flagged units of the grades."""
    from morris.format.fileformat import TableFile
    from morris.kernels import draws as DK
    from morris.solving import jobs as J, retro as R

    steps = []
    counted = [0.0]
    step, count_draws = R._Levels.step, DK.count_draws

    def timed_step(self, d, flags, apply):
        t = time.perf_counter()
        out = step(self, d, flags, apply)
        steps.append((int(flags.sum()), time.perf_counter() - t))
        return out

    def timed_count(*args):
        t = time.perf_counter()
        count_draws(*args)
        counted[0] += time.perf_counter() - t

    headers = {}
    for s in top.pair:
        with TableFile(J.file_path(db, variant, s)) as tf:
            headers[s] = tf.header

    def values(s):
        return J.stored_values(J.file_path(db, variant, s))

    def children(c):
        v = values(c)
        return v, J.read_draws(J.file_path(db, variant, c, "draw"), v, distances=False)[0]

    R._Levels.step, DK.count_draws = timed_step, timed_count
    try:
        t = time.perf_counter()
        R.solve_pair_draws(variant, top, values, children, J.pair_ranks(headers), hasher)
        total = time.perf_counter() - t
    finally:
        R._Levels.step, DK.count_draws = step, count_draws
    return {"count": counted[0], "won step": steps[0][1] if steps else 0.0,
            "grades": sum(s for _, s in steps[1:]), "total": total,
            "levels": len(steps) - 1, "units": sum(u for u, _ in steps[1:])}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("pairs", nargs="+")
    args = ap.parse_args(argv)

    from morris.core.variants import get_variant
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace

    variant = get_variant(args.variant)
    hasher = Hasher(variant.board)
    for name in args.pairs:
        top = Subspace.parse(name)
        count_s, slots = time_values_count(variant, hasher, top, args.db, args.runs)
        print(f"{name}: values count {count_s:.2f} s ({slots:,} slots, median of {args.runs})")
        runs = [time_draws(variant, hasher, top, args.db) for _ in range(args.runs)]
        med = {k: statistics.median(r[k] for r in runs)
               for k in ("count", "won step", "grades", "total")}
        print(f"{name}: draw values {med['total']:.1f} s: count {med['count']:.1f} s, won step "
              f"{med['won step']:.1f} s, grades {med['grades']:.1f} s ({runs[0]['levels']} levels, "
              f"{runs[0]['units']:,} flagged units scanned; medians of {args.runs})")


if __name__ == "__main__":
    main()
