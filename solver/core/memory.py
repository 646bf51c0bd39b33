"""Freed memory kept in the process for the next array, instead of handed back to the system.

A solve allocates and frees gigabytes per job (children's planes, the job's own planes, the
writer's temporaries). glibc's malloc serves every block above 32 MB with a fresh ``mmap`` and
unmaps it when it is freed, so the next job's arrays fault every page in again: the kernel
zeroes each one, and on a virtual machine that reports freed pages to its host (virtio
balloon's free page reporting) the host faults it in as well. On the 2-core machines of
docs/benchmarks.md a fresh gigabyte took 0.7-8 s to touch against 0.05 s for one the process
had already used, and the system time was 10-13% of a complete solve's CPU.

:func:`keep_freed_memory` tells glibc to serve large blocks from its heap (``M_MMAP_MAX`` 0)
and never to trim it (``M_TRIM_THRESHOLD`` -1; both documented in mallopt(3)): a freed block
is reused by the next allocation that fits, and the process's resident size stays at its
high-water mark, which the holes between its blocks raise (one large job's peak by up to a
quarter): so it is asked for (``morris solve --keep-memory``, ``schedule.solve(keep_memory=
True)``, which call it in the solving process and in each worker), never the default, and a
process that serves lookups never calls it. Elsewhere than glibc it does nothing.

:func:`small_pages` is the other half, and it is the default: numpy asks the kernel for
transparent huge pages on every large array (``madvise(MADV_HUGEPAGE)``), and where the
kernel then compacts memory to find 2 MB of it at each first touch (``defrag`` set to
``madvise``, as on the machines of docs/benchmarks.md) a fresh array costs several times
what small pages cost, and a solve's jobs allocate their arrays afresh: the kernels' random
reads stayed within a few percent without them (``morris verify``, which reads more and
allocates less, was slower: it keeps numpy's default). A solve runs its jobs without
numpy's advice (7% less time on standard 7-5+1+1 with dtw and draw
values, 7% on the movement pair 7-5/5-7 and 4% on 8-8; the same peak), unless the environment
sets numpy's own switch, ``NUMPY_MADVISE_HUGEPAGE``, which is then obeyed.
"""

from __future__ import annotations

import ctypes
import os
import sys
from contextlib import contextmanager

#: mallopt(3)'s parameters
M_TRIM_THRESHOLD = -1
M_MMAP_MAX = -4

_kept = False


def keep_freed_memory() -> bool:
    """Keep this process's freed memory for reuse (see above); True where glibc took it.
    Idempotent."""
    global _kept
    if _kept:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    _kept = bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, -1))
    return _kept


def _madvise_switch():
    """numpy's (get, set) of its huge-page advice, or None where this numpy has none."""
    try:
        from numpy._core import multiarray
    except ImportError:  # numpy 1.x
        from numpy.core import multiarray
    get = getattr(multiarray, "_get_madvise_hugepage", None)
    put = getattr(multiarray, "_set_madvise_hugepage", None)
    return (get, put) if get and put else None


@contextmanager
def _advice(huge: bool):
    """Inside: numpy's new arrays with (``huge``) or without the advice to use transparent
    huge pages; the setting before is restored on leaving. Does nothing where the environment
    sets ``NUMPY_MADVISE_HUGEPAGE`` (the user's choice) or numpy has no such switch."""
    switch = None if "NUMPY_MADVISE_HUGEPAGE" in os.environ else _madvise_switch()
    if switch is None:
        yield
        return
    get, put = switch
    before = bool(get())
    put(huge)
    try:
        yield
    finally:
        put(before)


def small_pages():
    """Inside: numpy's new arrays without the advice to use transparent huge pages (see
    above); the setting before is restored on leaving (:func:`_advice`)."""
    return _advice(False)


def huge_pages():
    """Inside: numpy's new arrays with the advice to use transparent huge pages, as numpy gives
    them by default: for an array written at random all over (a placement sweep's results),
    where a small page's translation is missed at nearly every write (:func:`_advice`)."""
    return _advice(True)
