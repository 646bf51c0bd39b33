"""The count phases of Lasker Morris's hand pairs (numba): the subspaces where a player with pieces
in hand may place one or move one (the place-or-move turn).

A hand pair (m, o, hm, ho)/(o, m, ho, hm) is solved like a movement pair (retro.py: the same
state array, the same levels of ``retro.emit`` and ``retro.apply``), because its quiet slides
lead into each other and make cycles; only the count differs. Its exits are every turn that
leaves the pair: a slide that removes (kind 0) and every placement (kind 1 + k, k pieces removed),
each into a subspace solved before (``subspaces.hand_children`` names them). These kernels are the movement
pair's ``retro.count_pass`` (``count_hand_sweep``), ``dtw.count_dtw`` (``count_hand_dtw``) and
``draws.count_draws`` (``count_hand_draws``) with those exits, all three in the placement
sweep's order (kernels/placement.py: a placement's child is found from tables kept per mover
mask and placed point, not hashed afresh; one loop, ``_hand_sweep_rows``, for the three); the
child planes come as ``c0 .. c3``, one per kind (empty where the kind has none).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.codes import DRAW, DV0, LOSE_BELOW, LOSS, WIN
from .bitboard import turn_rows
from .bits import ctz, popcount
from .hashing import expand, index_one, least_image, next_subset
from .draws import NO_EXIT, put_count, start_slot
from .dtw import NONE, dtw_state, exit_level
from .jit import CHUNK, run_spans
from .placement import child_slot, move_image, per_placement, sweep_scratch
from .retro import BLOCK, COUNT_MAX, counted, removal_exits
from .turns import END, kid_buffer, mill_placements, mill_points, slide_children

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


#: what ``_hand_sweep_rows`` computes: the count of the values, of the dtw, of the draw values
COUNT, DTW, DRAWS = 0, 1, 2


def count_hand_sweep(T, Ob, R, fly, m, o, hm, ho, off, st, flag0, flag1, c0, c1, c2, c3,
                     r_lo, r_hi, nchunk, errors):
    """``retro.count_pass`` for the mover representatives ``r_lo .. r_hi - 1`` (of size m) of
    hand part (m, o, hm, ho), its positions at ``off`` + their slots in the part: every
    position's moves counted, its exits looked up (``c_k``: the value plane of exit kind k),
    the blocks of what is decided at 0 and 1 flagged in ``flag0``, ``flag1``. ``R``: the
    game's rules, ``fly``: whether the side to move flies."""
    e8, e16 = np.zeros(0, np.uint8), np.zeros(0, np.uint16)
    _sweep(COUNT, T, Ob, R, fly, m, o, hm, ho, off, r_lo, r_hi, nchunk, errors, e8, st, e16, e8,
           flag0, flag1, (c0, c1, c2, c3), (c0, c1, c2, c3), False, 0, 0)


def count_hand_dtw(T, Ob, R, fly, m, o, hm, ho, off, vals, st, exits, c0, c1, c2, c3,
                   w0, w1, w2, w3, halved, r_lo, r_hi, nchunk, flag0, errors):
    """``dtw.count_dtw`` for the mover representatives ``r_lo .. r_hi - 1`` of hand part (m, o,
    hm, ho): each won or lost position's exit level and each lost one's count (``vals``: the
    pair's value plane, global slots; ``c_k``, ``w_k``: the value and dtw planes of exit kind
    k; ``halved``: the dtw planes hold dtw // 2, as the files store it); the blocks holding a
    position lost in 0 flagged in ``flag0``. ``st`` and ``exits`` hold UNUSED and NONE where
    no position is (what ``retro.lay_out`` and ``count_exits`` give)."""
    _sweep(DTW, T, Ob, R, fly, m, o, hm, ho, off, r_lo, r_hi, nchunk, errors, vals, st, exits,
           np.zeros(0, np.uint8), flag0, flag0, (c0, c1, c2, c3), (w0, w1, w2, w3), halved, 0, 0)


def count_hand_draws(T, Ob, R, fly, m, o, hm, ho, off, rank, vals, st, exits, dv,
                     c0, c1, c2, c3, e0, e1, e2, e3, key0, r_lo, r_hi, nchunk, wins, errors):
    """``draws.count_draws`` for the mover representatives ``r_lo .. r_hi - 1`` of hand part
    (m, o, hm, ho) (``vals``: the part's value plane; ``c_k``, ``e_k``: the value and stored
    draw-value planes of exit kind k); the blocks holding a won position flagged in ``wins``.
    ``st``, ``exits`` and ``dv`` hold UNUSED, NONE and 0 where no position is."""
    _sweep(DRAWS, T, Ob, R, fly, m, o, hm, ho, off, r_lo, r_hi, nchunk, errors, vals, st, exits,
           dv, wins, wins, (c0, c1, c2, c3), (e0, e1, e2, e3), False, rank, key0)


