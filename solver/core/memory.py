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
"""

from __future__ import annotations

import ctypes
import sys

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
