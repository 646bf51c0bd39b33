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
Every used slot is met, because every position has an image whose mover mask is its orbit's
representative; where that representative M has a nontrivial stabilizer, a position has as many
such images as the stabilizer maps its O to, and only the one with the least O is evaluated
(``least_image``; the others were 4.4% of the standard game's placement visits).

A position's value and dtc are the greatest of its moves' keys (``child_keys``: a win sooner
beats a win later beats a draw beats a loss later beats a loss sooner), a maximum taken without
a branch on the child's value, which no predictor guesses (25% of the sweep's time on standard
6-5+2+2). Without a dtw plane the sweep stops at a move no other can beat (``TOP_KEY``): it
looks at the placements that close a mill first, then at the quiet ones, and stops once
nothing left can raise its best key (30-55% less time in the layers where the second player
places); what the quiet ones can reach is bounded by the bytes their child plane holds
(``quiet_top``). Results are packed into one byte, value | dtc << 2 (placement distances are at most
the pieces left to place, far below 64), and placement child planes are read packed the same
way: one load per child. Unused slots keep the UNUSED code the output was filled with.

Distance (dtc) in the placement phase: plies to the next removal or to the end of placement,
whichever comes first (a move that removes, or the last placement, counts 1).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from ..core.codes import DRAW, DV0, LOSS, ONGOING, WIN
from .bitboard import closed_mills, count_result, switches, turn_rows
from .bits import ctz, popcount, prefetch
from .hashing import (anchor, colex_rank, compress, expand, index_one, least_image, next_subset,
                      ranked, sym_image)
from .jit import CHUNK, run_spans
from .turns import mill_placements, mill_points

_NJ = dict(cache=True, nogil=True)
_BIG = 1 << 30

#: the keys of a move's child for the side that makes it (``child_keys``): a loss in dd plies
#: is dd (below ``DRAW_KEY``), a draw ``DRAW_KEY``, a win in dd plies ``WIN_KEY`` - dd; the
#: best move has the greatest key, so a position's value and dtc is its greatest key decoded
DRAW_KEY = 256
WIN_KEY = 1024
#: the greatest key there is, a win in one ply: once a move has it, the others cannot change a
#: position's value or dtc (nor its draw value: it is no draw), and the values' sweep stops
#: looking (also at ``TOP_KEY - 1`` once no move left can win in one ply: ``_sweep_rows``)
TOP_KEY = WIN_KEY - 1


@lru_cache(maxsize=2)
def child_keys(switched):
    """keys[f, byte] (made once for each value of ``switched``; not to be written): the key
    (above) of a child whose packed byte (``value | dtc << 2``, its value for its own side to
    move) is ``byte``, reached by a move that ends the stretch of placements counted by dtc
    (f = 1: it removes, or it is the last placement; dd = 1) or not (f = 0: dd = dtc + 1);
    ``switched``: the turn passes, so the child's win is the mover's
    loss. The table lets the sweep take a maximum where it would branch on every child's
    value (a branch it cannot predict)."""
    keys = np.zeros((2, 256), dtype=np.int64)
    for f in range(2):
        for byte in range(256):
            v, d = byte & 3, byte >> 2
            dd = 1 if f else d + 1
            if switched and v in (WIN, LOSS):
                v = LOSS if v == WIN else WIN
            keys[f, byte] = WIN_KEY - dd if v == WIN else (DRAW_KEY if v == DRAW else dd)
    return keys


def fixed_children(cinfo):
    """(kfixed, kflag) per count k of pieces a placement removes: the packed byte of a child
    whose piece counts decide it (``count_result``), or -1 where the child is read from its
    plane; and the ``child_keys`` row of such a move."""
    kfixed = np.full(3, -1, dtype=np.int64)
    kflag = np.zeros(3, dtype=np.int64)
    for k in range(3):
        kflag[k] = 1 if (k > 0 or cinfo[k, 2] == 1) else 0
        if cinfo[k, 3] == 1:
            r = count_result.py_func(cinfo[k, 4], cinfo[k, 5])
            if r != ONGOING:
                kfixed[k] = r
    return kfixed, kflag


