"""Databases under the no-removal limit against the naive solver that iterates the counter."""

import os

import numpy as np
import pytest

import naive
import naive_counter
import script_module
from morris.apps.bot import PerfectPlayer
from morris.core.codes import DRAW, LOSS, UNUSED, WIN
from morris.format.fileformat import TableFile
from morris.core.errors import IllegalPositionError, MissingSubspaceError
from morris.core.game import Game
from morris.hashing.index import Hasher, popcounts
from morris.core.position import Position
from morris.core.progress import Reporter
from morris.solving.schedule import solve
from morris.hashing.subspaces import Subspace
from morris.lookups.tablebase import open_tablebase
from morris.core.variants import get_variant


def compare_with_counter_solver(db, variant, graph):
    """(positions x counters compared, mismatches) between the files of ``variant`` and the
    naive counter solver; also checks the curse plane against the unlimited files."""
    V, limits = naive.solve_with_counter(variant, graph)
    keys = np.array(graph[0], dtype=np.int64)
    h = Hasher(variant.board)
    idx = h.index_batch(keys[:, 0], keys[:, 1])
    pm, po = popcounts(keys[:, 0]), popcounts(keys[:, 1])
    compared = mismatches = 0
    for m, o in {(int(a), int(b)) for a, b in zip(pm, po)}:
        sel = (pm == m) & (po == o)
        sub = Subspace(m, o)
        with TableFile(os.path.join(db, variant.ruleset_id, sub.name + ".mtb")) as tf:
            vals, dtc, curse = tf.values_all(), tf.dtc_all(), tf.curse_all()
            assert tf.header["limit"] == variant.rules.limit_of(m, o)
        with TableFile(os.path.join(db, variant.unlimited.ruleset_id, sub.name + ".mtb")) as tf:
            unlimited = tf.values_all()
        v, d, cu, un = vals[idx[sel]], dtc[idx[sel]].astype(np.int64), curse[idx[sel]], unlimited[idx[sel]]
        assert not (v == UNUSED).any()
        L = variant.rules.limit_of(m, o)
        for c in range(L + 1):
            want = V[sel, c]
            got = np.where((v == WIN) & (d <= L - c), 1, np.where((v == LOSS) & (d <= L - c), -1, 0))
            mismatches += int((got != want).sum())
            compared += len(want)
        # the curse plane: the unlimited value where the limit makes a draw
        want_curse = np.where(v == DRAW, un, 0)
        mismatches += int((cu != want_curse).sum())
    return compared, mismatches


@pytest.mark.parametrize("flying", [False, True])
@pytest.mark.parametrize("limits", [(8, None), (16, None), (24, None), (24, 6)])
def test_six_up_to_4_4_matches_the_counter_solver(tmp_path_factory, graphs, flying, limits):
    L, E = limits
    variant = get_variant("six", flying=flying, no_removal_limit=L, endgame_no_removal_limit=E)
    db = str(tmp_path_factory.mktemp("limit"))
    solve(db, variant, max_pieces=4, reporter=Reporter(quiet=True))
    compared, mismatches = compare_with_counter_solver(db, variant, graphs[flying])
    assert compared > 1_861_860 * 8
    assert mismatches == 0


# ---------------------------------------------------------------------------- one whole limited game
SIX16 = get_variant("six", no_removal_limit=16)


@pytest.fixture(scope="session")  # (session: see conftest.SHARED_FIXTURES)
def six16(tmp_path_factory):
    """Six Men's Morris under a limit of 16 plies, both phases (and its unlimited twin)."""
    db = str(tmp_path_factory.mktemp("six16"))
    solve(db, SIX16, phase="all", reporter=Reporter(quiet=True))
    return db


