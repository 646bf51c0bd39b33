"""Legal moves and the end of the game, in plain Python.

This module is the reference: readable, and checked by the tests against RULES.md. The numba
kernels (kernels/bitboard.py) must agree with it move for move.

The mask-level functions take the position from the side to move's point of view: ``mover`` and
``opp`` are point masks, ``mover_hand`` and ``opp_hand`` the pieces still in hand. A turn is
``(frm, to, removed)``: point indices (``frm == -1`` for a placement) and the mask of the removed
opponent pieces.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .errors import IllegalMoveError
from .position import COLOR_NAMES, WHITE, Move, Position
from .variants import FLY_AT, LOSE_BELOW

WIN, DRAW, LOSS = "win", "draw", "loss"


def bits(mask: int):
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return mask.bit_count()


def pieces_in_mills(board, pieces: int) -> int:
    """The pieces of ``pieces`` that stand in a complete mill of their own colour."""
    out = 0
    for mill in board.mill_masks:
        if pieces & mill == mill:
            out |= mill
    return out


def removable(board, opp: int) -> int:
    """Opponent pieces that may be removed: those outside mills, or any when all are in mills."""
    free = opp & ~pieces_in_mills(board, opp)
    return free if free else opp


def mills_closed(board, own_after: int, to: int) -> int:
    """Number of mills through ``to`` that ``own_after`` (containing ``to``) completes."""
    return sum(1 for mill in board.point_mills[to] if own_after & mill == mill)


def removal_sets(board, opp: int, count: int) -> list[int]:
    """Every set (as a mask) of ``count`` opponent pieces that can be removed one after another,
    each chosen by the mill rule on the board left by the previous removal. Fewer are removed
    when the opponent has fewer pieces; none when it has none."""
    count = min(count, popcount(opp))
    if count == 0:
        return [0]
    out = set()
    for x in bits(removable(board, opp)):
        bit = 1 << x
        for rest in removal_sets(board, opp ^ bit, count - 1):
            out.add(bit | rest)
    return sorted(out)


def removal_order(board, opp: int, removed: int) -> list[int]:
    """A legal order in which the pieces of ``removed`` can be taken (for writing the token)."""
    if not removed:
        return []
    for x in bits(removable(board, opp) & removed):
        bit = 1 << x
        rest = removed ^ bit
        if rest == 0 or rest in removal_sets(board, opp ^ bit, popcount(rest)):
            return [x] + removal_order(board, opp ^ bit, rest)
    raise ValueError("not a legal removal set")


def flies(variant, mover: int, mover_hand: int, opp_hand: int) -> bool:
    return (
        variant.rules.flying
        and mover_hand == 0
        and opp_hand == 0
        and popcount(mover) == FLY_AT
    )


def turns(variant, mover: int, opp: int, mover_hand: int, opp_hand: int):
    """Every legal turn ``(frm, to, removed)``, ignoring whether the game is already over."""
    board = variant.board
    empty = board.full & ~(mover | opp)
    out = []
    if mover_hand > 0:
        steps = [(-1, to) for to in bits(empty)]
    else:
        fly = flies(variant, mover, mover_hand, opp_hand)
        steps = []
        for frm in bits(mover):
            targets = empty if fly else board.adjacency[frm] & empty
            steps.extend((frm, to) for to in bits(targets))
    for frm, to in steps:
        after = mover | (1 << to)
        if frm >= 0:
            after ^= 1 << frm
        closed = mills_closed(board, after, to)
        if closed:
            count = 1 if variant.rules.double_mill_removes == 1 else closed
            for removed in removal_sets(board, opp, count):
                out.append((frm, to, removed))
        else:
            out.append((frm, to, 0))
    return out


def child(mover, opp, mover_hand, opp_hand, turn):
    """The position after ``turn`` as ``(state, switched)``: ``state`` from the point of view of
    the side to move next, ``switched`` False when the same side moves again.

    The side to move changes every turn, except that a player who still has pieces in hand
    keeps placing while the other player's hand is empty (this arises only from positions that
    strict alternation does not reach, such as teaching positions)."""
    frm, to, removed = turn
    after = mover | (1 << to)
    if frm >= 0:
        after ^= 1 << frm
    hand = mover_hand - 1 if frm < 0 else mover_hand
    if hand > 0 and opp_hand == 0:
        return (after, opp & ~removed, hand, opp_hand), False
    return (opp & ~removed, after, opp_hand, hand), True


def has_turns(variant, mover, opp, mover_hand, opp_hand) -> bool:
    """Whether the side to move has a legal turn (cheaper than listing them)."""
    board = variant.board
    empty = board.full & ~(mover | opp)
    if not empty:
        return False
    if mover_hand > 0 or flies(variant, mover, mover_hand, opp_hand):
        return True
    adj = board.adjacency
    return any(adj[p] & empty for p in bits(mover))


def decided_by_count(mover, opp, mover_hand, opp_hand):
    """The value for the side to move if the piece counts end the game, else ``None``: after
    placement a player with fewer than 3 pieces has lost (a draw if both have)."""
    if mover_hand or opp_hand:
        return None
    short_mover = mover.bit_count() < LOSE_BELOW
    short_opp = opp.bit_count() < LOSE_BELOW
    if short_mover and short_opp:
        return DRAW
    if short_mover:
        return LOSS
    if short_opp:
        return WIN
    return None


def terminal(variant, mover, opp, mover_hand, opp_hand, any_turn=None):
    """The value for the side to move if the game is over, else ``None``.

    After placement a player with fewer than 3 pieces has lost (a draw if both have); a player
    with no legal turn has lost."""
    end = decided_by_count(mover, opp, mover_hand, opp_hand)
    if end is not None:
        return end
    if any_turn is None:
        any_turn = has_turns(variant, mover, opp, mover_hand, opp_hand)
    return None if any_turn else LOSS


# ---------------------------------------------------------------------- Position-level API
def _state(pos: Position):
    return pos.mover, pos.opponent, pos.mover_hand, pos.opponent_hand


def _from_state(pos: Position, result) -> Position:
    (mover, opp, mover_hand, opp_hand), switched = result
    turn = 1 - pos.turn if switched else pos.turn
    if turn == WHITE:
        return Position(pos.variant, mover, opp, turn, mover_hand, opp_hand)
    return Position(pos.variant, opp, mover, turn, opp_hand, mover_hand)


def outcome(pos: Position):
    """``None`` while the game goes on, else ``'win'``, ``'draw'`` or ``'loss'`` for the side to move."""
    return terminal(pos.variant, *_state(pos))


def is_game_over(pos: Position) -> bool:
    return outcome(pos) is not None


def move_of_turn(pos: Position, turn) -> Move:
    board = pos.board
    frm, to, removed = turn
    order = removal_order(board, pos.opponent, removed)
    return Move(
        to=board.points[to],
        frm=None if frm < 0 else board.points[frm],
        removes=tuple(board.points[x] for x in order),
    )


def legal_turns(pos: Position):
    """Legal turns as ``(frm, to, removed)`` tuples; none when the game is over."""
    state = _state(pos)
    ts = turns(pos.variant, *state)
    if terminal(pos.variant, *state, any_turn=bool(ts)) is not None:
        return []
    return ts


def legal_moves(pos: Position) -> list[Move]:
    """Every legal turn as a :class:`Move`, sorted by token."""
    return sorted((move_of_turn(pos, t) for t in legal_turns(pos)), key=str)


def turn_of_move(pos: Position, move: Move | str):
    """The ``(frm, to, removed)`` turn a move token stands for; explains why when it is illegal."""
    mv = Move.parse(move) if isinstance(move, str) else move
    board = pos.board
    for name in [mv.to, *([mv.frm] if mv.frm else []), *mv.removes]:
        if name not in board.index:
            raise IllegalMoveError(f"{mv}: {name} is not a point of the {board.name} board")
    to = board.index[mv.to]
    frm = -1 if mv.frm is None else board.index[mv.frm]
    removed = 0
    for r in mv.removes:
        bit = 1 << board.index[r]
        if removed & bit:
            raise IllegalMoveError(f"{mv}: {r} is removed twice")
        removed |= bit
    turn = (frm, to, removed)
    if turn in set(legal_turns(pos)):
        return turn
    raise IllegalMoveError(f"illegal move {mv}: {_why_illegal(pos, frm, to, removed)}")


def _why_illegal(pos: Position, frm: int, to: int, removed: int) -> str:
    board = pos.board
    variant = pos.variant
    me = COLOR_NAMES[pos.turn]
    result = outcome(pos)
    if result is not None:
        return f"the game is over ({me} to move has {'won' if result == WIN else 'lost' if result == LOSS else 'drawn'})"
    mover, opp, mh, oh = _state(pos)
    if mh > 0 and frm >= 0:
        return f"{me} still has {mh} in hand: during placement pieces are placed, not moved"
    if mh == 0 and frm < 0:
        return "placement is over: move a piece with from-to, as d2-d3"
    if (mover | opp) >> to & 1:
        return f"{board.points[to]} is not empty"
    if frm >= 0:
        if not mover >> frm & 1:
            return f"{board.points[frm]} holds no {me} piece"
        if not flies(variant, mover, mh, oh) and not board.adjacency[frm] >> to & 1:
            why = (
                "flying is off in this variant" if not variant.rules.flying
                else f"{me} has {popcount(mover)} pieces and flies only with {FLY_AT}"
            )
            return f"{board.points[to]} is not adjacent to {board.points[frm]} ({why})"
    after = mover | (1 << to)
    if frm >= 0:
        after ^= 1 << frm
    closed = mills_closed(board, after, to)
    if not closed:
        if removed:
            return "it closes no mill, so it removes nothing"
        return "illegal"
    need = min(popcount(opp), 1 if variant.rules.double_mill_removes == 1 else closed)
    if popcount(removed) != need:
        if need == 0:
            return "the opponent has no piece on the board to remove"
        example = board.points[next(bits(removable(board, opp)))]
        return (
            f"it closes {'two mills' if closed > 1 else 'a mill'} and must remove {need} "
            f"opponent piece{'s' if need > 1 else ''} (for example x{example})"
        )
    for x in bits(removed):
        if not opp >> x & 1:
            return f"{board.points[x]} holds no opponent piece to remove"
    protected = pieces_in_mills(board, opp)
    bad = [board.points[x] for x in bits(removed & protected)]
    if bad:
        return (
            f"{', '.join(bad)} stands in a mill and the opponent has pieces outside mills"
        )
    return "illegal removal"


def play(pos: Position, move: Move | str) -> Position:
    """The position after a legal move (raises :class:`IllegalMoveError` otherwise)."""
    turn = turn_of_move(pos, move)
    return _from_state(pos, child(*_state(pos), turn))


def play_turn(pos: Position, turn) -> Position:
    return _from_state(pos, child(*_state(pos), turn))


def perft(pos: Position, depth: int) -> int:
    """Number of sequences of ``depth`` turns from ``pos`` (game-over positions have no turns)."""
    return perft_state(pos.variant, *_state(pos), depth)


def perft_state(variant, mover, opp, mover_hand, opp_hand, depth):
    if depth == 0:
        return 1
    ts = turns(variant, mover, opp, mover_hand, opp_hand)
    if terminal(variant, mover, opp, mover_hand, opp_hand, any_turn=bool(ts)) is not None:
        return 0
    if depth == 1:
        return len(ts)
    return sum(
        perft_state(variant, *child(mover, opp, mover_hand, opp_hand, t)[0], depth - 1) for t in ts
    )


# ---------------------------------------------------------------------- games with history
@dataclass
class Game:
    """A game in progress: positions and moves so far, threefold repetition, no-removal limit.

    ``result`` is ``None`` while the game goes on, else ``'1-0'``, ``'0-1'`` or ``'1/2-1/2'``;
    ``reason`` says why."""

    start: Position
    moves: list[Move] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    no_removal_plies: int = 0

    def __post_init__(self):
        self.positions = [self.start]
        self._seen = Counter([self.start])

    @property
    def position(self) -> Position:
        return self.positions[-1]

    def legal_moves(self) -> list[Move]:
        return [] if self.result else legal_moves(self.position)

    def push(self, move: Move | str) -> Position:
        if self.result:
            raise IllegalMoveError(f"the game is over ({self.result}, {self.reason})")
        pos = self.position
        turn = turn_of_move(pos, move)
        nxt = play_turn(pos, turn)
        self.moves.append(move_of_turn(pos, turn))
        self.positions.append(nxt)
        self._seen[nxt] += 1
        if turn[2]:
            self.no_removal_plies = 0
        elif not pos.in_placement:
            self.no_removal_plies += 1
        return nxt

    def push_tokens(self, tokens) -> None:
        """Play Sanmill-style tokens, where a removal may come as its own token (``d2``,
        ``xa1``): a lone removal is glued to the move before it."""
        pending = None
        for tok in tokens:
            tok = tok.strip()
            if not tok:
                continue
            if tok.startswith("x"):
                if pending is None:
                    raise IllegalMoveError(f"removal {tok!r} follows no move that closed a mill")
                pending += tok
                continue
            if pending is not None:
                self.push(pending)
            pending = tok
        if pending is not None:
            self.push(pending)

    @property
    def result(self) -> str | None:
        return self._status()[0]

    @property
    def reason(self) -> str | None:
        return self._status()[1]

    def _status(self):
        pos = self.position
        value = outcome(pos)
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
        if self._seen[pos] >= 3:
            return "1/2-1/2", "threefold repetition"
        limit = pos.variant.rules.no_removal_limit
        if limit is not None and self.no_removal_plies >= limit:
            return "1/2-1/2", f"{limit} plies without a removal"
        return None, None
