"""Benchmark: the same solve in this process, on a local process pool and on a Dask LocalCluster.

    python3 bench/bench_cluster.py [--max-pieces 6] [--workers 2] [--write-doc]

Each run starts from an empty directory and is timed from the command's start to its end
(cluster start-up included); the files of all runs must be identical.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def digest(d):
    h = hashlib.sha256()
    for root, _, names in sorted(os.walk(d)):
        for n in sorted(names):
            if n.endswith(".mtb"):
                h.update(n.encode())
                h.update(open(os.path.join(root, n), "rb").read())
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-pieces", type=int, default=6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args()
    runs = [("in this process (default)", []), (f"--jobs {args.workers}", ["--jobs", str(args.workers)]),
            (f"--dask local:{args.workers}", ["--dask", f"local:{args.workers}"])]
    rows = []
    digests = set()
    for name, extra in runs:
        out = tempfile.mkdtemp(prefix="morris-cluster-")
        cmd = [sys.executable, "-m", "cli.main", "solve", "--out", out, "--quiet",
               "--max-pieces", str(args.max_pieces), *extra]
        t = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        wall = time.perf_counter() - t
        digests.add(digest(out))
        shutil.rmtree(out)
        rows.append((name, wall))
        print(f"{name}: {wall:.1f} s", flush=True)
    assert len(digests) == 1, "the runs wrote different files"
    if args.write_doc:
        from _report import machine, write_section

        base = rows[0][1]
        lines = [f"Measured with `python3 bench/bench_cluster.py --max-pieces {args.max_pieces} "
                 f"--workers {args.workers} --write-doc` on {machine()}: the standard movement phase up to "
                 f"{args.max_pieces} a side from nothing, wall time of the whole command; all runs wrote "
                 f"identical files.", "", "| how | seconds | speed-up |", "|---|---:|---:|"]
        for name, wall in rows:
            lines.append(f"| `morris solve` {name} | {wall:.1f} | {base / wall:.2f}x |")
        lines += ["", "On one 2-core machine there is nothing to gain: the default already keeps both cores "
                  "busy inside each job, and separate workers only add start-up and let two jobs compete "
                  "for the same cores and memory bandwidth. The gain comes from more machines, bounded "
                  "by the critical path above."]
        write_section("cluster", "\n".join(lines), path=os.path.join(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))), "docs", "cluster.md"))


if __name__ == "__main__":
    main()
