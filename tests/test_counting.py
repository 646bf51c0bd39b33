"""The chunked counts (counting.py) against numpy's whole-array bincount."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.core.codes import LOSS, WIN
from morris.core.counting import byte_counts, histograms


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 255), max_size=300), st.integers(1, 64))
def test_byte_counts_match_bincount(data, chunk):
    plane = np.array(data, dtype=np.uint8)
    assert byte_counts(plane, chunk=chunk).tolist() == np.bincount(plane, minlength=256).tolist()


def test_byte_counts_refuses_wider_planes():
    with pytest.raises(TypeError, match="uint16"):
        byte_counts(np.zeros(4, dtype=np.uint16))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 700), st.booleans()), max_size=300),
       st.integers(1, 64))
def test_histograms_match_bincount(rows, chunk):
    vals = np.array([r[0] for r in rows], dtype=np.uint8)
    dist = np.array([r[1] for r in rows], dtype=np.uint16)
    used = np.array([r[2] for r in rows], dtype=np.bool_)
    wins, losses = histograms(dist, vals, used, (WIN, LOSS), chunk=chunk)
    size = int(dist.max(initial=0)) + 1
    for h, code in ((wins, WIN), (losses, LOSS)):
        want = np.bincount(dist[used & (vals == code)].astype(np.int64), minlength=size)
        assert len(h) == size and h.tolist() == want.tolist()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 255), max_size=300))
def test_the_threaded_byte_counts_match_numpys(data):
    """kernels/pack.byte_counts (a numba kernel in lanes, on every thread), which the solver's
    headers count with, against the chunked numpy count the verifier keeps."""
    from morris.kernels.pack import byte_counts as threaded

    plane = np.array(data, dtype=np.uint8)
    assert threaded(plane).tolist() == byte_counts(plane).tolist()
    assert threaded(plane[1::2]).tolist() == byte_counts(plane[1::2].copy()).tolist()
    with pytest.raises(TypeError, match="uint16"):
        threaded(np.zeros(4, dtype=np.uint16))


def _section(codes, select, chunk, seed):
    """(values, keep mask, kept entries, chunk starts) of a random selected section over the
    value codes ``codes``, as ``TableFile.distance_all`` hands them to ``expand_selected``."""
    from morris.format.fileformat import KEEP
    from morris.kernels.pack import select_count

    values = np.array(codes, dtype=np.uint8)
    keep = KEEP[select]
    rng = np.random.default_rng(seed)
    kept = rng.integers(0, 3000, size=sum((keep >> int(v)) & 1 for v in codes)).astype(np.uint16)
    counts = np.zeros(-(-len(values) // chunk), dtype=np.int64)
    select_count(values, keep, chunk, counts)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return values, keep, kept, starts


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=200), st.sampled_from(["decided", "drawn", "lost"]),
       st.booleans(), st.integers(1, 40), st.integers(0, 2 ** 16 - 1))
def test_a_selected_section_is_put_back_as_a_loop_puts_it(codes, select, halved, chunk, seed):
    """kernels/pack.expand_selected (no branch on the slot's value; the last entry read past
    the end) against the plain loop: each kept slot takes the next entry (halved: 2x + 1 for a
    win, 2x for a loss), every other slot 0; sections with nothing kept included."""
    from morris.kernels.pack import expand_selected

    values, keep, kept, starts = _section(codes, select, chunk, seed)
    out = np.full(len(values), 7, dtype=np.uint16)
    expand_selected(values, keep, halved, kept, chunk, starts, out)
    want, j = [], 0
    for v in codes:
        if (keep >> v) & 1:
            want.append(2 * int(kept[j]) + (v == WIN) if halved else int(kept[j]))
            j += 1
        else:
            want.append(0)
    assert out.tolist() == want


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 2 ** 16 - 1)),
                max_size=300))
def test_side_plane_lanes_go_in_and_come_out_whole(rows):
    """The complete sweep's side planes (solving/placement.Sides: byte | draw value << 8 | dtw
    << 16, uint32): ``widen`` puts a byte plane in the low lane (the rest 0), the other lanes
    are written through strided views, and ``split_lanes`` gives each lane back whole; a
    lane's bytes are counted in place (``byte_counts`` of a strided view)."""
    from morris.kernels.pack import byte_counts as threaded
    from morris.kernels.pack import split_lanes, widen

    low = np.array([r[0] for r in rows], dtype=np.uint8)
    mid = np.array([r[1] for r in rows], dtype=np.uint8)
    high = np.array([r[2] for r in rows], dtype=np.uint16)
    side = np.full(len(rows), 0xFFFFFFFF, dtype="<u4")
    widen(low, side)
    assert side.tolist() == low.tolist()
    side.view(np.uint8)[1::4] = mid
    side.view("<u2")[1::2] = high
    assert side.tolist() == [a | b << 8 | c << 16 for a, b, c in rows]
    assert threaded(side.view(np.uint8)[0::4]).tolist() == byte_counts(low).tolist()
    outs = (np.empty(len(rows), np.uint8), np.empty(len(rows), np.uint8),
            np.empty(len(rows), np.uint16))
    split_lanes(side, *outs)
    assert [o.tolist() for o in outs] == [low.tolist(), mid.tolist(), high.tolist()]
    only_low = np.empty(len(rows), np.uint8)
    split_lanes(side, only_low, np.zeros(0, np.uint8), np.zeros(0, np.uint16))
    assert only_low.tolist() == low.tolist()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=200), st.sampled_from(["decided", "drawn", "lost"]),
       st.integers(1, 40), st.integers(0, 2 ** 16 - 1))
def test_a_selected_section_goes_into_a_strided_lane_as_into_its_own_plane(codes, select, chunk,
                                                                          seed):
    """``expand_selected`` into a lane of a side plane (a strided view, as
    ``TableFile.distance_all(out=...)`` reads a child's dtw and draw values) writes what it
    writes into a plane of its own, and leaves the other lanes alone."""
    from morris.kernels.pack import expand_selected

    values, keep, kept, starts = _section(codes, select, chunk, seed)
    own = np.empty(len(values), dtype=np.uint16)
    expand_selected(values, keep, False, kept, chunk, starts, own)
    side = np.full(len(values), 0xABCD, dtype="<u4")
    expand_selected(values, keep, False, kept, chunk, starts, side.view("<u2")[1::2])
    assert (side >> 16).tolist() == own.tolist()
    assert (side & 0xFFFF).tolist() == [0xABCD] * len(values)
