"""Lookup tables for the kernels, built from a board (numpy only; the orbit tables use a kernel).

Everything a kernel knows about the board comes from these arrays, passed in as arguments:
nothing about a variant is fixed at compile time.

``Tables`` fields:

- ``n``, ``nb`` (bytes per mask), ``full``: board size and the mask of all points.
- ``adj[p]``: neighbours of point ``p``; ``mills[i]``: mill masks; ``pmills[p, :pmill_n[p]]``:
  the mills through ``p``.
- ``S``: group order; ``sym_bytes[s, j, v]``: image under symmetry ``s`` of byte ``j`` equal to
  ``v``; ``sym_point[s, p]``: image of point ``p``.
- ``binom[a, b]``: binomial coefficients.
- ``colex[j, c, v]``: contribution to the colex rank of byte ``j`` equal to ``v`` when ``c`` set
  bits lie below it; ``popc8``, ``pext8[f, v]`` (compress ``v`` by ``f``), ``pdep8[f, c]``
  (deposit ``c`` into ``f``).
"""

from __future__ import annotations

from collections import namedtuple
from math import comb

import numpy as np

Tables = namedtuple(
    "Tables",
    "n nb full adj mills pmills pmill_n S sym_bytes sym_point binom colex popc8 pext8 pdep8",
)

#: Orbit tables of the point subsets of each size (for the perfect hash):
#: ``canon[canon_off[k] + colex_rank(mask)] = orbit << 5 | s`` where symmetry ``s`` maps
#: ``mask`` to its orbit's representative ``reps[reps_off[k] + orbit]`` (the least image);
#: ``stab[reps_off[k] + orbit]`` has bit ``s`` set when ``s`` fixes that representative.
Orbits = namedtuple("Orbits", "canon canon_off reps reps_off stab")


def build_tables(board) -> Tables:
    n = board.n
    nb = (n + 7) // 8
    group = board.symmetries
    S = len(group)
    if S > 32:
        raise ValueError(f"board {board.name}: {S} symmetries; at most 32 are supported")
    if comb(n, n // 2) >= 1 << 31:
        raise ValueError(f"board {board.name}: {n} points; the rank tables hold at most 33")
    adj = np.array(board.adjacency, dtype=np.int64)
    mills = np.array(board.mill_masks, dtype=np.int64)
    maxk = max(1, max(len(pm) for pm in board.point_mills))
    pmills = np.zeros((n, maxk), dtype=np.int64)
    pmill_n = np.zeros(n, dtype=np.int64)
    for p, pm in enumerate(board.point_mills):
        pmill_n[p] = len(pm)
        pmills[p, : len(pm)] = pm
    sym_bytes = np.zeros((S, nb, 256), dtype=np.uint32)
    for s in range(S):
        for j in range(nb):
            sym_bytes[s, j, :] = group.byte_images[s][j]
    sym_point = np.array(group.perms, dtype=np.int64)
    binom = np.zeros((34, 34), dtype=np.int64)
    for a in range(34):
        for b in range(34):
            binom[a, b] = comb(a, b)
    popc8 = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)
    colex = np.zeros((nb, n + 1, 256), dtype=np.int32)  # small tables stay in cache
    for j in range(nb):
        for c in range(n + 1):
            for v in range(256):
                r, t = 0, 0
                for b in range(8):
                    if v >> b & 1:
                        r += comb(8 * j + b, c + t + 1)
                        t += 1
                colex[j, c, v] = r
    pext8 = np.zeros((256, 256), dtype=np.uint8)
    pdep8 = np.zeros((256, 256), dtype=np.uint8)
    for f in range(256):
        positions = [b for b in range(8) if f >> b & 1]
        for v in range(256):
            pext8[f, v] = sum(1 << i for i, b in enumerate(positions) if v >> b & 1)
        for c in range(1 << len(positions)):
            pdep8[f, c] = sum(1 << b for i, b in enumerate(positions) if c >> i & 1)
    return Tables(
        n=n, nb=nb, full=(1 << n) - 1, adj=adj, mills=mills, pmills=pmills, pmill_n=pmill_n,
        S=S, sym_bytes=sym_bytes, sym_point=sym_point, binom=binom, colex=colex, popc8=popc8,
        pext8=pext8, pdep8=pdep8,
    )


def build_orbits(T, sizes=None) -> Orbits:
    """Orbit tables (of the board whose tables ``T`` are) for subsets of the given sizes (all
    sizes by default)."""
    from .hashing import fill_orbits  # (lazy: imports numba)

    n = T.n
    sizes = range(n + 1) if sizes is None else sorted(set(sizes))
    canon_off = np.zeros(n + 2, dtype=np.int64)
    reps_off = np.zeros(n + 2, dtype=np.int64)
    wanted = np.zeros(n + 1, dtype=np.bool_)
    for k in sizes:
        wanted[k] = True
    total = 0
    for k in range(n + 1):
        canon_off[k] = total
        if wanted[k]:
            total += comb(n, k)
    canon_off[n + 1] = total
    canon = np.zeros(total, dtype=np.int32)
    # upper bound on orbits of each size: all subsets (trimmed after the fill)
    reps = np.zeros(total, dtype=np.int64)
    stab = np.zeros(total, dtype=np.uint32)
    counts = np.zeros(n + 1, dtype=np.int64)
    fill_orbits(T, wanted, canon, canon_off, reps, stab, counts)
    # compact reps/stab: orbit k occupies the prefix of its canon block
    reps_c, stab_c, off = [], [], 0
    for k in range(n + 1):
        reps_off[k] = off
        if wanted[k]:
            a = canon_off[k]
            reps_c.append(reps[a : a + counts[k]])
            stab_c.append(stab[a : a + counts[k]])
            off += counts[k]
    reps_off[n + 1] = off
    reps = np.concatenate(reps_c) if reps_c else np.zeros(0, np.int64)
    stab = np.concatenate(stab_c) if stab_c else np.zeros(0, np.uint32)
    return Orbits(canon=canon, canon_off=canon_off, reps=reps, reps_off=reps_off, stab=stab)
