"""Fallible opponents and matches: the searcher against a plain minimax, the epsilon player,
the perfect player against them, the commands."""

import json
import math
import random

import pytest
from click.testing import CliRunner

from morris.core import rules
from morris.cli.main import cli
from morris.apps.players import EpsilonPlayer, SearchPlayer, make_player, play_match
from morris.core.position import Position
from morris.lookups.tablebase import open_tablebase
from morris.core.variants import get_variant

SIX = get_variant("six")


def plain_minimax(player, state, depth):
    """The searcher's score without pruning: every move to ``depth``, the same evaluation."""
    ts = rules.turns(SIX, *state)
    end = rules.terminal(SIX, *state, any_turn=bool(ts))
    if end is not None:
        return {rules.WIN: 100_000 + depth, rules.LOSS: -100_000 - depth, rules.DRAW: 0}[end]
    if depth == 0:
        return player.evaluate(state)
    best = -math.inf
    for t in ts:
        child, switched = rules.child(*state, t)
        s = plain_minimax(player, child, depth - 1)
        best = max(best, -s if switched else s)
    return best


def random_positions(n, seed, variant=SIX, plies=30):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = Position.start(variant)
        for _ in range(rng.randrange(4, plies)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
        if pos.outcome() is None:
            out.append(pos)
    return out


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_alpha_beta_scores_every_move_as_plain_minimax(depth):
    player = SearchPlayer(SIX, depth)
    for pos in random_positions(6 if depth == 3 else 15, depth):
        for score, move in player.scores(pos):
            child, switched = rules.child(*pos.state, pos.turn_of_move(move))
            want = plain_minimax(player, child, depth - 1)
            assert score == (-want if switched else want), (pos.to_compact(), str(move))


@pytest.mark.parametrize("variant", [get_variant("standard"), get_variant("standard", double_mill_removes=2),
                                     get_variant("six", flying=True)], ids=lambda v: v.ruleset_id)
def test_the_compiled_search_scores_as_the_python_one(variant):
    """kernels/alphabeta.py against SearchPlayer's pure-Python negamax, placement and movement."""
    fast, slow = SearchPlayer(variant, 3), SearchPlayer(variant, 3, python=True)
    for pos in random_positions(8, 7, variant, plies=60):
        assert sorted(fast.scores(pos), key=str) == sorted(slow.scores(pos), key=str), pos.to_compact()


def test_the_epsilon_player_keeps_the_value_at_0_and_plays_anything_at_1():
    with open_tablebase(None) as tb:
        for pos in random_positions(40, 7):
            a = tb.analyze(pos)
            best = {m.move for m in a.moves if m.value == a.moves[0].value}
            assert EpsilonPlayer(tb, 0.0, seed=1).choose(pos) in best
        pos = Position.parse("a1,d1/b2 w 4 5", SIX)
        seen = {EpsilonPlayer(tb, 1.0, seed=s).choose(pos) for s in range(400)}
        assert seen == set(pos.legal_moves())  # every legal move, bad ones too


def test_the_perfect_player_never_loses_a_match():
    start = Position.start(SIX)
    with open_tablebase(None) as tb:
        for spec in ("random", "epsilon:0.2", "search:2"):
            r = play_match(lambda s: make_player("perfect", tb, SIX, s),
                           lambda s: make_player(spec, tb, SIX, s), 12, start)
            assert r.games == 12 and r.losses == 0, (spec, r)
            if spec == "random":
                assert r.wins == 12
            mean, lo, hi = r.score_interval()
            assert lo <= mean <= hi and mean >= 0.5


def test_match_command_and_its_refusals():
    r = CliRunner().invoke(cli, ["match", "--variant", "six", "--b", "random", "--games", "6", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["games"] == 6 and obj["wins"] + obj["draws"] + obj["losses"] == 6 and obj["losses"] == 0
    for bad in ("epsilon:2", "epsilon:x", "search:0", "search:٣", "magic"):
        r = CliRunner().invoke(cli, ["match", "--variant", "six", "--b", bad, "--games", "2"])
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output


def test_the_engine_plays_at_a_chosen_strength():
    import io

    from morris.apps.engine import Engine

    out = io.StringIO()
    e = Engine(None, SIX, out)
    for line in ["setoption name Strength value search:1", "position startpos", "go",
                 "setoption name Strength value nonsense"]:
        e.handle(line)
    lines = [x for x in out.getvalue().splitlines() if not x.startswith("info depth")]
    assert lines[0] == "info string search:1 player; full turn " + lines[1].split()[1]
    assert lines[1].split()[1] in {str(m) for m in Position.start(SIX).legal_moves()}
    assert lines[-1].startswith("info string error UsageError: unknown player")


def test_the_match_table_script_plays_each_cell_once_and_resumes(tmp_path, capsys, monkeypatch):
    """bench/match_table.py: one `morris match` per cell, each result a JSON line; a second
    run plays nothing and prints the same table."""
    import os
    import sys

    from script_module import load

    match_table = load("match_table")

    results = tmp_path / "m.jsonl"
    (tmp_path / "db").mkdir()  # nothing there: the shipped Six databases answer
    args = ["match_table.py", "--db", str(tmp_path / "db"), "--variant", "six", "--games", "2",
            "--bots", "perfect,epsilon:0", "--opponents", "epsilon:0.5", "--results", str(results)]
    monkeypatch.setattr(sys, "argv", args)
    match_table.main()
    first = capsys.readouterr().out
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["a"] for r in rows) == ["epsilon:0", "perfect"]
    assert all(r["wins"] + r["draws"] + r["losses"] == 2 and r["b"] == "epsilon:0.5" for r in rows)
    assert all(r["command"].startswith("morris match --db") for r in rows)
    match_table.main()
    second = capsys.readouterr().out
    assert "2 cells done, 0 to play" in second
    assert first.splitlines()[-3:] == second.splitlines()[-3:]  # the same table


PLAYERS = ["random", "epsilon:0.5", "epsilon:0", "search:1", "search:2", "perfect", "perfect:replies"]


def _head(move):
    return str(move.to) if move.frm is None else f"{move.frm}-{move.to}"


def _pending_games(n, seed):
    """Action lists (the engine's tokens) of random Six games that end with a move closing a
    mill, its removal still to choose: the state in which weaker players answered illegal moves."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos, tokens = Position.start(SIX), []
        for _ in range(rng.randrange(2, 40)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            closing = [m for m in moves if m.removes]
            if closing and rng.random() < 0.3:
                out.append(tokens + [_head(rng.choice(closing))])
                break
            m = rng.choice(moves)
            tokens += [_head(m)] + [f"x{r}" for r in m.removes]
            pos = pos.play(m)
    return out


@pytest.mark.parametrize("spec", PLAYERS)
def test_every_player_answers_only_legal_moves(spec, placed):
    """Random positions of both phases: every player's choice is one of the legal moves; and in
    the engine, at every strength, with a mill just closed by the GUI, the answer is a removal
    that completes that turn (the engine's own parser accepts it), never a new move."""
    import io

    from morris.apps.engine import Engine

    with open_tablebase(placed) as tb:
        player = make_player(spec, tb, SIX, seed=3)
        for pos in random_positions(12, seed=17):
            legal = {str(m) for m in pos.legal_moves()}
            assert str(player.choose(pos)) in legal, (spec, pos)
    for tokens in _pending_games(6, seed=PLAYERS.index(spec)):
        out = io.StringIO()
        e = Engine(placed, SIX, out)
        e.handle(f"setoption name Strength value {spec}")
        e.handle("position startpos moves " + " ".join(tokens))
        e.handle("go")
        said = out.getvalue().splitlines()
        assert not any("error" in line for line in said), said
        answer = said[-1].split()[1]
        assert answer.startswith("x"), (spec, tokens, said)
        check = io.StringIO()
        e2 = Engine(placed, SIX, check)
        e2.handle("position startpos moves " + " ".join(tokens + [answer]))
        assert "error" not in check.getvalue(), (spec, tokens, answer, check.getvalue())


def test_a_deep_search_keeps_to_its_time_and_stops():
    """search:8 in a flying 3-3 position answers within its movetime with the deepest ply it
    finished (a legal move), and stop() from another thread ends it at once."""
    import threading
    import time

    from morris.core.variants import get_variant

    v = get_variant("standard")
    pos = Position.parse("a1,d1,g1/a7,d7,g7 w", v)
    p = SearchPlayer(v, 8, seed=1, movetime=0.5)
    p.choose(pos)  # (loads the kernel)
    t = time.monotonic()
    move = p.choose(pos)
    assert time.monotonic() - t < 2.5
    assert move in pos.legal_moves() and 1 <= p.reached < 8 and p.cut
    p = SearchPlayer(v, 8, seed=1, movetime=1e9)
    threading.Timer(0.5, p.stop).start()
    t = time.monotonic()
    move = p.choose(pos)
    assert time.monotonic() - t < 3
    assert move in pos.legal_moves() and p.cut
    q = SearchPlayer(v, 2, seed=1)  # a depth that fits in the time: searched whole
    q.choose(pos)
    assert (q.reached, q.cut) == (2, False)
