"""Placement-phase evaluation of one subspace from its children (numba).

Every placement adds a piece, so the placement phase has no cycles: a position's value is the
best over its moves of the values of the positions they lead to, which lie in the next layer of
placement (one more piece placed) or, after the last placement, in the movement phase. This one
forward pass is the whole solve of a placement subspace (the verifier recomputes files with
separate code: kernels/verify.py).

Order of the sweep (why it is fast). Slots are anchored on the opponent's mask (index.py), and
the child of a placement is anchored on the *mover's* mask plus the placed point: walking the
parents in slot order would read every child at a random place of a plane of up to 600 MB. The
sweep walks the parents mover-major instead: for each orbit representative M of the mover's
pieces, every opponent mask O on the points M leaves free. For a fixed M and placed point q the
child's anchor M | q, and so its orbit, symmetry and block, are computed once; as O varies the
children stay inside one block of C(n - m - 1, o - k) slots (a few kilobytes), which stays in
cache. Each parent is written once, at its own slot (a random write instead of ~15 random reads).
A position whose mover representative M has a nontrivial stabilizer is met more than once, and
written each time with the same bytes; every used slot is met, because every position has an
image whose mover mask is its orbit's representative.

Results are packed into one byte, value | dtc << 2 (placement distances are at most the pieces
left to place, far below 64), and placement child planes are read packed the same way: one load
per child. Unused slots keep the UNUSED code the output was filled with.

Distance (dtc) in the placement phase: plies to the next removal or to the end of placement,
whichever comes first (a move that removes, or the last placement, counts 1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.codes import DRAW, DV0, LOSS, ONGOING, WIN
from .bitboard import closed_mills, count_result, switches, turn_rows
from .bits import ctz, popcount, prefetch
from .hashing import anchor, colex_rank, compress, expand, index_one, next_subset, ranked, sym_image
from .jit import CHUNK, run_spans
from .turns import placements

_NJ = dict(cache=True, nogil=True)
_BIG = 1 << 30


@njit(inline="always", **_NJ)
def _at(k, p0, p1, p2, j):
    """Slot j of the plane of the child after a placement removing k pieces."""
    if k == 0:
        return np.int64(p0[j])
    if k == 1:
        return np.int64(p1[j])
    return np.int64(p2[j])


def placement_sweep(T, Ob, dm, m, o, hm, ho, r_lo, r_hi, out, cinfo, c0, c1, c2, nchunk,
                    w0, w1, w2, wout, v0, v1, v2, vout):
    """Evaluate every position of placement subspace (m, o, hm, ho) whose mover mask is one of
    the orbit representatives ``r_lo .. r_hi - 1`` of size m, into ``out[slot]`` as
    ``value | dtc << 2``.

    ``cinfo[k]``: (the mover's pieces on the board, the opponent's, 1 if both hands are then
    empty, 1 if the counts may end the game there, the mover's count and the opponent's that
    decide it) of the child after a placement removing k pieces (subspaces.child_counts: the
    counts that decide take the hands where the rules count them); ``c_k`` its plane (a
    movement child: values; a placement child: packed like ``out``). With ``wout`` not empty, also the dtw of every
    position into ``wout[slot]`` (plies to the end of the game: 1 + the least dtw of a move
    into a position lost for the side that then moves, or 1 + the largest of every move for
    a loss; 0 for a draw), from the children's dtw planes ``w_k``. With ``vout`` not empty,
    also the stored draw value of every draw into ``vout[slot]`` (docs/draws.md: the best over
    its drawing moves of the child's draw value, negated when the turn passes), from the
    children's draw-value planes ``v_k``."""
    n = T.n
    hand = hm - 1
    switched = switches.py_func(hand, ho)
    n_opp = T.binom[n - m, o]
    base = Ob.reps_off[m]
    run_spans(nchunk, r_lo, r_hi, lambda c, a, b: _sweep_rows(
        T, Ob, dm, m, o, out, cinfo, c0, c1, c2, w0, w1, w2, wout, v0, v1, v2, vout, n, switched,
        n_opp, base, a, b, turn_rows(), *sweep_scratch(n)))


def sweep_scratch(n):
    """The scratch arrays of one chunk of a sweep (this one and ``hand.count_hand_sweep``), for
    a board of ``n`` points: per placed point q, the mills it closes, the child's orbit,
    symmetry, representative and stabilizer (``q_closed``, ``q_orbit``, ``q_s``, ``q_rep``,
    ``q_stab``); ``bit[p, q]``: where point p lands in the child's rank space after placing on
    q (the symmetry that canonicalises M | q, then compression onto the points it leaves free);
    ``img[q]``: the opponent's mask so mapped, kept up to date as the mask changes; ``blocks``:
    the size of one child orbit's block in each child plane."""
    return (np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros((n, n), dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros(3, dtype=np.int64))


@njit(inline="always", **_NJ)
def per_placement(T, Ob, m, M, free, anchored, q_closed, q_orbit, q_s, q_rep, q_stab, bit, img):
    """What depends on the mover's mask ``M`` (``m`` pieces) and the point q placed on only, for
    every free q, into the sweep's scratch arrays (``sweep_scratch``): the mills the placement
    closes; with ``anchored`` (the child lies in the opponent's orientation), the child's
    orbit, symmetry, representative and stabilizer and the ``bit`` table; ``img`` cleared."""
    f = free
    while f:
        qb = f & -f
        f ^= qb
        q = ctz(qb)
        q_closed[q] = closed_mills(T, M | qb, q)
        if anchored:
            orb, s, rep, stab = anchor(T, Ob, m + 1, M | qb)
            q_orbit[q] = orb
            q_s[q] = s
            q_rep[q] = rep
            q_stab[q] = stab
            rfree = T.full & ~rep
            g = free ^ qb
            while g:
                pb = g & -g
                g ^= pb
                bit[ctz(pb), q] = compress(T, sym_image(T, s, pb), rfree)
    for q in range(img.shape[0]):
        img[q] = 0


@njit(inline="always", **_NJ)
def move_image(prev, O, bit, img):
    """Bring ``img`` (``per_placement``'s table, the opponent's mask as each placement's child
    sees it) from opponent mask ``prev`` to ``O``: toggle the points that changed."""
    ch = prev ^ O
    while ch:
        pb = ch & -ch
        ch ^= pb
        p = ctz(pb)
        for q in range(img.shape[0]):
            img[q] ^= bit[p, q]


@njit(**CHUNK)
def _sweep_rows(T, Ob, dm, m, o, out, cinfo, c0, c1, c2, w0, w1, w2, wout, v0, v1, v2, vout, n,
                switched, n_opp, base, a, b, turns, q_closed, q_orbit, q_s, q_rep, q_stab, bit,
                img, blocks):
    """One chunk of ``placement_sweep``: the mover representatives ``a .. b - 1``."""
    with_dtw = wout.shape[0] > 0
    with_dv = vout.shape[0] > 0
    for k in range(3):
        if switched:
            blocks[k] = T.binom[n - cinfo[k, 1], cinfo[k, 0]]
    for ri in range(a, b):
        M = Ob.reps[base + ri]
        free = T.full & ~M
        per_placement(T, Ob, m, M, free, switched, q_closed, q_orbit, q_s, q_rep, q_stab, bit,
                      img)
        prev = 0
        x = (1 << o) - 1  # the opponent's mask compressed onto the free points (colex order)
        for _ in range(n_opp):
            O = expand(T, x, free)
            if o > 0:
                x = next_subset(x)
            if switched:
                move_image(prev, O, bit, img)
                prev = O
            slot = index_one(T, Ob, M, O)
            prefetch(out, slot)  # the write at the end then finds its line in cache
            best_win = _BIG
            worst_loss = -1
            draw = False
            best_win_w = _BIG
            worst_w = 0
            best_dv = -_BIG
            nt = placements(T, dm, M, O, q_closed, turns)
            for u in range(nt):
                q = turns[u, 1]
                R = turns[u, 2]
                k = popcount(R)
                O2 = O ^ R
                moved = cinfo[k, 2] == 1
                # the child's value for its side to move, and its distance
                r = ONGOING
                if cinfo[k, 3] == 1:
                    r = count_result(cinfo[k, 4], cinfo[k, 5])
                w = np.int64(0)
                dv = np.int64(0)
                if r != ONGOING:
                    v = np.int64(r)
                    d = np.int64(0)
                else:
                    if not switched:
                        j = index_one(T, Ob, M | (np.int64(1) << q), O2)
                    elif q_stab[q] == 1:
                        mapped = img[q]
                        while R:
                            rb = R & -R
                            R ^= rb
                            mapped ^= bit[ctz(rb), q]
                        j = q_orbit[q] * blocks[k] + colex_rank(T, mapped)
                    else:
                        j = q_orbit[q] * blocks[k] + ranked(
                            T, q_s[q], q_rep[q], q_stab[q], sym_image(T, q_s[q], O2))
                    byte = _at(k, c0, c1, c2, j)
                    v = byte & 3
                    d = byte >> 2
                    if with_dtw:
                        w = _at(k, w0, w1, w2, j)
                    if with_dv:
                        dv = _at(k, v0, v1, v2, j) - DV0
                dd = 1 if (k > 0 or moved) else d + 1
                if switched:
                    if v == WIN:
                        v = LOSS
                    elif v == LOSS:
                        v = WIN
                if v == WIN:
                    if dd < best_win:
                        best_win = dd
                    if w + 1 < best_win_w:
                        best_win_w = w + 1
                elif v == DRAW:
                    draw = True
                    if switched:
                        dv = -dv
                    if dv > best_dv:
                        best_dv = dv
                elif dd > worst_loss:
                    worst_loss = dd
                if w + 1 > worst_w:
                    worst_w = w + 1
            if nt == 0:
                res = LOSS
            elif best_win < _BIG:
                res = WIN | (best_win << 2)
            elif draw:
                res = DRAW
            else:
                res = LOSS | (worst_loss << 2)
            out[slot] = res
            if with_dtw:
                code = res & 3
                wout[slot] = best_win_w if code == WIN else (worst_w if code == LOSS else 0)
            if with_dv:
                vout[slot] = best_dv + DV0 if (res & 3) == DRAW else 0
