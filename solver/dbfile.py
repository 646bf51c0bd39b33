"""On-disk format of one subspace's database (see docs/format.md).

Layout (little-endian)::

    0    8   magic b"MORRISTB"
    8    4   format version (1)
    12   4   header length H
    16   4   CRC-32 of the header bytes
    20   4   reserved, 0
    24   H   header: UTF-8 JSON with sorted keys (rules, subspace, hash, counts, sections)
    ...      sections at 8-aligned offsets named in the header:
             anchors  zstd frame of the anchor representatives (uint32, sorted)
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
import hashlib
import json
import mmap
import os
import socket
import struct
import sys
import threading
import zlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import zstandard as zstd

from .codes import DRAW
from .errors import CorruptDatabaseError

MAGIC = b"MORRISTB"
END_MAGIC = b"MTBEND\0\0"
VERSION = 1
PREFIX = struct.Struct("<8sIIII")
TRAILER = 40
SUFFIX = ".mtb"
TMP_MARK = ".tmp-"

WDL_BLOCK = 1 << 14  # slots per value block (4 KiB packed): one probe decompresses ~6 us
DTC_BLOCK = 1 << 11  # slots per distance block (2 KiB as uint8): ~3 us
FENCE = 1024  # every FENCE-th anchor is repeated in the header, so a lookup touches one page
WDL_LEVEL = 12
DTC_LEVEL = 9

_U64x2 = struct.Struct("<QQ")


def _align(x: int) -> int:
    return (x + 7) & ~7


def plane_stats(values: np.ndarray, dtc: np.ndarray) -> dict:
    """Counts of used slots, wins and losses, and the longest win and loss."""
    from .kernels.pack import plane_stats as kernel

    out = np.zeros((64, 5), dtype=np.int64)
    kernel(values, dtc, 64, out)
    return {
        "positions": int(out[:, 0].sum()), "wins": int(out[:, 1].sum()), "losses": int(out[:, 2].sum()),
        "max_win_dtc": int(out[:, 3].max()), "max_loss_dtc": int(out[:, 4].max()),
    }


def unpack_2bit(packed, n: int) -> np.ndarray:
    from .kernels.pack import unpack

    p = np.frombuffer(packed, dtype=np.uint8)
    out = np.empty(n, dtype=np.uint8)
    unpack(p, n, out)
    return out


def _compress_blocks(chunks, level, threads=None):
    local = threading.local()

    def work(chunk):
        c = getattr(local, "c", None)
        if c is None:
            c = local.c = zstd.ZstdCompressor(level=level, write_checksum=True, write_content_size=True)
        return c.compress(chunk)

    threads = threads or (os.cpu_count() or 1)
    if len(chunks) < 4 or threads == 1:
        return [work(c) for c in chunks]
    with ThreadPoolExecutor(threads) as ex:
        return list(ex.map(work, chunks, chunksize=16))


def write_table(path, header: dict, values: np.ndarray, dtc: np.ndarray, anchors: np.ndarray,
                curse: np.ndarray | None = None):
    """Write one subspace atomically. ``values``: codes 0 draw, 1 win, 2 loss, 3 unused;
    ``dtc``: distances (0 for draws); ``anchors``: the anchor representatives; ``curse``
    (rules with a no-removal limit): 1 cursed win, 2 blessed loss, else 0 (limits.py)."""
    from .kernels.pack import fill_and_pack, pack2

    values = np.ascontiguousarray(values, dtype=np.uint8)
    dtc = np.ascontiguousarray(dtc)
    slots = len(values)
    wide = int(dtc.max(initial=0)) > 255
    dtc_arr = np.empty(slots, dtype=np.uint16 if wide else np.uint8)
    packed = np.zeros((slots + 3) // 4, dtype=np.uint8)
    assert WDL_BLOCK % DTC_BLOCK == 0 and DTC_BLOCK % 4 == 0
    fill_and_pack(values, dtc, DTC_BLOCK, packed, dtc_arr)
    # distances that the values imply (1 for every win and loss, 0 for draws: the last
    # placement of a side, where every move ends placement) are not stored: codec "ones"
    ones = not wide and bool(np.array_equal(dtc_arr, unpack_2bit(packed.tobytes(), slots) != DRAW))
    mv_p = memoryview(packed)
    mv_d = memoryview(dtc_arr).cast("B")
    width = dtc_arr.itemsize
    wdl_chunks = [mv_p[i : i + WDL_BLOCK // 4] for i in range(0, len(packed), WDL_BLOCK // 4)]
    dtc_chunks = [mv_d[i : i + DTC_BLOCK * width] for i in range(0, slots * width, DTC_BLOCK * width)]
    wdl_blocks = _compress_blocks(wdl_chunks, WDL_LEVEL)
    dtc_blocks = [] if ones else _compress_blocks(dtc_chunks, DTC_LEVEL)
    sections_written = [("wdl", wdl_blocks, WDL_BLOCK, "2bit"),
                        ("dtc", dtc_blocks, DTC_BLOCK, "ones" if ones else ("uint16" if wide else "uint8"))]
    if curse is not None:
        cpacked = np.zeros((slots + 3) // 4, dtype=np.uint8)
        pack2(np.ascontiguousarray(curse, dtype=np.uint8), cpacked)
        mv_c = memoryview(cpacked)
        curse_blocks = _compress_blocks(
            [mv_c[i : i + WDL_BLOCK // 4] for i in range(0, len(cpacked), WDL_BLOCK // 4)], WDL_LEVEL)
        sections_written.append(("curse", curse_blocks, WDL_BLOCK, "2bit"))
    # stored plain, so a reader can binary-search it in place (a few hundred KB at most)
    anchor_blob = np.asarray(anchors, dtype="<u4").tobytes()

    def layout(start):
        out = {}
        pos = _align(start)
        out["anchors"] = {"offset": pos, "length": len(anchor_blob), "count": int(len(anchors)),
                          "dtype": "uint32le"}
        pos = _align(pos + len(anchor_blob))
        for name, blocks, per, codec in sections_written:
            table_at = pos
            pos = table_at + 8 * (len(blocks) + 1)
            offsets = [pos]
            for b in blocks:
                pos += len(b)
                offsets.append(pos)
            out[name] = {"offset_table": table_at, "nblocks": len(blocks), "block_slots": per,
                         "codec": codec, "_offsets": offsets}
            pos = _align(pos)
        return out, pos

    hdr = dict(header)
    hdr["slots"] = int(slots)
    hdr["anchor_fence"] = [int(a) for a in np.asarray(anchors)[::FENCE]]
    # two passes: the header's own length moves the sections
    sections, end = layout(PREFIX.size + 4096)
    for _ in range(3):
        public = {k: {kk: vv for kk, vv in v.items() if not kk.startswith("_")} for k, v in sections.items()}
        hdr["sections"] = public
        hdr["file_size"] = end + TRAILER
        blob = json.dumps(hdr, sort_keys=True, separators=(",", ":")).encode()
        new_sections, new_end = layout(PREFIX.size + len(blob))
        if new_end == end and new_sections == sections:
            break
        sections, end = new_sections, new_end
    else:  # pragma: no cover - converges in two passes
        raise RuntimeError("header layout did not converge")

    tmp = f"{path}{TMP_MARK}{socket.gethostname()}-{os.getpid()}"
    digest = hashlib.blake2b(digest_size=32)
    with open(tmp, "wb") as f:
        def put(data):
            f.write(data)
            digest.update(data)

        put(PREFIX.pack(MAGIC, VERSION, len(blob), zlib.crc32(blob), 0))
        put(blob)
        pos = PREFIX.size + len(blob)

        def pad_to(target):
            nonlocal pos
            if target > pos:
                put(b"\0" * (target - pos))
                pos = target

        pad_to(sections["anchors"]["offset"])
        put(anchor_blob)
        pos += len(anchor_blob)
        for name, blocks, _, _ in sections_written:
            sec = sections[name]
            pad_to(sec["offset_table"])
            table = np.array(sec["_offsets"], dtype="<u8").tobytes()
            put(table)
            pos += len(table)
            for b in blocks:
                put(b)
                pos += len(b)
        pad_to(end)
        f.write(digest.digest() + END_MAGIC)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(os.path.dirname(os.path.abspath(path)))
    return hdr


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


class TableFile:
    """One subspace file, read at random through mmap. Thread-safe: mmap reads need no lock,
    each thread has its own zstd decompressor, and the block cache changes only by single
    (atomic) dict operations."""

    def __init__(self, path, cache_blocks: int = 256):
        self.path = str(path)
        try:
            self._f = open(self.path, "rb")
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise CorruptDatabaseError(f"{self.path}: cannot open ({exc})") from None
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
            if version != VERSION:
                raise self._bad(f"format version {version}; this toolkit reads version {VERSION}")
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
            self.slots = int(self.header["slots"])
            self._sec = {}
            for name in ("wdl", "dtc", "curse"):
                if name == "curse" and name not in self.header["sections"]:
                    continue  # only files of rules with a no-removal limit have it
                sec = self.header["sections"][name]
                nb = int(sec["nblocks"])
                at = int(sec["offset_table"])
                if at + 8 * (nb + 1) > size - TRAILER:
                    raise self._bad(f"{name} offset table lies past the end")
                # entries are checked where they are read (_span); offsets() checks them all
                # (table offset, blocks, slots per block, codec); entries are read when needed
                self._sec[name] = (at, nb, int(sec["block_slots"]), sec["codec"])
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

    def _bad(self, why):
        return CorruptDatabaseError(f"{self.path}: {why}")

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

    def bulk_into(self, name: str, out) -> None:
        """Decompress every block of a section into ``out`` (a writable buffer of exactly the
        section's size), frame after frame with no intermediate copy (read ahead while doing
        it). A damaged block raises :class:`CorruptDatabaseError`."""
        offs = self.offsets(name)
        mv = memoryview(out).cast("B")
        if len(mv) != self._section_bytes(name):
            raise ValueError(f"{name}: {len(mv)} bytes given, the section holds {self._section_bytes(name)}")
        self._advise("MADV_SEQUENTIAL")
        try:
            reader = zstd.ZstdDecompressor().stream_reader(
                self._view[int(offs[0]) : int(offs[-1])], read_across_frames=True, read_size=1 << 20)
            got = 0
            while got < len(mv):
                k = reader.readinto(mv[got:])
                if k == 0:
                    break
                got += k
        except zstd.ZstdError as exc:
            raise self._bad(f"damaged {name} block ({exc})") from None
        finally:
            self._advise("MADV_RANDOM")
        if got != len(mv):
            raise self._bad(f"{name} section decompresses to {got} bytes, not {len(mv)}")

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
            if sys.byteorder == "little":
                self._anchors = memoryview(self._mm)[sec["offset"] : sec["offset"] + sec["length"]].cast("I")
            else:  # pragma: no cover - big-endian hosts read a converted copy
                raw = self._mm[sec["offset"] : sec["offset"] + sec["length"]]
                self._anchors = np.frombuffer(raw, dtype="<u4").astype(np.int64).tolist()
        return self._anchors

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


def check_file(path) -> str | None:
    """None when the file is complete and its checksum matches; else what is wrong."""
    try:
        with TableFile(path) as tf:
            if not tf.checksum_ok():
                return f"{path}: checksum mismatch"
    except FileNotFoundError:
        return f"{path}: missing"
    except CorruptDatabaseError as exc:
        return str(exc)
    return None


# ---------------------------------------------------------------------------- the database layer
#: the perfect hash the files are indexed by (index.py)
HASH_SCHEME = "anchor-orbit-colex-v1"


def ruleset_dir(out, variant) -> str:
    """Where the files of a variant's rules live under a database directory."""
    return os.path.join(os.fspath(out), variant.ruleset_id)


