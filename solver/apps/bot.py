"""A perfect player on top of the databases.

Rules, in order (``PerfectPlayer.choose``):

- **won**: play a winning move; first one after which the game is over (a removal that leaves
  the opponent two pieces, or a move that blocks every opponent piece), then, where dtw files
  hold every winning move, the one with the smallest dtw (the game ends soonest), else the one
  with the smallest dtc, so the win is converted as soon as possible;
- **lost**: play the move with the largest dtw where the files hold it for every move (the
  game lasts longest), else the largest dtc, so the loss comes as late as possible;
- **drawn**: play a drawing move; where draw-value files hold every drawing move (docs/draws.md),
  first the best draw value (the best settlement the player can force), realised soonest where
  it is above the pair's rank (the smallest draw distance) and resisted longest where it is
  below (the largest); then, among what is left, the move that leaves the opponent the most
  losing replies (keep every chance for the opponent to go wrong), then the fewest drawing
  replies. Given the game so far (``seen``: how often each position occurred), it first keeps
  the drawing moves that keep the game going longest by the repetition rule: not into a
  position seen twice (that ends it now), then leaving the opponent the fewest replies into a
  position seen twice (those end it next), then into the position seen least; so the game does
  not end by threefold repetition while another drawing move goes on, and a fallible opponent
  keeps its chances to go wrong. ``use_draw_values=False`` skips the draw values and the
  repetitions (the player before draw values).

Remaining ties are broken by a random generator seeded with ``seed``, over the moves in token
order, so the same seed replays the same game. Outside everything the tablebase can answer the
player raises :class:`OutsideDatabaseError`; it never guesses.

Placement positions that no database holds are valued by the tablebase's exact alpha-beta search
down to the movement databases (tablebase.py): values without distances, so among equal moves
the seed decides (drawn positions too: counting the opponent's losing replies would need a
search per reply). Placement is finite, so keeping the value move by move keeps a win.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core.errors import MissingSubspaceError, MorrisError, OutsideDatabaseError
from ..core.position import Position
from ..lookups.tablebase import Analysis, MoveInfo, Tablebase
from ..core.game import Game


@dataclass(frozen=True)
class Choice:
    move: object  # Move
    value: str
    dtc: int | None
    rule: str
    analysis: Analysis

    @property
    def info(self) -> MoveInfo | None:
        """The analysis of the chosen move (its value, distances and draw value)."""
        return next((m for m in self.analysis.moves if m.move == self.move), None)

    @property
    def dtw(self) -> int | None:
        """The chosen move's plies to the end of the game, where dtw files hold it."""
        info = self.info
        return None if info is None else info.dtw

    def to_json(self, notation="compact"):
        return {
            "position": self.analysis.position.to_fen() if notation == "fen" else self.analysis.position.to_compact(),
            "move": str(self.move),
            "value": self.value,
            "dtc": self.dtc,
            "dtw": self.dtw,
            "rule": self.rule,
        }


def bestmove_json(choice: Choice | None, position: str) -> dict:
    """The object of ``morris bestmove --json`` and ``/api/bestmove``, echoing ``position`` as
    given (``choice`` None: the game is over)."""
    if choice is None:
        return {"position": position, "move": None, "value": None, "dtc": None, "dtw": None,
                "rule": "the game is over"}
    obj = choice.to_json()
    obj["position"] = position
    return obj


def _repetition_risk(after: Position, seen) -> tuple:
    """How soon a move into ``after`` may end the game by threefold repetition, given ``seen``
    (times each position occurred so far), smallest first: whether ``after`` ends it at once
    (seen twice), how many of the opponent's replies would end it (into a position seen
    twice), and how often ``after`` was seen."""
    mine = seen.get(after.key, 0)
    if mine >= 2:
        return (1, 0, mine)
    ending = sum(1 for r in after.legal_moves() if seen.get(after.play(r).key, 0) >= 2)
    return (0, ending, mine)


