"""Players other than the perfect one, to measure what the perfect player wins against people and
engines, and a match between any two players.

=========================  ==================================================================
``perfect``                the perfect player (bot.py): best value, then its distance rules,
                           among draws the draw value (where draw-value files hold it)
``perfect:replies``        the perfect player without draw values: among draws the one that
                           leaves the most losing replies (the bot before draw values)
``epsilon:E``              a fallible perfect player: with probability E a uniformly random
                           legal move, otherwise a value-best move chosen at random
``search:D``               a depth-D alpha-beta searcher with a material-and-mobility evaluation
                           and no databases (the kind of engine most apps ship), deepening ply
                           by ply within a time a move (DEFAULT_MOVETIME, or ``movetime``)
``random``                 a uniformly random legal move (``epsilon:1``)
=========================  ==================================================================

Every player has ``choose(position, among=None) -> Move`` and a seed, so a match replays
exactly. ``among`` (a predicate on moves) restricts the choice to the legal moves it accepts: the
engine passes the turns that complete a move the GUI already played (a mill closed, its removal
pending), so that a weaker player too answers only a legal action.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..core import rules
from .bot import PerfectPlayer
from ..core.errors import UsageError
from ..core.game import Game
from ..core.inputs import parse_int
from ..core.position import Position
from ..hashing.games import game_of
from ..hashing.index import board_tables
from ..kernels import alphabeta as K

WIN_SCORE = 100_000
#: seconds a move of a searching player (search:D) may take unless told otherwise
DEFAULT_MOVETIME = 10.0


class EpsilonPlayer:
    """With probability ``eps`` a uniformly random legal move; otherwise one of the moves with
    the best value, uniformly (no distances, no draw preference)."""

    def __init__(self, tb, eps: float, seed=None):
        self.tb, self.eps, self.rng = tb, eps, random.Random(seed)

    def choose(self, pos: Position, among=None):
        moves = [m for m in pos.legal_moves() if among is None or among(m)]
        if not moves:
            return None
        if self.eps >= 1 or self.rng.random() < self.eps:
            return self.rng.choice(moves)
        a = [m for m in self.tb.analyze(pos).moves if among is None or among(m.move)]
        best = [m.move for m in a if m.value == a[0].value]
        return self.rng.choice(sorted(best, key=str))


class SearchPlayer:
    """Depth-limited alpha-beta (negamax) with no databases. The evaluation, from the side to
    move: 100 per piece more than the opponent (on the board and in hand), plus 1 per legal
    turn more (mobility); a finished game is +-WIN_SCORE (sooner is better). Ties between equal
    scores are broken by the seed.

    Every search is bounded: it deepens one ply at a time up to the depth, and keeps to
    ``movetime`` seconds a move (a node budget measured from the plies before), answering with
    the deepest ply it finished (``reached``; ``cut`` when that is short of the depth); ply 1
    always finishes. ``stop()`` (from another thread) ends a search at once the same way."""

    def __init__(self, variant, depth: int, seed=None, python: bool = False,
                 movetime: float = DEFAULT_MOVETIME):
        self.variant, self.depth, self.rng = variant, depth, random.Random(seed)
        self.python = python  # the pure-Python negamax (the reference of kernels/alphabeta.py)
        self.movetime = movetime
        self.reached, self.cut = 0, False
        self._budget = np.zeros(1, dtype=np.int64)  # nodes left (kernels/alphabeta.negamax)
        self._stopped = False

    def stop(self) -> None:
        """End the search under way (if any): it answers with the deepest ply it finished."""
        self._stopped = True
        self._budget[0] = 0

    def evaluate(self, state) -> int:
        mover, opp, mh, oh = state
        material = 100 * ((mover.bit_count() + mh) - (opp.bit_count() + oh))
        mine = len(rules.turns(self.variant, mover, opp, mh, oh))
        theirs = len(rules.turns(self.variant, opp, mover, oh, mh))
        return material + mine - theirs

    def negamax(self, state, depth: int, alpha: int, beta: int) -> int:
        v = self.variant
        ts = rules.turns(v, *state)
        end = rules.terminal(v, *state, any_turn=bool(ts))
        if end is not None:
            return {rules.WIN: WIN_SCORE + depth, rules.LOSS: -WIN_SCORE - depth, rules.DRAW: 0}[end]
        if depth == 0:
            return self.evaluate(state)
        best = -math.inf
        for t in ts:
            child, switched = rules.play(v, *state, t)
            if switched:  # the other side moves next: its score, seen from here
                score = -self.negamax(child, depth - 1, -beta, -alpha)
            else:  # the same side places again
                score = self.negamax(child, depth - 1, alpha, beta)
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def scores(self, pos: Position, among=None, depth: int | None = None,
               movetime: float | None = None) -> list:
        """(score, move) of every legal move (that ``among`` accepts), searched as deep as the
        player's depth (or ``depth``) and time a move (or ``movetime`` seconds) allow."""
        depth = depth or self.depth
        moves = []
        for t in pos.legal_turns():
            move = pos.move_of_turn(t)
            if among is None or among(move):
                child, switched = rules.play(self.variant, *pos.state, t)
                moves.append((child, switched, move))
        if self.python:
            return [(-s if sw else s, m) for s, sw, m in
                    ((self.negamax(c, depth - 1, -math.inf, math.inf), sw, m) for c, sw, m in moves)]
        return self._deepen(moves, depth, self.movetime if movetime is None else movetime)

    def _deepen(self, moves, depth: int, movetime: float) -> list:
        """Iterative deepening over the root ``moves`` (child, switched, move) within
        ``movetime`` seconds: the scores of the deepest ply finished."""
        deadline = time.monotonic() + movetime
        self._stopped = False
        self._rate = None  # nodes a second, measured on the plies before
        best, self.reached = [], 0
        bufs = K.buffers(depth)
        for d in range(1, depth + 1):
            out = self._ply(moves, d, bufs, None if d == 1 else deadline)
            if out is None:
                break
            best, self.reached = out, d
            if self._stopped or time.monotonic() >= deadline:
                break
        self.cut = self.reached < depth
        return best

    def _ply(self, moves, d: int, bufs, deadline):
        """Every root move's score searched ``d`` plies deep, or None where the time (until
        ``deadline``; None: no limit) or a ``stop`` cut the ply short."""
        T, R = board_tables(self.variant.board), game_of(self.variant).args
        out = []
        for child, switched, move in moves:
            if deadline is None:
                allowed = 1 << 62
            else:
                left = deadline - time.monotonic()
                if left <= 0 or self._stopped:
                    return None
                allowed = 1 << 62 if self._rate is None else max(1000, int(left * self._rate))
            self._budget[0] = allowed
            t0 = time.monotonic()
            s = int(K.negamax(T, R, *child, d - 1, -K.INF, K.INF, bufs, self._budget))
            if deadline is not None and self._budget[0] <= 0:
                return None
            spent = time.monotonic() - t0
            if spent > 1e-3:
                self._rate = (allowed - int(self._budget[0])) / spent
            out.append((-s if switched else s, move))
        return out

    def choose(self, pos: Position, among=None):
        scored = self.scores(pos, among)
        if not scored:
            return None
        top = max(s for s, _ in scored)
        return self.rng.choice(sorted((m for s, m in scored if s == top), key=str))


