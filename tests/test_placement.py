"""Placement phase: the layer sweep and the alpha-beta search agree; the start values."""

import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

from morris.cli.main import cli
from morris.core.errors import MissingSubspaceError
from morris.hashing.subspaces import Subspace
from morris.hashing.subspaces import placement_children as child_subspaces, placement_closure as closure
from morris.core.position import Position
from morris.lookups.search import PlacementSearch
from morris.lookups.tablebase import open_tablebase
from morris.core.variants import get_variant
from morris.solving.verify import verify

VALUES = {1: "win", 0: "draw", -1: "loss"}


def random_placement_positions(variant, count, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        pos = Position.start(variant)
        for _ in range(int(rng.integers(0, 2 * variant.pieces))):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(moves[int(rng.integers(len(moves)))])
        if pos.in_placement:
            out.append(pos)
    return out


def test_six_mens_morris_start_is_a_draw_by_both_methods(placed):
    v = get_variant("six")
    with open_tablebase(placed) as tb:
        assert tb.probe_wdl(Position.start(v)) == "draw"
    search = PlacementSearch(placed, v)
    assert search.value(Position.start(v)) == 0


@pytest.mark.parametrize("name, count", [("six", 1000), ("standard-3", 300), ("standard-4", 500)])
def test_sweep_and_search_agree_on_random_placement_positions(placed, name, count):
    v = get_variant(name)
    search = PlacementSearch(placed, v)
    mismatches = []
    with open_tablebase(placed) as tb:
        for pos in random_placement_positions(v, count, seed=3):
            swept = tb.probe_wdl(pos)
            searched = VALUES[search.value(pos)]
            if swept != searched:
                mismatches.append((str(pos), swept, searched))
    assert mismatches == []


def test_standard_4_every_position_of_a_subspace(placed):
    """Every position of one placement subspace of standard-4, by sweep and by search."""
    from morris.hashing.index import Hasher

    v = get_variant("standard-4")
    sub = Subspace(2, 2, 2, 2)
    h = Hasher(v.board)
    movers, opps, used = h.unindex_batch(sub, np.arange(h.slots(sub)))
    search = PlacementSearch(placed, v)
    checked = 0
    with open_tablebase(placed) as tb:
        for m, o, u in zip(movers, opps, used):
            if not u:
                continue
            pos = Position.from_mover(v, 0, int(m), int(o), 2, 2)
            assert tb.probe_wdl(pos) == VALUES[search.value(pos)], pos
            checked += 1
    assert checked > 1000


def test_placement_moves_and_distances(placed):
    """analyze() works in the placement phase: the best move's value is the position's, and
    distances count to the next removal or the end of placement (at most the plies left)."""
    v = get_variant("six")
    with open_tablebase(placed) as tb:
        for pos in random_placement_positions(v, 100, seed=9):
            a = tb.analyze(pos)
            assert a.source == "database"  # every placement file is there: no search
            assert a.moves and a.moves[0].value == a.value
            left = pos.white_hand + pos.black_hand
            if a.value == "draw":
                assert a.dtc is None
            else:
                assert 1 <= a.dtc <= left
                assert a.dtc == a.moves[0].dtc  # the best move's distance is the position's


def test_verify_passes_on_everything_solved(placed):
    """Every file of ``placed`` (conftest.solved's movement files and the placement files
    added to the same directory) checked forward and found right."""
    report = verify(placed)
    placement = [f for f in report.files if "+" in f.subspace]
    assert len(placement) > 100 and all(f.ok for f in placement)
    assert {os.path.basename(f.path) for f in report.files} >= {"3-3.mtb", "4-4.mtb", "6-6.mtb"}
    assert all(f.checked > 0 for f in report.files)
    assert report.ok


def _tamper(path, change):
    """Rewrite a database file with ``change(values, dtc)`` applied and a valid checksum."""
    from morris.format.fileformat import TableFile, write_table
    from morris.hashing.index import Hasher

    with TableFile(path) as tf:
        header = dict(tf.header)
        vals, dtc = tf.values_all().copy(), tf.dtc_all().copy()
    slot = change(vals, dtc)
    v = get_variant("standard-4")
    sub = Subspace.parse(header["subspace"])
    write_table(path, header, vals, dtc, Hasher(v.board).anchor_reps(sub.o))
    return slot


@pytest.mark.parametrize("what", ["value", "distance"])
def test_verify_catches_a_wrong_placement_value_with_a_valid_checksum(placed, tmp_path, what):
    import shutil

    from morris.format.fileformat import check_file

    db = tmp_path / "db"
    shutil.copytree(os.path.join(placed, "standard"), db / "standard")  # (not Six: not needed)
    path = db / "standard" / "3-4+1+0.mtb"

    def change(vals, dtc):
        if what == "value":  # a won position made a draw
            slot = int(np.flatnonzero(vals == 1)[0])
            vals[slot], dtc[slot] = 0, 0
        else:  # a win one ply slower than it is
            slot = int(np.flatnonzero((vals == 1) & (dtc > 0))[0])
            dtc[slot] += 1
        return slot

    slot = _tamper(str(path), change)
    assert check_file(str(path)) is None  # the checksum alone cannot see it
    report = verify(str(db))
    bad = [f for f in report.files if not f.ok]
    assert [f.subspace for f in bad] == ["3-4+1+0"]
    assert bad[0].checksum == "ok" and bad[0].mismatches == 1
    assert bad[0].first_mismatch.startswith(f"slot {slot}:")
    if what == "distance":
        return  # (the command's exit code and report: once, for the wrong value)
    result = CliRunner().invoke(cli, ["verify", "--db", str(db), "--quiet"])
    assert result.exit_code == 3
    assert "FAIL" in result.output and "3-4+1+0" in result.output and "1 of" in result.output


def test_verify_samples_large_placement_files(placed, tmp_path):
    report = verify(placed, sample=50)
    files = {f.subspace: f for f in report.files}
    big = files["3-4+1+0"]
    assert big.positions > 50 and big.checked == 50 and big.ok
    assert files["0-0+1+0"].checked == files["0-0+1+0"].positions == 1
    out = CliRunner().invoke(cli, ["verify", "--db", placed, "--sample", "50", "--quiet"]).output
    assert f"3-4+1+0.mtb: 50 slots of {big.positions:,} positions (a fixed random sample)" in out
    assert all(f.checked == min(50, f.positions) or f.checked == 50 for f in report.files)


def test_children_and_closure():
    kids = child_subspaces(Subspace(4, 3, 5, 5), dm=1)
    # a placement without removal: black (mover next) has 3, white 5, hands 5 and 4
    assert kids[0] == (Subspace(3, 5, 5, 4), False)
    assert kids[1] == (Subspace(2, 5, 5, 4), False)
    last = child_subspaces(Subspace(4, 5, 1, 0), dm=1)
    assert last[0] == (Subspace(5, 5), True)
    subs = closure(get_variant("standard-3"), [Subspace(0, 0, 3, 3)])
    # with 3 pieces a side only white's third placement can remove (into 1-3+1+0)
    assert [s.name for s in subs] == [
        "1-3+1+0", "2-3+1+0", "2-2+1+1", "1-2+2+1", "1-1+2+2", "0-1+3+2", "0-0+3+3",
    ]


def test_verify_draw_command(placed):
    r = CliRunner().invoke(cli, ["verify-draw", "--variant", "six", "--db", placed, "--json", "--quiet"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["variant"] == "six" and out["value"] == "draw" and out["method"] == "search"
    assert set(out) >= {"variant", "value", "method", "seconds"}
    r = CliRunner().invoke(cli, ["verify-draw", "--variant", "six", "--db", placed, "--method", "sweep", "--quiet"])
    assert r.exit_code == 0 and "a draw" in r.output


def test_search_needs_the_movement_databases(tmp_path):
    (tmp_path / "standard").mkdir()
    with pytest.raises(MissingSubspaceError, match="needs the movement subspace 3-3"):
        PlacementSearch(tmp_path, get_variant("standard-3"))


@pytest.mark.parametrize("variant_name", ["six", "standard-4"])
def test_values_sweep_that_stops_early_writes_the_planes_of_the_full_one(whole_game, variant_name):
    """A values-only sweep stops at a move nothing can beat (``TOP_KEY``; it looks at the
    placements that close a mill first, then at the quiet ones); the sweep with dtw looks at
    every move (``whole_game``'s files come from it). Every placement
    subspace swept again without dtw: the same values and dtc, and wins in one ply (where it
    stops) among them."""
    from morris.core.codes import UNUSED, WIN
    from morris.database.folders import file_path, read_planes
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import placement_subspaces
    from morris.kernels.placement import TOP_KEY, WIN_KEY
    from morris.solving.placement import evaluate, load_children

    v = get_variant(variant_name)
    db = whole_game(variant_name)
    hasher = Hasher(v.board)
    wins_in_one = 0
    for sub in placement_subspaces(v):
        values, dtc = evaluate(v, sub, load_children(db, v, sub), hasher)
        want_values, want_dtc = read_planes(file_path(db, v, sub), with_dtc=True)
        used = values != UNUSED  # (a file's unused slots hold a neighbour's value and distance)
        assert np.array_equal(values[used], want_values[used]), sub
        assert np.array_equal(dtc[used], want_dtc[used]), sub
        wins_in_one += int(np.count_nonzero((values == WIN) & (dtc == 1)))
    assert TOP_KEY == WIN_KEY - 1 and wins_in_one > 1000  # positions where the sweep could stop


@pytest.mark.parametrize("variant_name", ["six", "standard-4"])
def test_draw_values_sweep_without_dtw_writes_the_files_draw_values(whole_game, variant_name):
    """A sweep for the values and draw values without dtw (``--draws`` over a database with dtw)
    stops where nothing can raise a win (``quiet_top`` above a draw); the files' draw values
    come from the sweep with dtw, which looks at every move. Every placement subspace swept
    again so: the same values, dtc and stored draw values on every used slot."""
    from morris.core.codes import UNUSED
    from morris.database.folders import file_path, read_draws, read_planes
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import placement_subspaces
    from morris.solving.jobs import side_planes
    from morris.solving.placement import evaluate, load_children

    v = get_variant(variant_name)
    db = whole_game(variant_name)
    hasher = Hasher(v.board)
    for sub in placement_subspaces(v):
        planes = load_children(db, v, sub)
        values, dtc, dv = evaluate(v, sub, planes, hasher,
                                   **side_planes(db, v, planes, dtw=False, draws=True))
        want_values, want_dtc = read_planes(file_path(db, v, sub), with_dtc=True)
        want_dv = read_draws(file_path(db, v, sub, "draw"), want_values, distances=False)[0]
        used = values != UNUSED
        assert np.array_equal(values[used], want_values[used]), sub
        assert np.array_equal(dtc[used], want_dtc[used]), sub
        assert np.array_equal(dv[used], want_dv[used]), sub


def test_quiet_top_is_the_greatest_key_of_the_bytes_the_plane_holds():
    """``quiet_top``: the greatest ``child_keys`` entry of the bytes present in the quiet
    placements' plane; TOP_KEY where the bytes are not known or the counts decide the child.
    With a switch of turn a child lost in 2 plies is the mover's win in 3 (WIN_KEY - 3), below
    the TOP_KEY - 1 the sweep stopped at before; ``bytes_present`` finds them on every thread."""
    from morris.core.codes import DRAW, LOSS, WIN
    from morris.kernels.pack import bytes_present
    from morris.kernels.placement import DRAW_KEY, TOP_KEY, WIN_KEY, child_keys, quiet_top

    plane = np.array([WIN | 1 << 2, LOSS | 2 << 2, DRAW, 3] * 1001 + [LOSS | 4 << 2], np.uint8)
    seen = bytes_present(plane)
    assert np.flatnonzero(seen).tolist() == sorted({int(b) for b in plane})
    keys = child_keys(True)
    quiet, fixed = np.array([0, 1, 1]), np.array([-1, -1, -1])
    assert quiet_top(keys, fixed, quiet, seen) == WIN_KEY - 3
    assert quiet_top(keys, fixed, np.array([1, 1, 1]), seen) == TOP_KEY  # the last placement
    assert quiet_top(keys, fixed, quiet, None) == TOP_KEY
    assert quiet_top(keys, np.array([WIN | 1 << 2, -1, -1]), quiet, seen) == TOP_KEY
    no_loss = np.zeros(256, np.bool_)
    no_loss[[WIN | 1 << 2, DRAW]] = True
    assert quiet_top(keys, fixed, quiet, no_loss) == DRAW_KEY
    assert quiet_top(child_keys(False), fixed, quiet, no_loss) == WIN_KEY - 2


@pytest.mark.parametrize("n", [0, 1, 255, 256, 257, 100_003])
def test_bytes_present_is_numpys_unique(n):
    from morris.kernels.pack import bytes_present

    plane = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8) & 0x3B
    assert np.flatnonzero(bytes_present(plane)).tolist() == np.unique(plane).tolist()
