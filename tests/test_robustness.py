"""Damaged, missing and half-written files; a killed solve resumes to identical files."""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from filetree import files_of

from morris.format.fileformat import TableFile
from morris.core.errors import CorruptDatabaseError, MissingSubspaceError
from morris.core.position import Position
from morris.lookups.tablebase import open_tablebase
from morris.solving.verify import verify

POS = "a1,d1,g1,b2/a7,d7,g7 b"  # standard 3-4 from black's point of view: subspace 3-4


@pytest.fixture
def db(solved, tmp_path):
    """A copy of the standard game's movement files of ``solved`` (up to 4 a side)."""
    d = tmp_path / "db"
    shutil.copytree(os.path.join(solved, "standard"), d / "standard", ignore=shutil.ignore_patterns("*+*"))
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


def test_killed_solve_resumes_to_identical_files(standard5, tmp_path):
    ref = standard5  # the same solve, never killed
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "cli.main", "solve", "--quiet", "--max-pieces", "5"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
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


def test_the_missing_file_message_says_what_to_solve_and_what_it_costs(db):
    from morris.solving.schedule import estimate, job_graph, rate_of
    from morris.hashing.subspaces import Subspace
    from morris.core.variants import get_variant

    os.remove(db / "standard" / "3-4.mtb")
    with open_tablebase(db) as tb, pytest.raises(MissingSubspaceError) as info:
        tb.probe(Position.parse(POS))
    from morris.apps.advice import error_line

    # the lookup names what is missing; the apps add what to solve (advice.py)
    assert "morris solve" not in str(info.value)
    assert info.value.subspace == "3-4" and info.value.variant == get_variant("standard")
    text = error_line(info.value, db)
    assert text.startswith("MissingSubspaceError: no database for subspace 3-4 of ruleset standard")
    assert f"morris solve --out {db} --variant standard 3-4 (" in text
    v = get_variant("standard")
    jobs, _ = job_graph(v, [Subspace(3, 4)])
    secs, size = estimate(v, jobs)
    # the estimate is the positions at the measured rates (2 cores)
    positions = sum(j.weight(v) for j in jobs)
    assert secs == pytest.approx(positions / (2 * rate_of(v, "movement")[0]))
    assert size == pytest.approx(positions * rate_of(v, "movement")[1])
    assert f"{len(jobs)} jobs: about" in text and "on 2 cores" in text and "of files" in text


def test_distances_the_values_imply_are_not_stored(tmp_path):
    """Codec "ones": where every win and loss is at distance 1 (a side's last placement), the
    distance plane is left out and read back from the values; elsewhere it is stored."""
    import numpy as np

    from morris.format.fileformat import write_table

    rng = np.random.default_rng(5)
    vals = rng.integers(0, 3, 10_000).astype(np.uint8)
    vals[::97] = 3  # unused slots
    anchors = np.arange(3, dtype=np.int64)
    ones = ((vals == 1) | (vals == 2)).astype(np.uint8)
    header = {"subspace": "x", "positions": int((vals != 3).sum())}
    for name, dtc in (("implied", ones), ("stored", ones * rng.integers(1, 9, len(vals)).astype(np.uint8))):
        path = tmp_path / f"{name}.mtb"
        write_table(str(path), header, vals, dtc, anchors)
        with TableFile(path, schema=False) as tf:  # (a made-up header: the layout is tested)
            assert tf.header["sections"]["dtc"]["codec"] == ("ones" if name == "implied" else "uint8")
            used = vals != 3
            assert np.array_equal(tf.values_all()[used], vals[used])
            assert np.array_equal(tf.dtc_all()[used], dtc[used])
            # (the whole-section reader too: a "ones" section is no corrupt one)
            assert np.array_equal(tf.distance_all("dtc")[used], dtc[used])
            for i in np.flatnonzero(used)[:300]:
                v, d = tf.value_dtc(int(i))
                assert v == vals[i] and (d is None if v == 0 else d == dtc[i])
                assert tf.dtc(int(i)) == dtc[i]
    assert (tmp_path / "implied.mtb").stat().st_size < (tmp_path / "stored.mtb").stat().st_size


def test_a_section_a_file_lacks_is_named_with_the_file_and_what_it_holds():
    """A values file asked for a dtw or draw-value section (which live in the files beside it)
    answers with a KeyError that names the file and its sections, not a bare key."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                        "six-nofly", "5-5.mtb")
    with TableFile(path) as tf:
        for ask in (lambda: tf.distance_all("dtw"), lambda: tf.distance("dv", 3)):
            with pytest.raises(KeyError) as err:
                ask()
            assert "5-5.mtb has no" in str(err.value) and "(it holds: wdl, dtc)" in str(err.value)
        assert tf.value_dtc(5)[0] in (0, 1, 2)  # (the sections it has still read)
