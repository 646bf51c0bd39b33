"""Bitboard move generation (numba): the kernels' version of rules.py, move for move.

States are seen from the side to move: ``mover``, ``opp`` (point masks) and the pieces in hand
``mh``, ``oh``. A turn is a row ``(frm, to, removed)`` (``frm == -1`` for a placement). Rule
options come in as arguments (``flying``, ``dm`` = pieces removed by a double mill); the board
comes in as the tables of kernels/tables.py.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .bits import ctz, popcount

_NJ = dict(cache=True, nogil=True)

#: Room for the turns of one position (placements x removal choices stay far below this).
MAX_TURNS = 1024

from ..core.codes import DRAW, LOSS, ONGOING, WIN
from ..core.codes import FLY_AT, LOSE_BELOW


def turn_rows():
    """A buffer for ``gen_turns``' (and ``turns.placements``') turn rows, allocated in Python by
    the kernel that runs a chunk function (which cannot allocate: kernels/jit.py)."""
    return np.empty((MAX_TURNS, 3), dtype=np.int64)


@njit(inline="always", **_NJ)
def in_mills(T, pieces):
    out = 0
    for i in range(T.mills.shape[0]):
        mm = T.mills[i]
        if pieces & mm == mm:
            out |= mm
    return out


@njit(inline="always", **_NJ)
def removable(T, opp):
    free = opp & ~in_mills(T, opp)
    return free if free else opp


@njit(inline="always", **_NJ)
def closed_mills(T, after, to):
    c = 0
    for j in range(T.pmill_n[to]):
        mm = T.pmills[to, j]
        if after & mm == mm:
            c += 1
    return c


@njit(inline="always", **_NJ)
def mill_targets(T, mover, empty):
    """The points of ``empty`` that complete a mill of ``mover``'s: a mill through each has its
    two other points in ``mover`` (where a move may close a mill)."""
    out = 0
    for i in range(T.mills.shape[0]):
        mm = T.mills[i]
        if popcount(mm & mover) == 2:
            out |= mm & empty
    return out


@njit(inline="always", **_NJ)
def closing_sources(T, mover, to, srcs):
    """The points of ``srcs`` (``mover``'s pieces) whose move to the empty point ``to`` closes
    a mill: ``closed_mills`` of the mask after the move is nonzero exactly when a mill through
    ``to`` has its two other points in ``mover`` and does not hold the piece that moves."""
    tb = np.int64(1) << to
    out = 0
    for j in range(T.pmill_n[to]):
        mm = T.pmills[to, j]
        if mover & mm == mm ^ tb:
            out |= srcs & ~mm
    return out


@njit(inline="always", **_NJ)
def flies(flying, mover, mh, oh, pm=False):
    """Whether the side to move flies (rules.flies): with exactly 3 pieces once the hands are
    empty; under the place-or-move turn (``pm``), with 3 on the board and in hand together."""
    if pm:
        return flying and popcount(mover) + mh == FLY_AT
    return flying and mh == 0 and oh == 0 and popcount(mover) == FLY_AT


@njit(inline="always", **_NJ)
def removal_turns(T, dm, opp, frm, to, closed, out, n):
    """Write the turns (frm, to, removed) of a move closing ``closed`` >= 1 mills into ``out[n:]``,
    one per set of opponent pieces it may remove (one with nothing removed when the opponent
    has no piece; with two removals, each pair that some legal order takes, once); return the
    row after the last. ``gen_turns`` and the solver's ``turns.placements`` call it."""
    k = 1 if dm == 1 else closed
    left = popcount(opp)
    if k > left:
        k = left
    if k == 0:
        out[n, 0] = frm
        out[n, 1] = to
        out[n, 2] = 0
        return n + 1
    first = removable(T, opp)
    if k == 1:
        r = first
        while r:
            x = r & -r
            r ^= x
            out[n, 0] = frm
            out[n, 1] = to
            out[n, 2] = x
            n += 1
        return n
    start = n
    r = first
    while r:
        x = r & -r
        r ^= x
        r2 = removable(T, opp ^ x)
        while r2:
            y = r2 & -r2
            r2 ^= y
            s = x | y
            dup = False
            for i in range(start, n):
                if out[i, 2] == s:
                    dup = True
                    break
            if not dup:
                out[n, 0] = frm
                out[n, 1] = to
                out[n, 2] = s
                n += 1
    return n


#: ``placement_turns``' table of mills closed per point, where the caller keeps none
NO_TABLE = np.zeros(0, dtype=np.int64)


@njit(inline="always", **_NJ)
def placement_turns(T, dm, mover, opp, closed, out):
    """Write the placement turns of the mover (rows -1, to, removed) into ``out``; return how
    many: every empty point, each with the removals a mill it closes allows. ``closed[q]``: the
    mills a placement on q closes, where the caller keeps that table for a fixed ``mover`` (the
    placement sweep), or ``NO_TABLE`` to work them out here. The one statement of a placement
    turn (gen_turns; the solver's turns.placements)."""
    n = 0
    e = T.full & ~(mover | opp)
    while e:
        tb = e & -e
        e ^= tb
        to = ctz(tb)
        c = closed[to] if closed.shape[0] else closed_mills(T, mover | tb, to)
        if c == 0:
            out[n, 0] = -1
            out[n, 1] = to
            out[n, 2] = 0
            n += 1
        else:
            n = removal_turns(T, dm, opp, -1, to, c, out, n)
    return n


@njit(inline="always", **_NJ)
def gen_turns(T, flying, dm, mover, opp, mh, oh, out, pm=False):
    """Write every turn into ``out`` (rows frm, to, removed); return how many. With ``pm`` (the
    place-or-move turn of Lasker Morris) a player with pieces in hand may also move one.

    (The arguments are cast so that ``_gen_turns`` compiles once: numba compiles a function
    called from a kernel once per combination of literal arguments, seven times in the suite.)"""
    return _gen_turns(T, flying, np.int64(dm), np.int64(mover), np.int64(opp), np.int64(mh),
                      np.int64(oh), out, bool(pm))


@njit(**_NJ)
def _gen_turns(T, flying, dm, mover, opp, mh, oh, out, pm):
    """``gen_turns``."""
    n = 0
    if mh > 0:
        n = placement_turns(T, dm, mover, opp, NO_TABLE, out)
        if not pm:
            return n
    empty = T.full & ~(mover | opp)
    fly = flies(flying, mover, mh, oh, pm)
    src = mover
    while src:
        fb = src & -src
        src ^= fb
        frm = ctz(fb)
        targets = empty if fly else (T.adj[frm] & empty)
        while targets:
            tb = targets & -targets
            targets ^= tb
            to = ctz(tb)
            after = (mover ^ fb) | tb
            c = closed_mills(T, after, to)
            if c == 0:
                out[n, 0] = frm
                out[n, 1] = to
                out[n, 2] = 0
                n += 1
            else:
                n = removal_turns(T, dm, opp, frm, to, c, out, n)
    return n


@njit(inline="always", **_NJ)
def count_result(m, o):
    """After placement, the piece counts alone decide: ONGOING, or the value for the side to move
    (fewer than 3 pieces loses; a draw when both have fewer). The one statement of this rule."""
    sm = m < LOSE_BELOW
    so = o < LOSE_BELOW
    if sm and so:
        return DRAW
    if sm:
        return LOSS
    if so:
        return WIN
    return ONGOING


@njit(inline="always", **_NJ)
def switches(hand_after, oh):
    """Whether the turn passes to the other side: it does, except that a player who still has
    pieces in hand keeps placing while the other's hand is empty. The one statement of this rule."""
    return not (hand_after > 0 and oh == 0)


@njit(inline="always", **_NJ)
def terminal(mover, opp, mh, oh, nturns, hand=False):
    """ONGOING, or the value (WIN/LOSS/DRAW) for the side to move of a finished game (with
    ``hand``, count_hand: the pieces in hand count with the board, at any time)."""
    if hand:
        r = count_result(popcount(mover) + mh, popcount(opp) + oh)
        if r != ONGOING:
            return r
    elif mh == 0 and oh == 0:
        r = count_result(popcount(mover), popcount(opp))
        if r != ONGOING:
            return r
    if nturns == 0:
        return LOSS
    return ONGOING


@njit(inline="always", **_NJ)
def apply_turn(mover, opp, mh, oh, frm, to, removed, pm=False):
    """(mover, opp, mh, oh, switched) after a turn, seen from the side to move next (under the
    place-or-move turn, ``pm``, the turn always passes)."""
    after = mover | (np.int64(1) << to)
    hand = mh
    if frm >= 0:
        after ^= np.int64(1) << frm
    else:
        hand = mh - 1
    if not (pm or switches(hand, oh)):
        return after, opp & ~removed, hand, oh, False
    return opp & ~removed, after, oh, hand, True


@njit(**_NJ)
def perft(T, R, mover, opp, mh, oh, depth):
    """Number of turn sequences of length ``depth`` (bulk-counted at the last ply); ``R``: the
    game's rules (games.KernelRules)."""
    flying, dm, pm, hand = R.flying, R.dm, R.pm, R.count_hand
    if depth == 0:
        return np.int64(1)
    buf = np.empty((depth, MAX_TURNS, 3), dtype=np.int64)
    cnt = np.zeros(depth, dtype=np.int64)
    ptr = np.zeros(depth, dtype=np.int64)
    st = np.empty((depth, 4), dtype=np.int64)
    st[0, 0] = mover
    st[0, 1] = opp
    st[0, 2] = mh
    st[0, 3] = oh
    total = np.int64(0)
    level = 0
    fresh = True
    while level >= 0:
        if fresh:
            nt = gen_turns(T, flying, dm, st[level, 0], st[level, 1], st[level, 2], st[level, 3], buf[level], pm)
            if terminal(st[level, 0], st[level, 1], st[level, 2], st[level, 3], nt, hand) != ONGOING:
                nt = 0
            cnt[level] = nt
            ptr[level] = 0
            fresh = False
            if level == depth - 1:
                total += nt
                level -= 1
                continue
        if ptr[level] >= cnt[level]:
            level -= 1
            continue
        i = ptr[level]
        ptr[level] += 1
        a, b, c, d, _ = apply_turn(
            st[level, 0], st[level, 1], st[level, 2], st[level, 3],
            buf[level, i, 0], buf[level, i, 1], buf[level, i, 2], pm,
        )
        level += 1
        st[level, 0] = a
        st[level, 1] = b
        st[level, 2] = c
        st[level, 3] = d
        fresh = True
    return total


@njit(parallel=True, **_NJ)
def perft_parallel(T, R, mover, opp, mh, oh, depth):
    """perft with the root turns shared among threads."""
    flying, dm, pm, hand = R.flying, R.dm, R.pm, R.count_hand
    if depth <= 1:
        return perft(T, R, mover, opp, mh, oh, depth)
    buf = np.empty((MAX_TURNS, 3), dtype=np.int64)
    nt = gen_turns(T, flying, dm, mover, opp, mh, oh, buf, pm)
    if terminal(mover, opp, mh, oh, nt, hand) != ONGOING:
        return np.int64(0)
    sub = np.zeros(nt, dtype=np.int64)
    for i in prange(nt):
        a, b, c, d, _ = apply_turn(mover, opp, mh, oh, buf[i, 0], buf[i, 1], buf[i, 2], pm)
        sub[i] = perft(T, R, a, b, c, d, depth - 1)
    return sub.sum()


@njit(**_NJ)
def turns_of_states(T, R, states, out_turns, out_start):
    """Turns of many states (rows mover, opp, mh, oh): ``out_turns[out_start[i]:out_start[i+1]]``
    are those of state i (none when the game is over there); ``R``: the game's rules (its
    flying and double mill: the turn generator of the game without the place-or-move turn)."""
    flying, dm = R.flying, R.dm
    buf = np.empty((MAX_TURNS, 3), dtype=np.int64)
    k = 0
    for i in range(states.shape[0]):
        out_start[i] = k
        nt = gen_turns(T, flying, dm, states[i, 0], states[i, 1], states[i, 2], states[i, 3], buf)
        if terminal(states[i, 0], states[i, 1], states[i, 2], states[i, 3], nt) != ONGOING:
            nt = 0
        for j in range(nt):
            out_turns[k, 0] = buf[j, 0]
            out_turns[k, 1] = buf[j, 1]
            out_turns[k, 2] = buf[j, 2]
            k += 1
    out_start[states.shape[0]] = k
    return k
