"""Placement phase: values of positions with pieces in hand, and the value of the start.

Every placement adds a piece, so the placement phase is a directed acyclic graph over layers (the
number of pieces placed so far). ``solve_placement`` sweeps the layers backwards, once: each
subspace is evaluated from its children in the next layer, or, after the last placement, from the
movement-phase databases. No iteration is needed.

Distance (``dtc``) of a placement position: plies to the next removal or to the end of placement,
whichever comes first (the winner hurrying, the loser delaying); a removal, or the last
placement, counts 1. It is stored like the movement phase's and read by the same ``probe``.
"""

from __future__ import annotations

import os
import time

import numpy as np

from .dbfile import TableFile, check_file, write_table
from .index import Hasher, Subspace, placement_subspaces
from .retro import Reporter
from .schedule import solve, table_header, table_path
from .variants import LOSE_BELOW


def child_subspaces(sub: Subspace, dm: int) -> dict:
    """k (pieces removed) -> (child subspace, movement?) for each k a placement in ``sub`` can
    remove. The child is seen from the side to move next (the same side again when it still has
    pieces in hand and the other has none)."""
    out = {}
    hand = sub.hm - 1
    switched = not (hand > 0 and sub.ho == 0)
    top = 0 if sub.m + 1 < 3 else min(sub.o, 1 if dm == 1 else 2)
    for k in range(0, top + 1):
        if switched:
            child = Subspace(sub.o - k, sub.m + 1, sub.ho, hand)
        else:
            child = Subspace(sub.m + 1, sub.o - k, hand, sub.ho)
        movement = child.hm == 0 and child.ho == 0
        out[k] = (child, movement)
    return out


def layer(variant, sub: Subspace) -> int:
    """Pieces placed so far (by both sides)."""
    return 2 * variant.pieces - sub.hm - sub.ho


def reads_file(child: Subspace, movement: bool) -> bool:
    """Whether a placement subspace reads the file of this child (from ``child_subspaces``):
    every placement child, and movement children where both sides still have 3 pieces (with
    fewer the game is over and nothing needs reading)."""
    return not movement or (child.m >= LOSE_BELOW and child.o >= LOSE_BELOW)


def closure(variant, targets) -> list[Subspace]:
    """The placement subspaces the targets need (themselves included), last layer first."""
    dm = variant.rules.double_mill_removes
    seen = set()
    stack = list(targets)
    while stack:
        s = stack.pop()
        if s in seen or not s.placement:
            continue
        seen.add(s)
        for c, mv in child_subspaces(s, dm).values():
            if not mv:
                stack.append(c)
    return sorted(seen, key=lambda s: (-layer(variant, s), s))


class _Planes:
    """Value and distance planes read from files, kept while a layer needs them."""

    def __init__(self, out, variant):
        self.out, self.variant = out, variant
        self.cache = {}

    def get(self, sub: Subspace, with_dtc: bool):
        key = (sub, with_dtc)
        if key not in self.cache:
            with TableFile(table_path(self.out, self.variant, sub)) as tf:
                vals = tf.values_all()
                dtc = tf.dtc_all().astype(np.uint8) if with_dtc else np.zeros(0, np.uint8)
            self.cache[key] = (vals, dtc)
        return self.cache[key]

    def keep_only(self, subs):
        for key in list(self.cache):
            if key[0] not in subs:
                del self.cache[key]


def evaluate(variant, sub: Subspace, planes: _Planes, hasher: Hasher, lo=0, hi=None):
    """(values, dtc) of slots [lo, hi) of a placement subspace, from its children's planes."""
    from .kernels.placement import placement_eval

    dm = variant.rules.double_mill_removes
    kids = child_subspaces(sub, dm)
    sizes = {sub.o}
    cinfo = np.zeros((3, 3), dtype=np.int64)
    arrays = []
    for k in range(3):
        if k in kids:
            c, mv = kids[k]
            cinfo[k] = (c.m, c.o, 1 if mv else 0)
            sizes.add(c.o)
            if reads_file(c, mv):
                arrays += list(planes.get(c, with_dtc=not mv))
            else:
                arrays += [np.zeros(0, np.uint8), np.zeros(0, np.uint8)]
        else:
            arrays += [np.zeros(0, np.uint8), np.zeros(0, np.uint8)]
    Ob = hasher.orbits(sizes)
    slots = hasher.slots(sub)
    hi = slots if hi is None else hi
    vals = np.empty(hi - lo, dtype=np.uint8)
    dtc = np.empty(hi - lo, dtype=np.uint8)
    placement_eval(hasher.tables, Ob, dm, sub.m, sub.o, sub.hm, sub.ho, lo, hi, vals, dtc,
                   cinfo, *arrays, 64)
    return vals, dtc


def solve_placement_subspace(out, variant, sub: Subspace, hasher: Hasher | None = None, planes=None) -> int:
    """Solve one placement subspace from its children's files; returns its positions."""
    hasher = hasher or Hasher(variant.board)
    planes = planes or _Planes(out, variant)
    vals, dtc = evaluate(variant, sub, planes, hasher)
    hdr = table_header(variant, sub, hasher, vals, dtc)
    hdr["distance"] = "dtc-placement"
    write_table(table_path(out, variant, sub), hdr, vals, dtc, hasher.anchor_reps(sub.o))
    return hdr["positions"]


def solve_placement(out, variant, targets=None, reporter=None) -> dict:
    """Solve the placement subspaces (every reachable one, or what ``targets`` need), last layer
    first, after the movement phase they read (solved too if missing); complete files are kept."""
    t0 = time.perf_counter()
    summary = solve(out, variant, targets=targets or placement_subspaces(variant), phase="placement",
                    reporter=reporter or Reporter())
    placed = [x for x in summary.solved if x["job"].kind == "placement"]
    return {
        "solved": len(placed),
        "skipped": sum(1 for s in summary.skipped if s.placement),
        "positions": sum(x["positions"] for x in placed),
        "seconds": time.perf_counter() - t0,
    }


def verify_placement_file(fr, header, directory, rep):
    """Recompute a placement file from its children's files and compare (see verify.py)."""
    from .variants import variant_for_header

    variant = variant_for_header(header)
    board = variant.board
    sub = Subspace.parse(header["subspace"])
    out = os.path.dirname(directory)
    for k, (c, mv) in child_subspaces(sub, variant.rules.double_mill_removes).items():
        if reads_file(c, mv) and check_file(table_path(out, variant, c)) is not None:
            fr.skipped = f"needs {c}, which is missing or damaged"
            return
    hasher = Hasher(board)
    with TableFile(fr.path) as tf:
        vals, dtc = tf.values_all(), tf.dtc_all()
    ev, ed = evaluate(variant, sub, _Planes(out, variant), hasher)
    used = ev != 3
    bad = used & ((ev != vals) | ((ev != 0) & (ed != dtc)))
    fr.checked = int(header["positions"])
    fr.mismatches = int(np.count_nonzero(bad))
    if fr.mismatches:
        i = int(np.flatnonzero(bad)[0])
        mover, opp, _ = hasher.unindex_py(sub, i, hasher.anchor_reps(sub.o))
        fr.first_mismatch = f"slot {i}: mover {board.names(mover)} opponent {board.names(opp)}"
    rep.phase(f"verify {sub}: {fr.checked:,} positions, {fr.mismatches} mismatches")
