"""A game in progress: the moves played, threefold repetition and the no-removal limit."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from . import rules
from .errors import IllegalMoveError
from .position import COLOR_NAMES, WHITE, Move, Position, glue_removals
from .rules import DRAW, WIN
from .variants import LOSE_BELOW

@dataclass
class Game:
    """A game in progress: positions and moves so far, threefold repetition, no-removal limit.

    ``result`` is ``None`` while the game goes on, else ``'1-0'``, ``'0-1'`` or ``'1/2-1/2'``;
    ``reason`` says why."""

    start: Position
    moves: list[Move] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)

    def __post_init__(self):
        self.positions = [self.start]
        self._seen = Counter([self.start.key])  # repetition ignores the no-removal counter

    @property
    def seen(self) -> Counter:
        """How often each position (without its counter) occurred in the game so far."""
        return self._seen

    @property
    def position(self) -> Position:
        return self.positions[-1]

    def legal_moves(self) -> list[Move]:
        return [] if self.result else self.position.legal_moves()

    def push(self, move: Move | str) -> Position:
        if self.result:
            raise IllegalMoveError(f"the game is over ({self.result}, {self.reason})")
        pos = self.position
        turn = pos.turn_of_move(move)
        nxt = pos.play_turn(turn)
        self.moves.append(pos.move_of_turn(turn))
        self.positions.append(nxt)
        self._seen[nxt.key] += 1
        return nxt

    def push_tokens(self, tokens) -> None:
        """Play Sanmill-style tokens, where a removal may come as its own token (``d2``,
        ``xa1``): a lone removal is glued to the move before it."""
        for tok in glue_removals(tokens):
            self.push(tok)

    @property
    def result(self) -> str | None:
        return self._status()[0]

    @property
    def reason(self) -> str | None:
        return self._status()[1]

    def _status(self):
        pos = self.position
        value = rules.terminal(pos.variant, *pos.state)  # before the limit: blocked loses
        mover = COLOR_NAMES[pos.turn]
        other = COLOR_NAMES[1 - pos.turn]
        if value is not None:
            if value == DRAW:
                return "1/2-1/2", "both players have fewer than 3 pieces"
            winner = pos.turn if value == WIN else 1 - pos.turn
            score = "1-0" if winner == WHITE else "0-1"
            if not pos.in_placement and min(pos.count(0), pos.count(1)) < LOSE_BELOW:
                loser = other if value == WIN else mover
                return score, f"{loser} has fewer than {LOSE_BELOW} pieces"
            return score, f"{mover} has no legal move"
        if pos.drawn_by_limit:
            return "1/2-1/2", f"{pos.limit} plies without a removal"
        if self._seen[pos.key] >= 3:
            return "1/2-1/2", "threefold repetition"
        return None, None