class PerfectChooser:
    """The perfect player (bot.py) with the ``choose(position) -> Move`` of the others."""

    def __init__(self, tb, seed=None, use_draw_values: bool = True):
        self.bot = PerfectPlayer(tb, seed, use_draw_values)
        self.seen = Counter()  # every position of the game: the ones it moves in, and after

    def choose(self, pos: Position, among=None):
        self.seen[pos.key] += 1
        c = self.bot.choose(pos, self.seen)
        if c is None:
            return None
        move = c.move
        if among is not None and not among(move):  # the best of the moves allowed (sorted best first)
            move = next((m.move for m in c.analysis.moves if among(m.move)), None)
            if move is None:
                return None
        self.seen[pos.play(move).key] += 1
        return move


def make_player(spec: str, tb, variant, seed=None, movetime: float | None = None):
    """A player from its name (the table in the module docstring); ``movetime``: the seconds
    a move of a searching player (``search:D``) may take (default DEFAULT_MOVETIME)."""
    kind, _, arg = spec.partition(":")
    if kind == "perfect" and arg in ("", "replies"):
        return PerfectChooser(tb, seed, use_draw_values=not arg)
    if kind == "random" and not arg:
        return EpsilonPlayer(tb, 1.0, seed)
    if kind == "epsilon":
        # ASCII digits with at most one point (inputs.py's rule for numbers): "0.05", "1", ".5"
        plain = arg.isascii() and arg.replace(".", "", 1).isdigit()
        eps = float(arg) if plain else None
        if eps is None or not 0 <= eps <= 1:
            raise UsageError(f"player {spec!r}: epsilon:E needs E between 0 and 1 (e.g. epsilon:0.05)")
        return EpsilonPlayer(tb, eps, seed)
    if kind == "search":
        return SearchPlayer(variant, parse_int(arg, f"player {spec!r}: the search depth", 1, 8), seed,
                            movetime=DEFAULT_MOVETIME if movetime is None else movetime)
    raise UsageError(f"unknown player {spec!r}: perfect, perfect:replies, random, epsilon:E (0..1) "
                     f"or search:D (1..8)")


