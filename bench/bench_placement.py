"""Time the placement sweep kernel alone on given subspaces (children loaded first, untimed).

    python3 bench/bench_placement.py --db tb 5-5+1+0 6-6+1+1 [--runs 3] [--threads 2]
        [--dtw] [--draws]

Needs the children's files in --db (solve the subspaces once first; with --dtw and --draws,
their dtw and draw-value files too: the complete sweep, as ``morris solve --dtw --draws`` runs
it). Prints, per subspace, the median sweep time of --runs runs and positions per second per
thread (positions: the Burnside count of the subspace, as in the file header). Works with the
version of the package installed (run it from an older install to measure "before").
"""

import argparse
import statistics
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--dtw", action="store_true", help="the sweep computes dtw too")
    ap.add_argument("--draws", action="store_true", help="the sweep computes draw values too")
    ap.add_argument("subspaces", nargs="+")
    args = ap.parse_args()

    import numba

    from morris.solving import placement
    from morris.database.folders import file_path, read_planes
    from morris.hashing.index import Hasher, count_positions
    from morris.hashing.subspaces import Subspace, placement_inputs
    from morris.core.variants import get_variant

    if args.threads:
        numba.set_num_threads(args.threads)
    threads = numba.get_num_threads()
    v = get_variant(args.variant)
    hasher = Hasher(v.board)
    total_pos = total_s = 0.0
    for name in args.subspaces:
        sub = Subspace.parse(name)
        if hasattr(placement, "load_children"):
            planes = placement.load_children(args.db, v, sub)
        else:  # before the packed planes
            planes = {c: read_planes(file_path(args.db, v, c), with_dtc=c.placement)
                      for c in placement_inputs(sub, v.rules.double_mill_removes, v.rules.count_hand)}
        side = {}
        if args.dtw or args.draws:  # (an install of before 2026-12-05 lacks it)
            from morris.solving.jobs import side_planes
            side = side_planes(args.db, v, planes, args.dtw, args.draws)
        placement.evaluate(v, sub, planes, hasher, **side)  # compile and warm
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            placement.evaluate(v, sub, planes, hasher, **side)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        pos = count_positions(v.board, sub.m, sub.o)
        total_pos += pos
        total_s += med
        print(f"{name}: {pos:,} positions, median {med:.2f} s of {args.runs} "
              f"({', '.join(f'{x:.2f}' for x in times)}), "
              f"{pos / med / 1e6 / threads:.2f} M positions/s/thread ({threads} threads)")
    print(f"all: {total_pos:,.0f} positions in {total_s:.2f} s: "
          f"{total_pos / total_s / 1e6 / threads:.2f} M positions/s/thread ({threads} threads)")


if __name__ == "__main__":
    main()
