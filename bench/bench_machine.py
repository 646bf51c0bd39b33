"""What the machine gives a solve: one core's arithmetic, a dependent load from memory, and
random loads that may overlap, each on one process alone and on two at once.

    python3 bench/bench_machine.py [--mb 1024] [--runs 3] [--json FILE]    (about 4.5 min)

The solver's kernels are made of these: a chain of dependent table loads (the perfect hash),
random loads from large planes (a child's value, a predecessor's slot) that prefetching can
overlap, and arithmetic. Timings of the same code differ between the machines these sessions
get by up to 2x (docs/benchmarks.md), so a figure is worth comparing only with the machine's
own. The test tells whether two cores are two (``spin`` alone and in a pair the same: not two
threads of one core) and whether two threads share the memory's latency or bandwidth
(``chase`` and ``gather`` the same alone and in a pair).

- ``spin``: ns per step of a multiply-xor chain (no memory);
- ``chase``: ns per load of a pointer chase through one random cycle over ``--mb`` MiB (each load
  waits on the one before: the memory's latency, TLB misses included);
- ``gather``: ns per load of random slots of the same array, the addresses known ahead (the
  loads overlap: what prefetching can reach);
- ``l2gather``: the same within 256 KiB (a cache's latency and throughput).

Each is run ``--runs`` times in one process alone, then in two processes at once (the medians
of each).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
from numba import njit

KINDS = ("spin", "chase", "gather", "l2gather")


@njit(cache=True)
def spin(n):
    x = 1
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFF
        x ^= x >> 7
    return x


@njit(cache=True)
def chase(a, n):
    j = 0
    for _ in range(n):
        j = a[j]
    return j


@njit(cache=True)
def gather(a, n, mask):
    s = 0
    x = 1
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFF
        s += a[(x >> 8) & mask]
    return s


def one_cycle(size: int, seed: int = 0) -> np.ndarray:
    """``a`` with ``a[order[i]] = order[i + 1]`` round a random order of every index: following
    it from any index visits all ``size`` of them before it comes back (one cycle)."""
    order = np.random.default_rng(seed).permutation(size)
    a = np.empty(size, dtype=np.int64)
    a[order] = np.roll(order, -1)
    return a


def measure(kind: str, mb: int, steps: int) -> float:
    """ns per step of ``kind`` in this process."""
    size = 1 << max(10, (mb * 2 ** 20 // 8).bit_length() - 1)  # a power of two of int64
    if kind == "spin":
        spin(10)
        t = time.perf_counter()
        spin(steps)
    else:
        a = one_cycle(size if kind != "l2gather" else 1 << 15)
        run = (lambda n: chase(a, n)) if kind == "chase" else (lambda n: gather(a, n, a.size - 1))
        run(10)
        t = time.perf_counter()
        run(steps)
    return (time.perf_counter() - t) / steps * 1e9


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=int, default=1024, help="size of the array of chase and gather")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", default=None)
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)  # (a child process: one kind)
    ap.add_argument("--steps", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    steps = {"spin": 500_000_000, "chase": 10_000_000, "gather": 50_000_000,
             "l2gather": 200_000_000}
    if args.one:
        print(measure(args.one, args.mb, args.steps or steps[args.one]))
        return 0
    me = [sys.executable, os.path.abspath(__file__), "--mb", str(args.mb)]
    rows = {}
    for kind in KINDS:
        alone, pair = [], []
        for _ in range(args.runs):
            out = subprocess.run(me + ["--one", kind], capture_output=True, text=True, check=True)
            alone.append(float(out.stdout))
            procs = [subprocess.Popen(me + ["--one", kind], stdout=subprocess.PIPE, text=True)
                     for _ in range(2)]
            pair += [float(p.communicate()[0]) for p in procs]
        rows[kind] = {"alone": statistics.median(alone), "pair": statistics.median(pair)}
        print(f"{kind:9s} alone {rows[kind]['alone']:8.2f} ns, two at once "
              f"{rows[kind]['pair']:8.2f} ns ({rows[kind]['pair'] / rows[kind]['alone']:.2f}x)",
              flush=True)
    if args.json:
        with open(args.json + ".tmp", "w") as f:
            json.dump({"mb": args.mb, "runs": args.runs, "ns": rows}, f, indent=1)
        os.replace(args.json + ".tmp", args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