@njit(inline="always", **_NJ)
def decode_key(best):
    """The packed result (``value | dtc << 2``) of a position whose best move has key ``best``
    (0 where it has no move: lost at once)."""
    if best > DRAW_KEY:
        return WIN | ((WIN_KEY - best) << 2)
    if best == DRAW_KEY:
        return DRAW
    return LOSS | (best << 2)


@njit(inline="always", **_NJ)
def _at(k, p0, p1, p2, j):
    """Slot j of the plane of the child after a placement removing k pieces (its values or
    packed byte, or its side plane's entry)."""
    if k == 0:
        return np.int64(p0[j])
    if k == 1:
        return np.int64(p1[j])
    return np.int64(p2[j])


def placement_sweep(T, Ob, R, m, o, hm, ho, r_lo, r_hi, out, cinfo, c0, c1, c2, nchunk,
                    s0, s1, s2, sout, with_dtw, with_dv, c0_bytes=None):
    """Evaluate every position of placement subspace (m, o, hm, ho) whose mover mask is one of
    the orbit representatives ``r_lo .. r_hi - 1`` of size m, into ``out[slot]`` as
    ``value | dtc << 2``.

    ``cinfo[k]``: (the mover's pieces on the board, the opponent's, 1 if both hands are then
    empty, 1 if the counts may end the game there, the mover's count and the opponent's that
    decide it) of the child after a placement removing k pieces (subspaces.child_counts: the
    counts that decide take the hands where the rules count them); ``c_k`` its plane (a movement
    child: values; a placement child: packed like ``out``).

    With ``sout`` not empty (the complete sweep) the children are read from their *side planes*
    ``s_k`` instead (uint32 a slot: the byte ``c_k`` holds | the stored draw value << 8 | the
    dtw << 16; one load a move where three planes took three: standard 6-6+1+1's complete
    sweep 32.2 and 33.4 s before, 30.7 and 29.2 s after), and every position's results go into
    ``sout[slot]`` the same way (its byte | its stored draw value << 8 | its dtw << 16; ``out``
    is not written): with ``with_dtw``, the dtw (plies to the end of the game: 1 + the least
    dtw of a move into a position lost for the side that then moves, or 1 + the largest of
    every move for a loss; 0 for a draw); with ``with_dv``, the stored draw value of a draw
    (docs/draws.md: the best over its drawing moves of the child's draw value, negated when the
    turn passes; 0 for a win or a loss). ``c0_bytes``: the bytes present in the quiet
    placements' plane (``pack.bytes_present``, bool[256]), where the caller knows them: the
    greatest key among them bounds every quiet placement's, and the sweep stops there
    (``quiet_top``). ``R``: the game's rules (games.KernelRules)."""
    dm = R.dm
    n = T.n
    hand = hm - 1
    switched = switches.py_func(hand, ho)
    n_opp = T.binom[n - m, o]
    base = Ob.reps_off[m]
    keys = child_keys(bool(switched))
    kfixed, kflag = fixed_children(cinfo)
    top = quiet_top(keys, kfixed, kflag, c0_bytes)
    run_spans(nchunk, r_lo, r_hi, lambda c, a, b: _sweep_rows(
        T, Ob, dm, m, o, out, cinfo, c0, c1, c2, s0, s1, s2, sout, bool(with_dtw), bool(with_dv),
        n, switched, n_opp, base, a, b, keys, kfixed, kflag, top, turn_rows(),
        *sweep_scratch(n)))


