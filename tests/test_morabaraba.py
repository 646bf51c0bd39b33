"""Morabaraba and Twelve Men's Morris: the board with diagonal lines, 12 pieces, the hand counted
with the board, a full board drawn. The solver against references written apart from it:
tests/naive_standard.py (every raw movement position, numba, no symmetry) and a plain
recursion over the rules (rules.py) through the placement phase."""

import os
import random

import pytest
from click.testing import CliRunner

import naive

from morris import open_tablebase
from morris.cli.main import cli
from morris.core import rules
from morris.core.position import Position
from morris.core.progress import Reporter
from morris.core.variants import MORABARABA_BOARD, STANDARD_BOARD, get_variant
from morris.hashing.index import Hasher
from morris.hashing.subspaces import Subspace, placement_subspaces
from morris.solving.schedule import solve

QUIET = Reporter(quiet=True)


def test_the_board_has_four_diagonal_lines():
    b = MORABARABA_BOARD
    assert (b.n, len(b.edges), len(b.mills)) == (24, 40, 20)
    assert b.points == STANDARD_BOARD.points  # the same points, so the same FEN and tokens
    names = {frozenset(b.names(m)) for m in b.mill_masks}
    for line in (("a7", "b6", "c5"), ("g7", "f6", "e5"), ("a1", "b2", "c3"), ("g1", "f2", "e3")):
        assert frozenset(line) in names
        assert b.adjacency[b.index[line[0]]] >> b.index[line[1]] & 1
        assert not b.adjacency[b.index[line[0]]] >> b.index[line[2]] & 1
    degree = {p: bin(b.adjacency[i]).count("1") for i, p in enumerate(b.points)}
    assert (degree["a1"], degree["b2"], degree["c3"], degree["d2"]) == (3, 4, 3, 4)
    assert sum(degree.values()) == 80
    assert len(b.symmetries) == 16


def test_variants_and_ruleset_names():
    m = get_variant("morabaraba")
    t = get_variant("twelve")
    assert (m.pieces, m.rules.flying, m.rules.count_hand, m.rules.full_board) == (12, True, True, "draw")
    assert (t.pieces, t.rules.flying, t.board) == (12, False, MORABARABA_BOARD)
    assert m.ruleset_id == "morabaraba-hand" and t.ruleset_id == "morabaraba-nofly-hand"
    assert get_variant("morabaraba", full_board="loss").ruleset_id == "morabaraba-hand-fullloss"
    assert get_variant("standard").ruleset_id == "standard"  # the standard game's files stay put


def test_the_hand_counts_and_a_full_board_draws():
    v = get_variant("morabaraba")
    b = v.board
    # White: 1 on the board and 1 in hand (fewer than 3): lost, in placement too
    assert rules.terminal(v, b.mask(["a1"]), b.mask(["a7", "d7"]), 1, 2) == rules.LOSS
    assert rules.terminal(get_variant("standard"), b.mask(["a1"]), b.mask(["a7", "d7"]), 1, 2) is None
    # 2 on the board and 1 in hand: 3 together, the game goes on
    assert rules.terminal(v, b.mask(["a1", "g1"]), b.mask(["a7", "d7"]), 1, 2) is None
    full = list(b.points)
    white, black = b.mask(full[::2]), b.mask(full[1::2])
    assert rules.terminal(v, white, black, 0, 0) == rules.DRAW
    assert rules.terminal(get_variant("morabaraba", full_board="loss"), white, black, 0, 0) == rules.LOSS


def test_a_diagonal_move_is_refused_on_the_standard_board():
    from morris.core.errors import IllegalMoveError

    pos = Position.parse("a1,d7,g7,e4/b4,d5,f4,c4 w")
    with pytest.raises(IllegalMoveError, match="the standard board has no diagonal lines"):
        pos.play("a1-b2")
    after = Position.parse("a1,d7,g7,e4/b4,d5,f4,c4 w", "morabaraba").play("a1-b2")
    assert after.to_compact().startswith("b2,")
    # the engine says it in one line and goes on
    fen = pos.to_fen()
    r = CliRunner().invoke(cli, ["engine"], input=f"position fen {fen} moves a1-b2\nisready\nquit\n")
    assert "no diagonal lines" in r.output and "readyok" in r.output and "Traceback" not in r.output


@pytest.fixture(scope="session")  # (session: see conftest.SHARED_FIXTURES)
def mora3(tmp_path_factory):
    """Morabaraba with 3 pieces a side, both phases, values, dtw and draw values, per flying rule."""
    out = {}
    for fly in (True, False):
        d = tmp_path_factory.mktemp(f"mora3-{fly}")
        solve(d, get_variant("morabaraba", pieces=3, flying=fly), phase="all", reporter=QUIET,
              dtw=True, draws=True)
        out[fly] = d
    return out


@pytest.mark.parametrize("flying", [False])  # (flying: 2.7 M raw positions, 20 s more; the
# script checks it with 4 a side, 78 M raw positions, 0 mismatches: docs/benchmarks.md)
def test_movement_agrees_with_the_raw_reference(mora3, flying, capsys):
    import naive_standard

    args = ["--db", str(mora3[flying]), "--variant", "morabaraba", "--pieces", "3"]
    assert naive_standard.main(args + (["--flying"] if flying else [])) == 0
    assert "3-3: 2,691,920 raw positions, 0 mismatches" in capsys.readouterr().out


