"""A naive reference for the place-or-move game (Lasker Morris's turn): every raw position (no
symmetry) of every subspace of a small game, both phases at once, its turns generated here from
the board's points, edges and mills (not from the solver's kernels), values, dtw and dtc straight
from their definitions over the whole move graph (the breadth-first retrograde analysis of
naive_standard.py, whose level loops it shares):

- a turn places a piece from hand (while one is left) or moves one on the board (a slide, or a
  flight for a player with exactly 3 on the board and in hand together, when flying is on); a
  turn that closes a mill removes an opponent piece (one outside mills while there is one);
- a player with fewer than 3 on the board and in hand together has lost; a player with no turn
  has lost;
- dtw: plies to the end of the game; dtc: plies to the next conversion, a turn that changes the
  pieces on the board or in hand (every placement, every removal), counting 1 whatever follows.

It compares every raw position with the files of a database directory (``morris solve --out DB
--variant lasker --pieces 3 --phase all --dtw``):

    python3 tests/naive_lasker.py --db DB --pieces 3 [--no-flying] [--double-mill-removes 2]
        [--board six]

and prints the mismatches per subspace (0 expected); it exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import sys
import time
from math import comb

import numpy as np
from numba import njit

from naive_standard import (BIG, NCHUNK, _compress, _expand, _popcount, _rank, _retrograde,  # (beside it)
                            _retrograde_dtc, _unrank, in_chunks)


@njit(cache=True)
def _index(M, O, hm, ho, n, full, binom, off):
    m = _popcount(M)
    o = _popcount(O)
    return off[m, o, hm, ho] + _rank(M, binom) * binom[n - m, o] + _rank(_compress(O, full & ~M), binom)


@njit(cache=True)
def _position(j, m, o, n, full, binom):
    per = binom[n - m, o]
    M = _unrank(j // per, m, n, binom)
    O = _expand(_unrank(j % per, o, n - m, binom), full & ~M)
    return M, O


@njit(cache=True)
def _closes(M2, q, pmills):
    """How many mills of M2 pass through q."""
    c = 0
    for t in range(pmills.shape[1]):
        mm = pmills[q, t]
        if mm and (M2 & mm) == mm:
            c += 1
    return c


@njit(cache=True)
def _removable(O, n, pmills):
    """The pieces of O outside O's mills, or all of O when every one is in a mill."""
    in_mills = 0
    for p in range(n):
        if O >> p & 1:
            for t in range(pmills.shape[1]):
                mm = pmills[p, t]
                if mm and (O & mm) == mm:
                    in_mills |= mm
    free = O & ~in_mills
    return free if free else O


@njit(cache=True)
def _turns(M, O, hm, ho, n, full, adj, pmills, flying, dm, out):
    """The turns of the side with M (and hm in hand) against O (ho): rows (child mover, child
    opponent, child mover's hand, child opponent's hand, conversion), the child seen by the
    other side (the turn always passes). A turn closing two mills under ``dm`` = 2 removes two
    pieces, the second by the mill rule on the board the first leaves (each set once). Returns
    the number of rows."""
    k = 0
    empty = full & ~(M | O)
    removable = _removable(O, n, pmills)
    sets = np.empty(n * n, dtype=np.int64)
    fly = flying and _popcount(M) + hm == 3
    for p in range(-1, n):
        if p < 0:
            if hm == 0:
                continue
            targets = empty
        else:
            if not M >> p & 1:
                continue
            targets = empty if fly else (adj[p] & empty)
        for q in range(n):
            if not targets >> q & 1:
                continue
            M2 = M | (1 << q)
            hand = hm
            if p >= 0:
                M2 ^= 1 << p
            else:
                hand = hm - 1
            closed = _closes(M2, q, pmills)
            if closed and O != 0:
                two = dm == 2 and closed == 2 and _popcount(O) >= 2
                ns = 0
                for r in range(n):
                    if not removable >> r & 1:
                        continue
                    if not two:
                        sets[ns] = 1 << r
                        ns += 1
                        continue
                    second = _removable(O ^ (1 << r), n, pmills)
                    for r2 in range(n):
                        if second >> r2 & 1:
                            x = (1 << r) | (1 << r2)
                            seen = False
                            for i in range(ns):
                                if sets[i] == x:
                                    seen = True
                            if not seen:
                                sets[ns] = x
                                ns += 1
                for i in range(ns):
                    out[k, 0] = O & ~sets[i]
                    out[k, 1] = M2
                    out[k, 2] = ho
                    out[k, 3] = hand
                    out[k, 4] = 1
                    k += 1
            else:
                out[k, 0] = O
                out[k, 1] = M2
                out[k, 2] = ho
                out[k, 3] = hand
                out[k, 4] = 1 if p < 0 else 0
                k += 1
    return k


