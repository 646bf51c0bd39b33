"""Legal moves and game end against RULES.md, and the numba generator against the reference."""

import numpy as np
import pytest

from morris.core import rules
from morris.core.errors import IllegalMoveError
from morris.core.game import Game
from morris.hashing.index import board_tables
from morris.hashing.perft import perft
from morris.core.position import Position
from morris.core.variants import get_variant


def tokens(pos):
    return [str(m) for m in pos.legal_moves()]


def test_seed_worked_example_g1_removes_d2():
    # seed 000: white on a1 and d1 places on g1, closes a1-d1-g1 and must remove d2
    pos = Position.parse("a1,d1/d2 w 7 8")
    ts = tokens(pos)
    assert "g1xd2" in ts and "g1" not in ts
    assert len(ts) == 21
    after = pos.play("g1xd2")
    assert after.to_compact() == "a1,d1,g1/ b 6 8"
    with pytest.raises(IllegalMoveError, match="closes a mill and must remove 1"):
        pos.play("g1")


def test_removal_must_take_a_piece_outside_mills_when_one_exists():
    # black mill a7-d7-g7 and a lone black piece on b2: only b2 may go
    pos = Position.parse("a1,d1,c3/a7,d7,g7,b2 w 6 5")
    assert [t for t in tokens(pos) if t.startswith("g1")] == ["g1xb2"]
    with pytest.raises(IllegalMoveError, match="stands in a mill"):
        pos.play("g1xa7")
    # when every black piece is in a mill, any may go
    pos2 = Position.parse("a1,d1,c3/a7,d7,g7 w 6 6")
    assert sorted(t for t in tokens(pos2) if t.startswith("g1")) == ["g1xa7", "g1xd7", "g1xg7"]


def test_double_mill_removes_one_or_two():
    # g1 closes a1-d1-g1 and g1-g4-g7 at once
    text = "a1,d1,g4,g7/b2,d6,f6,c5 w 5 5"
    one = Position.parse(text)
    two = Position.parse(text, get_variant("standard", double_mill_removes=2))
    g1_one = [t for t in tokens(one) if t.startswith("g1")]
    g1_two = [t for t in tokens(two) if t.startswith("g1")]
    assert sorted(g1_one) == ["g1xb2", "g1xc5", "g1xd6", "g1xf6"]
    assert len(g1_two) == 6  # every pair of the four black pieces
    assert all(t.count("x") == 2 for t in g1_two)
    after = two.play(g1_two[0])
    assert after.count(1) == 2


def test_flying_only_with_exactly_three_after_placement():
    three = Position.parse("a1,d1,g4/a7,d7,b6,f6 w")
    # a1 may fly to any empty point
    assert "a1-e4" in tokens(three)
    four = Position.parse("a1,d1,g4,b2/a7,d7,b6,f6 w")
    assert "a1-e4" not in tokens(four)
    assert all(
        m.frm is None or four.board.adjacency[four.board.index[m.frm]] >> four.board.index[m.to] & 1
        for m in four.legal_moves()
    )
    nofly = Position.parse("a1,d1,g4/a7,d7,b6,f6 w", get_variant("standard", flying=False))
    assert "a1-e4" not in tokens(nofly)
    # with pieces in hand a player never flies (placement: only placements)
    placing = Position.parse("a1,d1,g4/a7,d7,b6 w 1 1")
    assert all(m.frm is None for m in placing.legal_moves())


def test_game_end_fewer_than_three_and_blocked():
    assert Position.parse("a1,d1/a7,d7,g7 w").outcome() == "loss"
    assert Position.parse("a1,d1,g1/a7,d7 w").outcome() == "win"
    # white a1, d1, g1, d2 hemmed in by black on a4, g4, b2, f2, d3
    blocked = Position.parse("a1,d1,g1,d2/a4,g4,b2,f2,d3 w")
    assert not rules.turns(blocked.variant, blocked.mover, blocked.opponent, 0, 0)
    assert blocked.outcome() == "loss"
    assert blocked.legal_moves() == []
    # a placement with pieces in hand never ends the game on piece count
    assert Position.parse("a1/d2,d6 w 2 1").outcome() is None


def test_threefold_repetition_and_no_removal_limit():
    g = Game(Position.parse("a1,d1,g4,b2/a7,d7,b6,f6 w"))
    for _ in range(2):
        assert g.result is None
        g.push_tokens(["b2-b4", "a7-a4", "b4-b2", "a4-a7"])
    assert g.result == "1/2-1/2" and g.reason == "threefold repetition"
    limited = Game(Position.parse("a1,d1,g4,b2/a7,d7,b6,f6 w", get_variant("standard", no_removal_limit=3)))
    limited.push_tokens(["b2-b4", "a7-a4", "b4-b2"])
    assert limited.result == "1/2-1/2" and "3 plies without a removal" in limited.reason


def test_lone_removal_tokens_are_glued():
    g = Game(Position.parse("a1,d1/d2 w 7 8"))
    g.push_tokens(["g1", "xd2"])
    assert str(g.moves[-1]) == "g1xd2"
    with pytest.raises(IllegalMoveError, match="follows no move"):
        Game(Position.start()).push_tokens(["xd2"])


@pytest.mark.parametrize("depth, expected", [(1, 24), (2, 552), (3, 12144), (4, 255024)])
def test_perft_start_reference(depth, expected):
    start = Position.start()
    assert perft(start, depth, python=True) == expected
    assert perft(start, depth) == expected


