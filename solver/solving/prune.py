"""dtw files that keep their losses only (docs/format.md, "Pruned dtw files").

A win's dtw is 1 + the least dtw of a move into a lost position, and the files of the position's
children hold those: a dtw file need not keep its wins' entries. In the standard game the
losses are 31% of the decided positions, so a pruned file keeps about a third of the entries.

- :func:`prune` rewrites, once a solve is over, every dtw file of a ruleset whose readers are
  complete (every job that reads it has its dtw files): the solve itself reads its children's
  wins (a loss's dtw is 1 + the largest dtw of its moves), so files are pruned after, not as
  they are written. A job whose files will be pruned writes each pruned file beside the whole
  one as well (:func:`pruned_beside`, ``fileformat.write_pruned_dtw``: the same bytes), and
  the pruning renames it over the whole file once checked, instead of reading the whole file
  back and compressing again (about 40% of the pruning's time); a file without one, or with
  one that fails its check, is pruned from the whole file as before.
- :func:`read_full_dtw` reads a dtw file back whole, deriving a pruned file's wins from its
  children's files, one ply: a movement subspace by ``kernels.dtw.won_dtw`` over the files of
  (o, m) and (o - 1, m), a placement subspace by the placement sweep over its children
  (placement.evaluate, which reads only the lost children's dtw for a win).

Not pruned: Lasker Morris's hand pairs (a forward pass over place-or-move turns is not written),
and placement subspaces whose positions follow a placement of the same side (the opponent's
hand empty, the mover's not), whose parents read their wins (none in the standard game).
"""

from __future__ import annotations

import os

import numpy as np

from ..core.codes import DRAW, WIN
from ..hashing.games import game_of
from ..core.progress import Reporter
from ..core.variants import variant_from_fields
from ..database.folders import beside, file_path, stored_values, subspace_of
from ..format.fileformat import (LAYOUT_KEYS, TableFile, check_file, placed_in,
                                 prune_to_losses, rename_over, write_distance_table)
from ..hashing.index import Hasher
from ..hashing.subspaces import Subspace, removal_child
from .placement import evaluate, load_children, side_planes_of


def prunable(variant, sub: Subspace, game) -> bool:
    """Whether the dtw file of ``sub`` may keep its losses only (module docstring); ``game``:
    the subspaces of the game (with dtw files), for the placements after which the same side
    places again (the opponent's hand is empty): their parents read their wins."""
    if not sub.placement:
        return True
    if game_of(variant).hand_pairs:
        return False
    if sub.ho == 0 and sub.hm > 0:
        parents = (Subspace(sub.m - 1, sub.o + k, sub.hm + 1, 0)
                   for k in range(game_of(variant).args.dm + 1))
        return not any(p in game for p in parents)
    return True


#: the suffix of a pruned dtw file written beside the whole one (:func:`pruned_beside`)
PRUNED_SUFFIX = ".lost"


def pruned_beside(path) -> str:
    """Where a solve writes the pruned file of the dtw file at ``path`` beside it, until the
    pruning at its end renames it over the whole file (no reader lists it: its name does not
    end in ``.mtw``)."""
    return str(path) + PRUNED_SUFFIX


def _take_pruned(path) -> bool:
    """Rename the pruned file written beside the dtw file at ``path`` over it, where there is
    one that passes its checksum and whose header, less its layout, is the whole file's;
    True where it was taken. One that does not is removed (the caller prunes the whole file)."""
    side = pruned_beside(path)
    if not os.path.exists(side):
        return False
    ok = check_file(side) is None
    if ok:
        with TableFile(side) as a, TableFile(path) as b:
            ok = a.pruned() and _fields(a.header) == _fields(b.header)
    if not ok:
        os.remove(side)
        return False
    rename_over(side, path)
    return True


def _fields(header: dict) -> dict:
    return {k: v for k, v in header.items() if k not in LAYOUT_KEYS}