def random_movement_positions(variant, count, seed, subs=None):
    rng = np.random.default_rng(seed)
    h = Hasher(variant.board)
    subs = subs or [Subspace(m, o) for m in range(3, variant.pieces + 1) for o in range(3, variant.pieces + 1)]
    out = []
    while len(out) < count:
        sub = subs[int(rng.integers(len(subs)))]
        movers, opps, used = h.unindex_batch(sub, rng.integers(0, h.slots(sub), 16))
        for m, o, u in zip(movers, opps, used):
            if u and len(out) < count:
                out.append(Position.from_mover(variant, int(rng.integers(2)), int(m), int(o)))
    return out


def test_lookups_give_the_value_at_the_counter_and_each_move_at_the_next(six16, graphs):
    """analyze() against the naive counter solver: the position at its counter, every move at
    the counter that follows it (one more, or 0 after a removal)."""
    V, _ = naive.solve_with_counter(SIX16, graphs[False])
    number = {k: i for i, k in enumerate(graphs[False][0])}
    sign = {"win": 1, "draw": 0, "loss": -1}
    rng = np.random.default_rng(5)
    checked = 0
    with open_tablebase(six16, shipped=False) as tb:
        for pos in random_movement_positions(SIX16, 300, 6, [Subspace(m, o) for m in (3, 4) for o in (3, 4)]):
            c = int(rng.integers(0, 17))
            pos = Position.from_masks(SIX16, pos.white, pos.black, pos.turn, no_removal_plies=c)
            a = tb.analyze(pos)
            assert sign[a.value] == V[number[(pos.mover, pos.opponent)], c], (pos, a.value)
            assert a.category in ("win", "cursed-win", "draw", "blessed-loss", "loss")
            for mi in a.moves:
                child = pos.play(mi.move)
                assert child.no_removal_plies == (0 if mi.move.removes else c + 1)
                if child.is_game_over():
                    continue
                want = -V[number[(child.mover, child.opponent)], child.no_removal_plies]
                assert sign[mi.value] == want, (pos, mi)
                checked += 1
    assert checked > 1000


def test_categories_follow_the_counter(six16):
    """A win at counter 0 of distance d is a win up to counter L - d and a draw after; a
    cursed win is a draw at every counter but a win without the limit."""
    seen = set()
    with open_tablebase(six16, shipped=False) as tb:
        for pos in random_movement_positions(SIX16, 400, 7):
            cat = tb.category(pos)
            seen.add(cat)
            r0 = tb.probe(pos)
            unlimited = tb.probe(Position.from_masks(SIX16.unlimited, pos.white, pos.black, pos.turn))
            if cat in ("win", "loss"):
                assert r0.value == cat and unlimited.value == cat and r0.dtc <= 16
                d = r0.dtc
                at = Position.from_masks(SIX16, pos.white, pos.black, pos.turn, no_removal_plies=16 - d)
                assert tb.probe(at).value == cat
                if d > 0:
                    after = Position.from_masks(SIX16, pos.white, pos.black, pos.turn, no_removal_plies=17 - d)
                    assert tb.probe(after) == ("draw", None)
            else:
                assert r0 == ("draw", None)
                assert unlimited.value == {"cursed-win": "win", "blessed-loss": "loss", "draw": "draw"}[cat]
    assert {"win", "loss", "draw", "cursed-win", "blessed-loss"} <= seen


def test_placement_under_the_limit_agrees_with_search(six16):
    """Placement files of limited rules (sweep over the movement values at counter 0) against
    the alpha-beta search over the same movement files."""
    rng = np.random.default_rng(8)
    with open_tablebase(six16, shipped=False) as files, \
            open_tablebase(six16, shipped=False, search="always") as search:
        game_positions = []
        for _ in range(60):
            pos = Position.start(SIX16)
            for _ in range(int(rng.integers(1, 12))):
                moves = pos.legal_moves()
                if not moves or not pos.in_placement:
                    break
                pos = pos.play(moves[int(rng.integers(len(moves)))])
            if pos.in_placement and not pos.is_game_over():
                game_positions.append(pos)
        assert len(game_positions) > 40
        for pos in game_positions:
            assert files.probe_wdl(pos) == search.probe_wdl(pos), pos


