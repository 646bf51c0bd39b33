"""Rewrite database files in the current layout (block sizes, header fields), values unchanged.

    python3 scripts/repack.py DIR [DIR ...]

Each file is read whole, checked against its checksum, and written again atomically with the
same header (rules, subspace, counts) and the same value and distance planes.
"""

import os
import sys
import time

import numpy as np

from morris.fileformat import TableFile, check_file, write_table
from morris.folders import find_tables


def repack(path):
    problem = check_file(path)
    if problem:
        raise SystemExit(problem)
    with TableFile(path) as tf:
        header = {k: v for k, v in tf.header.items() if k not in ("sections", "file_size", "slots", "anchor_fence")}
        values, dtc = tf.values_all(), tf.dtc_all()
        anchors = np.array(tf.anchors, dtype=np.int64)
    write_table(path, header, values, dtc, anchors)


def main():
    for root in sys.argv[1:]:
        for path in find_tables(root):
            t = time.perf_counter()
            before = os.path.getsize(path)
            repack(path)
            print(f"{path}: {before:,} -> {os.path.getsize(path):,} bytes in {time.perf_counter() - t:.1f} s", flush=True)


if __name__ == "__main__":
    main()
