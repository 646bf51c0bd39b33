"""The bytes of one database file: writing, reading at random, checking (docs/format.md).

This module knows one file and nothing of folders, rulesets or the solver (folders.py lays
files out in directories and builds their headers).

Layout (little-endian)::

    0    8   magic b"MORRISTB"
    8    4   format version (1)
    12   4   header length H
    16   4   CRC-32 of the header bytes
    20   4   reserved, 0
    24   H   header: UTF-8 JSON with sorted keys (rules, subspace, hash, counts, sections)
    ...      sections at 8-aligned offsets named in the header:
             anchors  the anchor representatives, plain uint32 little-endian, sorted
                      (binary-searched in place; every 1024th also in the header)
             wdl      offset table (uint64, nblocks + 1) and zstd blocks of 2-bit values
             dtc      offset table and zstd blocks of uint8 or uint16 distances (none for
                      codec "ones": 1 for every win and loss, 0 for draws)
             curse    (files of rules with a no-removal limit only) offset table and zstd
                      blocks of 2-bit codes: 1 cursed win, 2 blessed loss, else 0
    end-40   BLAKE2b-256 of every byte before it, then b"MTBEND\\0\\0"

Every block is an independent zstd frame with its content checksum, so one probe decompresses
one small block and a damaged block is detected when it is read. Files are written to a
temporary name, synced and renamed, so a file under its final name is always complete.
"""

from __future__ import annotations

import bisect
import fcntl
import hashlib
import json
import mmap
import os
import socket
import stat
import struct
import sys
import threading
import zlib
from typing import NamedTuple

import numpy as np
import zstandard as zstd

from ..core.codes import DRAW, LOSS, WIN
from ..core.errors import CorruptDatabaseError
from ..core.inputs import file_kind
from ..core.threads import run_tasks
from .header import HeaderError, check_header

MAGIC = b"MORRISTB"
END_MAGIC = b"MTBEND\0\0"
VERSION = 1
#: the version of a file with a section that keeps only the losses (``select: lost``, a pruned
#: dtw file): a reader of version 1 refuses it, which it could not read right
LOST_VERSION = 2
#: the versions this toolkit reads
VERSIONS = (VERSION, LOST_VERSION)
PREFIX = struct.Struct("<8sIIII")
TRAILER = 40
SUFFIX = ".mtb"
TMP_MARK = ".tmp-"

WDL_BLOCK = 1 << 14  # slots per value block (4 KiB packed): one probe decompresses ~6 us
DTC_BLOCK = 1 << 11  # slots per distance block (2 KiB as uint8): ~3 us
FENCE = 1024  # every FENCE-th anchor is repeated in the header, so a lookup touches one page


class Tuning(NamedTuple):
    """zstd's match finder spelled out where a level's would not suit: for blocks of a few KiB
    a level searches longer than pays (zstd's manual: ZSTD_c_strategy, ZSTD_c_searchLog,
    ZSTD_c_minMatch, ZSTD_c_targetLength, ZSTD_c_hashLog, ZSTD_c_chainLog); the window is as
    large as a block."""

    strategy: int
    search_log: int
    min_match: int
    target_length: int = 0
    hash_log: int = 12
    chain_log: int = 12


#: the values files' value blocks (4 KiB of 2-bit codes): zstd's btopt parser, 2 candidates a
#: position, matches of 3 bytes or more, 128 bytes long enough to stop looking. On blocks
#: sampled from the standard game's files 14% faster than level 12 (which this replaced) and
#: 0.35% smaller (docs/benchmarks.md, "the values files compressed by tuned match finders")
WDL_LEVEL = Tuning(zstd.STRATEGY_BTOPT, 1, 3, 128)


#: the values files' distance blocks (2 KiB as uint8): zstd's lazy2 match finder, 64 candidates
#: a position, matches of 6 bytes or more. On blocks sampled from the standard game's files 2.7
#: times faster than level 9 (which this replaced) and 1.3% smaller (docs/benchmarks.md, "the
#: values files compressed by tuned match finders")
DTC_LEVEL = Tuning(zstd.STRATEGY_LAZY2, 6, 6)
#: draw-value files: level 6 compresses the standard 6-6 planes 2.5x faster than 9 for 0.7% more
DRAWS_LEVEL = 6
SELECT_BLOCK = 1 << 12  # slots per block of a selected section (below): at most 4 KiB as uint8
SELECT_LEVEL = 15
#: a whole dtw file that the solve writing it prunes at its end (solving/schedule.py): zstd
#: level 3 writes standard 7-5's 5.5x faster than 15 (11% more bytes), and pruning rewrites it
#: at ``SELECT_LEVEL``, the same bytes as from a file written at 15
FAST_LEVEL = 3
#: a pruned dtw file (the losses only, rewritten at a solve's end): zstd level 9 prunes the
#: standard 7-9, 6-8+1+1 and 8-8 files in 27 s where 15 took 46-52 s, for 4.0% more bytes
#: (320.5 -> 333.3 MB; the whole game's pruned dtw stays under 1 bit a position)
PRUNE_LEVEL = 9


class Selection(NamedTuple):
    """A section that stores only the slots the values file selects: ``decided`` (wins and
    losses), ``drawn`` or ``lost`` (a pruned dtw section: a win's dtw is 1 + the least dtw of
    a move into a lost position, which the files of its children hold), in slot order, blocks
    of SELECT_BLOCK slots each holding the selected slots of its range; ``halved``: stored as
    x // 2, the value giving the parity (a win's distance is odd, a loss's even; a section is
    halved only where every position keeps that rule: placement positions that end with the
    mover's own move break it). A reader needs the values file to find a slot's entry."""

    select: str
    halved: bool = False


#: the sections stored selected: the draws' zero dtw and the decided positions' zero draw
#: values and distances are not stored (the values say them), nor is the dtw's parity
SELECTIONS = {"dtw": Selection("decided", True), "dv": Selection("drawn"), "dd": Selection("drawn")}
#: the selections a reader accepts in each section (a dtw section pruned to its losses: prune.py)
READ_SELECTIONS = {"dtw": ("decided", "lost"), "dv": ("drawn",), "dd": ("drawn",)}
#: each selection as a mask over the value codes it keeps (bit v: the slots of value v)
KEEP = {"decided": (1 << WIN) | (1 << LOSS), "drawn": 1 << DRAW, "lost": 1 << LOSS}


class DerivedEntryError(LookupError):
    """A slot whose entry a pruned section does not store and the values do not imply: a win's
    dtw in a dtw file that keeps the losses only. Its dtw is a search of one ply away (the
    lookups do it: ``Tablebase.probe_dtw``; a whole plane: ``solving.prune.read_full_dtw``). A
    caller that reads one directly has a bug, hence no :class:`MorrisError`."""

#: the kinds of file and the sections each must have (besides ``anchors``): a values file
#: (``<subspace>.mtb``: values and dtc) and a dtw file (``<subspace>.mtw``: the distance to the
#: end of the game alone, so that a reader of values never pays for it) and a draw-value file
#: (``<subspace>.mdv``: ``dv`` the draw value + DV0 of each draw, ``dd`` its draw distance;
#: docs/draws.md). A header without a ``kind`` is a values file (files written before dtw existed).
KINDS = {"values": ("wdl", "dtc"), "dtw": ("dtw",), "draw": ("dv", "dd")}

