"""The engine protocol end to end, through a subprocess."""

import os
import subprocess
import sys


from morris.core.game import Game
from morris.core.position import Position
from morris.core.variants import get_variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class EngineProcess:
    def __init__(self, *args):
        self.p = subprocess.Popen([sys.executable, "-m", "cli.main", "engine", *args], cwd=ROOT,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            assert line, "engine closed its output"
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        assert self.p.wait(timeout=30) == 0


def test_handshake_and_errors(placed):
    e = EngineProcess("--db", placed)
    e.send("uci")
    lines = e.until("uciok")
    assert lines[0].startswith("id name")
    e.send("isready")
    assert e.until("readyok") == ["readyok"]
    e.send("position startpos moves d7 zz")
    e.send("isready")
    assert any("error" in l for l in e.until("readyok"))
    e.send("setoption name Variant value nosuchgame")
    e.send("isready")
    assert any("unknown variant" in l for l in e.until("readyok"))
    e.send("position fen ********/********/O**OO*@@ w m s 3 0 2 0 0 0 -1 -1 -1 -1 0 0 10")
    e.send("go")
    assert e.until("bestmove")[-1] == "bestmove none"
    e.close()


def test_engine_plays_a_whole_game_against_itself(placed):
    """Six Men's Morris from the start through the protocol: every answer is a legal action,
    removals come as their own tokens, and the game ends in a draw (perfect play)."""
    v = get_variant("six")
    e = EngineProcess("--db", placed, "--variant", "six")
    e.send("uci")
    e.until("uciok")
    e.send("setoption name Seed value 7")
    e.send("ucinewgame")
    tokens = []
    game = Game(Position.start(v))
    pending = None
    for _ in range(300):
        e.send("position startpos" + (" moves " + " ".join(tokens) if tokens else ""))
        e.send("go")
        lines = e.until("bestmove")
        best = lines[-1].split()[1]
        if best in ("draw", "none"):
            break
        assert any(l.startswith("info depth 0 score cp") for l in lines)
        tokens.append(best)
        if best.startswith("x"):
            assert pending is not None
            pending += best
            full = [m for m in game.legal_moves() if str(m) == pending]
            if full:
                game.push(pending)
                pending = None
            continue
        assert pending is None
        legal = [str(m) for m in game.legal_moves()]
        if best in legal:
            game.push(best)
        else:
            assert any(m.startswith(best + "x") for m in legal), (best, legal)
            pending = best
    e.close()
    assert best == "draw", "perfect play from the start of Six Men's Morris should draw by repetition"
    assert game.result == "1/2-1/2"
    # the engine's tokens, removals as their own tokens, replay to the same game
    replay = Game(Position.start(v))
    replay.push_tokens(tokens)
    assert replay.position == game.position and len(replay.moves) == len(game.moves)


def test_every_search_is_bounded_and_stop_works():
    """A depth-8 searcher in a flying 3-3 position (once: no move in 300 s, and stop did
    nothing): go movetime keeps to its time, go depth to its depth, go infinite ends at stop
    with the deepest ply finished; isready answers during a search; a bad go argument is one
    line and bestmove none."""
    import time

    fen = Position.parse("a1,d1,g1/a7,d7,g7 w").to_fen()
    e = EngineProcess()
    e.send("setoption name Strength value search:8")
    e.send(f"position fen {fen}")
    e.send("go depth 1")  # (loads the kernels once)
    assert "searched 1 of 1 plies" in " ".join(e.until("bestmove"))
    t = time.monotonic()
    e.send("go movetime 500")
    lines = e.until("bestmove")
    assert time.monotonic() - t < 5
    assert any("cut short by the time" in l for l in lines), lines
    e.send("go depth 2")
    assert any("searched 2 of 2 plies" in l for l in e.until("bestmove"))
    e.send("go infinite")
    e.send("isready")
    assert e.until("readyok") == ["readyok"]  # while the search runs
    time.sleep(0.5)
    t = time.monotonic()
    e.send("stop")
    lines = e.until("bestmove")
    assert time.monotonic() - t < 3, lines
    assert any("cut short" in l for l in lines) and lines[-1] != "bestmove none", lines
    e.send("go depth x")
    lines = e.until("bestmove")
    assert lines[-1] == "bestmove none" and "go depth" in lines[0], lines
    e.send("go wtime 1000 btime 1000")  # a twentieth of White's clock
    assert e.until("bestmove")[-1].startswith("bestmove ")
    e.close()
