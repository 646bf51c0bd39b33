"""Pruned dtw files (docs/format.md): a dtw file that keeps its losses only gives every position
the dtw of the full file, read whole (solving.prune.read_full_dtw, on the solver's turns), by
the verifier (on its own turns), and one position at a time (one ply of search); files are
pruned only once every job that reads them is complete, and a damaged loss is found."""

import os
import shutil
import struct
from pathlib import Path

import numpy as np
from morris.format.fileformat import longest_of
import pytest

import script_module
from filetree import rewrite_side, side_planes
from morris.core.codes import LOSS, WIN
from morris.core.errors import CorruptDatabaseError
from morris.core.position import Position
from morris.core.progress import Reporter
from morris.core.variants import get_variant
from morris.database.folders import file_path, stored_values
from morris.format.fileformat import (LAYOUT_KEYS, DerivedEntryError, TableFile, prune_to_losses,
                                      write_distance_table, write_pruned_dtw)
from morris.hashing.index import Hasher
from morris.hashing.subspaces import Subspace
from morris.lookups.tablebase import open_tablebase
from morris.solving import prune as prune_mod
from morris.solving.prune import prunable, pruned_beside, read_full_dtw
from morris.solving.schedule import prune_finished, solve
from morris.solving.verify import verifier_dtw, verify

QUIET = Reporter(quiet=True)
SIX = get_variant("six")


@pytest.fixture(scope="session")
def six_dbs(tmp_path_factory):
    """(full, pruned, what the prune did): Six Men's Morris whole with dtw, solved without
    pruning, and a copy pruned as a solve prunes at its end."""
    full = tmp_path_factory.mktemp("six-full")
    solve(full, SIX, phase="all", reporter=QUIET, dtw=True, prune_dtw=False)
    pruned = tmp_path_factory.mktemp("six-pruned") / "db"
    shutil.copytree(full, pruned)
    return full, pruned, prune_finished(pruned, SIX, QUIET)


def _dtw_subspaces(db):
    d = db / SIX.ruleset_id
    return [Subspace.parse(n[:-4]) for n in sorted(os.listdir(d)) if n.endswith(".mtw")]


def test_a_pruned_file_gives_every_position_the_full_files_dtw(six_dbs):
    """Every dtw file of the whole game is pruned but those that may not be, the files shrink,
    and every used slot reads back the full file's dtw, movement and placement alike."""
    full, pruned, done = six_dbs
    subs = _dtw_subspaces(full)
    assert done["files"] == sum(prunable(SIX, s, set(subs)) for s in subs) > 100
    assert done["after"] < 0.75 * done["before"]
    h = Hasher(SIX.board)
    for s in subs:
        vals = stored_values(file_path(full, SIX, s))
        with TableFile(file_path(full, SIX, s, "dtw")) as tf:
            want = tf.distance_all("dtw", vals)
        path = file_path(pruned, SIX, s, "dtw")
        with TableFile(path) as tf:
            assert tf.pruned() == prunable(SIX, s, set(subs))
            assert tf.version == (2 if tf.pruned() else 1)
        used = h.used_mask(s)
        got = read_full_dtw(path, vals)
        assert np.array_equal(got[used], want[used]), s
        plane, halved = read_full_dtw(path, vals, halved=True)
        assert halved or s.placement  # (a movement plane stays halved: half the memory)
        back = plane.astype(np.int64) * 2 + (vals == WIN) if halved else plane.astype(np.int64)
        decided = used & (vals != 0)
        assert np.array_equal(back[decided], want[decided].astype(np.int64)), s


