"""Finding, opening and caching the files a tablebase reads: the one place that does it.

A :class:`FileCache` looks for a subspace's file of a kind (values, dtw, draw values) in the
ruleset directories of its database directories, in order; opens it through the one gate
(``database.open_checked``: a regular file, a well-formed header, the rules, subspace and kind
asked for); and keeps it open for the next lookup. At most ``max_open`` files stay open (as
python-chess's ``max_fds``): past that, the least recently used one leaves the cache, and it is
closed as soon as no lookup still holds it (nothing is closed under a reader's feet). Whether a
directory holds a file is looked up once per file (files appear only by a solve, not while
serving). Thread-safe.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

from ..core.symmetry import SymmetryGroup
from ..database.folders import file_in, open_checked, ruleset_dirs
from ..format.fileformat import TableFile
from ..hashing.index import Hasher
from ..hashing.subspaces import Subspace

#: files kept open at once by default (each holds a descriptor and a mapping)
MAX_OPEN = 256


class FileCache:
    """The files of the database directories ``paths``, opened once each, at most ``max_open``
    at a time. Keys are (kind, ruleset, m, o, hm, ho)."""

    def __init__(self, paths, max_open: int = MAX_OPEN):
        self.paths = list(paths)
        self.max_open = max(1, int(max_open))
        self._open = OrderedDict()
        self._exists = {}
        self._hashers = {}
        self._lock = threading.Lock()

    def directories(self, variant) -> list[str]:
        """The ruleset directories looked in for ``variant``, in order."""
        return ruleset_dirs(self.paths, variant)

    def has(self, variant, counts: tuple, kind: str = "values") -> bool:
        """Whether some directory holds the file of kind ``kind`` of the subspace ``counts``
        (m, o, hm, ho); looked up once."""
        key = (kind, variant.ruleset_id, *counts)
        known = self._exists.get(key)
        if known is None:
            sub = Subspace(*counts)
            known = self._exists[key] = any(os.path.exists(file_in(d, sub, kind))
                                            for d in self.directories(variant))
        return known

    def get(self, variant, counts: tuple, kind: str = "values") -> TableFile | None:
        """The open file of kind ``kind`` of the subspace ``counts``, or None where no directory
        holds one. A damaged or foreign file raises (``CorruptDatabaseError``,
        ``ForeignDatabaseError``), naming it."""
        key = (kind, variant.ruleset_id, *counts)
        tf = self._open.get(key)
        if tf is not None:
            try:
                self._open.move_to_end(key)
            except KeyError:  # (dropped by another thread just now: it is still ours to read)
                pass
            return tf
        with self._lock:
            tf = self._open.get(key)
            if tf is not None:
                return tf
            sub = Subspace(*counts)
            for d in self.directories(variant):
                path = file_in(d, sub, kind)
                if os.path.exists(path):
                    break
            else:
                return None
            tf = open_checked(path, variant, sub, kind)
            if kind == "values" and variant.board.name not in self._hashers:
                # the file records the symmetry group its hash used: no need to search for it
                perms = tf.header.get("symmetry_perms")
                self._hashers[variant.board.name] = Hasher(variant.board, SymmetryGroup(perms) if perms else None)
            self._open[key] = tf
            while len(self._open) > self.max_open:
                # dropped, not closed: a lookup in another thread may still read it; the file
                # closes when the last reference goes (TableFile.__del__)
                self._open.popitem(last=False)
            return tf

    def hasher(self, board) -> Hasher:
        """The perfect hash of ``board`` (from the first values file's symmetry group)."""
        h = self._hashers.get(board.name)
        if h is None:
            h = self._hashers.setdefault(board.name, Hasher(board))
        return h

    @property
    def open_count(self) -> int:
        return len(self._open)

    def close(self):
        with self._lock:
            for tf in self._open.values():
                tf.close()
            self._open.clear()
