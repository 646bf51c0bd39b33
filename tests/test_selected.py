"""Selected sections (docs/format.md): dtw and draw-value files store only the slots the values
file selects (the decided ones, the drawn ones), the dtw halved where the parity rule holds.
Round trips against the planes written, by bulk read and by slot, and damage named."""

import numpy as np
import pytest

from morris.core.codes import DRAW, LOSS, WIN
from morris.core.errors import CorruptDatabaseError
from morris.format.fileformat import SELECT_BLOCK, TableFile, write_distance_table, write_planes, write_table


def _values_file(path, values, seed):
    rng = np.random.default_rng(seed)
    dtc = np.where(values == DRAW, 0, rng.integers(1, 40, len(values)))
    write_table(path, {"subspace": "t"}, values, dtc, np.arange(3))


def _planes(n, seed, parity=True):
    rng = np.random.default_rng(seed)
    # runs of equal values, as in real planes, across several blocks
    values = np.repeat(rng.choice([DRAW, WIN, LOSS], size=n // 7 + 1, p=[0.5, 0.3, 0.2]), 7)[:n]
    values = values.astype(np.uint8)
    dtw = rng.integers(0, 300, n)  # some past 255 before halving, none after
    if parity:
        dtw = dtw - (dtw & 1) + (values == WIN)
    dtw[values == DRAW] = 0
    return values, dtw.astype(np.uint16)


@pytest.mark.parametrize("parity", [True, False])
def test_dtw_round_trip_by_bulk_and_by_slot(tmp_path, parity):
    n = 3 * SELECT_BLOCK + 123
    values, dtw = _planes(n, 1, parity)
    _values_file(tmp_path / "v.mtb", values, 2)
    write_distance_table(tmp_path / "v.mtw", {"kind": "dtw"}, "dtw", dtw, np.arange(3), values)
    with TableFile(tmp_path / "v.mtb", schema=False) as vf, TableFile(tmp_path / "v.mtw", schema=False) as tw:
        sec = tw.header["sections"]["dtw"]
        assert sec["select"] == "decided" and sec["halved"] is parity
        assert sec["codec"] == ("uint8" if parity else "uint16")
        assert np.array_equal(tw.distance_all("dtw", vf.values_all()), dtw)
        rng = np.random.default_rng(3)
        for i in list(rng.integers(0, n, 400)) + [0, n - 1, SELECT_BLOCK - 1, SELECT_BLOCK]:
            assert tw.distance("dtw", int(i), vf) == dtw[i]
        with pytest.raises(ValueError, match="needs the values file"):
            tw.distance("dtw", 5)


def test_unused_slots_do_not_stop_halving(tmp_path):
    n = SELECT_BLOCK + 50
    values, dtw = _planes(n, 4)
    used = np.ones(n, dtype=bool)
    bad = int(np.flatnonzero(values == WIN)[3])
    dtw[bad], used[bad] = 0, False  # an unused slot holding a neighbour's win, dtw 0
    write_distance_table(tmp_path / "v.mtw", {"kind": "dtw"}, "dtw", dtw, np.arange(3), values, used)
    with TableFile(tmp_path / "v.mtw", schema=False) as tw:
        assert tw.header["sections"]["dtw"]["halved"] is True
        got = tw.distance_all("dtw", values)
    assert np.array_equal(got[used], dtw[used])


def test_draw_values_keep_only_the_draws(tmp_path):
    n = 2 * SELECT_BLOCK + 7
    values, _ = _planes(n, 5)
    rng = np.random.default_rng(6)
    dv = np.where(values == DRAW, rng.integers(28, 229, n), 0).astype(np.uint8)
    dd = np.where(values == DRAW, rng.integers(0, 90, n), 0).astype(np.uint8)
    _values_file(tmp_path / "v.mtb", values, 7)
    write_planes(tmp_path / "v.mdv", {"kind": "draw"}, {"dv": dv, "dd": dd}, np.arange(3), 6, values)
    with TableFile(tmp_path / "v.mtb", schema=False) as vf, TableFile(tmp_path / "v.mdv", schema=False) as td:
        assert td.header["sections"]["dv"]["select"] == "drawn"
        assert np.array_equal(td.distance_all("dv", values), dv)
        assert np.array_equal(td.distance_all("dd", values), dd)
        for i in np.random.default_rng(8).integers(0, n, 300):
            assert (td.distance("dv", int(i), vf), td.distance("dd", int(i), vf)) == (dv[i], dd[i])


def test_a_values_file_that_selects_other_slots_is_named(tmp_path):
    n = SELECT_BLOCK + 99
    values, dtw = _planes(n, 9)
    write_distance_table(tmp_path / "v.mtw", {"kind": "dtw"}, "dtw", dtw, np.arange(3), values)
    other = values.copy()
    other[np.flatnonzero(values == DRAW)[:5]] = LOSS  # five more decided slots than written
    with TableFile(tmp_path / "v.mtw", schema=False) as tw:
        with pytest.raises(CorruptDatabaseError, match="dtw section does not hold"):
            tw.distance_all("dtw", other)
        fewer = values.copy()
        fewer[np.flatnonzero(values != DRAW)[:5]] = DRAW
        with pytest.raises(CorruptDatabaseError, match="dtw section does not hold"):
            tw.distance_all("dtw", fewer)


def test_writing_a_selected_section_needs_the_values(tmp_path):
    values, dtw = _planes(100, 10)
    with pytest.raises(ValueError, match="decided slots"):
        write_distance_table(tmp_path / "v.mtw", {"kind": "dtw"}, "dtw", dtw, np.arange(3))
    assert not (tmp_path / "v.mtw").exists()


@pytest.mark.parametrize("split", [1, 40, 1 << 30])
def test_sections_read_in_runs_of_blocks_on_threads_are_the_same(tmp_path, monkeypatch, split):
    """``bulk_into`` cuts a section of more than ``BULK_SPLIT`` bytes into runs of blocks, one
    per thread: every plane reads back the same however it is cut, and a values file that
    selects other slots is still named (the run whose blocks do not fit)."""
    from morris.format import fileformat

    monkeypatch.setattr(fileformat.os, "cpu_count", lambda: 3)
    monkeypatch.setattr(fileformat, "BULK_SPLIT", split)
    n = 9 * SELECT_BLOCK + 321
    values, dtw = _planes(n, 11)
    _values_file(tmp_path / "v.mtb", values, 12)
    write_distance_table(tmp_path / "v.mtw", {"kind": "dtw"}, "dtw", dtw, np.arange(3), values)
    with TableFile(tmp_path / "v.mtb", schema=False) as vf, TableFile(tmp_path / "v.mtw", schema=False) as tw:
        assert np.array_equal(vf.values_all(), values)
        assert np.array_equal(tw.distance_all("dtw", values), dtw)
        dtc = vf.dtc_all()
        assert np.array_equal(dtc == 0, values == DRAW)
        other = values.copy()
        other[np.flatnonzero(values == DRAW)[-3:]] = WIN  # three more decided slots at the end
        with pytest.raises(CorruptDatabaseError, match="dtw section does not hold"):
            tw.distance_all("dtw", other)
        other = values.copy()
        other[np.flatnonzero(values != DRAW)[:3]] = DRAW  # three fewer at the start
        with pytest.raises(CorruptDatabaseError, match="dtw section does not hold"):
            tw.distance_all("dtw", other)


def test_two_bit_planes_unpack_four_codes_at_a_time_at_every_length():
    """``unpack_2bit`` (four codes a packed byte, written as one word, the last codes one at a
    time) against the codes read bit by bit, at every length around whole words."""
    from morris.format.fileformat import unpack_2bit

    rng = np.random.default_rng(21)
    for n in list(range(0, 13)) + [4095, 4096, 4097, 100_003]:
        packed = rng.integers(0, 256, (n + 3) // 4, dtype=np.uint8)
        want = [(int(packed[i // 4]) >> (2 * (i % 4))) & 3 for i in range(n)]
        got = unpack_2bit(packed.tobytes(), n)
        assert got.dtype == np.uint8 and got.tolist() == want, n
