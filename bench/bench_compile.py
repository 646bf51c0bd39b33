"""Time numba's compiling of the kernels from a cold cache: what a fresh clone's test suite pays.

    python3 bench/bench_compile.py [--work DIR] [--keep]

Runs, in one process with an empty numba cache (a new ``NUMBA_CACHE_DIR``), the standard board's
and Lasker Morris's 3-a-side games whole with dtw and draw values, each followed by ``morris
verify``: every parallel kernel of the solver and the verifier compiles once. Prints each
command's seconds, then the compile seconds of the kernels that took longest (numba's compile
events; a kernel's figure includes the functions compiled inside it, such as its chunk
function, which are also listed) and the total of the outermost compiles. Works with the
version of the package installed (run it from an older install to measure "before").
"""

import argparse
import collections
import os
import shutil
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default=None,
                    help="where the databases go (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the databases and the cache")
    ap.add_argument("--top", type=int, default=16)
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="morris-compile-")
    cache = tempfile.mkdtemp(prefix="numba-cache-")
    os.environ["NUMBA_CACHE_DIR"] = cache  # before numba is imported
    from numba.core import event

    started, seconds, calls, depth = {}, collections.defaultdict(float), collections.Counter(), [0]
    outer = [0.0]

    class Listener(event.Listener):
        def on_start(self, ev):
            started[id(ev.data["dispatcher"]), str(ev.data["args"])] = time.perf_counter()
            depth[0] += 1

        def on_end(self, ev):
            depth[0] -= 1
            d = ev.data["dispatcher"]
            t0 = started.pop((id(d), str(ev.data["args"])), None)
            if t0 is None:
                return
            name = d.py_func.__module__.replace("morris.", "") + "." + d.py_func.__qualname__
            took = time.perf_counter() - t0
            seconds[name] += took
            calls[name] += 1
            if depth[0] == 0:
                outer[0] += took

    event.register("numba:compile", Listener())
    from morris.cli.main import cli

    whole = ["--phase", "all", "--dtw", "--draws", "--quiet"]
    runs = [
        ["solve", "--out", f"{work}/s", "--variant", "standard-3"] + whole,
        ["verify", "--db", f"{work}/s", "--quiet"],
        ["solve", "--out", f"{work}/l", "--variant", "lasker", "--pieces", "3"] + whole,
        ["verify", "--db", f"{work}/l", "--quiet"],
    ]
    total = 0.0
    with open(os.devnull, "w") as devnull:
        for argv in runs:
            total += _run(cli, argv, devnull, work)
    print(f"{total:7.1f} s  in all; compiling (outermost compiles) {outer[0]:.1f} s")
    print("compile seconds (inclusive), compiles, kernel:")
    for name, s in sorted(seconds.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{s:7.1f} {calls[name]:3d}  {name}")
    if not args.keep:
        shutil.rmtree(cache, ignore_errors=True)
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


def _run(cli, argv, devnull, work) -> float:
    """Run one ``morris`` command in this process, its output dropped; print and return its
    seconds."""
    t0 = time.perf_counter()
    out, sys.stdout = sys.stdout, devnull
    try:
        cli.main(args=argv, prog_name="morris", standalone_mode=False)
    except SystemExit as e:  # a command that ends with sys.exit
        if e.code:
            raise
    finally:
        sys.stdout = out
    took = time.perf_counter() - t0
    print(f"{took:7.1f} s  morris {' '.join(a for a in argv if not a.startswith(work))}")
    return took


if __name__ == "__main__":
    main()
