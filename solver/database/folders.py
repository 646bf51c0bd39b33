"""Database folders: where the files of a ruleset live, and the header fields that tie a file to
its rules and subspace.

Layout: ``DIR/<ruleset>/<subspace>.mtb``, where the ruleset names the board and the rule options
(``standard``, ``six-nofly``, ``standard-limit100``; :attr:`Variant.ruleset_id`). Every path to a
database file is built here; the bytes inside a file are fileformat.py's.
"""

from __future__ import annotations

import os

import numpy as np

from ..core.codes import DV0, LOSS, WIN
from ..core.errors import CorruptDatabaseError, ForeignDatabaseError
from ..core.variants import RULE_FIELDS
from ..core.version import __version__
from ..format.fileformat import KIND_SUFFIX, SUFFIX, TableFile, header_mismatch, longest_of, plane_stats
from ..hashing.games import game_of
from ..hashing.index import count_positions

#: the suffix of each kind of file (fileformat.KINDS): values, dtw, draw values
SUFFIXES = KIND_SUFFIX
#: the suffix of dtw files (the values files': fileformat.SUFFIX)
DTW_SUFFIX = KIND_SUFFIX["dtw"]
#: the suffix of draw-value files (docs/draws.md)
DRAWS_SUFFIX = KIND_SUFFIX["draw"]

#: the perfect hash the files are indexed by (index.py)
from ..format.header import HASH_SCHEME  # noqa: E402 (the one name of the hash)


def ruleset_dir(out, variant) -> str:
    """Where the files of a variant's rules live under a database directory."""
    return os.path.join(os.fspath(out), variant.ruleset_id)


def file_in(ruleset_directory, sub, kind: str = "values") -> str:
    """The file of kind ``kind`` (values, dtw, draw) of one subspace in a ruleset directory:
    ``<ruleset directory>/<subspace><suffix>``. Every path to a database file is built here."""
    return os.path.join(os.fspath(ruleset_directory), sub.name + SUFFIXES[kind])


def file_path(out, variant, sub, kind: str = "values") -> str:
    """The file of kind ``kind`` of one subspace of ``variant``'s rules under the database
    directory ``out``: ``OUT/<ruleset>/<subspace>.mtb`` (``.mtw`` dtw, ``.mdv`` draw values)."""
    return file_in(ruleset_dir(out, variant), sub, kind)


def beside(path, kind: str) -> str:
    """The file of kind ``kind`` of the same subspace as the database file ``path``."""
    return os.path.splitext(os.fspath(path))[0] + SUFFIXES[kind]


def stored_values(path):
    """The value codes of a values file as stored (unused slots hold a neighbour's value):
    what selects the slots of a dtw or draw-value file's sections (fileformat.SELECTIONS)."""
    with TableFile(path) as tf:
        return tf.values_all()


def read_draws(path, values=None, distances: bool = True, dv_out=None):
    """(dv, dd) planes of a draw-value file: the one loader of draw-value planes (dd None
    without ``distances``). ``values``: the stored value codes of the values file beside it
    (read from it when not given); ``dv_out``: where the dv plane goes (a lane of a sweep's
    side plane; ``TableFile.distance_all``)."""
    if values is None:
        values = stored_values(beside(path, "values"))
    with TableFile(path) as tf:
        return (tf.distance_all("dv", values, out=dv_out),
                tf.distance_all("dd", values) if distances else None)


def sibling_ruleset(path, variant) -> str:
    """The file of the same subspace as ``path`` in the directory of ``variant``'s rules beside
    it (``DB/<ruleset>/X.mtb`` -> ``DB/<variant's ruleset>/X.mtb``)."""
    db = os.path.dirname(os.path.dirname(os.fspath(path)))
    return os.path.join(db, variant.ruleset_id, os.path.basename(path))


def subspace_of(path) -> str:
    """The subspace name a file's name gives (``.../5-4.mtb`` or ``.../5-4.mtw`` -> ``5-4``)."""
    return os.path.splitext(os.path.basename(os.fspath(path)))[0]


def named_ruleset_dir(root, name: str) -> str | None:
    """The ruleset directory ``name`` under the database directory ``root`` (a name, never a
    path: one with a separator or a leading dot is refused), or None."""
    if not name or os.sep in name or (os.altsep and os.altsep in name) or name.startswith("."):
        return None
    path = os.path.join(os.fspath(root), name)
    return path if os.path.isdir(path) else None