def test_bot_wins_every_limited_win_before_the_limit(six16):
    """1,000 random positions that are wins under the limit, each at a random counter that
    still allows the win: the perfect player on both sides, the winner wins every game."""
    rng = np.random.default_rng(9)
    with open_tablebase(six16, shipped=False) as tb:
        bot = PerfectPlayer(tb, seed=3)
        starts = []
        for pos in random_movement_positions(SIX16, 20000, 10):
            if len(starts) == 1000:
                break
            if pos.is_game_over():
                continue
            r = tb.probe(pos)
            if r.value != "win" or r.dtc == 0:
                continue
            c = int(rng.integers(0, 16 - r.dtc + 1))
            starts.append(Position.from_masks(SIX16, pos.white, pos.black, pos.turn, no_removal_plies=c))
        assert len(starts) == 1000
        for pos in starts:
            game = Game(pos)
            while game.result is None and len(game.moves) < 400:
                game.push(bot.choose(game.position).move)
            winner = "1-0" if pos.turn == 0 else "0-1"
            assert game.result == winner, (pos, game.result, game.reason)


def test_bad_counters_get_one_clear_line():
    with pytest.raises(IllegalPositionError, match="above the limit of 16"):
        Position.parse("a1,b2,d1/a7,b6,d7 w c=17", SIX16)
    with pytest.raises(IllegalPositionError, match="0 or more"):
        Position.parse("a1,b2,d1/a7,b6,d7 w c=-1", SIX16)
    with pytest.raises(IllegalPositionError, match="needs a limit"):
        Position.parse("a1,b2,d1/a7,b6,d7 w c=3", "six")
    with pytest.raises(IllegalPositionError, match="placement plies do not count"):
        Position.parse("a1/a7 w 5 5 c=2", SIX16)
    with pytest.raises(IllegalPositionError, match="not a number"):
        Position.parse("a1,b2,d1/a7,b6,d7 w c=x", SIX16)
    endgame = get_variant("standard", endgame_no_removal_limit=10)
    with pytest.raises(IllegalPositionError, match="no limit applies"):
        Position.parse("a1,d1,g1,b2/a7,d7,g7,b6 w c=3", endgame)
    assert Position.parse("a1,d1,g1/a7,d7,g7,b6 w c=10", endgame).no_removal_plies == 10


def test_counter_notation_round_trips_and_counts():
    pos = Position.parse("a1,b2,d1/a7,b6,d7 w c=5", SIX16)
    assert pos.to_compact() == "a1,b2,d1/a7,b6,d7 w c=5"
    assert Position.parse(pos.to_fen(), SIX16) == pos
    assert pos.to_fen().split()[-2] == "5"
    assert pos.play("a1-a4").no_removal_plies == 6
    # Sanmill writes a counter in every FEN: without a limit it is not read
    assert Position.parse(pos.to_fen(), "six").no_removal_plies == 0
    # at the limit the game is drawn; a blocked side to move still loses
    full = Position.parse("a1,b2,d1/a7,b6,d7 w c=16", SIX16)
    assert full.outcome() == "draw" and full.legal_moves() == []
    g = Game(Position.parse("a1,b2,d1/a7,b6,d7 w c=14", SIX16))
    g.push("a1-a4")
    g.push(next(m for m in g.legal_moves() if not m.removes))
    assert g.position.no_removal_plies == 16
    assert g.result == "1/2-1/2" and "16 plies without a removal" in g.reason


def test_limited_rules_never_borrow_unlimited_values(solved):
    limited = get_variant("standard", no_removal_limit=100)
    with open_tablebase(solved, shipped=False) as tb:
        with pytest.raises(MissingSubspaceError, match="standard-limit100"):
            tb.probe(Position.parse("a1,d1,g1,b2/a7,d7,g7 w", limited))


