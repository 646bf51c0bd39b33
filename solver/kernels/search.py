"""Alpha-beta search over the placement phase, with movement-phase lookups at its leaves (numba).

Values are from the side to move's point of view: +1 win, 0 draw, -1 loss. The search is a
negamax over whole turns (placement plus removals) with a transposition table keyed by the
perfect hash (subspace and slot, so symmetric positions share an entry) and move ordering:
placements that close a mill first, then those that block an opponent's mill, then the
best-connected points. A position after the last placement is a leaf: a finished game, or a
lookup in the movement-phase value planes (2 bits per slot, all subspaces concatenated).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.codes import DRAW, LOSS, ONGOING, WIN
from .bitboard import closed_mills, count_result, switches, turn_rows
from .bits import ctz, popcount
from .hashing import index_one
from .jit import CHUNK
from .turns import NO_TABLE, placements

_NJ = dict(cache=True, nogil=True)
MAXD = 32
MAXM = 1024
EXACT, LOWER, UPPER = 1, 2, 3


@njit(inline="always", **_NJ)
def leaf_value(T, Ob, mover, opp, mv_packed, mv_off):
    """Value for the side to move of a position after placement (both hands empty)."""
    m = popcount(mover)
    o = popcount(opp)
    r = count_result(m, o)
    if r != ONGOING:
        return 0 if r == DRAW else (1 if r == WIN else -1)
    j = mv_off[m, o] * 4 + index_one(T, Ob, mover, opp)
    code = (mv_packed[j >> 2] >> (2 * (j & 3))) & 3
    if code == WIN:
        return 1
    if code == LOSS:
        return -1
    return 0


@njit(inline="always", **_NJ)
def _key(T, Ob, M, O, hm, ho):
    sub = ((popcount(M) * 16 + popcount(O)) * 16 + hm) * 16 + ho
    return (sub << 40) | index_one(T, Ob, M, O)


@njit(inline="always", **_NJ)
def _back_up(best, alpha, sw, d, v):
    """A child of node d is worth v for its own mover: raise node d's best and alpha."""
    vp = -v if sw[d] else v
    if vp > best[d]:
        best[d] = vp
    if vp > alpha[d]:
        alpha[d] = vp


def search(T, Ob, R, M0, O0, hm0, ho0, mv_packed, mv_off, tt_keys, tt_vals, stats):
    """Negamax value of a placement position. ``stats``: nodes, leaves, tt hits (added to).
    ``R``: the game's rules (games.KernelRules); with ``R.count_hand`` the pieces in hand count
    with the board: a turn that leaves a side fewer than 3 on the board and in hand together
    ends the game there."""
    sM = np.zeros(MAXD, np.int64)
    sO = np.zeros(MAXD, np.int64)
    shm = np.zeros(MAXD, np.int64)
    sho = np.zeros(MAXD, np.int64)
    moves = np.zeros((MAXD, MAXM, 2), np.int64)
    score = np.zeros(MAXM, np.int64)
    nm = np.zeros(MAXD, np.int64)
    ptr = np.zeros(MAXD, np.int64)
    alpha = np.zeros(MAXD, np.int64)
    beta = np.zeros(MAXD, np.int64)
    a0 = np.zeros(MAXD, np.int64)
    best = np.zeros(MAXD, np.int64)
    keys = np.zeros(MAXD, np.int64)
    sw = np.zeros(MAXD, np.bool_)
    turns = turn_rows()
    # (allocated here: the search is a chunk function, compiled without reference counts and
    # called from Python only, kernels/jit.py)
    return _search(T, Ob, R.dm, M0, O0, hm0, ho0, mv_packed, mv_off, tt_keys, tt_vals, stats,
                   R.count_hand,
                   sM, sO, shm, sho, moves, score, nm, ptr, alpha, beta, a0, best, keys, sw, turns)