def test_the_verifier_derives_the_wins_by_its_own_turns(six_dbs, monkeypatch):
    """verify's own derivation (kernels/verify, derive) gives the full files' planes, and the
    forward check of the pruned database finds nothing wrong; a file's check reads each dtw
    plane once (its own: the check and the header's statistics)."""
    import morris.solving.verify as verify_mod

    full, pruned, _ = six_dbs
    calls, checking = [], [None]
    derive, forward = verify_mod.verifier_dtw, verify_mod._forward_one

    def counted(directory, sub, variant):
        calls.append((checking[0], sub))
        return derive(directory, sub, variant)

    def marked(fr, *args):
        checking[0] = fr.path
        return forward(fr, *args)

    monkeypatch.setattr(verify_mod, "verifier_dtw", counted)
    monkeypatch.setattr(verify_mod, "_forward_one", marked)
    d = pruned / SIX.ruleset_id
    h = Hasher(SIX.board)
    for s in _dtw_subspaces(full)[::3]:
        vals = stored_values(file_path(full, SIX, s))
        with TableFile(file_path(full, SIX, s, "dtw")) as tf:
            want = tf.distance_all("dtw", vals)
        used = h.used_mask(s)
        assert np.array_equal(verifier_dtw(str(d), s, SIX)[used], want[used]), s
    report = verify(str(pruned), reporter=QUIET)
    dtw_files = [f for f in report.files if f.path.endswith(".mtw")]
    assert report.ok and dtw_files and all(f.mismatches == 0 and not f.skipped for f in dtw_files)
    assert len(calls) == len(set(calls))
    assert {(f.path, Subspace.parse(f.subspace)) for f in dtw_files} <= set(calls)


def test_probing_a_pruned_win_searches_one_ply(six_dbs):
    """probe_dtw and every move's dtw in analyze are those of the full files, for wins (one ply
    of search) and losses (read), in both phases."""
    full, pruned, _ = six_dbs
    rng = np.random.default_rng(5)
    h = Hasher(SIX.board)
    subs = _dtw_subspaces(full)
    seen = {WIN: 0, LOSS: 0}
    with open_tablebase(full, shipped=False, search="never") as a, \
            open_tablebase(pruned, shipped=False, search="never") as b:
        while min(seen.values()) < 40:
            s = subs[rng.integers(len(subs))]
            mover, opp, used = h.unindex_py(s, int(rng.integers(h.slots(s))), h.anchor_reps(s.o))
            if not used:
                continue
            pos = Position.from_masks(SIX, mover, opp, 0, s.hm, s.ho)
            value = a.probe(pos).value
            if value == "draw":
                continue
            seen[WIN if value == "win" else LOSS] += 1
            assert a.probe_dtw(pos) == b.probe_dtw(pos), pos.to_compact()
            assert [m.dtw for m in a.analyze(pos).moves] == [m.dtw for m in b.analyze(pos).moves]


def test_a_win_is_never_read_as_zero(six_dbs):
    """A pruned file refuses to give a win's entry (no silent 0): by slot and whole; the stored
    entries alone only where asked for."""
    _, pruned, _ = six_dbs
    s = Subspace(4, 4)
    vals = stored_values(file_path(pruned, SIX, s))
    win = int(np.flatnonzero(vals == WIN)[0])
    loss = int(np.flatnonzero(vals == LOSS)[0])
    with TableFile(file_path(pruned, SIX, s)) as tv, \
            TableFile(file_path(pruned, SIX, s, "dtw")) as tw:
        with pytest.raises(DerivedEntryError, match="is a win"):
            tw.distance("dtw", win, tv)
        assert tw.distance("dtw", loss, tv) % 2 == 0
        with pytest.raises(DerivedEntryError, match="losses only"):
            tw.distance_all("dtw", vals)
        stored = tw.distance_all("dtw", vals, stored_only=True)
        assert not stored[vals == WIN].any()