def test_query_json_under_a_limit(six16):
    from click.testing import CliRunner

    from morris.cli.main import cli

    r = CliRunner().invoke(cli, ["query", "--db", six16, "--variant", "six", "--no-removal-limit", "16",
                                 "--json", "a1,b2,d1,f2/a7,b6,d7 w c=3"])
    assert r.exit_code == 0, r.output
    import json

    obj = json.loads(r.output.strip().splitlines()[-1])
    assert obj["counter"] == 3 and obj["limit"] == 16
    assert obj["category"] in ("win", "cursed-win", "draw", "blessed-loss", "loss")
    assert obj["value"] == "win" and obj["dtc"] == 1
    r = CliRunner().invoke(cli, ["query", "--db", six16, "--variant", "six", "--no-removal-limit", "16",
                                 "a1,b2,d1,f2/a7,b6,d7 w c=30"])
    assert r.exit_code == 2
    assert "IllegalPositionError: the no-removal counter 30 is above the limit of 16 plies" in r.output


def compare_with_numba_counter_solver(db, variant, top, max_total):
    """Every raw position and counter of the subspaces up to ``max_total`` pieces: the files
    against naive_counter (no symmetry, its own move generator)."""
    ref = naive_counter.solve(variant, top, max_total)
    h = Hasher(variant.board)
    compared = mismatches = 0
    for (m, o), V in ref.items():
        movers, opps = naive_counter.all_positions(variant.board, m, o)
        idx = h.index_batch(movers, opps)
        with TableFile(os.path.join(db, variant.ruleset_id, f"{m}-{o}.mtb")) as tf:
            v, d = tf.values_all()[idx], tf.dtc_all()[idx].astype(np.int64)
        L = variant.rules.limit_of(m, o)
        for c in range(L + 1):
            got = np.where((v == WIN) & (d <= L - c), 1, np.where((v == LOSS) & (d <= L - c), -1, 0))
            mismatches += int((got != V[:, c]).sum())
            compared += len(got)
    return compared, mismatches


@pytest.mark.slow
@pytest.mark.parametrize("flying", [False, True])
@pytest.mark.parametrize("limit", [8, 16, 24])
def test_standard_3_3_and_4_3_match_the_counter_solver(tmp_path_factory, flying, limit):
    """The standard board: 3-3, 4-3 and 3-4, every raw position (26.9 M) at every counter."""
    variant = get_variant("standard", flying=flying, no_removal_limit=limit)
    db = str(tmp_path_factory.mktemp("std-limit"))
    solve(db, variant, max_pieces=4, reporter=Reporter(quiet=True))
    compared, mismatches = compare_with_numba_counter_solver(db, variant, 4, 7)
    assert compared == (2_691_920 + 2 * 12_113_640) * (limit + 1)
    assert mismatches == 0


def test_engine_under_a_limit(six16):
    """The engine takes the limit as an option, reads the FEN's counter and stops at the limit."""
    import io

    from morris.apps.engine import Engine

    out = io.StringIO()
    e = Engine(six16, get_variant("six"), out)
    pos = Position.parse("a1,b2,d1,f2/a7,b6,d7 w c=3", SIX16)
    for line in ["setoption name NoRemovalLimit value 16", f"position fen {pos.to_fen()}", "go",
                 f"position fen {pos.to_fen(no_removal_plies=16)}", "go",
                 "setoption name NoRemovalLimit value -1"]:
        e.handle(line)
    lines = out.getvalue().splitlines()
    assert "info depth 0 score cp 999 string win dtc 1" in lines  # white, a win in 1 at counter 3
    assert lines[lines.index("info string drawn by the no-removal limit (16 plies without a removal)") + 1] \
        == "bestmove none"
    assert lines[-1].startswith("info string error") and "between 0 and 10000" in lines[-1]


