"""How the kernels' chunk functions are compiled and run.

A parallel kernel is a plain Python function that allocates the scratch arrays, and a chunk
function that does the work of one chunk (a block of slots, a task, a range of mover masks):
``@njit(**CHUNK)``. ``run_chunks`` calls it on ``numba.get_num_threads()`` threads (the chunk
functions release the GIL), each thread taking the next chunk as it comes free. A ``prange``
loop around the chunk call did the same, but numba compiled the chunk's code once more for each
kernel that called it, and its parfor passes over a long inlined body took most of the kernel's
compile time; now a chunk compiles once. Two options keep the chunk as fast as the ``prange``
body it was:

- ``_nrt=False``: no reference counting. A plain function that passes the tables (``T``,
  ``Ob``: tuples of arrays) to its inlined helpers takes and drops a reference on each array per
  call, with atomic instructions, in the innermost loops (the placement sweep ran 4 times
  slower); a ``prange`` body has none, and neither has a function compiled without NRT. Such a
  function cannot allocate: its caller passes every array in.
- ``error_model="numpy"``: what numba compiles a ``prange`` body with (no check for a division
  by zero).

A chunk function is called from Python only (tests/test_architecture.py reads the source for
it): its argument types are then Python's (ints are int64), the same at every call, and it
compiles once per set of array dtypes (tests/chunks.py, asserted by the Lasker and draw-value
tests after they run the kernels).
"""

from __future__ import annotations

import numba

from ..core.threads import run_tasks

CHUNK = dict(cache=True, nogil=True, error_model="numpy", _nrt=False)


def run_chunks(nchunk: int, run) -> None:
    """Call ``run(c)`` for every chunk ``c`` in ``range(nchunk)``, on the calling thread and up
    to ``numba.get_num_threads() - 1`` more, each taking the next chunk as it comes free
    (``core.threads.run_tasks``: no wait on a thread's start). ``run`` must write only what
    chunk ``c`` owns. The first exception (or an interrupt) stops the threads at their next
    chunk and is raised here."""
    run_tasks(nchunk, run, numba.get_num_threads())


def run_spans(nchunk: int, lo: int, hi: int, run) -> None:
    """``run_chunks`` over [lo, hi) cut into ``nchunk`` even spans: ``run(c, a, b)`` for chunk c,
    whose span is [a, b)."""
    span = hi - lo
    run_chunks(nchunk, lambda c: run(c, lo + span * c // nchunk, lo + span * (c + 1) // nchunk))
