"""Solve a variant's placement phase by the sweep, then check it against the alpha-beta search.

    python3 bench/crosscheck_placement.py --db /tmp/morris-bench --variant standard-5 [--count 2000] [--write-doc]

Needs the movement databases in --db. Compares the start position and --count random placement
positions (reached by random play), and prints the time and size of the sweep.
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default="/tmp/morris-bench")
    ap.add_argument("--variant", default="standard-5")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args()

    from morris.solving.schedule import solve_placement
    from morris.core.position import Position
    from morris.core.progress import Reporter
    from morris.lookups.search import PlacementSearch
    from morris.lookups.tablebase import open_tablebase
    from morris.core.variants import get_variant

    v = get_variant(args.variant)
    info = solve_placement(args.db, v, reporter=Reporter(quiet=True))
    print(f"{v.name}: placement sweep {info['solved']} subspaces ({info['positions']:,} positions) "
          f"in {info['seconds']:.1f} s ({info['skipped']} already complete)")
    t = time.perf_counter()
    search = PlacementSearch(args.db, v)
    names = {1: "win", 0: "draw", -1: "loss"}
    rng = np.random.default_rng(1)
    checked = mismatches = 0
    with open_tablebase(args.db) as tb:
        start = Position.start(v)
        swept_start = tb.probe_wdl(start)
        searched_start = names[search.value(start)]
        while checked < args.count:
            pos = start
            for _ in range(int(rng.integers(0, 2 * v.pieces))):
                ms = pos.legal_moves()
                if not ms:
                    break
                pos = pos.play(ms[int(rng.integers(len(ms)))])
            if not pos.in_placement:
                continue
            checked += 1
            mismatches += tb.probe_wdl(pos) != names[search.value(pos)]
    secs = time.perf_counter() - t
    print(f"start: sweep {swept_start}, search {searched_start}; {checked} random placement positions, "
          f"{mismatches} mismatches ({secs:.1f} s, {search.nodes:,} search nodes)")
    assert swept_start == searched_start and mismatches == 0
    if args.write_doc:
        from _report import machine, write_section

        write_section(f"placement-{v.name}", "\n".join([
            f"Measured with `python3 bench/crosscheck_placement.py --db {args.db} --variant {v.name} "
            f"--count {args.count} --write-doc` on {machine()}.", "",
            f"| variant | placement subspaces | positions swept in this run (subspaces not shared with a smaller variant) | sweep s | start (sweep / search) | random positions compared | mismatches |",
            "|---|---:|---:|---:|---|---:|---:|",
            f"| {v.name} | {info['solved'] + info['skipped']} | {info['positions']:,} | {info['seconds']:.1f} | "
            f"{swept_start} / {searched_start} | {checked} | {mismatches} |",
        ]))


if __name__ == "__main__":
    main()