def test_http_api_under_a_limit(six16):
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from test_server import get, start_server

    base, stop = start_server(six16)
    try:
        status, obj = get(base, "/api/probe", position="a1,b2,d1,f2/a7,b6,d7 w c=3", variant="six",
                          no_removal_limit="16")
        assert status == 200, obj
        assert (obj["value"], obj["dtc"], obj["counter"], obj["limit"]) == ("win", 1, 3, 16)
        status, obj = get(base, "/api/probe", position="a1,b2,d1,f2/a7,b6,d7 w c=17", variant="six",
                          no_removal_limit="16")
        assert status == 400 and "above the limit" in json_text(obj)
    finally:
        stop()


def json_text(obj):
    import json

    return json.dumps(obj)


@pytest.mark.parametrize("what", ["cursed-win-as-win", "slower-win"])
def test_verify_catches_wrong_limited_values_with_a_valid_checksum(six16, tmp_path, what):
    """A cursed win stored as a win beyond the limit (only the forward check's counter rule sees
    it: the curse plane is consistent with it), and a win stored two plies slower."""
    import shutil

    from morris.format.fileformat import check_file, write_table
    from morris.solving.verify import verify

    db = tmp_path / "db"  # the limited files only (the unlimited twin's do not read them)
    shutil.copytree(os.path.join(six16, SIX16.ruleset_id), db / SIX16.ruleset_id)
    path = str(db / SIX16.ruleset_id / "6-5.mtb")
    with TableFile(path) as tf:
        header = dict(tf.header)
        vals, dtc, curse = tf.values_all().copy(), tf.dtc_all().astype(np.uint16), tf.curse_all().copy()
    used = Hasher(SIX16.board).used_mask(Subspace(6, 5))
    if what == "cursed-win-as-win":
        slot = int(np.flatnonzero((curse == 1) & used)[0])
        vals[slot], dtc[slot], curse[slot] = WIN, 17, 0  # a win in 17: beyond L = 16
    else:
        slot = int(np.flatnonzero((vals == WIN) & (dtc > 1) & (dtc < 15) & used)[0])
        dtc[slot] += 2
    vals[~used] = UNUSED
    write_table(path, header, vals, dtc, Hasher(SIX16.board).anchor_reps(5), curse)
    assert check_file(path) is None
    report = verify(str(db))
    bad = {os.path.basename(f.path): f for f in report.files if not f.ok}
    # the changed position, and where a slower win changes what its parents must be, those
    # parents in the sibling subspace; nothing else
    assert set(bad) == ({"6-5.mtb"} if what == "cursed-win-as-win" else {"6-5.mtb", "5-6.mtb"}), set(bad)
    assert bad["6-5.mtb"].mismatches == 1 and bad["6-5.mtb"].first_mismatch.startswith(f"slot {slot}:")



