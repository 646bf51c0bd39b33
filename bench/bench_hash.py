"""Benchmark: index and unindex throughput per core on random positions of a subspace.

    python3 bench/bench_hash.py [--subspace 8-8] [--count 2000000] [--repeat 5]

Positions are random raw positions (random points for each side, in any symmetric orientation),
so every index call canonicalises. Runs with one numba thread (per-core figures) and prints the
median of the repeats.
"""

import argparse
import os
import statistics
import sys
import time

import numba
import numpy as np

from morris.hashing.index import Hasher
from morris.hashing.subspaces import Subspace
from morris.core.variants import get_variant


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--subspace", default="8-8")
    ap.add_argument("--count", type=int, default=2_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args()
    numba.set_num_threads(1)
    board = get_variant(args.variant).board
    sub = Subspace.parse(args.subspace)
    h = Hasher(board)
    rng = np.random.default_rng(1)
    perm = np.argsort(rng.random((args.count, board.n)), axis=1)
    bits = np.int64(1) << perm.astype(np.int64)
    movers = bits[:, : sub.m].sum(axis=1)
    opps = bits[:, sub.m : sub.m + sub.o].sum(axis=1)
    h.index_batch(movers[:1000], opps[:1000])  # compile and build tables
    slots = h.slots(sub)
    idx = rng.integers(0, slots, size=args.count)
    h.unindex_batch(sub, idx[:1000])
    ti, tu = [], []
    for _ in range(args.repeat):
        t = time.perf_counter()
        out = h.index_batch(movers, opps)
        ti.append(time.perf_counter() - t)
        t = time.perf_counter()
        h.unindex_batch(sub, idx)
        tu.append(time.perf_counter() - t)
    assert out.max() < slots
    mi = args.count / statistics.median(ti) / 1e6
    mu = args.count / statistics.median(tu) / 1e6
    print(f"subspace {sub} ({slots:,} slots), {args.count:,} random positions, 1 thread, median of {args.repeat}")
    print(f"index:   {mi:6.1f} M/s per core")
    print(f"unindex: {mu:6.1f} M/s per core")
    if args.write_doc:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from _report import machine, write_section

        write_section(f"hash-{sub}", "\n".join([
            f"Measured with `python3 bench/bench_hash.py --subspace {sub} --count {args.count} --repeat {args.repeat} --write-doc` "
            f"on {machine()} (one thread; median of {args.repeat}; random raw positions, so every index call canonicalises).",
            "",
            "| subspace | slots | index | unindex |",
            "|---|---:|---:|---:|",
            f"| {sub} | {slots:,} | {mi:.1f} M/s per core | {mu:.1f} M/s per core |",
        ]))


if __name__ == "__main__":
    main()