def ruleset_dirs(paths, variant) -> list[str]:
    """The directories among ``paths`` (database directories, or ruleset directories named like
    ``variant``'s ruleset) that hold ``variant``'s files, in order."""
    out = []
    for p in paths:
        sub = ruleset_dir(p, variant)
        if os.path.isdir(sub):
            out.append(sub)
        elif os.path.basename(os.path.normpath(p)) == variant.ruleset_id:
            out.append(os.fspath(p))
    return out


def find_tables(root, suffix: str = SUFFIX) -> list[str]:
    """Every values file under ``root`` (with ``suffix=DTW_SUFFIX``: every dtw file), sorted
    (``root`` itself when it is one). A folder that is a link is followed (a rule set's folder
    linked in from another database is part of this one: ``morris verify`` checks it and
    ``morris stats`` counts it), except a link back to a folder above it, which would loop."""
    root = os.fspath(root)
    if os.path.isfile(root) and root.endswith(suffix):
        return [root]
    out = []
    above = {root: {os.path.realpath(root)}}  # per folder to walk: the real folders down to it
    for dirpath, dirs, files in os.walk(root, followlinks=True):
        chain = above.pop(dirpath)
        down = []
        for d in dirs:
            path = os.path.join(dirpath, d)
            real = os.path.realpath(path)
            if real not in chain:
                above[path] = chain | {real}
                down.append(d)
        out.extend(os.path.join(dirpath, f) for f in files if f.endswith(suffix))
        # a directory (or anything not a file) named like a database file is listed too, so
        # that a check reports it instead of passing over it
        out.extend(os.path.join(dirpath, d) for d in dirs if d.endswith(suffix))
        dirs[:] = down
    return sorted(out)


def misplaced(path, header: dict) -> str | None:
    """What is wrong with where a database file lies, given its header (None when its folder
    names its ruleset and its name its subspace)."""
    folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
    if header.get("ruleset") != folder:
        return f"holds ruleset {header.get('ruleset')!r} but lies in the folder of {folder!r}"
    if header.get("subspace") != subspace_of(path):
        return f"holds subspace {header.get('subspace')!r} but is named {os.path.basename(path)!r}"
    return None


def ruleset_fields(variant) -> dict:
    """The header fields that must match for a file to serve a variant's positions: the
    ruleset, the board, and each rule field as its declaration says (rulefields.py: every
    header states ``flying``, ``double_mill_removes`` and ``no_removal_limit``; the fields of
    later rules only where they differ from the default, so the standard game's headers, and
    its files, stay as they were)."""
    out = {"ruleset": variant.ruleset_id, "board": variant.board.name}
    for f in RULE_FIELDS:
        value = getattr(variant.rules, f.name)
        if f.header == "always" or f.header == "set" and f.differs(value):
            out[f.name] = value
    return out


def file_fields(variant, sub, kind: str = "values") -> dict:
    """The header fields that tie a file to the rules, subspace and kind it serves: what a
    lookup, a resume and verify check before they use the file."""
    return {**ruleset_fields(variant), "subspace": sub.name, "points": list(variant.board.points),
            "kind": kind}


def open_checked(path, variant, sub, kind: str = "values") -> TableFile:
    """The one gate of a file opened to serve ``variant``: a regular file with a well-formed
    header (TableFile), of ``variant``'s rules (else ``ForeignDatabaseError``), of subspace
    ``sub`` and kind ``kind`` (else ``CorruptDatabaseError``)."""
    tf = TableFile(path)
    want = file_fields(variant, sub, kind)
    rules = {k: want[k] for k in ruleset_fields(variant)}
    wrong = header_mismatch(tf.header, rules)
    if wrong:
        tf.close()
        got = {k: tf.header.get(k) for k in rules}
        raise ForeignDatabaseError(f"{path} holds rules {got}, not the rules {rules}")
    wrong = header_mismatch(tf.header, want)
    if wrong:
        tf.close()
        raise CorruptDatabaseError(f"{path}: {wrong}")
    return tf