_U64x2 = struct.Struct("<QQ")


def _align(x: int) -> int:
    return (x + 7) & ~7


def plane_stats(values: np.ndarray, dtc: np.ndarray) -> dict:
    """Counts of used slots, wins and losses, and the longest win and loss."""
    from ..kernels.pack import plane_stats as kernel  # (lazy: imports numba)

    out = np.zeros((64, 5), dtype=np.int64)
    kernel(values, dtc, 64, out)
    return {
        "positions": int(out[:, 0].sum()), "wins": int(out[:, 1].sum()), "losses": int(out[:, 2].sum()),
        "max_win_dtc": int(out[:, 3].max()), "max_loss_dtc": int(out[:, 4].max()),
    }


def longest_of(values: np.ndarray, dist: np.ndarray, code: int) -> tuple[int, int | None]:
    """(the largest distance of a slot whose value is ``code``, one slot that has it): (0, None)
    where no slot has the value."""
    from ..kernels.pack import longest  # (lazy: imports numba)

    out = np.full((64, 2), -1, dtype=np.int64)
    longest(np.ascontiguousarray(values), np.ascontiguousarray(dist), code, 64, out)
    best = out[:, 0].max()
    if best < 0:
        return 0, None
    return int(best), int(out[np.flatnonzero(out[:, 0] == best)[0], 1])


def unpack_2bit(packed, n: int) -> np.ndarray:
    """The ``n`` 2-bit codes of ``packed`` (four a byte, lowest bits first), a byte each."""
    from ..kernels.pack import UNPACK4, unpack, unpack4  # (lazy: imports numba)

    p = np.frombuffer(packed, dtype=np.uint8)
    out = np.empty(n, dtype=np.uint8)
    whole = n >> 2
    if sys.byteorder == "little" and whole:
        unpack4(p, out[: 4 * whole].view(np.uint32), UNPACK4)
        if n > 4 * whole:
            out[4 * whole:] = [(int(p[whole]) >> (2 * k)) & 3 for k in range(n - 4 * whole)]
    else:  # pragma: no cover - big-endian hosts unpack a slot at a time
        unpack(p, n, out)
    return out


#: tasks per thread that ``_compress_blocks`` cuts a section's blocks into (a task per block
#: cost more in the pool's bookkeeping than a 2 KiB block takes to compress)
TASKS_PER_THREAD = 8


def compressor(level, block_bytes: int) -> zstd.ZstdCompressor:
    """A zstd compressor of ``level`` (an int, or a :class:`Tuning` for blocks of
    ``block_bytes``) that writes each frame's checksum and size."""
    if isinstance(level, Tuning):
        params = zstd.ZstdCompressionParameters(
            window_log=max(10, (max(1, block_bytes) - 1).bit_length()), hash_log=level.hash_log,
            chain_log=level.chain_log, search_log=level.search_log, min_match=level.min_match,
            target_length=level.target_length, strategy=level.strategy, write_checksum=1,
            write_content_size=1)
        return zstd.ZstdCompressor(compression_params=params)
    return zstd.ZstdCompressor(level=level, write_checksum=True, write_content_size=True)


