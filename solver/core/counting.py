"""Counts over whole planes (one entry per hash slot), a chunk at a time.

``np.bincount`` casts its input to machine integers: on a plane of 600 M byte slots that is a
4.8 GB temporary, more than the job that wrote the plane holds. These helpers count a chunk at a
time, so what they add is a few chunks, whatever the plane's size.
"""

import numpy as np

CHUNK = 1 << 22


def byte_counts(plane, chunk: int = CHUNK) -> np.ndarray:
    """How many slots hold each byte 0..255 (``plane``: uint8), as 256 int64 counts."""
    plane = np.asarray(plane)
    if plane.dtype != np.uint8:
        raise TypeError(f"byte_counts counts a uint8 plane, not {plane.dtype}")
    counts = np.zeros(256, dtype=np.int64)
    for i in range(0, len(plane), chunk):
        counts += np.bincount(plane[i: i + chunk], minlength=256)
    return counts


def histograms(dist, vals, used, codes, chunk: int = CHUNK) -> list[np.ndarray]:
    """For each value code in ``codes``, how many used slots of that value have each distance:
    arrays of length ``max(dist) + 1`` (``dist``: a distance plane, ``vals``: the value codes,
    ``used``: the slots that hold a position)."""
    size = int(np.asarray(dist).max(initial=0)) + 1
    out = [np.zeros(size, dtype=np.int64) for _ in codes]
    for i in range(0, len(dist), chunk):
        d, v, u = dist[i: i + chunk], vals[i: i + chunk], used[i: i + chunk]
        for h, code in zip(out, codes):
            h += np.bincount(d[u & (v == code)], minlength=size)
    return out
