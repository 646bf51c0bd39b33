"""Whether two databases give every position the same dtw: each dtw file of A against B's file of
the same subspace, read whole (a pruned file's wins derived from its children's files:
solving/prune.read_full_dtw), compared on every used slot; the values files must be the same
bytes. Prints one line per ruleset and the files' sizes; exits 1 at the first difference.

    python3 scripts/same_dtw.py A B          # e.g. a solve with --full-dtw and one without

The check of the format change of round 4 (issue 31: dtw files that keep their losses only).
"""

import argparse
import filecmp
import os
import sys
import time


def compare_ruleset(a: str, b: str) -> tuple[int, int, int, int]:
    """(files, positions, bytes in a, bytes in b) of the dtw files of one ruleset folder."""
    from morris.core.variants import variant_from_fields
    from morris.database.folders import beside, stored_values
    from morris.format.fileformat import TableFile
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.solving.prune import read_full_dtw

    files = positions = size_a = size_b = 0
    for name in sorted(n for n in os.listdir(a) if n.endswith(".mtw")):
        pa, pb = os.path.join(a, name), os.path.join(b, name)
        if not os.path.exists(pb):
            sys.exit(f"{pb} is missing")
        if not filecmp.cmp(beside(pa, "values"), beside(pb, "values"), shallow=False):
            sys.exit(f"{beside(pa, 'values')} and {beside(pb, 'values')} differ")
        values = stored_values(beside(pa, "values"))
        with TableFile(pa) as tf:
            header = tf.header
        board = variant_from_fields(header).board
        used = Hasher(board).used_mask(Subspace.parse(header["subspace"]))
        da, db = read_full_dtw(pa, values), read_full_dtw(pb, values)
        if not (da[used] == db[used]).all():
            sys.exit(f"{name}: the dtw differs on {int((da[used] != db[used]).sum())} positions")
        files += 1
        positions += int(used.sum())
        size_a += os.path.getsize(pa)
        size_b += os.path.getsize(pb)
    return files, positions, size_a, size_b


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args()
    for ruleset in sorted(os.listdir(args.a)):
        ra, rb = os.path.join(args.a, ruleset), os.path.join(args.b, ruleset)
        if not os.path.isdir(ra):
            continue
        t0 = time.perf_counter()
        files, positions, sa, sb = compare_ruleset(ra, rb)
        print(f"{ruleset}: {files} dtw files, {positions:,} positions, the same dtw; "
              f"{sa:,} bytes ({8 * sa / max(1, positions):.3f} bits/position) against "
              f"{sb:,} ({8 * sb / max(1, positions):.3f}); {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
