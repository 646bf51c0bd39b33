"""Faults: a disk that fills up during a solve, damaged files reaching the lookups, the API and the
explorer, files that are not what their folder says, writes aimed at links, pipes and devices."""

import os
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from morris.cli.main import cli
from morris.format.fileformat import TMP_MARK, check_file
from morris.database.folders import find_tables


@pytest.fixture
def tiny_disk(tmp_path):
    """A 600 kB tmpfs (root only; skipped, saying why, where it cannot be mounted)."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mnt)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {r.stderr.strip() or r.returncode}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_full_disk_is_one_line_keeps_complete_files_and_resumes(tiny_disk):
    r = CliRunner().invoke(cli, ["solve", "--out", str(tiny_disk), "--variant", "six", "--phase", "all",
                                 "--quiet"])
    assert r.exit_code == 4, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ResourceError: ") and "no space left" in lines[0]
    assert "Traceback" not in r.output
    names = os.listdir(tiny_disk / "six-nofly")
    assert not [n for n in names if TMP_MARK in n], "a half-written file was left"
    kept = find_tables(tiny_disk)
    assert kept and all(check_file(p) is None for p in kept)
    # room again: the same command resumes and keeps what was complete
    subprocess.run(["mount", "-o", "remount,size=8m", str(tiny_disk)], check=True)
    before = {p: os.stat(p).st_mtime_ns for p in kept}
    r = CliRunner().invoke(cli, ["solve", "--out", str(tiny_disk), "--variant", "six", "--phase", "all",
                                 "--quiet"])
    assert r.exit_code == 0, r.output
    import re

    complete = re.search(r"the (\d+) complete jobs are kept", lines[0]).group(1)
    assert int(complete) > 0 and f"{complete} already complete" in r.output
    assert all(os.stat(p).st_mtime_ns == t for p, t in before.items())
    assert len(find_tables(tiny_disk)) == 219


@pytest.fixture
def damaged(tmp_path, solved):
    """A copy of the standard 3-3 file with its anchor table overwritten (valid header CRC)."""
    from morris.format.fileformat import TableFile

    db = tmp_path / "db"
    (db / "standard").mkdir(parents=True)
    for name in ("3-3.mtb", "4-3.mtb", "3-4.mtb"):
        shutil.copy(os.path.join(solved, "standard", name), db / "standard" / name)
    path = db / "standard" / "3-3.mtb"
    with TableFile(path) as tf:
        sec = tf.header["sections"]["anchors"]
    data = bytearray(path.read_bytes())
    data[sec["offset"]: sec["offset"] + sec["length"]] = b"\xff" * sec["length"]
    path.write_bytes(bytes(data))
    return db


POS33 = "a1,d1,g1/a7,d7,g7 w"


def test_a_damaged_file_is_blamed_not_the_position(damaged):
    r = CliRunner().invoke(cli, ["query", "--db", str(damaged), POS33])
    assert r.exit_code == 3, r.output
    line, = r.output.strip().splitlines()
    assert "CorruptDatabaseError" in line and "3-3.mtb" in line
    assert "IllegalPositionError" not in line


def test_the_api_answers_a_damaged_file_with_503_and_no_server_path(damaged):
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from test_server import get, start_server

    base, stop = start_server(str(damaged))
    try:
        status, obj = get(base, "/api/probe", position=POS33)
        assert status == 503, obj
        assert "CorruptDatabaseError" in obj["error"] and "standard/3-3.mtb" in obj["error"]
        assert str(damaged) not in obj["error"] and "/tmp" not in obj["error"]
        import urllib.error
        import urllib.request

        try:
            urllib.request.urlopen(f"{base}/?position={POS33.replace(' ', '%20')}", timeout=30)
            raise AssertionError("the explorer answered 200 for a damaged file")
        except urllib.error.HTTPError as exc:
            assert exc.code == 503
            page = exc.read().decode()
        assert page.startswith("<!doctype html>") and "CorruptDatabaseError" in page
        assert str(damaged) not in page
    finally:
        stop()


def test_verify_reports_a_folder_named_like_a_file_and_a_file_in_the_wrong_folder(tmp_path, solved):
    db = tmp_path / "db"
    (db / "standard").mkdir(parents=True)
    (db / "six-nofly").mkdir()
    shutil.copy(os.path.join(solved, "standard", "3-3.mtb"), db / "standard" / "3-3.mtb")
    (db / "standard" / "4-4.mtb").mkdir()  # a folder where a file should be
    shutil.copy(os.path.join(solved, "standard", "3-3.mtb"), db / "six-nofly" / "3-3.mtb")  # other rules
    shutil.copy(os.path.join(solved, "standard", "4-3.mtb"), db / "standard" / "3-4.mtb")  # other subspace
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--checksums-only"])
    assert r.exit_code == 3, r.output
    out = r.output
    assert "FAIL" in out and "4-4.mtb: not a regular file" in out
    assert "six-nofly/3-3.mtb: holds ruleset 'standard' but lies in the folder of 'six-nofly'" in out
    assert "standard/3-4.mtb: holds subspace '4-3' but is named '3-4.mtb'" in out
    assert "ok   " + str(db / "standard" / "3-3.mtb") in out


def test_verify_follows_a_linked_rule_set_folder_and_ends_at_a_loop(tmp_path, solved):
    # a rule set's folder linked in from another database (how a twin is shared) is checked,
    # not passed over as "no databases" (os.walk does not follow links by itself)
    db = tmp_path / "db"
    db.mkdir()
    (db / "six-nofly").symlink_to(os.path.join(solved, "six-nofly"), target_is_directory=True)
    (db / "loop").mkdir()
    (db / "loop" / "back").symlink_to(db, target_is_directory=True)
    want = sorted(n for n in os.listdir(os.path.join(solved, "six-nofly")) if n.endswith(".mtb"))
    found = find_tables(db)
    assert sorted(os.path.basename(p) for p in found) == want  # the loop walked no further
    assert all(os.path.dirname(p) == str(db / "six-nofly") for p in found)
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--checksums-only"])
    assert r.exit_code == 0, r.output
    assert f"{len(want):,} files verified" in r.output


def test_writes_go_through_a_link_and_never_replace_a_pipe_or_device(tmp_path):
    target = tmp_path / "target.svg"
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    r = CliRunner().invoke(cli, ["show", "start", "--svg", str(link)])
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and target.read_text().startswith("<svg")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/null"):
        r = CliRunner().invoke(cli, ["show", "start", "--svg", str(path)])
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")
    import stat

    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_idle_connections_do_not_stop_other_clients(solved):
    """Connections that open and send nothing (or half a request) do not hold up a client that
    asks properly."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    import socket
    import time
    import urllib.parse

    from test_server import get, start_server

    base, stop = start_server(solved)
    host, port = urllib.parse.urlparse(base).netloc.split(":")
    idle = []
    try:
        for i in range(40):
            s = socket.create_connection((host, int(port)))
            if i % 2:
                s.sendall(b"GET /api/probe?position=start HTTP/1.1\r\nHost: x\r\n")  # never ends
            idle.append(s)
        t0 = time.perf_counter()
        status, obj = get(base, "/api/probe", position="a1,d1,g1/a7,d7,g7 w")
        assert status == 200 and obj["value"] == "win"
        assert time.perf_counter() - t0 < 5
    finally:
        for s in idle:
            s.close()
        stop()