@dataclass
class MatchResult:
    """Games from A's side: wins, draws, losses, and A's score with a 95% interval."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def score_interval(self) -> tuple:
        """A's mean score (win 1, draw 1/2) and its 95% normal interval."""
        n = max(1, self.games)
        mean = (self.wins + 0.5 * self.draws) / n
        var = (self.wins * (1 - mean) ** 2 + self.draws * (0.5 - mean) ** 2
               + self.losses * mean ** 2) / max(1, n - 1)
        half = 1.96 * math.sqrt(var / n)
        return mean, max(0.0, mean - half), min(1.0, mean + half)

    def wins_interval(self) -> tuple:
        """A's share of games won and its 95% Wilson interval."""
        n = max(1, self.games)
        p, z = self.wins / n, 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return p, max(0.0, centre - half), min(1.0, centre + half)

    def to_json(self) -> dict:
        mean, lo, hi = self.score_interval()
        return {"a": self.a, "b": self.b, "games": self.games, "wins": self.wins,
                "draws": self.draws, "losses": self.losses,
                "score": round(mean, 4), "score_95": [round(lo, 4), round(hi, 4)]}


def play_game(white, black, start: Position, max_plies: int = 1000) -> str:
    """'1-0', '0-1' or '1/2-1/2' (a draw too after ``max_plies``)."""
    game = Game(start)
    while game.result is None and len(game.moves) < max_plies:
        player = white if game.position.turn == 0 else black
        move = player.choose(game.position)
        if move is None:
            break
        game.push(move)
    return game.result or "1/2-1/2"


def play_match(make_a, make_b, games: int, start: Position, seed: int = 0, max_plies: int = 1000,
               on_game=None) -> MatchResult:
    """``games`` games between A and B (made fresh each game by ``make_a(seed)``/``make_b(seed)``),
    colours alternating, A white first."""
    res = MatchResult(a="", b="")
    for g in range(games):
        a, b = make_a(seed + 2 * g), make_b(seed + 2 * g + 1)
        a_white = g % 2 == 0
        result = play_game(a, b, start, max_plies) if a_white else play_game(b, a, start, max_plies)
        if result == "1/2-1/2":
            res.draws += 1
        elif (result == "1-0") == a_white:
            res.wins += 1
        else:
            res.losses += 1
        if on_game:
            on_game(g + 1, result)
    return res
