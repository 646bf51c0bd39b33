"""Lasker Morris: a turn may place a piece from hand or move one on the board; the hand counts
with the board (3 together fly, fewer than 3 lose). The solver (hand pairs solved by retrograde
analysis, kernels/hand.py) against a reference written apart from it: tests/naive_lasker.py
(every raw position of every subspace, no symmetry, its own turn generator, values, dtc and dtw
straight from their definitions over the whole move graph), and the turn kernels against
rules.py."""

import dataclasses
import os
import random
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

import chunks
from morris import open_tablebase
from morris.cli.main import cli
from morris.core import rules
from morris.core.errors import IllegalMoveError
from morris.core.position import Position
from morris.core.progress import Reporter
from morris.core.variants import BOARDS, Variant, get_variant
from morris.hashing.index import board_tables
from morris.hashing.subspaces import Subspace, hand_subspaces
from morris.solving.schedule import job_graph, solve
from morris.solving.verify import verify

QUIET = Reporter(quiet=True)


def lasker(pieces=10, flying=True, board="standard"):
    v = get_variant("lasker", pieces=pieces, flying=flying)
    return v if board == "standard" else Variant("lasker", BOARDS[board], v.rules)


def test_the_variant_and_its_ruleset():
    v = get_variant("lasker")
    assert (v.pieces, v.rules.flying, v.rules.count_hand, v.rules.place_or_move) == (10, True, True, True)
    assert v.board.name == "standard" and v.ruleset_id == "standard-hand-lasker"
    assert get_variant("lasker", flying=False).ruleset_id == "standard-nofly-hand-lasker"


def test_a_turn_places_or_moves_and_always_passes():
    v = lasker()
    b = v.board
    pos = Position.parse("a1,d2/g7 w 8 9", v)
    moves = {str(m) for m in pos.legal_moves()}
    assert "d1" in moves and "a1-a4" in moves and "d2-d3" in moves  # place, or move
    assert len([m for m in moves if "-" not in m]) == 24 - 3  # a placement on every empty point
    after = pos.play("a1-a4")
    assert after.turn == 1 and (after.white_hand, after.black_hand) == (8, 9)
    # black, with an empty hand while white still has pieces, moves; then white again
    pos = Position.parse("a1,d2,g1/g7,d7,a7,b6,d6,f6,b4,f4,c5 b 5 0", v)
    assert all("-" in str(m) for m in pos.legal_moves())
    assert pos.play("b4-b2").turn == 0
    # 2 on the board and 1 in hand: 3 together, so it flies (with flying on)
    pos = Position.parse("a1,d2/g7,d7,a7 w 1 0", v)
    assert "a1-g1" in {str(m) for m in pos.legal_moves()}
    assert rules.flies(v, b.mask(["a1", "d2"]), 1, 0)
    assert not rules.flies(lasker(flying=False), b.mask(["a1", "d2"]), 1, 0)
    # 1 on the board and 1 in hand: fewer than 3, lost
    assert Position.parse("a1/g7,d7,a7 w 1 0", v).outcome() == "loss"


def test_a_double_mill_removes_two_under_the_option():
    v = get_variant("lasker", double_mill_removes=2)
    pos = Position.parse("a1,g1,d2,d3/a4,g4,b4,f4 w 2 2", v)  # d1 closes a1-d1-g1 and d1-d2-d3
    placing = [m for m in pos.legal_moves() if m.to == "d1" and m.frm is None]
    assert len(placing) == 6 and all(len(m.removes) == 2 for m in placing)  # any two of four
    one = Position.parse(pos.to_compact(), "lasker")  # (one piece for two mills, by default)
    placing = [m for m in one.legal_moves() if m.to == "d1" and m.frm is None]
    assert len(placing) == 4 and all(len(m.removes) == 1 for m in placing)


def test_a_lasker_move_in_a_game_without_it_is_one_clear_line():
    pos = Position.parse("a1,d2/g7 w 7 8")
    with pytest.raises(IllegalMoveError, match="Lasker Morris's rule: --variant lasker"):
        pos.play("a1-a4")
    r = CliRunner().invoke(cli, ["perft", "a1,d2/g7 w 7 8", "1", "--variant", "lasker"])
    assert r.exit_code == 0 and "perft(1) = 27" in r.output  # 21 placements and 6 slides
    r = CliRunner().invoke(cli, ["perft", "a1,d2/g7 w 7 8", "1"])
    assert r.exit_code == 0 and "perft(1) = 21" in r.output
    r = CliRunner().invoke(cli, ["engine"], input="position startpos moves a1 d7 a1-a4\nisready\nquit\n")
    assert "--variant lasker" in r.output and "readyok" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("board", ["standard", "six", "morabaraba"])
