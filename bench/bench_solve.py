"""Benchmark the movement-phase solve, pair by pair, and project the rest.

    python3 bench/bench_solve.py --out /tmp/morris-bench --max-pieces 6 [--write-doc]

Each pair runs in its own process (so its peak resident memory is its own). Pairs already
complete in --out are not re-solved unless --fresh; their timings then come from the last run's
record (``bench-solve.json`` in --out). Prints a table: positions, seconds per phase, positions
per second per core, peak memory, bytes of memory per slot, and bits per position of the value
(wdl) and distance (dtc) planes. With --write-doc the table and a projection for every pair not
run go to docs/benchmarks.md.
"""

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def solve_pair_child(out, variant_name, pair):
    from morris.hashing.subspaces import Subspace
    from morris.core.progress import Reporter
    from morris.solving.jobs import MovementPair
    from morris.core.variants import get_variant

    v = get_variant(variant_name)
    info = MovementPair(Subspace.parse(pair)).solve(out, v, Reporter(quiet=True))
    print(json.dumps({"seconds": info["seconds"], "levels": info["levels"],
                      "positions": sum(h["positions"] for h in info["stats"].values())}))


def plane_bits(path):
    import numpy as np

    from morris.format.fileformat import TableFile

    with TableFile(path) as tf:
        p = tf.header["positions"]
        wdl = int(np.diff(tf.offsets("wdl")).sum())
        dtc = int(np.diff(tf.offsets("dtc")).sum())
        return p, wdl, dtc, os.path.getsize(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/morris-bench")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--max-pieces", type=int, default=6)
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--write-doc", action="store_true")
    ap.add_argument("--child", nargs=3, metavar=("OUT", "VARIANT", "PAIR"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return solve_pair_child(*args.child)

    from morris.database.folders import file_path
    from morris.hashing.index import Hasher, count_positions
    from morris.solving.jobs import MovementPair
    from morris.solving.schedule import job_graph

    def plan(v, max_pieces=None):  # the movement pairs, each after the pairs it reads
        return [j.sub for j in job_graph(v, max_pieces=max_pieces)[0] if isinstance(j, MovementPair)]
    from morris.core.variants import get_variant

    import numba

    v = get_variant(args.variant)
    cores = numba.get_num_threads()
    record_path = os.path.join(args.out, "bench-solve.json")
    record = json.load(open(record_path)) if os.path.exists(record_path) and not args.fresh else {}
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for top in plan(v, max_pieces=args.max_pieces):
        name = "/".join(s.name for s in top.pair)
        if args.fresh or not MovementPair(top).done(args.out, v) or name not in record:
            for s in top.pair:
                p = file_path(args.out, v, s)
                if os.path.exists(p):
                    os.remove(p)
            t = time.perf_counter()
            proc = subprocess.Popen([sys.executable, __file__, "--child", args.out, args.variant, top.name],
                                    stdout=subprocess.PIPE, text=True)
            out = proc.stdout.read()
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - t
            if status != 0:
                raise SystemExit(f"pair {name} failed")
            info = json.loads(out.strip().splitlines()[-1])
            record[name] = {"wall": wall, "peak_mb": usage.ru_maxrss / 1024, **info}
            json.dump(record, open(record_path, "w"), indent=1)
        r = record[name]
        p_tot = wdl = dtc = size = 0
        for s in top.pair:
            p, a, b, c = plane_bits(file_path(args.out, v, s))
            p_tot += p
            wdl += a
            dtc += b
            size += c
        h = Hasher(v.board)
        slots = sum(h.slots(s) for s in top.pair)
        solve_s = sum(r["seconds"].values())
        rows.append({
            "pair": name, "positions": p_tot, "slots": slots, "levels": r["levels"], "wall": r["wall"],
            "solve_s": solve_s, "seconds": r["seconds"], "per_core": p_tot / solve_s / cores,
            "peak_mb": r["peak_mb"], "bytes_per_slot": r["peak_mb"] * 2**20 / slots,
            "wdl_bits": 8 * wdl / p_tot, "dtc_bits": 8 * dtc / p_tot, "bytes": size,
        })
        print(f"{name:>9} {p_tot:>13,} pos {solve_s:7.1f} s {rows[-1]['per_core'] / 1e6:5.2f} M/s/core "
              f"peak {r['peak_mb']:7.0f} MB wdl {rows[-1]['wdl_bits']:.3f} dtc {rows[-1]['dtc_bits']:.3f} bits/pos", flush=True)

    tot_p = sum(r["positions"] for r in rows)
    tot_s = sum(r["solve_s"] for r in rows)
    tot_wdl = sum(r["wdl_bits"] * r["positions"] for r in rows) / 8
    tot_dtc = sum(r["dtc_bits"] * r["positions"] for r in rows) / 8
    print(f"total {tot_p:,} positions in {tot_s:.1f} s: {tot_p / tot_s / cores / 1e6:.2f} M positions/s/core; "
          f"wdl {8 * tot_wdl / tot_p:.3f} bits/pos, dtc {8 * tot_dtc / tot_p:.3f} bits/pos")
    if not args.write_doc:
        return

    from _report import machine, write_section

    lines = [
        f"Measured with `python3 bench/bench_solve.py --out {args.out} --max-pieces {args.max_pieces} --write-doc` "
        f"on {machine()}. Each pair in its own process; seconds are the solver's own phases "
        f"(load, count, propagate, finish, write), M/s/core = positions / seconds / {cores} cores; "
        f"peak = the process's peak resident memory; wdl and dtc = compressed planes in bits per position.",
        "",
        "| pair | positions | levels | load | count | propagate | write | total s | M pos/s/core | peak MB | bytes/slot | wdl bits | dtc bits |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        s = r["seconds"]
        lines.append(
            f"| {r['pair']} | {r['positions']:,} | {r['levels']} | {s['load']:.1f} | {s['count']:.1f} | "
            f"{s['propagate']:.1f} | {s['write']:.1f} | {r['solve_s']:.1f} | {r['per_core'] / 1e6:.2f} | "
            f"{r['peak_mb']:.0f} | {r['bytes_per_slot']:.2f} | {r['wdl_bits']:.3f} | {r['dtc_bits']:.3f} |"
        )
    lines.append(
        f"| **total** | {tot_p:,} | | | | | | {tot_s:.1f} | {tot_p / tot_s / cores / 1e6:.2f} | | | "
        f"{8 * tot_wdl / tot_p:.3f} | {8 * tot_dtc / tot_p:.3f} |"
    )
    # projection for the pairs not run, from the largest pairs measured
    big = sorted(rows, key=lambda r: r["positions"])[-3:]
    rate = sum(r["positions"] for r in big) / sum(r["solve_s"] for r in big)
    bps = max(r["bytes_per_slot"] for r in big)
    wdl_b = sum(r["wdl_bits"] * r["positions"] for r in big) / sum(r["positions"] for r in big)
    dtc_b = sum(r["dtc_bits"] * r["positions"] for r in big) / sum(r["positions"] for r in big)
    done = {r["pair"] for r in rows}
    rest = [t for t in plan(v) if "/".join(s.name for s in t.pair) not in done]
    h = Hasher(v.board)
    proj = []
    for t in rest:
        pos = sum(count_positions(v.board, s.m, s.o) for s in t.pair)
        slots = sum(h.slots(s) for s in t.pair)
        child_slots = sum(h.slots(c) for c in {s2 for s2 in ((s.o - 1, s.m) for s in t.pair)} if False) if False else 0
        proj.append((t, pos, slots, pos / rate))
    if proj:
        lines += [
            "",
            f"Projection for the pairs not run, from the three largest measured pairs: {rate / 1e6:.2f} M positions/s "
            f"({rate / cores / 1e6:.2f} per core), at most {bps:.2f} bytes of peak memory per slot of the pair, "
            f"{wdl_b:.3f} + {dtc_b:.3f} bits per position on disk. (Projected, not measured.)",
            "",
            "| pair | positions | projected s | projected peak MB | projected MB on disk |",
            "|---|---:|---:|---:|---:|",
        ]
        for t, pos, slots, secs in proj:
            lines.append(
                f"| {'/'.join(s.name for s in t.pair)} | {pos:,} | {secs:.0f} | {bps * slots / 2**20:.0f} | "
                f"{pos * (wdl_b + dtc_b) / 8 / 2**20:.0f} |"
            )
        all_pos = tot_p + sum(p for _, p, _, _ in proj)
        all_s = tot_s + sum(s for *_, s in proj)
        lines.append(f"| **all 49 subspaces** | {all_pos:,} | {all_s:.0f} | | {all_pos * (wdl_b + dtc_b) / 8 / 2**20:.0f} |")
    write_section(f"solve-{args.variant}", "\n".join(lines))


if __name__ == "__main__":
    main()
