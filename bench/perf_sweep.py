"""Where the placement sweep's thread spends its time, instruction by instruction (Linux perf).

    python3 bench/perf_sweep.py --db tb 6-6+1+1 [--threads 1] [--top 12] [--out DIR]
        [--dtw] [--draws]

Loads the subspace's children from --db, runs the sweep once to compile it (with --dtw and
--draws: the complete sweep, the children's side planes read from their dtw and draw-value
files), then runs it again with ``perf record -e cpu-clock`` attached to this process (a
software clock: it works in a virtual machine without hardware counters). numba's machine code
has no symbols perf can read, so the script takes the compiled chunk function's address from
numba, dumps its bytes, and prints the hottest offsets in it with the disassembly before each
(``objdump``), and the share of all samples that fell inside the function. A sample lands on the
instruction after the one that stalled: a load that missed shows as the instruction that follows
it. Needs ``perf`` and ``objdump`` (Debian: linux-perf, binutils) and the right to profile this
process (root here).
"""

import argparse
import collections
import ctypes
import os
import subprocess
import sys
import tempfile
import time

#: bytes of machine code dumped from the chunk function's start (the complete sweep's is over 32 KB)
CODE_BYTES = 0x10000


def hottest(samples, base, size, top):
    """[(offset, count)] of the ``top`` most sampled addresses in [base, base + size), and how
    many of ``samples`` (addresses) fell there."""
    counts = collections.Counter(ip - base for ip in samples if base <= ip < base + size)
    return counts.most_common(top), sum(counts.values())


def around(asm_lines, offset, before=8):
    """The disassembly lines up to ``offset``'s (objdump's ``  off:`` prefix) and one after."""
    key = f"{offset:x}:"
    for i, line in enumerate(asm_lines):
        if line.strip().startswith(key):
            return asm_lines[max(0, i - before):i + 2]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--out", default=None, help="where the perf data and code dump go")
    ap.add_argument("--dtw", action="store_true", help="the complete sweep: dtw too")
    ap.add_argument("--draws", action="store_true", help="the complete sweep: draw values too")
    ap.add_argument("subspace")
    args = ap.parse_args()

    import numba

    from morris.core.variants import get_variant
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.kernels import placement as kernel
    from morris.solving import placement

    numba.set_num_threads(args.threads)
    out = args.out or tempfile.mkdtemp(prefix="perf-sweep-")
    os.makedirs(out, exist_ok=True)
    variant = get_variant(args.variant)
    hasher = Hasher(variant.board)
    sub = Subspace.parse(args.subspace)
    planes = placement.load_children(args.db, variant, sub)
    side = {}
    if args.dtw or args.draws:
        from morris.solving.jobs import side_planes
        side = side_planes(args.db, variant, planes, args.dtw, args.draws)
    placement.evaluate(variant, sub, planes, hasher, **side)  # compile (or load) the kernel
    compiled = list(kernel._sweep_rows.overloads.values())
    if len(compiled) != 1:
        sys.exit(f"expected one compiled sweep, found {len(compiled)}")
    cres = compiled[0]
    base = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    code = os.path.join(out, "sweep.bin")
    with open(code, "wb") as f:
        f.write(ctypes.string_at(base, CODE_BYTES))
    data = os.path.join(out, "perf.data")
    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-p",
                             str(os.getpid()), "-o", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # (perf attaches)
    t = time.perf_counter()
    placement.evaluate(variant, sub, planes, hasher, **side)
    took = time.perf_counter() - t
    perf.send_signal(2)
    perf.wait()
    ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True,
                         text=True, check=True).stdout.split()
    samples = [int(x, 16) for x in ips]
    asm = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64", code],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    top, inside = hottest(samples, base, CODE_BYTES, args.top)
    print(f"{sub}: sweep {took:.2f} s on {args.threads} thread(s); {len(samples):,} samples, "
          f"{inside / max(1, len(samples)):.1%} in the sweep's chunk function; files in {out}")
    for offset, n in top:
        print(f"\n--- +0x{offset:x}: {n / max(1, len(samples)):.2%} of the samples")
        print("\n".join(around(asm, offset)))


if __name__ == "__main__":
    main()
