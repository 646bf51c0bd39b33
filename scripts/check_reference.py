"""Probe every reference position of data/reference-positions.tsv in a database directory.

    python3 scripts/check_reference.py --db /tmp/morris-bench

Exit 1 if any value or distance differs; positions whose subspace is missing are reported.
"""

import argparse
import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    args = ap.parse_args()
    sys.path.insert(0, ROOT)
    from morris.core.errors import MissingSubspaceError
    from morris.core.position import Position
    from morris.lookups.tablebase import open_tablebase

    bad = missing = ok = 0
    with open_tablebase(args.db) as tb, open(os.path.join(ROOT, "data", "reference-positions.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            pos = Position.parse(row["position"], row["variant"])
            try:
                r = tb.probe(pos)
            except MissingSubspaceError:
                missing += 1
                continue
            want_dtc = int(row["dtc"]) if row["dtc"] else None
            if (r.value, r.dtc) != (row["value"], want_dtc):
                bad += 1
                print(f"MISMATCH {row['variant']} {row['position']}: {r} != {row['value']} {want_dtc}")
            else:
                ok += 1
    print(f"{ok} agree, {bad} differ, {missing} not covered by {args.db}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
