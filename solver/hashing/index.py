"""Subspaces and the symmetry-reduced perfect hash.

Subspaces
---------
Positions are stored from the point of view of the side to move (colours normalised away). A
subspace is named by the pieces on the board and in hand:

- movement phase ``m-o``: m pieces of the side to move, o of the opponent, nothing in hand
  (``3-3`` ... ``9-9`` for the standard game);
- placement phase ``m-o+hm+ho``: the same, then the pieces in hand of the side to move and of
  the opponent (``5-4+4+4``: 5 and 4 on the board, 4 and 4 in hand).

The perfect hash
----------------
Within a subspace a position (M, O) -- mover mask M with m points, opponent mask O with o points --
gets the slot

    slot = orbit(O) * C(n - o, m) + rank

- ``orbit(O)`` numbers the orbits of o-point masks under the board's symmetry group in
  increasing order of their representative ``rep(O)``, the least image of O;
- ``rank`` is the colex rank of g(M) among the n - o points left free by ``rep(O)``, where g is
  a symmetry with g(O) = rep(O); when ``rep(O)`` is fixed by other symmetries h, the least rank
  of h(g(M)) over them is taken.

Every image of a position gets the same slot (any two choices of g differ by a stabilizer
element of rep(O), over which the least rank is taken), and positions in different orbits get
different slots (the slot gives back rep(O) and the least-ranked M, which is the canonical form
of symmetry.py). Slots whose rank is not the least over the stabilizer are *unused*; they exist
only where rep(O) is symmetric. The number of positions (orbits) of a subspace is counted
independently by Burnside's lemma (:func:`count_positions`).
"""

from __future__ import annotations

import bisect
from functools import cached_property, lru_cache
from math import comb

import numpy as np

from ..core.errors import CorruptDatabaseError, IllegalPositionError
from .subspaces import Subspace
from ..kernels.tables import build_orbits, build_tables

# ------------------------------------------------------------------------ counting (Burnside)
def _cycle_types(board):
    types = []
    for perm in board.symmetries.perms:
        seen = [False] * board.n
        cycles = []
        for i in range(board.n):
            if seen[i]:
                continue
            length, j = 0, i
            while not seen[j]:
                seen[j] = True
                j = perm[j]
                length += 1
            cycles.append(length)
        types.append(cycles)
    return types


def _fixed(cycles, m, o):
    """Pairs of disjoint masks (M, O), |M| = m, |O| = o, each a union of the given cycles."""
    poly = {(0, 0): 1}
    for length in cycles:
        new = {}
        for (a, b), c in poly.items():
            for da, db in ((0, 0), (length, 0), (0, length)):
                key = (a + da, b + db)
                if key[0] <= m and key[1] <= o:
                    new[key] = new.get(key, 0) + c
        poly = new
    return poly.get((m, o), 0)


@lru_cache(maxsize=4096)
def count_positions(board, m: int, o: int) -> int:
    """Distinct positions (M, O) up to symmetry, by Burnside's lemma (remembered: a plan asks
    for the same counts many times)."""
    types = _cycle_types(board)
    total = sum(_fixed(c, m, o) for c in types)
    assert total % len(types) == 0
    return total // len(types)


def count_anchor_orbits(board, k: int) -> int:
    return count_positions(board, 0, k)


def slot_count(board, sub: Subspace) -> int:
    return count_anchor_orbits(board, sub.o) * comb(board.n - sub.o, sub.m)


# ------------------------------------------------------------------------ the hash
@lru_cache(maxsize=None)
def board_tables(board):
    """The numba kernels' lookup tables of a board (kernels/tables.py: adjacency, mills, the
    symmetries as byte maps, binomials), built once per board (boards compare by name)."""
    return build_tables(board)