def read_full_dtw(path, values=None, halved: bool = False, out=None):
    """The whole dtw plane of a dtw file, as ``folders.read_dtw`` reads it (``halved``: (plane,
    is_halved)), a pruned file's wins derived from its children's files beside it. ``out``
    (not with ``halved``): where the plane goes (``TableFile.distance_all``), returned."""
    if values is None:
        values = stored_values(beside(path, "values"))
    if halved and out is not None:
        raise ValueError("read_full_dtw: a halved plane is not read into a given array")
    with TableFile(path) as tf:
        if not tf.pruned():  # (read as folders.read_dtw reads it: no temporaries)
            return (tf.selected_plane("dtw", values) if halved
                    else tf.distance_all("dtw", values, out=out))
        header = tf.header
        sub = Subspace.parse(subspace_of(path))
        # the stored entries, wins 0: a placement plane whole, a movement plane halved
        plane = (tf.distance_all("dtw", values, stored_only=True) if sub.placement
                 else tf.selected_plane("dtw", values, stored_only=True)[0])
    variant = variant_from_fields(header)
    db = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    if sub.placement:
        full = _placement_wins(db, variant, sub, values, plane)
        if halved:
            return full, False
    else:
        plane = _movement_wins(db, variant, sub, values, plane)
        if halved:
            return plane, True
        full = _unhalve(plane, values)
    return placed_in(out, full)


def write_full(path, dest) -> None:
    """Write the dtw file at ``path`` to ``dest`` whole (every decided slot, format version 1),
    a pruned file's wins derived: for a copy read without its children's files (the book)."""
    values = stored_values(beside(path, "values"))
    with TableFile(path) as tf:
        header = {k: v for k, v in tf.header.items() if k not in LAYOUT_KEYS}
        anchors = np.array(tf.anchors, dtype=np.uint32)
    variant = variant_from_fields(header)
    used = Hasher(variant.board).used_mask(Subspace.parse(header["subspace"]))
    write_distance_table(dest, header, "dtw", read_full_dtw(path, values), anchors, values, used)


def _unhalve(plane, values):
    """The dtw itself from a plane of halved entries (a win's dtw odd)."""
    full = plane.astype(np.uint16)
    full <<= 1
    full += values == WIN
    full[values == DRAW] = 0
    return full


def _stored(out, variant, sub: Subspace):
    """(values, the halved dtw entries as stored (wins 0 where pruned)) of a movement subspace
    (TableFile refuses a movement dtw section that is not halved)."""
    vals = stored_values(file_path(out, variant, sub))
    with TableFile(file_path(out, variant, sub, "dtw")) as tf:
        return vals, tf.selected_plane("dtw", vals, stored_only=True)[0]


def _movement_wins(out, variant, sub: Subspace, vals, plane):
    """``plane`` (halved entries of movement subspace ``sub``, its losses filled) with its wins
    derived (kernels.dtw.won_dtw)."""
    from ..kernels.dtw import won_dtw  # (lazy: imports numba)

    hasher = Hasher(variant.board)
    sib = sub.sibling
    sib_vals, sib_plane = (vals, plane) if sib == sub else _stored(out, variant, sib)
    child = removal_child(sub)
    if child is None:
        cv, cp = np.zeros(0, np.uint8), np.zeros(0, plane.dtype)
    else:
        cv, cp = _stored(out, variant, child)
    # wide enough for a win's entry, the least of its lost children's
    plane = np.asarray(plane, dtype=np.result_type(plane, sib_plane, cp))
    bad = won_dtw(hasher.tables, hasher.orbits({sub.m, sub.o}), game_of(variant).args, sub.m,
                  sub.o, vals, plane, sib_vals, sib_plane, cv, cp)
    if bad:
        raise RuntimeError(f"{sub}: {bad} wins without a move into a lost position in the files")
    return plane