def test_files_are_pruned_only_when_their_readers_are_complete(six_dbs, tmp_path, monkeypatch):
    """A movement solve up to 4 a side prunes nothing (the placement subspaces and the larger
    pairs still read those files); a second prune after the whole game prunes them, and the
    files stay complete for a resumed solve (nothing solved again). The whole-game solve's
    jobs write the pruned files beside the whole ones, and the pruning takes those (it prunes
    from a whole file only the first solve's, which were not written to be pruned): the same
    bytes as the files pruned from the whole ones, and nothing left beside them."""
    from_whole = []
    monkeypatch.setattr(prune_mod, "prune_to_losses",
                        lambda p, *a, **k: from_whole.append(p) or prune_to_losses(p, *a, **k))
    out = tmp_path / "db"
    summary = solve(out, SIX, max_pieces=4, reporter=QUIET, dtw=True)
    assert summary.pruned["files"] == 0
    for s in _dtw_subspaces(out):
        with TableFile(file_path(out, SIX, s, "dtw")) as tf:
            assert not tf.pruned()
    first = {str(file_path(out, SIX, s, "dtw")) for s in _dtw_subspaces(out)}
    summary = solve(out, SIX, phase="all", reporter=QUIET, dtw=True)
    assert summary.pruned["files"] > 100
    assert 0 < len(from_whole) and set(map(str, from_whole)) <= first
    d = out / SIX.ruleset_id
    assert not [n for n in os.listdir(d) if not n.endswith((".mtb", ".mtw", ".mdv"))]
    for s in _dtw_subspaces(out):
        got, want = (_bytes(file_path(db, SIX, s, "dtw")) for db in (out, six_dbs[1]))
        assert got == want, s
    again = solve(out, SIX, phase="all", reporter=QUIET, dtw=True)
    assert not again.solved and again.pruned["files"] == 0


def _halved(path):
    with TableFile(path) as tf:
        return tf.selection("dtw").halved


def _bytes(path):
    with open(path, "rb") as f:
        return f.read()


def _whole(full, s):
    """(header less its layout, plane, anchors, stored values, used) of a whole dtw file."""
    vals = stored_values(file_path(full, SIX, s))
    with TableFile(file_path(full, SIX, s, "dtw")) as tf:
        header = {k: v for k, v in tf.header.items() if k not in LAYOUT_KEYS}
        plane = tf.distance_all("dtw", vals)
        anchors = np.array(tf.anchors, dtype=np.uint32)
    return header, plane, anchors, vals, Hasher(SIX.board).used_mask(s)