def test_seed_table_counts_what_the_files_hold(six16, tmp_path):
    """The README's table of the seed rule sets (scripts/seed_table.py): its counts per phase
    are the files' value codes and curse codes counted again, its start is the tablebase's,
    and its time and peak are the logs' sums and maximum."""
    import json

    from morris.database.folders import read_planes

    mod = script_module.load("seed_table")
    want = mod.expected_files(six16, SIX16)
    assert want and all(os.path.exists(f) for f in want)
    # the twin's files (another rule set, in its own folder) are not counted
    assert {os.path.basename(os.path.dirname(f)) for f in want} == {SIX16.ruleset_id}
    from morris.apps.reports import stats_rows

    counts = mod.phase_counts(stats_rows(want))
    hasher = Hasher(SIX16.board)
    for phase in ("movement", "placement"):
        codes = np.zeros(4, dtype=np.int64)
        curse = np.zeros(3, dtype=np.int64)
        for f in want:
            with TableFile(f) as tf:
                # the script tells the phases apart by the subspace it expects there
                assert tf.header.get("phase", "movement") == (
                    "placement" if want[f].placement else "movement")
                if tf.header.get("phase", "movement") != phase:
                    continue
                used = hasher.used_mask(Subspace.parse(tf.header["subspace"]))
                curse += np.bincount(tf.curse_all()[used], minlength=3)[:3]
            codes += np.bincount(read_planes(f, with_dtc=False)[0][used], minlength=4)
        got = counts[phase]
        assert (got["wins"], got["draws"], got["losses"]) == (codes[WIN], codes[DRAW], codes[LOSS])
        assert got["positions"] == codes[WIN] + codes[DRAW] + codes[LOSS]
        assert (got["cursed_wins"], got["blessed_losses"]) == (curse[1], curse[2])
    log = tmp_path / "run.err"
    log.write_text("[3/10] 4-4: 1,000 positions in 7.5 s\n"
                   "[4/10] 3-3 (no limit): 10 positions in 6.0 s\n"
                   "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03\n"
                   "\tMaximum resident set size (kbytes): 123456\n")
    times = mod.run_times([log, log])
    assert times["wall"] == 2 * 3723 and times["runs"] == 2 and times["peak_kb"] == 123456
    assert (times["jobs"], times["job_seconds"], times["twin_jobs"], times["twin_seconds"]) == (
        2, 15.0, 2, 12.0)
    out = tmp_path / "table.json"
    assert mod.main(["--db", six16, "--variant", "six", "--no-removal-limit", "16",
                     "--log", str(log), "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    with open_tablebase(six16, shipped=False, search="never") as tb:
        start = tb.analyze(Position.start(SIX16))
    assert data["start"]["value"] == start.value
    assert [m["value"] for m in data["start"]["moves"]] == [m.value for m in start.moves]


def test_seed_table_times_a_killed_run_by_its_heartbeat(tmp_path):
    """A segment killed with its session has no ``/usr/bin/time`` lines: scripts/seed_table.py
    times it from its start line to its heartbeat's last beat (the script's older start lines
    carry no epoch: it is taken from the next beat), and takes off the SIGSTOPped time that
    falls inside the rule set's runs, ended or killed."""
    mod = script_module.load("seed_table")
    old = tmp_path / "seeds.1.heartbeat"  # the older lines: no epoch on start and end
    old.write_text("10:00:00 start a\n1000 10:00:00\n1030 10:00:30\n10:00:40 end a rc=0\n"
                   "10:00:40 start b\n1050 10:00:50\n1080 10:01:20\n")
    new = tmp_path / "seeds.2.heartbeat"
    new.write_text("2000 11:00:00 start b\n2000 11:00:00\n2030 11:00:30\n2040 11:00:40 end b rc=0\n")
    assert mod.segments([old, new], "a") == [(1000, 1040, True)]
    assert mod.segments([old, new], "b") == [(1040, 1080, False), (2000, 2040, True)]
    pauses = tmp_path / "pauses.log"
    pauses.write_text("STOP 1030 x\nCONT 1060 x\nSTOP 1070 x\nCONT 2010 x\nSTOP 2035 x\n")
    spans = mod.segments([old, new], "b")
    # 1040..1060 and 1070..1080 of the killed run, 2000..2010 and 2035..2040 of the ended one
    assert mod.stopped_within(pauses, spans) == 20 + 10 + 10 + 5
    # a segment killed while stopped: its STOP lasts to its own end, not into the next one's
    pauses.write_text("STOP 1030 x\nCONT 1060 x\nSTOP 1070 x\n")
    assert mod.stopped_within(pauses, spans) == 20 + 10
    pauses.write_text("STOP 1030 x\nCONT 1060 x\nSTOP 1070 x\nCONT 2010 x\nSTOP 2035 x\n")
    log = tmp_path / "b.2.err"
    log.write_text("\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:40.00\n")
    times, paused = mod.the_run([log], "b", [old, new], [pauses], 7.0)
    # the ended run's wall clock from its log, the killed one's from its heartbeat
    assert times["wall"] == 40.0 + 40 and times["runs"] == 1
    assert times["killed"] == [(1040, 1080, False)] and paused == 7.0 + 45
