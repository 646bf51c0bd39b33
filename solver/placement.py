"""Placement phase: values of positions with pieces in hand.

Every placement adds a piece, so the placement phase is a directed acyclic graph over layers (the
number of pieces placed so far, subspaces.py). Each placement subspace is evaluated in one
forward pass from its children in the next layer, or, after the last placement, from the
movement-phase databases; the scheduler runs the subspaces last layer first
(jobs.PlacementSubspace). No iteration is needed.

Distance (``dtc``) of a placement position: plies to the next removal or to the end of placement,
whichever comes first (the winner hurrying, the loser delaying); a removal, or the last
placement, counts 1. It is stored like the movement phase's and read by the same ``probe``.
"""

from __future__ import annotations

import os

import numpy as np

from .dbfile import TableFile, check_file, read_planes, table_path
from .index import Hasher
from .progress import Reporter
from .subspaces import Subspace, placement_children, placement_inputs, reads_file

_EMPTY = np.zeros(0, np.uint8)


def evaluate(variant, sub: Subspace, planes: dict, hasher: Hasher, lo=0, hi=None, reporter=None):
    """(values, dtc) of slots [lo, hi) of a placement subspace from its children's planes
    (``planes[child] = (values, distances or None)``, for every child it reads)."""
    from .kernels.placement import placement_eval

    rep = reporter or Reporter(quiet=True)
    dm = variant.rules.double_mill_removes
    kids = placement_children(sub, dm)
    sizes = {sub.o}
    cinfo = np.zeros((3, 3), dtype=np.int64)
    arrays = []
    for k in range(3):
        if k in kids:
            c, mv = kids[k]
            cinfo[k] = (c.m, c.o, 1 if mv else 0)
            sizes.add(c.o)
            if reads_file(c, mv):
                vals, dtc = planes[c]
                arrays += [vals, _EMPTY if mv or dtc is None else dtc.astype(np.uint8, copy=False)]
                continue
        arrays += [_EMPTY, _EMPTY]
    Ob = hasher.orbits(sizes)
    slots = hasher.slots(sub)
    hi = slots if hi is None else hi
    vals = np.empty(hi - lo, dtype=np.uint8)
    dtc = np.empty(hi - lo, dtype=np.uint8)
    step = max(1 << 20, (hi - lo) // 50)
    with rep.bar(total=hi - lo, desc=f"{sub} placement", unit="pos") as bar:
        for a in range(lo, hi, step):
            b = min(hi, a + step)
            placement_eval(hasher.tables, Ob, dm, sub.m, sub.o, sub.hm, sub.ho, a, b,
                           vals[a - lo:b - lo], dtc[a - lo:b - lo], cinfo, *arrays, 64)
            bar.update(b - a)
    return vals, dtc


def verify_placement_file(fr, header, directory, rep):
    """Recompute a placement file from its children's files and compare (see verify.py)."""
    from .variants import variant_for_header

    variant = variant_for_header(header)
    board = variant.board
    sub = Subspace.parse(header["subspace"])
    out = os.path.dirname(directory)
    planes = {}
    for c in placement_inputs(sub, variant.rules.double_mill_removes):
        path = table_path(out, variant, c)
        if check_file(path) is not None:
            fr.skipped = f"needs {c}, which is missing or damaged"
            return
        planes[c] = read_planes(path, with_dtc=c.placement)
    hasher = Hasher(board)
    with TableFile(fr.path) as tf:
        vals, dtc = tf.values_all(), tf.dtc_all()
    ev, ed = evaluate(variant, sub, planes, hasher, reporter=rep)
    used = ev != 3
    bad = used & ((ev != vals) | ((ev != 0) & (ed != dtc)))
    fr.checked = int(header["positions"])
    fr.mismatches = int(np.count_nonzero(bad))
    if fr.mismatches:
        i = int(np.flatnonzero(bad)[0])
        mover, opp, _ = hasher.unindex_py(sub, i, hasher.anchor_reps(sub.o))
        fr.first_mismatch = f"slot {i}: mover {board.names(mover)} opponent {board.names(opp)}"
