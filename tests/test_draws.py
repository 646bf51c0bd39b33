"""Draw values (docs/draws.md): the solver against the definition, the files, the lookups, the
bot, the verifier."""

import os
import random
from collections import Counter

import numpy as np
import pytest

import chunks
import naive
from morris.core.codes import DV0
from morris.apps.bot import PerfectPlayer
from morris.format.fileformat import TableFile
from morris.database.folders import file_path, stored_values
from morris.hashing.index import Hasher
from morris.core.progress import Reporter
from morris.solving.schedule import solve
from morris.hashing.subspaces import Subspace
from morris.core.variants import get_variant

QUIET = Reporter(quiet=True)
PAIRS = [(3, 3), (4, 3), (3, 4), (4, 4)]


@pytest.fixture(scope="module")
def draws_db(six_small):
    """Six Men's Morris up to 4 a side, with and without flying: values and draw values (and
    dtw: conftest.six_small, shared with the dtw tests)."""
    return six_small


@pytest.mark.parametrize("flying", [False, True])
def test_draw_values_agree_with_the_definition_on_every_position(draws_db, graphs, horizons,
                                                                 flying):
    """Every raw position of Six Men's Morris up to 4-4: the draw value in the files against
    naive.draw_values (threshold fixpoints over the raw move graph, ranks counted from it)."""
    v = get_variant("six", flying=flying)
    graph = graphs[flying]
    value, _ = horizons(flying)
    want = naive.draw_values(v, graph, value)
    keys = graph[0]
    movers = np.array([k[0] for k in keys], dtype=np.int64)
    opps = np.array([k[1] for k in keys], dtype=np.int64)
    mc = np.array([k[0].bit_count() for k in keys])
    oc = np.array([k[1].bit_count() for k in keys])
    h = Hasher(v.board)
    mismatches = 0
    for m, o in PAIRS:
        s = Subspace(m, o)
        with TableFile(file_path(draws_db, v, s, "draw")) as tf:
            dv = tf.distance_all("dv", stored_values(file_path(draws_db, v, s)))
        sel = (mc == m) & (oc == o)
        got = dv[h.index_batch(movers[sel], opps[sel])].astype(np.int64)
        got = np.where(got == 0, -999, got - DV0)
        mismatches += int((got != want[sel]).sum())
    assert mismatches == 0
    if flying:  # the comparison covers draws above and below their pair's rank
        assert len(set(want[want != -999].tolist())) >= 3


@pytest.mark.parametrize("flying", [False, True])
def test_both_ways_of_counting_the_moves_into_draws_give_the_files(draws_db, flying):
    """A part's count of moves into draws, looked up child by child or all its moves less those
    into its sibling's wins (kernels/draws.count_draws; the pass weighs the part's draws against
    the sibling's wins): each way, forced on every part, gives the draw values and distances
    of the files, which the test above checks against the definition."""
    from morris.core.draws import pair_ranks
    from morris.database.folders import read_draws
    from morris.solving.retro import solve_pair_draws

    v = get_variant("six", flying=flying)
    h = Hasher(v.board)

    def values(s):
        return stored_values(file_path(draws_db, v, s))

    def children(c):
        x = values(c)
        return x, read_draws(file_path(draws_db, v, c, "draw"), x, distances=False)[0]

    for top in (Subspace(3, 3), Subspace(4, 3), Subspace(4, 4)):
        headers = {}
        for s in top.pair:
            with TableFile(file_path(draws_db, v, s)) as tf:
                headers[s] = tf.header
        want = {s: read_draws(file_path(draws_db, v, s, "draw"), values(s)) for s in top.pair}
        for wins, draws in ((1 << 60, 0), (0, 1 << 60)):  # every part direct; none
            got = solve_pair_draws(v, top, values, children, pair_ranks(headers), h, QUIET,
                                   {s: (wins, draws) for s in top.pair})
            for s in top.pair:
                used = h.used_mask(s)
                for a, b in zip(got[s], want[s]):
                    assert np.array_equal(a[used], b[used]), (top, s, wins)


