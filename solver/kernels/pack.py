"""Preparing value and distance planes for the file, and the statistics its header states (numba)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.codes import DRAW, UNUSED

_NJ = dict(cache=True, nogil=True)


@njit(parallel=True, **_NJ)
def fill(arr, value):
    """Every entry of the 1-d ``arr`` set to ``value``, in chunks on every thread (a fresh
    array's pages are faulted in by both cores: ``np.full`` fills on one)."""
    n = arr.shape[0]
    nchunk = 256
    for c in prange(nchunk):
        arr[n * c // nchunk: n * (c + 1) // nchunk] = value


def full(n: int, value: int, dtype) -> np.ndarray:
    """``np.full(n, value, dtype)``, filled on every thread (:func:`fill`)."""
    arr = np.empty(n, dtype=dtype)
    fill(arr, arr.dtype.type(value))
    return arr


@njit(parallel=True, **_NJ)
def widen(plane, out):
    """``out[i] = plane[i]`` (a uint8 plane into the low byte of a uint32 one, the rest 0), in
    chunks on every thread: the first lane of a child's side plane (solving.placement.sides)."""
    n = plane.shape[0]
    nchunk = 256
    for c in prange(nchunk):
        for i in range(n * c // nchunk, n * (c + 1) // nchunk):
            out[i] = plane[i]


@njit(parallel=True, **_NJ)
def split_lanes(side, low, mid, high):
    """A uint32 side plane's lanes (the sweep's results: byte | draw value << 8 | dtw << 16)
    into their own planes: ``low`` (uint8), ``mid`` (uint8) and ``high`` (uint16), each of
    which may be empty (not asked), in chunks on every thread."""
    n = side.shape[0]
    nchunk = 256
    with_mid = mid.shape[0] > 0
    with_high = high.shape[0] > 0
    for c in prange(nchunk):
        for i in range(n * c // nchunk, n * (c + 1) // nchunk):
            x = side[i]
            low[i] = x & 255
            if with_mid:
                mid[i] = (x >> 8) & 255
            if with_high:
                high[i] = x >> 16


@njit(parallel=True, **_NJ)
def join_lanes(values, dtc, mid, high, side):
    """``split_lanes`` undone: ``side[i] = values[i] | dtc[i] << 2 | mid[i] << 8 | high[i] <<
    16`` (uint32; ``mid``, uint8, and ``high``, uint16, may be empty: that lane 0), in chunks
    on every thread: a subspace's results as the side plane its parent's sweep reads."""
    n = side.shape[0]
    nchunk = 256
    with_mid = mid.shape[0] > 0
    with_high = high.shape[0] > 0
    for c in prange(nchunk):
        for i in range(n * c // nchunk, n * (c + 1) // nchunk):
            x = np.uint32(values[i]) | (np.uint32(dtc[i]) << 2)
            if with_mid:
                x |= np.uint32(mid[i]) << 8
            if with_high:
                x |= np.uint32(high[i]) << 16
            side[i] = x


@njit(parallel=True, **_NJ)
def byte_histogram(plane, nchunk, out):
    """``out[c, l, b]``: how many slots of chunk c of the uint8 ``plane`` hold byte b, counted
    in 4 lanes l by slot (runs of one byte then add to 4 counters, not one: no store waits on
    the last), the chunks on every thread; the caller sums over c and l."""
    n = plane.shape[0]
    for c in prange(nchunk):
        lo = n * c // nchunk
        hi = n * (c + 1) // nchunk
        for i in range(lo, hi):
            out[c, i & 3, plane[i]] += 1


def byte_counts(plane: np.ndarray) -> np.ndarray:
    """How many slots of the uint8 ``plane`` hold each byte 0..255 (256 int64 counts), on every
    thread (:func:`byte_histogram`; ``np.bincount`` would make an int64 copy of the plane
    first, and count on one core: ``core.counting.byte_counts``, the verifier's, 10x slower on
    a large plane)."""
    plane = np.asarray(plane)  # (a lane of a side plane, strided, is counted in place)
    if plane.ndim != 1 or plane.dtype != np.uint8:
        raise TypeError(f"byte_counts counts a 1-d uint8 plane, not a {plane.ndim}-d {plane.dtype} one")
    out = np.zeros((64, 4, 256), dtype=np.int64)
    byte_histogram(plane, 64, out)
    return out.sum(axis=(0, 1))


def bytes_present(plane: np.ndarray) -> np.ndarray:
    """Which of the 256 byte values occur in the uint8 ``plane`` (bool[256]), on every thread."""
    return byte_counts(plane) > 0


@njit(parallel=True, **_NJ)
def fill_and_pack(values, dtc, block, packed, dtc_out, implied):
    """Pack values 4 to a byte and copy distances, block by block. An unused slot (value 3)
    takes the value and distance of the used slot before it in its block (draw, 0 at a block's
    start), so that it compresses away; nothing ever reads it. ``implied[b]``: 1 when every
    distance of block b is the one its value implies (1 for a win or a loss, 0 for a draw),
    so that the writer need not store them (codec ``ones``)."""
    n = values.shape[0]
    nblocks = (n + block - 1) // block
    for b in prange(nblocks):
        lo = b * block
        hi = min(n, lo + block)
        last_v = 0
        last_d = 0
        same = True
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
                    same &= d == (1 if v != DRAW else 0)
            packed[i >> 2] = byte
        implied[b] = same


@njit(parallel=True, **_NJ)
def unpack(packed, n, out):
    """``out[:n]``: the 2-bit codes of ``packed``, four a byte, lowest bits first."""
    for i in prange(n):
        out[i] = (packed[i >> 2] >> (2 * (i & 3))) & 3


#: the four codes of each packed byte as four bytes of a little-endian uint32
UNPACK4 = np.array([sum(((b >> (2 * k)) & 3) << (8 * k) for k in range(4)) for b in range(256)],
                   dtype=np.uint32)


@njit(parallel=True, **_NJ)
def unpack4(packed, out4, table):
    """``unpack`` four codes at a time: ``out4`` the first whole words of the output viewed as
    little-endian uint32, ``table``: :data:`UNPACK4` (one load and one store a packed byte;
    standard 8-9's plane, 533 M slots, 0.14-0.17 s -> 0.03-0.06 s)."""
    for i in prange(out4.shape[0]):
        out4[i] = table[packed[i]]


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


@njit(parallel=True, **_NJ)
def pack2(codes, packed):
    """Pack 2-bit codes 4 to a byte (a plane with no unused slots to fill, e.g. the curse plane)."""
    n = codes.shape[0]
    for k in prange(packed.shape[0]):
        byte = 0
        for j in range(4):
            i = 4 * k + j
            if i < n:
                byte |= np.int64(codes[i] & 3) << (2 * j)
        packed[k] = byte


@njit(parallel=True, **_NJ)
def curse_plane(values, unlimited, nchunk, out, counts):
    """``out``: the unlimited value where the value under the limit is a draw (1 cursed win,
    2 blessed loss), else 0. ``counts`` rows per chunk: cursed wins, blessed losses, and
    positions whose value under the limit is a win or loss the unlimited value contradicts
    (a limit only turns wins and losses into draws: any such position is an error)."""
    n = values.shape[0]
    for c in prange(nchunk):
        lo = n * c // nchunk
        hi = n * (c + 1) // nchunk
        cw = bl = bad = 0
        for i in range(lo, hi):
            v = values[i]
            u = unlimited[i]
            x = 0
            if v == UNUSED:
                pass  # (a file's unused slots hold a neighbour's value)
            elif v == 0:
                if u == 1:
                    x = 1
                    cw += 1
                elif u == 2:
                    x = 2
                    bl += 1
                elif u != 0:
                    bad += 1
            elif v != u:
                bad += 1
            out[i] = x
        counts[c, 0] = cw
        counts[c, 1] = bl
        counts[c, 2] = bad


@njit(parallel=True, **_NJ)
def select_count(values, keep, chunk, counts):
    """``counts[c]``: the slots of chunk c (``chunk`` slots each) that a selection keeps
    (``keep``: a mask over the value codes, bit v set where slots of value v are kept)."""
    n = values.shape[0]
    for c in prange(counts.shape[0]):
        k = 0
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            k += (keep >> values[i]) & 1
        counts[c] = k


@njit(parallel=True, **_NJ)
def expand_selected(values, keep, halved, kept, chunk, starts, out):
    """A selected section's entries (``kept``, in slot order) put back in their slots (0 in
    the others), chunk by chunk from ``starts[c]`` (the entries before chunk c); ``halved``:
    an entry x of a win is 2x + 1, of a loss 2x (value codes 0 draw, 1 win, 2 loss). Without
    a branch on the slot's value (which no predictor guesses): every slot reads the next entry
    (the last, past the end) and keeps it times whether its value is kept (2.4x faster on
    standard 7-8+1+1's dtw and draw values)."""
    n = values.shape[0]
    last = kept.shape[0] - 1
    for c in prange(starts.shape[0]):
        lo, hi = c * chunk, min(n, (c + 1) * chunk)
        if last < 0:  # (nothing kept: no entry to read)
            out[lo:hi] = 0
            continue
        j = starts[c]
        for i in range(lo, hi):
            v = values[i]
            b = (keep >> v) & 1
            x = np.int64(kept[min(j, last)])
            j += b
            out[i] = (2 * x + (v == 1) if halved else x) * b


@njit(parallel=True, **_NJ)
def select_scan(values, plane, used, keep, chunk, counts, odd_out, maxes):
    """Per chunk of a selected section about to be written: how many slots it keeps (``keep``:
    a mask over the value codes), how many kept *used* slots (every one where ``used`` is
    empty) break the parity rule (a win's entry odd, a loss's even), and the largest entry."""
    n = values.shape[0]
    every = used.shape[0] == 0
    for c in prange(counts.shape[0]):
        k = 0
        bad = 0
        mx = 0
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            v = values[i]
            if (keep >> v) & 1:
                k += 1
                x = np.int64(plane[i])
                if x > mx:
                    mx = x
                if (every or used[i]) and (x & 1) != (v == 1):
                    bad += 1
        counts[c] = k
        odd_out[c] = bad
        maxes[c] = mx


@njit(parallel=True, **_NJ)
def select_fill(values, plane, keep, shift, chunk, starts, out):
    """The kept slots' entries (``plane >> shift``) in slot order, chunk c from ``starts[c]``."""
    n = values.shape[0]
    for c in prange(starts.shape[0]):
        j = starts[c]
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            if (keep >> values[i]) & 1:
                out[j] = plane[i] >> shift
                j += 1


@njit(parallel=True, **_NJ)
def longest(values, dtw, code, nchunk, out):
    """Per chunk c: ``out[c] = (largest dtw of a slot whose value is code, that slot)``, -1 and
    -1 where the chunk has none (the caller takes the best chunk)."""
    n = values.shape[0]
    for c in prange(nchunk):
        best = -1
        slot = -1
        for i in range(n * c // nchunk, n * (c + 1) // nchunk):
            if values[i] == code and np.int64(dtw[i]) > best:
                best = np.int64(dtw[i])
                slot = i
        out[c, 0] = best
        out[c, 1] = slot
