"""What a file's header must say: every field's type and range, the fields that depend on each
other, on the board and on the rules, and where the sections lie (docs/format.md, "Header").

:func:`check_header` is the one check of a header that ``TableFile`` makes when it opens a file,
so every consumer (the lookups, a resume, verify, stats, the server, the engine, annotate, the
shipped books) refuses the same files: a file the toolkit did not write is named as damaged
before any of its values is read. What the header cannot say (the planes themselves) is checked
where it is read: each block's zstd checksum and size, and by ``morris verify``.

The fields a header must hold are derived again from the ones that name them (the board, the
rules, the subspace), as the writer derives them (``database/folders.header``), and compared
with their type: ``1`` is not ``true`` and ``1.0`` is not ``1``.
"""

from __future__ import annotations

import math

from ..core.errors import UnknownVariantError
from ..core.variants import BOARDS, RULE_FIELDS, Rules, Variant

#: the hash every file is written with (docs/format.md, "The perfect hash")
HASH_SCHEME = "anchor-orbit-colex-v1"
HASH_ANCHOR = "opponent"
FORMAT = "morris-tablebase"
#: every FENCE-th anchor is repeated in the header (fileformat.FENCE)
FENCE = 1024

#: the fields that name the rules: the ruleset and board, the rule fields every header has, and
#: those stated only where they differ from the default (each field's declaration, rulefields.py)
RULES = ("ruleset", "board") + tuple(f.name for f in RULE_FIELDS if f.header == "always")
RULES_WHERE_SET = tuple(f.name for f in RULE_FIELDS if f.header == "set")
COMMON = ("format", "points", "subspace", "phase", "m", "o", "hm", "ho", "positions", "slots",
          "anchor_fence", "file_size", "sections", "distance")
#: each kind's own fields (a values file of rules with a no-removal limit adds LIMITED)
OWN = {
    "values": ("symmetries", "symmetry_perms", "hash", "wins", "draws", "losses", "max_win_dtc",
               "max_loss_dtc"),
    "dtw": ("kind", "max_win_dtw", "max_loss_dtw", "max_win_dtw_slot", "max_loss_dtw_slot"),
    "draw": ("kind", "rank", "draw_values", "max_draw_distance"),
}
LIMITED = ("limit", "cursed_wins", "blessed_losses")
#: fields a header may hold or not: the writing program, a values file's (unwritten) kind
OPTIONAL = ("generator", "kind")

#: each kind's sections besides ``anchors``, in the order they lie in the file, with the slots
#: per block and the codecs the writer uses (fileformat.WDL_BLOCK, DTC_BLOCK, SELECT_BLOCK)
SECTIONS = {
    "values": {"wdl": (16384, ("2bit",)), "dtc": (2048, ("uint8", "uint16", "ones"))},
    "dtw": {"dtw": (4096, ("uint8", "uint16"))},
    "draw": {"dv": (4096, ("uint8",)), "dd": (4096, ("uint8", "uint16"))},
}
CURSE = (16384, ("2bit",))
ANCHOR_KEYS = {"count", "dtype", "length", "offset"}
PLAIN_KEYS = {"block_slots", "codec", "nblocks", "offset_table"}
SELECTED_KEYS = PLAIN_KEYS | {"select", "halved"}
#: the selections each selected section may have (fileformat.READ_SELECTIONS)
SELECTS = {"dtw": ("decided", "lost"), "dv": ("drawn",), "dd": ("drawn",)}
#: the largest distance a codec holds
WIDTH = {"uint8": 255, "uint16": 65535, "ones": 1, "2bit": 3}
#: the range of a draw value (docs/draws.md: settlement ranks -100 .. 100)
DRAW_VALUE = 100


class HeaderError(ValueError):
    """What is wrong with a header, in words (TableFile names the file)."""


def _int(h: dict, key: str, lo: int = 0, hi: int = 1 << 62, where: str = "") -> int:
    v = h.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise HeaderError(f"{where}{key} is {v!r}, not a whole number from {lo} to {hi}")
    return v


def _same(key: str, got, want) -> None:
    """``got`` is ``want``, type for type (JSON's true is not 1, 1.0 is not 1)."""
    if not _identical(got, want):
        raise HeaderError(f"{key} is {got!r}; a file of this board, rules and subspace has {want!r}")


def _identical(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_identical(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b))
    return a == b