def test_the_draw_values_benchmark_solves_the_pairs_again_and_compares(draws_db, tmp_path):
    """bench/bench_draws.py: each pair's draw values solved again from the database, timed,
    and compared with its files (a damaged plane is named)."""
    import shutil
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(__file__), "..", "bench", "bench_draws.py")
    cmd = [sys.executable, script, "--variant", "six", "--no-flying", "--runs", "2"]
    r = subprocess.run(cmd + ["--db", str(draws_db), "4-3", "4-4"], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("the planes the same as the files'") == 4
    assert "4-4: median of 2:" in r.stdout
    v = get_variant("six", flying=False)
    db = tmp_path / "db"
    shutil.copytree(draws_db, db)
    path = file_path(db, v, Subspace(4, 4), "draw")
    from morris.database.folders import read_draws
    from morris.format.fileformat import LAYOUT_KEYS, write_planes

    vals = stored_values(file_path(db, v, Subspace(4, 4)))
    dv, dd = read_draws(path, vals)
    with TableFile(path) as tf:
        header = {k: x for k, x in tf.header.items() if k not in LAYOUT_KEYS}
        anchors = np.array(tf.anchors, dtype=np.int64)
    dv[np.flatnonzero(dv)[7]] += 1  # one draw value off by one
    write_planes(path, header, {"dv": dv, "dd": dd}, anchors, 6, vals)
    r = subprocess.run(cmd + ["--db", str(db), "4-4"], capture_output=True, text=True)
    assert r.returncode == 1 and "4-4: the draw values differ" in r.stderr


EXAMPLE = "a4,d1,d6,f2/b4,d2,f6,g7 w"  # docs/draws.md: +6 in 7 plies, in a pair of rank 0


def _open(db):
    from morris.lookups.tablebase import open_tablebase

    return open_tablebase(db, shipped=False, search="never")


def test_the_worked_example_query_json_and_bot(draws_db):
    """docs/draws.md's example: the value, its words, the JSON, and the bot's move keep it."""
    import json

    from click.testing import CliRunner

    from morris.cli.main import cli
    from morris.core.position import Position

    v = get_variant("six", flying=True)
    pos = Position.parse(EXAMPLE, v)
    with _open(draws_db) as tb:
        d = tb.probe_draw(pos)
        assert (d.value, d.distance, d.rank) == (6, 7, 0)
        a = tb.analyze(pos)
        assert a.moves[0].draw == 6 and a.moves[0].draw_distance == 7
        assert max(m.draw for m in a.moves) == 6
        for seed in range(5):
            c = PerfectPlayer(tb, seed).choose(pos)
            assert str(c.move) == "f2-f4" and "draw value +6 in 7 plies" in c.rule
        old = PerfectPlayer(tb, 0, use_draw_values=False).choose(pos)
        assert old.value == "draw"
    args = ["query", "--variant", "six", "--flying", "--db", str(draws_db)]
    r = CliRunner().invoke(cli, args + [EXAMPLE])
    assert r.exit_code == 0, r.output
    assert "draw (+6: can force a settlement worth +6 within 7 plies (this pair: +0))" in r.output
    assert "f2-f4        draw +6, 7 plies" in r.output
    r = CliRunner().invoke(cli, args + ["--json", EXAMPLE])
    obj = json.loads(r.output)
    assert (obj["draw_value"], obj["draw_distance"], obj["rank"]) == (6, 7, 0)
    assert obj["moves"][0]["draw_value"] == 6
    # the perfect line realises it: a removal at the 7th ply, every move keeping +6 / -6
    r = CliRunner().invoke(cli, ["line"] + args[1:] + ["--json", EXAMPLE])
    moves = json.loads(r.output)["moves"]
    assert "x" in moves[6]["move"] and not any("x" in m["move"] for m in moves[:6])
    assert [m["draw_value"] for m in moves[:7]] == [6, -6, 6, -6, 6, -6, 6]


def test_a_drawing_bot_never_leaves_the_best_draw_value(draws_db):
    """From random drawn 4-4 positions the bot's move keeps the position's draw value, and
    where that value is above the rank it shortens the draw distance by one ply."""

    v = get_variant("six", flying=True)
    with _open(draws_db) as tb:
        bot = PerfectPlayer(tb, 1)
        for pos, d in _drawn_positions(tb, v, 3, 60):
            c = bot.choose(pos)
            assert c.value == "draw" and c.info.draw == d.value
            if d.value > d.rank:
                assert c.info.draw_distance == d.distance


def test_asking_for_draw_values_without_their_files_says_how_to_add_them(tmp_path):
    from morris.apps.advice import error_line
    from morris.core.errors import MissingDrawsError, UsageError
    from morris.core.position import Position

    v = get_variant("six")
    solve(tmp_path, v, max_pieces=3, reporter=QUIET)
    with _open(tmp_path) as tb:
        pos = Position.parse("a1,d1,g1/a7,d7,b6 w", v)
        assert tb.analyze(pos).draw is None  # values only: no draw value, no error
        with pytest.raises(MissingDrawsError) as info:
            tb.probe_draw(pos)
    line = error_line(info.value, tmp_path)
    assert "no draw-value file" in line and f"morris solve --out {tmp_path} --variant six --draws 3-3" in line
    with pytest.raises(UsageError, match="without a no-removal limit"):
        solve(tmp_path, get_variant("six", no_removal_limit=8), max_pieces=3, reporter=QUIET, draws=True)


def test_verify_checks_draw_values_and_catches_a_wrong_one(draws_db, tmp_path):
    """morris verify recomputes every draw value and distance (all pass), and names a file
    rewritten with one wrong value and a valid checksum."""
    import shutil

    from click.testing import CliRunner

    from morris.cli.main import cli
    from filetree import rewrite_side, side_planes

    v = get_variant("six", flying=True)
    db = tmp_path / "db"
    shutil.copytree(draws_db / v.ruleset_id, db / v.ruleset_id)
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--quiet"])
    assert r.exit_code == 0, r.output
    for name, change in (("dv", 1), ("dd", 1)):
        path = file_path(db, v, Subspace(4, 4), "draw")
        header, planes, anchors, stored = side_planes(path, ("dv", "dd"))
        good = {k: p.copy() for k, p in planes.items()}
        i = int(np.flatnonzero(planes["dd"] > 2)[5])
        planes[name][i] += change  # a plausible value, just not this position's
        rewrite_side(path, header, planes, anchors, stored)
        r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--quiet"])
        assert r.exit_code == 3
        assert f"FAIL {path}: 1 of" in r.output and f"slot {i}" in r.output
        rewrite_side(path, header, good, anchors, stored)


def _draw_of_moves(results):
    """(value, draw value) of a placement position from its moves' (naive.placement_recursion):
    a draw's is the best over its drawing moves of the child's, negated when the turn passes;
    a game the rules end drawn is 0."""
    results = [(naive.NEGATE[v], None if x is None else -x) if sw else (v, x) for v, x, sw, _ in results]
    if not results:
        return ("loss", None)
    if any(v == "win" for v, _ in results):
        return ("win", None)
    if any(v == "draw" for v, _ in results):
        return ("draw", max(x for v, x in results if v == "draw"))
    return ("loss", None)


@pytest.mark.parametrize("variant_name", ["six", "standard-4"])
def test_placement_draw_values_agree_with_plain_recursion(whole_game, variant_name):
    """Six Men's Morris and the standard board with 4 pieces a side, the whole game with draw
    values (and verify passes on all of it); random placement positions with up to 4 pieces
    left in hand against the recursion above."""
    from click.testing import CliRunner

    from morris.cli.main import cli
    from morris.core.position import Position
    from morris.hashing.subspaces import placement_subspaces

    v = get_variant(variant_name)
    tmp_path = whole_game(variant_name)
    r = CliRunner().invoke(cli, ["verify", "--db", str(tmp_path), "--quiet"])
    assert r.exit_code == 0, r.output
    subs = [s for s in placement_subspaces(v) if s.hm + s.ho <= 4]
    rng = random.Random(5)
    h = Hasher(v.board)
    memo = {}
    checked = draws = 0
    with _open(tmp_path) as tb:
        def movement(mover, opp):
            p = Position.from_masks(v, mover, opp, 0)
            d = tb.probe_draw(p)
            return (tb.probe(p).value, None if d is None else d.value)

        while checked < 60:
            s = rng.choice(subs)
            mover, opp, used = h.unindex_py(s, rng.randrange(h.slots(s)), h.anchor_reps(s.o))
            if not used:
                continue
            pos = Position.from_masks(v, mover, opp, 0, s.hm, s.ho)
            val, want = naive.placement_recursion(v, (mover, opp, s.hm, s.ho), movement, memo,
                                                 _draw_of_moves)
            got = tb.probe_draw(pos)
            assert (None if got is None else got.value) == (want if val == "draw" else None), pos.to_compact()
            draws += val == "draw"
            checked += 1
        start = tb.probe_draw(Position.start(v))
    assert draws >= 10 and start is not None and start.rank is None
    # every chunk function run here compiled once per set of array dtypes (kernels/jit.py)
    compiled, problems = chunks.signature_problems()
    assert {"retro._count_block", "retro._emit_task", "dtw._dtw_block", "draws._draws_block",
            "placement._sweep_rows", "verify._check_movement_chunk",
            "verify._check_placement_chunk", "verify._check_draws_movement_chunk"} <= compiled
    assert not problems


def test_the_engine_the_api_and_the_explorer_report_draw_values(draws_db):
    import io

    from morris.apps.engine import Engine
    from morris.core.position import Position

    v = get_variant("six", flying=True)
    pos = Position.parse(EXAMPLE, v)
    out = io.StringIO()
    e = Engine(str(draws_db), v, out)
    for line in [f"position fen {pos.to_fen()}", "go"]:
        e.handle(line)
    lines = out.getvalue().splitlines()
    info = [x for x in lines if x.startswith("info depth")]
    assert info and info[-1] == "info depth 0 score cp 6 string draw drawvalue 6", out.getvalue()
    assert "bestmove f2-f4" in lines
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from test_server import get, start_server

    base, stop = start_server(str(draws_db))
    try:
        status, obj = get(base, "/api/probe", position=EXAMPLE, variant="six", flying="true")
        assert status == 200 and (obj["draw_value"], obj["draw_distance"], obj["rank"]) == (6, 7, 0)
        status, obj = get(base, "/api/bestmove", position=EXAMPLE, variant="six", flying="true")
        assert obj["move"] == "f2-f4"
    finally:
        stop()


def test_the_explorer_shows_the_draw_value(draws_db):
    from morris.apps.explorer import explorer_page
    from morris.lookups.tablebase import open_tablebase

    with open_tablebase(draws_db, shipped=False, search="never") as tb:
        html, status = explorer_page(tb, {"position": EXAMPLE, "variant": "six", "flying": "1"})
    assert status == 200
    assert 'data-draw="6"' in html and "can force a settlement worth +6 within 7 plies" in html
    assert "draw value +6</small>" in html


def test_stats_show_each_pairs_rank_and_draw_values(draws_db):
    import json

    from click.testing import CliRunner

    from morris.cli.main import cli

    r = CliRunner().invoke(cli, ["stats", "--db", str(draws_db), "--json"])
    rows = {(x["ruleset"], x["subspace"]): x for x in json.loads(r.output)}
    four = rows[("six", "4-3")]
    three = rows[("six", "3-4")]
    assert four["rank"] == -three["rank"] != 0  # antisymmetric
    assert sum(four["draw_values"].values()) == four["draws"]  # every draw has one
    r = CliRunner().invoke(cli, ["stats", "--db", str(draws_db)])
    assert "rank  drawvalues" in r.output and f"{four['rank']:+d}" in r.output


def _at_rank_with_choices(tb, v, seed):
    """(position, its draw value, its analysis, its moves of that draw value): drawn positions
    at their pair's rank with two or more such moves."""
    for pos, d in _drawn_positions(tb, v, seed):
        a = tb.analyze(pos)
        top = [m for m in a.moves if m.value == "draw" and m.draw == d.value]
        if d.value == d.rank and len(top) >= 2:
            yield pos, d, a, top


def test_the_bot_keeps_a_drawn_game_going_rather_than_repeat(draws_db):
    """Knowing the game (``seen``), the bot moves into the position seen least among the moves
    that keep the best draw value, and never into a worse draw value to avoid a repetition."""
    v = get_variant("six", flying=True)
    rng = random.Random(9)
    checked = 0
    with _open(draws_db) as tb:
        for pos, d, a, top in _at_rank_with_choices(tb, v, 9):
            fresh = rng.choice(top)
            seen = Counter({pos.play(m.move).key: 2 for m in top if m.move != fresh.move})
            for seed in range(3):
                c = PerfectPlayer(tb, seed).choose(pos, seen)
                assert c.move == fresh.move
            worse = [m for m in a.moves if m.value == "draw" and m.draw < d.value]
            seen = Counter({pos.play(m.move).key: 2 for m in top})
            c = PerfectPlayer(tb, 0).choose(pos, seen)
            assert c.move in {m.move for m in top} and c.move not in {m.move for m in worse}
            checked += 1
            if checked == 10:
                break


def test_the_bot_leaves_no_reply_that_ends_the_game_by_repetition(draws_db):
    """Among moves of the best draw value, the bot prefers one after which no opponent reply
    reaches a position seen twice (such a reply would end the game by threefold repetition)."""
    v = get_variant("six", flying=True)
    rng = random.Random(11)
    checked = 0
    with _open(draws_db) as tb:
        for pos, _, _, top in _at_rank_with_choices(tb, v, 12):
            safe = rng.choice(top)
            after = pos.play(safe.move)
            near = {after.play(r).key for r in after.legal_moves()} | {after.key}
            seen = Counter()
            for m in top:
                if m.move == safe.move:
                    continue
                other = pos.play(m.move)
                ends = [other.play(r).key for r in other.legal_moves() if other.play(r).key not in near]
                if not ends:
                    break
                seen[rng.choice(ends)] = 2
            else:
                for seed in range(3):
                    assert PerfectPlayer(tb, seed).choose(pos, seen).move == safe.move
                checked += 1
            if checked == 8:
                break
    assert checked >= 3


def test_the_api_keeps_a_drawn_game_going_given_the_positions_seen(draws_db):
    """/api/bestmove with ``seen``: the move into a position seen twice is avoided where
    another keeps the draw value; a bad position in ``seen`` is a 400 naming it."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from morris.core.position import Position
    from test_server import get, start_server

    v = get_variant("six", flying=True)
    pos = Position.parse(EXAMPLE, v)
    base, stop = start_server(str(draws_db))
    try:
        # the only +6 move is f2-f4: seen twice, the bot still keeps its draw value
        after = pos.play("f2-f4").to_compact()
        status, obj = get(base, "/api/bestmove", position=EXAMPLE, variant="six", flying="true",
                          seen=f"{after};{after}")
        assert status == 200 and obj["move"] == "f2-f4"
        status, obj = get(base, "/api/bestmove", position=EXAMPLE, variant="six", flying="true",
                          seen="a1,a1/b2 w")
        assert status == 400 and "error" in obj
        # a position with two moves of its draw value: the one into a fresh position is played
        with _open(draws_db) as tb:
            other, fresh, stale = _two_best_draws(tb, v)
        seen = ";".join([other.play(m).to_compact() for m in stale] * 2)
        for seed in range(3):
            status, obj = get(base, "/api/bestmove", position=other.to_compact(), variant="six",
                              flying="true", seen=seen, seed=seed)
            assert status == 200 and obj["move"] == str(fresh)
    finally:
        stop()


def _two_best_draws(tb, v):
    """(a drawn 4-4 position at its pair's rank with several moves of its draw value, one of
    those moves, the others)."""
    for pos, d in _drawn_positions(tb, v, 4):
        top = [m.move for m in tb.analyze(pos).moves if m.value == "draw" and m.draw == d.value]
        if d.value == d.rank and 2 <= len(top) <= 4:
            return pos, top[0], top[1:]


def _drawn_positions(tb, v, seed, count=None):
    """Random drawn 4-4 positions of ``v`` with their DrawValue (``count`` of them, or for ever)."""
    from morris.core.position import Position

    h = Hasher(v.board)
    s = Subspace(4, 4)
    rng = random.Random(seed)
    found = 0
    while count is None or found < count:
        mover, opp, used = h.unindex_py(s, rng.randrange(h.slots(s)), h.anchor_reps(s.o))
        pos = Position.from_masks(v, mover, opp, 0)
        d = used and tb.probe_draw(pos)
        if d:
            found += 1
            yield pos, d
