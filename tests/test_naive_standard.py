"""tests/naive_standard.py (the numba reference over raw positions, run on the standard board
with 3 and 4 a side by hand: docs/benchmarks.md) agrees with the files on a board small enough
for the suite, and says so when they disagree."""


import numpy as np
import pytest

from filetree import rewrite_side, side_planes
from morris.database.folders import file_path
from morris.hashing.subspaces import Subspace
from morris.core.variants import get_variant


@pytest.mark.parametrize("flying", [False, True])
def test_the_raw_reference_agrees_on_six_up_to_4(tmp_path, six_small, flying, capsys):
    import shutil

    import naive_standard

    v = get_variant("six", flying=flying)
    shutil.copytree(six_small / v.ruleset_id, tmp_path / v.ruleset_id)  # (one file is changed below)
    args = ["--db", str(tmp_path), "--variant", "six", "--pieces", "4"] + (["--flying"] if flying else [])
    assert naive_standard.main(args) == 0
    out = capsys.readouterr().out
    assert "4-4: 900,900 raw positions, 0 mismatches" in out
    # one draw value changed (checksum valid): the reference finds it
    path = file_path(tmp_path, v, Subspace(4, 4), "draw")
    header, planes, anchors, stored = side_planes(path, ("dv", "dd"))
    i = int(np.flatnonzero(planes["dv"])[3])
    planes["dv"][i] += 1
    rewrite_side(path, header, planes, anchors, stored)
    assert naive_standard.main(args) == 1
