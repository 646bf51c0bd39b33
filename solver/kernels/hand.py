"""The count phases of Lasker Morris's hand pairs (numba): the subspaces where a player with pieces
in hand may place one or move one (the place-or-move turn).

A hand pair (m, o, hm, ho)/(o, m, ho, hm) is solved like a movement pair (retro.py: the same
state array, the same levels of ``retro.emit`` and ``retro.apply``), because its quiet slides
lead into each other and make cycles; only the count differs. Its exits are every turn that
leaves the pair: a slide that removes (kind 0) and every placement (kind 1 + k, k pieces removed),
each into a subspace solved before (``turns.hand_children``). These kernels are the movement
pair's ``retro.count_pass`` (``count_hand_sweep``, in the placement sweep's order: most of a
hand pair's positions are decided by their placements), ``dtw.count_dtw`` and
``draws.count_draws`` with those exits; the child planes come as ``c0 .. c3``, one per kind
(empty where the kind has none).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.codes import DRAW, DV0, LOSS, UNUSED, WIN
from .bitboard import turn_rows
from .bits import popcount
from .hashing import expand, index_one, least_image, next_subset, slot_walk, walk_at, walk_on
from .draws import NO_EXIT, put_count, start_slot
from .dtw import NONE, dtw_state, exit_level
from .jit import CHUNK, run_chunks, run_spans
from .placement import child_slot, move_image, per_placement, sweep_scratch
from .retro import BLOCK, COUNT_MAX, counted, removal_exits
from .turns import END, hand_children, kid_buffer, placements, slide_children

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


def count_hand_dtw(T, Ob, R, fly, m, o, hm, ho, off, slots, vals, st, exits, c0, c1, c2, c3,
                   w0, w1, w2, w3, halved, lo_blk, hi_blk, flag0, errors):
    """``dtw.count_dtw`` for the blocks [lo_blk, hi_blk) of hand part (m, o, hm, ho): ``c_k``,
    ``w_k`` the value and dtw planes of the subspace of exit kind k (``halved``: the dtw planes
    hold dtw // 2, as the files store it); ``R``: the game's rules, ``fly``: whether the side
    to move flies."""
    end = off + slots
    dm = R.dm

    def run(bi):
        _hand_dtw_block(T, Ob, fly, dm, m, o, hm, ho, off, vals, st, exits, c0, c1, c2, c3, w0,
                        w1, w2, w3, halved, lo_blk, flag0, errors, end, bi, kid_buffer(),
                        kid_buffer(), turn_rows())

    run_chunks(hi_blk - lo_blk, run)


@njit(**CHUNK)
def _hand_dtw_block(T, Ob, fly, dm, m, o, hm, ho, off, vals, st, exits, c0, c1, c2, c3, w0, w1,
                    w2, w3, halved, lo_blk, flag0, errors, end, bi, kids, kinds, rows):
    """One block of ``count_hand_dtw``."""
    b = lo_blk + bi
    g0 = b * BLOCK
    g1 = min(g0 + BLOCK, end)
    has0 = False
    w = slot_walk(T, Ob, m, o, g0 - off)
    for g in range(g0, g1):
        v = vals[g]
        M, O, used = walk_at(T, m, o, w)
        w = walk_on(T, Ob, m, o, w)
        if not used or (v != WIN and v != LOSS):
            st[g] = UNUSED
            exits[g] = NONE
            continue
        moves, quiet, nk = hand_children(T, Ob, fly, ho, dm, m, o, hm, M, O, kids, kinds, rows)
        best_win = NONE
        worst = 0
        for x in range(nk):
            j = kids[x]
            if j == END:
                best_win = 1
                worst = max(worst, 1)
                continue
            k = kinds[x]
            best_win, worst = exit_level(_at(k, c0, c1, c2, c3, j), _at(k, w0, w1, w2, w3, j),
                                         halved, best_win, worst)
        st[g], exits[g], lost0, bad = dtw_state(v, moves > 0, quiet, best_win, worst)
        has0 |= lost0
        if bad:
            errors[bi % errors.shape[0]] += 1
    flag0[b] = has0


def count_hand_draws(T, Ob, R, fly, m, o, hm, ho, off, slots, rank, vals, st, exits, dv,
                     c0, c1, c2, c3, e0, e1, e2, e3, key0, lo_blk, hi_blk, wins, errors):
    """``draws.count_draws`` for the blocks [lo_blk, hi_blk) of hand part (m, o, hm, ho):
    ``c_k``, ``e_k`` the value and stored draw-value planes of the subspace of exit kind k."""
    end = off + slots
    dm = R.dm

    def run(bi):
        _hand_draws_block(T, Ob, fly, dm, m, o, hm, ho, off, rank, vals, st, exits, dv, c0, c1,
                          c2, c3, e0, e1, e2, e3, key0, lo_blk, wins, errors, end, bi,
                          kid_buffer(), kid_buffer(), turn_rows())

    run_chunks(hi_blk - lo_blk, run)


@njit(**CHUNK)
def _hand_draws_block(T, Ob, fly, dm, m, o, hm, ho, off, rank, vals, st, exits, dv, c0, c1, c2,
                      c3, e0, e1, e2, e3, key0, lo_blk, wins, errors, end, bi, kids, kinds, rows):
    """One block of ``count_hand_draws``."""
    b = lo_blk + bi
    has_win = False
    w = slot_walk(T, Ob, m, o, b * BLOCK - off)
    for g in range(b * BLOCK, min(b * BLOCK + BLOCK, end)):
        M, O, used = walk_at(T, m, o, w)
        w = walk_on(T, Ob, m, o, w)
        v = start_slot(st, exits, dv, g, used, vals[g - off], rank)
        if v != DRAW:
            has_win |= v == WIN
            continue
        _, quiet, nk = hand_children(T, Ob, fly, ho, dm, m, o, hm, M, O, kids, kinds, rows)
        best = NO_EXIT
        for i in range(nk):
            j = kids[i]
            if j == END:
                continue
            k = kinds[i]
            if _at(k, c0, c1, c2, c3, j) == DRAW:
                x = -(_at(k, e0, e1, e2, e3, j) - DV0) - rank
                if x > best:
                    best = x
        put_count(st, exits, errors, g, bi, quiet, best, key0)
    wins[b] = has_win


def count_hand_sweep(T, Ob, R, fly, m, o, hm, ho, off, st, flag0, flag1, c0, c1, c2, c3,
                     r_lo, r_hi, nchunk, errors):
    """``count_hand_pass`` in the placement sweep's order (kernels/placement.py): for each orbit
    representative M of the mover's pieces (``r_lo .. r_hi - 1`` of size m), every opponent
    mask O on the points M leaves free. A placement's child is anchored on M plus the placed
    point, so its orbit and symmetry are found once per (M, point) instead of once per position
    and placement, and as O varies the children stay inside one block of their plane. Each
    position is written at its own slot (``off`` + its slot in part (m, o, hm, ho)), and the
    blocks of what is decided at 0 and 1 flagged; of a position's images under a nontrivial
    stabilizer of M, only the one with the least O is evaluated (``least_image``). ``R``: the
    game's rules, ``fly``: whether the side to move flies."""
    dm = R.dm
    n = T.n
    n_opp = T.binom[n - m, o]
    base = Ob.reps_off[m]
    ends = o - 1 + ho < 3
    run_spans(nchunk, r_lo, r_hi, lambda c, a, b: _hand_sweep_rows(
        T, Ob, fly, dm, m, o, hm, ho, off, st, flag0, flag1, c0, c1, c2, c3, errors, n, n_opp,
        base, ends, c, a, b, kid_buffer(), turn_rows(), *sweep_scratch(n)))


@njit(**CHUNK)
def _hand_sweep_rows(T, Ob, fly, dm, m, o, hm, ho, off, st, flag0, flag1, c0, c1, c2, c3, errors,
                     n, n_opp, base, ends, c, a, b, kids, rows, q_closed, q_orbit, q_s, q_rep,
                     q_stab, bit, img, blocks):
    """One chunk of ``count_hand_sweep``: the mover representatives ``a .. b - 1``."""
    for k in range(3):
        if o - k >= 0:
            blocks[k] = T.binom[n - m - 1, o - k]
    nbad = 0
    for ri in range(a, b):
        M = Ob.reps[base + ri]
        stab = np.int64(Ob.stab[base + ri])
        free = T.full & ~M
        if hm > 0:
            per_placement(T, Ob, m, M, free, True, q_closed, q_orbit, q_s, q_rep, q_stab, bit,
                          img)
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
            moves, quiet, nk = slide_children(T, Ob, fly, ends, m, o, M, O, kids)
            win, drawc = removal_exits(kids, nk, c0)
            if hm > 0 and not win:
                nt = placements(T, dm, M, O, q_closed, rows)
                moves += nt
                for u in range(nt):
                    q = rows[u, 1]
                    R = rows[u, 2]
                    k = popcount(R)
                    if k > 0 and o - k + ho < 3:
                        win = True
                        break
                    j = child_slot(T, Ob, M, O, q, R, k, True, q_orbit, q_s, q_rep, q_stab, bit,
                                   img, blocks)
                    v = _at(k + 1, c0, c1, c2, c3, j)
                    if v == LOSS:
                        win = True
                        break
                    if v == 0:
                        drawc = True
            elif hm > 0:
                moves += 1  # (won already: the count of moves no longer matters)
            state, level = counted(win, drawc, quiet, moves)
            st[g] = state
            if level == 0:
                flag0[g // BLOCK] = 1
            elif level == 1:
                flag1[g // BLOCK] = 1
            if level == -1 and quiet > COUNT_MAX:
                nbad += 1
    errors[c % errors.shape[0]] += nbad