@pytest.mark.parametrize("flying", [True, False])
def test_placement_agrees_with_plain_recursion(mora3, flying):
    """Random positions of every placement subspace with up to 3 pieces left in hand (the
    hand counted: 2 on the board and 1 in hand is 3, 1 and 1 a lost game): value, dtc and dtw
    against a recursion over rules.py."""
    v = get_variant("morabaraba", pieces=3, flying=flying)
    h = Hasher(v.board)
    rng = random.Random(5)
    memo = {}
    checked = 0
    with open_tablebase(mora3[flying], shipped=False, search="never") as tb:
        def movement(mover, opp):
            p = Position.from_masks(v, mover, opp, 0)
            r = tb.probe(p)
            return (r.value, (r.dtc, tb.probe_dtw(p)))

        def check(pos):
            state = (pos.mover, pos.opponent, pos.mover_hand, pos.opponent_hand)
            want = naive.placement_recursion(v, state, movement, memo, naive.dtc_dtw_of_moves)
            r = tb.probe(pos)
            assert (r.value, (r.dtc, tb.probe_dtw(pos))) == want, pos.to_compact()

        for s in placement_subspaces(v):
            if s.hm + s.ho > 3:
                continue
            found = 0
            while found < 15:
                mover, opp, used = h.unindex_py(s, rng.randrange(h.slots(s)), h.anchor_reps(s.o))
                if used:
                    check(Position.from_masks(v, mover, opp, 0, s.hm, s.ho))
                    found += 1
            checked += found
    assert checked >= 45


@pytest.mark.parametrize("full_board", ["draw", "loss"])
def test_a_full_board_is_solved_and_verified_under_either_rule(tmp_path, full_board):
    """Six Men's Morris with 8 a side fills its 16 points: the last placement leads into the
    full board, a draw (or, with --full-board loss, a loss for the blocked side to move), and
    verify recomputes both phases (kernels/verify.py, apart from the solver) to agree."""
    v = get_variant("six", pieces=8, full_board=full_board)
    solve(tmp_path, v, targets=[Subspace(7, 8, 1, 0)], phase="placement", reporter=QUIET,
          dtw=True, draws=True)
    full = Position.parse("d7,a1,g1,d2,b2,f6,b6,a4/g7,a7,d1,b4,f4,d6,f2,g4 w", v)
    last = Position.parse("d7,a1,g1,d2,b2,f6,b6,a4/g7,a7,d1,b4,f4,d6,f2 b 0 1", v)
    with open_tablebase(tmp_path, shipped=False, search="never") as tb:
        assert tb.probe(full).value == full_board
        assert tb.probe(last).value == {"draw": "draw", "loss": "win"}[full_board]
    r = CliRunner().invoke(cli, ["verify", "--db", str(tmp_path), "--quiet"])
    assert r.exit_code == 0, r.output
    assert "FAIL" not in r.output and "8-8.mtb" in r.output


def test_the_text_board_draws_the_diagonals():
    text = Position.parse("a1,b2,c3/g7,f6 w", "morabaraba").diagram().splitlines()
    assert text[1] == "  | \\         |         / |"  # a7-b6 and g7-f6
    assert text[11] == "  | /         |         \\ |"  # a1-b2 and g1-f2
    plain = Position.parse("a1,b2,c3/g7,f6 w").diagram()
    assert "/" not in plain and "\\" not in plain


@pytest.mark.parametrize("flying", [True, False])
def test_the_placement_search_counts_the_hand(mora3, flying):
    """The placement search (alpha-beta over placement on the movement files, the second method
    of verify-draw) under the hand-counting rules: every placement position of the first two
    plies and random deeper ones valued as the sweep's files value them, and verify-draw's two
    methods agree on the start."""
    from morris.lookups.search import PlacementSearch

    v = get_variant("morabaraba", pieces=3, flying=flying)
    search = PlacementSearch(mora3[flying], v, tt_bits=16)
    h = Hasher(v.board)
    rng = random.Random(11)
    names = {1: "win", 0: "draw", -1: "loss"}
    positions = [Position.start(v)] + [Position.start(v).play(m) for m in Position.start(v).legal_moves()]
    for s in placement_subspaces(v):
        for _ in range(6):
            mover, opp, used = h.unindex_py(s, rng.randrange(h.slots(s)), h.anchor_reps(s.o))
            if used:
                positions.append(Position.from_masks(v, mover, opp, 0, s.hm, s.ho))
    with open_tablebase(mora3[flying], shipped=False, search="never") as tb:
        for pos in positions:
            assert names[search.value(pos)] == tb.probe(pos).value, pos.to_compact()
    flags = ["--db", str(mora3[flying]), "--variant", "morabaraba", "--pieces", "3", "--json"]
    flags += [] if flying else ["--no-flying"]
    import json

    by = {m: json.loads(CliRunner().invoke(cli, ["verify-draw", *flags, "--method", m]).output)
          for m in ("search", "sweep")}
    assert by["search"]["value"] == by["sweep"]["value"] and by["search"]["method"] == "search"


def test_the_placement_search_ends_the_game_when_a_removal_leaves_fewer_than_three(mora3):
    """Under the hand-counting rules a side with fewer than 3 pieces on the board and in hand
    together has lost at once, also when the placement that removes is the mover's last: the
    search stops at the first child (the mill on g1 comes first) instead of playing on."""
    from morris.lookups.search import PlacementSearch

    v = get_variant("morabaraba", pieces=3, flying=True)
    search = PlacementSearch(mora3[True], v, tt_bits=16)
    board = Position.parse("a1,d1/a7,d7 w", v)
    pos = Position.from_masks(v, board.mover, board.opponent, 0, 1, 1)
    n0 = search.nodes
    assert search.value(pos) == 1
    assert search.nodes - n0 == 1