class Hasher:
    """The perfect hash of one board: orbit tables built on demand, batch kernels, and a
    pure-Python reference (:meth:`index_py`) that the kernels must match."""

    def __init__(self, board, group=None):
        """``group``: the board's symmetry group, when the caller has it already (a database
        file records the group its hash used); computed from the board otherwise."""
        self.board = board
        self._group = group
        self._orbits = {}
        self._subsets = {}

    @property
    def group(self):
        if self._group is None:
            self._group = self.board.symmetries
        return self._group

    @cached_property
    def tables(self):
        return board_tables(self.board)

    def orbits(self, sizes):
        """Orbit tables covering the anchor sizes ``sizes`` (built once per set of sizes)."""
        key = tuple(sorted(set(int(s) for s in sizes)))
        for have, ob in self._orbits.items():
            if set(key) <= set(have):
                return ob

        ob = build_orbits(self.tables, key)
        self._orbits[key] = ob
        return ob

    def colex_subsets(self, k: int, length: int) -> np.ndarray:
        """The k-subsets of range(length) as masks (int32), in colex order: entry r is the
        subset of rank r (kernels/hashing.unindex_from reads a slot's mover there; built once
        per (k, length))."""
        key = (int(k), int(length))
        if key not in self._subsets:
            from ..kernels.hashing import colex_subsets  # (lazy: imports numba)

            out = np.empty(comb(length, k), dtype=np.int32)
            colex_subsets(k, out)
            self._subsets[key] = out
        return self._subsets[key]

    def anchor_reps(self, k: int) -> np.ndarray:
        ob = self.orbits([k])
        return ob.reps[ob.reps_off[k] : ob.reps_off[k + 1]]

    def slots(self, sub: Subspace) -> int:
        return len(self.anchor_reps(sub.o)) * comb(self.board.n - sub.o, sub.m)

    # -- batch kernels
    def index_batch(self, movers, opps) -> np.ndarray:
        from ..kernels.hashing import index_batch  # (lazy: imports numba)

        movers = np.ascontiguousarray(movers, dtype=np.int64)
        opps = np.ascontiguousarray(opps, dtype=np.int64)
        ob = self.orbits(np.unique(popcounts(opps)).tolist() or [0])
        out = np.empty(len(movers), dtype=np.int64)
        index_batch(self.tables, ob, movers, opps, out)
        return out

    def unindex_batch(self, sub: Subspace, idx):
        from ..kernels.hashing import unindex_batch  # (lazy: imports numba)

        idx = np.ascontiguousarray(idx, dtype=np.int64)
        ob = self.orbits([sub.o])
        movers = np.empty(len(idx), dtype=np.int64)
        opps = np.empty(len(idx), dtype=np.int64)
        used = np.empty(len(idx), dtype=np.bool_)
        unindex_batch(self.tables, ob, sub.m, sub.o, idx, movers, opps, used)
        return movers, opps, used

    def used_mask(self, sub: Subspace) -> np.ndarray:
        """Which slots of ``sub`` hold a position (the unused ones lie only in the blocks of
        anchors with a nontrivial stabilizer, so only those are unindexed)."""
        ob = self.orbits([sub.o])
        at = slice(ob.reps_off[sub.o], ob.reps_off[sub.o + 1])
        block = comb(self.board.n - sub.o, sub.m)
        used = np.ones(self.slots(sub), dtype=np.bool_)
        for orbit in np.flatnonzero(ob.stab[at] != 1):
            idx = np.arange(orbit * block, (orbit + 1) * block, dtype=np.int64)
            used[idx] = self.unindex_batch(sub, idx)[2]
        return used

    # -- pure Python reference
    @cached_property
    def _py(self):
        """Per-symmetry byte image tables (padded to 3 bytes for boards of up to 24 points),
        and rank tables whose rows are built on first use (so that a new process answers its
        first probe quickly)."""
        g = self.group
        nb = max(3, g.nbytes)
        zero = [0] * 256
        sym = [tuple(g.byte_images[s][j] if j < g.nbytes else zero for j in range(nb))
               for s in range(len(g))]
        n = self.board.n
        colex = [[None] * (n + 9) for _ in range(nb)]
        blocks = [[comb(n - o, m) for m in range(n + 1)] for o in range(n + 1)]
        return sym, _POPC, _LazyRows(_pext_row), colex, nb, blocks

    def index_py(self, mover: int, opp: int, reps=None, orbit_of=None) -> int:
        """Slot of (mover, opp) in its subspace, computed in plain Python. ``reps``: the sorted
        anchor representatives of its size (taken from the orbit tables when not given), or
        ``orbit_of(rep)``: a function giving a representative's position (-1 if absent)."""
        sym, popc, pext, colex, nb, blocks = self._py
        if nb != 3:
            return self._index_py_wide(mover, opp, reps, orbit_of)
        b0, b1, b2 = opp & 255, (opp >> 8) & 255, opp >> 16
        images = [t0[b0] | t1[b1] | t2[b2] for t0, t1, t2 in sym]
        rep = min(images)
        o = opp.bit_count()
        orbit = self._orbit(rep, o, reps, orbit_of)
        free = self.board.full & ~rep
        f0, f1, f2 = free & 255, (free >> 8) & 255, free >> 16
        p0, p1, p2 = pext[f0], pext[f1], pext[f2]
        s1 = popc[f0]
        s2 = s1 + popc[f1]
        m0, m1, m2 = mover & 255, (mover >> 8) & 255, mover >> 16
        best = -1
        for s, img in enumerate(images):
            if img != rep:
                continue
            t0, t1, t2 = sym[s]
            gm = t0[m0] | t1[m1] | t2[m2]
            c = p0[gm & 255] | (p1[(gm >> 8) & 255] << s1) | (p2[gm >> 16] << s2)
            c0, c1, c2 = c & 255, (c >> 8) & 255, c >> 16
            k1 = popc[c0]
            k2 = k1 + popc[c1]
            r = (_colex(colex, 0, 0)[c0] + _colex(colex, 1, k1)[c1] + _colex(colex, 2, k2)[c2])
            if best < 0 or r < best:
                best = r
        return orbit * blocks[o][mover.bit_count()] + best

    def _orbit(self, rep, o, reps, orbit_of):
        if orbit_of is not None:
            orbit = orbit_of(rep)
        else:
            if reps is None:
                reps = self.anchor_reps(o)
            orbit = bisect.bisect_left(reps, rep)
            if orbit >= len(reps) or reps[orbit] != rep:
                orbit = -1
        if orbit < 0 and orbit_of is not None:  # the table came from a file: it is damaged
            raise CorruptDatabaseError("its anchor table has no entry for the position's anchor")
        if orbit < 0:
            raise IllegalPositionError("anchor representative missing from the orbit table")
        return orbit

    def _index_py_wide(self, mover, opp, reps, orbit_of):
        """index_py for boards of more than 24 points: the same steps, byte by byte."""
        sym, popc, pext, colex, nb, blocks = self._py
        o_bytes = [(opp >> (8 * j)) & 255 for j in range(nb)]
        images = [sum(t[j][o_bytes[j]] for j in range(nb)) for t in sym]
        rep = min(images)
        o = opp.bit_count()
        orbit = self._orbit(rep, o, reps, orbit_of)
        free = self.board.full & ~rep
        f_bytes = [(free >> (8 * j)) & 255 for j in range(nb)]
        m_bytes = [(mover >> (8 * j)) & 255 for j in range(nb)]
        best = -1
        for s, img in enumerate(images):
            if img != rep:
                continue
            t = sym[s]
            gm = 0
            for j in range(nb):
                gm |= t[j][m_bytes[j]]
            c, off = 0, 0
            for j in range(nb):
                c |= pext[f_bytes[j]][(gm >> (8 * j)) & 255] << off
                off += popc[f_bytes[j]]
            r, below = 0, 0
            for j in range(nb):
                v = (c >> (8 * j)) & 255
                r += _colex(colex, j, below)[v]
                below += popc[v]
            if best < 0 or r < best:
                best = r
        return orbit * blocks[o][mover.bit_count()] + best

    def unindex_py(self, sub: Subspace, i: int, reps=None):
        """(mover, opp, used) of a slot, in plain Python."""
        if reps is None:
            reps = self.anchor_reps(sub.o)
        block = comb(self.board.n - sub.o, sub.m)
        orbit, r = divmod(i, block)
        rep = int(reps[orbit])
        free = self.board.full & ~rep
        mover = _unrank_in(r, sub.m, free)
        group = self.group
        used = all(
            _rank_in(group.apply(s, mover), free) >= r
            for s in range(len(group))
            if group.apply(s, rep) == rep
        )
        return mover, rep, used