def _count(lo, m, o, hm, ho, count, n, full, adj, pmills, flying, dm, binom, deg):
    """``deg[lo + j]``: the number of turns of raw position j of subspace (m, o, hm, ho)."""
    in_chunks(_count_chunk, lo, m, o, hm, ho, count, n, full, adj, pmills, flying, dm, binom, deg)


@njit(cache=True, nogil=True)
def _count_chunk(c, lo, m, o, hm, ho, count, n, full, adj, pmills, flying, dm, binom, deg):
    out = np.empty((1024, 5), dtype=np.int64)
    for j in range(count * c // NCHUNK, count * (c + 1) // NCHUNK):
        M, O = _position(j, m, o, n, full, binom)
        deg[lo + j] = _turns(M, O, hm, ho, n, full, adj, pmills, flying, dm, out)


def _fill(lo, m, o, hm, ho, count, n, full, adj, pmills, flying, dm, binom, off, start, child, conv):
    """``child[e]``: the raw index of the position turn e leads to (-1: the opponent is left
    fewer than 3 on the board and in hand, the game is over); ``conv[e]`` 1 for a conversion."""
    in_chunks(_fill_chunk, lo, m, o, hm, ho, count, n, full, adj, pmills, flying, dm, binom, off,
              start, child, conv)


@njit(cache=True, nogil=True)
def _fill_chunk(c, lo, m, o, hm, ho, count, n, full, adj, pmills, flying, dm, binom, off, start,
                child, conv):
    out = np.empty((1024, 5), dtype=np.int64)
    for j in range(count * c // NCHUNK, count * (c + 1) // NCHUNK):
        M, O = _position(j, m, o, n, full, binom)
        k = _turns(M, O, hm, ho, n, full, adj, pmills, flying, dm, out)
        e = start[lo + j]
        for u in range(k):
            conv[e + u] = out[u, 4]
            if _popcount(out[u, 0]) + out[u, 2] < 3:
                child[e + u] = -1
            else:
                child[e + u] = _index(out[u, 0], out[u, 1], out[u, 2], out[u, 3], n, full, binom, off)


def subspaces(N, n):
    """Every (m, o, hm, ho) of the game with N pieces a side: 3..N on the board and in hand."""
    out = []
    for hm in range(N + 1):
        for ho in range(N + 1):
            for m in range(max(0, 3 - hm), N - hm + 1):
                for o in range(max(0, 3 - ho), N - ho + 1):
                    if m + o <= n:
                        out.append((m, o, hm, ho))
    return out


def solve(board, N, flying, dm=1):
    n = board.n
    full = (1 << n) - 1
    binom = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        for b in range(a + 1):
            binom[a, b] = comb(a, b)
    adj = np.zeros(n, dtype=np.int64)
    for a, b in board.edges:
        adj[a] |= 1 << b
        adj[b] |= 1 << a
    pm = np.zeros((n, 4), dtype=np.int64)
    for p in range(n):
        for k, mm in enumerate(board.point_mills[p]):
            pm[p, k] = mm
    subs = subspaces(N, n)
    off = np.zeros((n + 1, n + 1, N + 1, N + 1), dtype=np.int64)
    total = 0
    for m, o, hm, ho in subs:
        off[m, o, hm, ho] = total
        total += comb(n, m) * comb(n - m, o)
    t0 = time.perf_counter()
    deg = np.zeros(total, dtype=np.int64)
    for m, o, hm, ho in subs:
        _count(off[m, o, hm, ho], m, o, hm, ho, comb(n, m) * comb(n - m, o), n, full, adj, pm,
               flying, dm, binom, deg)
    start = np.zeros(total + 1, dtype=np.int64)
    np.cumsum(deg, out=start[1:])
    del deg
    child = np.empty(start[-1], dtype=np.int32)
    conv = np.empty(start[-1], dtype=np.int8)
    for m, o, hm, ho in subs:
        _fill(off[m, o, hm, ho], m, o, hm, ho, comb(n, m) * comb(n - m, o), n, full, adj, pm,
              flying, dm, binom, off, start, child, conv)
    print(f"move graph: {len(subs)} subspaces, {total:,} raw positions, {start[-1]:,} turns, "
          f"{time.perf_counter() - t0:.0f} s")
    val = np.zeros(total, dtype=np.int8)
    dtw = np.full(total, BIG, dtype=np.int16)
    h = _retrograde(start, child, val, dtw)
    print(f"values and dtw: {h} levels, {time.perf_counter() - t0:.0f} s")
    dtc = np.full(total, BIG, dtype=np.int16)
    h = _retrograde_dtc(start, child, conv, val, dtc)
    print(f"dtc: {h} levels, {time.perf_counter() - t0:.0f} s")
    return val, dtw, dtc, (n, binom, off, full, subs)


def _positions(lo, hi, m, o, n, full, binom):
    """The masks of the raw positions [lo, hi) of subspace (m, o)."""
    movers = np.empty(hi - lo, dtype=np.int64)
    opps = np.empty(hi - lo, dtype=np.int64)
    in_chunks(_positions_chunk, lo, hi, m, o, n, full, binom, movers, opps)
    return movers, opps


@njit(cache=True, nogil=True)
def _positions_chunk(c, lo, hi, m, o, n, full, binom, movers, opps):
    for k in range(((hi - lo) * c) // NCHUNK, ((hi - lo) * (c + 1)) // NCHUNK):
        movers[k], opps[k] = _position(lo + k, m, o, n, full, binom)


def compare(db, variant, val, dtw, dtc, info, with_dtw=True):
    from morris.database.folders import file_path
    from morris.format.fileformat import TableFile
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.solving.prune import read_full_dtw

    n, binom, off, full, subs = info
    h = Hasher(variant.board)
    bad = 0
    for m, o, hm, ho in subs:
        s = Subspace(m, o, hm, ho)
        with TableFile(file_path(db, variant, s)) as tf:
            fv, fc = tf.values_all(), tf.dtc_all()
        fw = None
        if with_dtw:
            fw = read_full_dtw(file_path(db, variant, s, "dtw"), fv)
        count = comb(n, m) * comb(n - m, o)
        sub_bad = 0
        base = off[m, o, hm, ho]
        for lo in range(0, count, 1 << 22):
            hi = min(count, lo + (1 << 22))
            idx = np.arange(base + lo, base + hi)
            movers, opps = _positions(lo, hi, m, o, n, full, binom)
            slots = h.index_batch(movers, opps)
            code = fv[slots]
            want = np.select([val[idx] == 1, val[idx] == -1], [1, 2], 0)
            got_c = np.where(code == 0, -1, fc[slots].astype(np.int64))
            want_c = np.where(want == 0, -1, dtc[idx].astype(np.int64))
            wrong = (code != want) | (got_c != want_c)
            if fw is not None:
                got_w = np.where(code == 0, -1, fw[slots].astype(np.int64))
                want_w = np.where(want == 0, -1, dtw[idx].astype(np.int64))
                wrong |= got_w != want_w
            sub_bad += int(wrong.sum())
        print(f"{s}: {count:,} raw positions, {sub_bad} mismatches")
        bad += sub_bad
    return bad


def main(argv=None):
    from morris.core.variants import BOARDS, Variant, get_variant

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="lasker")
    ap.add_argument("--pieces", type=int, default=3)
    ap.add_argument("--no-flying", action="store_true")
    ap.add_argument("--no-dtw", action="store_true", help="compare values and dtc only")
    ap.add_argument("--board", help="the place-or-move rules on another board (six, morabaraba)")
    ap.add_argument("--double-mill-removes", type=int, default=1, choices=(1, 2))
    args = ap.parse_args(argv)
    variant = get_variant(args.variant, pieces=args.pieces, flying=not args.no_flying,
                          double_mill_removes=args.double_mill_removes)
    if args.board:
        variant = Variant(variant.name, BOARDS[args.board], variant.rules)
    if not variant.rules.place_or_move:
        ap.error(f"{args.variant} has no place-or-move turn")
    val, dtw, dtc, info = solve(variant.board, args.pieces, variant.rules.flying,
                                variant.rules.double_mill_removes)
    won = val == 1
    print(f"longest win {int(dtw[won].max()) if won.any() else 0} plies")
    bad = compare(args.db, variant, val, dtw, dtc, info, with_dtw=not args.no_dtw)
    print(f"{bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
