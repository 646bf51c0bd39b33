"""Time the phases of one movement pair's passes on solved files: the values count, and the
draw-value pass (its count, the step that takes the moves into won positions off the counts,
the grades' levels).

    python3 bench/bench_pair.py --db DIR [--variant standard] [--runs 3] 6-5 6-6
    python3 bench/bench_pair.py --db tb --no-draws --levels 2,4,5 7-5

``--db`` must hold the pair's values and draw-value files and those of the pairs its removals
lead to (e.g. ``morris solve --out DIR --max-pieces 6 --draws``; with ``--no-draws`` the values
files only). Prints the median of --runs runs of each phase (the machine's other work shows in
them: run it with nothing else going). ``--levels`` also times the values' ``emit`` alone over
those levels (the predecessors of the positions decided there, from the pair's solved files:
every unit scanned, no ``apply``), in ns a decided position and thread.
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


def time_emit(variant, hasher, top, db, levels, runs):
    """The values' ``emit`` alone over ``levels`` of the pair of ``top``, its states rebuilt
    from the solved files (a decided position: its dtc and code; the rest undecided, or unused):
    (median seconds, decided positions, entries emitted, threads). The levels' own loop
    (``_Levels.step``) runs emit, its apply only counting the entries."""
    import numba
    import numpy as np
    from morris.format.fileformat import TableFile
    from morris.kernels import retro as K
    from morris.solving import jobs as J, retro as R

    pair = R.lay_out(hasher, top, variant)
    for p, s in enumerate(pair.parts):
        with TableFile(J.file_path(db, variant, s)) as tf:
            val, dtc = tf.values_all(), tf.dtc_all()
        decided = (val == K.WIN) | (val == K.LOSS)
        st = np.where(decided, (dtc.astype(np.uint16) << 2) | val, 0).astype(np.uint16)
        st[val == K.UNUSED] = K.UNUSED
        pair.st[pair.offs[p]:pair.offs[p] + len(st)] = st
    code = pair.st & 3
    at = pair.st >> 2
    ndec = sum(int(((at == d) & (code != 0) & (code != K.UNUSED)).sum()) for d in levels)
    lv = R._Levels(variant, hasher, top, pair)
    flags = np.ones(lv.nunits, dtype=np.uint8)
    times = []
    entries = [0]

    def tally(buf, buf_n, *_):  # the level loop's apply, here only counting emit's entries
        entries[0] += int(buf_n.sum())

    for _ in range(runs + 1):  # (the first compiles or loads the kernel)
        t = time.perf_counter()
        entries[0] = 0
        for d in levels:
            lv.step(d, flags, tally)
        times.append(time.perf_counter() - t)
    if lv.errors.any():
        raise RuntimeError("emit reported errors")
    return statistics.median(times[1:]), ndec, entries[0], numba.get_num_threads()


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
    ap.add_argument("--levels", default=None, help="e.g. 2,4,5: time the values' emit there")
    ap.add_argument("--no-draws", action="store_true", help="the values' phases only")
    ap.add_argument("pairs", nargs="+")
    args = ap.parse_args(argv)

    import numba
    from morris.core.variants import get_variant
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace

    variant = get_variant(args.variant)
    hasher = Hasher(variant.board)
    for name in args.pairs:
        top = Subspace.parse(name)
        count_s, slots = time_values_count(variant, hasher, top, args.db, args.runs)
        print(f"{name}: values count {count_s:.2f} s ({slots:,} slots, "
              f"{count_s * 1e9 * numba.get_num_threads() / slots:.0f} ns a slot and thread; "
              f"median of {args.runs})")
        if args.levels:
            levels = [int(x) for x in args.levels.split(",")]
            sec, ndec, entries, threads = time_emit(variant, hasher, top, args.db, levels,
                                                   args.runs)
            print(f"{name}: emit at levels {args.levels} {sec:.2f} s: {ndec:,} decided "
                  f"positions, {entries:,} entries, {sec * 1e9 * threads / max(1, ndec):.0f} ns "
                  f"a decided position and thread (median of {args.runs})")
        if args.no_draws:
            continue
        runs = [time_draws(variant, hasher, top, args.db) for _ in range(args.runs)]
        med = {k: statistics.median(r[k] for r in runs)
               for k in ("count", "won step", "grades", "total")}
        print(f"{name}: draw values {med['total']:.1f} s: count {med['count']:.1f} s, won step "
              f"{med['won step']:.1f} s, grades {med['grades']:.1f} s ({runs[0]['levels']} levels, "
              f"{runs[0]['units']:,} flagged units scanned; medians of {args.runs})")


if __name__ == "__main__":
    main()
