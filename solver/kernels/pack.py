"""Preparing value and distance planes for the file (numba)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..codes import UNUSED

_NJ = dict(cache=True, nogil=True)


@njit(parallel=True, **_NJ)
def fill_and_pack(values, dtc, block, packed, dtc_out):
    """Pack values 4 to a byte and copy distances, block by block. An unused slot (value 3)
    takes the value and distance of the used slot before it in its block (draw, 0 at a block's
    start), so that it compresses away; nothing ever reads it."""
    n = values.shape[0]
    nblocks = (n + block - 1) // block
    for b in prange(nblocks):
        lo = b * block
        hi = min(n, lo + block)
        last_v = 0
        last_d = 0
        for i in range(lo, hi, 4):
            byte = 0
            for k in range(4):
                j = i + k
                if j < hi:
                    v = values[j]
                    if v == UNUSED:
                        v = last_v
                        d = last_d
                    else:
                        d = dtc[j]
                        last_v = v
                        last_d = d
                    byte |= np.int64(v) << (2 * k)
                    dtc_out[j] = d
            packed[i >> 2] = byte


@njit(parallel=True, **_NJ)
def unpack(packed, n, out):
    for i in prange(n):
        out[i] = (packed[i >> 2] >> (2 * (i & 3))) & 3


@njit(parallel=True, **_NJ)
def plane_stats(values, dtc, nchunk, out):
    """Per chunk: used slots, wins, losses, longest win, longest loss (rows of ``out``)."""
    n = values.shape[0]
    for c in prange(nchunk):
        lo = n * c // nchunk
        hi = n * (c + 1) // nchunk
        used = wins = losses = mw = ml = 0
        for i in range(lo, hi):
            v = values[i]
            if v == UNUSED:
                continue
            used += 1
            if v == 1:
                wins += 1
                if dtc[i] > mw:
                    mw = dtc[i]
            elif v == 2:
                losses += 1
                if dtc[i] > ml:
                    ml = dtc[i]
        out[c, 0] = used
        out[c, 1] = wins
        out[c, 2] = losses
        out[c, 3] = mw
        out[c, 4] = ml
