"""The rules of the game on point masks, in plain Python: masks in, masks out.

This module is the reference: readable, and checked by the tests against docs/rules.md. It
imports only the variants; :class:`~morris.core.position.Position`, the game record
(:mod:`morris.core.game`) and the numba kernels (kernels/bitboard.py, which must agree with it move
for move) build on it.

The functions take the position from the side to move's point of view: ``mover`` and ``opp``
are point masks, ``mover_hand`` and ``opp_hand`` the pieces still in hand. A turn is
``(frm, to, removed)``: point indices (``frm == -1`` for a placement) and the mask of the removed
opponent pieces.
"""

from __future__ import annotations

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
    closed = 0
    for mill in board.point_mills[to]:
        if own_after & mill == mill:
            closed += 1
    return closed


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
    """Whether the side to move flies: with the flying rule, once placement is over, with
    exactly 3 pieces (under ``count_hand`` too: pieces move only once the hands are empty).
    Under ``place_or_move`` (Lasker Morris), pieces move at any time and the hand counts: a
    player with exactly 3 on the board and in hand together flies."""
    if not variant.rules.flying:
        return False
    if variant.rules.place_or_move:
        return popcount(mover) + mover_hand == FLY_AT
    return mover_hand == 0 and opp_hand == 0 and popcount(mover) == FLY_AT


def may_move(variant, mover_hand: int) -> bool:
    """Whether the side to move may move a piece on the board: once its hand is empty, or at
    any time under ``place_or_move``."""
    return mover_hand == 0 or variant.rules.place_or_move


def turns(variant, mover: int, opp: int, mover_hand: int, opp_hand: int):
    """Every legal turn ``(frm, to, removed)``, ignoring whether the game is already over."""
    board = variant.board
    empty = board.full & ~(mover | opp)
    out = []
    steps = [(-1, to) for to in bits(empty)] if mover_hand > 0 else []
    if may_move(variant, mover_hand):
        fly = flies(variant, mover, mover_hand, opp_hand)
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


def child(mover, opp, mover_hand, opp_hand, turn, alternate=False):
    """The position after ``turn`` as ``(state, switched)``: ``state`` from the point of view of
    the side to move next, ``switched`` False when the same side moves again.

    The side to move changes every turn, except that a player who still has pieces in hand
    keeps placing while the other player's hand is empty (this arises only from positions that
    strict alternation does not reach, such as teaching positions). With ``alternate`` (the
    place-or-move turn, where the other player can always move) it changes every turn."""
    frm, to, removed = turn
    after = mover | (1 << to)
    if frm >= 0:
        after ^= 1 << frm
    hand = mover_hand - 1 if frm < 0 else mover_hand
    if not (alternate or switches(hand, opp_hand)):
        return (after, opp & ~removed, hand, opp_hand), False
    return (opp & ~removed, after, opp_hand, hand), True


def play(variant, mover, opp, mover_hand, opp_hand, turn):
    """:func:`child` under the variant's rules."""
    return child(mover, opp, mover_hand, opp_hand, turn, variant.rules.place_or_move)


def switches(hand_after: int, opp_hand: int) -> bool:
    """Whether the turn passes to the other side after a turn that leaves the mover
    ``hand_after`` pieces in hand (see :func:`child`)."""
    return not (hand_after > 0 and opp_hand == 0)


def has_turns(variant, mover, opp, mover_hand, opp_hand) -> bool:
    """Whether the side to move has a legal turn (cheaper than listing them)."""
    board = variant.board
    empty = board.full & ~(mover | opp)
    if not empty:
        return False
    if mover_hand > 0 or flies(variant, mover, mover_hand, opp_hand):
        return True
    if not may_move(variant, mover_hand):
        return False
    adj = board.adjacency
    return any(adj[p] & empty for p in bits(mover))


def decided_by_count(mover, opp, mover_hand, opp_hand, count_hand=False):
    """The value for the side to move if the piece counts end the game, else ``None``: after
    placement a player with fewer than 3 pieces has lost (a draw if both have); with
    ``count_hand``, a player with fewer than 3 on the board and in hand together, at any time."""
    if count_hand:
        short_mover = mover.bit_count() + mover_hand < LOSE_BELOW
        short_opp = opp.bit_count() + opp_hand < LOSE_BELOW
    elif mover_hand or opp_hand:
        return None
    else:
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

    After placement a player with fewer than 3 pieces has lost (a draw if both have; see
    :func:`decided_by_count`); a player with no legal turn has lost, except on a full board
    under ``full_board="draw"``, a draw."""
    end = decided_by_count(mover, opp, mover_hand, opp_hand, variant.rules.count_hand)
    if end is not None:
        return end
    if any_turn is None:
        any_turn = has_turns(variant, mover, opp, mover_hand, opp_hand)
    if any_turn:
        return None
    if mover | opp == variant.board.full and variant.full_board_draws:
        return DRAW
    return LOSS


def perft_state(variant, mover, opp, mover_hand, opp_hand, depth):
    if depth == 0:
        return 1
    ts = turns(variant, mover, opp, mover_hand, opp_hand)
    if terminal(variant, mover, opp, mover_hand, opp_hand, any_turn=bool(ts)) is not None:
        return 0
    if depth == 1:
        return len(ts)
    return sum(
        perft_state(variant, *play(variant, mover, opp, mover_hand, opp_hand, t)[0], depth - 1)
        for t in ts
    )
