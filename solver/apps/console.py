"""``morris play``: a game against the perfect player, move by move, over two callables (one
that asks for a line, one that shows a line), so the loop does not depend on a terminal.
"""

from __future__ import annotations

from .bot import PerfectPlayer
from ..core.errors import MorrisError
from ..core.game import Game
from ..core.position import COLOR_NAMES, WHITE, Move
from .reports import search_line

QUIT = ("quit", "exit", "q")
HELP = ("moves", "?", "help")


class ConsoleGame:
    """A game between a person (``human``: the colour they play) and the perfect player.
    ``ask(prompt)`` returns the person's line (raising EOFError at the end of input);
    ``say(text)`` shows a line. :meth:`run` returns the exit status: 0 when the game ended or
    the person quit; when the bot could not go on, the status of its error (errors.py: 3 for
    a position outside the databases)."""

    def __init__(self, game: Game, tb, human: int, seed=None, *, ask, say, opponent=None):
        self.game, self.tb, self.human = game, tb, human
        self.bot = PerfectPlayer(tb, seed)
        #: a weaker bot (players.py), or None for the perfect player
        self.opponent = opponent
        self.ask, self.say = ask, say
        self.status = 0

    def greeting(self) -> str:
        return (f"you play {COLOR_NAMES[self.human]} ({'O' if self.human == WHITE else '@'} on the "
                f"board); the bot plays {COLOR_NAMES[1 - self.human]}. Type 'moves' for the legal "
                f"moves, 'quit' to stop.")

    def run(self) -> int:
        self.say(self.greeting())
        self.tb.prepare_search(self.game.position.variant)
        try:
            while self.game.result is None:
                pos = self.game.position
                self.say(pos.diagram())
                if pos.limit is not None:
                    self.say(f"{pos.no_removal_plies} of {pos.limit} plies without a removal")
                if pos.turn == self.human:
                    if not self.human_turn():
                        self.say("game abandoned")
                        return 0
                elif not self.bot_turn():
                    return self.status
        except EOFError:
            self.say("\nend of input: game abandoned")
            return 0
        self.say(self.game.position.diagram())
        self.say(f"result {self.game.result}: {self.game.reason}")
        return 0

    def human_turn(self) -> bool:
        """One line from the person; False when they quit."""
        text = self.ask("your move").strip()
        if text in QUIT:
            return False
        if text in HELP:
            self.say("legal moves: " + " ".join(str(m) for m in self.game.legal_moves()))
            return True
        if not text:
            return True
        try:
            self.game.push(self.complete(Move.parse(text)))
        except MorrisError as exc:
            self.say(f"{type(exc).__name__}: {exc}")
        return True

    def complete(self, move: Move) -> Move:
        """A move that closes a mill but names no removal: ask which piece to remove."""
        if move.removes:
            return move
        closing = [m for m in self.game.position.completions(move) if m.removes]
        if not closing:
            return move
        options = sorted({m.removes[0] for m in closing})
        victim = self.ask(f"{move} closes a mill: remove which piece? ({', '.join(options)})").strip()
        return Move.parse(f"{move}x{victim.lstrip('x')}")

    def bot_turn(self) -> bool:
        """The bot's move; False when it cannot go on (said why)."""
        if self.opponent is not None:
            try:
                move = self.opponent.choose(self.game.position)
            except MorrisError as exc:
                self.say(f"{type(exc).__name__}: {exc}")
                self.status = exc.exit_status
                return False
            self.say(f"bot plays {move}")
            self.game.push(move)
            return True
        try:
            choice = self.bot.choose(self.game.position, self.game.seen)
        except MorrisError as exc:
            self.say(f"{type(exc).__name__}: {exc}")
            self.say("the bot cannot go on from here")
            self.status = exc.exit_status
            return False
        line = search_line(choice.analysis)
        if line:
            self.say(line)
        dist = "" if choice.dtc is None else f" in {choice.dtc}"
        self.say(f"bot plays {choice.move} ({choice.value}{dist} for the bot)")
        self.game.push(choice.move)
        return True