def test_the_reported_examples_run_again(tmp_path, solved):
    """The examples of the reliability report, as a new user would run them."""
    import io

    from morris.apps.engine import Engine
    from morris.core.variants import get_variant

    run = CliRunner().invoke
    # the engine keeps its rule flags when a GUI names the variant: no flying with 3 pieces
    from morris.core.position import Position

    from morris.core.progress import Reporter
    from morris.solving.schedule import solve

    nofly = get_variant("standard", flying=False)
    solve(tmp_path / "nofly", nofly, max_pieces=4, reporter=Reporter(quiet=True))
    pos = Position.parse("a1,d1,g1/a7,d7,g7,b2 w", nofly)
    out = io.StringIO()
    e = Engine(str(tmp_path / "nofly"), nofly, out)
    for line in ["setoption name Variant value standard", f"position fen {pos.to_fen()}", "go"]:
        e.handle(line)
    assert e.variant.rules.flying is False
    best = [x for x in out.getvalue().splitlines() if x.startswith("bestmove")][-1].split()[1]
    assert best in {str(m) for m in pos.legal_moves()}, (best, out.getvalue())
    # perft and moves agree under a no-removal limit at its end
    pos = "a1,d1,g1,b2/a7,d7,g7,b6 w c=16"
    assert run(cli, ["moves", pos, "--no-removal-limit", "16"]).output.startswith("0 legal moves")
    assert "perft(1) = 0" in run(cli, ["perft", pos, "1", "--no-removal-limit", "16"]).output
    # verify-draw by sweep over an empty directory: no file, no claim
    (tmp_path / "empty").mkdir()
    r = run(cli, ["verify-draw", "--db", str(tmp_path / "empty"), "--method", "sweep"])
    assert r.exit_code == 3 and "no database for subspace 0-0+9+9" in r.output
    # play stops with the error's status when the bot cannot go on
    r = run(cli, ["play", "--db", str(tmp_path / "empty"), "--as", "black", "a1,d1,g1,b2,b4/a7,d7,g7 w"],
            input="")
    assert r.exit_code == 3 and "the bot cannot go on" in r.output