def test_perft_python_and_numba_agree_on_varied_positions():
    cases = [
        ("start", "six", 4),
        ("a1,d1,g1,b2/a7,d7,g7 w", "standard", 3),
        ("a1,d1,g4,g7/b2,d6,f6,c5 w 5 5", "standard", 3),
        ("a1,d1,g4,g7/b2,d6,f6,c5 w 5 5", get_variant("standard", double_mill_removes=2), 3),
        ("a1,d1,g4/a7,d7,b6,f6,c3 b", get_variant("standard", flying=False), 4),
        ("b2,d2,f2/b6,d6 w 3 4", "six", 4),
    ]
    for text, var, depth in cases:
        v = get_variant(var) if isinstance(var, str) else var
        pos = Position.start(v) if text == "start" else Position.parse(text, v)
        assert perft(pos, depth, python=True) == perft(pos, depth), (text, depth)


def random_positions(variant, count, seed):
    """Random legal positions reached by random play from the start (both phases)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        pos = Position.start(variant)
        for _ in range(int(rng.integers(0, 60))):
            ms = pos.legal_moves()
            if not ms:
                break
            pos = pos.play(ms[int(rng.integers(len(ms)))])
        out.append(pos)
    return out


@pytest.mark.parametrize("var", ["standard", "six", "standard-4"])
def test_numba_turns_match_python_turns(var):
    from morris.hashing.games import game_of
    from morris.kernels.bitboard import turns_of_states

    for dm in (1, 2):
        v = get_variant(var, double_mill_removes=dm)
        positions = random_positions(v, 150, seed=dm)
        states = np.array([[p.mover, p.opponent, p.mover_hand, p.opponent_hand] for p in positions], dtype=np.int64)
        out = np.empty((len(positions) * 1024, 3), dtype=np.int64)
        start = np.empty(len(positions) + 1, dtype=np.int64)
        turns_of_states(board_tables(v.board), game_of(v).args, states, out, start)
        for i, p in enumerate(positions):
            fast = sorted(tuple(int(x) for x in row) for row in out[start[i]:start[i + 1]])
            ref = sorted(p.legal_turns())
            assert fast == ref, p


@pytest.mark.parametrize("var", ["standard", "six", "morabaraba"])
def test_the_sweeps_split_placements_are_the_python_turns(var):
    """turns.mill_placements (the placements that close a mill, each with its removals) and one
    quiet placement on every other empty point: the placement turns of rules.py, for random
    placement positions (both removal rules; positions whose placements close mills included)."""
    from morris.kernels.bitboard import MAX_TURNS, closed_mills
    from morris.kernels.turns import mill_placements, mill_points

    rows = np.empty((MAX_TURNS, 3), dtype=np.int64)
    closers = 0
    for dm in (1, 2):
        v = get_variant(var, double_mill_removes=dm)
        T = board_tables(v.board)
        for p in random_positions(v, 120, seed=10 + dm):
            if p.mover_hand == 0:
                continue
            M, O = p.mover, p.opponent
            free = T.full & ~M
            closed = np.array([closed_mills(T, M | (1 << q), q) if free >> q & 1 else 0
                               for q in range(v.board.n)], dtype=np.int64)
            mills = mill_points(free, closed)
            n = mill_placements(T, dm, O, mills & ~O, closed, rows)
            got = [tuple(int(x) for x in r) for r in rows[:n]]
            got += [(-1, q, 0) for q in range(v.board.n) if (free & ~(O | mills)) >> q & 1]
            assert sorted(got) == sorted(p.legal_turns()), p
            closers += n > 0
    assert closers > 10  # (positions with a placement that closes a mill were met)


@pytest.mark.parametrize("var", ["standard", "six", "morabaraba", "lasker"])
def test_the_solvers_slides_are_the_python_turns(var):
    """turns.movement_children and every_child (the count passes' moves: counted by popcounts,
    the mill-closing ones found from the points that complete a mill) against rules.py's turns
    of random movement positions, flying or not: the moves, the quiet ones, every removal's
    child slot (or END) and every quiet move's child slot, as multisets."""
    from morris.hashing.index import Hasher
    from morris.kernels.turns import END, every_child, kid_buffer, movement_children

    checked = closers = 0
    for flying in (True, False):
        v = get_variant(var, flying=flying)
        h = Hasher(v.board)
        T = h.tables
        for p in random_positions(v, 150, seed=30 + flying):
            if p.mover_hand or p.opponent_hand or not p.legal_turns():
                continue
            M, O = p.mover, p.opponent
            m, o = M.bit_count(), O.bit_count()
            Ob = h.orbits([m])
            kids, kids2, quiet_kids = kid_buffer(), kid_buffer(), kid_buffer()
            moves, quiet, nk = movement_children(T, Ob, flying, m, o, M, O, kids)
            assert (moves, quiet, nk) == every_child(T, Ob, flying, m, o, M, O, kids2, quiet_kids)
            turns = p.legal_turns()
            assert moves == len({(f, t) for f, t, _ in turns}), p
            assert quiet == sum(r == 0 for _, _, r in turns), p
            want, want_quiet, ending = [], [], set()
            for f, t, r in turns:
                M2 = M ^ (1 << f) | (1 << t)
                if r == 0:
                    want_quiet.append(h.index_py(O, M2))
                elif o - 1 < 3:
                    ending.add((f, t))  # (one END a move, whatever it removes)
                else:
                    want.append(h.index_py(O ^ r, M2))
            want += [END] * len(ending)
            assert sorted(kids[:nk].tolist()) == sorted(want), p
            assert sorted(kids2[:nk].tolist()) == sorted(want), p
            assert sorted(quiet_kids[:quiet].tolist()) == sorted(want_quiet), p
            checked += 1
            closers += nk > 0
    assert checked > 100 and closers > 10
