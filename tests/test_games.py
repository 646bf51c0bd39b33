"""The game as one unit (hashing/games.py): its kernel arguments, its subspace graph checked
against the pure-Python move generator, and the layers above asking it instead of reading rule
flags."""

import os
import re

import numpy as np
import pytest

from morris.core.position import Position
from morris.core.variants import LOSE_BELOW, VARIANTS, get_variant
from morris.hashing.games import KernelRules, game_of
from morris.hashing.subspaces import Subspace, check_movement, check_placement

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _subspace(pos: Position) -> Subspace:
    return Subspace(bin(pos.mover).count("1"), bin(pos.opponent).count("1"), pos.mover_hand,
                    pos.opponent_hand)


def _over_by_count(variant, sub: Subspace) -> bool:
    """The naive statement of when the piece counts alone end the game (no file is read there):
    fewer than 3 on the board and in hand where the hand counts, else fewer than 3 on the board
    once both hands are empty."""
    if variant.rules.count_hand:
        return min(sub.m + sub.hm, sub.o + sub.ho) < LOSE_BELOW
    return not sub.placement and min(sub.m, sub.o) < LOSE_BELOW


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_kernel_rules_are_the_rules(name):
    v = get_variant(name)
    g = game_of(v)
    assert isinstance(g.args, KernelRules)
    assert g.args == (v.rules.flying, v.rules.double_mill_removes, v.rules.count_hand,
                      v.rules.place_or_move, v.full_board_draws)
    assert [type(x) for x in g.args] == [bool, int, bool, bool, bool]  # one kernel compile
    assert game_of(get_variant(name)) is g  # made once per game
    assert g.hand_pairs == v.rules.place_or_move
    assert ("placement" in g.job_kinds) != g.hand_pairs
    assert ("hand pair values" in g.job_kinds) == g.hand_pairs


def test_rule_options_make_their_own_game():
    plain, two = get_variant("six"), get_variant("six", double_mill_removes=2)
    assert game_of(plain).args.dm == 1 and game_of(two).args.dm == 2
    assert game_of(plain) is not game_of(two)


@pytest.mark.parametrize("name,pieces", [("standard", 5), ("six", None), ("morabaraba", 5),
                                         ("lasker", 5), ("six-hand", None)])
def test_inputs_hold_every_child_the_moves_reach(name, pieces):
    """Every subspace a legal turn leads to (outside the job's own subspaces, the game not over
    by the counts) is one of ``inputs`` of the job holding the position; and every input is a
    subspace of the game."""
    v = get_variant(name, pieces=pieces) if pieces else get_variant(name)
    g = game_of(v)
    rng = np.random.default_rng(7)
    seen = 0
    for _ in range(60):
        pos = Position.start(v)
        for _ in range(int(rng.integers(0, 50))):
            if pos.outcome() is not None:
                break
            sub = _subspace(pos)
            inputs = g.inputs(sub)
            own = set(sub.pair) if (not sub.placement or g.hand_pairs) else {sub}
            for turn in pos.legal_turns():
                child = pos.play_turn(turn)
                c = _subspace(child)
                if c in own or _over_by_count(v, c):
                    continue
                assert c in inputs, (name, sub, str(pos.move_of_turn(turn)), c, inputs)
                seen += 1
            for c in inputs:
                (check_placement if c.placement else check_movement)(v, c)
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(moves[int(rng.integers(len(moves)))])
    assert seen > 100


def test_pair_inputs_are_listed_once_in_the_parts_order():
    g = game_of(get_variant("lasker"))
    top = Subspace(5, 4, 2, 3)
    ins = g.pair_inputs(top)
    assert len(ins) == len(set(ins))
    first = [c for c in g.children(top.pair[0]) if c is not None]
    assert ins[: len(set(first))] == list(dict.fromkeys(first))


def test_limit_and_flying_from_the_game():
    v = get_variant("standard", no_removal_limit=50)
    g = game_of(v)
    assert g.limit(Subspace(5, 4)) == 50 and g.limit(Subspace(5, 4, 1, 2)) is None
    assert g.mover_flies(Subspace(3, 5)) and not g.mover_flies(Subspace(5, 3))
    assert g.opponent_flies(Subspace(5, 3)) and not g.opponent_flies(Subspace(3, 5))
    assert not game_of(get_variant("six")).mover_flies(Subspace(3, 3))


#: the layers that ask the game (issue 74): they read no rule flag themselves
ASKING = ("solver/solving", "solver/lookups", "solver/apps", "solver/database", "cli")
FLAG = re.compile(r"\brules\.(flying|double_mill_removes|count_hand|place_or_move|limit_of)\b")


def test_the_layers_above_ask_the_game():
    found = []
    for folder in ASKING:
        for d, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                if f.endswith(".py"):
                    path = os.path.join(d, f)
                    for i, line in enumerate(open(path, encoding="utf-8"), 1):
                        if FLAG.search(line):
                            found.append(f"{os.path.relpath(path, ROOT)}:{i}: {line.strip()}")
    assert not found, "\n".join(found)


def test_solver_kernels_take_the_rules_as_one_argument():
    """The kernels the solver's drivers call take the game's KernelRules (``R``) right after
    the board's tables, no rule flag beside it."""
    import inspect

    from morris.kernels import alphabeta, bitboard, draws, dtw, hand, placement, retro, search

    entries = [retro.count_pass, dtw.count_dtw, dtw.won_dtw, draws.count_draws,
               hand.count_hand_sweep, hand.count_hand_dtw, hand.count_hand_draws,
               placement.placement_sweep, search.search, alphabeta.negamax, bitboard.perft,
               bitboard.perft_parallel, bitboard.turns_of_states]
    for fn in entries:
        py = getattr(fn, "py_func", fn)
        params = list(inspect.signature(py).parameters)
        assert "R" in params[:3], (py.__name__, params)
        assert not {"flying", "dm", "pm", "hand", "count_hand", "full_draw"} & set(params), \
            (py.__name__, params)
