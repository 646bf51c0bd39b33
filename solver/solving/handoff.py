"""The planes a job has just written, kept in memory for the next job that reads them.

A solve that runs its jobs one after another in one process (the default executor) runs the
placement phase in chains: the next job is most often the parent layer's subspace whose quiet
placements lead into the one just solved, and that child is its largest input. Reading it
back means decompressing the values file just written (and, for a complete job, its dtw and
draw-value files) and building the plane the sweep reads, where the job that wrote them held
that very plane a moment before. A :class:`Handoff` keeps it: the job that computes a plane
offers it (:meth:`Handoff.keep`, once its files are written), the next job takes what it reads
(:meth:`Handoff.take`) and reads the rest from files, and before any job starts everything it
does not read is let go (:meth:`Handoff.keep_only`), so no plane outlives the job after its
writer by more than the time that job takes to start, and a job that reads nothing kept (a
movement pair) runs with the memory it always had.

A kept plane is keyed by the path of the file it stands for (which names the rules and the
subspace) and by its *form*, what the reader would otherwise build from the files:

- ``"values"``: ``(values, dtc)`` as the values file holds them on its used slots (unused
  slots hold the UNUSED code; no sweep reads them: a child's slot is always its canonical,
  used one);
- ``("side", dtw, draws)``: the complete sweep's side plane (placement.Sides): the packed
  byte, the stored draw value and the dtw of every used slot, the lanes not asked for 0.

The handoff never changes what a job computes: the files are the same bytes with it or
without it (tests/test_handoff.py), only the reading is skipped. It is owned by one solve
(schedule.solve) and passed to its jobs; nothing is kept between solves.
"""

from __future__ import annotations

import os


class Handoff:
    """At most one job's planes, keyed by (file path, form); see the module docstring."""

    def __init__(self):
        self._planes = {}
        #: planes taken by a reader (a count, for reports and tests)
        self.taken = 0

    def keep(self, path, form, plane) -> None:
        """Keep ``plane`` (of form ``form``) of the file at ``path``; what was kept before is
        let go (one job's planes at a time)."""
        self._planes = {(os.fspath(path), form): plane}

    def take(self, path, form):
        """The kept plane of ``path`` in ``form``, removed from the handoff; None where none is
        kept."""
        plane = self._planes.pop((os.fspath(path), form), None)
        if plane is not None:
            self.taken += 1
        return plane

    def keep_only(self, paths) -> None:
        """Let go of every plane but those of the files ``paths`` (a job's inputs)."""
        wanted = {os.fspath(p) for p in paths}
        self._planes = {k: v for k, v in self._planes.items() if k[0] in wanted}

    def clear(self) -> None:
        self._planes = {}

    def __len__(self) -> int:
        return len(self._planes)