class PerfectPlayer:
    def __init__(self, tablebase: Tablebase, seed: int | None = None, use_draw_values: bool = True):
        self.tb = tablebase
        self.rng = random.Random(seed)
        self.use_draw_values = use_draw_values

    def analyze(self, pos: Position) -> Analysis:
        try:
            return self.tb.analyze(pos)
        except MissingSubspaceError as exc:
            raise OutsideDatabaseError(f"{pos.to_compact()} is outside the databases: {exc}",
                                       subspace=exc.subspace, variant=exc.variant) from None

    def choose(self, pos: Position, seen=None) -> Choice | None:
        """The move to play, or ``None`` when the game is over. ``seen``: {position key: times
        it occurred in the game so far} (repetitions), where the caller knows the game."""
        a = self.analyze(pos)
        if not a.moves:
            return None
        pick = self._pick
        if a.value == "win":
            wins = [m for m in a.moves if m.value == "win"]
            finishing = [m for m in wins if pos.play(m.move).outcome() is not None]
            if finishing:
                m = pick(finishing)
                return Choice(m.move, m.value, m.dtc, "won: the move ends the game", a)
            if a.source == "search":  # no distances: any winning move keeps the win
                m = pick(wins)
                return Choice(m.move, m.value, None, "won (by search)", a)
            if all(x.dtw is not None for x in wins):  # the files hold dtw: the fastest win
                best = min(x.dtw for x in wins)
                m = pick([x for x in wins if x.dtw == best])
                return Choice(m.move, m.value, m.dtc, f"won: the game ends in {best} plies", a)
            best = min(m.dtc for m in wins)
            m = pick([x for x in wins if x.dtc == best])
            return Choice(m.move, m.value, m.dtc, "won: smallest distance to conversion", a)
        if a.value == "loss":
            if a.source == "search":
                m = pick(a.moves)
                return Choice(m.move, m.value, None, "lost (by search)", a)
            if all(x.dtw is not None for x in a.moves):  # the longest game
                worst = max(x.dtw for x in a.moves)
                m = pick([x for x in a.moves if x.dtw == worst])
                return Choice(m.move, m.value, m.dtc, f"lost: the game lasts {worst} plies", a)
            worst = max(m.dtc for m in a.moves)
            m = pick([x for x in a.moves if x.dtc == worst])
            return Choice(m.move, m.value, m.dtc, "lost: largest distance to conversion", a)
        draws = [m for m in a.moves if m.value == "draw"]
        if a.source == "search":
            m = pick(draws)
            return Choice(m.move, m.value, None, "drawn (by search)", a)
        why = ""
        if self.use_draw_values and a.draw is not None and all(m.draw is not None for m in draws):
            draws, why = self._best_draws(a.draw, draws)
        after = {m.move: pos.play(m.move) for m in draws}
        if self.use_draw_values and seen:
            ends = {m.move: _repetition_risk(after[m.move], seen) for m in draws}
            least = min(ends.values())
            draws = [m for m in draws if ends[m.move] == least]
        scored = []
        for m in draws:
            try:
                replies = self.tb.reply_values(after[m.move])
            except MissingSubspaceError as exc:
                raise OutsideDatabaseError(f"{pos.to_compact()} is outside the databases: {exc}",
                                       subspace=exc.subspace, variant=exc.variant) from None
            scored.append(((replies.count("loss"), -replies.count("draw")), m))
        top = max(s for s, _ in scored)
        m = pick([m for s, m in scored if s == top])
        return Choice(m.move, m.value, m.dtc, f"drawn: {why}leaves the opponent {top[0]} losing "
                      f"replies of {top[0] - top[1]} non-winning", a)

    @staticmethod
    def _best_draws(me, draws: list[MoveInfo]):
        """The drawing moves that keep the best draw value, hurrying or delaying as its rank
        says (``me``: the position's DrawValue), and the words for it."""
        best = max(m.draw for m in draws)
        keep = [m for m in draws if m.draw == best]
        if me.rank is None or best == me.rank:
            return keep, f"draw value {best:+d}; "
        if best > me.rank:
            d = min(m.draw_distance for m in keep)
            return [m for m in keep if m.draw_distance == d], f"draw value {best:+d} in {d} plies; "
        d = max(m.draw_distance for m in keep)
        return [m for m in keep if m.draw_distance == d], f"draw value {best:+d} after {d} plies; "

    def _pick(self, infos: list[MoveInfo]) -> MoveInfo:
        ordered = sorted(infos, key=lambda m: str(m.move))
        return ordered[0] if len(ordered) == 1 else self.rng.choice(ordered)


@dataclass(frozen=True)
class LineStep:
    """One move of a perfect-play line, valued for the side that plays it."""

    position: Position
    move: object  # Move
    value: str
    dtw: int | None
    dtc: int | None
    draw: int | None = None  # a drawing move's draw value, where the files hold it

    def to_json(self):
        return {"position": self.position.to_compact(), "move": str(self.move), "value": self.value,
                "dtw": self.dtw, "dtc": self.dtc, "draw_value": self.draw}


def perfect_line(tb: Tablebase, start: Position, seed: int = 0, max_plies: int = 2000):
    """The perfect player's line from ``start`` (both sides play it, ties broken by ``seed``):
    to the end of the game, or for a draw to the first position seen three times (or
    ``max_plies``). Returns (steps, how it ended, the error that stopped it or None): a
    position that nothing can answer stops the line there, keeping the moves before it."""
    game = Game(start)
    bot = PerfectPlayer(tb, seed)
    steps = []
    while game.result is None and len(steps) < max_plies:
        try:
            choice = bot.choose(game.position)
        except MorrisError as exc:
            return steps, f"stopped after {len(steps)} plies: {type(exc).__name__}", exc
        if choice is None:
            break
        info = choice.info
        steps.append(LineStep(game.position, choice.move, info.value, info.dtw, info.dtc, info.draw))
        game.push(choice.move)
    if game.result is not None:
        end = f"{game.result}: {game.reason}"
    else:
        end = f"stopped after {max_plies} plies"
    return steps, end, None