def kind_of(h: dict) -> str:
    kind = h.get("kind", "values")
    if kind not in OWN:
        raise HeaderError(f"a file of kind {kind!r}; this toolkit reads {', '.join(OWN)}")
    return kind


def check_header(h: dict, size: int, version: int, hlen: int, read_u64) -> None:
    """Raise :class:`HeaderError` unless ``h`` is a header this toolkit writes for a file of
    ``size`` bytes, format ``version``, whose header takes ``hlen`` bytes; ``read_u64(offset)``
    reads one entry of an offset table (where the sections' blocks begin and end)."""
    if not isinstance(h, dict):
        raise HeaderError("the header is not a JSON object")
    kind = kind_of(h)
    variant, sub = _rules_and_subspace(h)
    limited = variant.limited
    want = set(RULES) | set(COMMON) | set(OWN[kind]) | (set(LIMITED) if limited and kind == "values" else set())
    allowed = want | set(RULES_WHERE_SET) | set(OPTIONAL)
    missing, unknown = sorted(want - set(h)), sorted(set(h) - allowed)
    if missing:
        raise HeaderError(f"no {', '.join(missing)} in a {kind} file's header")
    if unknown:
        raise HeaderError(f"unknown header field{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
    if "generator" in h and not isinstance(h["generator"], str):
        raise HeaderError(f"generator is {h['generator']!r}, not a text")
    if limited and kind != "values":
        raise HeaderError(f"a {kind} file of rules with a no-removal limit (none is written)")
    _check_derived(h, kind, variant, sub)
    _check_counts(h, kind, sub)
    _check_sections(h, kind, limited, size, version, hlen, read_u64)


def _rules_and_subspace(h: dict):
    """The variant and subspace that the header names, each field of the right type; the
    ruleset's name must be the one those rules have."""
    from ..hashing.subspaces import Subspace

    board = BOARDS.get(h.get("board")) if isinstance(h.get("board"), str) else None
    if board is None:
        raise HeaderError(f"board is {h.get('board')!r}; this toolkit knows {', '.join(BOARDS)}")
    values = {}
    for f in RULE_FIELDS:  # each as its declaration says (rulefields.py)
        if f.header == "never":
            continue
        if f.name not in h:
            if f.header == "always":
                raise HeaderError(f"no {f.name} in the header")
            continue
        try:
            values[f.name] = f.check(h[f.name])
        except UnknownVariantError as exc:
            raise HeaderError(str(exc)) from None
        if f.header == "set" and not f.differs(h[f.name]):
            raise HeaderError(f"{f.name} is {h[f.name]!r}: a header states it only where it "
                              f"differs from the default")
    try:
        rules = Rules(pieces=min(12, board.n // 2), **values)
    except (ValueError, TypeError) as exc:
        raise HeaderError(f"rules that cannot be: {exc}") from None
    variant = Variant(board.name, board, rules)
    if h.get("ruleset") != variant.ruleset_id:
        raise HeaderError(f"ruleset is {h.get('ruleset')!r}, but its rules are those of "
                          f"{variant.ruleset_id!r}")
    name = h.get("subspace")
    try:
        sub = Subspace.parse(name) if isinstance(name, str) else None
    except ValueError:
        sub = None
    if sub is None or sub.name != name:
        raise HeaderError(f"subspace is {name!r}, not a subspace's name (such as 3-3 or 4-4+2+2)")
    if max(sub.m + sub.hm, sub.o + sub.ho) > rules.pieces or sub.m + sub.o > board.n:
        raise HeaderError(f"subspace {name} cannot arise on the {board.name} board with "
                          f"{rules.pieces} pieces a side")
    return variant, sub


def _check_derived(h: dict, kind: str, variant, sub) -> None:
    """The fields the board, the rules and the subspace decide, as the writer derives them."""
    from ..hashing.index import count_anchor_orbits, count_positions, slot_count

    board = variant.board
    want = {"format": FORMAT, "points": list(board.points), "phase": "placement" if sub.placement else "movement",
            "m": sub.m, "o": sub.o, "hm": sub.hm, "ho": sub.ho,
            "positions": count_positions(board, sub.m, sub.o), "slots": slot_count(board, sub),
            "distance": {"values": "dtc-placement" if sub.placement else "dtc", "dtw": "dtw",
                         "draw": "draw"}[kind]}
    if kind != "values" or "kind" in h:
        want["kind"] = kind
    if kind == "values":
        want.update(symmetries=len(board.symmetries),
                    symmetry_perms=[list(p) for p in board.symmetries.perms],
                    hash={"anchor": HASH_ANCHOR, "orbits": count_anchor_orbits(board, sub.o),
                          "scheme": HASH_SCHEME})
        if variant.limited:
            want["limit"] = None if sub.placement else variant.rules.limit_of(sub.m, sub.o)
    for key, value in want.items():
        _same(key, h.get(key), value)


def _check_counts(h: dict, kind: str, sub) -> None:
    """The fields the planes decide: of the right type and range, and agreeing with each other."""
    positions, slots = h["positions"], h["slots"]
    if kind == "values":
        w, d, lo = (_int(h, k, 0, positions) for k in ("wins", "draws", "losses"))
        if w + d + lo != positions:
            raise HeaderError(f"wins, draws and losses ({w} + {d} + {lo}) are not the "
                              f"{positions} positions")
        for k, n in (("max_win_dtc", w), ("max_loss_dtc", lo)):
            if _int(h, k, 0, WIDTH["uint16"]) and not n:
                raise HeaderError(f"{k} is {h[k]} in a subspace with no {k[4:-4]}s")
        if w and not h["max_win_dtc"]:
            raise HeaderError("max_win_dtc is 0, but a win is at least 1 ply from its removal")
        if "cursed_wins" in h:
            c, b = _int(h, "cursed_wins", 0, positions), _int(h, "blessed_losses", 0, positions)
            if c + b > d:
                raise HeaderError(f"cursed wins and blessed losses ({c} + {b}) are more than "
                                  f"the {d} draws under the limit")
    elif kind == "dtw":
        for name in ("win", "loss"):
            best = _int(h, f"max_{name}_dtw", 0, WIDTH["uint16"] * 2 + 1)
            slot = h.get(f"max_{name}_dtw_slot")
            if slot is None:
                if best:
                    raise HeaderError(f"max_{name}_dtw is {best} with no slot that has it")
            else:
                _int(h, f"max_{name}_dtw_slot", 0, slots - 1)
            if name == "win" and best and best % 2 == 0 and not sub.placement:
                raise HeaderError(f"max_win_dtw is {best}: a win's dtw is odd in the movement phase")
    else:
        rank = h.get("rank")
        if sub.placement and not h.get("place_or_move"):  # (Lasker's hand pairs have ranks)
            if rank is not None:
                raise HeaderError(f"rank is {rank!r} in a placement subspace (null there)")
        elif rank is not None or not sub.placement:
            _int(h, "rank", -DRAW_VALUE, DRAW_VALUE)
            if not sub.placement and sub.m == sub.o and rank != 0:
                raise HeaderError(f"rank is {rank} in {sub.name}: rank(m, o) = -rank(o, m), so "
                                  f"a pair of equal sides ranks 0")
        dv = h.get("draw_values")
        if not isinstance(dv, dict):
            raise HeaderError(f"draw_values is {dv!r}, not an object")
        total = 0
        for key, count in dv.items():
            try:
                value = int(key)
            except ValueError:
                value = None
            if value is None or str(value) != key or not -DRAW_VALUE <= value <= DRAW_VALUE:
                raise HeaderError(f"draw_values has the draw value {key!r}, not one of "
                                  f"-{DRAW_VALUE} .. {DRAW_VALUE}")
            total += _int(dv, key, 1, positions, "draw_values' ")
        if total > positions:
            raise HeaderError(f"draw_values count {total} draws among {positions} positions")
        _int(h, "max_draw_distance", 0, WIDTH["uint16"])


def _check_sections(h: dict, kind: str, limited: bool, size: int, version: int, hlen: int,
                    read_u64) -> None:
    """The sections: exactly the kind's, each with exactly its fields, of the sizes the header's
    counts give, laid out one after the other as the writer lays them (fileformat._section_layout),
    the last one ending at the trailer."""
    secs = h.get("sections")
    if not isinstance(secs, dict):
        raise HeaderError(f"sections is {secs!r}, not an object")
    own = dict(SECTIONS[kind])
    if limited:
        own["curse"] = CURSE
    names = ["anchors", *own]
    if sorted(secs) != sorted(names):
        raise HeaderError(f"sections {', '.join(sorted(secs)) or 'none'}; a {kind} file has "
                          f"{', '.join(names)}")
    orbits = _anchor_count(h, kind)
    a = secs["anchors"]
    if not isinstance(a, dict) or set(a) != ANCHOR_KEYS:
        raise HeaderError(f"section anchors is {a!r}: it has {', '.join(sorted(ANCHOR_KEYS))}")
    _same("sections.anchors.dtype", a["dtype"], "uint32le")
    _same("sections.anchors.count", a["count"], orbits)
    _same("sections.anchors.length", a["length"], 4 * orbits)
    pos = _align(24 + hlen)
    _same("sections.anchors.offset", a["offset"], pos)
    fence = h.get("anchor_fence")
    if not isinstance(fence, list) or len(fence) != math.ceil(orbits / FENCE) or \
            any(type(x) is not int or x < 0 for x in fence):
        raise HeaderError(f"anchor_fence is not {math.ceil(orbits / FENCE)} whole numbers "
                          f"(every {FENCE}th of {orbits} anchors)")
    pos = _align(pos + 4 * orbits)
    slots, pruned = h["slots"], False
    for name, (per, codecs) in own.items():
        s = secs[name]
        selected = name in SELECTS
        keys = SELECTED_KEYS if selected else PLAIN_KEYS
        if not isinstance(s, dict) or set(s) != keys:
            raise HeaderError(f"section {name} is {s!r}: it has {', '.join(sorted(keys))}")
        where = f"section {name}'s "
        _same(f"sections.{name}.block_slots", s["block_slots"], per)
        if s["codec"] not in codecs:
            raise HeaderError(f"section {name} has codec {s['codec']!r}, not one of {', '.join(codecs)}")
        nb = 0 if s["codec"] == "ones" else math.ceil(slots / per)
        _same(f"sections.{name}.nblocks", s["nblocks"], nb)
        _same(f"sections.{name}.offset_table", s["offset_table"], pos)
        if selected:
            if s["select"] not in SELECTS[name]:
                raise HeaderError(f"section {name} keeps the {s['select']!r} slots, not "
                                  f"{' or '.join(SELECTS[name])}")
            if type(s["halved"]) is not bool or (s["halved"] and name != "dtw"):
                raise HeaderError(f"section {name} has halved {s['halved']!r}")
            if name == "dtw" and not s["halved"] and h["phase"] == "movement":
                raise HeaderError("a movement dtw section is always halved (every win odd, every "
                                  "loss even there): this one is not, which contradicts its values")
            pruned |= s["select"] == "lost"
        _check_codec(h, name, s)
        first = pos + 8 * (nb + 1)
        if first > size - 40:
            raise HeaderError(f"{name} offset table lies past the end")
        if read_u64(pos) != first:
            raise HeaderError(f"{name}'s blocks do not begin after its offset table")
        end = read_u64(pos + 8 * nb)
        if not first <= end <= size - 40:
            raise HeaderError(f"{name}'s blocks end at {end}, outside the file")
        pos = _align(end)
    if pos + 40 != size:
        raise HeaderError(f"the sections end at {pos}, not at the trailer ({size - 40})")
    if (version == 2) != pruned:
        raise HeaderError(f"format version {version} with " + ("no" if version == 2 else "a")
                          + " pruned section")


def _anchor_count(h: dict, kind: str) -> int:
    from ..core.variants import BOARDS
    from ..hashing.index import count_anchor_orbits

    return count_anchor_orbits(BOARDS[h["board"]], h["o"])


def _check_codec(h: dict, name: str, s: dict) -> None:
    """A distance section's codec is the one the writer picks for the header's longest
    distances: 16 bits exactly where one is past 255 (a selected section's entries halved)."""
    codec = s["codec"]
    shift = 1 if s.get("halved") else 0
    if name == "dtc":
        fields = ("max_win_dtc", "max_loss_dtc")
    elif name == "dtw":
        fields = ("max_loss_dtw",) if s["select"] == "lost" else ("max_win_dtw", "max_loss_dtw")
    elif name == "dd":
        fields = ("max_draw_distance",)
    else:
        return
    most = max(h[f] for f in fields) >> shift
    said = f"{' and '.join(fields)} say distances up to {most}" + (" (halved)" if shift else "")
    if (codec == "uint16") != (most > 255) or (codec == "ones" and most > 1):
        raise HeaderError(f"section {name} has codec {codec}, but {said}")


def _align(x: int) -> int:
    return (x + 7) & ~7