def test_the_kernels_turns_are_the_references(board):
    """bitboard.gen_turns with the place-or-move turn, and apply_turn, against rules.py on random
    positions with pieces in hand and on the board."""
    from morris.kernels.bitboard import MAX_TURNS, apply_turn, gen_turns

    for flying, dm in ((True, 1), (False, 1), (True, 2)):
        v = lasker(pieces=5 if board == "six" else 7, flying=flying, board=board)
        v = Variant(v.name, v.board, dataclasses.replace(v.rules, double_mill_removes=dm))
        T = board_tables(v.board)
        rng = random.Random(3)
        buf = np.empty((MAX_TURNS, 3), dtype=np.int64)
        for _ in range(300):
            pts = rng.sample(range(v.board.n), rng.randint(0, 2 * v.pieces - 4))
            cut = rng.randint(0, len(pts))
            mover = sum(1 << p for p in pts[:cut][: v.pieces])
            opp = sum(1 << p for p in pts[cut:][: v.pieces])
            mh = rng.randint(0, v.pieces - mover.bit_count())
            oh = rng.randint(0, v.pieces - opp.bit_count())
            want = sorted(rules.turns(v, mover, opp, mh, oh))
            n = gen_turns(T, flying, dm, mover, opp, mh, oh, buf, True)
            got = sorted((int(a), int(b), int(c)) for a, b, c in buf[:n])
            assert got == want
            for t in want[:5]:
                child, sw = rules.play(v, mover, opp, mh, oh, t)
                a, b, c, d, sw2 = apply_turn(mover, opp, mh, oh, t[0], t[1], t[2], True)
                assert (child, sw) == ((a, b, c, d), sw2) and sw


def test_the_hand_subspaces_and_their_order():
    v = lasker(pieces=4)
    subs = hand_subspaces(v)
    assert Subspace(0, 0, 4, 4) in subs and Subspace(2, 0, 1, 4) in subs
    assert Subspace(1, 0, 1, 4) not in subs  # 2 on the board and in hand: the game is over
    jobs, deps = job_graph(v, phase="all")
    done = set()
    for j in jobs:
        assert all(d in done for d in deps[j]), j.name
        done.add(j)
    assert jobs[-1].name == "0-0+4+4"


def test_the_sweep_spans_cover_each_representative_once():
    """The hand counts' sweep (kernels/hand.py) runs over spans of mover representatives
    (retro.rep_spans): together they hold each once, in order, with their positions."""
    from math import comb

    from morris.hashing.index import Hasher
    from morris.solving.retro import rep_spans

    h = Hasher(BOARDS["standard"])
    for sub in (Subspace(5, 4, 2, 3), Subspace(1, 0, 3, 4), Subspace(8, 8, 1, 1)):
        Ob = h.orbits({sub.m})
        nreps = int(Ob.reps_off[sub.m + 1] - Ob.reps_off[sub.m])
        spans = list(rep_spans(24, Ob, sub))
        assert spans[0][0] == 0 and spans[-1][1] == nreps
        assert all(a < b and b == spans[i + 1][0] for i, (a, b, _) in enumerate(spans[:-1]))
        assert sum(n for _, _, n in spans) == nreps * comb(24 - sub.m, sub.o)
        assert len(spans) >= min(50, nreps) // 2 and all(b - a >= 1 for a, b, _ in spans)


def test_a_hand_pairs_memory_counts_one_parts_children_at_a_time():
    """The drivers (retro.py) hold one part's children at a time: the estimate of a hand
    pair's values, dtw and draw-value jobs counts the larger part's, at 2, 3 and 2 bytes a
    slot, beside the pair's own arrays."""
    from morris.hashing.index import Hasher
    from morris.hashing.games import game_of
    from morris.solving.jobs import HandDraws, HandDtw, HandPair

    v = get_variant("lasker")
    h = Hasher(v.board)
    top = Subspace(8, 8, 1, 0)
    own = sum(h.slots(s) for s in top.pair)
    parts = [sum(h.slots(c) for c in set(game_of(v).children(s)) - {None}) for s in top.pair]
    both = sum(h.slots(c) for c in game_of(v).pair_inputs(top))
    assert max(parts) < both  # (the two parts' children are not the same files)
    for cls, own_bytes, per_slot in ((HandPair, 3, 2), (HandDtw, 5, 3), (HandDraws, 6, 2)):
        job = cls(top)
        assert job.memory(v) == int(own_bytes * own + per_slot * max(parts) + 400e6), cls


@pytest.fixture(scope="session")  # (session: see conftest.SHARED_FIXTURES)
def solved(tmp_path_factory):
    """Lasker rules solved with values, dtw and draw values: the standard board with 3 a side
    without flying and Six Men's board with 4 a side with flying (each flying rule once; the
    others, and 5 a side with a double mill removing two, by tests/naive_lasker.py outside
    the suite: 0 mismatches, docs/benchmarks.md)."""
    out = {}
    for key, v in {("standard", 3, False): lasker(3, False), ("six", 4, True): lasker(4, True, "six")}.items():
        d = tmp_path_factory.mktemp("lasker")
        solve(d, v, phase="all", reporter=QUIET, dtw=True, draws=True)
        out[key] = (d, v)
    return out


