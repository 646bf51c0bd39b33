"""The values files compressed by tuned zstd match finders (fileformat.WDL_LEVEL and DTC_LEVEL,
Tunings; issue 31): the same planes read back, frames any zstd decoder reads, no larger than
levels 12 and 9 (the writer's settings before) on real planes; and scripts/same_values.py, which
tells files that hold the same contents in other bytes from files that differ."""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import zstandard as zstd

from morris.format import fileformat as F
from morris.format.fileformat import TableFile, write_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIX = os.path.join(ROOT, "data", "six-nofly")
#: the largest shipped Six Men's Morris files
LARGEST = ("5-6.mtb", "5-5.mtb", "4-5.mtb", "6-5.mtb", "6-6.mtb")


def _contents(path):
    with TableFile(path) as tf:
        header = {k: v for k, v in tf.header.items() if k not in F.LAYOUT_KEYS}
        return header, tf.values_all(), tf.dtc_all(), np.array(tf.anchors, dtype=np.int64)


def _write(path, levels, monkeypatch, contents):
    """Write ``contents`` with the writer's (wdl, dtc) settings set to ``levels``."""
    monkeypatch.setattr(F, "WDL_LEVEL", levels[0])
    monkeypatch.setattr(F, "DTC_LEVEL", levels[1])
    write_table(path, *contents[:3], contents[3])
    monkeypatch.undo()


def _section_bytes(path, name):
    with TableFile(path) as tf:
        offs = tf.offsets(name)
        return int(offs[-1] - offs[0])


#: the writer's settings before the tuning, and now
BEFORE = (12, 9)
NOW = (F.WDL_LEVEL, F.DTC_LEVEL)


def test_the_tuned_sections_read_back_and_are_no_larger_than_before(standard5, tmp_path,
                                                                     monkeypatch):
    """On the standard game's planes up to 5 a side (whose files the solve wrote tuned): each
    written again tuned and at levels 12 and 9, read back the same; each section's tuned
    frames weigh less in sum (not on every plane: the distances of Six Men's Morris's five
    largest weigh 0.55% more, all of its planes' 0.4% less)."""
    assert isinstance(F.DTC_LEVEL, F.Tuning) and isinstance(F.WDL_LEVEL, F.Tuning)
    tuned = {"wdl": 0, "dtc": 0}
    before = {"wdl": 0, "dtc": 0}
    names = sorted(os.listdir(standard5 / "standard"))
    assert len(names) == 9
    for name in names:
        contents = _contents(standard5 / "standard" / name)
        a, b = tmp_path / ("t" + name), tmp_path / ("n" + name)
        _write(a, NOW, monkeypatch, contents)
        _write(b, BEFORE, monkeypatch, contents)
        again = _contents(a)
        assert again[0] == contents[0]
        assert np.array_equal(again[1], contents[1]) and np.array_equal(again[2], contents[2])
        assert a.read_bytes() != b.read_bytes()  # (the setting is used: another size)
        for sec in tuned:
            tuned[sec] += _section_bytes(a, sec)
            before[sec] += _section_bytes(b, sec)
    assert all(0 < tuned[n] <= before[n] for n in tuned), (tuned, before)


@pytest.mark.parametrize("section", ["wdl", "dtc"])
def test_a_tuned_frame_is_a_plain_zstd_frame_with_its_checksum(section):
    """Every block is a frame of its own that a plain decoder reads (its size in the frame's
    header, a checksum at its end): a reader needs no setting to read it."""
    block, level = ((F.WDL_BLOCK // 4, F.WDL_LEVEL) if section == "wdl"
                    else (F.DTC_BLOCK, F.DTC_LEVEL))
    arr = np.random.default_rng(3).integers(0, 40, size=2 * block + 100, dtype=np.uint8)
    blocks = F._compress_blocks(F._chunks(arr, block), level)
    assert len(blocks) == 3
    dec = zstd.ZstdDecompressor()
    assert b"".join(dec.decompress(b) for b in blocks) == arr.tobytes()
    params = zstd.get_frame_parameters(blocks[0])
    assert params.content_size == block and params.has_checksum
    assert params.window_size <= block  # (the window as large as a block)
    broken = bytearray(blocks[1])
    broken[len(broken) // 2] ^= 0xFF
    with pytest.raises(zstd.ZstdError):  # (the checksum refuses a damaged block)
        dec.decompress(bytes(broken))


def _same_values(a, b):
    script = os.path.join(ROOT, "scripts", "same_values.py")
    return subprocess.run([sys.executable, script, str(a), str(b)], capture_output=True, text=True)


def test_same_values_tells_other_bytes_from_other_contents(tmp_path, monkeypatch):
    a, b = tmp_path / "a" / "six-nofly", tmp_path / "b" / "six-nofly"
    a.mkdir(parents=True)
    b.mkdir(parents=True)
    for name in LARGEST:
        shutil.copy(os.path.join(SIX, name), a / name)
        _write(b / name, BEFORE, monkeypatch, _contents(os.path.join(SIX, name)))
    r = _same_values(tmp_path / "a", tmp_path / "b")
    assert r.returncode == 0, r.stderr
    assert f"six-nofly: {len(LARGEST)} values files, the same contents (0 the same bytes)" in r.stdout
    header, values, dtc, anchors = _contents(a / "5-5.mtb")
    dtc = dtc.copy()
    k = int(np.flatnonzero(dtc)[7])
    dtc[k] += 2
    _write(b / "5-5.mtb", BEFORE, monkeypatch, (header, values, dtc, anchors))
    r = _same_values(tmp_path / "a", tmp_path / "b")
    assert r.returncode == 1 and "5-5.mtb" in r.stderr and "the dtc planes differ on 1 slots" in r.stderr
