"""Distance to the end of the game (dtw): the solver against the definition, the files, the
lookups, the bot, the line, the verifier."""

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import naive
from filetree import rewrite_side, side_planes
from morris.cli.main import cli
from morris.core.errors import MissingDtwError, UsageError
from morris.format.fileformat import TableFile
from morris.database.folders import file_path
from morris.hashing.index import Hasher
from morris.core.position import Position
from morris.core.progress import Reporter
from morris.solving.prune import read_full_dtw
from morris.solving.schedule import solve
from morris.hashing.subspaces import Subspace
from morris.lookups.tablebase import open_tablebase
from morris.core.variants import get_variant

QUIET = Reporter(quiet=True)


@pytest.fixture(scope="module")
def dtw_db(six_small):
    """Six Men's Morris up to 4 a side, with and without flying, values and dtw files (and draw
    values: conftest.six_small, shared with the draw-value tests)."""
    return six_small


@pytest.mark.parametrize("flying", [False, True])
def test_dtw_agrees_with_the_definition_on_every_position(dtw_db, graphs, horizons, flying):
    """Every raw position of Six Men's Morris up to 4-4 (1,861,860): the value and the dtw in
    the files against naive.dtw_by_horizon (win/loss within h plies, over the whole move graph
    with removals as plain edges, no symmetry)."""
    v = get_variant("six", flying=flying)
    keys = graphs[flying][0]
    value, ref = horizons(flying)
    h = Hasher(v.board)
    planes = {}
    for (m, o) in [(3, 3), (4, 3), (3, 4), (4, 4)]:
        s = Subspace(m, o)
        with TableFile(file_path(dtw_db, v, s)) as tf:
            fv = tf.values_all()
        planes[(m, o)] = (fv, read_full_dtw(file_path(dtw_db, v, s, "dtw"), fv))
    movers = np.array([k[0] for k in keys], dtype=np.int64)
    opps = np.array([k[1] for k in keys], dtype=np.int64)
    mc = np.array([k[0].bit_count() for k in keys])
    oc = np.array([k[1].bit_count() for k in keys])
    mismatches = 0
    for (m, o), (vals, dtw) in planes.items():
        sel = (mc == m) & (oc == o)
        slots = h.index_batch(movers[sel], opps[sel])
        code = vals[slots]
        want_code = np.select([value[sel] == 1, value[sel] == -1], [1, 2], 0)
        got = np.where(code == 0, -1, dtw[slots].astype(np.int64))
        mismatches += int(((code != want_code) | (got != ref[sel])).sum())
        with TableFile(file_path(dtw_db, v, Subspace(m, o), "dtw")) as tw:  # the header's longest ones
            for name, c in (("win", 1), ("loss", -1)):
                longest = int(ref[sel][value[sel] == c].max(initial=0))
                assert tw.header[f"max_{name}_dtw"] == longest
                slot = tw.header[f"max_{name}_dtw_slot"]
                if slot is None:  # the subspace has no such position
                    assert not (value[sel] == c).any()
                else:
                    assert vals[slot] == (1 if c == 1 else 2) and dtw[slot] == longest
    assert mismatches == 0
    assert ref.max() >= 13  # the comparison covers long games too


def test_the_bot_ends_a_won_game_in_its_dtw(dtw_db):
    """From random won and lost positions, both sides playing the perfect player, the game lasts
    exactly the start's dtw (the winner hurries, the loser delays), and the line says so."""
    from morris.apps.bot import perfect_line

    v = get_variant("six")
    rng = random.Random(5)
    checked = 0
    with open_tablebase(dtw_db, shipped=False) as tb:
        h = Hasher(v.board)
        for _ in range(400):
            s = Subspace(rng.choice([3, 4]), rng.choice([3, 4]))
            mover, opp, used = h.unindex_py(s, rng.randrange(h.slots(s)), h.anchor_reps(s.o))
            if not used:
                continue
            pos = Position.from_masks(v, mover, opp, 0)
            d = tb.probe_dtw(pos)
            if d is None or pos.outcome() is not None:
                continue
            steps, end, error = perfect_line(tb, pos, seed=checked)
            assert error is None
            assert len(steps) == d, (pos.to_compact(), d, len(steps), end)
            assert [st.dtw for st in steps] == list(range(d, 0, -1))
            checked += 1
    assert checked > 100


