"""A second naive reference, for boards too large for tests/naive.py's Python move graph: every
raw position (no symmetry) of the movement subspaces with 3 to ``--pieces`` a side, indexed by a
plain colex rank of each side's points, its moves generated here from the board's points, edges
and mills (not from the solver's kernels), in numba so that 76 M positions of the standard board
with 4 a side take minutes. It computes, straight from the definitions:

- value and dtw (docs/rules.md): breadth-first retrograde analysis over the whole move graph
  (removals are plain edges; a position with no move is lost in 0, a move that leaves the
  opponent two pieces wins in 1, a win is 1 + its quickest lost child, a loss 1 + its last);
- dtc, given those values: the same analysis where a removal is a conversion (it counts 1
  whatever follows: a removal into a lost position, or one that ends the game, wins in 1; one
  into a won position is a losing move of length 1);
- draw values (docs/draws.md): per pair, for every threshold t, a greatest or least fixpoint of
  "the side with more pieces keeps every exit at t or above", ranks counted from the raw
  positions weighted by 1 / orbit size;

and compares every raw position with the files of a database directory (``morris solve --out DB
--variant standard-4 --phase all --dtw --draws``, and the same with ``--flying``):

    python3 tests/naive_standard.py --db DB --variant standard-4 [--flying]

It prints the mismatches per subspace (0 expected) and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from math import comb

import numba
import numpy as np
from numba import njit

BIG = 32767
#: the chunks of the per-position loops; ``in_chunks`` runs them on numba's thread count
NCHUNK = 64


def in_chunks(kernel, *args):
    """``kernel(c, *args)`` for every chunk c of NCHUNK, on ``numba.get_num_threads()`` threads
    (the kernels release the GIL, and each chunk writes only its own part of the outputs);
    the results in chunk order. (Plain loops compile in a fraction of a parallel loop's time.)"""
    with ThreadPoolExecutor(numba.get_num_threads()) as pool:
        return list(pool.map(lambda c: kernel(c, *args), range(NCHUNK)))


@njit(cache=True)
def _rank(x, binom):
    r = 0
    k = 1
    while x:
        p = 0
        y = x & -x
        while y > 1:
            y >>= 1
            p += 1
        r += binom[p, k]
        k += 1
        x &= x - 1
    return r


@njit(cache=True)
def _unrank(r, k, n, binom):
    x = 0
    for i in range(k, 0, -1):
        p = i - 1
        while p + 1 < n and binom[p + 1, i] <= r:
            p += 1
        r -= binom[p, i]
        x |= 1 << p
    return x


@njit(cache=True)
def _compress(o, free):
    out = 0
    k = 0
    p = 0
    while free >> p:
        if free >> p & 1:
            if o >> p & 1:
                out |= 1 << k
            k += 1
        p += 1
    return out


@njit(cache=True)
def _expand(x, free):
    out = 0
    k = 0
    p = 0
    while free >> p:
        if free >> p & 1:
            if x >> k & 1:
                out |= 1 << p
            k += 1
        p += 1
    return out


@njit(cache=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _index(M, O, n, full, binom, off):
    m = _popcount(M)
    o = _popcount(O)
    return off[m, o] + _rank(M, binom) * binom[n - m, o] + _rank(_compress(O, full & ~M), binom)


@njit(cache=True)
def _position(i, m, o, n, full, binom, off):
    j = i - off[m, o]
    per = binom[n - m, o]
    M = _unrank(j // per, m, n, binom)
    O = _expand(_unrank(j % per, o, n - m, binom), full & ~M)
    return M, O


@njit(cache=True)
def _moves(M, O, n, full, adj, pmills, flying, out):
    """The turns of the side with M against O: rows (child mover, child opponent, removed), the
    child seen by the other side; removed 1 where a mill was closed (one row per removable
    piece). Returns the number of rows."""
    k = 0
    empty = full & ~(M | O)
    fly = flying and _popcount(M) == 3
    opp_mills = 0
    for p in range(n):
        if O >> p & 1:
            for t in range(pmills.shape[1]):
                mm = pmills[p, t]
                if mm and (O & mm) == mm:
                    opp_mills |= mm
    removable = O & ~opp_mills
    if removable == 0:
        removable = O
    for p in range(n):
        if not M >> p & 1:
            continue
        targets = empty if fly else (adj[p] & empty)
        for q in range(n):
            if not targets >> q & 1:
                continue
            M2 = (M ^ (1 << p)) | (1 << q)
            closed = False
            for t in range(pmills.shape[1]):
                mm = pmills[q, t]
                if mm and (M2 & mm) == mm:
                    closed = True
            if not closed:
                out[k, 0] = O
                out[k, 1] = M2
                out[k, 2] = 0
                k += 1
            else:
                for r in range(n):
                    if removable >> r & 1:
                        out[k, 0] = O ^ (1 << r)
                        out[k, 1] = M2
                        out[k, 2] = 1
                        k += 1
    return k


def _count_moves(lo, hi, m, o, n, full, adj, pmills, flying, binom, off, deg):
    in_chunks(_count_moves_chunk, lo, hi, m, o, n, full, adj, pmills, flying, binom, off, deg)


@njit(cache=True, nogil=True)
def _count_moves_chunk(c, lo, hi, m, o, n, full, adj, pmills, flying, binom, off, deg):
    out = np.empty((400, 3), dtype=np.int64)
    for i in range(lo + (hi - lo) * c // NCHUNK, lo + (hi - lo) * (c + 1) // NCHUNK):
        M, O = _position(i, m, o, n, full, binom, off)
        deg[i] = _moves(M, O, n, full, adj, pmills, flying, out)


def _fill_moves(lo, hi, m, o, n, full, adj, pmills, flying, binom, off, start, child, removal):
    """The move graph: ``child[e]`` the raw index of the position move e leads to (-1: a removal
    that leaves two pieces, the game is over), ``removal[e]`` 1 where the move removes."""
    in_chunks(_fill_moves_chunk, lo, hi, m, o, n, full, adj, pmills, flying, binom, off, start, child, removal)


@njit(cache=True, nogil=True)
def _fill_moves_chunk(c, lo, hi, m, o, n, full, adj, pmills, flying, binom, off, start, child, removal):
    out = np.empty((400, 3), dtype=np.int64)
    for i in range(lo + (hi - lo) * c // NCHUNK, lo + (hi - lo) * (c + 1) // NCHUNK):
        M, O = _position(i, m, o, n, full, binom, off)
        k = _moves(M, O, n, full, adj, pmills, flying, out)
        e = start[i]
        for u in range(k):
            removal[e + u] = out[u, 2]
            if _popcount(out[u, 0]) < 3:
                child[e + u] = -1
            else:
                child[e + u] = _index(out[u, 0], out[u, 1], n, full, binom, off)


@njit(cache=True)
def _reverse(start, child, edge):
    """The predecessors of every position over the moves ``e`` with ``edge[e]``: position q's
    are ``pred[rdeg[q]:rdeg[q + 1]]``."""
    N = len(start) - 1
    rdeg = np.zeros(N + 1, dtype=np.int64)
    for e in range(len(child)):
        if edge[e]:
            rdeg[child[e] + 1] += 1
    for i in range(N):
        rdeg[i + 1] += rdeg[i]
    pred = np.empty(rdeg[N], dtype=np.int32)
    fill = rdeg[:N].copy()
    for i in range(N):
        for e in range(start[i], start[i + 1]):
            if edge[e]:
                pred[fill[child[e]]] = i
                fill[child[e]] += 1
    return rdeg, pred


@njit(cache=True)
def _levels(rdeg, pred, val, dist, left, frontier, nf, ones, n1):
    """Breadth-first retrograde levels: ``frontier[:nf]`` holds the positions decided at 0 and
    ``ones[:n1]`` those decided at 1 before any move is followed; then a predecessor of a
    position lost at h is won at h + 1, and one whose ``left`` moves not yet known to lead into
    a won position run out is lost at h + 1. Returns the number of levels."""
    nxt = np.empty(len(val), dtype=np.int64)
    h = 0
    while nf or h == 0:
        nn = 0
        for f in range(nf):
            q = frontier[f]
            for r in range(rdeg[q], rdeg[q + 1]):
                p = pred[r]
                if dist[p] != BIG and dist[p] <= h + 1:
                    continue
                if val[q] == -1:
                    if dist[p] == BIG:
                        val[p] = 1
                        dist[p] = h + 1
                        nxt[nn] = p
                        nn += 1
                else:
                    left[p] -= 1
                    if left[p] == 0 and dist[p] == BIG:
                        val[p] = -1
                        dist[p] = h + 1
                        nxt[nn] = p
                        nn += 1
        if h == 0:  # the positions decided at 1 before (set already) join level 1
            for k in range(n1):
                nxt[nn] = ones[k]
                nn += 1
        frontier, nxt = nxt, frontier
        nf = nn
        h += 1
    return h


@njit(cache=True)
def _retrograde(start, child, val, dtw):
    """Values and dtw by breadth-first retrograde analysis over the whole move graph (removals
    are edges like any other): a position with no move is lost in 0, one with a move that ends
    the game won in 1; then level by level, a move into a position lost at h wins at h + 1, and
    a position whose every move leads into won positions is lost at 1 + the last of them."""
    N = len(start) - 1
    rdeg, pred = _reverse(start, child, child >= 0)
    left = np.empty(N, dtype=np.int64)
    frontier = np.empty(N, dtype=np.int64)
    ones = np.empty(N, dtype=np.int64)  # a move that ends the game: won in 1
    nf = 0
    n1 = 0
    for i in range(N):
        left[i] = start[i + 1] - start[i]
        if left[i] == 0:
            val[i] = -1
            dtw[i] = 0
            frontier[nf] = i
            nf += 1
            continue
        for e in range(start[i], start[i + 1]):
            if child[e] < 0:
                val[i] = 1
                dtw[i] = 1
                ones[n1] = i
                n1 += 1
                break
    return _levels(rdeg, pred, val, dtw, left, frontier, nf, ones, n1)


@njit(cache=True)
def _retrograde_dtc(start, child, removal, val, dtc):
    """dtc by breadth-first retrograde analysis, given the values ``val``: the moves without
    removal are the edges; a removal is decided at once by its child's value (into a lost
    position, or ending the game: a win in 1; into a won one: a losing move of length 1; into a
    draw: never a loss). A position with no move is lost in 0; a win is 1 + its quickest lost
    child (or 1 by a removal), a loss 1 + its last won child (or 1 when only removals remain).
    (The levels write ``val`` again with the values it holds.)"""
    N = len(start) - 1
    rdeg, pred = _reverse(start, child, (child >= 0) & (removal == 0))
    left = np.zeros(N, dtype=np.int64)  # moves not yet known to lead into a won position
    frontier = np.empty(N, dtype=np.int64)
    ones = np.empty(N, dtype=np.int64)  # decided at 1 by removals alone
    nf = 0
    n1 = 0
    for i in range(N):
        if start[i + 1] == start[i]:
            dtc[i] = 0
            frontier[nf] = i
            nf += 1
            continue
        wins = False
        for e in range(start[i], start[i + 1]):
            j = child[e]
            if removal[e] == 0:
                left[i] += 1
            elif j < 0 or val[j] == -1:
                wins = True
            elif val[j] == 0:
                left[i] += 1  # a drawing removal: never all moves into won positions
        if wins or left[i] == 0:
            dtc[i] = 1
            ones[n1] = i
            n1 += 1
    return _levels(rdeg, pred, val, dtc, left, frontier, nf, ones, n1)


def _weights(m, o, n, full, binom, off, perms, val, out):
    """Per chunk: orbit-weighted (positions, wins, losses) of subspace (m, o)."""
    in_chunks(_weights_chunk, m, o, n, full, binom, off, perms, val, out)


@njit(cache=True, nogil=True)
def _weights_chunk(c, m, o, n, full, binom, off, perms, val, out):
    count = binom[n, m] * binom[n - m, o]
    G = perms.shape[0]
    for j in range(count * c // NCHUNK, count * (c + 1) // NCHUNK):
        i = off[m, o] + j
        M, O = _position(i, m, o, n, full, binom, off)
        fixed = 0
        for s in range(G):
            M2 = 0
            O2 = 0
            for p in range(n):
                if M >> p & 1:
                    M2 |= 1 << perms[s, p]
                if O >> p & 1:
                    O2 |= 1 << perms[s, p]
            if M2 == M and O2 == O:
                fixed += 1
        w = fixed / G
        out[c, 0] += w
        if val[i] == 1:
            out[c, 1] += w
        elif val[i] == -1:
            out[c, 2] += w


def _pair_exits(lo, hi, a_side, start, child, removal, val, dv, best, worst):
    """For the drawn positions [lo, hi) of one part of a pair, whose side to move is A
    (``a_side``) or B: the best and worst exit value for A (-999 / 999 where none)."""
    in_chunks(_pair_exits_chunk, lo, hi, a_side, start, child, removal, val, dv, best, worst)


@njit(cache=True, nogil=True)
def _pair_exits_chunk(c, lo, hi, a_side, start, child, removal, val, dv, best, worst):
    for i in range(lo + (hi - lo) * c // NCHUNK, lo + (hi - lo) * (c + 1) // NCHUNK):
        best[i] = -999
        worst[i] = 999
        if val[i] != 0:
            continue
        for e in range(start[i], start[i + 1]):
            j = child[e]
            if removal[e] == 0 or j < 0 or val[j] != 0:
                continue
            x = -dv[j] if a_side else dv[j]  # A's value of the exit
            best[i] = max(best[i], x)
            worst[i] = min(worst[i], x)


def _sweep(lo, hi, a_side, t, start, child, removal, val, best, worst, X, Y):
    """One in-place sweep of the threshold-t operator over the drawn positions [lo, hi) whose
    side to move is A (``a_side``) or B; ``X``: their membership, ``Y``: the other part's.
    Returns the number of changes."""
    return sum(in_chunks(_sweep_chunk, lo, hi, a_side, t, start, child, removal, val, best,
                         worst, X, Y))


@njit(cache=True, nogil=True)
def _sweep_chunk(c, lo, hi, a_side, t, start, child, removal, val, best, worst, X, Y):
    changes = 0
    for i in range(lo + (hi - lo) * c // NCHUNK, lo + (hi - lo) * (c + 1) // NCHUNK):
        if val[i] != 0:
            continue
        ok = best[i] >= t if a_side else worst[i] >= t
        for e in range(start[i], start[i + 1]):
            j = child[e]
            if removal[e] != 0 or j < 0 or val[j] != 0:
                continue
            if a_side and Y[j]:
                ok = True
                break
            if not a_side and not Y[j]:
                ok = False
                break
        if ok != X[i]:
            X[i] = ok
            changes += 1
    return changes


def tables(board, top):
    n = board.n
    binom = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        for b in range(a + 1):
            binom[a, b] = comb(a, b)
    off = np.zeros((n + 1, n + 2), dtype=np.int64)
    total = 0
    for m in range(3, top + 1):
        for o in range(3, top + 1):
            off[m, o] = total
            total += comb(n, m) * comb(n - m, o)
    adj = np.zeros(n, dtype=np.int64)
    for a, b in board.edges:
        adj[a] |= 1 << b
        adj[b] |= 1 << a
    pm = np.zeros((n, 4), dtype=np.int64)
    for p in range(n):
        for k, mm in enumerate(board.point_mills[p]):
            pm[p, k] = mm
    perms = np.array(board.symmetries.perms, dtype=np.int64)
    return n, binom, off, total, adj, pm, perms


def solve(board, top, flying):
    n, binom, off, total, adj, pm, perms = tables(board, top)
    full = (1 << n) - 1
    subs = [(m, o) for m in range(3, top + 1) for o in range(3, top + 1)]

    def span(m, o):
        return off[m, o], off[m, o] + comb(n, m) * comb(n - m, o)

    t0 = time.perf_counter()
    deg = np.zeros(total, dtype=np.int64)
    for m, o in subs:
        _count_moves(*span(m, o), m, o, n, full, adj, pm, flying, binom, off, deg)
    start = np.zeros(total + 1, dtype=np.int64)
    np.cumsum(deg, out=start[1:])
    del deg
    child = np.empty(start[-1], dtype=np.int32)
    removal = np.empty(start[-1], dtype=np.int8)
    for m, o in subs:
        _fill_moves(*span(m, o), m, o, n, full, adj, pm, flying, binom, off, start, child, removal)
    print(f"move graph: {total:,} raw positions, {start[-1]:,} moves, {time.perf_counter() - t0:.0f} s")
    val = np.zeros(total, dtype=np.int8)
    dtw = np.full(total, BIG, dtype=np.int16)
    h = _retrograde(start, child, val, dtw)
    print(f"values and dtw: {h} levels, {time.perf_counter() - t0:.0f} s")
    dtc = np.full(total, BIG, dtype=np.int16)
    h = _retrograde_dtc(start, child, removal, val, dtc)
    print(f"dtc: {h} levels, {time.perf_counter() - t0:.0f} s")
    dv = np.zeros(total, dtype=np.int64)
    score = {}
    for m, o in subs:
        w = np.zeros((NCHUNK, 3))
        _weights(m, o, n, full, binom, off, perms, val, w)
        tot = w.sum(axis=0)
        score[(m, o)] = (tot[1] - tot[2]) / tot[0]
    best = np.zeros(total, dtype=np.int64)
    worst = np.zeros(total, dtype=np.int64)
    for tot_pieces in range(6, 2 * top + 1):
        for m in range(3, top + 1):
            o = tot_pieces - m
            if not 3 <= o <= m:
                continue
            x = 100 * (score[(m, o)] - score[(o, m)]) / 2
            r = int(np.sign(x)) * int(np.floor(abs(x) + 0.5))
            sa, sb = span(m, o), span(o, m)  # A to move, B to move (the same with m == o)
            _pair_exits(*sa, True, start, child, removal, val, dv, best, worst)
            bestA, worstA = best.copy(), worst.copy()
            _pair_exits(*sb, False, start, child, removal, val, dv, best, worst)
            bestB, worstB = best.copy(), worst.copy()
            ts = {r}
            for (lo, hi), bb, ww in ((sa, bestA, worstA), (sb, bestB, worstB)):
                ok = val[lo:hi] == 0
                ts |= set(np.unique(bb[lo:hi][ok & (bb[lo:hi] != -999)]).tolist())
                ts |= set(np.unique(ww[lo:hi][ok & (ww[lo:hi] != 999)]).tolist())
            resA = np.full(total, -999, dtype=np.int64)
            resB = np.full(total, -999, dtype=np.int64)
            for t in sorted(ts):
                XA = np.full(total, r >= t, dtype=np.bool_)
                XB = np.full(total, r >= t, dtype=np.bool_)
                while True:
                    c = _sweep(*sa, True, t, start, child, removal, val, bestA, worstA, XA, XB)
                    c += _sweep(*sb, False, t, start, child, removal, val, bestB, worstB, XB, XA)
                    if c == 0:
                        break
                resA[XA] = t
                resB[XB] = t
            for (lo, hi), is_a in ((sa, True), (sb, False)):
                drawn = val[lo:hi] == 0
                v = resA[lo:hi] if is_a else -resB[lo:hi]
                if m == o:
                    other = -resB[lo:hi]
                    assert (v[drawn] == other[drawn]).all(), "the two copies of an equal pair disagree"
                dv[lo:hi] = np.where(drawn, v, 0)
    print(f"draw values: {time.perf_counter() - t0:.0f} s in all")
    return val, dtw, dtc, dv, (n, binom, off, full, subs)


def compare(db, variant, val, dtw, dtc, dv, info):
    from morris.format.fileformat import TableFile
    from morris.database.folders import file_path
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.solving.prune import read_full_dtw

    n, binom, off, full, subs = info
    h = Hasher(variant.board)
    bad = 0
    for m, o in subs:
        s = Subspace(m, o)
        with TableFile(file_path(db, variant, s)) as tf, TableFile(file_path(db, variant, s, "dtw")) as tw, \
                TableFile(file_path(db, variant, s, "draw")) as td:
            fv = tf.values_all()
            fc = tf.dtc_all()
            fd = td.distance_all("dv", fv)
        fw = read_full_dtw(tw.path, fv)  # (a pruned file's wins derived from its children's)
        count = comb(n, m) * comb(n - m, o)
        sub_bad = 0
        for lo in range(0, count, 1 << 22):
            idx = np.arange(off[m, o] + lo, off[m, o] + min(count, lo + (1 << 22)))
            movers, opps = _positions(idx, m, o, n, full, binom, off)
            slots = h.index_batch(movers, opps)
            code = fv[slots]
            want = np.select([val[idx] == 1, val[idx] == -1], [1, 2], 0)
            got_w = np.where(code == 0, -1, fw[slots].astype(np.int64))
            want_w = np.where(want == 0, -1, dtw[idx].astype(np.int64))
            got_c = np.where(code == 0, -1, fc[slots].astype(np.int64))
            want_c = np.where(want == 0, -1, dtc[idx].astype(np.int64))
            got_d = np.where(code == 0, fd[slots].astype(np.int64) - 128, 0)
            sub_bad += int(((code != want) | (got_w != want_w) | (got_c != want_c)
                            | (got_d != dv[idx])).sum())
        print(f"{s}: {count:,} raw positions, {sub_bad} mismatches")
        bad += sub_bad
    return bad


def _positions(idx, m, o, n, full, binom, off):
    """The masks of the raw positions ``idx`` of subspace (m, o)."""
    movers = np.empty(len(idx), dtype=np.int64)
    opps = np.empty(len(idx), dtype=np.int64)
    in_chunks(_positions_chunk, idx, m, o, n, full, binom, off, movers, opps)
    return movers, opps


@njit(cache=True, nogil=True)
def _positions_chunk(c, idx, m, o, n, full, binom, off, movers, opps):
    for k in range(len(idx) * c // NCHUNK, len(idx) * (c + 1) // NCHUNK):
        movers[k], opps[k] = _position(idx[k], m, o, n, full, binom, off)


def main(argv=None):
    from morris.core.variants import get_variant

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="standard-4")
    ap.add_argument("--flying", action="store_true")
    ap.add_argument("--pieces", type=int, default=4)
    args = ap.parse_args(argv)
    variant = get_variant(args.variant, flying=args.flying)
    val, dtw, dtc, dv, info = solve(variant.board, args.pieces, args.flying)
    print(f"longest win {int(dtw[val == 1].max())} plies; draw values {sorted(set(dv[val == 0].tolist()))}")
    bad = compare(args.db, variant, val, dtw, dtc, dv, info)
    print(f"{bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
