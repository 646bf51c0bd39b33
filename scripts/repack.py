"""Rewrite database files in the current layout (block sizes, codecs, header fields), their
contents unchanged.

    python3 scripts/repack.py DIR [DIR ...] [--kinds values,dtw,draw]

Each file is read whole, checked against its checksum, and written again atomically with the
same header (rules, subspace, counts) and the same planes: values files (values and dtc), dtw
files (``.mtw``) and draw-value files (``.mdv``), the last two in the selected sections of
docs/format.md (only the decided, resp. drawn, slots), read back and compared on every used
slot before the next file.
"""

import argparse
import os
import time

import numpy as np

from morris.format.fileformat import (DRAWS_LEVEL, LAYOUT_KEYS, SELECT_LEVEL, TableFile, check_file,
                                      write_planes, write_table)
from morris.database.folders import DRAWS_SUFFIX, DTW_SUFFIX, beside, find_tables, stored_values

#: kind: (file suffix, its sections, zstd level)
SIDE = {"dtw": (DTW_SUFFIX, ("dtw",), SELECT_LEVEL), "draw": (DRAWS_SUFFIX, ("dv", "dd"), DRAWS_LEVEL)}


def repack(path):
    problem = check_file(path)
    if problem:
        raise SystemExit(problem)
    with TableFile(path) as tf:
        header = {k: v for k, v in tf.header.items() if k not in LAYOUT_KEYS}
        values, dtc = tf.values_all(), tf.dtc_all()
        anchors = np.array(tf.anchors, dtype=np.int64)
    write_table(path, header, values, dtc, anchors)


def repack_side(path, kind):
    """Rewrite a dtw or draw-value file; returns False where it was in the current layout."""
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.core.variants import variant_from_fields

    problem = check_file(path) or check_file(beside(path, "values"))
    if problem:
        raise SystemExit(problem)
    _, names, level = SIDE[kind]
    stored = stored_values(beside(path, "values"))
    with TableFile(path) as tf:
        if all("select" in tf.header["sections"][n] for n in names):
            return False
        header = {k: v for k, v in tf.header.items() if k not in LAYOUT_KEYS}
        planes = {n: tf.distance_all(n, stored) for n in names}
        anchors = np.array(tf.anchors, dtype=np.int64)
    used = Hasher(variant_from_fields(header).board).used_mask(Subspace.parse(header["subspace"]))
    write_planes(path, header, planes, anchors, level, stored, used)
    with TableFile(path) as tf:
        for n in names:
            again = tf.distance_all(n, stored)
            if not np.array_equal(again[used], planes[n][used]):
                raise SystemExit(f"{path}: the {n} plane reads back different: stop")
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--kinds", default="values,dtw,draw", help="which kinds of file (comma-separated)")
    args = ap.parse_args()
    kinds = args.kinds.split(",")
    for root in args.dirs:
        for kind in kinds:
            suffix = SIDE[kind][0] if kind in SIDE else None
            for path in (find_tables(root, suffix) if suffix else find_tables(root)):
                t = time.perf_counter()
                before = os.path.getsize(path)
                done = repack_side(path, kind) if suffix else (repack(path) or True)
                what = "kept (current layout)" if not done else f"-> {os.path.getsize(path):,} bytes"
                print(f"{path}: {before:,} {what} in {time.perf_counter() - t:.1f} s", flush=True)


if __name__ == "__main__":
    main()