@njit(**CHUNK)
def _search(T, Ob, dm, M0, O0, hm0, ho0, mv_packed, mv_off, tt_keys, tt_vals, stats, hand,
            sM, sO, shm, sho, moves, score, nm, ptr, alpha, beta, a0, best, keys, sw, turns):
    """``search`` on the stacks it allocated (kernels/jit.py: no reference counts in the loop)."""
    mask = tt_keys.shape[0] - 1
    sM[0], sO[0], shm[0], sho[0] = M0, O0, hm0, ho0
    alpha[0], beta[0] = -1, 1
    d = 0
    entering = True
    ret = 0  # value returned by a finished child, from the child's mover's point of view
    while True:
        if entering:
            entering = False
            stats[0] += 1
            M, O, hm, ho = sM[d], sO[d], shm[d], sho[d]
            key = _key(T, Ob, M, O, hm, ho)
            keys[d] = key
            slot = key & mask
            done = False
            if tt_keys[slot] == key:
                stats[2] += 1
                flag = tt_vals[slot] >> 4
                val = (tt_vals[slot] & 15) - 1
                if flag == EXACT:
                    ret, done = val, True
                elif flag == LOWER:
                    if val >= beta[d]:
                        ret, done = val, True
                    elif val > alpha[d]:
                        alpha[d] = val
                elif flag == UPPER:
                    if val <= alpha[d]:
                        ret, done = val, True
                    elif val < beta[d]:
                        beta[d] = val
            if not done:
                a0[d] = alpha[d]
                best[d] = -2
                sw[d] = switches(hm - 1, ho)
                # generate and order the placements
                empty = T.full & ~(M | O)
                # opponent's open mills: points that would complete one of theirs
                threat = 0
                e = empty
                while e:
                    qb = e & -e
                    e ^= qb
                    if closed_mills(T, O | qb, ctz(qb)):
                        threat |= qb
                n = placements(T, dm, M, O, NO_TABLE, turns)
                for i in range(n):
                    q = turns[i, 1]
                    qb = np.int64(1) << q
                    moves[d, i, 0] = qb
                    moves[d, i, 1] = turns[i, 2]
                    score[i] = (1000 * closed_mills(T, M | qb, q) + (100 if threat & qb else 0)
                                + popcount(T.adj[q]))
                # insertion sort by score, best first
                for i in range(1, n):
                    j = i
                    while j > 0 and score[j - 1] < score[j]:
                        score[j - 1], score[j] = score[j], score[j - 1]
                        moves[d, j - 1, 0], moves[d, j, 0] = moves[d, j, 0], moves[d, j - 1, 0]
                        moves[d, j - 1, 1], moves[d, j, 1] = moves[d, j, 1], moves[d, j - 1, 1]
                        j -= 1
                nm[d] = n
                ptr[d] = 0
                if n == 0:
                    ret, done = -1, True  # no empty point: the side to move has lost
            if done:
                if d == 0:
                    return ret
                d -= 1
                # fall through to "a child returned"
                _back_up(best, alpha, sw, d, ret)
                continue
            continue
        # at node d: next move, or finish
        if ptr[d] < nm[d] and alpha[d] < beta[d]:
            i = ptr[d]
            ptr[d] += 1
            qb = moves[d, i, 0]
            R = moves[d, i, 1]
            M, O, hm, ho = sM[d], sO[d], shm[d], sho[d]
            M2 = M | qb
            O2 = O ^ R
            left = hm - 1  # (not ``hand``: that is the rule's flag)
            if sw[d]:
                cM, cO, chm, cho = O2, M2, ho, left
            else:
                cM, cO, chm, cho = M2, O2, left, ho
            if hand:
                r = count_result(popcount(cM) + chm, popcount(cO) + cho)
                if r != ONGOING:  # the counts end the game, in placement too
                    stats[1] += 1
                    _back_up(best, alpha, sw, d, 0 if r == DRAW else (1 if r == WIN else -1))
                    continue
            if chm == 0 and cho == 0:
                stats[1] += 1
                v = leaf_value(T, Ob, cM, cO, mv_packed, mv_off)
                _back_up(best, alpha, sw, d, v)
                continue
            sM[d + 1], sO[d + 1], shm[d + 1], sho[d + 1] = cM, cO, chm, cho
            if sw[d]:
                alpha[d + 1], beta[d + 1] = -beta[d], -alpha[d]
            else:
                alpha[d + 1], beta[d + 1] = alpha[d], beta[d]
            d += 1
            entering = True
            continue
        # node d is finished
        val = best[d]
        if val <= a0[d]:
            flag = UPPER
        elif val >= beta[d]:
            flag = LOWER
        else:
            flag = EXACT
        slot = keys[d] & mask
        tt_keys[slot] = keys[d]
        tt_vals[slot] = (flag << 4) | (val + 1)
        if d == 0:
            return val
        d -= 1
        _back_up(best, alpha, sw, d, val)