def _sweep(mode, T, Ob, R, fly, m, o, hm, ho, off, r_lo, r_hi, nchunk, errors, vals, st, exits,
           dv, flag_a, flag_b, planes, wplanes, halved, rank, key0):
    """The three counts' sweep: for each orbit representative M of the mover's pieces (``r_lo
    .. r_hi - 1`` of size m), every opponent mask O on the points M leaves free. A placement's
    child is anchored on M plus the placed point, so its orbit and symmetry are found once per
    (M, point) instead of once per position and placement, and as O varies the children stay
    inside one block of their plane. Of a position's images under a nontrivial stabilizer of
    M, only the one with the least O is visited (``least_image``); slots with no position are
    not visited."""
    n = T.n
    run_spans(nchunk, r_lo, r_hi, lambda c, a, b: _hand_sweep_rows(
        mode, T, Ob, fly, R.dm, m, o, hm, ho, off, vals, st, exits, dv, flag_a, flag_b, *planes,
        *wplanes, halved, rank, key0, errors, n, T.binom[n - m, o], Ob.reps_off[m],
        o - 1 + ho < LOSE_BELOW, c, a, b, kid_buffer(), kid_buffer(), turn_rows(),
        *sweep_scratch(n)))


@njit(**CHUNK)
def _hand_sweep_rows(mode, T, Ob, fly, dm, m, o, hm, ho, off, vals, st, exits, dv, flag_a, flag_b,
                     c0, c1, c2, c3, w0, w1, w2, w3, halved, rank, key0, errors, n, n_opp, base,
                     ends, c, a, b, kids, kinds, rows, q_closed, q_orbit, q_s, q_rep, q_stab, bit,
                     img, blocks):
    """One chunk of ``_sweep``: the mover representatives ``a .. b - 1``, each position handed
    to the count of ``mode``."""
    for k in range(3):
        if o - k >= 0:
            blocks[k] = T.binom[n - m - 1, o - k]
    nbad = 0
    for ri in range(a, b):
        M = Ob.reps[base + ri]
        stab = np.int64(Ob.stab[base + ri])
        free = T.full & ~M
        mills = np.int64(0)
        if hm > 0:
            per_placement(T, Ob, m, M, free, True, q_closed, q_orbit, q_s, q_rep, q_stab, bit,
                          img)
            mills = mill_points(free, q_closed)
        prev = np.int64(0)
        x = (np.int64(1) << o) - 1  # the opponent's mask compressed onto the free points
        for _ in range(n_opp):
            O = expand(T, x, free)
            if o > 0:
                x = next_subset(x)
            if stab != 1 and not least_image(T, stab, O):
                continue  # (the position is counted at its image with the least O)
            if hm > 0:
                move_image(prev, O, bit, img)
                prev = O
            g = off + index_one(T, Ob, M, O)
            if mode == COUNT:
                state, level, toomany = _count_one(T, Ob, fly, dm, m, o, hm, ho, ends, M, O, mills,
                                                   c0, c1, c2, c3, kids, rows, q_closed, q_orbit,
                                                   q_s, q_rep, q_stab, bit, img, blocks)
                st[g] = state
                if level == 0:
                    flag_a[g // BLOCK] = 1
                elif level == 1:
                    flag_b[g // BLOCK] = 1
                nbad += toomany
                continue
            if mode == DTW:
                v = vals[g]
                if v != WIN and v != LOSS:
                    continue
            else:
                v = start_slot(st, exits, dv, g, True, vals[g - off], rank)
                if v != DRAW:
                    if v == WIN:
                        flag_a[g // BLOCK] = 1
                    continue
            moves, quiet, nk = _sweep_kids(T, Ob, fly, dm, ends, m, o, hm, ho, M, O, free, mills,
                                           kids, kinds, rows, q_closed, q_orbit, q_s, q_rep,
                                           q_stab, bit, img, blocks)
            if mode == DTW:
                best_win = NONE
                worst = 0
                for i in range(nk):
                    j = kids[i]
                    if j == END:
                        best_win = 1
                        worst = max(worst, 1)
                        continue
                    k = kinds[i]
                    best_win, worst = exit_level(_at(k, c0, c1, c2, c3, j),
                                                 _at(k, w0, w1, w2, w3, j), halved, best_win,
                                                 worst)
                st[g], exits[g], lost0, bad = dtw_state(v, moves > 0, quiet, best_win, worst)
                if lost0:
                    flag_a[g // BLOCK] = 1
                if bad:
                    nbad += 1
                continue
            best = NO_EXIT
            for i in range(nk):
                j = kids[i]
                if j == END:
                    continue
                k = kinds[i]
                if _at(k, c0, c1, c2, c3, j) == DRAW:
                    best = max(best, -(_at(k, w0, w1, w2, w3, j) - DV0) - rank)
            put_count(st, exits, errors, g, c, quiet, best, key0)
    errors[c % errors.shape[0]] += nbad


@njit(inline="always", **_NJ)
def _sweep_kids(T, Ob, fly, dm, ends, m, o, hm, ho, M, O, free, mills, kids, kinds, rows,
                q_closed, q_orbit, q_s, q_rep, q_stab, bit, img, blocks):
    """(moves, quiet, nkids) of (M, O): the slides as ``turns.slide_children`` gives them (kind
    0: a removal's child in (o - 1, m, ho, hm)), then every placement as a child of kind 1 + k,
    k the pieces it removes, in (o - k, m + 1, ho, hm - 1) (END where a removal leaves the
    opponent fewer than 3 on the board and in hand), found from the sweep's tables: those that
    close a mill, then the quiet ones. ``kids[:nkids]`` their slots, ``kinds`` their kinds."""
    moves, quiet, nk = slide_children(T, Ob, fly, ends, m, o, M, O, kids)
    for x in range(nk):
        kinds[x] = 0
    if hm == 0:
        return moves, quiet, nk
    nt = mill_placements(T, dm, O, mills & ~O, q_closed, rows)
    for u in range(nt):
        r = rows[u, 2]
        k = popcount(r)
        kinds[nk] = 1 + k
        if k > 0 and o - k + ho < LOSE_BELOW:
            kids[nk] = END
        else:
            kids[nk] = child_slot(T, Ob, M, O, rows[u, 1], r, k, True, q_orbit, q_s, q_rep,
                                  q_stab, bit, img, blocks)
        nk += 1
    e = free & ~(O | mills)  # the quiet placements
    moves += nt + popcount(e)
    while e:
        qb = e & -e
        e ^= qb
        kinds[nk] = 1
        kids[nk] = child_slot(T, Ob, M, O, ctz(qb), 0, 0, True, q_orbit, q_s, q_rep, q_stab, bit,
                              img, blocks)
        nk += 1
    return moves, quiet, nk


@njit(inline="always", **_NJ)
def _count_one(T, Ob, fly, dm, m, o, hm, ho, ends, M, O, mills, c0, c1, c2, c3, kids, rows,
               q_closed, q_orbit, q_s, q_rep, q_stab, bit, img, blocks):
    """(state, level, 1 if it has more quiet moves than a count holds else 0) of (M, O) after
    the values' count (``retro.counted``): the placements first (most positions that win, win
    by one, and then need no count of their slides), stopping at a win. (Fewer than 30
    arguments: CPython calls with more through a tuple, which numba cannot inline.)"""
    free = T.full & ~M
    win = False
    drawc = False
    moves = 0
    quiet = 0
    if hm > 0:
        nt = mill_placements(T, dm, O, mills & ~O, q_closed, rows)
        e = free & ~(O | mills)  # the quiet placements, walked point by point
        moves = nt + popcount(e)
        for u in range(nt):
            r = rows[u, 2]
            k = popcount(r)
            if k > 0 and o - k + ho < LOSE_BELOW:
                win = True
                break
            v = _at(k + 1, c0, c1, c2, c3, child_slot(T, Ob, M, O, rows[u, 1], r, k, True,
                                                      q_orbit, q_s, q_rep, q_stab, bit, img,
                                                      blocks))
            if v == LOSS:
                win = True
                break
            if v == DRAW:
                drawc = True
        while e and not win:
            qb = e & -e
            e ^= qb
            v = c1[child_slot(T, Ob, M, O, ctz(qb), 0, 0, True, q_orbit, q_s, q_rep, q_stab, bit,
                              img, blocks)]
            if v == LOSS:
                win = True
            elif v == DRAW:
                drawc = True
    if not win:
        slides, quiet, nk = slide_children(T, Ob, fly, ends, m, o, M, O, kids)
        moves += slides
        win, drawc_s = removal_exits(kids, nk, c0)
        drawc |= drawc_s
    state, level = counted(win, drawc, quiet, moves)
    return state, level, 1 if level == -1 and quiet > COUNT_MAX else 0
