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

from math import comb

import numpy as np

from ..database.folders import file_path, read_planes
from ..hashing.index import Hasher
from ..core.progress import Reporter
from ..hashing.subspaces import (Subspace, child_counts, placement_children, placement_inputs,
                                 reads_file)
from ..core.codes import UNUSED

_EMPTY = np.zeros(0, np.uint8)


def pack(values, dtc):
    """One byte per slot, ``value | dtc << 2``: the form the sweep reads placement children in
    and writes its results in (placement distances are below 64). A uint8 ``dtc`` becomes the
    result (no second plane: the caller reads it no more)."""
    if dtc is None or len(dtc) == 0:
        return values
    if int(dtc.max()) >= 64:
        raise ValueError(f"a placement distance of {int(dtc.max())} does not fit the packed plane")
    out = dtc if dtc.dtype == np.uint8 else dtc.astype(np.uint8)
    out <<= 2
    out |= values
    return out


def load_children(out, variant, sub: Subspace) -> dict:
    """The planes :func:`evaluate` reads, from the files under ``out``."""
    planes = {}
    for c in placement_inputs(sub, variant.rules.double_mill_removes, variant.rules.count_hand):
        vals, dtc = read_planes(file_path(out, variant, c), with_dtc=c.placement)
        planes[c] = pack(vals, dtc)
        del vals, dtc
    return planes


def evaluate(variant, sub: Subspace, planes: dict, hasher: Hasher, reporter=None, dtw=None,
             draws=None):
    """(values, dtc) of every slot of a placement subspace from its children's planes
    (``planes[child]`` = its values for a movement child, its packed plane (:func:`pack`) for a
    placement child; for every child it reads). With ``dtw`` ({child: its dtw plane} for every
    child it reads): (values, dtc, dtw), the dtw computed in the same sweep; with ``draws``
    ({child: its stored draw-value plane}) the stored draw values come last the same way."""
    from ..kernels.pack import bytes_present, full  # (lazy: imports numba)
    from ..kernels.placement import placement_sweep

    rep = reporter or Reporter(quiet=True)
    dm = variant.rules.double_mill_removes
    hand = variant.rules.count_hand
    kids = placement_children(sub, dm)
    sizes = {sub.o, sub.m, sub.m + 1}
    cinfo = np.zeros((3, 6), dtype=np.int64)
    arrays = []
    warrays = []
    varrays = []
    empty16 = np.zeros(0, np.uint16)
    for k in range(3):
        if k in kids:
            c, mv = kids[k]
            cinfo[k] = child_counts(c, mv, hand)
            sizes.add(c.o)
            if reads_file(c, mv, hand):
                arrays.append(planes[c])
                warrays.append(np.ascontiguousarray(dtw[c], dtype=np.uint16) if dtw is not None else empty16)
                varrays.append(np.ascontiguousarray(draws[c], dtype=np.uint8) if draws is not None else _EMPTY)
                continue
        arrays.append(_EMPTY)
        warrays.append(empty16)
        varrays.append(_EMPTY)
    Ob = hasher.orbits(sizes)
    # the quiet placements' plane: the keys its bytes give bound where the sweep may stop (not
    # with dtw, which needs every move)
    c0_bytes = bytes_present(arrays[0]) if len(arrays[0]) and dtw is None else None
    out = full(hasher.slots(sub), UNUSED, np.uint8)  # (filled on every thread)
    wout = np.zeros(hasher.slots(sub) if dtw is not None else 0, dtype=np.uint16)
    vout = np.zeros(hasher.slots(sub) if draws is not None else 0, dtype=np.uint8)
    nreps = int(Ob.reps_off[sub.m + 1] - Ob.reps_off[sub.m])
    per_rep = comb(variant.board.n - sub.m, sub.o)
    step = max(1, min(nreps, (1 << 22) // max(1, per_rep), -(-nreps // 50)))
    with rep.bar(total=nreps * per_rep, desc=f"{sub} placement", unit="pos") as bar:
        for a in range(0, nreps, step):
            b = min(nreps, a + step)
            placement_sweep(hasher.tables, Ob, dm, sub.m, sub.o, sub.hm, sub.ho, a, b, out,
                            cinfo, *arrays, min(64, b - a), *warrays, wout, *varrays, vout,
                            c0_bytes)
            bar.update((b - a) * per_rep)
    dtc = out >> 2
    out &= 3
    return (out, dtc) + ((wout,) if dtw is not None else ()) + ((vout,) if draws is not None else ())
