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


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=200), st.sampled_from(["decided", "drawn", "lost"]),
       st.booleans(), st.integers(1, 40), st.integers(0, 2 ** 16 - 1))
def test_a_selected_section_is_put_back_as_a_loop_puts_it(codes, select, halved, chunk, seed):
    """kernels/pack.expand_selected (no branch on the slot's value; the last entry read past
    the end) against the plain loop: each kept slot takes the next entry (halved: 2x + 1 for a
    win, 2x for a loss), every other slot 0; sections with nothing kept included."""
    from morris.format.fileformat import KEEP
    from morris.kernels.pack import expand_selected, select_count

    values = np.array(codes, dtype=np.uint8)
    keep = KEEP[select]
    rng = np.random.default_rng(seed)
    kept = rng.integers(0, 3000, size=sum((keep >> int(v)) & 1 for v in codes)).astype(np.uint16)
    counts = np.zeros(-(-len(values) // chunk), dtype=np.int64)
    select_count(values, keep, chunk, counts)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
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