def _placement_wins(out, variant, sub: Subspace, vals, full):
    """``full`` (the dtw of placement subspace ``sub``, its losses filled) with its wins derived
    by the placement sweep over its children's stored entries (a win reads only its lost
    children's dtw)."""
    planes = load_children(out, variant, sub)

    def stored_dtw(c, values, lane):
        with TableFile(file_path(out, variant, c, "dtw")) as tf:
            tf.distance_all("dtw", values, stored_only=True, out=lane)

    swept, _, derived = evaluate(variant, sub, planes, Hasher(variant.board),
                                 sides=side_planes_of(planes, dtw=stored_dtw), release=True)
    del planes
    won = (swept == WIN) & (vals == WIN)
    full = np.array(full, dtype=np.uint16)
    full[won] = derived[won]
    return full


def readers(jobs, deps) -> dict:
    """{subspace: [the jobs that read its dtw file]} for every subspace whose dtw file a job of
    ``jobs`` writes (an empty list where none reads it); ``deps``: {job: the jobs it reads}
    (schedule.job_graph)."""
    out = {s: [] for j in jobs if writes_dtw(j) for s in dtw_subspaces(j)}
    for j in jobs:
        if writes_dtw(j):
            for d in deps[j]:
                if writes_dtw(d):
                    for s in dtw_subspaces(d):
                        out.setdefault(s, []).append(j)
    return out


def readers_complete(out, variant, jobs, deps) -> dict:
    """{subspace: whether every job that reads its dtw file has its own dtw files}, for the
    subspaces whose dtw files exist; ``jobs``, ``deps``: the whole game's job graph with dtw
    (schedule.job_graph)."""
    complete = {}
    ok = {}
    for s, rs in readers(jobs, deps).items():
        if _has_dtw(out, variant, s):
            for j in rs:
                if j not in complete:
                    complete[j] = all(_has_dtw(out, variant, c) for c in dtw_subspaces(j))
            ok[s] = all(complete[j] for j in rs)
    return ok


def writes_dtw(job) -> bool:
    """Whether a job (solving.jobs) writes dtw files."""
    return getattr(job, "kind", "") == "dtw" or bool(getattr(job, "dtw", False))


def dtw_subspaces(job) -> list:
    """The subspaces whose dtw files a job writes (where it writes them)."""
    return list(job.subspaces) if hasattr(job, "subspaces") else [job.sub]


def _has_dtw(out, variant, sub) -> bool:
    return os.path.exists(file_path(out, variant, sub, "dtw"))


def prune(out, variant, jobs, deps, reporter: Reporter | None = None) -> dict:
    """Prune (keep the losses only) every dtw file of ``variant``'s ruleset under ``out`` that
    may be (:func:`prunable`) and whose readers are complete (:func:`readers_complete`, over the
    whole game's job graph ``jobs``, ``deps``); returns {"files": pruned, "before": bytes,
    "after": bytes}."""
    rep = reporter or Reporter(quiet=True)
    todo = []
    game = {s for j in jobs if writes_dtw(j) for s in dtw_subspaces(j)}
    for sub, ready in readers_complete(out, variant, jobs, deps).items():
        if not (ready and prunable(variant, sub, game)):
            continue
        path = file_path(out, variant, sub, "dtw")
        with TableFile(path) as tf:
            done = tf.pruned()
        if not done:
            todo.append((sub, path))
        elif os.path.exists(pruned_beside(path)):  # (a stale one: the file was pruned without it)
            os.remove(pruned_beside(path))
    before = after = 0
    if todo:
        rep.phase(f"prune dtw: {len(todo)} files keep their losses only")
    with rep.bar(total=len(todo), desc="prune dtw", unit="file") as bar:
        for sub, path in todo:
            before += os.path.getsize(path)
            if not _take_pruned(path):
                prune_to_losses(path, stored_values(file_path(out, variant, sub)))
            after += os.path.getsize(path)
            bar.update(1)
    return {"files": len(todo), "before": before, "after": after}
