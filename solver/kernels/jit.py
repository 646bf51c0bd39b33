"""The options of the kernels' chunk functions (numba).

A parallel kernel's ``prange`` body is a chunk function of its own, called once per chunk with
the scratch arrays the body allocates: ``@njit(**CHUNK)``. Compiled as part of the parallel
kernel, a long body goes through numba's parfor passes, which take most of the kernel's compile
time; outlined, it compiles as a plain function (the kernel still generates the chunk's code
again when it links it: the gain is large for long bodies, nil for short ones). Two options
keep the outlined body as fast as the inline one:

- ``_nrt=False``: no reference counting. A plain function that passes the tables (``T``,
  ``Ob``: tuples of arrays) to its inlined helpers takes and drops a reference on each array per
  call, with atomic instructions, in the innermost loops (the placement sweep ran 4 times
  slower); a ``prange`` body has none, and neither has a function compiled without NRT. Such a
  function cannot allocate: its caller passes every array in.
- ``error_model="numpy"``: what numba compiles a ``prange`` body with (no check for a division
  by zero).

The kernel passes the loop index as ``np.int64(i)``: numba types it int64 where it types the
kernel and uint64 in the parallel body it builds, and the chunk would compile twice.
"""

CHUNK = dict(cache=True, nogil=True, error_model="numpy", _nrt=False)
