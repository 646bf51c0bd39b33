"""Placement-phase evaluation of one subspace from its children (numba).

Every placement adds a piece, so the placement phase has no cycles: a position's value is the
best over its moves of the values of the positions they lead to, which lie in the next layer of
placement (one more piece placed) or, after the last placement, in the movement phase. This one
forward pass is the whole solve of a placement subspace; the verifier runs it again to check a
file.

Distance (dtc) in the placement phase: plies to the next removal or to the end of placement,
whichever comes first (a move that removes, or the last placement, counts 1).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..codes import DRAW, LOSS, ONGOING, UNUSED, WIN
from .bitboard import closed_mills, count_result, no_removal, removal_turns, switches
from .bits import ctz, popcount
from .hashing import index_one, unindex_one
from .verify import BIG, minimax

_NJ = dict(cache=True, nogil=True)


@njit(inline="always", **_NJ)
def _child(T, Ob, switched, M2, O2, cinfo, k, v0, d0, v1, d1, v2, d2):
    """(value for the side to move there, dtc) of the child after a placement that removed
    k pieces (``switched``: the other side moves there)."""
    if switched:
        cm, co, mover, opp = popcount(O2), popcount(M2), O2, M2
    else:
        cm, co, mover, opp = popcount(M2), popcount(O2), M2, O2
    if cinfo[k, 2] == 1:  # both hands empty there: movement phase (or the game is over)
        r = count_result(cm, co)
        if r != ONGOING:
            return np.int64(r), np.int64(0)
    if k == 0:
        vals, dts = v0, d0
    elif k == 1:
        vals, dts = v1, d1
    else:
        vals, dts = v2, d2
    j = index_one(T, Ob, mover, opp)
    return np.int64(vals[j]), (np.int64(dts[j]) if dts.shape[0] > 0 else np.int64(0))


@njit(parallel=True, **_NJ)
def placement_eval(T, Ob, dm, m, o, hm, ho, lo, hi, out_vals, out_dtc,
                   cinfo, v0, d0, v1, d1, v2, d2, nchunk):
    """Evaluate slots [lo, hi) of placement subspace (m, o, hm, ho) into ``out_*[i - lo]``.

    ``cinfo[k]`` describes the child subspace after a placement removing k pieces: (mover
    count, opponent count, 1 if both hands are then empty); ``v_k``/``d_k`` its value and
    distance planes (distances are needed only for placement children)."""
    hand = hm - 1
    switched = switches(hand, ho)
    span = hi - lo
    for c in prange(nchunk):
        a = lo + span * c // nchunk
        b = lo + span * (c + 1) // nchunk
        sets = np.empty((64, 3), dtype=np.int64)
        for i in range(a, b):
            M, O, used = unindex_one(T, Ob, m, o, i)
            if not used:
                out_vals[i - lo] = UNUSED
                out_dtc[i - lo] = 0
                continue
            empty = T.full & ~(M | O)
            best_win = BIG
            worst_loss = -1
            draw = False
            moves = 0
            e = empty
            while e:
                qb = e & -e
                e ^= qb
                moves += 1
                M2 = M | qb
                closed = closed_mills(T, M2, ctz(qb))
                ns = removal_turns(T, dm, O, -1, 0, closed, sets, 0) if closed else no_removal(sets)
                for si in range(ns):
                    R = sets[si, 2]
                    k = popcount(R)
                    v, d = _child(T, Ob, switched, M2, O ^ R, cinfo, k, v0, d0, v1, d1, v2, d2)
                    dd = 1 if (k > 0 or cinfo[k, 2] == 1) else d + 1
                    if switched:
                        mine = LOSS if v == WIN else (WIN if v == LOSS else v)
                    else:
                        mine = v
                    if mine == WIN:
                        if dd < best_win:
                            best_win = dd
                    elif mine == DRAW:
                        draw = True
                    elif dd > worst_loss:
                        worst_loss = dd
            ev, ed = minimax(moves, best_win, draw, worst_loss)
            out_vals[i - lo] = ev
            out_dtc[i - lo] = ed