class _LazyRows(dict):
    """``rows[key]`` built by ``make(key)`` the first time it is asked for."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def __missing__(self, key):
        row = self[key] = self._make(key)
        return row


def _pext_row(f: int) -> list:
    """Bits of each byte value selected by ``f``, packed to the low end (built by doubling:
    the values with bit b set follow those without)."""
    row = [0]
    k = 0
    for b in range(8):
        if f >> b & 1:
            row += [x | (1 << k) for x in row]
            k += 1
        else:
            row += row
    return row


_PASCAL = [[comb(a, b) for b in range(34)] for a in range(34)]
#: set bits of each byte (the one popcount table of the Python side)
_POPC = tuple(bin(v).count("1") for v in range(256))


def _colex(rows, j, below) -> list:
    """``rows[j][below]``, built on first use."""
    row = rows[j][below]
    if row is None:
        row = rows[j][below] = _colex_row(j, below)
    return row


def _colex_row(j, below) -> list:
    """Colex-rank contribution of byte ``j`` with ``below`` set bits under it: each set bit
    b, the t-th of the byte, adds C(8j + b, below + t + 1) (built by doubling over b)."""
    row = [0]
    for b in range(8):
        pas = _PASCAL[8 * j + b]
        row += [r + pas[below + _POPC[v] + 1] for v, r in enumerate(row)]
    return row


_POPC8 = np.array(_POPC, dtype=np.int64)


def popcounts(masks: np.ndarray) -> np.ndarray:
    """Set bits of each mask of an int64 array (vectorised)."""
    masks = np.asarray(masks, dtype=np.int64)
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(masks).astype(np.int64)
    out = np.zeros(masks.shape, dtype=np.int64)
    for j in range(8):
        out += _POPC8[(masks >> (8 * j)) & 255]
    return out


def _rank_in(mask: int, free: int) -> int:
    """Colex rank of ``mask`` (a subset of ``free``) among the subsets of ``free`` of its size."""
    r, k, pos = 0, 0, 0
    f = free
    while f:
        low = f & -f
        if mask & low:
            k += 1
            r += comb(pos, k)
        pos += 1
        f ^= low
    return r


def _unrank_in(r: int, k: int, free: int) -> int:
    points = []
    f = free
    while f:
        low = f & -f
        points.append(low)
        f ^= low
    mask = 0
    p = len(points) - 1
    for i in range(k, 0, -1):
        while comb(p, i) > r:
            p -= 1
        mask |= points[p]
        r -= comb(p, i)
        p -= 1
    return mask


@lru_cache(maxsize=8)
def shared_hasher(board) -> "Hasher":
    """One Hasher per board for estimates (slot counts of many subspaces: its orbit tables are
    built once, not once per question)."""
    return Hasher(board)