def test_moves_carry_dtw_and_the_best_one_is_the_positions(dtw_db):
    v = get_variant("six")
    rng = random.Random(3)
    with open_tablebase(dtw_db, shipped=False) as tb:
        h = Hasher(v.board)
        seen = 0
        for _ in range(300):
            s = Subspace(4, rng.choice([3, 4]))
            mover, opp, used = h.unindex_py(s, rng.randrange(h.slots(s)), h.anchor_reps(s.o))
            if not used:
                continue
            a = tb.analyze(Position.from_masks(v, mover, opp, 0))
            if a.value == "draw":
                assert a.dtw is None and all(m.dtw is None for m in a.moves if m.value == "draw")
                continue
            seen += 1
            decided = [m.dtw for m in a.moves if m.value == a.value]
            assert a.dtw == (min(decided) if a.value == "win" else max(decided))
            for m in a.moves:
                if m.value != "draw":
                    assert m.dtw == tb.probe_dtw(a.position.play(m.move)) + 1
        assert seen > 50


def test_query_line_and_json_show_dtw(dtw_db):
    r = CliRunner().invoke(cli, ["query", "--db", str(dtw_db), "--variant", "six", "a1,d1,g1,b2/a7,d7,b6 b"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("a1,b2,d1,g1/a7,b6,d7 b: loss in 4 plies (next removal in 4) for black")
    r = CliRunner().invoke(cli, ["query", "--db", str(dtw_db), "--variant", "six", "--json",
                                 "a1,d1,g1,b2/a7,d7,b6 b"])
    obj = json.loads(r.output)
    assert obj["dtw"] == 4 and all("dtw" in m for m in obj["moves"])
    r = CliRunner().invoke(cli, ["line", "--db", str(dtw_db), "--variant", "six", "--json",
                                 "a1,d1,g1,b2/a7,d7,b6 b"])
    line = json.loads(r.output)
    assert [m["dtw"] for m in line["moves"]] == [4, 3, 2, 1] and line["end"].startswith("1-0")


def test_asking_for_dtw_without_dtw_files_says_how_to_add_them(tmp_path):
    from morris.apps.advice import error_line

    v = get_variant("six")
    solve(tmp_path, v, max_pieces=3, reporter=QUIET)
    with open_tablebase(tmp_path, shipped=False) as tb:
        pos = Position.parse("a1,d1,g1/a7,d7,b6 w", v)
        assert tb.analyze(pos).dtw is None  # values only: no dtw, no error
        with pytest.raises(MissingDtwError) as info:
            tb.probe_dtw(pos)
    line = error_line(info.value, tmp_path)
    assert "no dtw file" in line and f"morris solve --out {tmp_path} --variant six --dtw 3-3" in line
    with pytest.raises(UsageError, match="without a no-removal limit"):
        solve(tmp_path, get_variant("six", no_removal_limit=8), max_pieces=3, reporter=QUIET, dtw=True)


def test_verify_catches_a_wrong_dtw_with_a_valid_checksum(dtw_db, tmp_path):
    import shutil

    v = get_variant("six")
    db = tmp_path / "db"
    shutil.copytree(dtw_db / "six-nofly", db / "six-nofly")
    path = file_path(db, v, Subspace(4, 3), "dtw")
    header, planes, anchors, stored = side_planes(path, ("dtw",))
    i = int(np.flatnonzero(planes["dtw"] > 2)[7])
    planes["dtw"][i] += 2  # still a possible distance, just not this position's
    rewrite_side(path, header, planes, anchors, stored)
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--quiet"])
    assert r.exit_code == 3
    assert f"FAIL {path}: 1 of" in r.output and f"slot {i}" in r.output


def _dtw_of_moves(results):
    """(value, dtw) of a placement position from its moves' (naive.placement_recursion): a win
    is 1 + the least dtw of a move into a lost position, a loss 1 + the largest."""
    results = [(naive.NEGATE[v] if sw else v, d) for v, d, sw, _ in results]
    wins = [d for v, d in results if v == "win"]
    if not results:
        return ("loss", 0)
    if wins:
        return ("win", 1 + min(wins))
    if any(v == "draw" for v, _ in results):
        return ("draw", None)
    return ("loss", 1 + max(d for _, d in results))


@pytest.mark.parametrize("variant_name", ["six", "standard-4"])
def test_placement_dtw_agrees_with_plain_recursion(whole_game, variant_name):
    """Random placement positions with up to 4 pieces left in hand:
    the dtw files against a recursion over rules.py down to the movement phase (whose dtw the
    test above checks against the definition)."""
    from morris.hashing.subspaces import placement_subspaces

    v = get_variant(variant_name)
    tmp_path = whole_game(variant_name)
    subs = [s for s in placement_subspaces(v) if s.hm + s.ho <= 4]
    rng = random.Random(11)
    h = Hasher(v.board)
    memo = {}
    checked = 0
    with open_tablebase(tmp_path, shipped=False, search="never") as tb:
        def movement(mover, opp):
            p = Position.from_masks(v, mover, opp, 0)
            r = tb.probe(p)
            return (r.value, tb.probe_dtw(p))

        while checked < 40:
            s = rng.choice(subs)
            mover, opp, used = h.unindex_py(s, rng.randrange(h.slots(s)), h.anchor_reps(s.o))
            if not used:
                continue
            pos = Position.from_masks(v, mover, opp, 0, s.hm, s.ho)
            want = naive.placement_recursion(v, (mover, opp, s.hm, s.ho), movement, memo, _dtw_of_moves)
            assert (tb.probe(pos).value, tb.probe_dtw(pos)) == want, pos.to_compact()
            checked += 1


@pytest.mark.slow
@pytest.mark.parametrize("flying", [False, True])
def test_standard_3_3_dtw_agrees_with_the_definition(tmp_path, flying):
    """Every raw position of the standard board with 3 a side (2,691,920), without and with
    flying, against naive.dtw_by_horizon (a minute or two: the graph is built in Python)."""
    v = get_variant("standard", flying=flying)
    solve(tmp_path, v, max_pieces=3, reporter=QUIET, dtw=True)
    graph = naive.move_graph(v, 3)
    value, ref = naive.dtw_by_horizon(graph)
    s = Subspace(3, 3)
    with TableFile(file_path(tmp_path, v, s)) as tf:
        vals = tf.values_all()
    dtw = read_full_dtw(file_path(tmp_path, v, s, "dtw"), vals)
    keys = graph[0]
    slots = Hasher(v.board).index_batch(np.array([k[0] for k in keys], dtype=np.int64),
                                        np.array([k[1] for k in keys], dtype=np.int64))
    code = vals[slots]
    want_code = np.select([value == 1, value == -1], [1, 2], 0)
    got = np.where(code == 0, -1, dtw[slots].astype(np.int64))
    assert int(((code != want_code) | (got != ref)).sum()) == 0


def test_the_statistics_page(dtw_db):
    """/stats: a row per subspace with the longest dtw win and a link to its position; a
    subspace's dtw histogram as a picture whose bars count every won and lost position."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    import urllib.error
    import urllib.request

    from test_server import start_server

    base, stop = start_server(str(dtw_db))
    try:
        page = urllib.request.urlopen(f"{base}/stats", timeout=30).read().decode()
        assert 'data-subspace="4-4"' in page and "longest win" in page
        assert "a4%2Cb6%2Cg1%2Cg4%2Fb4%2Cd6%2Cd7%2Cg7+w" in page  # the longest win's position
        svg = urllib.request.urlopen(f"{base}/stats?ruleset=six-nofly&subspace=4-4", timeout=30).read().decode()
        import re

        counts = {k: sum(int(c) for c in re.findall(rf'class="{k}" data-dtw="\d+" data-count="(\d+)"', svg))
                  for k in ("win", "loss")}
        with TableFile(file_path(dtw_db, get_variant("six"), Subspace(4, 4))) as tf:
            assert (counts["win"], counts["loss"]) == (tf.header["wins"], tf.header["losses"])
        for bad in ("ruleset=../six-nofly&subspace=4-4", "ruleset=six-nofly&subspace=zz"):
            try:
                urllib.request.urlopen(f"{base}/stats?{bad}", timeout=30)
                raise AssertionError(bad)
            except urllib.error.HTTPError as exc:
                assert exc.code == 400
    finally:
        stop()


def test_a_line_that_runs_out_of_files_keeps_its_moves(tmp_path):
    """From the standard start with only the shipped book: the first plies come from the book,
    then the line stops with one error line and the status of missing data."""
    r = CliRunner().invoke(cli, ["line", "--db", str(tmp_path), "start"])
    assert r.exit_code == 3
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("1. white") and "draw" in lines[0]
    assert any(x.startswith("stopped after ") for x in lines)
    assert lines[-1].startswith("OutsideDatabaseError: ") and "solve it with" in lines[-1]


def test_the_engine_and_the_api_report_dtw(dtw_db):
    import io

    from morris.apps.engine import Engine

    v = get_variant("six")
    pos = Position.parse("a1,d1,g1,b2/a7,d7,b6 b", v)
    out = io.StringIO()
    e = Engine(str(dtw_db), v, out)
    for line in [f"position fen {pos.to_fen()}", "go"]:
        e.handle(line)
    info = [x for x in out.getvalue().splitlines() if x.startswith("info depth")]
    assert info and info[-1].endswith("string loss dtc 4 dtw 4"), out.getvalue()
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from test_server import get, start_server

    base, stop = start_server(str(dtw_db))
    try:
        status, obj = get(base, "/api/bestmove", position="a1,d1,g1,b2/a7,d7,b6 b", variant="six")
        assert status == 200 and obj["dtw"] == 4 and obj["value"] == "loss"
        status, obj = get(base, "/api/probe", position="a1,d1,g1,b2/a7,d7,b6 b", variant="six")
        assert obj["dtw"] == 4 and {m["dtw"] for m in obj["moves"]} == {4}
    finally:
        stop()


def test_stats_total_the_dtw_files_and_give_each_phases_longest_win(dtw_db, tmp_path):
    """`morris stats`: the dtw files' bytes and bits per position (their sizes on disk), and
    the longest win and loss of the whole database and of each phase (their headers')."""
    import shutil

    v = get_variant("six")
    db = tmp_path / "db"
    shutil.copytree(dtw_db / v.ruleset_id, db / v.ruleset_id)
    solve(db, v, targets=[Subspace(3, 3, 1, 0)], phase="all", reporter=QUIET, dtw=True)
    r = CliRunner().invoke(cli, ["stats", "--db", str(db)])
    assert r.exit_code == 0, r.output
    files = sorted((db / v.ruleset_id).glob("*.mtw"))
    size = sum(f.stat().st_size for f in files)
    positions = 0
    longest = {}
    for f in files:
        with TableFile(f) as tf:
            h = tf.header
        positions += h["positions"]
        for kind in ("win", "loss"):
            for key in (h["phase"], None):
                longest[(kind, key)] = max(longest.get((kind, key), 0), h[f"max_{kind}_dtw"])
    assert f"dtw files: {len(files)} files, {size:,} bytes, {8 * size / positions:.3f} bits per position" in r.output
    for (kind, phase), most in longest.items():
        label = f"longest {kind}{f' ({phase})' if phase else ''}: {most} plies"
        assert label in r.output, label


def test_the_greatest_exit_level_is_numpys():
    """kernels/dtw.top_exit (the dtw pass's last exit level, on every thread) against numpy,
    with and without slots that have no exit, empty and not."""
    from morris.kernels.dtw import NONE, top_exit

    rng = np.random.default_rng(7)
    for n in (0, 1, 3, 255, 256, 257, 10_000):
        for share in (0.0, 0.5, 1.0):
            exits = rng.integers(0, 400, n).astype(np.uint16)
            exits[rng.random(n) < share] = NONE
            kept = exits[exits != NONE]
            assert top_exit(exits) == (int(kept.max()) if len(kept) else -1)


@pytest.mark.parametrize("n", [1, 1000, 5000, 70_000])
@pytest.mark.parametrize("cap", [0, 40, 10**9])
def test_listed_promotions_are_the_scans(n, cap):
    """solving/retro.Promotions (each window of exit levels listed once) against
    kernels/dtw.promote over every block at each level, on random state arrays and exit levels,
    with slots decided at random between levels as the propagation would: the same states and
    the same unit flags at every level, with windows of every size (``cap`` 0: every level
    alone above it, scanned; 40: many windows; one window)."""
    from morris.kernels.dtw import NONE, WINFLAG, promote
    from morris.kernels.retro import BLOCK, UNIT
    from morris.solving.retro import Promotions

    rng = np.random.default_rng(n + cap)
    exits = rng.integers(0, 30, n).astype(np.uint16)
    exits[rng.random(n) < 0.3] = NONE
    kind = rng.integers(0, 4, n)  # undecided win, undecided loss of count 0, of count 2, decided
    st = np.select([kind == 0, kind == 1, kind == 2], [WINFLAG, 0, 2 << 2],
                   (rng.integers(1, 40, n) << 2) | rng.integers(1, 3, n)).astype(np.uint16)
    listed, scanned = st.copy(), st.copy()
    promotions = Promotions(listed, exits, cap=cap)
    kept = exits[exits != NONE]
    assert promotions.top == (int(kept.max()) if len(kept) else -1)
    nunits = -(-n // BLOCK) * (BLOCK // UNIT)
    promoted = 0
    for d in range(promotions.top + 3):
        fa, fb = np.zeros(nunits, np.uint8), np.zeros(nunits, np.uint8)
        before = listed.copy()
        promotions(d, fa)
        promoted += int((before != listed).sum())
        if d <= promotions.top:
            promote(scanned, exits, d, fb)
        assert np.array_equal(listed, scanned) and np.array_equal(fa, fb), d
        decide = (rng.random(n) < 0.05) & ((listed & 3) == 0)  # the propagation's own decisions
        listed[decide] = scanned[decide] = ((d + 1) << 2) | 1
    assert promoted > (n // 20 if n >= 1000 else -1)  # (the comparison is not of idle levels)


def test_a_dtw_pass_in_small_windows_writes_the_same_files(dtw_db, tmp_path, monkeypatch):
    """Six Men's Morris up to 4 a side, flying, solved with dtw again with windows of at most 50
    listed promotions (many windows a pair, levels scanned alone): every dtw file the same
    bytes as the default solve's."""
    import morris.solving.retro as R

    monkeypatch.setattr(R, "WINDOW_SLOTS", 50)
    v = get_variant("six", flying=True)
    solve(tmp_path, v, max_pieces=4, reporter=QUIET, dtw=True)
    mine = sorted(tmp_path.rglob("*.mtw"))
    assert len(mine) >= 4
    for f in mine:
        theirs = file_path(dtw_db, v, Subspace.parse(f.stem), "dtw")
        assert f.read_bytes() == Path(theirs).read_bytes(), f.name


@pytest.mark.parametrize("n", [0, 1, 255, 10_000])
def test_the_states_become_the_dtw_plane_as_numpy_makes_it(n):
    """kernels/dtw.finish_states (the state array made the dtw plane in place, on every thread)
    against numpy: a decided slot's distance, 0 for a draw or an unused slot (code 3), and the
    count of slots left undecided (code 0), which solving/retro.finish_dtw refuses."""
    from morris.kernels.dtw import finish_states

    rng = np.random.default_rng(n)
    st = rng.integers(0, 1 << 16, n).astype(np.uint16)
    code = st & 3
    want = np.where(code == 3, 0, st >> 2).astype(np.uint16)
    plane = st.copy()
    assert finish_states(plane, 256) == int((code == 0).sum())
    assert np.array_equal(plane, want)
