"""Distance to the end of the game (dtw) of one movement-phase pair, given its values (numba).

dtw counts plies to the end of the game under perfect play, across removals: a position without
a move is lost in 0; a win is 1 + the least dtw of a move into a lost position; a loss is 1 + the
largest dtw over all its moves. A removal leads into the pair below, whose dtw is known: such a
move is an *exit* at a fixed level (the child's dtw + 1), where the dtc retrograde (retro.py)
treats every removal as level 1.

The pass runs the same level loop as the dtc retrograde, over the same state array ``st`` and
with the same predecessor generator (``retro.emit``), with three differences:

- draws are marked UNUSED (they have no dtw and are never touched), since the values are known,
  and an undecided won position carries ``WINFLAG``, so the value plane is not needed after the
  count;
- ``count_dtw`` records per position its exit level in ``exits`` (wins: the least, losses: the
  largest; ``NONE`` where there is none) and counts the non-removal moves of lost positions;
- level d first *promotes* the positions whose exit level is d and that are still undecided (a
  win whose exit is its best line; a loss whose every non-removal move is known already), then
  emits and applies as usual, except that a loss whose count runs out at level d is decided at
  ``max(d + 1, exit level)``: at d + 1 when no exit is longer, else by the promotion at its exit
  level. An entry from a lost position (w = 0) only ever targets a win, one from a won position
  only a loss's count (``WINFLAG`` tells them apart; ``retro.apply`` with the exit levels).

The promotions of a window of levels are listed in one scan (``level_counts`` bounds each
level's list, ``window_fill`` lists the undecided slots, ``promote_listed`` reads a level's list;
``solving/retro.Promotions`` picks the windows); a level with more slots than a window holds is
scanned by ``promote``. ``sched_flags[level, block]`` says which blocks hold a key equal to
``level`` (the draw-value pass's promotions read only those blocks).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.codes import LOSS, UNUSED, WIN
from .hashing import slot_walk, walk_at, walk_on
from .jit import CHUNK, run_chunks
from .retro import BLOCK, COUNT_MAX, DRAWCONV, UNIT, decide_exit, fetch_kids
from .turns import END, every_child, kid_buffer, movement_children

_NJ = dict(cache=True, nogil=True)

#: no exit level
NONE = 0xFFFF
#: an undecided won position: the bit above the count, the dtc retrograde's DRAWCONV (in both,
#: a position that never loses by its count running out); the pass needs the values no longer
WINFLAG = DRAWCONV


@njit(inline="always", **_NJ)
def exit_level(cv, cw, halved, best_win, worst):
    """(least exit level into a lost child, largest exit level) after an exit into a child of
    value ``cv`` and stored dtw ``cw`` (``halved``: the file's dtw // 2, a win's dtw odd)."""
    level = cw + 1
    if halved:
        level += cw + (cv == WIN)
    if cv == LOSS and level < best_win:
        best_win = level
    if level > worst:
        worst = level
    return best_win, worst


@njit(inline="always", **_NJ)
def dtw_state(v, anymove, quiet, best_win, worst):
    """(state, exit level, lost in 0, an error) of a won or lost position (value ``v``) after its
    count: a win waits for its best exit (``WINFLAG``; an error when it has neither an exit
    into a lost child nor a move that stays in the pair); a position without a move is lost in
    0; a loss counts its ``quiet`` moves (an error above ``COUNT_MAX``) and waits for its
    longest exit."""
    if v == WIN:
        return np.uint16(WINFLAG), np.uint16(best_win), False, best_win == NONE and quiet == 0
    if not anymove:
        return np.uint16(LOSS), np.uint16(NONE), True, False
    return (np.uint16(quiet << 2), np.uint16(worst if worst > 0 else NONE), False,
            quiet > COUNT_MAX)


def count_dtw(T, Ob, R, m, o, off, slots, vals, st, exits, child_vals, child_dtw, halved,
              lo_blk, hi_blk, flag0, errors):
    """Exit levels and counts for the blocks [lo_blk, hi_blk) of part (m, o); ``vals``: the
    pair's value plane (global slots); ``child_vals`` / ``child_dtw``: the value and dtw planes
    of subspace (o-1, m), empty when a removal ends the game; ``halved``: ``child_dtw`` holds
    dtw // 2 (the dtw file's entries; a win's dtw is odd); ``R``: the game's rules
    (games.KernelRules)."""
    end = off + slots
    flying = R.flying

    def run(bi):
        _dtw_block(T, Ob, flying, m, o, off, vals, st, exits, child_vals, child_dtw, halved,
                   lo_blk, flag0, errors, end, bi, kid_buffer(), kid_buffer())

    run_chunks(hi_blk - lo_blk, run)


@njit(**CHUNK)
def _dtw_block(T, Ob, flying, m, o, off, vals, st, exits, child_vals, child_dtw, halved, lo_blk,
               flag0, errors, end, bi, kids, back):
    """One block of ``count_dtw``: as in ``retro._count_block``, a won or lost position's
    removal children are fetched while the next one's are generated (``back`` holds the
    children of the position waiting, ``pg``)."""
    b = lo_blk + bi
    g0 = b * BLOCK
    g1 = min(g0 + BLOCK, end)
    has0 = False
    w = slot_walk(T, Ob, m, o, g0 - off)
    pg = -1
    v = pv = np.uint8(0)
    moves = nonrem = nk = pmoves = pnonrem = pnk = 0
    for g in range(g0, g1 + 1):
        if g < g1:
            v = vals[g]
            M, O, used = walk_at(T, m, o, w)
            w = walk_on(T, Ob, m, o, w)
            if not used or (v != WIN and v != LOSS):  # draws and unused slots take no part
                st[g] = UNUSED  # (an unused slot's value is a neighbour's, kept for compression)
                exits[g] = NONE
                continue
            moves, nonrem, nk = movement_children(T, Ob, flying, m, o, M, O, kids)
            fetch_kids(kids, nk, child_vals)
            fetch_kids(kids, nk, child_dtw)
        if pg >= 0:
            best_win = NONE  # least exit level into a lost child
            worst = 0  # largest exit level
            for x in range(pnk):
                j = back[x]
                if j == END:  # the removal ends the game: the child is lost in 0
                    best_win = 1
                    worst = max(worst, 1)
                    continue
                best_win, worst = exit_level(np.int64(child_vals[j]), np.int64(child_dtw[j]),
                                             halved, best_win, worst)
            st[pg], exits[pg], lost0, bad = dtw_state(pv, pmoves > 0, pnonrem, best_win, worst)
            has0 |= lost0
            if bad:
                errors[bi % errors.shape[0]] += 1
        pg, pv, pmoves, pnonrem, pnk = g, v, moves, nonrem, nk
        kids, back = back, kids
    flag0[b] = has0


@njit(parallel=True, **_NJ)
def top_exit(exits):
    """The greatest exit level in ``exits`` (-1 where none has one), in chunks on every thread
    (numpy's ``exits[exits != NONE].max()`` makes two temporaries a slot, on one core)."""
    n = exits.shape[0]
    nchunk = 256
    tops = np.full(nchunk, -1, dtype=np.int64)
    for c in prange(nchunk):
        t = -1
        for g in range(n * c // nchunk, n * (c + 1) // nchunk):
            lv = np.int64(exits[g])
            if lv != NONE and lv > t:
                t = lv
        tops[c] = t
    return tops.max()


@njit(parallel=True, **_NJ)
def sched_flags(exits, nblocks, out):
    """``out[level, block]`` = 1 where some slot of the block has exit level ``level``."""
    top = out.shape[0]
    for b in prange(nblocks):
        for g in range(b * BLOCK, min((b + 1) * BLOCK, exits.shape[0])):
            lv = exits[g]
            if lv < top:
                out[lv, b] = 1


@njit(inline="always", **_NJ)
def _promote_one(st, g, d, flags):
    """Slot g decided at level ``d`` if it is undecided and its exit is its line: a win, or a
    loss whose every non-removal move is decided (count 0); its unit flagged."""
    decide_exit(st, g, d, (np.int64(st[g]) & WINFLAG) != 0, flags)


@njit(parallel=True, **_NJ)
def promote(st, exits, d, flags):
    """Decide at level ``d`` the undecided positions whose exit level is d (a scan of every
    block; ``promote_listed`` reads a list of them instead): a win, or a loss whose every
    non-removal move is decided (count 0). ``flags`` gets the units (``UNIT`` slots) touched."""
    n = st.shape[0]
    for b in prange((n + BLOCK - 1) // BLOCK):
        for g in range(b * BLOCK, min((b + 1) * BLOCK, n)):
            if exits[g] == d:
                _promote_one(st, g, d, flags)


@njit(parallel=True, **_NJ)
def level_counts(exits, chunk, counts):
    """``counts[c, lv]``: the slots of chunk c (``chunk`` slots) whose exit level is lv (every
    level below ``counts.shape[1]``): before the propagation decides any, the most that a
    level's list (:func:`window_fill`) holds of a chunk."""
    n = exits.shape[0]
    nlevels = counts.shape[1]
    for c in prange(counts.shape[0]):
        for g in range(c * chunk, min(n, (c + 1) * chunk)):
            lv = np.int64(exits[g])
            if lv < nlevels:
                counts[c, lv] += 1


@njit(parallel=True, **_NJ)
def window_fill(st, exits, lo, hi, chunk, starts, ends, out):
    """The undecided slots whose exit level is in [lo, hi), listed level by level and chunk by
    chunk in slot order, each as its offset in its chunk (``chunk`` < 2**32): level lo + k's
    slots of chunk c at ``out[starts[i]:ends[i]]``, i = k * nchunk + c (``starts`` leaves room
    for :func:`level_counts`'s count)."""
    n = st.shape[0]
    nchunk = (n + chunk - 1) // chunk
    for c in prange(nchunk):
        for k in range(hi - lo):
            ends[k * nchunk + c] = starts[k * nchunk + c]
        g0 = c * chunk
        for g in range(g0, min(n, g0 + chunk)):
            lv = np.int64(exits[g])
            if lv >= lo and lv < hi and (st[g] & 3) == 0:
                i = (lv - lo) * nchunk + c
                out[ends[i]] = g - g0
                ends[i] += 1


@njit(parallel=True, **_NJ)
def promote_listed(st, listed, starts, ends, chunk, d, flags):
    """:func:`promote` over the slots listed for level ``d`` (``window_fill``'s: chunk c's at
    ``listed[starts[c]:ends[c]]``, offsets in the chunk) instead of a scan of the blocks (a
    chunk's thread owns its slots and their units)."""
    for c in prange(starts.shape[0]):
        g0 = c * chunk
        for e in range(starts[c], ends[c]):
            _promote_one(st, g0 + np.int64(listed[e]), d, flags)


@njit(parallel=True, **_NJ)
def finish_states(st, nchunk):
    """The state array becomes the dtw plane in place, in chunks on every thread: a decided
    slot its distance, a draw or an unused slot (code 3) 0. Returns how many slots were left
    undecided (code 0: a won or lost position that got no dtw)."""
    n = st.shape[0]
    missing = np.zeros(nchunk, dtype=np.int64)
    for c in prange(nchunk):
        k = 0
        for g in range(n * c // nchunk, n * (c + 1) // nchunk):
            v = np.int64(st[g])
            code = v & 3
            if code == 0:
                k += 1
            st[g] = np.uint16(0 if code == 3 else v >> 2)
        missing[c] = k
    return missing.sum()


def won_dtw(T, Ob, R, m, o, vals, plane, sib_vals, sib_plane, child_vals, child_plane):
    """Derive the wins' entries of movement subspace (m, o)'s halved dtw plane in place: a
    win's dtw is 1 + the least dtw of a move into a lost position, and a loss's dtw is even, so
    a win's halved entry is the least halved entry of such a child (0 for a removal that ends
    the game). ``vals``/``plane``: the subspace's stored values and halved dtw, the losses'
    entries filled in (a pruned file's); ``sib_*``: those of (o, m), where the quiet moves lead
    (the same arrays where m == o: only its losses are read); ``child_*``: those of (o - 1, m),
    where the removals lead (empty where a removal ends the game). Returns how many wins have
    no move into a lost position (0 where the files agree). ``R``: the game's rules."""
    flying = R.flying
    nblocks = -(-vals.shape[0] // BLOCK)
    bad = np.zeros(nblocks, dtype=np.int64)

    def run(b):
        _won_block(T, Ob, flying, m, o, vals, plane, sib_vals, sib_plane, child_vals,
                   child_plane, bad, b, kid_buffer(), kid_buffer())

    run_chunks(nblocks, run)
    return int(bad.sum())


@njit(**CHUNK)
def _won_block(T, Ob, flying, m, o, vals, plane, sib_vals, sib_plane, child_vals, child_plane,
               bad, b, kids, quiet_kids):
    """One block of ``won_dtw``."""
    g0 = b * BLOCK
    g1 = min(g0 + BLOCK, vals.shape[0])
    nbad = 0
    w = slot_walk(T, Ob, m, o, g0)
    for g in range(g0, g1):
        M, O, used = walk_at(T, m, o, w)
        w = walk_on(T, Ob, m, o, w)
        if not used or vals[g] != WIN:
            continue
        moves, quiet, nk = every_child(T, Ob, flying, m, o, M, O, kids, quiet_kids)
        best = np.int64(NONE)
        for x in range(quiet):
            j = quiet_kids[x]
            if sib_vals[j] == LOSS and np.int64(sib_plane[j]) < best:
                best = np.int64(sib_plane[j])
        for x in range(nk):
            j = kids[x]
            if j == END:
                best = 0
            elif child_vals[j] == LOSS and np.int64(child_plane[j]) < best:
                best = np.int64(child_plane[j])
        if best == NONE:
            nbad += 1
            best = 0
        plane[g] = best
    bad[b] = nbad
