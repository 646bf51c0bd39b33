"""The movement-phase solver against the naive reference, and the verifier."""

import os

import numpy as np
import pytest

import naive
from morris.format.fileformat import TableFile
from morris.hashing.index import Hasher, popcounts
from morris.hashing.subspaces import Subspace
from morris.core.variants import get_variant
from morris.solving.verify import verify

NAMES = {0: "draw", 1: "win", 2: "loss"}


def compare_with_naive(db, variant, top):
    ref = naive.solve_up_to(variant, top)
    h = Hasher(variant.board)
    keys = np.array(list(ref.keys()), dtype=np.int64)
    movers, opps = keys[:, 0], keys[:, 1]
    idx = h.index_batch(movers, opps)
    pm, po = popcounts(movers), popcounts(opps)
    planes = {}
    mismatches = 0
    for i, (val, dtc) in enumerate(ref.values()):
        sub = Subspace(int(pm[i]), int(po[i]))
        if sub not in planes:
            path = os.path.join(db, variant.ruleset_id, sub.name + ".mtb")
            with TableFile(path) as tf:
                planes[sub] = (tf.values_all(), tf.dtc_all())
        v, d = planes[sub]
        got = NAMES[int(v[idx[i]])]
        if got != val or (val != "draw" and int(d[idx[i]]) != dtc):
            mismatches += 1
    return len(ref), mismatches


def test_six_mens_morris_up_to_4_4_matches_naive_solver(solved, graphs, horizons):
    """Every raw position of Six Men's Morris up to 4-4 (no flying): the value and dtc in the
    files against naive.dtc_by_horizon over the raw move graph (rules.py, no symmetry). The
    breadth-first naive solver (naive.solve_up_to) checks the standard 3-3 (--runslow)."""
    v = get_variant("six")
    graph = graphs[False]
    value, _ = horizons(False)
    dtc = naive.dtc_by_horizon(graph, value)
    keys = np.array(graph[0], dtype=np.int64)
    h = Hasher(v.board)
    idx = h.index_batch(keys[:, 0], keys[:, 1])
    pm, po = popcounts(keys[:, 0]), popcounts(keys[:, 1])
    mismatches = 0
    for m, o in [(3, 3), (4, 3), (3, 4), (4, 4)]:
        with TableFile(os.path.join(solved, v.ruleset_id, Subspace(m, o).name + ".mtb")) as tf:
            vals, dist = tf.values_all(), tf.dtc_all()
        sel = (pm == m) & (po == o)
        code = vals[idx[sel]]
        want = np.select([value[sel] == 1, value[sel] == -1], [1, 2], 0)
        got_d = np.where(code == 0, -1, dist[idx[sel]].astype(np.int64))
        mismatches += int(((code != want) | (got_d != dtc[sel])).sum())
    assert len(keys) == 1_861_860
    assert mismatches == 0
    assert dtc.max() >= 10  # long conversions are compared too


@pytest.mark.slow
def test_standard_3_3_matches_naive_solver(solved):
    # about 5 minutes and 2.6 GB in plain Python
    count, mismatches = compare_with_naive(solved, get_variant("standard"), 3)
    assert count == 2_691_920
    assert mismatches == 0


def test_gasser_3_3_figures(solved):
    with TableFile(os.path.join(solved, "standard", "3-3.mtb")) as tf:
        h = tf.header
    assert h["positions"] == 169_626
    assert h["max_loss_dtc"] == 26  # longest forced loss in 3-3 (Gasser 1996)
    assert 0.82 < h["wins"] / h["positions"] < 0.84


def test_verify_catches_a_wrong_value(solved, tmp_path):
    """A file rewritten with one value changed (valid checksum) fails the forward check."""
    import shutil

    from morris.format.fileformat import write_table

    db = tmp_path / "db"  # the standard game's movement files (not Six's, nor placement's)
    shutil.copytree(os.path.join(solved, "standard"), db / "standard", ignore=shutil.ignore_patterns("*+*"))
    path = db / "standard" / "3-3.mtb"
    with TableFile(path) as tf:
        header, vals, dtc, anchors = dict(tf.header), tf.values_all(), tf.dtc_all(), list(tf.anchors)
    h = Hasher(get_variant("standard").board)
    _, _, used = h.unindex_batch(Subspace(3, 3), np.arange(len(vals)))
    victim = int(np.flatnonzero(used & (vals == 1))[100])
    vals = vals.copy()
    vals[victim] = 2
    header.pop("sections"), header.pop("file_size"), header.pop("slots")
    write_table(str(path), header, vals, dtc, np.array(anchors))
    report = verify(str(db))
    bad = [f for f in report.files if not f.ok]
    assert [os.path.basename(f.path) for f in bad] != []
    f33 = next(f for f in report.files if f.path.endswith("standard/3-3.mtb"))
    assert f33.mismatches >= 1
    assert not report.ok