def test_a_pruned_file_written_from_its_plane_is_the_pruned_whole_file(six_dbs, tmp_path):
    """write_pruned_dtw from a plane gives the bytes prune_to_losses makes of the whole file
    written from it: every dtw file of Six, movement (halved) and placement; and a plane whose
    entries break the parity rule (so not halved) and one whose losses need 16 bits."""
    full, pruned, _ = six_dbs
    subs = [s for s in _dtw_subspaces(full) if prunable(SIX, s, set(_dtw_subspaces(full)))]
    for s in subs:
        header, plane, anchors, vals, used = _whole(full, s)
        write_pruned_dtw(tmp_path / "p.mtw", header, plane, anchors, vals, used)
        assert (tmp_path / "p.mtw").read_bytes() == _bytes(file_path(pruned, SIX, s, "dtw")), s
    kinds = {s: _halved(file_path(full, SIX, s, "dtw")) for s in subs}
    assert set(kinds.values()) == {True, False}  # (both kinds met above)
    halved = [s for s in subs if s.placement and kinds[s] and s.m + s.o >= 5]
    header, plane, anchors, vals, used = _whole(full, halved[0])  # (a movement plane is halved)
    for change in ("odd", "wide"):
        p = plane.astype(np.uint16)
        lost = np.flatnonzero(used & (vals == LOSS))
        p[lost[: len(lost) // 2]] += 1 if change == "odd" else 600
        # (the header's longest loss as the changed plane has it: a reader checks the codec
        # against it)
        best, slot = longest_of(vals, p, LOSS)
        header = {**header, "max_loss_dtw": best, "max_loss_dtw_slot": slot}
        whole, side = tmp_path / f"{change}.mtw", tmp_path / f"{change}.lost"
        write_distance_table(whole, header, "dtw", p, anchors, vals, used)
        prune_to_losses(whole, vals)
        write_pruned_dtw(side, header, p, anchors, vals, used)
        assert side.read_bytes() == whole.read_bytes(), change
        with TableFile(whole) as tf:
            sel = tf.selection("dtw")
            assert sel.halved == (change == "wide") and tf._sec["dtw"][3] == (
                "uint16" if change == "wide" else "uint8")


def test_a_damaged_or_foreign_pruned_file_beside_is_not_taken(six_dbs, tmp_path):
    """The pruning takes a pruned file beside a whole one only when its checksum holds and its
    header is the whole file's: a damaged one and another subspace's are removed, and the whole
    file is pruned from itself, the same bytes."""
    full, pruned, _ = six_dbs
    db = tmp_path / "db"
    shutil.copytree(full, db)
    a, b = Subspace(4, 4), Subspace(5, 4)
    side_a = pruned_beside(file_path(db, SIX, a, "dtw"))
    header, plane, anchors, vals, used = _whole(full, a)
    write_pruned_dtw(side_a, header, plane, anchors, vals, used)
    data = bytearray(open(side_a, "rb").read())
    data[len(data) // 2] ^= 0xFF
    open(side_a, "wb").write(bytes(data))
    shutil.copy(file_path(pruned, SIX, a, "dtw"), pruned_beside(file_path(db, SIX, b, "dtw")))
    done = prune_finished(db, SIX, QUIET)
    assert done["files"] > 100
    for s in (a, b):
        assert not os.path.exists(pruned_beside(file_path(db, SIX, s, "dtw")))
        assert _bytes(file_path(db, SIX, s, "dtw")) == _bytes(file_path(pruned, SIX, s, "dtw"))


def test_a_parent_solved_again_reads_its_pruned_children(six_dbs, tmp_path):
    """A dtw file removed from a pruned database is solved again from its pruned children (their
    wins derived) and pruned again: the same bytes."""
    _, pruned, _ = six_dbs
    db = tmp_path / "db"
    shutil.copytree(pruned, db)
    gone = [Subspace(5, 4), Subspace(4, 5), Subspace(3, 3, 2, 1)]
    before = {s: open(file_path(db, SIX, s, "dtw"), "rb").read() for s in gone}
    for s in gone:
        os.remove(file_path(db, SIX, s, "dtw"))
    summary = solve(db, SIX, phase="all", reporter=QUIET, dtw=True)
    assert len(summary.solved) == 2 and summary.pruned["files"] == 3
    for s in gone:
        assert open(file_path(db, SIX, s, "dtw"), "rb").read() == before[s], s


def test_a_damaged_loss_in_a_pruned_file_is_found(six_dbs, tmp_path):
    """A loss's dtw changed before pruning (a valid file with a wrong entry): the forward check
    names the file."""
    full, _, _ = six_dbs
    db = tmp_path / "db"
    shutil.copytree(full, db)
    s = Subspace(4, 3)
    path = file_path(db, SIX, s, "dtw")
    header, planes, anchors, stored = side_planes(path, ("dtw",))
    i = int(np.flatnonzero((stored == LOSS) & (planes["dtw"] > 0))[0])
    planes["dtw"][i] += 2
    rewrite_side(path, header, planes, anchors, stored)
    prune_finished(db, SIX, QUIET)
    report = verify(str(db / SIX.ruleset_id), reporter=QUIET)
    bad = {os.path.basename(f.path) for f in report.files if f.mismatches}
    assert "4-3.mtw" in bad and not report.ok
    r = _same_dtw(full, db)
    assert r.returncode == 1 and "the dtw differs on" in r.stderr


def _a_damaged_loss(six_dbs, tmp_path):
    """(a copy of Six whole with full dtw files, the path of its 4-3 dtw file) where one loss's
    dtw is 2 more than it is, the file rewritten with a valid checksum."""
    full, _, _ = six_dbs
    db = tmp_path / "db"
    shutil.copytree(full, db)
    path = file_path(db, SIX, Subspace(4, 3), "dtw")
    header, planes, anchors, stored = side_planes(path, ("dtw",))
    i = int(np.flatnonzero((stored == LOSS) & (planes["dtw"] > 0))[0])
    planes["dtw"][i] += 2
    rewrite_side(path, header, planes, anchors, stored)
    return db, path


def test_verify_recomputes_only_the_kinds_asked(six_dbs, tmp_path):
    """``verify(kinds=...)`` (``morris verify --kind``): the damaged loss of a dtw file is found
    where the dtw files are asked for, and only their files are recomputed; asked for the
    values alone, no dtw file is recomputed (the damage is not looked for) while every file's
    checksum still is; a kind that is not one is refused by name."""
    db, path = _a_damaged_loss(six_dbs, tmp_path)
    prune_finished(db, SIX, QUIET)
    root = str(db / SIX.ruleset_id)
    dtw = verify(root, reporter=QUIET, kinds=["dtw"])
    assert not dtw.ok and {os.path.basename(f.path) for f in dtw.files if f.mismatches} == {"4-3.mtw"}
    recomputed = [f.path for f in dtw.files if f.checked]
    assert recomputed and all(p.endswith(".mtw") for p in recomputed)
    values = verify(root, reporter=QUIET, sample=2000, kinds=["values"])
    assert values.ok and len(values.files) == len(dtw.files)
    recomputed = [f.path for f in values.files if f.checked]
    assert recomputed and all(p.endswith(".mtb") for p in recomputed)
    # a file not asked for is still checked by its checksum
    data = bytearray(Path(path).read_bytes())
    data[-9] ^= 0xFF
    Path(path).write_bytes(bytes(data))
    again = verify(root, reporter=QUIET, sample=2000, kinds=["values"])
    assert [os.path.basename(f.path) for f in again.files if f.checksum != "ok"] == ["4-3.mtw"]
    with pytest.raises(ValueError, match="values, dtw, draws"):
        verify(root, reporter=QUIET, kinds=["wdl"])


def test_morris_verify_kind(six_dbs):
    """``morris verify --kind dtw --sample N``: the dtw files recomputed, the values files by
    their checksums alone (no count of positions on their lines); a kind that is not one is a
    usage error naming the option."""
    from click.testing import CliRunner

    from morris.cli.main import cli

    _, pruned, _ = six_dbs
    r = CliRunner().invoke(cli, ["verify", "--db", str(pruned), "--kind", "dtw", "--sample",
                                 "500", "--quiet"])
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.output.splitlines() if ln.startswith("ok ")]
    assert any(ln.endswith("slots of 105,700 positions (a fixed random sample)") for ln in lines)
    assert all(ln.rstrip().endswith(".mtb") for ln in lines if ".mtb" in ln)
    assert all(": " in ln for ln in lines if ".mtw" in ln)
    bad = CliRunner().invoke(cli, ["verify", "--db", str(pruned), "--kind", "wdl"])
    assert bad.exit_code == 2 and "--kind" in bad.output


def test_verify_recomputes_only_the_subspaces_asked(six_dbs, tmp_path):
    """``verify(subspaces=...)`` (``morris verify --subspace``): a damaged loss of 4-3's dtw
    file is found where 4-3 is asked for, and only 4-3's files (every kind) are recomputed;
    asked for 3-3 alone (which does not read 4-3) the damage is not looked for, while every
    file's checksum still is; a name no file has, or that is not a subspace's, is refused by
    name."""
    from morris.core.errors import UsageError

    db, _ = _a_damaged_loss(six_dbs, tmp_path)
    root = str(db / SIX.ruleset_id)
    asked = verify(root, reporter=QUIET, subspaces=["4-3"])
    assert not asked.ok
    assert {os.path.basename(f.path) for f in asked.files if f.mismatches} == {"4-3.mtw"}
    recomputed = {os.path.basename(f.path) for f in asked.files if f.checked}
    assert recomputed == {"4-3.mtb", "4-3.mtw"}
    other = verify(root, reporter=QUIET, subspaces=["3-3 "])
    assert other.ok and len(other.files) == len(asked.files)
    assert {os.path.basename(f.path) for f in other.files if f.checked} == {"3-3.mtb", "3-3.mtw"}
    with pytest.raises(UsageError, match="no file of subspace 9-9"):
        verify(root, reporter=QUIET, subspaces=["4-3", "9-9"])
    with pytest.raises(UsageError, match="no draws file of subspace 4-3 under"):
        verify(root, reporter=QUIET, subspaces=["4-3"], kinds=["draws"])
    with pytest.raises(UsageError, match="bad subspace name 'four'"):
        verify(root, reporter=QUIET, subspaces=["four"])


def test_morris_verify_subspace(six_dbs):
    """``morris verify --subspace 4-3 --subspace 3-3+1+1 --sample N``: only those files are
    recomputed (the others by their checksums alone); a subspace without a file is one line of
    UsageError naming it, exit 2."""
    from click.testing import CliRunner

    from morris.cli.main import cli

    _, pruned, _ = six_dbs
    r = CliRunner().invoke(cli, ["verify", "--db", str(pruned), "--subspace", "4-3",
                                 "--subspace", "3-3+1+1", "--sample", "500", "--quiet"])
    assert r.exit_code == 0, r.output
    recomputed = {os.path.basename(ln.split(": ")[0]) for ln in r.output.splitlines()
                  if ln.startswith("ok ") and ": " in ln}
    assert recomputed == {"4-3.mtb", "4-3.mtw", "3-3+1+1.mtb", "3-3+1+1.mtw"}
    bad = CliRunner().invoke(cli, ["verify", "--db", str(pruned), "--subspace", "9-9"])
    assert bad.exit_code == 2 and "UsageError: no file of subspace 9-9" in bad.output


def _same_dtw(a, b):
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(__file__), "..", "scripts", "same_dtw.py")
    return subprocess.run([sys.executable, script, str(a), str(b)], capture_output=True, text=True)


def test_same_dtw_says_the_pruned_database_gives_the_same_dtw(six_dbs):
    """scripts/same_dtw.py: every dtw file of the full database against the pruned one."""
    full, pruned, done = six_dbs
    r = _same_dtw(full, pruned)
    assert r.returncode == 0, r.stderr
    assert f"six-nofly: {len(_dtw_subspaces(full))} dtw files" in r.stdout
    assert "the same dtw" in r.stdout


def test_same_dtw_compares_the_draw_value_files_and_skips_a_ruleset_b_lacks(six_dbs, tmp_path):
    """scripts/same_dtw.py (the book against a whole solve): draw-value files that both
    databases hold must be the same bytes (the first that differs is named), and a ruleset of
    A that B lacks is named and skipped."""
    full, pruned, _ = six_dbs
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(full, a)
    shutil.copytree(pruned, b)
    (a / "other-rules").mkdir()
    sub = Subspace(4, 3)
    for db, blob in ((a, b"draw values"), (b, b"draw values")):
        with open(file_path(db, SIX, sub, "draw"), "wb") as f:
            f.write(blob)
    r = _same_dtw(a, b)
    assert r.returncode == 0, r.stderr
    assert "other-rules: not in" in r.stdout and "draw-value files: 1;" in r.stdout
    with open(file_path(b, SIX, sub, "draw"), "wb") as f:
        f.write(b"draw valuez")
    r = _same_dtw(a, b)
    assert r.returncode == 1 and "4-3.mdv" in r.stderr and "differ" in r.stderr


def test_the_version_says_whether_a_file_is_pruned(six_dbs, tmp_path):
    """Version 2 marks a pruned file: a pruned section in a version-1 file, a version-2 file
    without one, and an unknown version are refused, each named."""
    full, pruned, _ = six_dbs
    for src, version, why in ((pruned, 1, "version 1 with a pruned section"),
                              (full, 2, "version 2 with no pruned section"),
                              (pruned, 3, "reads versions 1 and 2")):
        path = tmp_path / f"v{version}" / "4-4.mtw"
        path.parent.mkdir()
        data = bytearray(open(file_path(src, SIX, Subspace(4, 4), "dtw"), "rb").read())
        struct.pack_into("<I", data, 8, version)
        path.write_bytes(bytes(data))
        with pytest.raises(CorruptDatabaseError, match=why):
            TableFile(path)


def test_pruning_needs_a_full_file(six_dbs, tmp_path):
    """prune_to_losses refuses a file already pruned (nothing to drop), naming it."""
    _, pruned, _ = six_dbs
    path = file_path(pruned, SIX, Subspace(4, 4), "dtw")
    with pytest.raises(ValueError, match="keeps the lost slots"):
        prune_to_losses(path, stored_values(file_path(pruned, SIX, Subspace(4, 4))))



def test_the_book_is_sized_by_the_whole_dtw_files_it_ships(six_dbs, capsys):
    """scripts/make_book.py ships dtw files whole (the book lacks the children a pruned win's
    dtw comes from), so it sizes a pruned file by its whole copy: a pruned database and a full
    one choose the same book, under a budget that takes only part of the dtw layers."""
    full, pruned, _ = six_dbs
    mb = script_module.load("make_book")
    values = sum(size for _, _, size in mb.book_layers(full, SIX, ["values"]))
    dtw = [size for _, _, size in mb.book_layers(full, SIX, ["dtw"])]
    budget = values + sum(dtw) // 2
    a = mb.choose(str(full), SIX, ["values", "dtw"], budget)
    b = mb.choose(str(pruned), SIX, ["values", "dtw"], budget)
    assert a == b
    shipped = sum(k == "dtw" for _, k in a[1])
    assert 0 < shipped < len([s for s in a[1] if s[1] == "values"])
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("book:")]
    assert len(printed) == 2 and printed[0] == printed[1]


