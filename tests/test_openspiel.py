"""morris.openspiel: OpenSpiel's nine_mens_morris read as the toolkit's games, and the perfect
player as a pyspiel.Bot. Skipped without the optional extra (pip install '.[openspiel]')."""

import os
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install '.[openspiel]'")

from morris import open_tablebase  # noqa: E402
from morris.core import rules  # noqa: E402
from morris.openspiel import actions_of, make_bot, replay, state_of  # noqa: E402

GAME = pyspiel.load_game("nine_mens_morris")


def test_every_state_of_random_games_has_the_toolkits_legal_actions():
    """Random playouts to OpenSpiel's end: at every state its legal actions are exactly the
    first actions of the toolkit's legal turns (or, a mill just closed, their captures); the
    end agrees with the toolkit's rules; the moves give the same state back."""
    states = 0
    for seed in range(12):
        rng = random.Random(seed)
        s = GAME.new_initial_state()
        while not s.is_terminal():
            moves, pos, pending = replay(s.history())
            if pending is None:
                mine = {actions_of(m)[0] for m in pos.legal_moves()}
            else:
                done = len(pending.removes)
                mine = {actions_of(m)[1 + done] for m in pos.legal_moves()
                        if (m.frm, m.to) == (pending.frm, pending.to)}
            assert mine == set(s.legal_actions()), (pos.to_compact(), pending)
            states += 1
            s.apply_action(rng.choice(s.legal_actions()))
        moves, pos, pending = replay(s.history())
        end = rules.terminal(pos.variant, *pos.state)
        if end is not None:  # a win (OpenSpiel's draws are its length cap)
            assert end == "loss" and s.returns()[pos.turn] == -1.0
        assert state_of(moves).history() == s.history()
    assert states > 1000


def test_the_bot_plays_legal_actions_and_completes_its_captures():
    """From the start (the shipped opening book): the bot's actions are legal, and after a
    placement that closes a mill it captures (two actions for one turn)."""
    with open_tablebase(None) as tb:
        bot = make_bot(tb, seed=1)
        s = GAME.new_initial_state()
        for a in (0, 21, 1, 22):  # a7 a1 d7 d1: white to close a7-d7-g7
            s.apply_action(a)
        a = bot.step(s)
        assert a == 2 and a in s.legal_actions()
        s.apply_action(a)
        assert s.current_player() == 0  # the capture is due
        c = bot.step(s)
        assert c in s.legal_actions() and c in (21, 22)
        s.apply_action(c)
        moves, _, pending = replay(s.history())
        assert pending is None and str(moves[-1]).startswith("g7x")


@pytest.mark.slow
def test_two_hundred_random_games_agree_to_their_end():
    """The issue's figure (--runslow; about a minute): scripts/openspiel_agreement.py over 200
    random games, every state's legal actions and every end compared; exit 0 means none differ."""
    from script_module import load

    openspiel_agreement = load("openspiel_agreement")

    assert openspiel_agreement.main(["--games", "200", "--seed", "0"]) == 0
