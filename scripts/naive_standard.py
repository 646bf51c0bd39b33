"""A second naive reference, for boards too large for tests/naive.py's Python move graph: every
raw position (no symmetry) of the movement subspaces with 3 to ``--pieces`` a side, indexed by a
plain colex rank of each side's points, its moves generated here from the board's points, edges
and mills (not from the solver's kernels), in numba so that 76 M positions of the standard board
with 4 a side take minutes. It computes, straight from the definitions:

- value and dtw (docs/rules.md): W_h / L_h as in naive.dtw_by_horizon, one synchronous sweep over
  every undecided position per ply h;
- draw values (docs/draws.md): per pair, for every threshold t, a greatest or least fixpoint of
  "the side with more pieces keeps every exit at t or above", ranks counted from the raw
  positions weighted by 1 / orbit size;

and compares every raw position with the files of a database directory (``morris solve --out DB
--variant standard-4 --phase all --dtw --draws``, and the same with ``--flying``):

    python3 scripts/naive_standard.py --db DB --variant standard-4 [--flying]

It prints the mismatches per subspace (0 expected) and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import sys
import time
from math import comb

import numpy as np
from numba import njit, prange

BIG = 32767


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


@njit(parallel=True, cache=True)
def _ply(h, m, o, n, full, adj, pmills, flying, binom, off, val, dtw):
    """One ply h of the definition over subspace (m, o); returns how many were decided."""
    count = binom[n, m] * binom[n - m, o]
    decided = np.zeros(64, dtype=np.int64)
    for c in prange(64):
        out = np.empty((400, 3), dtype=np.int64)
        for j in range(count * c // 64, count * (c + 1) // 64):
            i = off[m, o] + j
            if dtw[i] != BIG:
                continue
            M, O = _position(i, m, o, n, full, binom, off)
            k = _moves(M, O, n, full, adj, pmills, flying, out)
            if k == 0:
                if h == 0:
                    val[i] = -1
                    dtw[i] = 0
                    decided[c] += 1
                continue
            if h == 0:
                continue
            win = False
            all_won = True
            for u in range(k):
                if _popcount(out[u, 0]) < 3:
                    win = True  # the removal leaves two pieces: the child is over
                    continue
                jj = _index(out[u, 0], out[u, 1], n, full, binom, off)
                if dtw[jj] <= h - 1:
                    if val[jj] == -1:
                        win = True
                    else:
                        pass
                if not (val[jj] == 1 and dtw[jj] <= h - 1):
                    all_won = False
            if win:
                val[i] = 1
                dtw[i] = h
                decided[c] += 1
            elif all_won:
                val[i] = -1
                dtw[i] = h
                decided[c] += 1
    return decided.sum()


@njit(parallel=True, cache=True)
def _weights(m, o, n, full, binom, off, perms, val, out):
    """Per chunk: orbit-weighted (positions, wins, losses) of subspace (m, o)."""
    count = binom[n, m] * binom[n - m, o]
    G = perms.shape[0]
    for c in prange(64):
        for j in range(count * c // 64, count * (c + 1) // 64):
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


@njit(parallel=True, cache=True)
def _pair_exits(m, o, a_side, n, full, adj, pmills, flying, binom, off, val, dv, best, worst, nin):
    """For the drawn positions of subspace (m, o) in a pair where the side to move is A
    (``a_side``) or B: the best and worst exit value for A (``best``/``worst``; -999/999 where
    none) and the number of in-pair drawing moves."""
    count = binom[n, m] * binom[n - m, o]
    for c in prange(64):
        out = np.empty((400, 3), dtype=np.int64)
        for j in range(count * c // 64, count * (c + 1) // 64):
            i = off[m, o] + j
            best[i] = -999
            worst[i] = 999
            nin[i] = 0
            if val[i] != 0:
                continue
            M, O = _position(i, m, o, n, full, binom, off)
            k = _moves(M, O, n, full, adj, pmills, flying, out)
            for u in range(k):
                if _popcount(out[u, 0]) < 3:
                    continue
                jj = _index(out[u, 0], out[u, 1], n, full, binom, off)
                if val[jj] != 0:
                    continue
                if out[u, 2] == 0:
                    nin[i] += 1
                    continue
                x = -dv[jj] if a_side else dv[jj]  # A's value of the exit
                best[i] = max(best[i], x)
                worst[i] = min(worst[i], x)


@njit(parallel=True, cache=True)
def _sweep(m, o, a_side, t, n, full, adj, pmills, flying, binom, off, val, best, worst, X, Y):
    """One in-place sweep of the threshold-t operator over the drawn positions of subspace
    (m, o) whose side to move is A (``a_side``) or B; ``X``: its membership, ``Y``: the other
    part's. Returns the number of changes."""
    count = binom[n, m] * binom[n - m, o]
    changes = np.zeros(64, dtype=np.int64)
    for c in prange(64):
        out = np.empty((400, 3), dtype=np.int64)
        for j in range(count * c // 64, count * (c + 1) // 64):
            i = off[m, o] + j
            if val[i] != 0:
                continue
            M, O = _position(i, m, o, n, full, binom, off)
            k = _moves(M, O, n, full, adj, pmills, flying, out)
            if a_side:
                ok = best[i] >= t
            else:
                ok = worst[i] >= t
            for u in range(k):
                if out[u, 2] != 0 or _popcount(out[u, 0]) < 3:
                    continue
                jj = _index(out[u, 0], out[u, 1], n, full, binom, off)
                if val[jj] != 0:
                    continue
                if a_side and Y[jj]:
                    ok = True
                    break
                if not a_side and not Y[jj]:
                    ok = False
                    break
            if ok != X[i]:
                X[i] = ok
                changes[c] += 1
    return changes.sum()


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
    val = np.zeros(total, dtype=np.int8)
    dtw = np.full(total, BIG, dtype=np.int16)
    subs = [(m, o) for m in range(3, top + 1) for o in range(3, top + 1)]
    t0 = time.perf_counter()
    h = 0
    while True:
        new = sum(_ply(h, m, o, n, full, adj, pm, flying, binom, off, val, dtw) for m, o in subs)
        if h > 0 and new == 0:
            break
        h += 1
    print(f"values and dtw: {total:,} raw positions, {h} plies, {time.perf_counter() - t0:.0f} s")
    dv = np.zeros(total, dtype=np.int64)
    score = {}
    for m, o in subs:
        w = np.zeros((64, 3))
        _weights(m, o, n, full, binom, off, perms, val, w)
        tot = w.sum(axis=0)
        score[(m, o)] = (tot[1] - tot[2]) / tot[0]
    best = np.zeros(total, dtype=np.int64)
    worst = np.zeros(total, dtype=np.int64)
    nin = np.zeros(total, dtype=np.int64)
    for tot_pieces in range(6, 2 * top + 1):
        for m in range(3, top + 1):
            o = tot_pieces - m
            if not 3 <= o <= m:
                continue
            x = 100 * (score[(m, o)] - score[(o, m)]) / 2
            r = int(np.sign(x)) * int(np.floor(abs(x) + 0.5))
            # (A to move), (B to move); with m == o the same subspace twice, B's membership apart
            parts = [(m, o, True), (o, m, False)]
            _pair_exits(m, o, True, n, full, adj, pm, flying, binom, off, val, dv, best, worst, nin)
            bestA, worstA = best.copy(), worst.copy()
            _pair_exits(o, m, False, n, full, adj, pm, flying, binom, off, val, dv, best, worst, nin)
            bestB, worstB = best, worst
            ts = {r}
            for (a, b, _), bb, ww in ((parts[0], bestA, worstA), (parts[1], bestB, worstB)):
                sl = slice(off[a, b], off[a, b] + comb(n, a) * comb(n - a, b))
                ok = val[sl] == 0
                ts |= set(np.unique(bb[sl][ok & (bb[sl] != -999)]).tolist())
                ts |= set(np.unique(ww[sl][ok & (ww[sl] != 999)]).tolist())
            resA = np.full(total, -999, dtype=np.int64)
            resB = np.full(total, -999, dtype=np.int64)
            for t in sorted(ts):
                XA = np.full(total, r >= t, dtype=np.bool_)
                XB = np.full(total, r >= t, dtype=np.bool_)
                while True:
                    c = _sweep(m, o, True, t, n, full, adj, pm, flying, binom, off, val, bestA, worstA, XA, XB)
                    c += _sweep(o, m, False, t, n, full, adj, pm, flying, binom, off, val, bestB, worstB, XB, XA)
                    if c == 0:
                        break
                resA[XA] = t
                resB[XB] = t
            for a, b, is_a in parts:
                sl = slice(off[a, b], off[a, b] + comb(n, a) * comb(n - a, b))
                drawn = val[sl] == 0
                v = resA[sl] if is_a else -resB[sl]
                if m == o:
                    other = -resB[sl]
                    assert (v[drawn] == other[drawn]).all(), "the two copies of an equal pair disagree"
                dv[sl] = np.where(drawn, v, 0)
    print(f"draw values: {time.perf_counter() - t0:.0f} s in all")
    return val, dtw, dv, (n, binom, off, full, subs)


def compare(db, variant, val, dtw, dv, info):
    from morris.fileformat import TableFile
    from morris.folders import draws_path, dtw_path, table_path
    from morris.index import Hasher
    from morris.subspaces import Subspace

    n, binom, off, full, subs = info
    h = Hasher(variant.board)
    bad = 0
    for m, o in subs:
        s = Subspace(m, o)
        with TableFile(table_path(db, variant, s)) as tf, TableFile(dtw_path(db, variant, s)) as tw, \
                TableFile(draws_path(db, variant, s)) as td:
            fv, fw, fd = tf.values_all(), tw.distance_all("dtw"), td.distance_all("dv")
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
            got_d = np.where(code == 0, fd[slots].astype(np.int64) - 128, 0)
            sub_bad += int(((code != want) | (got_w != want_w) | (got_d != dv[idx])).sum())
        print(f"{s}: {count:,} raw positions, {sub_bad} mismatches")
        bad += sub_bad
    return bad


@njit(parallel=True, cache=True)
def _positions(idx, m, o, n, full, binom, off):
    movers = np.empty(len(idx), dtype=np.int64)
    opps = np.empty(len(idx), dtype=np.int64)
    for k in prange(len(idx)):
        movers[k], opps[k] = _position(idx[k], m, o, n, full, binom, off)
    return movers, opps


def main(argv=None):
    from morris.variants import get_variant

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="standard-4")
    ap.add_argument("--flying", action="store_true")
    ap.add_argument("--pieces", type=int, default=4)
    args = ap.parse_args(argv)
    variant = get_variant(args.variant, flying=args.flying)
    val, dtw, dv, info = solve(variant.board, args.pieces, args.flying)
    print(f"longest win {int(dtw[val == 1].max())} plies; draw values {sorted(set(dv[val == 0].tolist()))}")
    bad = compare(args.db, variant, val, dtw, dv, info)
    print(f"{bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
