"""Benchmark Lasker Morris's solve (the place-or-move turn) on a small game, by kind of job.

    python3 bench/bench_lasker.py --pieces 6 --out /tmp/lasker-bench [--phases]

Solves ``--variant lasker --pieces N --phase all`` from nothing into --out (which must not hold
it yet) and prints, for the movement pairs and for the hand pairs (jobs.HandPair: a subspace with
a piece in some hand, solved by retrograde analysis with every placement and removal an exit),
positions, seconds and positions per second per core, and the bits per position of their files.
With --phases it then solves every hand pair again (over the same files, which stay
byte-identical) and prints the seconds per phase: count (kernels/hand.count_hand_sweep),
propagate, finish, load, write.
"""

import argparse
import collections
import glob
import os
import sys
import time


def main(argv=None):
    import numba

    from morris.core.progress import Reporter
    from morris.core.variants import get_variant
    from morris.solving.jobs import HandPair
    from morris.solving.schedule import job_graph, solve

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pieces", type=int, default=6)
    ap.add_argument("--out", required=True)
    ap.add_argument("--phases", action="store_true")
    args = ap.parse_args(argv)
    v = get_variant("lasker", pieces=args.pieces)
    cores = numba.get_num_threads()
    t0 = time.perf_counter()
    s = solve(args.out, v, phase="all", reporter=Reporter(quiet=True))
    if s.skipped:
        sys.exit(f"{args.out} holds {len(s.skipped)} solved jobs already: give a new directory")
    agg = collections.defaultdict(lambda: [0, 0.0])
    for r in s.solved:
        k = "hand" if isinstance(r["job"], HandPair) else "movement"
        agg[k][0] += r["positions"]
        agg[k][1] += r["seconds"]
    size = collections.Counter()
    for f in glob.glob(os.path.join(args.out, v.ruleset_id, "*.mtb")):
        size["hand" if "+" in os.path.basename(f) else "movement"] += os.path.getsize(f)
    for k, (p, sec) in agg.items():
        print(f"{k} pairs: {p:,} positions in {sec:.1f} s: {p / sec / cores / 1e6:.2f} M positions/s/core, "
              f"{8 * size[k] / p:.2f} bits/position")
    print(f"in all {time.perf_counter() - t0:.1f} s on {cores} cores (compiling included)")
    if args.phases:
        jobs, _ = job_graph(v, phase="placement")
        tot = collections.Counter()
        for j in jobs:
            if isinstance(j, HandPair):
                for k, x in j.solve(args.out, v, Reporter(quiet=True))["seconds"].items():
                    tot[k] += x
        print("hand pairs by phase: " + ", ".join(f"{k} {x:.1f} s" for k, x in tot.items()))


if __name__ == "__main__":
    main()
