"""The perfect player: converts wins in exactly dtc, never loses a draw, says when it cannot play."""

import os

import numpy as np
import pytest

from morris.apps.bot import PerfectPlayer
from morris.core.errors import OutsideDatabaseError
from morris.hashing.index import Hasher
from morris.hashing.subspaces import Subspace
from morris.core.game import Game
from morris.core.position import Position
from morris.lookups.tablebase import open_tablebase
from morris.core.variants import get_variant

SUBSPACES = {
    "standard": [Subspace(3, 3), Subspace(4, 3), Subspace(3, 4), Subspace(4, 4)],
    "six": [Subspace(3, 3), Subspace(4, 3), Subspace(4, 4), Subspace(5, 4), Subspace(5, 5), Subspace(6, 5)],
}


def sample(tb, value, count, seed):
    """Random positions of the solved subspaces with the given value for the side to move."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        name = ["standard", "six"][int(rng.integers(2))]
        v = get_variant(name)
        sub = SUBSPACES[name][int(rng.integers(len(SUBSPACES[name])))]
        h = Hasher(v.board)
        movers, opps, used = h.unindex_batch(sub, rng.integers(0, h.slots(sub), 64))
        for m, o, u in zip(movers, opps, used):
            if not u or len(out) >= count:
                continue
            pos = Position.from_mover(v, int(rng.integers(2)), int(m), int(o))
            if pos.outcome() is None and tb.probe_wdl(pos) == value:
                out.append(pos)
    return out


def test_bot_converts_every_win_in_exactly_dtc(solved):
    with open_tablebase(solved) as tb:
        bot = PerfectPlayer(tb, seed=1)
        for pos in sample(tb, "win", 1000, seed=2):
            dtc = tb.probe(pos).dtc
            game = Game(pos)
            first_conversion = None
            while game.result is None and len(game.moves) < 500:
                game.push(bot.choose(game.position).move)
                if first_conversion is None and (game.moves[-1].removes or game.result):
                    first_conversion = len(game.moves)
            assert first_conversion == dtc, pos
            winner = "1-0" if pos.turn == 0 else "0-1"
            assert game.result == winner, (pos, game.result, game.reason)


def random_mover(rng):
    def move(pos):
        ms = pos.legal_moves()
        return ms[int(rng.integers(len(ms)))]
    return move


def greedy_mover(rng):
    """One ply deep: take a piece when possible, else any move."""
    def move(pos):
        ms = pos.legal_moves()
        removing = [m for m in ms if m.removes]
        pool = removing or ms
        return pool[int(rng.integers(len(pool)))]
    return move


@pytest.mark.parametrize("opponent", [random_mover, greedy_mover])
def test_bot_never_loses_a_drawn_position(solved, opponent):
    rng = np.random.default_rng(4)
    other = opponent(rng)
    with open_tablebase(solved) as tb:
        bot = PerfectPlayer(tb, seed=3)
        positions = sample(tb, "draw", 250, seed=5 if opponent is random_mover else 6)
        for pos in positions:
            game = Game(pos)
            me = pos.turn
            while game.result is None and len(game.moves) < 80:
                p = game.position
                game.push(bot.choose(p).move if p.turn == me else other(p))
            lost = "0-1" if me == 0 else "1-0"
            assert game.result != lost, (pos, game.moves)
            # the bot's side is never worse than a draw after its own moves
            assert tb.probe_wdl(game.position) != ("loss" if game.position.turn == me else "win")


def test_bot_prefers_a_move_that_ends_the_game(solved):
    with open_tablebase(solved) as tb:
        pos = Position.parse("a1,d1,g4/a7,d7,g7 w")  # g4-g1 closes a1-d1-g1: black is left two
        choice = PerfectPlayer(tb, seed=0).choose(pos)
        assert choice.move.removes and choice.value == "win" and choice.dtc == 1
        assert pos.play(choice.move).outcome() is not None


def test_same_seed_same_choices(solved):
    with open_tablebase(solved) as tb:
        positions = sample(tb, "draw", 30, seed=8)
        a = [str(PerfectPlayer(tb, seed=11).choose(p).move) for p in positions]
        b = [str(PerfectPlayer(tb, seed=11).choose(p).move) for p in positions]
        assert a == b


def test_outside_the_databases_it_says_so(solved):
    with open_tablebase(solved) as tb:
        with pytest.raises(OutsideDatabaseError, match="outside the databases"):
            PerfectPlayer(tb).choose(Position.parse("a1,d1,g1,b2,b4/a7,d7,g7 w"))
        assert PerfectPlayer(tb).choose(Position.parse("a1,d1/a7,d7,g7 w")) is None


def test_search_fallback_plays_placement_without_databases(placed, tmp_path):
    """With only the movement files, the player values standard-3 placement by search (by
    itself: the tablebase falls back on it); its choices agree with the placement databases,
    and self-play keeps the start's value. Without search it refuses."""
    import shutil

    (tmp_path / "standard").mkdir()
    shutil.copy(os.path.join(placed, "standard", "3-3.mtb"), tmp_path / "standard")
    v = get_variant("standard-3")
    start = Position.start(v)
    with open_tablebase(placed) as full, open_tablebase(tmp_path, shipped=False) as movement_only, \
            open_tablebase(tmp_path, shipped=False, search="never") as no_search:
        truth = full.probe_wdl(start)
        bot = PerfectPlayer(movement_only, seed=2)
        with pytest.raises(OutsideDatabaseError):
            PerfectPlayer(no_search).choose(start)
        a = movement_only.analyze(start)
        assert a.source == "search" and a.missing == "0-0+3+3" and a.search_seconds > 0
        assert a.value == truth and all(m.dtc is None for m in a.moves if m.value != "draw")
        game = Game(start)
        while game.result is None and len(game.moves) < 60:
            pos = game.position
            choice = bot.choose(pos)
            assert choice.value == full.probe_wdl(pos), pos
            game.push(choice.move)
        expected = {"win": "1-0", "loss": "0-1", "draw": "1/2-1/2"}[truth]
        # a won start is converted within the 60 moves; a drawn one never ends in a win
        assert game.result == expected if game.result is not None else truth == "draw"
