"""``morris verify``: checksums, then a forward check of every stored value.

The forward check (kernels/verify.py) recomputes each position's value and distance from the
stored values of the positions its moves lead to, with code that shares nothing with the
retrograde propagation, and reports every disagreement.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from .dbfile import SUFFIX, TableFile, check_file, read_planes
from .errors import CorruptDatabaseError
from .index import Hasher
from .progress import Reporter
from .subspaces import Subspace, removal_child
from .variants import BOARDS


@dataclass
class FileReport:
    path: str
    subspace: str
    checksum: str = "ok"  # ok | the problem
    checked: int = 0
    mismatches: int = 0
    first_mismatch: str | None = None
    skipped: str | None = None

    @property
    def ok(self):
        return self.checksum == "ok" and self.mismatches == 0 and self.skipped is None


@dataclass
class VerifyReport:
    files: list = field(default_factory=list)

    @property
    def ok(self):
        return bool(self.files) and all(f.ok for f in self.files)


def find_tables(root: str) -> list[str]:
    out = []
    for dirpath, _, files in os.walk(root):
        out.extend(os.path.join(dirpath, f) for f in files if f.endswith(SUFFIX))
    return sorted(out)


def verify(root: str, reporter: Reporter | None = None, forward: bool = True) -> VerifyReport:
    rep = reporter or Reporter(quiet=True)
    report = VerifyReport()
    paths = find_tables(root)
    headers = {}
    for path in paths:
        fr = FileReport(path=path, subspace=os.path.basename(path)[: -len(SUFFIX)])
        problem = check_file(path)
        if problem:
            fr.checksum = problem
        else:
            with TableFile(path) as tf:
                headers[path] = tf.header
            perms = tf.header.get("symmetry_perms")
            board = BOARDS.get(tf.header.get("board"))
            if board is None:
                fr.checksum = f"{path}: unknown board {tf.header.get('board')!r}"
            elif perms is not None and {tuple(p) for p in perms} != set(board.symmetries.perms):
                fr.checksum = f"{path}: the symmetry group in the header is not the board's"
        report.files.append(fr)
    if not forward:
        return report
    for fr in report.files:
        if fr.path not in headers:
            continue
        header = headers[fr.path]
        if header["phase"] != "movement":
            from .placement import verify_placement_file

            verify_placement_file(fr, header, os.path.dirname(fr.path), rep)
            continue
        _verify_movement(fr, header, os.path.dirname(fr.path), rep)
    return report


def _verify_movement(fr: FileReport, header, directory, rep):
    from .kernels.verify import check_movement

    board = BOARDS[header["board"]]
    sub = Subspace.parse(header["subspace"])
    sib = sub.sibling
    child = removal_child(sub)
    need = [sib] + ([child] if child is not None else [])
    for s in need:
        p = os.path.join(directory, s.name + SUFFIX)
        if check_file(p) is not None:
            fr.skipped = f"needs {s}, which is missing or damaged"
            return
    try:
        vals, dtc = read_planes(fr.path)
        sib_vals, sib_dtc = (vals, dtc) if sib == sub else read_planes(os.path.join(directory, sib.name + SUFFIX))
        child_vals = (
            read_planes(os.path.join(directory, child.name + SUFFIX), with_dtc=False)[0]
            if child is not None else np.zeros(0, np.uint8)
        )
    except CorruptDatabaseError as exc:
        fr.checksum = str(exc)
        return
    h = Hasher(board)
    T = h.tables
    Ob = h.orbits({sub.m, sub.o})
    nchunk = 256
    bad = np.zeros(nchunk, np.int64)
    first = np.zeros(nchunk, np.int64)
    slots = len(vals)
    total_bad = 0
    first_bad = -1
    step = max(1 << 20, slots // 20)
    with rep.bar(total=slots, desc=f"verify {sub}", unit="pos") as bar:
        for lo in range(0, slots, step):
            hi = min(slots, lo + step)
            check_movement(T, Ob, bool(header["flying"]), sub.m, sub.o, vals, dtc, sib_vals, sib_dtc,
                           child_vals, lo, hi, bad, first)
            total_bad += int(bad.sum())
            if first_bad < 0 and (first >= 0).any():
                first_bad = int(first[first >= 0].min())
            bar.update(hi - lo)
    fr.checked = int(header["positions"])
    fr.mismatches = total_bad
    if first_bad >= 0:
        mover, opp, _ = h.unindex_py(sub, first_bad, h.anchor_reps(sub.o))
        fr.first_mismatch = f"slot {first_bad}: mover {board.names(mover)} opponent {board.names(opp)}"
