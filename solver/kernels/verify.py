"""Forward consistency check of stored values (numba). Shares no code with the propagation.

For every position it generates the moves, looks up each result's stored value and distance,
and recomputes what the position must be: a win in the least dtc over winning moves, else a
draw if some move draws, else a loss in the largest dtc (a removal counts 1; no move at all is a
loss in 0). Stored values that satisfy this everywhere are exactly right (the distances make
every win and loss well founded).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .bitboard import closed_mills, removable
from .bits import ctz
from .hashing import anchor, ranked, sym_image, unindex_one

_NJ = dict(cache=True, nogil=True)
from ..codes import DRAW, LOSS, WIN
BIG = 1 << 30


@njit(inline="always", **_NJ)
def minimax(moves, best_win, draw, worst_loss):
    """(value, dtc) of a position from its moves: the quickest win, else a draw, else the
    slowest loss (a position with no move is lost in 0)."""
    if moves == 0:
        return LOSS, 0
    if best_win < BIG:
        return WIN, best_win
    if draw:
        return DRAW, 0
    return LOSS, worst_loss


@njit(parallel=True, **_NJ)
def check_movement(T, Ob, flying, m, o, vals, dtc, sib_vals, sib_dtc, child_vals, lo, hi,
                   bad_count, bad_first):
    """Check slots [lo, hi) of subspace (m, o). ``sib_*``: planes of (o, m); ``child_vals``:
    values of (o-1, m). Per chunk: mismatches and the first mismatching slot."""
    n = T.n
    sblock = T.binom[n - m, o]
    cblock = T.binom[n - m, o - 1]
    nchunk = bad_count.shape[0]
    span = hi - lo
    for c in prange(nchunk):
        a = lo + span * c // nchunk
        b = lo + span * (c + 1) // nchunk
        nbad = 0
        first = -1
        for i in range(a, b):
            M, O, used = unindex_one(T, Ob, m, o, i)
            if not used:
                continue
            empty = T.full & ~(M | O)
            fly = flying and m == 3
            best_win = BIG
            worst_loss = -1
            draw = False
            moves = 0
            src = M
            while src:
                fb = src & -src
                src ^= fb
                tg = empty if fly else (T.adj[ctz(fb)] & empty)
                while tg:
                    tb = tg & -tg
                    tg ^= tb
                    moves += 1
                    M2 = (M ^ fb) | tb
                    orb, s, rep, stab = anchor(T, Ob, m, M2)
                    if closed_mills(T, M2, ctz(tb)) == 0:
                        j = orb * sblock + ranked(T, s, rep, stab, sym_image(T, s, O))
                        v = sib_vals[j]
                        d = np.int64(sib_dtc[j]) + 1
                        if v == LOSS:
                            best_win = min(best_win, d)
                        elif v == DRAW:
                            draw = True
                        else:
                            worst_loss = max(worst_loss, d)
                    elif o - 1 < 3:
                        best_win = 1
                    else:
                        rm = removable(T, O)
                        while rm:
                            xb = rm & -rm
                            rm ^= xb
                            v = child_vals[orb * cblock + ranked(T, s, rep, stab, sym_image(T, s, O ^ xb))]
                            if v == LOSS:
                                best_win = 1
                            elif v == DRAW:
                                draw = True
                            else:
                                worst_loss = max(worst_loss, 1)
            ev, ed = minimax(moves, best_win, draw, worst_loss)
            sv = vals[i]
            ok = sv == ev and (ev == DRAW or np.int64(dtc[i]) == ed)
            if not ok:
                nbad += 1
                if first < 0:
                    first = i
        bad_count[c] = nbad
        bad_first[c] = first