def table_path(out, variant, sub) -> str:
    """The file of one subspace: ``OUT/<ruleset>/<subspace>.mtb``."""
    return os.path.join(ruleset_dir(out, variant), sub.name + SUFFIX)


def ruleset_fields(variant) -> dict:
    """The header fields that must match for a file to serve a variant's positions."""
    out = {
        "ruleset": variant.ruleset_id,
        "board": variant.board.name,
        "flying": variant.rules.flying,
        "double_mill_removes": variant.rules.double_mill_removes,
        "no_removal_limit": variant.rules.no_removal_limit,
    }
    if variant.rules.endgame_no_removal_limit is not None:  # (files before it existed lack it)
        out["endgame_no_removal_limit"] = variant.rules.endgame_no_removal_limit
    return out


def table_header(variant, sub, hasher, values, dtc, curse_counts=None) -> dict:
    """The header of a subspace's file, checked against the Burnside count of its positions.
    ``curse_counts``: (cursed wins, blessed losses), for rules with a no-removal limit."""
    from .index import count_positions
    from .version import __version__

    board = variant.board
    st = plane_stats(values, dtc)
    positions = st["positions"]
    hdr = ruleset_fields(variant)
    hdr.update(
        format="morris-tablebase",
        generator=f"morris-solver {__version__}",
        points=list(board.points),
        symmetries=len(board.symmetries),
        symmetry_perms=[list(p) for p in board.symmetries.perms],
        subspace=sub.name,
        phase="placement" if sub.placement else "movement",
        m=sub.m, o=sub.o, hm=sub.hm, ho=sub.ho,
        hash={"scheme": HASH_SCHEME, "anchor": "opponent", "orbits": int(len(hasher.anchor_reps(sub.o)))},
        positions=positions,
        wins=st["wins"],
        losses=st["losses"],
        draws=positions - st["wins"] - st["losses"],
        max_win_dtc=st["max_win_dtc"],
        max_loss_dtc=st["max_loss_dtc"],
        distance="dtc-placement" if sub.placement else "dtc",
    )
    if variant.limited:
        hdr["limit"] = None if sub.placement else variant.rules.limit_of(sub.m, sub.o)
        hdr["cursed_wins"], hdr["blessed_losses"] = (int(x) for x in curse_counts)
    expected = count_positions(board, sub.m, sub.o)
    if positions != expected:
        raise RuntimeError(f"{sub}: {positions} used slots, Burnside counts {expected}")
    return hdr


def read_planes(path, with_dtc: bool = True):
    """(values, distances) of a whole file, the distances as uint8 where they fit (``None``
    without ``with_dtc``): the one loader of whole planes."""
    with TableFile(path) as tf:
        return tf.values_all(), (tf.dtc_all() if with_dtc else None)