def test_the_book_writes_each_whole_dtw_file_once(six_dbs, tmp_path):
    """The whole copy that sizes a pruned dtw file stays aside and is the one the book ships:
    sizing again does not write it again, and the shipped file is the full solve's."""
    full, pruned, _ = six_dbs
    mb = script_module.load("make_book")
    aside, book = tmp_path / "aside", tmp_path / "book"
    aside.mkdir(), book.mkdir()
    budget = sum(size for _, _, size in mb.book_layers(full, SIX, ["values", "dtw"]))
    _, files = mb.choose(str(pruned), SIX, ["values", "dtw"], budget, str(aside))
    dtw = [file_path(pruned, SIX, s, "dtw") for s, kind in files if kind == "dtw"]
    whole = set()
    for f in dtw:
        with TableFile(f) as tf:
            if tf.pruned():
                whole.add(os.path.basename(f))
    assert whole and set(os.listdir(aside)) == whole
    stamps = {n: os.stat(aside / n).st_mtime_ns for n in whole}
    mb.choose(str(pruned), SIX, ["values", "dtw"], budget, str(aside))
    assert {n: os.stat(aside / n).st_mtime_ns for n in whole} == stamps
    for s, kind in files:
        mb.ship(file_path(pruned, SIX, s, kind), kind, str(book), str(aside))
    assert not os.listdir(aside)
    for s, kind in files:
        with open(file_path(full, SIX, s, kind), "rb") as a, \
                open(book / os.path.basename(file_path(full, SIX, s, kind)), "rb") as b:
            assert a.read() == b.read(), (s, kind)