def quiet_top(keys, kfixed, kflag, c0_bytes):
    """The greatest key a quiet placement's child can have: the greatest ``child_keys`` entry
    of the bytes ``c0_bytes`` present in its plane (``TOP_KEY`` where they are not known, or
    where the counts decide those children). A layer's packed plane holds few of the 256 bytes
    (in the standard game's middle layers no position is lost in one ply, so no quiet placement
    wins in two); a position whose best move reaches the bound has no better one left, and the
    values' sweep stops there, where ``TOP_KEY - 1`` alone left it to look at every quiet
    placement."""
    if c0_bytes is None or kfixed[0] >= 0 or not c0_bytes.any():
        return TOP_KEY
    return int(keys[kflag[0]][c0_bytes].max())


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


@njit(inline="always", **_NJ)
def child_slot(T, Ob, M, O, q, R, k, switched, q_orbit, q_s, q_rep, q_stab, bit, img, blocks):
    """The slot of the child after placing on q and removing the pieces R (k of them)."""
    if not switched:
        return index_one(T, Ob, M | (np.int64(1) << q), R ^ O)
    if q_stab[q] == 1:
        mapped = img[q]
        while R:
            rb = R & -R
            R ^= rb
            mapped ^= bit[ctz(rb), q]
        return q_orbit[q] * blocks[k] + colex_rank(T, mapped)
    return q_orbit[q] * blocks[k] + ranked(T, q_s[q], q_rep[q], q_stab[q],
                                           sym_image(T, q_s[q], O ^ R))


@njit(inline="always", **_NJ)
def _mill_keys(T, Ob, M, O, nt, turns, switched, q_orbit, q_s, q_rep, q_stab, bit, img, blocks,
               c0, c1, c2, keys, kfixed, kflag):
    """The greatest key of the placements that close a mill (``turns[:nt]``), stopping at
    ``TOP_KEY``; 0 where there are none."""
    best = 0
    for u in range(nt):
        q = turns[u, 1]
        R = turns[u, 2]
        k = popcount(R)
        byte = kfixed[k]
        if byte < 0:
            byte = _at(k, c0, c1, c2, child_slot(T, Ob, M, O, q, R, k, switched, q_orbit, q_s,
                                                   q_rep, q_stab, bit, img, blocks))
        best = max(best, np.int64(keys[kflag[k], byte]))
        if best == TOP_KEY:
            break
    return best


@njit(inline="always", **_NJ)
def _quiet_keys(T, Ob, M, O, e, switched, q_orbit, q_s, q_rep, q_stab, bit, img, blocks, c0, keys,
                kfixed, kflag, stop_at):
    """The greatest key of the quiet placements on the points ``e`` (none removes: the child
    plane ``c0``), stopping once it reaches ``stop_at``; 0 where ``e`` is empty."""
    if e == 0:
        return 0
    if kfixed[0] >= 0:  # the counts decide every such child alike
        return np.int64(keys[kflag[0], kfixed[0]])
    best = 0
    f = kflag[0]
    while e:
        qb = e & -e
        e ^= qb
        j = child_slot(T, Ob, M, O, ctz(qb), 0, 0, switched, q_orbit, q_s, q_rep, q_stab, bit,
                       img, blocks)
        best = max(best, np.int64(keys[f, c0[j]]))
        if best >= stop_at:
            break
    return best


