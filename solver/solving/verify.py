"""``morris verify``: checksums, then a forward check of every stored value.

The forward check (kernels/verify.py) recomputes each position's value and distance from the
stored values of the positions its moves lead to, with code that shares nothing with the
retrograde propagation, and reports every disagreement.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from ..core.codes import DV0, LOSS, UNUSED, WIN
from ..core.counting import byte_counts
from ..format.fileformat import TableFile, check_file, longest_of, plane_stats
from ..database.folders import (DRAWS_SUFFIX, DTW_SUFFIX, SUFFIX, beside, file_in, find_tables,
                                misplaced, read_draws, read_planes, sibling_ruleset,
                                stored_values, subspace_of)
from ..core.errors import CorruptDatabaseError, UsageError
from ..hashing.games import game_of
from ..hashing.index import Hasher
from ..core.progress import Reporter
from ..hashing.subspaces import (Subspace, full_board_draws, hand_children, placement_children, reads_file,
                                 removal_child)
from ..core.variants import BOARDS, variant_from_fields
from .curse import compare_unlimited


@dataclass
class FileReport:
    path: str
    subspace: str
    checksum: str = "ok"  # ok | the problem
    checked: int = 0
    positions: int = 0
    mismatches: int = 0
    first_mismatch: str | None = None
    skipped: str | None = None
    #: rules with a no-removal limit: "ok", or why the curse plane was not checked
    curse: str | None = None
    #: "ok", or which statistic the header states that its planes do not hold
    header_stats: str | None = None

    @property
    def ok(self):
        return (self.checksum == "ok" and self.mismatches == 0 and self.skipped is None
                and self.header_stats in (None, "ok"))


@dataclass
class VerifyReport:
    files: list = field(default_factory=list)

    @property
    def ok(self):
        return bool(self.files) and all(f.ok for f in self.files)


#: the kinds of file ``verify(kinds=...)`` forward-checks, by their suffixes
KINDS = {"values": SUFFIX, "dtw": DTW_SUFFIX, "draws": DRAWS_SUFFIX}


def verify(root: str, reporter: Reporter | None = None, forward: bool = True,
           sample: int | None = None, on_file=None, kinds=None,
           subspaces=None) -> VerifyReport:
    """Check every file under ``root``: header and checksum, then (``forward``) every stored
    value from its children. ``sample``: check files of more positions than that on
    a fixed random sample of that many slots instead (the report says how many were checked).
    Applies to movement files too. ``kinds`` (some of :data:`KINDS`; all by default): the
    files whose values are checked forward; every file's header and checksum is checked still
    (the others are the checked ones' inputs). ``subspaces`` (names such as ``9-8`` or
    ``8-8+1+1``; all by default): likewise, only their files are checked forward; a name that
    no file under ``root`` has is refused. ``on_file(FileReport)`` is called once per file
    as soon as its report is final (a failed checksum at once, the others after their forward
    check), so that a long check killed part way has said what it found."""
    kinds = set(KINDS) if kinds is None else set(kinds)
    if not kinds or kinds - set(KINDS):
        raise ValueError(f"kinds of file to check: some of {', '.join(KINDS)} (got "
                         f"{', '.join(sorted(kinds)) or 'none'})")
    rep = reporter or Reporter(quiet=True)
    done = on_file or (lambda fr: None)
    report = VerifyReport()
    by_kind = {k: find_tables(root, suffix) for k, suffix in KINDS.items()}
    paths = [p for k in KINDS for p in by_kind[k]]
    asked = {p for k in kinds for p in by_kind[k]}
    if subspaces is not None:
        asked = _of_subspaces(root, asked, paths, subspaces, kinds)
    headers = {}
    with rep.bar(total=len(paths), desc="headers and checksums", unit="file") as bar:
        for path in paths:
            fr = _check_one(path, headers)
            report.files.append(fr)
            if not forward or path not in headers or path not in asked:
                done(fr)
            bar.update(1)
    if not forward:
        return report
    headers = {p: h for p, h in headers.items() if p in asked}
    # one bar over the files (loading a file's children takes most of the time), and each
    # file's own bar below it
    inner = rep.below()
    with rep.bar(total=len(headers), desc="forward checks", unit="file") as bar:
        for fr in report.files:
            if fr.path in headers:
                _forward_one(fr, headers[fr.path], inner, sample)
                done(fr)
                bar.update(1)
    return report


def _of_subspaces(root, asked, paths, names, kinds):
    """The files of ``asked`` whose subspace is one of ``names``; a name that is not a subspace's,
    or that no file of ``paths`` (of the ``kinds`` asked) has, is refused by name."""
    wanted = {Subspace.parse(str(n).strip()).name for n in names}
    if not wanted:
        raise UsageError("subspaces to check: give at least one name (e.g. 9-8 or 8-8+1+1)")
    missing = sorted(wanted - {subspace_of(p) for p in paths})
    if missing:
        raise UsageError(f"no file of subspace {', '.join(missing)} under {root}")
    kept = {p for p in asked if subspace_of(p) in wanted}
    missing = sorted(wanted - {subspace_of(p) for p in kept})
    if missing:
        of = " or ".join(k for k in KINDS if k in kinds)
        raise UsageError(f"no {of} file of subspace {', '.join(missing)} under {root}")
    return kept


class DtwPlanes:
    """:func:`verifier_dtw` for the forward check of one file: each plane it reads (the file's
    own, its sibling's, its children's) derived once, where the check and the header's
    statistics both read the file's own (a pruned file's wins are derived, not read)."""

    def __init__(self):
        self.kept = {}

    def __call__(self, directory, sub: Subspace, variant) -> np.ndarray:
        key = (directory, sub)
        if key not in self.kept:
            self.kept[key] = verifier_dtw(directory, sub, variant)
        return self.kept[key]


def _forward_one(fr: FileReport, header, rep, sample):
    """The forward check of one sound file, by its kind and phase."""
    directory = os.path.dirname(fr.path)
    hand = header.get("place_or_move") and Subspace.parse(header["subspace"]).placement
    dtw_of = DtwPlanes()
    if hand and header.get("kind") == "draw":
        _verify_draws_hand(fr, header, directory, rep, sample)
    elif hand:
        _verify_hand(fr, header, directory, rep, sample, dtw=header.get("kind") == "dtw",
                     dtw_of=dtw_of)
    elif header.get("kind") == "draw" and header["phase"] == "movement":
        _verify_draws_movement(fr, header, directory, rep, sample)
    elif header.get("kind") == "draw":
        _verify_placement(fr, header, directory, rep, sample, mode=2, dtw_of=dtw_of)
    elif header.get("kind") == "dtw" and header["phase"] == "movement":
        _verify_movement(fr, header, directory, rep, sample, dtw=True, dtw_of=dtw_of)
    elif header.get("kind") == "dtw":
        _verify_placement(fr, header, directory, rep, sample, mode=1, dtw_of=dtw_of)
    elif header["phase"] != "movement":
        _verify_placement(fr, header, directory, rep, sample, dtw_of=dtw_of)
    else:
        _verify_movement(fr, header, directory, rep, sample, dtw_of=dtw_of)
    if "cursed_wins" in header:
        _verify_curse(fr, header)
    try:
        _verify_header_stats(fr, header, dtw_of)
    except CorruptDatabaseError as exc:  # (a dtw file that its values file no longer fits)
        fr.checksum = str(exc)


def _stated(header: dict, counted: dict) -> str:
    """"ok", or the first field whose stated value differs from the counted one."""
    for key, value in counted.items():
        if header.get(key) != value:
            return f"the header states {key} {header.get(key)!r}, the planes hold {value!r}"
    return "ok"


def _verify_header_stats(fr: FileReport, header, dtw_of):
    """Every statistic the header states, counted again from the file's own planes (over the
    slots that hold a position): a values file's positions, wins, draws, losses and longest
    win and loss; a dtw file's longest win and loss, and that the slots it names hold them; a
    draw-value file's count of each draw value and its longest draw distance. (A header whose
    statistics were changed, its checksum made good, passes every other check.) ``dtw_of``:
    where a dtw plane comes from (:class:`DtwPlanes`)."""
    sub = Subspace.parse(header["subspace"])
    used = Hasher(BOARDS[header["board"]]).used_mask(sub)
    kind = header.get("kind", "values")
    if kind == "values":
        with TableFile(fr.path) as tf:
            vals, dist = tf.values_all().copy(), tf.dtc_all()
        vals[~used] = UNUSED
        st = plane_stats(vals, dist)
        counted = dict(positions=st["positions"], wins=st["wins"], losses=st["losses"],
                       draws=st["positions"] - st["wins"] - st["losses"],
                       max_win_dtc=st["max_win_dtc"], max_loss_dtc=st["max_loss_dtc"])
        fr.header_stats = _stated(header, counted)
    elif kind == "dtw":
        vals = stored_values(beside(fr.path, "values")).copy()
        dist = dtw_of(os.path.dirname(fr.path), sub, variant_from_fields(header))
        vals[~used] = UNUSED
        counted = {"positions": int(used.sum())}
        for name, code in (("win", WIN), ("loss", LOSS)):
            counted[f"max_{name}_dtw"] = longest_of(vals, dist, code)[0]
        fr.header_stats = _stated(header, counted)
        for name, code in (("win", WIN), ("loss", LOSS)):
            slot = header.get(f"max_{name}_dtw_slot")
            has = bool((vals == code).any())
            if fr.header_stats == "ok" and (
                    (slot is None) == has or (slot is not None and not (
                        isinstance(slot, int) and 0 <= slot < len(vals) and vals[slot] == code
                        and int(dist[slot]) == counted[f"max_{name}_dtw"]))):
                fr.header_stats = (f"the header's max_{name}_dtw_slot {slot!r} is not a slot of a "
                                   f"longest {name}")
    else:
        dv, dd = read_draws(fr.path)
        counts = byte_counts(np.asarray(dv, dtype=np.uint8))
        counted = {"positions": int(used.sum()),
                   "draw_values": {str(b - DV0): int(c) for b, c in enumerate(counts) if b and c},
                   "max_draw_distance": int(np.asarray(dd).max(initial=0))}
        fr.header_stats = _stated(header, counted)


def _check_one(path, headers: dict) -> FileReport:
    """A file's header and checksum, and whether it sits where its header says; its header goes
    into ``headers`` when it is sound (the forward checks read only those)."""
    fr = FileReport(path=path, subspace=subspace_of(path))
    problem = check_file(path) if os.path.isfile(path) else f"{path}: not a regular file"
    if problem:
        fr.checksum = problem
        return fr
    with TableFile(path) as tf:
        header = tf.header
    where = misplaced(path, header)
    if where:
        fr.checksum = f"{path}: {where}"
        return fr
    perms = header.get("symmetry_perms")
    board = BOARDS.get(header.get("board"))
    if board is None:
        fr.checksum = f"{path}: unknown board {header.get('board')!r}"
    elif perms is not None and {tuple(p) for p in perms} != set(board.symmetries.perms):
        fr.checksum = f"{path}: the symmetry group in the header is not the board's"
    headers[path] = header
    return fr


def _verify_curse(fr: FileReport, header):
    """The curse plane of a file of limited rules against the unlimited file beside its
    directory (``DB/<ruleset without the limit>/``): 1 where the value is a draw and the
    unlimited value a win, 2 where it is a loss, else 0 (limits.py)."""
    base = variant_from_fields(header).unlimited
    path = sibling_ruleset(fr.path, base)
    if check_file(path) is not None:
        fr.curse = f"not checked: {path} is missing or damaged"
        return
    with TableFile(fr.path) as tf:
        vals, curse = tf.values_all(), tf.curse_all()
    with TableFile(path) as tf:
        unlimited = tf.values_all()

    # (unused slots hold the same neighbour's value in both planes, so they never contradict)
    want, _, _, contradictions = compare_unlimited(vals, unlimited)
    bad = np.flatnonzero(want != curse)
    if len(bad):  # the curse plane is 0 in unused slots: only used slots count
        h = Hasher(BOARDS[header["board"]])
        sub = Subspace.parse(header["subspace"])
        bad = bad[h.used_mask(sub)[bad]]
    problems = []
    if len(bad):
        problems.append(f"{len(bad)} wrong curse codes, first at slot {int(bad[0])}")
    if contradictions:
        problems.append(f"{contradictions} positions won or lost under the limit but not without it")
    fr.curse = "; ".join(problems) or "ok"
    fr.mismatches += len(bad) + contradictions


def _inputs_ok(fr: FileReport, paths) -> bool:
    """Whether every input file a forward check reads is there and sound; else the file is
    skipped, saying which input is not."""
    for p in paths:
        if check_file(p) is not None:
            fr.skipped = f"needs {os.path.basename(p)}, which is missing or damaged"
            return False
    return True


def _verify_movement(fr: FileReport, header, directory, rep, sample=None, dtw=False, *,
                     dtw_of):
    """Recompute every value and distance of a movement file from its successors' files: its
    dtc (a values file), or its dtw (``dtw``: a dtw file, checked against the values file of
    its subspace, the dtw and values files of its sibling and of the subspace below)."""
    from ..kernels.verify import check_movement  # (lazy: imports numba)

    board = BOARDS[header["board"]]
    sub = Subspace.parse(header["subspace"])
    sib = sub.sibling
    child = removal_child(sub)
    need = [file_in(directory, s) for s in [sub, sib] + ([child] if child is not None else [])]
    if dtw:
        need += [file_in(directory, s, "dtw") for s in [sib] + ([child] if child is not None else [])]
    if not _inputs_ok(fr, need):
        return
    try:
        planes = _movement_planes(directory, sub, sib, child, dtw, variant_from_fields(header),
                                  dtw_of)
    except CorruptDatabaseError as exc:
        fr.checksum = str(exc)
        return
    vals, dist, sib_vals, sib_dist, child_vals, child_dist = planes
    dist, sib_dist, child_dist = one_width(dist, sib_dist, child_dist)
    h = Hasher(board)
    T = h.tables
    Ob = h.orbits({sub.m, sub.o})
    flying = bool(header["flying"])

    limit = header.get("limit")
    limit = -1 if limit is None else int(limit)
    blocked_draw = full_board_draws(variant_from_fields(header), sub)

    def check(part, bad, first):
        check_movement(T, Ob, flying, sub.m, sub.o, vals, dist, sib_vals, sib_dist, child_vals,
                       child_dist, part, bad, first, limit, blocked_draw)

    _run_check(fr, header, sub, h, len(vals), sample, rep, check)


def _verify_hand(fr: FileReport, header, directory, rep, sample=None, dtw=False, *, dtw_of):
    """Recompute every value and distance (dtc, or dtw for a dtw file) of a hand subspace of the
    place-or-move game from the files of its sibling and of the subspaces its placements and
    removals lead to (kernels/verify.check_hand, on the verifier's turn generator)."""
    from ..kernels.verify import check_hand  # (lazy: imports numba)

    variant = variant_from_fields(header)
    sub = Subspace.parse(header["subspace"])
    R = game_of(variant).args
    dm = R.dm
    kids = _hand_kids(sub, dm)
    used = [c for c in kids if c is not None]
    need = [file_in(directory, s) for s in [sub] + used]
    if dtw:
        need += [file_in(directory, s, "dtw") for s in used]
    if not _inputs_ok(fr, need):
        return
    def planes(s):  # (one array type for every plane: the kernel is compiled once)
        if s is None:
            return np.zeros(0, np.uint8), np.zeros(0, np.uint16)
        v, d = read_planes(file_in(directory, s))
        d = dtw_of(directory, s, variant) if dtw else d
        return np.ascontiguousarray(v, np.uint8), np.ascontiguousarray(d, np.uint16)

    try:
        vals, dist = planes(sub)
        got = [planes(c) for c in kids]
    except CorruptDatabaseError as exc:
        fr.checksum = str(exc)
        return
    h = Hasher(variant.board)
    Ob = h.orbits({sub.m, sub.o, sub.m + 1, sub.o + 1, max(0, sub.o - 1), max(0, sub.o - 2)})

    def check(part, bad, first):
        check_hand(h.tables, Ob, R.flying, dm, sub.m, sub.o, sub.hm, sub.ho, part,
                   vals, dist, *(g[0] for g in got), *(g[1] for g in got), bad, first, bool(dtw))

    _run_check(fr, header, sub, h, len(vals), sample, rep, check)


def _hand_kids(sub: Subspace, dm: int) -> list:
    """The subspaces of kernels/verify.check_hand's kinds: the sibling, then the exits."""
    return [sub.sibling] + list(hand_children(sub, dm))


def _verify_draws_hand(fr: FileReport, header, directory, rep, sample=None):
    """Recompute the draw values and draw distances of a hand subspace of the place-or-move game
    (kernels/verify.check_draws_hand) from its values file, its sibling's values and draw-value
    files and those of the subspaces its exits lead to, with the rank in its header."""
    from ..kernels.verify import check_draws_hand  # (lazy: imports numba)

    variant = variant_from_fields(header)
    sub = Subspace.parse(header["subspace"])
    R = game_of(variant).args
    dm = R.dm
    kids = _hand_kids(sub, dm)
    used = [c for c in kids if c is not None]
    need = [file_in(directory, s) for s in [sub] + used] + [file_in(directory, s, "draw") for s in used]
    if not _inputs_ok(fr, need):
        return
    empty = np.zeros(0, np.uint8)
    try:
        vals = read_planes(file_in(directory, sub), with_dtc=False)[0]
        dv, dd = read_draws(fr.path, vals)
        got = []
        for c in kids:
            if c is None:
                got.append((empty, empty))
                continue
            cv = read_planes(file_in(directory, c), with_dtc=False)[0]
            got.append((cv, read_draws(file_in(directory, c, "draw"), cv, distances=False)[0]))
        sib_dd = read_draws(file_in(directory, kids[0], "draw"), got[0][0])[1]
    except CorruptDatabaseError as exc:
        fr.checksum = str(exc)
        return
    h = Hasher(variant.board)
    Ob = h.orbits({sub.m, sub.o, sub.m + 1, sub.o + 1, max(0, sub.o - 1), max(0, sub.o - 2)})
    rank = int(header["rank"])

    def check(part, bad, first):
        check_draws_hand(h.tables, Ob, R.flying, dm, sub.m, sub.o, sub.hm, sub.ho, vals,
                         dv, dd, rank, *(g[0] for g in got), *(g[1] for g in got), sib_dd, part,
                         bad, first)

    _run_check(fr, header, sub, h, len(vals), sample, rep, check)


def _verify_draws_movement(fr: FileReport, header, directory, rep, sample=None):
    """Recompute every draw value and draw distance of a movement draw-value file from its
    values file, its sibling's values and draw-value files and those of the subspace below
    (kernels/verify.check_draws_movement), with the rank in its header."""
    from ..kernels.verify import check_draws_movement  # (lazy: imports numba)

    board = BOARDS[header["board"]]
    sub = Subspace.parse(header["subspace"])
    sib = sub.sibling
    child = removal_child(sub)
    subs = [sub, sib] + ([child] if child is not None else [])
    need = [file_in(directory, s) for s in subs] + [file_in(directory, s, "draw") for s in subs[1:]]
    if not _inputs_ok(fr, need):
        return
    empty = np.zeros(0, np.uint8)
    try:
        vals = read_planes(file_in(directory, sub), with_dtc=False)[0]
        dv, dd = read_draws(fr.path, vals)
        sib_vals = read_planes(file_in(directory, sib), with_dtc=False)[0]
        sib_dv, sib_dd = read_draws(file_in(directory, sib, "draw"), sib_vals)
        child_vals = read_planes(file_in(directory, child), with_dtc=False)[0] if child else empty
        child_dv = read_draws(file_in(directory, child, "draw"), child_vals, distances=False)[0] if child else empty
    except CorruptDatabaseError as exc:
        fr.checksum = str(exc)
        return
    h = Hasher(board)
    T = h.tables
    Ob = h.orbits({sub.m, sub.o})
    rank = int(header["rank"])

    def check(part, bad, first):
        check_draws_movement(T, Ob, bool(header["flying"]), sub.m, sub.o, vals, dv, dd, rank,
                             sib_vals, sib_dv, sib_dd, child_vals, child_dv, part, bad, first)

    _run_check(fr, header, sub, h, len(vals), sample, rep, check)


def one_width(*planes):
    """The distance planes of one check in one array type, the widest of theirs (a file's
    distances are uint8 or uint16, an empty plane uint8): so a check kernel is compiled for two
    types, not for every mix of them (check_placement was compiled five times in a test run)."""
    dtype = np.uint16 if any(p.dtype.itemsize > 1 for p in planes) else np.uint8
    return [np.ascontiguousarray(p, dtype) for p in planes]


def _movement_planes(directory, sub, sib, child, dtw: bool, variant, dtw_of):
    """(values, distance, sibling values, sibling distance, child values, child distance) of a
    movement subspace: dtc from the values files, or dtw (from ``dtw_of``, as
    :func:`verifier_dtw`); the child's distance is empty for dtc (a removal is a conversion)
    and where no child is read."""
    def dist(s):
        if not dtw:
            return read_planes(file_in(directory, s))[1]
        return dtw_of(directory, s, variant)

    empty = np.zeros(0, np.uint8)
    vals = read_planes(file_in(directory, sub), with_dtc=False)[0]
    own = dist(sub)
    sib_vals, sib_dist = (vals, own) if sib == sub else (
        read_planes(file_in(directory, sib), with_dtc=False)[0], dist(sib))
    child_vals = read_planes(file_in(directory, child), with_dtc=False)[0] if child else empty
    child_dist = dist(child) if child is not None and dtw else empty
    return vals, own, sib_vals, sib_dist, child_vals, child_dist


#: slots per chunk of the forward check, up to 256 chunks a part (a small file is then a few
#: calls, not 256 of a few slots each)
CHUNK_SLOTS = 1024


def _run_check(fr: FileReport, header, sub, hasher, slots: int, sample, rep, check):
    """Run ``check(part, bad_count, bad_first)`` (a forward-check kernel) over the slots of
    :func:`slot_parts` and fill in the report: positions, how many were checked, mismatches and
    the first mismatching slot."""
    most = 256
    bad_all = np.zeros(most, np.int64)
    first_all = np.zeros(most, np.int64)
    total_bad = 0
    first_bad = -1
    checked = 0
    with rep.bar(total=min(slots, sample or slots), desc=f"verify {sub}", unit="pos") as bar:
        for part in slot_parts(slots, sample):
            checked += len(part)
            nchunk = min(most, -(-len(part) // CHUNK_SLOTS))
            bad, first = bad_all[:nchunk], first_all[:nchunk]
            check(part, bad, first)
            total_bad += int(bad.sum())
            if first_bad < 0 and (first >= 0).any():
                first_bad = int(first[first >= 0].min())
            bar.update(len(part))
    fr.positions = int(header["positions"])
    fr.checked = fr.positions if checked == slots else checked
    fr.mismatches = total_bad
    if first_bad >= 0:
        board = hasher.board
        mover, opp, _ = hasher.unindex_py(sub, first_bad, hasher.anchor_reps(sub.o))
        fr.first_mismatch = f"slot {first_bad}: mover {board.names(mover)} opponent {board.names(opp)}"


def slot_parts(slots: int, sample: int | None, step: int = 1 << 22, seed: int = 0):
    """The slots to check, in increasing arrays of at most ``step``: every slot, or a fixed
    random sample of ``sample`` of them (no repeats; the same for the same file every time)."""
    if sample is None or sample >= slots:
        for lo in range(0, slots, step):
            yield np.arange(lo, min(slots, lo + step), dtype=np.int64)
        return
    rng = np.random.default_rng(seed)
    chosen = np.sort(rng.choice(slots, size=sample, replace=False)).astype(np.int64)
    for lo in range(0, sample, step):
        yield chosen[lo:lo + step]


def placement_reads(sub: Subspace, variant) -> list:
    """[(k, child subspace)] of the files a placement subspace's check reads: the child its
    placements removing k pieces lead to (``placement_children``), where it is a file."""
    R = game_of(variant).args
    kids = placement_children(sub, R.dm)
    return [(k, kids[k][0]) for k in range(3) if k in kids and reads_file(*kids[k], R.count_hand)]


def children_planes(sub: Subspace, reads, planes, dist_type=np.uint8):
    """(cinfo, arrays, opponent sizes) for ``check_placement``: per k = 0, 1, 2 the child's
    pieces (``cinfo[k]``, -1 where none is read) and its (values, distance) from
    ``planes(child)`` (empty where none; an empty distance of ``dist_type``), from ``reads``
    (:func:`placement_reads`)."""
    cinfo = np.full((3, 4), -1, dtype=np.int64)
    arrays = [np.zeros(0, np.uint8), np.zeros(0, dist_type)] * 3
    sizes = {sub.o}
    for k, c in reads:
        cinfo[k] = (c.m, c.o, c.hm, c.ho)
        sizes.add(c.o)
        arrays[2 * k:2 * k + 2] = planes(c)
    return cinfo, arrays, sizes


def _verify_placement(fr: FileReport, header, directory, rep, sample=None, mode=0, *,
                      dtw_of):
    """Recompute a placement file from its children's files with kernels/verify.check_placement
    (code that shares nothing with the sweep that wrote it) and compare. ``mode``: 0 a values
    file, 1 a dtw file (its planes from ``dtw_of``, as :func:`verifier_dtw`), 2 a draw-value
    file."""
    from ..kernels.verify import check_placement  # (lazy: imports numba)
    variant = variant_from_fields(header)
    board = variant.board
    sub = Subspace.parse(header["subspace"])
    R = game_of(variant).args
    dm = R.dm
    reads = placement_reads(sub, variant)
    # mode 1 / 2: each subspace's dtw / draw-value file, and the plane read from it
    side_kind = {1: "dtw", 2: "draw"}.get(mode)
    need = [file_in(directory, c) for _, c in reads]
    if mode:
        need += [file_in(directory, c, side_kind) for _, c in reads]
    if not _inputs_ok(fr, need):
        return

    def side_of(s):
        if mode == 1:
            return dtw_of(directory, s, variant)
        return read_draws(file_in(directory, s, side_kind), distances=False)[0]

    def planes(c):
        v, d = read_planes(file_in(directory, c), with_dtc=c.placement and not mode)
        return v, side_of(c) if mode else (np.zeros(0, np.uint8) if d is None else d)

    try:
        cinfo, arrays, sizes = children_planes(sub, reads, planes)
        if mode:
            vals, dtc = read_planes(file_in(directory, sub), with_dtc=False)[0], side_of(sub)
        else:
            vals, dtc = read_planes(fr.path)
    except CorruptDatabaseError as exc:
        fr.checksum = str(exc)
        return
    dtc, *dists = one_width(dtc, *arrays[1::2])
    arrays[1::2] = dists
    h = Hasher(board)
    T = h.tables
    Ob = h.orbits(sizes)
    flying = bool(header["flying"])

    def check(part, bad, first):
        check_placement(T, Ob, flying, R.count_hand, dm, sub.m, sub.o, sub.hm, sub.ho, part, vals, dtc, cinfo,
                        *arrays, bad, first, mode)

    _run_check(fr, header, sub, h, len(vals), sample, rep, check)


# ---------------------------------------------------------------------------- pruned dtw files
def verifier_dtw(directory, sub: Subspace, variant) -> np.ndarray:
    """The whole dtw plane of ``sub``'s dtw file: a pruned file's wins (docs/format.md) derived by
    the verifier's own turns (kernels/verify, ``derive``) from the losses its children's files
    keep, not by the solver's (solving/prune.py): a check of a pruned file then tests the
    derivation as well."""
    vals, dist, pruned = _stored_dtw(directory, sub)
    if not pruned:
        return dist
    try:
        if sub.placement:
            return _derive_placement(directory, sub, variant, vals, dist)
        return _derive_movement(directory, sub, variant, vals, dist)
    except FileNotFoundError as exc:
        raise CorruptDatabaseError(f"{sub}: the wins of its pruned dtw file need "
                                   f"{exc.filename}, which is missing") from None


def _stored_dtw(directory, sub: Subspace):
    """(the values, the dtw a dtw file keeps, a pruned file's wins 0, whether it is pruned)."""
    vals = read_planes(file_in(directory, sub), with_dtc=False)[0]
    with TableFile(file_in(directory, sub, "dtw")) as tf:
        return vals, np.ascontiguousarray(tf.distance_all("dtw", vals, stored_only=True),
                                          np.uint16), tf.pruned()


def _derive_movement(directory, sub: Subspace, variant, vals, dist):
    from ..kernels.verify import check_movement  # (lazy: imports numba)

    sib, child = sub.sibling, removal_child(sub)
    sib_vals, sib_dist = (vals, dist) if sib == sub else _stored_dtw(directory, sib)[:2]
    child_vals, child_dist = (_stored_dtw(directory, child)[:2] if child else
                              (np.zeros(0, np.uint8), np.zeros(0, np.uint16)))
    h = Hasher(variant.board)
    T, Ob = h.tables, h.orbits({sub.m, sub.o})
    blocked = full_board_draws(variant, sub)
    flying = game_of(variant).args.flying
    _derive(sub, dist, lambda part, bad, first: check_movement(
        T, Ob, flying, sub.m, sub.o, vals, dist, sib_vals, sib_dist,
        child_vals, child_dist, part, bad, first, -1, blocked, True))
    return dist


def _derive_placement(directory, sub: Subspace, variant, vals, dist):
    from ..kernels.verify import check_placement  # (lazy: imports numba)

    R = game_of(variant).args
    dm = R.dm
    cinfo, arrays, sizes = children_planes(sub, placement_reads(sub, variant),
                                           lambda c: _stored_dtw(directory, c)[:2], np.uint16)
    h = Hasher(variant.board)
    T, Ob = h.tables, h.orbits(sizes)
    _derive(sub, dist, lambda part, bad, first: check_placement(
        T, Ob, R.flying, R.count_hand, dm, sub.m, sub.o, sub.hm,
        sub.ho, part, vals, dist, cinfo, *arrays, bad, first, 1, True))
    return dist


def _derive(sub: Subspace, dist, kernel) -> None:
    """Run a ``derive`` kernel over every slot, a part at a time; a win the files do not make
    one is a damaged database."""
    bad = np.zeros(64, dtype=np.int64)
    first = np.full(64, -1, dtype=np.int64)
    for part in slot_parts(len(dist), None):
        kernel(part, bad, first)
        if bad.any():
            slot = int(first[first >= 0].min())
            raise CorruptDatabaseError(f"{sub}: slot {slot} is a win in the values file, but no "
                                       "move of it leads into a lost position of the files")