def test_files_the_solve_prunes_are_written_fast_first_and_end_the_same(six_dbs, tmp_path,
                                                                       monkeypatch):
    """A solve with dtw writes the dtw files it prunes at its end at zstd's FAST_LEVEL
    (schedule.soon_pruned: every reader in the plan), the others at SELECT_LEVEL; the files it
    leaves are the bytes of files written at SELECT_LEVEL and pruned. A movement-only plan
    prunes nothing of the movement phase (its readers, the placement jobs, are not in it)."""
    from morris.format.fileformat import FAST_LEVEL, SELECT_LEVEL
    from morris.solving import jobs as J
    from morris.solving.schedule import job_graph, soon_pruned

    _, pruned, _ = six_dbs
    levels = {}
    write = J.write_distance_table

    def spy(path, *args):
        levels[os.path.basename(path)] = args[-1]
        return write(path, *args)

    monkeypatch.setattr(J, "write_distance_table", spy)
    out = tmp_path / "db"
    solve(out, SIX, phase="all", reporter=QUIET, dtw=True)
    subs = _dtw_subspaces(pruned)
    fast = {f"{s.name}.mtw" for s in subs if prunable(SIX, s, set(subs))}
    assert set(levels) == {f"{s.name}.mtw" for s in subs} and len(fast) > 100
    assert {n for n, lv in levels.items() if lv == FAST_LEVEL} == fast
    assert all(lv == SELECT_LEVEL for n, lv in levels.items() if n not in fast)
    for s in subs:
        a = (out / SIX.ruleset_id / f"{s.name}.mtw").read_bytes()
        assert a == (pruned / SIX.ruleset_id / f"{s.name}.mtw").read_bytes(), s.name
    jobs, _ = job_graph(SIX, phase="movement", dtw=True)
    assert soon_pruned(SIX, jobs) == set()
