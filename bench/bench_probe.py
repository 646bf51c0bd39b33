"""Benchmark lookups: warm random probes, and cold first probes in new processes.

    python3 bench/bench_probe.py --db /tmp/morris-bench [--count 20000] [--cold 20] [--write-doc]

Positions are drawn uniformly from all positions of the movement subspaces in --db (a random
subspace weighted by its positions, a random used slot, a random symmetric image and colour).
Warm: the files read once (so the page cache holds them), then one process times probes one by
one after 200 untimed ones. Cold: each sample is a new process, the database files dropped from
the page cache first (posix_fadvise), timing open_tablebase + the first probe (imports excluded),
then the first probe_dtw of the same position (its dtw file read cold).

With --dtw (--draws), positions come only from subspaces with dtw (draw-value) files and
probe_dtw (probe_draw) is timed too.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

COLD = r"""
import sys, time
from morris.core.position import Position
from morris.lookups.tablebase import open_tablebase
from morris.core.variants import get_variant
db, text = sys.argv[1], sys.argv[2]
v = get_variant("standard")
t0 = time.perf_counter()
tb = open_tablebase(db)
pos = Position.parse(text, v)
t1 = time.perf_counter()
r = tb.probe(pos)
t2 = time.perf_counter()
w = tb.probe_dtw(pos) if sys.argv[3] == "dtw" else None
t3 = time.perf_counter()
print((t1 - t0) * 1e6, (t2 - t1) * 1e6, (t3 - t2) * 1e6, r.value)
"""

#: the kinds of file a benchmark reads: --dtw and --draws add theirs
SUFFIXES = {"dtw": ".mtw", "draws": ".mdv"}


def sample_positions(db, count, seed=1, kinds=()):
    import numpy as np

    from morris.format.fileformat import TableFile
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.core.position import Position
    from morris.core.variants import get_variant
    from morris.database.folders import find_tables

    v = get_variant("standard")
    h = Hasher(v.board)
    subs, weights = [], []
    for path in find_tables(os.path.join(db, "standard")):
        with TableFile(path) as tf:
            if tf.header["phase"] == "movement" and all(
                    os.path.isfile(path[:-4] + SUFFIXES[k]) for k in kinds):
                subs.append(Subspace.parse(tf.header["subspace"]))
                weights.append(tf.header["positions"])
    rng = np.random.default_rng(seed)
    w = np.array(weights, dtype=float)
    out = []
    while len(out) < count:
        sub = subs[rng.choice(len(subs), p=w / w.sum())]
        idx = rng.integers(0, h.slots(sub), 64)
        movers, opps, used = h.unindex_batch(sub, idx)
        for m, o, u in zip(movers, opps, used):
            if u and len(out) < count:
                s = int(rng.integers(len(v.board.symmetries)))
                m2 = v.board.symmetries.apply(s, int(m))
                o2 = v.board.symmetries.apply(s, int(o))
                out.append(Position.from_mover(v, int(rng.integers(2)), m2, o2))
    return out


def all_files(db):
    from morris.database.folders import find_tables

    return [p for s in (".mtb",) + tuple(SUFFIXES.values()) for p in find_tables(db, s)]


def warm_cache(db):
    """Read every file once, so that the page cache holds them (a warm machine)."""
    for path in all_files(db):
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass


def drop_cache(db):
    for path in all_files(db):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default="/tmp/morris-bench")
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--cold", type=int, default=20)
    ap.add_argument("--write-doc", action="store_true")
    ap.add_argument("--dtw", action="store_true", help="also probe_dtw (subspaces with dtw files)")
    ap.add_argument("--draws", action="store_true", help="also probe_draw (subspaces with draw-value files)")
    args = ap.parse_args()

    from morris.lookups.tablebase import open_tablebase

    kinds = [k for k in ("dtw", "draws") if getattr(args, k)]
    positions = sample_positions(args.db, args.count + 200, kinds=kinds)
    warm_cache(args.db)
    warm = {}
    names = ["probe", "probe_wdl"] + (["probe_dtw"] if args.dtw else []) + (["probe_draw"] if args.draws else [])
    with open_tablebase(args.db) as tb:
        for name in names:
            f = getattr(tb, name)
            for p in positions[:200]:
                f(p)
            ts = []
            for p in positions[200:]:
                t = time.perf_counter()
                f(p)
                ts.append(time.perf_counter() - t)
            ts.sort()
            warm[name] = (statistics.median(ts) * 1e6, ts[int(0.9 * len(ts))] * 1e6)
            print(f"warm {name}: median {warm[name][0]:.1f} us, p90 {warm[name][1]:.1f} us over {len(ts):,} random positions")
    if args.cold <= 0:  # warm probes only
        return
    opens, firsts, dtws = [], [], []
    for i in range(args.cold):
        drop_cache(args.db)
        text = positions[i].to_compact()
        out = subprocess.run([sys.executable, "-c", COLD, args.db, text, "dtw" if args.dtw else "-"],
                             capture_output=True, text=True, check=True)
        a, b, c, _ = out.stdout.split()
        opens.append(float(a))
        firsts.append(float(b))
        dtws.append(float(c))
    both = [a + b for a, b in zip(opens, firsts)]
    print(f"cold first probe: median {statistics.median(firsts):.0f} us (open_tablebase + probe: "
          f"median {statistics.median(both):.0f} us, max {max(both):.0f} us) over {args.cold} new processes")
    if args.dtw:
        total = [a + b for a, b in zip(firsts, dtws)]
        print(f"cold first probe_dtw after it: median {statistics.median(dtws):.0f} us, max {max(dtws):.0f} us; "
              f"probe + probe_dtw: median {statistics.median(total):.0f} us, max {max(total):.0f} us")
    if args.write_doc:
        from _report import machine, write_section

        write_section("probe", "\n".join([
            f"Measured with `python3 bench/bench_probe.py --db {args.db} --count {args.count} --cold {args.cold} --write-doc` "
            f"on {machine()}, over the movement subspaces in the database (positions drawn uniformly; "
            f"warm: the files in the page cache; cold: a new process, the files evicted from the page cache).",
            "",
            "| lookup | median | p90 |",
            "|---|---:|---:|",
            f"| warm `probe` (value and dtc) | {warm['probe'][0]:.1f} us | {warm['probe'][1]:.1f} us |",
            f"| warm `probe_wdl` (value only) | {warm['probe_wdl'][0]:.1f} us | {warm['probe_wdl'][1]:.1f} us |",
            f"| cold: first `probe` in a new process, files evicted from the page cache | {statistics.median(firsts):.0f} us | {sorted(firsts)[int(0.9 * len(firsts))]:.0f} us |",
            f"| cold: `open_tablebase` + first `probe` | {statistics.median(both):.0f} us | {sorted(both)[int(0.9 * len(both))]:.0f} us |",
        ]))


if __name__ == "__main__":
    main()
