"""Whether two databases give every position the same dtw: each dtw file of A against B's file of
the same subspace, read whole (a pruned file's wins derived from its children's files:
solving/prune.read_full_dtw), compared on every used slot; the values files must hold the same
contents (the same bytes, or the same planes where a writer compressed them otherwise:
scripts/same_values.py). Prints one line per ruleset and the files' sizes; exits 1 at the first difference.

    python3 scripts/same_dtw.py A B          # e.g. a solve with --full-dtw and one without
    python3 scripts/same_dtw.py data tb      # the shipped opening book against a whole solve

The check of the format change of round 4 (issue 31: dtw files that keep their losses only).
Draw-value files that both hold must be the same bytes too. A ruleset of A that B does not
hold is named and skipped (the shipped ``data`` holds Six Men's Morris beside the book): the
book's 32 subspaces, written by round 3's complete solve, are the top of the standard game,
whose values depend on every file below them.
"""

import filecmp
import os
import sys
import time


def compare_ruleset(a: str, b: str) -> tuple:
    """(files, positions, bytes in a, bytes in b, {kind: files the same bytes}) of the dtw
    files of one ruleset folder and the values and draw-value files beside them."""
    from morris.core.variants import variant_from_fields
    from morris.database.folders import beside, stored_values
    from morris.format.fileformat import TableFile
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.solving.prune import read_full_dtw
    from same_values import contents_differ  # (scripts/, beside this one)

    files = positions = size_a = size_b = 0
    same = {"values": 0, "draw": 0}
    for name in sorted(n for n in os.listdir(a) if n.endswith(".mtw")):
        pa, pb = os.path.join(a, name), os.path.join(b, name)
        if not os.path.exists(pb):
            sys.exit(f"{pb} is missing")
        for kind in ("values", "draw"):
            fa, fb = beside(pa, kind), beside(pb, kind)
            if kind == "draw" and not (os.path.exists(fa) and os.path.exists(fb)):
                continue
            if kind == "values":
                why = contents_differ(fa, fb)
                if why:
                    sys.exit(f"{fa} and {fb}: {why}")
            elif not filecmp.cmp(fa, fb, shallow=False):
                sys.exit(f"{fa} and {fb} differ")
            same[kind] += 1
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
    return files, positions, size_a, size_b, same


def main():
    from same_values import rulesets  # (scripts/, beside this one)

    for ruleset, ra, rb in rulesets():
        t0 = time.perf_counter()
        files, positions, sa, sb, same = compare_ruleset(ra, rb)
        print(f"{ruleset}: {files} dtw files, {positions:,} positions, the same dtw; "
              f"{sa:,} bytes ({8 * sa / max(1, positions):.3f} bits/position) against "
              f"{sb:,} ({8 * sb / max(1, positions):.3f}); values files the same contents: "
              f"{same['values']}, draw-value files: {same['draw']}; "
              f"{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
