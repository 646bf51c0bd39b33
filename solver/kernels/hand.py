"""The count phases of Lasker Morris's hand pairs (numba): the subspaces where a player with pieces
in hand may place one or move one (the place-or-move turn).

A hand pair (m, o, hm, ho)/(o, m, ho, hm) is solved like a movement pair (retro.py: the same
state array, the same levels of ``retro.emit`` and ``retro.apply``), because its quiet slides
lead into each other and make cycles; only the count differs. Its exits are every turn that
leaves the pair: a slide that removes (kind 0) and every placement (kind 1 + k, k pieces removed),
each into a subspace solved before (``turns.hand_children``). These kernels are the movement
pair's ``retro.count_pass``, ``dtw.count_dtw`` and ``draws.count_draws`` with those exits; the
child planes come as ``c0 .. c3``, one per kind (empty where the kind has none).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.codes import DRAW, DV0, LOSS, UNUSED, WIN
from .bitboard import MAX_TURNS
from .hashing import unindex_one
from .retro import BLOCK, COUNT_MAX, DRAWCONV
from .turns import END, hand_children, kid_buffer

_NJ = dict(cache=True, nogil=True)


@njit(inline="always", **_NJ)
def _at(kind, c0, c1, c2, c3, j):
    """Slot j of the child plane of exit kind ``kind``."""
    if kind == 0:
        return np.int64(c0[j])
    if kind == 1:
        return np.int64(c1[j])
    if kind == 2:
        return np.int64(c2[j])
    return np.int64(c3[j])


@njit(parallel=True, **_NJ)
def count_hand_pass(T, Ob, fly, dm, m, o, hm, ho, off, slots, st, flag0, flag1, c0, c1, c2, c3,
                    lo_blk, hi_blk, errors):
    """``retro.count_pass`` for the blocks [lo_blk, hi_blk) of hand part (m, o, hm, ho):
    ``c_k`` the values (0 draw, 1 win, 2 loss) of the subspace of exit kind k; ``fly``: the
    side to move flies."""
    end = off + slots
    for bi in prange(hi_blk - lo_blk):
        b = lo_blk + bi
        g0 = b * BLOCK
        g1 = min(g0 + BLOCK, end)
        has0 = False
        has1 = False
        kids = kid_buffer()
        kinds = kid_buffer()
        rows = np.empty((MAX_TURNS, 3), dtype=np.int64)
        for g in range(g0, g1):
            M, O, used = unindex_one(T, Ob, m, o, g - off)
            if not used:
                st[g] = UNUSED
                continue
            moves, quiet, nk = hand_children(T, Ob, fly, ho, dm, m, o, hm, M, O, kids, kinds, rows)
            win = False
            drawc = False
            for x in range(nk):
                j = kids[x]
                if j == END:
                    win = True
                    break
                v = _at(kinds[x], c0, c1, c2, c3, j)
                if v == LOSS:
                    win = True
                    break
                if v == 0:
                    drawc = True
            if win:
                st[g] = (1 << 2) | WIN
                has1 = True
            elif quiet == 0:
                if moves == 0:
                    st[g] = LOSS
                    has0 = True
                elif drawc:
                    st[g] = DRAWCONV
                else:
                    st[g] = (1 << 2) | LOSS
                    has1 = True
            else:
                if quiet > COUNT_MAX:
                    errors[bi % errors.shape[0]] += 1
                st[g] = (quiet << 2) | (DRAWCONV if drawc else 0)
        flag0[b] = has0
        flag1[b] = has1


@njit(parallel=True, **_NJ)
def count_hand_dtw(T, Ob, fly, dm, m, o, hm, ho, off, slots, vals, st, exits, c0, c1, c2, c3,
                   w0, w1, w2, w3, halved, lo_blk, hi_blk, flag0, errors):
    """``dtw.count_dtw`` for the blocks [lo_blk, hi_blk) of hand part (m, o, hm, ho): ``c_k``,
    ``w_k`` the value and dtw planes of the subspace of exit kind k (``halved``: the dtw planes
    hold dtw // 2, as the files store it)."""
    none = np.uint16(0xFFFF)
    end = off + slots
    for bi in prange(hi_blk - lo_blk):
        b = lo_blk + bi
        g0 = b * BLOCK
        g1 = min(g0 + BLOCK, end)
        has0 = False
        kids = kid_buffer()
        kinds = kid_buffer()
        rows = np.empty((MAX_TURNS, 3), dtype=np.int64)
        for g in range(g0, g1):
            v = vals[g]
            M, O, used = unindex_one(T, Ob, m, o, g - off)
            if not used or (v != WIN and v != LOSS):
                st[g] = UNUSED
                exits[g] = none
                continue
            moves, quiet, nk = hand_children(T, Ob, fly, ho, dm, m, o, hm, M, O, kids, kinds, rows)
            best_win = 0xFFFF
            worst = 0
            for x in range(nk):
                j = kids[x]
                if j == END:
                    best_win = 1
                    worst = max(worst, 1)
                    continue
                k = kinds[x]
                cv = _at(k, c0, c1, c2, c3, j)
                cw = _at(k, w0, w1, w2, w3, j)
                level = cw + 1
                if halved:
                    level += cw + (cv == WIN)
                if cv == LOSS and level < best_win:
                    best_win = level
                if level > worst:
                    worst = level
            if v == WIN:
                st[g] = DRAWCONV  # dtw.WINFLAG
                exits[g] = best_win
                if best_win == 0xFFFF and quiet == 0:
                    errors[bi % errors.shape[0]] += 1
            elif moves == 0:
                st[g] = LOSS
                exits[g] = none
                has0 = True
            else:
                if quiet > COUNT_MAX:
                    errors[bi % errors.shape[0]] += 1
                st[g] = quiet << 2
                exits[g] = worst if worst > 0 else none
        flag0[b] = has0


@njit(parallel=True, **_NJ)
def count_hand_draws(T, Ob, fly, dm, m, o, hm, ho, off, slots, rank, vals, st, exits, dv,
                     c0, c1, c2, c3, e0, e1, e2, e3, key0, lo_blk, hi_blk, wins, errors):
    """``draws.count_draws`` for the blocks [lo_blk, hi_blk) of hand part (m, o, hm, ho):
    ``c_k``, ``e_k`` the value and stored draw-value planes of the subspace of exit kind k."""
    end = off + slots
    for bi in prange(hi_blk - lo_blk):
        b = lo_blk + bi
        has_win = False
        kids = kid_buffer()
        kinds = kid_buffer()
        rows = np.empty((MAX_TURNS, 3), dtype=np.int64)
        for g in range(b * BLOCK, min(b * BLOCK + BLOCK, end)):
            M, O, used = unindex_one(T, Ob, m, o, g - off)
            exits[g] = 0xFFFF
            dv[g] = 0
            v = vals[g - off]
            if not used or v == LOSS:
                st[g] = UNUSED
                continue
            if v == WIN:
                st[g] = WIN
                has_win = True
                continue
            dv[g] = rank + DV0
            _, quiet, nk = hand_children(T, Ob, fly, ho, dm, m, o, hm, M, O, kids, kinds, rows)
            best = -(1 << 30)
            for i in range(nk):
                j = kids[i]
                if j == END:
                    continue
                k = kinds[i]
                if _at(k, c0, c1, c2, c3, j) == DRAW:
                    x = -(_at(k, e0, e1, e2, e3, j) - DV0) - rank
                    if x > best:
                        best = x
            if quiet > COUNT_MAX:
                errors[bi % errors.shape[0]] += 1
            st[g] = quiet << 2
            if best != -(1 << 30):
                exits[g] = best + key0
        wins[b] = has_win
