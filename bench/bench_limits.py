"""Benchmark solving under a no-removal limit against the unlimited solve of the same subspaces.

    python3 bench/bench_limits.py --variant standard --max-pieces 5 --limit 100 [--runs 3]

Each run solves the movement phase (up to --max-pieces a side) into a fresh directory without
the limit, then with it (the unlimited files are its twins, so the second solve is the limited
passes alone), timing both in this process after one warm-up run that compiles the kernels.
Prints the medians, the ratio, the positions per second per core, the bytes and bits per
position of the limited files against the unlimited ones (the curse plane's share apart), and
the cursed wins and blessed losses per subspace of the last run.
"""

import argparse
import os
import shutil
import statistics
import tempfile
import time

import numpy as np


def section_bytes(path, name):
    from morris.format.fileformat import TableFile

    with TableFile(path) as tf:
        if name not in tf.header["sections"]:
            return 0
        return int(np.diff(tf.offsets(name)).sum())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--max-pieces", type=int, default=5)
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--endgame-limit", type=int, default=None)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tmp", default=None, help="where the run directories go (default: system temp)")
    args = ap.parse_args()

    import numba

    from morris.database.folders import file_path
    from morris.core.progress import Reporter
    from morris.solving.schedule import solve
    from morris.hashing.subspaces import movement_subspaces
    from morris.core.variants import get_variant

    limited = get_variant(args.variant, no_removal_limit=args.limit,
                          endgame_no_removal_limit=args.endgame_limit)
    base = limited.unlimited
    quiet = Reporter(quiet=True)
    cores = numba.get_num_threads()
    warm = tempfile.mkdtemp(dir=args.tmp)
    solve(warm, limited, max_pieces=min(4, args.max_pieces), reporter=quiet)  # compile
    shutil.rmtree(warm)
    times = {"unlimited": [], "limited": []}
    for _ in range(args.runs):
        out = tempfile.mkdtemp(dir=args.tmp)
        t = time.perf_counter()
        s1 = solve(out, base, max_pieces=args.max_pieces, reporter=quiet)
        times["unlimited"].append(time.perf_counter() - t)
        t = time.perf_counter()
        s2 = solve(out, limited, max_pieces=args.max_pieces, reporter=quiet)
        times["limited"].append(time.perf_counter() - t)
        assert len(s2.skipped) == len(s1.solved), "the unlimited twins should all be complete"
        last = out
        if len(times["limited"]) < args.runs:
            shutil.rmtree(out)
    subs = movement_subspaces(limited, args.max_pieces)
    positions = sum(r["positions"] for r in s1.solved)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{limited.ruleset_id} up to {args.max_pieces} a side: {len(subs)} subspaces, "
          f"{positions:,} positions, {cores} threads, {args.runs} runs")
    for k in ("unlimited", "limited"):
        runs = ", ".join(f"{x:.1f}" for x in times[k])
        print(f"  {k:<9} median {med[k]:.1f} s ({runs}): {positions / med[k] / cores / 1e6:.2f} M positions/s/core")
    print(f"  limited / unlimited: {med['limited'] / med['unlimited']:.2f}x")
    from morris.format.fileformat import TableFile

    size = {"unlimited": 0, "limited": 0, "curse": 0}
    rows = []
    for s in subs:
        pu, pl = file_path(last, base, s), file_path(last, limited, s)
        size["unlimited"] += os.path.getsize(pu)
        size["limited"] += os.path.getsize(pl)
        size["curse"] += section_bytes(pl, "curse")
        with TableFile(pl) as tf:
            h = tf.header
        rows.append((s.name, h["positions"], h["wins"], h["losses"], h["cursed_wins"], h["blessed_losses"],
                     h["max_win_dtc"], h["max_loss_dtc"]))
    bits = {k: 8 * v / positions for k, v in size.items()}
    print(f"  files: unlimited {size['unlimited']:,} bytes ({bits['unlimited']:.3f} bits/position), "
          f"limited {size['limited']:,} bytes ({bits['limited']:.3f} bits/position, of which the curse "
          f"plane {bits['curse']:.3f})")
    print("  subspace  positions  wins  losses  cursed-wins  blessed-losses  maxW  maxL (under the limit)")
    for r in rows:
        print(f"  {r[0]:>8} {r[1]:>12,} {r[2]:>12,} {r[3]:>12,} {r[4]:>12,} {r[5]:>12,} {r[6]:>5} {r[7]:>5}")
    shutil.rmtree(last)


if __name__ == "__main__":
    main()