@njit(**CHUNK)
def _sweep_rows(T, Ob, dm, m, o, out, cinfo, c0, c1, c2, s0, s1, s2, sout, with_dtw, with_dv,
                n, switched, n_opp, base, a, b, keys, kfixed, kflag, top, turns, q_closed,
                q_orbit, q_s, q_rep, q_stab, bit, img, blocks):
    """One chunk of ``placement_sweep``: the mover representatives ``a .. b - 1`` (``keys``,
    ``kfixed``, ``kflag``: ``child_keys`` and ``fixed_children``; ``top``: ``quiet_top``). The
    placements that close a mill come first (``turns.mill_placements``), then one quiet
    placement on each other empty point. Without a dtw plane the sweep stops at ``TOP_KEY``,
    or once only quiet placements are left at the greatest key they can have (``stop_at``:
    ``TOP_KEY - 1`` where they cannot win in one ply, being neither the last placement nor a
    child the counts decide, or ``top``, if less): nothing left could raise ``best``. With
    draw values the sweep stops at ``top`` only above a draw (a draw's value needs every
    drawing move)."""
    quick = sout.shape[0] == 0  # the values alone: the loops below
    stop_at = TOP_KEY if (kflag[0] or kfixed[0] >= 0) else TOP_KEY - 1
    if top < stop_at and (quick or top > DRAW_KEY):
        stop_at = top
    for k in range(3):
        if switched:
            blocks[k] = T.binom[n - cinfo[k, 1], cinfo[k, 0]]
    for ri in range(a, b):
        M = Ob.reps[base + ri]
        stab = np.int64(Ob.stab[base + ri])
        free = T.full & ~M
        per_placement(T, Ob, m, M, free, switched, q_closed, q_orbit, q_s, q_rep, q_stab, bit,
                      img)
        mills = mill_points(free, q_closed)
        prev = 0
        x = (1 << o) - 1  # the opponent's mask compressed onto the free points (colex order)
        for _ in range(n_opp):
            O = expand(T, x, free)
            if o > 0:
                x = next_subset(x)
            if stab != 1 and not least_image(T, stab, O):
                continue  # (the position is evaluated at its image with the least O)
            if switched:
                move_image(prev, O, bit, img)
                prev = O
            slot = index_one(T, Ob, M, O)
            if quick:  # the write at the end then finds its line in cache
                prefetch(out, slot)
            else:
                prefetch(sout, slot)
            best = 0  # the greatest key of a move (``child_keys``); 0: no move, lost now
            best_win_w = _BIG
            worst_w = 0
            best_dv = -_BIG
            nt = mill_placements(T, dm, O, mills & ~O, q_closed, turns)
            e = free & ~(O | mills)  # the quiet placements
            if quick:
                best = _mill_keys(T, Ob, M, O, nt, turns, switched, q_orbit, q_s, q_rep, q_stab,
                                  bit, img, blocks, c0, c1, c2, keys, kfixed, kflag)
                if best < stop_at:
                    best = max(best, _quiet_keys(T, Ob, M, O, e, switched, q_orbit, q_s, q_rep,
                                                 q_stab, bit, img, blocks, c0, keys, kfixed,
                                                 kflag, stop_at))
                out[slot] = decode_key(best)
                continue
            u = 0
            while True:
                if u < nt:
                    q = turns[u, 1]
                    R = turns[u, 2]
                    u += 1
                elif e and (with_dtw or best < stop_at):  # (the dtw needs every move)
                    qb = e & -e
                    e ^= qb
                    q = ctz(qb)
                    R = 0
                else:
                    break
                k = popcount(R)
                byte = kfixed[k]  # the counts decide the child, or it is read (-1)
                w = np.int64(0)
                dv = np.int64(0)
                if byte < 0:  # (one load: the byte, draw value and dtw side by side)
                    entry = _at(k, s0, s1, s2, child_slot(T, Ob, M, O, q, R, k, switched,
                                                          q_orbit, q_s, q_rep, q_stab, bit, img,
                                                          blocks))
                    byte = entry & 255
                    w = entry >> 16
                    dv = ((entry >> 8) & 255) - DV0
                key = np.int64(keys[kflag[k], byte])
                best = max(best, key)
                if with_dtw:
                    best_win_w = min(best_win_w, w + 1 if key > DRAW_KEY else _BIG)
                    worst_w = max(worst_w, w + 1)
                elif best == TOP_KEY:
                    break
                if with_dv:  # (a select on the key, not a branch)
                    best_dv = max(best_dv, (-dv if switched else dv) if key == DRAW_KEY else -_BIG)
            res = decode_key(best)
            code = res & 3
            ww = (best_win_w if code == WIN else (worst_w if code == LOSS else 0)) if with_dtw else 0
            vv = best_dv + DV0 if (with_dv and code == DRAW) else 0
            sout[slot] = res | (vv << 8) | (ww << 16)
