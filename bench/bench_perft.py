"""Benchmark: perft with the numba generator against the pure-Python reference.

    python3 bench/bench_perft.py [--depth 5] [--repeat 3] [--write-doc]

Both run single-threaded from the start position (and from a movement position with flying) and
must give the same count; prints the median times and the speed-up.
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args()

    from morris.hashing.perft import perft
    from morris.core.position import Position

    cases = [("start", Position.start(), args.depth),
             ("a1,d1,g1,b2,d2/a7,d7,g7 w (black flies)", Position.parse("a1,d1,g1,b2,d2/a7,d7,g7 w"), 4)]
    rows = []
    for name, pos, depth in cases:
        perft(pos, 2, parallel=False)  # compile
        tp, tn = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            a = perft(pos, depth, python=True)
            tp.append(time.perf_counter() - t)
            t = time.perf_counter()
            b = perft(pos, depth, parallel=False)
            tn.append(time.perf_counter() - t)
            assert a == b, (name, a, b)
        p, n = statistics.median(tp), statistics.median(tn)
        rows.append((name, depth, a, p, n))
        print(f"{name}: perft({depth}) = {a:,}; python {p:.2f} s, numba {n * 1000:.1f} ms: {p / n:.0f}x")
    if args.write_doc:
        from _report import machine, write_section

        lines = [f"Measured with `python3 bench/bench_perft.py --depth {args.depth} --repeat {args.repeat} --write-doc` "
                 f"on {machine()}; one thread each, median of {args.repeat}; both counts agree.", "",
                 "| position | depth | perft | pure Python | numba | speed-up |", "|---|---:|---:|---:|---:|---:|"]
        for name, d, c, p, n in rows:
            lines.append(f"| {name} | {d} | {c:,} | {p:.2f} s | {n * 1000:.1f} ms | {p / n:.0f}x |")
        write_section("perft", "\n".join(lines))


if __name__ == "__main__":
    main()
