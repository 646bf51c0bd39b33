"""A depth-limited alpha-beta searcher with no databases (numba): the search of
players.SearchPlayer, whose pure-Python negamax is its reference (the same scores).

Scores are from the side to move: a finished game is +-(WIN_SCORE + the depth left), so that a
sooner end counts more; at depth 0 the evaluation is 100 per piece more than the opponent (on the
board and in hand) plus 1 per legal turn more (mobility). A turn after which the same side
places again (the other's hand is empty) is not negated.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.codes import DRAW, LOSS, ONGOING, WIN
from .bitboard import MAX_TURNS, apply_turn, gen_turns, terminal
from .bits import popcount

_NJ = dict(cache=True, nogil=True)
WIN_SCORE = 100_000
INF = 1 << 60


@njit(**_NJ)
def evaluate(T, R, mover, opp, mh, oh, buf):
    """Material (100 a piece, board and hand) and mobility (legal turns) of the side to move,
    less the opponent's (``R``: the game's rules, games.KernelRules)."""
    material = 100 * ((popcount(mover) + mh) - (popcount(opp) + oh))
    mine = gen_turns(T, R.flying, R.dm, mover, opp, mh, oh, buf, R.pm)
    theirs = gen_turns(T, R.flying, R.dm, opp, mover, oh, mh, buf, R.pm)
    return material + mine - theirs


@njit(**_NJ)
def negamax(T, R, mover, opp, mh, oh, depth, alpha, beta, bufs, budget):
    """The score of a position searched ``depth`` plies deep (``bufs[k]``: the turn buffer of
    the node with k plies left). ``budget[0]``: nodes the search may still visit, counted
    down; at 0 (run out, or set to 0 by another thread: ``stop``) every node returns at once
    and the score means nothing (the caller sees ``budget[0] <= 0``). ``R``: the game's rules
    (games.KernelRules: the turn generator's, the hand counted with the board, a full board
    drawn)."""
    budget[0] -= 1
    if budget[0] <= 0:
        return 0
    buf = bufs[depth]
    nt = gen_turns(T, R.flying, R.dm, mover, opp, mh, oh, buf, R.pm)
    end = terminal(mover, opp, mh, oh, nt, R.count_hand)
    if end == LOSS and nt == 0 and R.full_draw and (mover | opp) == T.full:
        end = DRAW
    if end != ONGOING:
        if end == WIN:
            return WIN_SCORE + depth
        if end == LOSS:
            return -WIN_SCORE - depth
        return 0
    if depth == 0:
        return evaluate(T, R, mover, opp, mh, oh, buf)
    best = -INF
    for i in range(nt):
        a, b, c, d, switched = apply_turn(mover, opp, mh, oh, buf[i, 0], buf[i, 1], buf[i, 2], R.pm)
        if switched:
            score = -negamax(T, R, a, b, c, d, depth - 1, -beta, -alpha, bufs, budget)
        else:
            score = negamax(T, R, a, b, c, d, depth - 1, alpha, beta, bufs, budget)
        if budget[0] <= 0:
            return 0
        if score > best:
            best = score
        if score > alpha:
            alpha = score
        if alpha >= beta:
            break
    return best


def buffers(depth: int) -> np.ndarray:
    """Turn buffers for a search ``depth`` plies deep."""
    return np.empty((depth + 1, MAX_TURNS, 3), dtype=np.int64)