@pytest.mark.parametrize("key", [("standard", 3, False), ("six", 4, True)])
def test_every_position_agrees_with_the_naive_reference(solved, key, capsys):
    """Value, dtc and dtw of every raw position of every subspace, both phases."""
    import naive_lasker

    d, v = solved[key]
    board, pieces, flying = key
    args = ["--db", str(d), "--pieces", str(pieces), "--board", board] + ([] if flying else ["--no-flying"])
    assert naive_lasker.main(args) == 0
    out = capsys.readouterr().out
    assert "0-0+%d+%d: 1 raw positions, 0 mismatches" % (pieces, pieces) in out
    assert out.count("0 mismatches") == len(hand_subspaces(v)) + (pieces - 2) ** 2 + 1


def test_verify_recomputes_every_file_and_catches_a_wrong_value(solved, tmp_path):
    from morris.format.fileformat import TableFile, check_file, write_table
    from morris.hashing.index import Hasher

    d, v = solved[("six", 4, True)]
    report = verify(str(d))
    hand = [f for f in report.files if "+" in f.subspace]
    assert len(hand) > 100 and all(f.ok and f.checked for f in hand) and report.ok
    db = tmp_path / "db"
    shutil.copytree(d, db)
    path = str(db / v.ruleset_id / "2-2+2+1.mtb")
    with TableFile(path) as tf:
        header = dict(tf.header)
        vals, dtc = tf.values_all().copy(), tf.dtc_all().copy()
    slot = int(np.flatnonzero(vals == 1)[0])
    vals[slot], dtc[slot] = 0, 0  # a won position made a draw
    write_table(path, header, vals, dtc, Hasher(v.board).anchor_reps(2))
    assert check_file(path) is None  # the checksum alone cannot see it
    bad = {os.path.basename(f.path): f for f in verify(str(db)).files if not f.ok}
    assert bad["2-2+2+1.mtb"].mismatches == 1  # the file itself, at that slot
    assert "does not hold" in bad["2-2+2+1.mtw"].checksum  # its dtw file no longer fits it
    # and the files that read it, each saying so (a parent's value rests on the wrong one)
    assert all(f.mismatches or f.skipped or f.checksum != "ok" for f in bad.values())
    # every chunk function run here compiled once per set of array dtypes (kernels/jit.py)
    compiled, problems = chunks.signature_problems()
    assert {"hand._hand_sweep_rows",
            "verify._check_hand_chunk", "verify._check_draws_hand_chunk"} <= compiled
    assert not problems


def test_lookups_of_positions_and_moves(solved):
    """analyze() on random positions of the hand subspaces: each placement and each removal a
    conversion (dtc 1), a slide 1 + its child's dtc, the position's value the best of its
    moves' and its dtw the best winning (or longest losing) move's."""
    from morris.hashing.index import Hasher

    d, v = solved[("six", 4, True)]
    h = Hasher(v.board)
    rng = random.Random(7)
    seen = set()
    checked = 0
    with open_tablebase(d, shipped=False, search="never") as tb:
        subs = [s for s in hand_subspaces(v) if s.m >= 2]
        while checked < 60:
            s = rng.choice(subs)
            mover, opp, used = h.unindex_py(s, rng.randrange(h.slots(s)), h.anchor_reps(s.o))
            if not used:
                continue
            pos = Position.from_masks(v, mover, opp, 0, s.hm, s.ho)
            if pos.outcome() is not None:
                continue
            a = tb.analyze(pos)
            seen.add(a.value)
            checked += 1
            assert a.moves and a.value == a.moves[0].value
            for m in a.moves:
                if m.value == "draw":
                    continue
                if m.move.frm is None or m.move.removes:
                    assert m.dtc == 1, (pos.to_compact(), m)
                else:
                    child = tb.probe(pos.play(m.move))
                    assert m.dtc == child.dtc + 1
            if a.value != "draw":
                dtws = [m.dtw for m in a.moves if m.value == a.value]
                assert a.dtw == (min(dtws) if a.value == "win" else max(m.dtw for m in a.moves))
        assert {"win", "draw"} <= seen  # (a lost side to move is rare among random positions)
    d3, _ = solved[("standard", 3, False)]
    r = CliRunner().invoke(cli, ["query", "--db", str(d3), "--variant", "lasker", "--pieces", "3",
                                 "--no-flying", "start"])
    assert r.exit_code == 0 and ": draw" in r.output.splitlines()[0], r.output


def test_the_plan_gives_time_disk_and_memory():
    r = CliRunner().invoke(cli, ["solve", "--variant", "lasker", "--phase", "all", "--plan", "--out", "x"])
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[0] == "1,830 jobs, 133,466,246,771 positions"
    assert lines[-2].startswith("estimate: about ") and " of files " in lines[-2]
    assert lines[-1].startswith("peak memory: about ") and "8-8+" in lines[-1]
    gb = float(lines[-1].split("about ")[1].split(" GB")[0])
    assert gb < 8 * 2**30 / 1e9  # the budget: every job under 8 GiB
