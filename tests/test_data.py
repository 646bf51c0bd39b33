"""The shipped data: checksums, databases that verify and that a fresh solve reproduces byte for
byte, and reference positions that the databases agree with."""

import csv
import hashlib
import os

from morris.core.errors import MissingSubspaceError
from morris.core.position import Position
from morris.lookups.tablebase import open_tablebase
from morris.solving.verify import verify

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


def test_checksums():
    with open(os.path.join(DATA, "SHA256SUMS")) as f:
        lines = [l.split("  ", 1) for l in f.read().splitlines() if l]
    assert len(lines) >= 200
    for digest, name in lines:
        with open(os.path.join(DATA, name), "rb") as g:
            assert hashlib.sha256(g.read()).hexdigest() == digest, name


def test_shipped_six_databases_verify_and_are_reproduced(whole_game):
    """The shipped files' headers and checksums hold, and a fresh solve writes them again byte
    for byte: their values are then the fresh solve's, which the forward check of the whole
    game covers (test_draws.test_placement_draw_values_agree_with_plain_recursion[six])."""
    shipped = os.path.join(DATA, "six-nofly")  # (the standard book: test_book.py)
    report = verify(shipped, forward=False)
    assert report.ok and len(report.files) == 219
    fresh = whole_game("six") / "six-nofly"  # (solved with dtw and draw values too: same values)
    names = sorted(os.listdir(shipped))
    assert names == sorted(n for n in os.listdir(fresh) if n.endswith(".mtb"))
    for n in names:
        assert (fresh / n).read_bytes() == open(os.path.join(shipped, n), "rb").read(), n


def test_reference_positions(placed):
    checked = 0
    with open(os.path.join(DATA, "reference-positions.tsv")) as f, \
            open_tablebase(placed) as tb, open_tablebase(DATA) as shipped:
        rows = list(csv.DictReader(f, delimiter="\t"))
        assert len(rows) >= 199
        for row in rows:
            pos = Position.parse(row["position"], row["variant"])
            want = (row["value"], int(row["dtc"]) if row["dtc"] else None)
            for db in (tb, shipped):
                try:
                    r = db.probe(pos)
                except MissingSubspaceError:
                    continue
                assert (r.value, r.dtc) == want, row
                checked += 1
    assert checked >= 17  # the 3-3 .. 4-4 rows, the longest 3-3 loss, six's start
