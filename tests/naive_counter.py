"""A second counter-iterating reference, in numba, for subspaces too big for plain Python.

Like ``naive.solve_with_counter`` it iterates the counter explicitly (V[position, c] for every c,
from the limit down to 0) over every raw position (no symmetry), but it generates moves with its
own loops over the board's adjacency and mills and numbers positions densely: position (M, O) of
subspace (m, o) is ``colex(M) * C(n - m, o) + colex(O among the points M leaves free)``. It
shares no code with the solver (not its hash, move generator or propagation).
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit, prange


def tables(board):
    n = board.n
    binom = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        for b in range(a + 1):
            binom[a, b] = comb(a, b)
    adj = np.array(board.adjacency, dtype=np.int64)
    # the mills through each point (as many columns as the most any point has; 0 pads)
    through = [[x for x in board.mill_masks if x >> p & 1] for p in range(n)]
    mills = np.zeros((n, max(len(t) for t in through)), dtype=np.int64)
    for p, t in enumerate(through):
        mills[p, : len(t)] = t
    return n, binom, adj, mills


@njit(cache=True)
def _rank(mask, free, binom):
    """Colex rank of ``mask`` among the points of ``free`` (renumbered 0, 1, ... in order)."""
    r = 0
    k = 0
    j = 0
    p = 0
    while free >> p:
        if free >> p & 1:
            if mask >> p & 1:
                k += 1
                r += binom[j, k]
            j += 1
        p += 1
    return r


@njit(cache=True)
def _unrank(r, k, free, n, binom):
    """The ``k`` points of ``free`` with colex rank ``r`` (inverse of :func:`_rank`)."""
    pts = np.empty(n, dtype=np.int64)
    cnt = 0
    for p in range(n):
        if free >> p & 1:
            pts[cnt] = p
            cnt += 1
    mask = 0
    for kk in range(k, 0, -1):
        j = kk - 1
        while j + 1 < cnt and binom[j + 1, kk] <= r:
            j += 1
        r -= binom[j, kk]
        mask |= 1 << pts[j]
        cnt = j
    return mask


@njit(cache=True)
def index(M, O, m, o, n, binom):
    full = (1 << n) - 1
    return _rank(M, full, binom) * binom[n - m, o] + _rank(O, full & ~M, binom)


@njit(cache=True)
def _in_mill(mask, p, mills):
    """Whether point p of ``mask`` lies in a mill of ``mask`` (``mills[p]``: the mills through p)."""
    for x in mills[p]:
        if x and mask & x == x:
            return True
    return False


@njit(parallel=True, cache=True)
def level(m, o, n, binom, adj, mills, flying, V, c, Vsib, Vlow, blocked_only):
    """V[:, c] for subspace (m, o) from Vsib[:, c + 1] (subspace (o, m)) and Vlow[:, 0]
    (subspace (o - 1, m)); ``blocked_only``: c is the limit (a blocked mover loses, else draw)."""
    full = (1 << n) - 1
    size = binom[n, m] * binom[n - m, o]
    per = binom[n - m, o]
    for i in prange(size):
        M = _unrank(i // per, m, full, n, binom)
        O = _unrank(i % per, o, full & ~M, n, binom)
        empty = full & ~(M | O)
        fly = flying and m == 3
        best = -2
        if blocked_only:  # at the limit: a draw, unless the mover has no move at all
            anymove = False
            for p in range(n):
                if M >> p & 1 and (empty if fly else adj[p] & empty):
                    anymove = True
            V[i, c] = 0 if anymove else -1
            continue
        for p in range(n):
            if not M >> p & 1:
                continue
            targets = empty if fly else adj[p] & empty
            for t in range(n):
                if not targets >> t & 1:
                    continue
                M2 = (M & ~(1 << p)) | (1 << t)
                if _in_mill(M2, t, mills):
                    if o - 1 < 3:
                        v = 1
                    else:
                        all_in = True
                        for x in range(n):
                            if O >> x & 1 and not _in_mill(O, x, mills):
                                all_in = False
                        v = -2
                        for x in range(n):
                            if O >> x & 1 and (all_in or not _in_mill(O, x, mills)):
                                O2 = O & ~(1 << x)
                                w = -Vlow[index(O2, M2, o - 1, m, n, binom), 0]
                                if w > v:
                                    v = w
                else:
                    v = -Vsib[index(O, M2, o, m, n, binom), c + 1]
                if v > best:
                    best = v
        V[i, c] = -1 if best == -2 else best


def solve(variant, top, max_total=None):
    """{(m, o): V} for every movement subspace with 3..top pieces a side (and at most
    ``max_total`` pieces in all): V[i, c] the value (1 win, 0 draw, -1 loss) of raw position i
    (numbered as :func:`index`) at counter c."""
    n, binom, adj, mills = tables(variant.board)
    flying = variant.rules.flying
    out = {}
    for total in range(6, min(2 * top, max_total or 2 * top) + 1):
        for m in range(3, top + 1):
            o = total - m
            if not 3 <= o <= m:
                continue
            L = variant.rules.limit_of(m, o)
            subs = sorted({(m, o), (o, m)})
            for s in subs:
                out[s] = np.zeros((binom[n, s[0]] * binom[n - s[0], s[1]], L + 1), dtype=np.int8)
            for c in range(L, -1, -1):
                for a, b in subs:
                    low = out.get((b - 1, a), np.zeros((1, 1), dtype=np.int8))
                    level(a, b, n, binom, adj, mills, flying, out[(a, b)], c, out[(b, a)], low, c == L)
    return out


@njit(parallel=True, cache=True)
def _enumerate(m, o, n, binom, movers, opps):
    full = (1 << n) - 1
    per = binom[n - m, o]
    for i in prange(movers.shape[0]):
        M = _unrank(i // per, m, full, n, binom)
        movers[i] = M
        opps[i] = _unrank(i % per, o, full & ~M, n, binom)


def all_positions(board, m, o):
    """(movers, opponents) of every raw position of (m, o), in index order."""
    n, binom, _, _ = tables(board)
    size = comb(n, m) * comb(n - m, o)
    movers = np.empty(size, dtype=np.int64)
    opps = np.empty(size, dtype=np.int64)
    _enumerate(m, o, n, binom, movers, opps)
    return movers, opps