def _compress_blocks(chunks, level, threads=None):
    """Each chunk compressed into its own zstd frame of ``level`` (:func:`compressor`), on
    ``threads`` threads (every core by default), each task a run of consecutive chunks."""
    block_bytes = max(map(len, chunks), default=0)  # (a Tuning's window: the largest block)

    def work(span):
        c = compressor(level, block_bytes)
        return [c.compress(chunk) for chunk in chunks[span[0]:span[1]]]

    threads = threads or (os.cpu_count() or 1)
    n = len(chunks)
    if n < 4 or threads == 1:
        return work((0, n))
    step = -(-n // (threads * TASKS_PER_THREAD))
    spans = [(i, min(n, i + step)) for i in range(0, n, step)]
    parts = [None] * len(spans)

    def task(t):
        parts[t] = work(spans[t])

    run_tasks(len(spans), task, threads)
    return [frame for part in parts for frame in part]


class _Section(NamedTuple):
    """One compressed section before it is laid out: its blocks, slots per block and codec
    (and its :class:`Selection`, for a selected section)."""

    name: str
    blocks: list
    block_slots: int
    codec: str
    selection: Selection | None = None


def write_distance_table(path, header: dict, name: str, dist: np.ndarray, anchors: np.ndarray,
                         values: np.ndarray | None = None, used: np.ndarray | None = None,
                         level: int = SELECT_LEVEL):
    """Write a file that holds one distance section (``name``: ``dtw``) and the anchors, with
    ``header`` (which names its ``kind``), atomically; returns the header written. ``values``:
    the value codes as the values file stores them (``TableFile.values_all``), which select
    the slots of a section in :data:`SELECTIONS`; ``used``: the slots that hold a position
    (the others' entries are never read); ``level``: zstd's (:data:`FAST_LEVEL` for a file
    pruned before the solve ends)."""
    return write_planes(path, header, {name: dist}, anchors, level, values, used)


def write_planes(path, header: dict, planes: dict, anchors: np.ndarray, level: int = DTC_LEVEL,
                 values: np.ndarray | None = None, used: np.ndarray | None = None):
    """Write a file of byte or distance sections (``planes``: {name: array of one value per
    slot}, each stored as uint8 where it fits, else uint16) and the anchors, with ``header``
    (which names its ``kind``), atomically, each block a zstd frame of ``level``; returns the
    header written. A section named in :data:`SELECTIONS` keeps only the slots that
    ``values`` (the value codes as the values file stores them) selects, halved where every
    one of them (every ``used`` one, if given) keeps the parity rule."""
    sections = []
    for name, plane in planes.items():
        plane = np.ascontiguousarray(plane)
        slots = len(plane)
        sel = SELECTIONS.get(name)
        if sel is not None:
            sections.append(_selected_section(name, plane, sel, values, used, level))
            continue
        wide = int(plane.max(initial=0)) > 255
        arr = np.ascontiguousarray(plane, dtype=np.uint16 if wide else np.uint8)
        blocks = _compress_blocks(_chunks(arr, DTC_BLOCK * arr.itemsize), level)
        sections.append(_Section(name, blocks, DTC_BLOCK, "uint16" if wide else "uint8"))
    anchor_blob = np.asarray(anchors, dtype="<u4").tobytes()
    hdr, layout, end = lay_out(header, slots, sections, anchors, anchor_blob)
    _write_atomically(path, _header_blob(hdr), anchor_blob, sections, layout, end)
    return hdr


#: the largest slot count a header may state (more than any board here has positions)
MAX_SLOTS = 1 << 40
#: the codecs each section may have (docs/format.md)
CODECS = {"wdl": ("2bit",), "curse": ("2bit",), "dtc": ("uint8", "uint16", "ones")}
#: the file name suffix of each kind of file (KINDS), and the kind each suffix names
KIND_SUFFIX = {"values": SUFFIX, "dtw": ".mtw", "draw": ".mdv"}
SUFFIX_KIND = {suffix: kind for kind, suffix in KIND_SUFFIX.items()}


def _field(obj: dict, key: str, lo: int, hi: int, section: str | None = None) -> int:
    """The header field ``key`` of ``obj``, if it is a whole number in [lo, hi]; else a
    ValueError naming it (a list, null, a string, a float or a number out of range is damage)."""
    value = obj.get(key)
    if type(value) is not int or not lo <= value <= hi:
        where = f"section {section}'s " if section else ""
        raise ValueError(f"{where}{key} is {value!r}, not a whole number from {lo} to {hi}")
    return value


def check_select(select: str) -> None:
    """A :class:`Selection`'s ``select`` must be one this toolkit knows."""
    if select not in KEEP:
        raise ValueError(f"unknown selection {select!r}")


def _selected_section(name: str, plane: np.ndarray, sel: Selection, values, used, level) -> _Section:
    """The blocks of a selected section: per SELECT_BLOCK slots, the selected slots' entries
    (two kernel passes over the planes, no per-slot temporaries: the kept entries are the only
    new array)."""
    from ..kernels.pack import select_scan  # (lazy: imports numba)

    if values is None or len(values) != len(plane):
        raise ValueError(f"the {name} section keeps only the {sel.select} slots: it needs the "
                         f"values file's value codes, one per slot")
    check_select(sel.select)
    values = np.ascontiguousarray(values, dtype=np.uint8)
    used = np.zeros(0, np.bool_) if used is None else np.ascontiguousarray(used, dtype=np.bool_)
    nb = -(-len(plane) // SELECT_BLOCK)
    counts, odd, maxes = (np.zeros(nb, dtype=np.int64) for _ in range(3))
    keep = KEEP[sel.select]
    select_scan(values, plane, used, keep, SELECT_BLOCK, counts, odd, maxes)
    if sel.halved and odd.any():
        sel = Selection(sel.select, False)
    shift = 1 if sel.halved else 0
    wide = (int(maxes.max(initial=0)) >> shift) > 255
    kept = _fill_kept(values, plane, keep, shift, counts, np.uint16 if wide else np.uint8)
    return _kept_section(name, kept, counts, sel, level)


def _fill_kept(values, plane, keep, shift: int, counts, dtype) -> np.ndarray:
    """The entries (``plane >> shift``) of the slots a selection keeps (``keep``, a mask over
    the value codes), in slot order; ``counts``: how many each block keeps."""
    from ..kernels.pack import select_fill  # (lazy: imports numba)

    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    kept = np.empty(int(starts[-1]), dtype=dtype)
    select_fill(values, plane, keep, shift, SELECT_BLOCK, starts[:-1], kept)
    return kept


def _kept_section(name: str, kept: np.ndarray, counts: np.ndarray, sel: Selection,
                  level) -> _Section:
    """A selected section from its kept entries (slot order) and each block's count of them."""
    wide = kept.dtype.itemsize == 2
    nb = len(counts)
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    bounds = starts * kept.itemsize
    mv = memoryview(kept).cast("B")
    chunks = [mv[int(bounds[k]): int(bounds[k + 1])] for k in range(nb)]
    return _Section(name, _compress_blocks(chunks, level), SELECT_BLOCK, "uint16" if wide else "uint8", sel)


def prune_to_losses(path, values: np.ndarray, level: int = PRUNE_LEVEL) -> dict:
    """Rewrite the dtw file at ``path``, which keeps its decided slots, so that it keeps the
    losses only (``select: lost``, format version 2), atomically; returns the new header.
    ``values``: the value codes of the values file beside it (``values_all``). Every other
    header field stays; a win's dtw is then derived from the children's files
    (:class:`DerivedEntryError`)."""
    from ..kernels.pack import select_count  # (lazy: imports numba)

    with TableFile(path) as tf:
        sel = tf.selection("dtw")
        if sel is None or sel.select != "decided":
            raise ValueError(f"{path}: its dtw section keeps the "
                             f"{sel.select if sel else 'every'} slots, not the decided ones")
        values = np.ascontiguousarray(values, dtype=np.uint8)
        plane = tf.distance_all("dtw", values, raw=True)  # the entries as stored, in their slots
        anchors = np.array(tf.anchors, dtype="<u4")
        header = {k: v for k, v in tf.header.items() if k not in LAYOUT_KEYS}
    keep = KEEP["lost"]
    counts = np.zeros(-(-len(plane) // SELECT_BLOCK), dtype=np.int64)
    select_count(values, keep, SELECT_BLOCK, counts)
    kept = _fill_kept(values, plane, keep, 0, counts, plane.dtype)
    del plane
    if kept.dtype.itemsize == 2 and int(kept.max(initial=0)) <= 255:
        kept = kept.astype(np.uint8)
    sections = [_kept_section("dtw", kept, counts, Selection("lost", sel.halved), level)]
    anchor_blob = anchors.tobytes()
    hdr, layout, end = lay_out(header, len(values), sections, anchors, anchor_blob)
    _write_atomically(path, _header_blob(hdr), anchor_blob, sections, layout, end)
    return hdr


def write_pruned_dtw(path, header: dict, dtw: np.ndarray, anchors: np.ndarray, values: np.ndarray,
                     used: np.ndarray | None = None, level: int = PRUNE_LEVEL) -> dict:
    """Write atomically the file that :func:`prune_to_losses` makes of the dtw file
    ``write_distance_table(p, header, "dtw", dtw, anchors, values, used)`` writes, the same
    bytes, from the plane itself (a solve writes it beside the whole file, and the pruning at
    its end renames it instead of reading the whole file back: solving/prune.py). Returns the
    header written."""
    from ..kernels.pack import select_count, select_scan  # (lazy: imports numba)

    plane = np.ascontiguousarray(dtw)
    values = np.ascontiguousarray(values, dtype=np.uint8)
    if len(values) != len(plane):
        raise ValueError("the dtw plane needs the values file's value codes, one per slot")
    used = np.zeros(0, np.bool_) if used is None else np.ascontiguousarray(used, dtype=np.bool_)
    nb = -(-len(plane) // SELECT_BLOCK)
    counts, odd, maxes = (np.zeros(nb, dtype=np.int64) for _ in range(3))
    # the whole file's selection halves its entries where every one keeps the parity rule
    select_scan(values, plane, used, KEEP["decided"], SELECT_BLOCK, counts, odd, maxes)
    halved = SELECTIONS["dtw"].halved and not odd.any()
    counts[:] = 0
    select_count(values, KEEP["lost"], SELECT_BLOCK, counts)
    kept = _fill_kept(values, plane, KEEP["lost"], 1 if halved else 0, counts, np.uint16)
    if int(kept.max(initial=0)) <= 255:  # (as prune_to_losses narrows them)
        kept = kept.astype(np.uint8)
    sections = [_kept_section("dtw", kept, counts, Selection("lost", halved), level)]
    anchor_blob = np.asarray(anchors, dtype="<u4").tobytes()
    hdr, layout, end = lay_out(header, len(values), sections, anchors, anchor_blob)
    _write_atomically(path, _header_blob(hdr), anchor_blob, sections, layout, end)
    return hdr


def write_table(path, header: dict, values: np.ndarray, dtc: np.ndarray, anchors: np.ndarray,
                curse: np.ndarray | None = None):
    """Write one subspace atomically. ``values``: codes 0 draw, 1 win, 2 loss, 3 unused;
    ``dtc``: distances (0 for draws); ``anchors``: the anchor representatives; ``curse``
    (rules with a no-removal limit): 1 cursed win, 2 blessed loss, else 0 (limits.py).
    Returns the header written. The phases, in order: :func:`encode_sections` (pack and
    compress the planes), :func:`lay_out` (the header and every section's offset), then
    :func:`_write_atomically` (bytes, digest, trailer, rename)."""
    sections = encode_sections(values, dtc, curse)
    anchor_blob = np.asarray(anchors, dtype="<u4").tobytes()
    hdr, layout, end = lay_out(header, len(values), sections, anchors, anchor_blob)
    blob = _header_blob(hdr)
    _write_atomically(path, blob, anchor_blob, sections, layout, end)
    return hdr


def encode_sections(values: np.ndarray, dtc: np.ndarray, curse: np.ndarray | None = None) -> list:
    """Phase 1: the value plane packed 2 bits a slot, the distances as uint8 or uint16 (or not
    at all: codec ``ones``), the curse plane packed (limited rules), each cut into blocks and
    every block compressed into its own zstd frame."""
    from ..kernels.pack import fill_and_pack, pack2  # (lazy: imports numba)

    values = np.ascontiguousarray(values, dtype=np.uint8)
    dtc = np.ascontiguousarray(dtc)
    slots = len(values)
    wide = int(dtc.max(initial=0)) > 255
    dtc_arr = np.empty(slots, dtype=np.uint16 if wide else np.uint8)
    packed = np.zeros((slots + 3) // 4, dtype=np.uint8)
    assert WDL_BLOCK % DTC_BLOCK == 0 and DTC_BLOCK % 4 == 0
    implied = np.zeros(-(-slots // DTC_BLOCK), dtype=np.uint8)
    fill_and_pack(values, dtc, DTC_BLOCK, packed, dtc_arr, implied)
    # distances that the values imply (1 for every win and loss, 0 for draws: the last
    # placement of a side, where every move ends placement) are not stored: codec "ones"
    ones = not wide and bool(implied.all())
    width = dtc_arr.itemsize
    out = [_Section("wdl", _compress_blocks(_chunks(packed, WDL_BLOCK // 4), WDL_LEVEL), WDL_BLOCK, "2bit")]
    if ones:
        out.append(_Section("dtc", [], DTC_BLOCK, "ones"))
    else:
        out.append(_Section("dtc", _compress_blocks(_chunks(dtc_arr, DTC_BLOCK * width), DTC_LEVEL),
                            DTC_BLOCK, "uint16" if wide else "uint8"))
    if curse is not None:
        cpacked = np.zeros((slots + 3) // 4, dtype=np.uint8)
        pack2(np.ascontiguousarray(curse, dtype=np.uint8), cpacked)
        out.append(_Section("curse", _compress_blocks(_chunks(cpacked, WDL_BLOCK // 4), WDL_LEVEL),
                            WDL_BLOCK, "2bit"))
    return out


def _chunks(arr: np.ndarray, nbytes: int) -> list:
    """The bytes of ``arr`` cut into pieces of ``nbytes`` (the last may be shorter), no copy."""
    mv = memoryview(arr).cast("B")
    return [mv[i : i + nbytes] for i in range(0, len(mv), nbytes)]


def _section_layout(start: int, anchor_blob: bytes, count: int, sections: list):
    """Where each section goes when the header ends at ``start``: the anchors, then per
    section its offset table and its blocks, each at an 8-aligned offset."""
    out = {}
    pos = _align(start)
    out["anchors"] = {"offset": pos, "length": len(anchor_blob), "count": count, "dtype": "uint32le"}
    pos = _align(pos + len(anchor_blob))
    for sec in sections:
        table_at = pos
        pos = table_at + 8 * (len(sec.blocks) + 1)
        offsets = [pos]
        for b in sec.blocks:
            pos += len(b)
            offsets.append(pos)
        out[sec.name] = {"offset_table": table_at, "nblocks": len(sec.blocks),
                         "block_slots": sec.block_slots, "codec": sec.codec, "_offsets": offsets}
        if sec.selection is not None:
            out[sec.name].update(select=sec.selection.select, halved=sec.selection.halved)
        pos = _align(pos)
    return out, pos


def _header_blob(hdr: dict) -> bytes:
    return json.dumps(hdr, sort_keys=True, separators=(",", ":")).encode()


#: the header keys :func:`lay_out` writes (a header read back, less these, writes the file again)
LAYOUT_KEYS = ("sections", "file_size", "slots", "anchor_fence")


def lay_out(header: dict, slots: int, sections: list, anchors, anchor_blob: bytes):
    """Phase 2: the full header (the caller's fields, ``slots``, ``anchor_fence``,
    ``sections``, ``file_size``) and the layout of the sections after it. The header's own
    length moves the sections, so the layout is repeated until it stops moving (two passes)."""
    anchors = np.asarray(anchors)
    hdr = dict(header)
    hdr["slots"] = int(slots)
    hdr["anchor_fence"] = [int(a) for a in anchors[::FENCE]]
    layout, end = _section_layout(PREFIX.size + 4096, anchor_blob, int(len(anchors)), sections)
    for _ in range(3):
        hdr["sections"] = {k: {kk: vv for kk, vv in v.items() if not kk.startswith("_")}
                           for k, v in layout.items()}
        hdr["file_size"] = end + TRAILER
        new_layout, new_end = _section_layout(PREFIX.size + len(_header_blob(hdr)), anchor_blob,
                                              int(len(anchors)), sections)
        if new_end == end and new_layout == layout:
            return hdr, layout, end
        layout, end = new_layout, new_end
    raise RuntimeError("header layout did not converge")  # pragma: no cover - two passes do


def _write_atomically(path, blob: bytes, anchor_blob: bytes, sections: list, layout: dict, end: int):
    """Phase 3: prefix, header, anchors, each section's offset table and blocks, zero padding
    to every laid-out offset, then the BLAKE2b digest of all of it and the end magic; written
    to a temporary name, synced, renamed. The format version is 1, or 2 for a file with a
    pruned section (``lost``)."""
    tmp = f"{path}{TMP_MARK}{socket.gethostname()}-{os.getpid()}"
    lost = any(sec.selection is not None and sec.selection.select == "lost" for sec in sections)
    try:
        _write_file(tmp, blob, anchor_blob, sections, layout, end,
                    LOST_VERSION if lost else VERSION)
        os.replace(tmp, path)
    except BaseException:  # out of disk, killed, ...: nothing half written stays
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(os.path.dirname(os.path.abspath(path)))


def _write_file(tmp, blob: bytes, anchor_blob: bytes, sections: list, layout: dict, end: int,
                version: int):
    digest = hashlib.blake2b(digest_size=32)
    pos = 0
    with open(tmp, "wb") as f:
        def put(data):
            nonlocal pos
            f.write(data)
            digest.update(data)
            pos += len(data)

        def pad_to(target):
            if target > pos:
                put(b"\0" * (target - pos))

        put(PREFIX.pack(MAGIC, version, len(blob), zlib.crc32(blob), 0))
        put(blob)
        pad_to(layout["anchors"]["offset"])
        put(anchor_blob)
        for sec in sections:
            at = layout[sec.name]
            pad_to(at["offset_table"])
            put(np.array(at["_offsets"], dtype="<u8").tobytes())
            for b in sec.blocks:
                put(b)
        pad_to(end)
        f.write(digest.digest() + END_MAGIC)
        f.flush()
        os.fsync(f.fileno())


def remove_stale_temporaries(directory: str) -> list[str]:
    """Delete temporary files that a killed writer on this host left behind (their process is
    gone); files of live writers, or of other hosts sharing the directory, are kept."""
    removed = []
    if not os.path.isdir(directory):
        return removed
    host = socket.gethostname()
    for name in os.listdir(directory):
        if TMP_MARK not in name:
            continue
        tail = name.rsplit(TMP_MARK, 1)[1]
        h, _, pid = tail.rpartition("-")
        if h != host or not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # still running
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        try:
            os.remove(os.path.join(directory, name))
            removed.append(name)
        except FileNotFoundError:
            pass
    return removed


def rename_over(src, dst) -> None:
    """Put the complete file ``src`` in the place of ``dst`` (a rename, atomic on one file
    system), the directory synced after, as :func:`_write_atomically` leaves a file."""
    os.replace(src, dst)
    _fsync_dir(os.path.dirname(os.path.abspath(dst)))


def _fsync_dir(d):
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _selected_code(code: int, select: str) -> int:
    return (KEEP[select] >> code) & 1


#: per selection, per byte of a 2-bit value plane: how many of its four codes it keeps
_KEPT_IN_BYTE = {select: np.array([sum((keep >> ((b >> (2 * k)) & 3)) & 1 for k in range(4))
                                   for b in range(256)], np.int64) for select, keep in KEEP.items()}


def _open_regular(path: str):
    """The file at ``path`` opened for reading, if it is a regular file. Opened without blocking
    (a named pipe in a file's place would otherwise wait for a writer for ever), then checked
    on the open descriptor; anything but a regular file is a ``CorruptDatabaseError`` naming
    what it is. A missing file raises ``FileNotFoundError`` (the caller's missing subspace)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise CorruptDatabaseError(f"{path}: cannot open ({exc.strerror or exc})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise CorruptDatabaseError(f"{path}: {file_kind(mode)}, not a database file")
    if hasattr(os, "O_NONBLOCK"):
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    return os.fdopen(fd, "rb")


#: the decompressed bytes per thread above which ``TableFile.bulk_into`` splits a section
BULK_SPLIT = 8 << 20


def _decompress_run(src, dst, selected: bool, bad, name: str) -> None:
    """Decompress the zstd frames of ``src`` (one after the other) into ``dst``, which they must
    fill exactly (``selected``: the section is selected by the values); ``bad(message)`` makes
    the error raised."""
    got = 0
    try:
        reader = zstd.ZstdDecompressor().stream_reader(src, read_across_frames=True,
                                                       read_size=1 << 20)
        while got < len(dst):
            k = reader.readinto(dst[got:])
            if k == 0:
                break
            got += k
        left = got == len(dst) and reader.read(1)
    except zstd.ZstdError as exc:
        raise bad(f"damaged {name} block ({exc})") from None
    if got != len(dst) or left:
        raise bad(f"{name} section does not hold the {len(dst)} bytes its slots need"
                  + (" (the values file selects them)" if selected else ""))


class _Sections(dict):
    """A file's sections by name: (offset table, blocks, slots per block, codec); a name the
    file lacks is a KeyError that says which file and what it holds."""

    def __init__(self, path):
        super().__init__()
        self.path = path

    def __missing__(self, name):
        raise KeyError(f"{self.path} has no {name} section (it holds: {', '.join(self)})")


class TableFile:
    """One subspace file, read at random through mmap. Thread-safe: mmap reads need no lock,
    each thread has its own zstd decompressor, and the block cache changes only by single
    (atomic) dict operations."""

    def __init__(self, path, cache_blocks: int = 256, schema: bool = True):
        """``schema=False`` skips the header's check (header.check_header) and only that: for
        the format's own tests of files with made-up headers; no consumer passes it
        (tests/test_forged.py checks)."""
        self.path = str(path)
        self._f = _open_regular(self.path)
        try:
            size = os.fstat(self._f.fileno()).st_size
            if size < PREFIX.size + TRAILER:
                raise self._bad(f"truncated: {size} bytes is shorter than any database file")
            self._mm = mmap.mmap(self._f.fileno(), 0, access=mmap.ACCESS_READ)
            if hasattr(self._mm, "madvise") and hasattr(mmap, "MADV_RANDOM"):
                self._mm.madvise(mmap.MADV_RANDOM)  # probes read scattered pages: no readahead
            self._view = memoryview(self._mm)  # blocks are decompressed from it without a copy
            magic, version, hlen, hcrc, _ = PREFIX.unpack_from(self._mm, 0)
            if magic != MAGIC:
                raise self._bad("not a morris database (bad magic)")
            if version not in VERSIONS:
                raise self._bad(f"format version {version}; this toolkit reads versions "
                                + " and ".join(map(str, VERSIONS)))
            self.version = version
            if PREFIX.size + hlen > size:
                raise self._bad("truncated inside the header")
            blob = bytes(self._mm[PREFIX.size : PREFIX.size + hlen])
            if zlib.crc32(blob) != hcrc:
                raise self._bad("header checksum mismatch")
            self.header = json.loads(blob)
            if self.header.get("file_size") != size:
                raise self._bad(
                    f"truncated or padded: {size} bytes, the header says {self.header.get('file_size')}"
                )
            # (the trailer is checked with the digest by checksum_ok / morris verify)
            if not isinstance(self.header, dict):
                raise self._bad("the header is not a JSON object")
            try:  # every field, against the others, the board, the rules and the layout
                if schema:
                    check_header(self.header, size, version, hlen, self._u64)
            except HeaderError as exc:
                raise self._bad(str(exc)) from None
            self.slots = _field(self.header, "slots", 0, MAX_SLOTS)
            self._sec = _Sections(self.path)
            self._selected = {}
            kind = self.header.get("kind", "values")
            if kind not in KINDS:
                raise self._bad(f"a file of kind {kind!r}; this toolkit reads {', '.join(KINDS)}")
            suffix = os.path.splitext(self.path)[1]
            if SUFFIX_KIND.get(suffix, kind) != kind:
                raise self._bad(f"a {kind} file under a {SUFFIX_KIND[suffix]} file's name ({suffix})")
            sections = self.header.get("sections")
            if not isinstance(sections, dict):
                raise self._bad(f"sections is {sections!r}, not an object")
            for name in KINDS[kind] + ("curse",):
                if name == "curse" and name not in sections:
                    continue  # only files of rules with a no-removal limit have it
                self._read_section(name, sections.get(name), size)
            pruned = any(s.select == "lost" for s in self._selected.values())
            if (version == LOST_VERSION) != pruned:
                raise self._bad(f"format version {version} with "
                                + ("no" if version == LOST_VERSION else "a") + " pruned section")
        except CorruptDatabaseError:
            self.close()
            raise
        except (ValueError, KeyError, TypeError, struct.error) as exc:
            self.close()
            raise self._bad(f"unreadable header ({exc})") from None
        self._cache = {}
        self._cache_blocks = cache_blocks
        self._dctx = threading.local()
        self._anchors = None

    def _u64(self, offset: int) -> int:
        """One uint64 of the file (an offset table's entry), for the header's check."""
        if not 0 <= offset <= len(self._mm) - 8:
            raise HeaderError(f"an offset table entry at {offset} lies outside the file")
        return struct.unpack_from("<Q", self._mm, offset)[0]

    def _read_section(self, name: str, sec, size: int) -> None:
        """Check one section's entry in the header and keep where it lies (and its
        :class:`Selection`)."""
        if not isinstance(sec, dict):
            raise self._bad(f"section {name} is {sec!r}, not an object")
        nb = _field(sec, "nblocks", 0, size, name)
        at = _field(sec, "offset_table", 0, size, name)
        per = _field(sec, "block_slots", 1, MAX_SLOTS, name)
        codec = sec.get("codec")
        if codec not in CODECS.get(name, ("uint8", "uint16")):
            raise self._bad(f"section {name} has codec {codec!r}")
        if at + 8 * (nb + 1) > size - TRAILER:
            raise self._bad(f"{name} offset table lies past the end")
        if codec != "ones" and nb != -(-self.slots // per):
            raise self._bad(f"section {name} has {nb} blocks of {per} slots for {self.slots} slots")
        # entries are checked where they are read (_span); offsets() checks them all
        # (table offset, blocks, slots per block, codec); entries are read when needed
        self._sec[name] = (at, nb, per, codec)
        if "select" in sec:
            if type(sec.get("halved", False)) is not bool:
                raise self._bad(f"section {name} has halved {sec.get('halved')!r}")
            check_select(sec["select"])
            self._selected[name] = Selection(sec["select"], sec.get("halved", False))
            self._check_selection(name, self._selected[name])

    def _bad(self, why):
        return CorruptDatabaseError(f"{self.path}: {why}")

    def _check_selection(self, name: str, sel: Selection) -> None:
        """A selection must be the one its section is written with (SELECTIONS): a dtw section
        keeps the decided positions, the draw values the drawn ones, and only dtw may be halved;
        a movement dtw section always is (every win odd, every loss even there), so one that
        is not contradicts its values."""
        want = SELECTIONS.get(name)
        if (want is None or sel.select not in READ_SELECTIONS[name]
                or (sel.halved and not want.halved)):
            raise self._bad(f"section {name} keeps the {sel.select} slots{' halved' if sel.halved else ''}; "
                            f"{name} sections are written "
                            + ("unselected" if want is None else
                               f"keeping the {want.select} slots{' (halved where they can be)' if want.halved else ''}"))
        if name == "dtw" and not sel.halved and "+" not in str(self.header.get("subspace", "+")):
            raise self._bad("a movement dtw section is always halved (every win odd, every loss "
                            "even there): this one is not, which contradicts its values")

    def close(self):
        anchors = getattr(self, "_anchors", None)
        if isinstance(anchors, memoryview):
            anchors.release()
        view = getattr(self, "_view", None)
        if view is not None:
            view.release()
            self._view = None
            self._anchors = None
        mm = getattr(self, "_mm", None)
        if mm is not None:
            try:
                mm.close()
            except BufferError:  # pragma: no cover - views still alive; GC closes it later
                pass
            self._mm = None
        f = getattr(self, "_f", None)
        if f is not None:
            f.close()
            self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):  # a file dropped from a cache closes when its last reader lets it go
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass

    # ------------------------------------------------------------------ blocks
    def _decompress(self, data: bytes) -> bytes:
        d = getattr(self._dctx, "d", None)
        if d is None:
            d = self._dctx.d = zstd.ZstdDecompressor()
        try:
            return d.decompress(data)
        except zstd.ZstdError as exc:
            raise self._bad(f"damaged block ({exc})") from None

    def _span(self, name: str, k: int):
        at, nb, _, _ = self._sec[name]
        a, b = _U64x2.unpack_from(self._mm, at + 8 * k)
        if not at + 8 * (nb + 1) <= a < b <= len(self._mm) - TRAILER:
            raise self._bad(f"{name} offset table is damaged at block {k}")
        return a, b

    def offsets(self, name: str) -> np.ndarray:
        """The whole offset table of a section (for bulk reads and checks)."""
        at, nb, _, _ = self._sec[name]
        offs = np.frombuffer(self._mm, dtype="<u8", count=nb + 1, offset=at).astype(np.int64)
        if nb and np.any(np.diff(offs) <= 0):
            raise self._bad(f"{name} offset table is damaged")
        return offs

    def _block(self, name: str, k: int) -> bytes:
        """Block k of a section, decompressed. Recent blocks are kept until the cache is full,
        then it starts over (each dict operation is atomic, so threads need no lock; at worst
        two of them decompress the same block)."""
        key = (name, k)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if self._view is None:
            raise ValueError(f"{self.path} is closed")
        a, b = self._span(name, k)
        raw = self._decompress(self._view[a:b])
        if len(self._cache) >= self._cache_blocks:
            self._cache.clear()
        self._cache[key] = raw
        return raw

    def value(self, i: int) -> int:
        """Value code of slot i: 0 draw, 1 win, 2 loss."""
        if not 0 <= i < self.slots:
            raise IndexError(i)
        per = self._sec["wdl"][2]
        raw = self._block("wdl", i // per)
        j = i % per
        return (raw[j >> 2] >> (2 * (j & 3))) & 3

    def value_dtc(self, i: int):
        """(value code, dtc) of slot i; reads the distance block only for wins and losses.
        (``value`` and ``dtc`` written out in one body: this is every probe's hot path.)"""
        if not 0 <= i < self.slots:
            raise IndexError(i)
        wper = self._sec["wdl"][2]
        raw = self._block("wdl", i // wper)
        j = i % wper
        v = (raw[j >> 2] >> (2 * (j & 3))) & 3
        if v == DRAW:
            return v, None
        _, _, per, codec = self._sec["dtc"]
        if codec == "ones":
            return v, 1
        raw = self._block("dtc", i // per)
        j = i % per
        return v, (raw[2 * j] | (raw[2 * j + 1] << 8)) if codec == "uint16" else raw[j]

    def dtc(self, i: int) -> int:
        if not 0 <= i < self.slots:
            raise IndexError(i)
        _, _, per, codec = self._sec["dtc"]
        if codec == "ones":
            return int(self.value(i) != DRAW)
        raw = self._block("dtc", i // per)
        j = i % per
        if codec == "uint16":
            return raw[2 * j] | (raw[2 * j + 1] << 8)
        return raw[j]

    def distance(self, name: str, i: int, values: "TableFile | None" = None) -> int:
        """Slot i of a distance or byte section (``dtc``, ``dtw``, ``dv``, ``dd``; uint8 or
        uint16). A selected section (:class:`Selection`) needs ``values``, the values file
        beside it: a slot it does not select holds 0, but a win's in a pruned dtw section
        (``lost``), which raises :class:`DerivedEntryError`."""
        if not 0 <= i < self.slots:
            raise IndexError(i)
        _, _, per, codec = self._sec[name]
        sel = self._selected.get(name)
        j = i % per
        if sel is not None:
            if values is None:
                raise ValueError(f"{self.path}: the {name} section needs the values file to be read")
            v = values.value(i)
            if not _selected_code(v, sel.select):
                if v == WIN and sel.select == "lost":
                    raise DerivedEntryError(f"{self.path}: slot {i} is a win, whose {name} this "
                                            "file does not keep (it keeps the losses')")
                return 0
            j = values.count_selected(i - j, i, sel.select)
        raw = self._block(name, i // per)
        if (j + 1) * (2 if codec == "uint16" else 1) > len(raw):
            raise self._bad(f"{name} block {i // per} holds fewer entries than the values file selects")
        x = (raw[2 * j] | (raw[2 * j + 1] << 8)) if codec == "uint16" else raw[j]
        if sel is not None and sel.halved:
            return 2 * x + (v == WIN)
        return x

    def count_selected(self, lo: int, hi: int, select: str) -> int:
        """How many slots of [lo, hi) a selection keeps (``decided``, ``drawn``, ``lost``), from
        the value plane of this (values) file."""
        per = self._sec["wdl"][2]
        table = _KEPT_IN_BYTE[select]
        n = 0
        while lo < hi:
            k = lo // per
            raw = self._block("wdl", k)
            a, b = lo - k * per, min(hi, (k + 1) * per) - k * per
            lo += b - a
            while a < b and a & 3:  # to a byte boundary
                n += _selected_code((raw[a >> 2] >> (2 * (a & 3))) & 3, select)
                a += 1
            full = (b - a) >> 2
            if full:
                n += int(table[np.frombuffer(raw, np.uint8, full, a >> 2)].sum())
                a += 4 * full
            while a < b:
                n += _selected_code((raw[a >> 2] >> (2 * (a & 3))) & 3, select)
                a += 1
        return n

    def selection(self, name: str) -> Selection | None:
        """The :class:`Selection` of a section (None where it stores every slot)."""
        return self._selected.get(name)

    def pruned(self, name: str = "dtw") -> bool:
        """Whether a section keeps the losses only (a win's entry is derived: DerivedEntryError)."""
        sel = self._selected.get(name)
        return sel is not None and sel.select == "lost"

    def selected_plane(self, name: str, values: np.ndarray, stored_only: bool = False):
        """(plane, halved) of a section: for a halved selected section its entries (dtw // 2,
        uint8 where they fit) put back in their slots, ``halved`` True, for half the memory of
        the distances; else the distances (:meth:`distance_all`) and False."""
        sel = self._selected.get(name)
        if sel is None or not sel.halved:
            return self.distance_all(name, values, stored_only=stored_only), False
        return self.distance_all(name, values, raw=True, stored_only=stored_only), True

    def distance_all(self, name: str, values: np.ndarray | None = None, raw: bool = False,
                     stored_only: bool = False, out: np.ndarray | None = None) -> np.ndarray:
        """A whole distance or byte section (``dtc``, ``dtw``, ``dv``, ``dd``) of codec uint8 or
        uint16 (a ``dtc`` of codec ``ones``: the distances its values imply); a selected section
        needs ``values``, the value codes of the values file beside it (``values_all``), and is
        uint16 where halved (``raw``: the halved entries as stored).
        A pruned section (``lost``) raises :class:`DerivedEntryError` unless ``stored_only``,
        which reads its wins as 0 (the caller derives them: ``solving.prune.read_full_dtw``).
        ``out``: where the plane goes (a 1-d array of a slot each, strided or not: a lane of a
        sweep's side plane), returned; else a new array."""
        if self.pruned(name) and not stored_only:
            raise DerivedEntryError(f"{self.path}: the {name} section keeps the losses only; a "
                                    "whole plane derives the wins' from the children's files")
        codec = self._sec[name][3]
        if out is not None and (out.ndim != 1 or len(out) != self.slots):
            raise ValueError(f"{self.path}: {name} goes into {len(out)} slots, the file has {self.slots}")
        if codec == "ones":  # (no blocks: the values imply the distances)
            return placed_in(out, self.dtc_all())
        dtype = "<u2" if codec == "uint16" else np.uint8
        sel = self._selected.get(name)
        if sel is None:
            plane = np.empty(self.slots, dtype=dtype)
            self.bulk_into(name, plane)
            return placed_in(out, plane)
        if values is None or len(values) != self.slots:
            raise ValueError(f"{self.path}: the {name} section needs the values file's value codes to be read")
        from ..kernels.pack import expand_selected, select_count  # (lazy: imports numba)

        values = np.ascontiguousarray(values, dtype=np.uint8)
        keep = KEEP[sel.select]
        counts = np.zeros(-(-self.slots // SELECT_BLOCK), dtype=np.int64)
        select_count(values, keep, SELECT_BLOCK, counts)  # each block's entries
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        kept = np.empty(int(counts.sum()), dtype=dtype)
        self.bulk_into(name, kept, starts * kept.itemsize)
        halve = sel.halved and not raw
        if out is None:
            out = np.empty(self.slots, dtype=np.uint16 if halve else dtype)
        expand_selected(values, keep, halve, kept, SELECT_BLOCK, starts, out)
        return out

    def curse(self, i: int) -> int:
        """Curse code of slot i (files of rules with a no-removal limit): 1 cursed win, 2 blessed
        loss, 0 otherwise (0 in files without the section)."""
        if not 0 <= i < self.slots:
            raise IndexError(i)
        if "curse" not in self._sec:
            return 0
        per = self._sec["curse"][2]
        raw = self._block("curse", i // per)
        j = i % per
        return (raw[j >> 2] >> (2 * (j & 3))) & 3

    def curse_all(self) -> np.ndarray:
        """The whole curse plane (zeros in files without one)."""
        if "curse" not in self._sec:
            return np.zeros(self.slots, dtype=np.uint8)
        return unpack_2bit(self._bulk("curse"), self.slots)

    def values_all(self) -> np.ndarray:
        """The whole value plane (codes 0 draw, 1 win, 2 loss; unused slots hold a neighbour's)."""
        return unpack_2bit(self.wdl_packed(), self.slots)

    def _advise(self, advice_name: str):
        advice = getattr(mmap, advice_name, None)
        if advice is not None and hasattr(self._mm, "madvise"):
            self._mm.madvise(advice)

    def _section_bytes(self, name: str) -> int:
        codec = self._sec[name][3]
        width = 2 if codec == "uint16" else 1
        return (self.slots + 3) // 4 if codec == "2bit" else self.slots * width

    def bulk_into(self, name: str, out, block_starts=None) -> None:
        """Decompress every block of a section into ``out`` (a writable buffer of exactly the
        section's size; for a selected section, of its selected slots), frame after frame with
        no intermediate copy (read ahead while doing it). A large section is cut into runs of
        blocks, one per thread (zstd lets go of the GIL), each run decompressed into its own
        part of ``out``; a selected section's parts need ``block_starts`` (where each block's
        bytes begin in ``out``), else it is read in one run. A damaged block raises
        :class:`CorruptDatabaseError`."""
        offs = self.offsets(name)
        mv = memoryview(out).cast("B")
        if name not in self._selected and len(mv) != self._section_bytes(name):
            raise ValueError(f"{name}: {len(mv)} bytes given, the section holds {self._section_bytes(name)}")
        nb = len(offs) - 1
        runs = [(0, nb)]  # (one run reads no block start)
        if len(mv) >= BULK_SPLIT:
            if name not in self._selected:
                block_starts = np.minimum(np.arange(nb, dtype=np.int64) * self._block_bytes(name),
                                          len(mv))
            if block_starts is not None:
                threads = max(1, min(os.cpu_count() or 1, len(mv) // BULK_SPLIT, nb))
                runs = [(nb * t // threads, nb * (t + 1) // threads) for t in range(threads)]

        def bounds(a, b):  # (its bytes in the file, its part of ``out``) of blocks [a, b)
            lo = int(block_starts[a]) if a else 0
            hi = int(block_starts[b]) if b < nb else len(mv)
            return self._view[int(offs[a]): int(offs[b])], mv[lo:hi]

        self._advise("MADV_SEQUENTIAL")
        try:
            selected = name in self._selected
            run_tasks(len(runs), lambda t: _decompress_run(*bounds(*runs[t]), selected, self._bad,
                                                            name), len(runs))  # (one: on this thread)
        finally:
            self._advise("MADV_RANDOM")

    def _block_bytes(self, name: str) -> int:
        """The bytes of one whole block of a section that is not selected."""
        per, codec = self._sec[name][2], self._sec[name][3]
        return per // 4 if codec == "2bit" else per * (2 if codec == "uint16" else 1)

    def _bulk(self, name: str) -> bytearray:
        """Every block of a section, decompressed and joined."""
        out = bytearray(self._section_bytes(name))
        self.bulk_into(name, out)
        return out

    def wdl_packed(self) -> bytes:
        """The value plane as stored: 4 slots per byte (blocks decompressed and joined)."""
        return self._bulk("wdl")

    def dtc_all(self) -> np.ndarray:
        codec = self._sec["dtc"][3]
        if codec == "ones":
            return (self.values_all() != DRAW).astype(np.uint8)
        out = np.empty(self.slots, dtype="<u2" if codec == "uint16" else np.uint8)
        self.bulk_into("dtc", out)
        return out

    @property
    def anchors(self):
        """The sorted anchor representatives: a sequence of ints read in place from the file
        (binary search over it touches a handful of pages)."""
        if self._anchors is None:
            sec = self.header["sections"]["anchors"]
            count = int(sec["count"])
            if sec["length"] != 4 * count or sec["offset"] + sec["length"] > len(self._mm):
                raise self._bad("anchor table is damaged")
            table = np.frombuffer(self._mm, dtype="<u4", count=count, offset=sec["offset"])
            self._check_anchors(table)
            if sys.byteorder == "little":
                self._anchors = memoryview(self._mm)[sec["offset"] : sec["offset"] + sec["length"]].cast("I")
            else:  # pragma: no cover - big-endian hosts read a converted copy
                self._anchors = table.astype(np.int64).tolist()
        return self._anchors

    def _check_anchors(self, table) -> None:
        """The anchor table must be strictly increasing and the header's fence every FENCE-th
        entry of it (a fence or an offset that disagrees would send lookups to the wrong
        slots): checked once, when a lookup first needs them."""
        if len(table) > 1 and not bool(np.all(table[1:] > table[:-1])):
            raise self._bad("anchor table is not in increasing order (a damaged table or offset)")
        fence = self.header.get("anchor_fence")
        if fence is not None and [int(a) for a in table[::FENCE]] != fence:
            raise self._bad("the header's anchor fence does not match the anchor table")

    def orbit_of(self, rep: int) -> int:
        """Position of an anchor representative in the anchor table, or -1. Bisects the fence
        in the header, then one page of the table."""
        anchors = self.anchors
        fence = self.header.get("anchor_fence")
        lo, hi = 0, len(anchors)
        if fence:
            b = bisect.bisect_right(fence, rep) - 1
            if b < 0:
                return -1
            lo, hi = b * FENCE, min(len(anchors), (b + 1) * FENCE)
        i = bisect.bisect_left(anchors, rep, lo, hi)
        return i if i < hi and anchors[i] == rep else -1

    def checksum_ok(self) -> bool:
        """Whether the trailer is intact and its BLAKE2b digest matches the file's bytes (reads
        the whole file)."""
        size = len(self._mm)
        if bytes(self._mm[size - 8 :]) != END_MAGIC:
            return False
        h = hashlib.blake2b(digest_size=32)
        step = 1 << 24
        self._advise("MADV_SEQUENTIAL")
        try:
            for a in range(0, size - TRAILER, step):
                h.update(self._mm[a : min(a + step, size - TRAILER)])
        finally:
            self._advise("MADV_RANDOM")
        return h.digest() == bytes(self._mm[size - TRAILER : size - 8])


def placed_in(out, plane):
    """``plane``, or ``out`` with ``plane`` copied into it where ``out`` is given (a reader's
    ``out=`` argument: ``TableFile.distance_all``, ``prune.read_full_dtw``)."""
    if out is None:
        return plane
    out[:] = plane
    return out


def check_file(path, expect: dict | None = None) -> str | None:
    """None when the file is complete and its checksum matches, its anchor table agrees with
    the header, and its header holds the fields ``expect`` (a missing ``kind`` reads as
    ``values``); else what is wrong."""
    try:
        with TableFile(path) as tf:
            wrong = header_mismatch(tf.header, expect or {})
            if wrong:
                return f"{path}: {wrong}"
            if not tf.checksum_ok():
                return f"{path}: checksum mismatch"
            tf.anchors  # (the anchor table against its fence and order: TableFile._check_anchors)
    except FileNotFoundError:
        return f"{path}: missing"
    except CorruptDatabaseError as exc:
        return str(exc)
    return None


def header_mismatch(header: dict, expect: dict) -> str | None:
    """What differs between a header and the fields ``expect`` (None when nothing does); a
    header without ``kind`` is a values file's."""
    for k, want in expect.items():
        got = header.get(k, "values" if k == "kind" else None)
        if got != want:
            return f"holds {k} {got!r}, not {want!r}"
    return None