def _copy_standard(solved, db, names=("3-3", "4-3", "3-4", "4-4")):
    (db / "standard").mkdir(parents=True)
    for n in names:
        shutil.copy(os.path.join(solved, "standard", n + ".mtb"), db / "standard" / (n + ".mtb"))


@pytest.mark.parametrize("suffix", [".mtb", ".mtw", ".mdv"])
def test_a_named_pipe_for_a_file_is_damage_not_a_hang(tmp_path, solved, suffix):
    """A named pipe where a values, dtw or draw-value file should be: every command that reads
    it answers at once, exit 3, naming the file (it used to wait for a writer for ever)."""
    import signal

    db = tmp_path / "db"
    _copy_standard(solved, db)
    pipe = db / "standard" / ("3-3" + suffix)
    if suffix == ".mtb":
        pipe.unlink()
    os.mkfifo(pipe)
    args = (["query", "--db", str(db), "a1,d1,g1/a7,d7,g7 w"] if suffix == ".mtb"
            else ["stats", "--db", str(db)])  # (stats reads every dtw and draw-value file)
    old = signal.signal(signal.SIGALRM, lambda *a: (_ for _ in ()).throw(TimeoutError("hung")))
    signal.alarm(60)
    try:
        r = CliRunner().invoke(cli, args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert r.exit_code == 3, r.output
    assert "CorruptDatabaseError" in r.output and "named pipe" in r.output and "3-3" in r.output


def test_a_side_file_of_other_rules_is_refused_as_damaged_data(tmp_path):
    """A no-flying dtw file in the flying folder: not served (it once answered dtw 5 where the
    truth is 33), but refused as a file of other rules: exit 3, naming it."""
    from morris.core.progress import Reporter
    from morris.solving.schedule import solve
    from morris.core.variants import get_variant

    quiet = Reporter(quiet=True)
    solve(tmp_path / "a", get_variant("standard"), max_pieces=3, reporter=quiet, dtw=True)
    solve(tmp_path / "b", get_variant("standard", flying=False), max_pieces=3, reporter=quiet, dtw=True)
    shutil.copy(tmp_path / "b" / "standard-nofly" / "3-3.mtw", tmp_path / "a" / "standard" / "3-3.mtw")
    r = CliRunner().invoke(cli, ["query", "--db", str(tmp_path / "a"), "a1,d1,g1/a7,d7,g7 w"])
    assert r.exit_code == 3, r.output
    assert "ForeignDatabaseError" in r.output and "3-3.mtw" in r.output


def test_a_resume_sets_aside_a_foreign_file_and_ends_as_a_clean_run(tmp_path):
    """A no-flying values file and a no-flying dtw file copied into the flying folder: the
    resume says so, sets both aside, and solves them again; every file then has the bytes of a
    clean run (it once took the foreign file as complete and solved the rest on top of it)."""
    from morris.core.progress import Reporter
    from morris.solving.schedule import solve
    from morris.core.variants import get_variant

    quiet = Reporter(quiet=True)
    fly, nofly = get_variant("standard"), get_variant("standard", flying=False)
    solve(tmp_path / "clean", fly, max_pieces=4, reporter=quiet, dtw=True)
    solve(tmp_path / "other", nofly, max_pieces=3, reporter=quiet, dtw=True)
    work = tmp_path / "work" / "standard"
    work.mkdir(parents=True)
    for name in ("3-3.mtb", "3-3.mtw"):
        shutil.copy(tmp_path / "other" / "standard-nofly" / name, work / name)
    r = CliRunner().invoke(cli, ["solve", "--out", str(tmp_path / "work"), "--max-pieces", "4", "--dtw"])
    assert r.exit_code == 0, r.output
    assert r.output.count("set aside") == 2 and "standard-nofly" in r.output, r.output
    assert sorted(n for n in os.listdir(work) if n.endswith(".set-aside")) == [
        "3-3.mtb.set-aside", "3-3.mtw.set-aside"]
    clean = tmp_path / "clean" / "standard"
    names = sorted(n for n in os.listdir(clean))
    assert names == sorted(n for n in os.listdir(work) if not n.endswith(".set-aside"))
    for n in names:
        assert (clean / n).read_bytes() == (work / n).read_bytes(), n


@pytest.mark.parametrize("kind, field, change", [
    ("values", "wins", 1), ("values", "draws", -1), ("values", "max_win_dtc", 2),
    ("values", "max_loss_dtc", -1), ("dtw", "max_win_dtw", 2), ("dtw", "max_loss_dtw", 2),
    ("dtw", "max_win_dtw_slot", 1), ("draw", "max_draw_distance", 1), ("draw", "draw_values", 1),
])
def test_verify_counts_the_header_statistics_again(tmp_path, six_small, kind, field, change):
    """A header whose statistics were changed and its checksum made good (the longest win, a
    count, the slot of the longest win, a draw-value count) passes the checksum, but not
    `verify`: it counts every statistic again from the planes (they were published by `stats`
    and the explorer as they stood)."""
    from filetree import rewrite_side, rewrite_values_header, side_planes
    from morris.core.variants import get_variant
    from morris.database.folders import file_path
    from morris.format.fileformat import TableFile
    from morris.hashing.subspaces import Subspace

    v = get_variant("six", flying=True)
    db = tmp_path / "db"
    shutil.copytree(six_small / v.ruleset_id, db / v.ruleset_id)
    path = file_path(db, v, Subspace(4, 3), kind)
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--quiet"])
    assert r.exit_code == 0, r.output  # (the honest copy passes)
    with TableFile(path) as tf:
        old = tf.header[field]
    if field == "draw_values":
        key = next(iter(old))
        new = {**old, key: old[key] + change}
    else:
        new = old + change
    if kind == "values":
        rewrite_values_header(path, **{field: new})
    else:
        header, planes, anchors, stored = side_planes(path, ("dtw",) if kind == "dtw" else ("dv", "dd"))
        header[field] = new
        rewrite_side(path, header, planes, anchors, stored)
    # the checksum is good: the gate passes it, or names the field where the header contradicts
    # itself (a count that no longer adds up: docs/format.md)
    problem = check_file(path)
    assert problem is None or field in problem, problem
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--quiet"])
    assert r.exit_code == 3, r.output
    assert f"FAIL {path}:" in r.output and field.removesuffix("_slot") in r.output, r.output


def _set(path, value):
    def change(h):
        *keys, last = path
        for k in keys:
            h = h[k]
        h[last] = value
    return change


FORGED = [
    (("slots",), v) for v in (-1, None, "9", [1], 1.5, True, 1 << 50)
] + [
    (("sections", "wdl", "nblocks"), v) for v in (-1, None, "2", 10 ** 9, 0)
] + [
    (("sections", "dtc", "block_slots"), v) for v in (0, -4, None, "x")
] + [
    (("sections", "wdl", "codec"), v) for v in ("uint8", None, 7)
] + [
    (("sections",), v) for v in (None, [], "x")
] + [(("sections", "wdl"), None), (("kind",), "dtw"), (("kind",), "nonsense"), (("kind",), None)]


@pytest.mark.parametrize("field, value", FORGED, ids=[f"{'.'.join(f)}={v!r}" for f, v in FORGED])
def test_a_forged_header_field_is_damage_not_a_traceback(tmp_path, solved, field, value):
    """A values file whose header has a field of the wrong type or range (a list, null, a
    string, a float, a negative or huge count, a codec or kind it cannot have), its header
    checksum made good: `query` says the file is damaged, naming it, exit 3 (it once gave a
    traceback, or an HTTP 500 `internal error: KeyError`)."""
    from filetree import forge_header

    db = tmp_path / "db"
    _copy_standard(solved, db)
    path = db / "standard" / "3-3.mtb"
    if not forge_header(path, _set(field, value)):
        pytest.skip("the forged header is longer than the file's")
    r = CliRunner().invoke(cli, ["query", "--db", str(db), "a1,d1,g1/a7,d7,g7 w"])
    assert r.exit_code == 3, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "CorruptDatabaseError" in lines[0] and "3-3.mtb" in lines[0], r.output
    assert "Traceback" not in r.output


LAYOUT = [
    ("dtw", ("sections", "dtw", "select"), "drawn"),     # the draws' dtw instead of the decided
    ("dtw", ("sections", "dtw", "halved"), False),       # a movement dtw not halved: wins served even
    ("draw", ("sections", "dv", "select"), "decided"),
    ("draw", ("sections", "dd", "halved"), True),        # only dtw is ever halved
]


@pytest.mark.parametrize("kind, field, value", LAYOUT, ids=[f"{'.'.join(f)}={v!r}" for _, f, v in LAYOUT])
def test_a_layout_field_that_contradicts_the_values_is_damage(tmp_path, six_small, kind, field, value):
    """A dtw or draw-value file whose selection (which slots a section keeps, and whether it is
    halved) is not the one its section is written with, its header checksum made good: the
    lookups once served wins with even dtw, or with dtw 0; now `query` names the file as
    damaged, exit 3, in one line."""
    from filetree import forge_header
    from morris.core.variants import get_variant
    from morris.database.folders import file_path
    from morris.hashing.subspaces import Subspace

    v = get_variant("six", flying=True)
    db = tmp_path / "db"
    shutil.copytree(six_small / v.ruleset_id, db / v.ruleset_id)
    from morris.core.position import Position
    from morris.format.fileformat import TableFile
    from morris.hashing.index import Hasher

    s = Subspace(4, 3)
    path = file_path(db, v, s, kind)
    want = 1 if kind == "dtw" else 0  # a won position of 4-3 (its dtw is read), or a drawn one
    with TableFile(file_path(db, v, s)) as tf:
        i = int((tf.values_all() == want).nonzero()[0][0])
    h = Hasher(v.board)
    mover, opp, used = h.unindex_py(s, i, h.anchor_reps(s.o))
    assert used
    pos = Position.from_masks(v, mover, opp, 0)
    assert forge_header(path, _set(field, value))
    r = CliRunner().invoke(cli, ["query", "--db", str(db), "--variant", "six", "--flying",
                                 pos.to_compact()])
    assert r.exit_code == 3, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "CorruptDatabaseError" in lines[0] and os.path.basename(path) in lines[0], r.output
    assert "Traceback" not in r.output


def test_out_of_memory_is_a_resource_error_for_every_command(standard5, tmp_path):
    """Under a memory limit (``ulimit -v``): solve, and verify of files that fit on disk but
    not in memory, end in one ResourceError line, exit 4 (they once ended in a traceback: a
    numpy MemoryError at 500 MB, numba's compiler library failing to load at 300 MB; with scipy
    installed, OpenBLAS's threads spun for ever at 480 MB); what was complete stays, and the
    same solve resumes with room."""
    import resource
    import sys

    ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # the standard game's largest file up to 5 a side and the file its removals lead to: a file
    # that fits on disk, not in memory (verify checks 5-5 at once; 4-5 it skips, its inputs absent)
    db = tmp_path / "big"
    (db / "standard").mkdir(parents=True)
    for name in ("5-5.mtb", "4-5.mtb"):
        shutil.copy(standard5 / "standard" / name, db / "standard" / name)

    def capped(limit_mb):
        def cap():
            resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
        return cap

    # verify's kernels compiled first, with room: numba's compiler under a cap that lets it load
    # but not finish aborts in C ("LLVM ERROR: out of memory", SIGABRT), where Python cannot catch
    # it (README, "Every error is one line"); on a cold cache this test met it when no test before
    # it had compiled them
    warm = subprocess.run([sys.executable, "-m", "cli.main", "verify", "--db", str(db), "--quiet"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert any(line.startswith("ok") and "5-5.mtb" in line for line in warm.stdout.splitlines()), \
        (warm.stdout[-500:], warm.stderr[-1500:])  # (4-5 is skipped, its inputs absent)
    for args, limit_mb in ((["solve", "--out", str(tmp_path / "new"), "--max-pieces", "4", "--quiet"], 300),
                           (["verify", "--db", str(db), "--quiet"], 300),
                           (["verify", "--db", str(db), "--quiet"], 500),
                           (["verify", "--db", str(db), "--quiet"], 480)):  # (OpenBLAS spun here)
        r = subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, capture_output=True,
                           text=True, preexec_fn=capped(limit_mb), timeout=300)
        assert r.returncode == 4, (args, limit_mb, r.stdout[-500:], r.stderr[-1500:])
        lines = r.stderr.strip().splitlines()
        assert lines[-1].startswith("ResourceError: ") and "Traceback" not in r.stderr, r.stderr[-1500:]
    again = subprocess.run([sys.executable, "-m", "cli.main", "solve", "--out", str(tmp_path / "new"),
                            "--max-pieces", "4", "--quiet"], cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("exc, code", [
    (RuntimeError("can't start new thread"), 4),  # what ``ulimit -v`` does to a new thread
    (RuntimeError("something else"), None),  # any other RuntimeError is not called a resource
])
def test_a_thread_the_system_refuses_is_out_of_memory(tmp_path, monkeypatch, exc, code):
    from morris.core.errors import out_of_room
    from morris.solving import verify

    def refused(*args, **kwargs):
        raise exc

    monkeypatch.setattr(verify, "verify", refused)
    (tmp_path / "standard").mkdir()
    r = CliRunner().invoke(cli, ["verify", "--db", str(tmp_path), "--quiet"])
    if code is None:
        assert out_of_room(exc) is None
        assert r.exit_code != 4 and r.exception is exc  # raised as it is, not dressed up
        return
    assert out_of_room(exc) == "out of memory (a thread could not be started)"
    from morris.core.errors import ResourceError

    assert ResourceError.http_status == 507  # the server's "insufficient storage", not 400 (input)
    assert r.exit_code == code, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ResourceError: out of memory (a thread")


ANCHOR_LAYOUT = [
    ("anchor_fence", lambda h: h.__setitem__("anchor_fence", [x + 1 for x in h["anchor_fence"]])),
    ("anchors.offset+8", lambda h: h["sections"]["anchors"].__setitem__("offset", h["sections"]["anchors"]["offset"] + 8)),
    ("anchors.offset-8", lambda h: h["sections"]["anchors"].__setitem__("offset", h["sections"]["anchors"]["offset"] - 8)),
]


@pytest.mark.parametrize("name, change", ANCHOR_LAYOUT, ids=[n for n, _ in ANCHOR_LAYOUT])
def test_an_anchor_layout_forged_with_every_checksum_made_good_is_caught(tmp_path, solved, name, change):
    """The anchor fence or the anchor table's offset changed, the header's and the whole
    file's checksums made good (as docs/format.md describes them): `verify --checksums-only`
    fails the file and `query` names it as damaged, exit 3 (both once passed it)."""
    from filetree import forge_header

    db = tmp_path / "db"
    _copy_standard(solved, db)
    path = db / "standard" / "3-3.mtb"
    assert forge_header(path, change, whole=True)
    assert check_file(path) is not None
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--checksums-only", "--quiet"])
    assert r.exit_code == 3 and f"FAIL {path}" in r.output, r.output
    r = CliRunner().invoke(cli, ["query", "--db", str(db), "a1,d1,g1/a7,d7,g7 w"])
    assert r.exit_code == 3, r.output
    line, = r.output.strip().splitlines()
    assert "CorruptDatabaseError" in line and line.count("3-3.mtb") == 1, line
