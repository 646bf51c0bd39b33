"""Regenerate data/: the shipped Six Men's Morris databases, reference positions, checksums.

    python3 scripts/make_data.py --standard-db /tmp/morris-bench

- data/six-nofly/: every database of Six Men's Morris (both phases), solved from nothing.
- data/reference-positions.tsv: positions with their values, for regression checks: for each
  standard movement subspace some random positions (from a complete standard database), the
  longest loss of 3-3, and both start positions.
- data/SHA256SUMS: checksums of every file above (sha256sum -c data/SHA256SUMS).
"""

import argparse
import hashlib
import os
import shutil
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--standard-db", required=True, help="a directory with all standard movement subspaces")
    ap.add_argument("--per-subspace", type=int, default=4)
    args = ap.parse_args()
    sys.path.insert(0, ROOT)
    from morris.format.fileformat import TableFile
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import movement_subspaces
    from morris.core.position import Position
    from morris.core.progress import Reporter
    from morris.solving.schedule import solve
    from morris.lookups.tablebase import open_tablebase
    from morris.core.variants import get_variant

    os.makedirs(DATA, exist_ok=True)
    six = get_variant("six")
    tmp = tempfile.mkdtemp()
    solve(tmp, six, phase="all", reporter=Reporter(quiet=True))
    shutil.rmtree(os.path.join(DATA, six.ruleset_id), ignore_errors=True)
    shutil.copytree(os.path.join(tmp, six.ruleset_id), os.path.join(DATA, six.ruleset_id))
    shutil.rmtree(tmp)

    std = get_variant("standard")
    h = Hasher(std.board)
    rng = np.random.default_rng(2026)
    rows = []
    with open_tablebase(args.standard_db) as tb, open_tablebase(DATA) as small:
        for sub in movement_subspaces(std):
            got = 0
            while got < args.per_subspace:
                m, o, u = h.unindex_batch(sub, rng.integers(0, h.slots(sub), 8))
                for a, b, ok in zip(m, o, u):
                    if ok and got < args.per_subspace:
                        pos = Position.from_mover(std, int(rng.integers(2)), int(a), int(b))
                        r = tb.probe(pos)
                        rows.append(("standard", pos.to_compact(), r.value, r.dtc, f"random {sub}"))
                        got += 1
        with TableFile(os.path.join(args.standard_db, "standard", "3-3.mtb")) as tf:
            vals, dtc = tf.values_all(), tf.dtc_all()
        i = int(np.flatnonzero((vals == 2) & (dtc == dtc[vals == 2].max()))[0])
        mv, op, _ = h.unindex_py(movement_subspaces(std)[0], i, list(tf_anchors(args.standard_db)))
        pos = Position.from_mover(std, 0, mv, op)
        r = tb.probe(pos)
        rows.append(("standard", pos.to_compact(), r.value, r.dtc, "longest loss in 3-3 (Gasser 1996: 26)"))
        rows.append(("standard", Position.start(std).to_compact(), "draw", None, "start (Gasser 1996; verify-draw)"))
        r = small.probe(Position.start(six))
        rows.append(("six", Position.start(six).to_compact(), r.value, r.dtc, "start (placement sweep)"))
    with open(os.path.join(DATA, "reference-positions.tsv"), "w") as f:
        f.write("variant\tposition\tvalue\tdtc\tsource\n")
        for v, p, val, d, src in rows:
            f.write(f"{v}\t{p}\t{val}\t{'' if d is None else d}\t{src}\n")
    count = write_checksums(DATA)
    print(f"data/: {count} files, {len(rows)} reference positions")


def write_checksums(data) -> int:
    """Rewrite data/SHA256SUMS over every file but itself and the READMEs (atomically)."""
    sums = []
    for root, dirs, names in os.walk(data):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for n in sorted(names):
            if n == "SHA256SUMS" or n.endswith(".md"):
                continue
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            sums.append(f"{digest}  {os.path.relpath(p, data)}")
    tmp = os.path.join(data, "SHA256SUMS.tmp")
    with open(tmp, "w") as f:
        f.write("\n".join(sums) + "\n")
    os.replace(tmp, os.path.join(data, "SHA256SUMS"))
    return len(sums)


def tf_anchors(db):
    from morris.format.fileformat import TableFile

    with TableFile(os.path.join(db, "standard", "3-3.mtb")) as tf:
        return list(tf.anchors)


if __name__ == "__main__":
    main()
