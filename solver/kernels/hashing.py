"""Perfect-hash kernels: ranking, symmetry images, index and unindex (numba).

Scheme (see index.py for the definition and the proof that it is a perfect hash): a position of
subspace (m, o) -- m pieces of the side to move, o of the opponent -- has

    index = orbit(O) * C(n - o, m) + rank(g(M) among the points left free by rep(O))

where ``rep(O)`` is the least image of the opponent's mask O, ``g`` a symmetry taking O there, and
``rank`` the colex rank; when ``rep(O)`` has a nontrivial stabilizer the least rank over it is
taken. Slots whose rank is not the least over that stabilizer are unused.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import popcount
from .jit import CHUNK, run_spans

_NJ = dict(cache=True, nogil=True)


@njit(inline="always", **_NJ)
def sym_image(T, s, mask):
    out = 0
    for j in range(T.nb):
        out |= np.int64(T.sym_bytes[s, j, (mask >> (8 * j)) & 255])
    return out


@njit(inline="always", **_NJ)
def least_image(T, stab, mask):
    """Whether ``mask`` is the least (as an integer) of its images under the symmetries of the
    stabilizer ``stab`` (bit h: symmetry h; 1: the identity alone): of the positions (M, O)
    that a symmetry fixing M maps onto each other, the sweeps take only the one whose O is
    least."""
    for h in range(1, T.S):
        if stab >> h & 1 and sym_image(T, h, mask) < mask:
            return False
    return True


@njit(inline="always", **_NJ)
def colex_rank(T, mask):
    """Colex rank of ``mask`` among the masks of as many bits: a table entry per byte, indexed
    by the byte and the count of bits below it (a popcount, so that no byte's load waits on
    the byte before)."""
    r = np.int64(T.colex[0, 0, mask & 255])
    for j in range(1, T.nb):
        c = popcount(mask & ((np.int64(1) << (8 * j)) - 1))
        r += np.int64(T.colex[j, c, (mask >> (8 * j)) & 255])
    return r


@njit(inline="always", **_NJ)
def compress(T, mask, free):
    out = np.int64(T.pext8[free & 255, mask & 255])
    for j in range(1, T.nb):
        f = (free >> (8 * j)) & 255
        off = popcount(free & ((np.int64(1) << (8 * j)) - 1))
        out |= np.int64(T.pext8[f, (mask >> (8 * j)) & 255]) << off
    return out


@njit(inline="always", **_NJ)
def free_bit(free, pt):
    """Point ``pt`` (one of ``free``) compressed onto the points of ``free``: the bit of its
    place among them (``compress`` of that one point, without the tables)."""
    return np.int64(1) << popcount(free & ((np.int64(1) << pt) - 1))


@njit(inline="always", **_NJ)
def expand(T, c, free):
    out = 0
    for j in range(T.nb):
        f = (free >> (8 * j)) & 255
        off = popcount(free & ((np.int64(1) << (8 * j)) - 1))
        out |= np.int64(T.pdep8[f, (c >> off) & ((1 << popcount(f)) - 1)]) << (8 * j)
    return out


@njit(inline="always", **_NJ)
def next_subset(x):
    """The next mask of as many bits as ``x`` (> 0) in increasing (colex) order: Gosper's hack."""
    low = x & -x
    rr = x + low
    return (((rr ^ x) >> 2) // low) | rr


@njit(inline="always", **_NJ)
def colex_unrank(T, r, k, length):
    """The k-subset of range(length) with colex rank r, as a mask."""
    mask = 0
    p = length - 1
    for i in range(k, 0, -1):
        while T.binom[p, i] > r:
            p -= 1
        mask |= 1 << p
        r -= T.binom[p, i]
        p -= 1
    return mask


@njit(**_NJ)
def colex_subsets(k, out):
    """``out[r]``: the k-subset of colex rank r, as a mask, for every r (``out`` holds
    C(length, k) of them: those of range(length))."""
    c = (np.int64(1) << k) - 1
    for r in range(out.shape[0]):
        out[r] = c
        if k > 0 and r + 1 < out.shape[0]:
            c = next_subset(c)


@njit(inline="always", **_NJ)
def unindex_from(T, Ob, U, uoff, m, o, i):
    """(mover, opp) of slot i of subspace (m, o), as ``unindex_one`` gives them (used or not),
    the mover's colex unrank read from ``U[uoff:]`` (``colex_subsets`` of m among the n - o
    free points) instead of computed: one load, where ``colex_unrank`` costs about 80 ns on 8-8
    (its loops' branches mispredicted)."""
    block = T.binom[T.n - o, m]
    orbit = i // block
    rep = Ob.reps[Ob.reps_off[o] + orbit]
    return expand(T, np.int64(U[uoff + i - orbit * block]), T.full & ~rep), rep


@njit(inline="always", **_NJ)
def anchor(T, Ob, k, mask):
    """(orbit, s, rep, stab) of an anchor mask with k points."""
    e = np.int64(Ob.canon[Ob.canon_off[k] + colex_rank(T, mask)])
    orbit = e >> 5
    at = Ob.reps_off[k] + orbit
    return orbit, e & 31, Ob.reps[at], np.int64(Ob.stab[at])


@njit(inline="always", **_NJ)
def ranked(T, s, rep, stab, mover):
    """Least rank of the mover's mask (already mapped by s) over the anchor's stabilizer."""
    free = T.full & ~rep
    r = colex_rank(T, compress(T, mover, free))
    if stab != 1:
        for h in range(1, T.S):
            if stab >> h & 1:
                r2 = colex_rank(T, compress(T, sym_image(T, h, mover), free))
                if r2 < r:
                    r = r2
    return r


@njit(inline="always", **_NJ)
def index_one(T, Ob, mover, opp):
    """Slot of the position (mover, opp) in its subspace."""
    m = popcount(mover)
    o = popcount(opp)
    orbit, s, rep, stab = anchor(T, Ob, o, opp)
    r = ranked(T, s, rep, stab, sym_image(T, s, mover))
    return orbit * T.binom[T.n - o, m] + r


@njit(inline="always", **_NJ)
def unindex_one(T, Ob, m, o, i):
    """(mover, opp, used) of slot i of subspace (m, o); ``used`` is False for unused slots."""
    return walk_at(T, m, o, slot_walk(T, Ob, m, o, i))


@njit(inline="always", **_NJ)
def slot_walk(T, Ob, m, o, i):
    """A walk over the consecutive slots of subspace (m, o), at slot i: the state that
    ``walk_at`` reads the slot's position from and ``walk_on`` moves to the next slot (a
    kernel that visits every slot of a range unranks once, then steps: the next mover mask of
    an orbit is the next subset in colex order). The state: (the anchor's row in the orbit
    tables, the mover's rank, the anchor, its stabilizer, the mover's mask among the free
    points)."""
    block = T.binom[T.n - o, m]
    orbit = i // block
    r = i - orbit * block
    at = Ob.reps_off[o] + orbit
    return at, r, Ob.reps[at], np.int64(Ob.stab[at]), colex_unrank(T, r, m, T.n - o)


@njit(inline="always", **_NJ)
def walk_at(T, m, o, w):
    """(mover, opp, used) of the walk's slot, as ``unindex_one`` gives them."""
    _, r, rep, stab, c = w
    free = T.full & ~rep
    mover = expand(T, c, free)
    used = True
    if stab != 1:
        for h in range(1, T.S):
            if stab >> h & 1:
                if colex_rank(T, compress(T, sym_image(T, h, mover), free)) < r:
                    used = False
                    break
    return mover, rep, used


@njit(inline="always", **_NJ)
def walk_on(T, Ob, m, o, w):
    """The walk's state at the next slot (past the subspace's last slot it stays in bounds
    of the tables, to be read no further)."""
    at, r, rep, stab, c = w
    if r + 1 < T.binom[T.n - o, m]:
        return at, r + 1, rep, stab, next_subset(c)
    at = min(at + 1, Ob.reps.shape[0] - 1)
    return at, 0, Ob.reps[at], np.int64(Ob.stab[at]), (np.int64(1) << m) - 1


#: positions per chunk (at most) of ``index_batch`` and ``unindex_batch``
BATCH_CHUNK = 1 << 16


def index_batch(T, Ob, movers, opps, out):
    """``out[i]``: the slot of position (``movers[i]``, ``opps[i]``) in its subspace."""
    n = movers.shape[0]
    run_spans(-(-n // BATCH_CHUNK), 0, n,
              lambda c, a, b: _index_rows(T, Ob, movers, opps, out, a, b))


@njit(**CHUNK)
def _index_rows(T, Ob, movers, opps, out, a, b):
    for i in range(a, b):
        out[i] = index_one(T, Ob, movers[i], opps[i])


def unindex_batch(T, Ob, m, o, idx, movers, opps, used):
    """The positions at slots ``idx`` of subspace (m, o): masks and whether the slot is used."""
    n = idx.shape[0]
    run_spans(-(-n // BATCH_CHUNK), 0, n, lambda c, a, b: _unindex_rows(
        T, Ob, m, o, idx, movers, opps, used, a, b))


@njit(**CHUNK)
def _unindex_rows(T, Ob, m, o, idx, movers, opps, used, a, b):
    for i in range(a, b):
        x, y, u = unindex_one(T, Ob, m, o, idx[i])
        movers[i] = x
        opps[i] = y
        used[i] = u


@njit(**_NJ)
def fill_orbits(T, wanted, canon, canon_off, reps, stab, counts):
    """Walk the k-subsets in increasing order; each mask's least image is met before it."""
    n = T.n
    for k in range(n + 1):
        if not wanted[k]:
            continue
        base = canon_off[k]
        count = 0
        total = T.binom[n, k]
        mask = (1 << k) - 1
        for rank in range(total):
            best = mask
            bs = 0
            for s in range(1, T.S):
                im = sym_image(T, s, mask)
                if im < best:
                    best = im
                    bs = s
            if best == mask:
                st = 0
                for s in range(T.S):
                    if sym_image(T, s, mask) == mask:
                        st |= 1 << s
                reps[base + count] = mask
                stab[base + count] = st
                canon[base + rank] = (count << 5) | 0
                count += 1
            else:
                e = canon[base + colex_rank(T, best)]
                canon[base + rank] = ((e >> 5) << 5) | bs
            if k == 0 or rank == total - 1:
                break
            mask = next_subset(mask)
        counts[k] = count
