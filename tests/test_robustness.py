"""Damaged, missing and half-written files; a killed solve resumes to identical files."""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from filetree import files_of

from morris.dbfile import TableFile
from morris.errors import CorruptDatabaseError, MissingSubspaceError
from morris.position import Position
from morris.tablebase import open_tablebase
from morris.verify import verify

POS = "a1,d1,g1,b2/a7,d7,g7 b"  # standard 3-4 from black's point of view: subspace 3-4


@pytest.fixture
def db(solved, tmp_path):
    d = tmp_path / "db"
    shutil.copytree(solved, d)
    return d


def test_truncated_file(db):
    path = db / "standard" / "3-4.mtb"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptDatabaseError, match="3-4.mtb: truncated"):
        with open_tablebase(db) as tb:
            tb.probe(Position.parse(POS))
    report = verify(str(db))
    f34 = next(f for f in report.files if f.path.endswith(os.path.join("standard", "3-4.mtb")))
    assert "truncated" in f34.checksum and not report.ok


def test_flipped_byte_in_a_block(db):
    path = db / "standard" / "3-4.mtb"
    pos = Position.parse(POS)
    with open_tablebase(db) as tb:
        tf, i = tb.slot(pos)
        offs = tf.offsets("wdl")
        per = tf.header["sections"]["wdl"]["block_slots"]
        k = i // per
        at = int(offs[k] + offs[k + 1]) // 2
        expected = tb.probe(pos)
        original = path.read_bytes()
    data = bytearray(path.read_bytes())
    data[at] ^= 0x40
    path.write_bytes(bytes(data))
    with open_tablebase(db) as tb:
        with pytest.raises(CorruptDatabaseError, match="3-4.mtb: damaged block"):
            tb.probe(pos)
    report = verify(str(db), forward=False)
    assert [f.checksum for f in report.files if not f.ok] == [f"{path}: checksum mismatch"]
    # the undamaged file answers as before: the damage was detected, not a different answer
    path.write_bytes(original)
    with open_tablebase(db) as tb:
        assert tb.probe(pos) == expected


def test_flipped_byte_in_the_header(db):
    path = db / "standard" / "3-4.mtb"
    data = bytearray(path.read_bytes())
    data[40] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptDatabaseError, match="header checksum mismatch"):
        TableFile(path)


def test_deleted_file(db):
    os.remove(db / "standard" / "3-4.mtb")
    with open_tablebase(db) as tb:
        with pytest.raises(MissingSubspaceError, match="no database for subspace 3-4") as info:
            tb.probe(Position.parse(POS))
        assert isinstance(info.value, KeyError)
        assert tb.get(Position.parse(POS)) is None
        assert tb.get(Position.parse(POS), "n/a") == "n/a"


def test_not_a_database(db):
    (db / "standard" / "3-4.mtb").write_bytes(b"hello world, this is not a table" * 4)
    with pytest.raises(CorruptDatabaseError, match="bad magic"):
        TableFile(db / "standard" / "3-4.mtb")


def test_killed_solve_resumes_to_identical_files(tmp_path):
    ref = tmp_path / "ref"
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "cli.main", "solve", "--quiet", "--max-pieces", "5"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    subprocess.run(cmd + ["--out", str(ref)], check=True, env=env, cwd=os.path.dirname(os.path.dirname(__file__)))
    proc = subprocess.Popen(cmd + ["--out", str(run)], env=env, cwd=os.path.dirname(os.path.dirname(__file__)))
    target = run / "standard" / "4-4.mtb"
    deadline = time.time() + 300
    while not target.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = files_of(run)
    assert "standard/5-5.mtb" not in partial, "the solve finished before it was killed"
    subprocess.run(cmd + ["--out", str(run)], check=True, env=env, cwd=os.path.dirname(os.path.dirname(__file__)))
    done = files_of(run)
    assert done == files_of(ref)  # stale temporaries were removed too
    assert len(done) == 9