def open_found(path) -> TableFile:
    """A file found under a database folder, opened for a reader that asks for no rules (stats,
    the stats page, plots): the gate (TableFile: every header field), and the file where its
    header says it belongs (its ruleset's folder, its subspace's name; else a
    ``CorruptDatabaseError``)."""
    tf = TableFile(path)
    where = misplaced(path, tf.header)
    if where:
        tf.close()
        raise CorruptDatabaseError(f"{path}: {where}")
    return tf


def header(kind: str, variant, sub, **fields) -> dict:
    """The one header builder of every kind of file: the rules (``ruleset_fields``), the board's
    points, the subspace and its phase and counts, its positions (the Burnside count), the
    format and the program; then the kind (dtw and draw files; a values file has none) and the
    kind's own ``fields``."""
    hdr = ruleset_fields(variant)
    hdr.update(format="morris-tablebase", generator=f"morris-solver {__version__}",
               points=list(variant.board.points), subspace=sub.name,
               phase="placement" if sub.placement else "movement",
               m=sub.m, o=sub.o, hm=sub.hm, ho=sub.ho,
               positions=count_positions(variant.board, sub.m, sub.o))
    if kind != "values":
        hdr["kind"] = kind
    hdr.update(fields)
    return hdr


def table_header(variant, sub, hasher, values, dtc, curse_counts=None) -> dict:
    """The header of a subspace's values file, its counts checked against the Burnside count.
    ``curse_counts``: (cursed wins, blessed losses), for rules with a no-removal limit."""
    board = variant.board
    st = plane_stats(values, dtc)
    positions = st["positions"]
    hdr = header("values", variant, sub,
                 symmetries=len(board.symmetries),
                 symmetry_perms=[list(p) for p in board.symmetries.perms],
                 hash={"scheme": HASH_SCHEME, "anchor": "opponent",
                       "orbits": int(len(hasher.anchor_reps(sub.o)))},
                 wins=st["wins"], losses=st["losses"], draws=positions - st["wins"] - st["losses"],
                 max_win_dtc=st["max_win_dtc"], max_loss_dtc=st["max_loss_dtc"],
                 distance="dtc-placement" if sub.placement else "dtc")
    if variant.limited:
        hdr["limit"] = game_of(variant).limit(sub)
        hdr["cursed_wins"], hdr["blessed_losses"] = (int(x) for x in curse_counts)
    if positions != hdr["positions"]:
        raise RuntimeError(f"{sub}: {positions} used slots, Burnside counts {hdr['positions']}")
    return hdr


def dtw_header(variant, sub, values, dtw) -> dict:
    """The header of a subspace's dtw file: the longest win and loss, each with the slot of one
    position that has it (None where there is none)."""
    fields = {}
    for name, code in (("win", WIN), ("loss", LOSS)):
        best, slot = longest_of(values, dtw, code)
        fields[f"max_{name}_dtw"] = best
        fields[f"max_{name}_dtw_slot"] = slot
    return header("dtw", variant, sub, distance="dtw", **fields)


def draws_header(variant, sub, dv, dd, rank) -> dict:
    """The header of a subspace's draw-value file: the pair's settlement rank (movement; None
    in placement) and how many draws have each draw value."""
    from ..kernels.pack import byte_counts  # (lazy: imports numba)

    counts = byte_counts(np.asarray(dv, dtype=np.uint8))  # (on every thread)
    return header("draw", variant, sub, distance="draw", rank=rank,
                  draw_values={str(b - DV0): int(c) for b, c in enumerate(counts) if b and c},
                  max_draw_distance=int(np.asarray(dd).max(initial=0)))


def read_dtw(path, values=None, halved: bool = False):
    """The whole dtw plane of a dtw file (uint8 or uint16): the one loader of dtw planes.
    ``values``: the stored value codes of the values file beside it (read when not given).
    With ``halved``: (plane, is_halved), the plane dtw // 2 where the file stores it so (half
    the memory; a win's dtw is odd)."""
    if values is None:
        values = stored_values(beside(path, "values"))
    with TableFile(path) as tf:
        return tf.selected_plane("dtw", values) if halved else tf.distance_all("dtw", values)


def read_planes(path, with_dtc: bool = True):
    """(values, distances) of a whole file, the distances as uint8 where they fit (``None``
    without ``with_dtc``): the one loader of whole planes."""
    with TableFile(path) as tf:
        return tf.values_all(), (tf.dtc_all() if with_dtc else None)
