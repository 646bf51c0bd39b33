"""The planes a job keeps in memory for the next (solving/handoff.py): the files are the same
bytes with the handoff and without it, a kept plane is the plane the reader would build from
the files, and nothing is kept that the next job does not read."""

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.core.codes import UNUSED
from morris.core.progress import Reporter
from morris.core.variants import get_variant
from morris.database.folders import file_path, ruleset_dir
from morris.hashing.index import Hasher
from morris.hashing.subspaces import Subspace
from morris.kernels.pack import join_lanes, split_lanes
from morris.solving.handoff import Handoff
from morris.solving.jobs import PlacementSubspace, side_planes
from morris.solving.placement import load_children, side_plane_of
from morris.solving.schedule import solve

QUIET = Reporter(quiet=True)


def _files(d):
    out = {}
    for root, _, names in os.walk(d):
        for name in names:
            p = os.path.join(root, name)
            with open(p, "rb") as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


def test_a_whole_game_solved_with_the_handoff_is_the_same_bytes_as_without(whole_game, tmp_path):
    """Six Men's Morris whole with dtw and draw values: the default solve (jobs one by one in
    this process, each taking the plane its child's job kept) against the same jobs on an
    executor that hands nothing over (every child read from its files)."""
    handed = whole_game("six")
    pool = ThreadPoolExecutor(1)
    try:
        summary = solve(tmp_path, get_variant("six"), phase="all", reporter=QUIET, dtw=True,
                        draws=True, executor=pool)
    finally:
        pool.shutdown()
    assert summary.handed == 0
    a, b = _files(handed), _files(tmp_path)
    assert sorted(a) == sorted(b) and len(a) > 100
    assert [name for name in a if a[name] != b[name]] == []


def test_the_default_solve_hands_planes_over(tmp_path):
    """The handoff is used: the placement jobs of standard-4 up to its first layers take most
    of their quiet children from the job before (a count that could be 0)."""
    v = get_variant("standard-4")
    summary = solve(tmp_path, v, phase="all", reporter=QUIET, dtw=True, draws=True)
    placement = [s for s in summary.solved if isinstance(s["job"], PlacementSubspace)]
    assert summary.handed >= len(placement) // 3 > 0


@pytest.mark.parametrize("dtw,draws", [(True, True), (True, False), (False, True), (False, False)])
def test_a_kept_plane_is_the_plane_read_from_the_files(whole_game, tmp_path, dtw, draws):
    """Run one placement job with a handoff; what it keeps equals, on every used slot, what
    its parent would build from the files it wrote (values and distances packed, the stored
    draw value, the dtw)."""
    v = get_variant("six")
    db = whole_game("six")
    sub, parent = Subspace(4, 4, 1, 1), Subspace(3, 4, 2, 1)
    work = tmp_path / "db"
    os.makedirs(ruleset_dir(work, v))
    mine = {file_path(work, v, sub, "dtw"), file_path(work, v, sub, "draw")}
    for name in os.listdir(ruleset_dir(db, v)):  # (the files of the job's own dtw and draw
        if os.path.join(ruleset_dir(work, v), name) not in mine:  # values are its to write)
            os.link(os.path.join(ruleset_dir(db, v), name), os.path.join(ruleset_dir(work, v), name))
    handoff = Handoff()
    PlacementSubspace(sub, dtw=dtw, draws=draws).run(work, v, QUIET, handoff=handoff)
    path = file_path(work, v, sub)
    form = ("side", dtw, draws) if (dtw or draws) else "values"
    kept = handoff.take(path, form)
    assert kept is not None and len(handoff) == 0
    planes = load_children(work, v, parent)
    assert sub in planes
    if form == "values":
        vals, dtc = kept
        used = vals != UNUSED
        assert np.array_equal((dtc << 2 | vals)[used], planes[sub][used])
        return
    sides = side_planes(work, v, planes, dtw, draws)["sides"].planes
    used = (kept & 3) != UNUSED
    assert used.sum() > 1000
    assert np.array_equal(kept[used], sides[sub][used])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 3000), st.booleans(), st.booleans(), st.integers(0, 2 ** 31 - 1))
def test_join_lanes_undoes_split_lanes(n, mid, high, seed):
    rng = np.random.default_rng(seed)
    side = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)
    if not mid:
        side &= ~np.uint32(0xFF00)
    if not high:
        side &= np.uint32(0xFFFF)
    low = np.empty(n, np.uint8)
    m = np.empty(n if mid else 0, np.uint8)
    h = np.empty(n if high else 0, np.uint16)
    split_lanes(side, low, m, h)
    again = np.empty(n, np.uint32)
    join_lanes(low & 3, low >> 2, m, h, again)
    assert np.array_equal(again, side)
    assert np.array_equal(side_plane_of(low & 3, low >> 2, m if mid else None,
                                        h if high else None), side)


def test_a_handoff_keeps_one_jobs_planes_and_lets_go_of_what_is_not_read(tmp_path):
    h = Handoff()
    a, b = np.zeros(3), np.ones(3)
    h.keep(tmp_path / "a.mtb", "values", a)
    h.keep(tmp_path / "b.mtb", "values", b)  # the job after: a is let go
    assert h.take(tmp_path / "a.mtb", "values") is None
    assert h.take(tmp_path / "b.mtb", ("side", True, True)) is None  # another form
    h.keep_only([tmp_path / "c.mtb"])
    assert len(h) == 0 and h.take(tmp_path / "b.mtb", "values") is None
    h.keep(tmp_path / "b.mtb", "values", b)
    h.keep_only([str(tmp_path / "b.mtb")])
    assert h.take(tmp_path / "b.mtb", "values") is b and h.taken == 1 and len(h) == 0
