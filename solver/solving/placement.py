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
from typing import NamedTuple

import numpy as np

from ..database.folders import file_path, read_planes
from ..hashing.games import game_of
from ..hashing.index import Hasher
from ..core.memory import huge_pages
from ..core.progress import Reporter
from ..hashing.subspaces import Subspace, child_counts, placement_children, reads_file
from ..core.codes import UNUSED

_EMPTY = np.zeros(0, np.uint8)
_EMPTY32 = np.zeros(0, np.uint32)


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


def load_children(out, variant, sub: Subspace, handoff=None, skip=()) -> dict:
    """The planes :func:`evaluate` reads, from the files under ``out`` or, where ``handoff``
    (handoff.Handoff) keeps a child's values, from there; the children ``skip`` are left out
    (the caller has them, taken from the handoff in another form). What the handoff keeps that
    is not taken here is then let go (a plane in a form this job does not read)."""
    planes = {}
    for c in game_of(variant).placement_inputs(sub):
        if c in skip:
            continue
        path = file_path(out, variant, c)
        kept = handoff.take(path, "values") if handoff is not None else None
        vals, dtc = kept if kept is not None else read_planes(path, with_dtc=c.placement)
        planes[c] = pack(vals, dtc)
        del vals, dtc, kept
    if handoff is not None:
        handoff.clear()
    return planes


class Sides(NamedTuple):
    """The children of a complete sweep (the values with dtw, draw values or both), each as its
    *side plane* (``planes[child]``, uint32 a slot): the byte the values' sweep reads (the
    child's value, or a placement child's packed byte) | its stored draw value << 8 | its dtw
    << 16, a lane not asked for 0. One load gives the sweep all three, where three planes took
    three loads, in the memory the three took (kernels/placement.py)."""

    planes: dict
    dtw: bool
    draws: bool


def side_planes_of(planes: dict, dtw=None, draws=None) -> Sides:
    """The :class:`Sides` of the children of ``planes`` (:func:`load_children`'s), each child's
    plane moved out of ``planes`` into its side plane's first lane. ``dtw(child, values, lane)``
    (``draws``, the same): fill ``lane`` (a strided view of the side plane: its dtw lane,
    uint16; its draw-value lane, uint8) with the child's whole dtw plane (stored draw values),
    given its value codes; None: the lane is not asked for (0)."""
    from ..kernels.pack import widen  # (lazy: imports numba)

    sides = {}
    for c in list(planes):
        plane = planes.pop(c)
        side = np.empty(len(plane), dtype="<u4")
        widen(plane, side)  # (the other lanes 0)
        # (a placement child's value codes in its own plane, which is not read again: no
        # fresh plane)
        values = np.bitwise_and(plane, 3, out=plane) if c.placement else plane
        del plane
        if draws is not None:
            draws(c, values, side.view(np.uint8)[1::4])
        if dtw is not None:
            dtw(c, values, side.view("<u2")[1::2])
        sides[c] = side
        del values
    return Sides(sides, dtw is not None, draws is not None)


def side_plane_of(values, dtc, dv=None, dtw=None) -> np.ndarray:
    """A subspace's side plane (:class:`Sides`: uint32 a slot, ``value | dtc << 2`` | the stored
    draw value << 8 | the dtw << 16) from its planes as :func:`evaluate` gives them, a lane
    without its plane 0: what a parent's complete sweep reads of it (handoff.py)."""
    from ..kernels.pack import join_lanes  # (lazy: imports numba)

    side = np.empty(len(values), dtype="<u4")
    join_lanes(values, dtc, _EMPTY if dv is None else dv,
               np.zeros(0, np.uint16) if dtw is None else dtw, side)
    return side


def evaluate(variant, sub: Subspace, planes: dict, hasher: Hasher, reporter=None,
             sides: Sides | None = None, release: bool = False):
    """(values, dtc) of every slot of a placement subspace from its children's planes
    (``planes[child]`` = its values for a movement child, its packed plane (:func:`pack`) for a
    placement child; for every child it reads). With ``sides`` (:func:`side_planes_of`, read
    instead of ``planes``): (values, dtc, then the dtw where ``sides.dtw``, then the stored draw
    values where ``sides.draws``), all computed in the same sweep. ``release``: empty ``planes``
    and ``sides.planes`` once the sweep is done, before its results are split into their planes
    (a job's peak memory stays the sweep's)."""
    from ..kernels.pack import bytes_present, full, split_lanes  # (lazy: imports numba)
    from ..kernels.placement import placement_sweep

    rep = reporter or Reporter(quiet=True)
    game = game_of(variant)
    hand = game.args.count_hand
    kids = placement_children(sub, game.args.dm)
    sizes = {sub.o, sub.m, sub.m + 1}
    cinfo = np.zeros((3, 6), dtype=np.int64)
    arrays = [_EMPTY] * 3
    sarrays = [_EMPTY32] * 3
    for k in range(3):
        if k in kids:
            c, mv = kids[k]
            cinfo[k] = child_counts(c, mv, hand)
            sizes.add(c.o)
            if reads_file(c, mv, hand):
                if sides is None:
                    arrays[k] = planes[c]
                else:
                    sarrays[k] = sides.planes[c]
    Ob = hasher.orbits(sizes)
    # the quiet placements' plane: the keys its bytes give bound where the sweep may stop (not
    # with dtw, which needs every move)
    c0_bytes = None
    if sides is None and len(arrays[0]):
        c0_bytes = bytes_present(arrays[0])
    elif sides is not None and not sides.dtw and len(sarrays[0]):
        c0_bytes = bytes_present(sarrays[0].view(np.uint8)[0::4])
    # (filled on every thread; the complete sweep writes its side plane, not ``out``)
    with huge_pages():  # (written at random all over: core/memory.py)
        out = full(hasher.slots(sub), UNUSED, np.uint8) if sides is None else _EMPTY
        sout = full(hasher.slots(sub), UNUSED, np.uint32) if sides is not None else _EMPTY32
    nreps = int(Ob.reps_off[sub.m + 1] - Ob.reps_off[sub.m])
    per_rep = comb(variant.board.n - sub.m, sub.o)
    step = max(1, min(nreps, (1 << 22) // max(1, per_rep), -(-nreps // 50)))
    with rep.bar(total=nreps * per_rep, desc=f"{sub} placement", unit="pos") as bar:
        for a in range(0, nreps, step):
            b = min(nreps, a + step)
            placement_sweep(hasher.tables, Ob, game.args, sub.m, sub.o, sub.hm, sub.ho, a, b, out,
                            cinfo, *arrays, min(64, b - a), *sarrays, sout,
                            sides is not None and sides.dtw, sides is not None and sides.draws,
                            c0_bytes)
            bar.update((b - a) * per_rep)
    extra = ()
    if sides is not None:
        del arrays, sarrays
        if release:
            planes.clear()
            sides.planes.clear()
        n = len(sout)
        out = np.empty(n, dtype=np.uint8)
        wout = np.empty(n if sides.dtw else 0, dtype=np.uint16)
        vout = np.empty(n if sides.draws else 0, dtype=np.uint8)
        split_lanes(sout, out, vout, wout)
        del sout
        extra = ((wout,) if sides.dtw else ()) + ((vout,) if sides.draws else ())
    dtc = out >> 2
    out &= 3
    return (out, dtc) + extra
