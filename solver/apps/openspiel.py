"""Perfect play inside OpenSpiel (the optional extra ``pip install '.[openspiel]'``): its game
``nine_mens_morris`` read as the toolkit's games, and a ``pyspiel.Bot`` that plays the perfect
player (values, dtw, draw values).

OpenSpiel numbers the points row by row from the top (``OS_POINTS``: a7 is 0, g1 is 23). An
action is a point (0..23: a placement, or the capture that completes a turn that closed a mill)
or a move, ``24 + 24 * from + to``: a toolkit turn that removes is two actions there.

    >>> import pyspiel
    >>> from morris import open_tablebase
    >>> from morris.openspiel import make_bot, replay
    >>> state = pyspiel.load_game("nine_mens_morris").new_initial_state()
    >>> bot = make_bot(open_tablebase("tb"))
    >>> state.apply_action(bot.step(state))
    >>> moves, position, pending = replay(state.history())   # pending: a turn awaiting its capture

OpenSpiel ends a game that reaches ``max_game_length`` actions as a draw; a winning bot takes the
quickest win (the least dtw where dtw files are there, else dtc), the most any player can do
against that cap.
"""

from __future__ import annotations

from collections import Counter

from ..core.errors import IllegalMoveError, MorrisError
from ..core.inputs import parse_int
from ..core.records import RecordError
from ..core.position import Move, Position
from ..core.variants import get_variant
from .bot import PerfectPlayer

OS_POINTS = ("a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
             "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1")
MOVE_BASE = 24
_INDEX = {p: i for i, p in enumerate(OS_POINTS)}


def actions_of(move: Move) -> list[int]:
    """OpenSpiel's actions for one toolkit turn: the placement or move, then each capture."""
    head = _INDEX[move.to] if move.frm is None else MOVE_BASE + 24 * _INDEX[move.frm] + _INDEX[move.to]
    return [head] + [_INDEX[r] for r in move.removes]


def replay(actions, variant=None) -> tuple[list, Position, Move | None]:
    """The toolkit's moves of an OpenSpiel action history, the position they reach, and the
    turn under way when the last action closed a mill whose capture has not come yet (None
    otherwise). OpenSpiel has no threefold repetition (its games end at ``max_game_length``), so
    none is applied here. An action the rules do not allow is an :class:`IllegalMoveError`."""
    pos = Position.start(variant or get_variant("standard"))
    moves = []
    partial = None  # (frm, to, removed so far)
    for k, a in enumerate(actions):
        a = int(a)
        if partial is None:
            if 0 <= a < MOVE_BASE:
                frm, to = -1, pos.board.index[OS_POINTS[a]]
            elif MOVE_BASE <= a < MOVE_BASE + 24 * 24:
                f, t = divmod(a - MOVE_BASE, 24)
                frm, to = pos.board.index[OS_POINTS[f]], pos.board.index[OS_POINTS[t]]
            else:
                raise IllegalMoveError(f"action {a} (#{k + 1}) is not an action of nine_mens_morris")
            partial = (frm, to, 0)
        else:
            if not 0 <= a < MOVE_BASE:
                raise IllegalMoveError(f"action {a} (#{k + 1}): a capture is due")
            frm, to, removed = partial
            partial = (frm, to, removed | 1 << pos.board.index[OS_POINTS[a]])
        fits = [t for t in pos.legal_turns() if t[:2] == partial[:2] and t[2] & partial[2] == partial[2]]
        if not fits:
            raise IllegalMoveError(f"action {a} (#{k + 1}) is not legal in {pos.to_compact()}")
        if partial in fits and not any(t[2] != partial[2] for t in fits):
            moves.append(pos.move_of_turn(partial))
            pos = pos.play_turn(partial)
            partial = None
    pending = None if partial is None else pos.move_of_turn(partial)
    return moves, pos, pending


def records_of_histories(text: str) -> str:
    """OpenSpiel action histories (one game a line, numbers separated by spaces or commas; a
    line may end with a mill awaiting its capture) as game records in the toolkit's tokens, one
    game each: what ``morris annotate --openspiel`` grades. A line that is not a history of
    legal actions is a :class:`~morris.core.records.RecordError` naming its game."""
    out = []
    for n, line in enumerate((x for x in text.splitlines() if x.strip() and not x.lstrip().startswith("#")), 1):
        words = line.replace(",", " ").replace("[", " ").replace("]", " ").split()
        try:
            actions = [parse_int(w, "an OpenSpiel action", 0, MOVE_BASE + 24 * 24 - 1) for w in words]
            moves, _, _ = replay(actions)
        except MorrisError as exc:
            raise RecordError(f"game {n}: {exc}") from None
        out.append(" ".join(map(str, moves)) + " *")
    return "\n".join(out)


def state_of(moves, pyspiel_game=None):
    """The OpenSpiel state after the toolkit's ``moves`` (turns, from the empty board)."""
    import pyspiel  # (lazy: the optional extra)

    state = (pyspiel_game or pyspiel.load_game("nine_mens_morris")).new_initial_state()
    for mv in moves:
        for a in actions_of(mv):
            state.apply_action(a)
    return state


def make_bot(tb, seed=None, use_draw_values: bool = True):
    """A ``pyspiel.Bot`` playing the perfect player from the databases of ``tb``. It keeps no
    state between calls: each ``step`` reads the game from the state's history (so one bot
    serves any number of games, and ``restart_at`` has nothing to do)."""
    import pyspiel  # (lazy: the optional extra)

    player = PerfectPlayer(tb, seed, use_draw_values)

    class _PerfectBot(pyspiel.Bot):
        """The perfect player as an OpenSpiel bot: ``step(state)`` is its next action (the
        placement or move of the best turn, or, when that turn closed a mill, its capture)."""

        def __init__(self):
            pyspiel.Bot.__init__(self)

        def step(self, state):
            moves, pos, pending = replay(state.history())
            seen = Counter([pos.key])
            before = Position.start(pos.variant)
            for mv in moves:  # the positions of the game so far, for the draws' repetition rule
                seen[before.key] += 1
                before = before.play(mv)
            choice = player.choose(pos, seen)
            if pending is None:
                return actions_of(choice.move)[0]
            done = len(pending.removes)
            move = next(m.move for m in choice.analysis.moves  # sorted best first
                        if (m.move.frm, m.move.to) == (pending.frm, pending.to)
                        and m.move.removes[:done] == pending.removes)
            return actions_of(move)[1 + done]

        def restart_at(self, state):
            pass

        def inform_action(self, state, player_id, action):
            pass

        def provides_policy(self):
            return False

    return _PerfectBot()
