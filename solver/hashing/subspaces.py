"""Subspaces and the graph between them: the one place that knows which subspace a move leads to.

A subspace is named by the pieces on the board and in hand, from the side to move's view:

- movement phase ``m-o``: m pieces of the side to move, o of the opponent, nothing in hand
  (``3-3`` ... ``9-9`` for the standard game);
- placement phase ``m-o+hm+ho``: the same, then the pieces in hand of the side to move and of
  the opponent (``5-4+4+4``: 5 and 4 on the board, 4 and 4 in hand).

Movement subspaces are solved in pairs ((m, o) with (o, m), whose non-removal moves lead into
each other); a removal leads from (m, o) to (o - 1, m), the game ending when that has fewer than
3. Placement subspaces form layers (pieces placed so far); each placement leads to the next
layer or, after the last one, to the movement phase. Every solver, the verifier and the
scheduler read this graph from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import UsageError
from ..core.rules import switches
from ..core.variants import FLY_AT, LOSE_BELOW

_NAME_RE = re.compile(r"^([0-9]+)-([0-9]+)(?:\+([0-9]+)\+([0-9]+))?$")


@dataclass(frozen=True, order=True)
class Subspace:
    """A subspace key: pieces of the mover and opponent on the board, then in hand."""

    m: int
    o: int
    hm: int = 0
    ho: int = 0

    @property
    def name(self) -> str:
        if self.hm == 0 and self.ho == 0:
            return f"{self.m}-{self.o}"
        return f"{self.m}-{self.o}+{self.hm}+{self.ho}"

    def __str__(self):
        return self.name

    @property
    def placement(self) -> bool:
        return self.hm > 0 or self.ho > 0

    @classmethod
    def parse(cls, name: str) -> "Subspace":
        m = _NAME_RE.match(name)
        if not m:
            raise UsageError(
                f"bad subspace name {name!r}: expected M-O (movement, e.g. 9-8) or M-O+HM+HO "
                f"(placement: on the board, then in hand, e.g. 5-4+4+4)"
            )
        vals = [int(x) if x is not None else 0 for x in m.groups()]
        return cls(*vals)

    @property
    def sibling(self) -> "Subspace":
        """Movement phase: the subspace a non-removal move leads to (colours swap)."""
        return Subspace(self.o, self.m, self.ho, self.hm)

    @property
    def pair(self) -> tuple["Subspace", ...]:
        """The subspaces solved together: (m, o) and (o, m), or (m, m) alone."""
        if self.m == self.o and self.hm == self.ho:
            return (self,)
        return tuple(sorted((self, self.sibling), reverse=True))


def movement_subspaces(variant, max_pieces: int | None = None) -> list[Subspace]:
    """The movement-phase subspaces with 3..pieces a side (up to ``max_pieces``)."""
    top = variant.pieces if max_pieces is None else min(max_pieces, variant.pieces)
    return [Subspace(m, o) for m in range(LOSE_BELOW, top + 1) for o in range(LOSE_BELOW, top + 1)]


def placement_subspaces(variant) -> list[Subspace]:
    """Placement subspaces that play from the start position can reach: the side to move has
    as many pieces in hand as the opponent (white to move) or one more (black to move), and each
    side has at most ``pieces - in hand`` on the board. Under ``count_hand`` the games that the
    piece counts have ended (fewer than 3 on the board and in hand) are left out."""
    N = variant.pieces
    n = variant.board.n
    count_hand = variant.rules.count_hand
    out = []
    for ho in range(0, N + 1):
        for hm in (ho, ho + 1):
            if hm < 1 or hm > N:
                continue
            for m in range(0, N - hm + 1):
                for o in range(0, N - ho + 1):
                    sub = Subspace(m, o, hm, ho)
                    if m + o <= n and not (count_hand and ended_by_count(sub)):
                        out.append(sub)
    return out


def ended_by_count(sub: Subspace) -> bool:
    """Whether a side has fewer than 3 pieces on the board and in hand together."""
    return min(sub.m + sub.hm, sub.o + sub.ho) < LOSE_BELOW


def child_counts(child: Subspace, movement: bool, count_hand: bool) -> tuple:
    """How a placement's kernels see a child subspace (from ``placement_children``): (the
    mover's pieces on the board, the opponent's, 1 if the placement phase is over, 1 if the
    counts may end the game there, the mover's count and the opponent's that decide it). The
    counts that decide are those on the board, with the hands under ``count_hand`` (which
    decides in placement too)."""
    if count_hand:
        return (child.m, child.o, int(movement), 1, child.m + child.hm, child.o + child.ho)
    return (child.m, child.o, int(movement), int(movement), child.m, child.o)


# ------------------------------------------------------------------------ movement graph
def removal_child(sub: Subspace) -> Subspace | None:
    """Movement phase: the subspace a removal leads to, seen from the side to move next (None:
    the game ends there, the opponent being left with fewer than 3)."""
    child = Subspace(sub.o - 1, sub.m)
    return child if child.m >= LOSE_BELOW else None


def full_board_draws(variant, sub: Subspace) -> bool:
    """Whether the movement subspace ``sub`` fills the board (every position blocked) under the
    rule that a full board is a draw (not a loss): every position of it is then drawn, with dtw
    0 and draw value 0, the value of a game the rules end drawn."""
    return sub.m + sub.o == variant.board.n and variant.full_board_draws


def pair_children(top: Subspace) -> dict:
    """For each subspace of the pair of ``top``, the subspace its removals lead to (or None)."""
    return {sub: removal_child(sub) for sub in top.pair}


def opponent_flies(variant, sub: Subspace) -> bool:
    """Whether the opponent of the side to move in ``sub`` flies (the mover of the positions
    that lead into it by a move): 3 pieces, counted with the hand under the place-or-move turn."""
    if not variant.rules.flying:
        return False
    if variant.rules.place_or_move:
        return sub.o + sub.ho == FLY_AT
    return sub.o == FLY_AT and sub.hm == 0 and sub.ho == 0


# ------------------------------------------------------------------------ Lasker Morris's graph
#: the kinds of a hand pair's exits (kernels/hand._sweep_kids): a slide that removes, then a
#: placement removing 0, 1 or 2 pieces
SLIDE_REMOVES, PLACE = 0, 1
HAND_KINDS = 4


def hand_subspaces(variant) -> list[Subspace]:
    """The subspaces of the place-or-move game (Lasker Morris) with a piece in some hand: any
    hands (a player may move instead of placing), each side with 3 to ``pieces`` on the board
    and in hand together, the board not overfull."""
    N = variant.pieces
    n = variant.board.n
    out = []
    for hm in range(N + 1):
        for ho in range(N + 1):
            if hm + ho == 0:
                continue
            for m in range(max(0, LOSE_BELOW - hm), N - hm + 1):
                for o in range(max(0, LOSE_BELOW - ho), N - ho + 1):
                    if m + o <= n:
                        out.append(Subspace(m, o, hm, ho))
    return out


def hand_children(sub: Subspace, dm: int) -> list:
    """For each exit kind of a hand pair's part ``sub`` (:data:`HAND_KINDS`), the subspace it
    leads to, seen from the side to move next, or None (no such turn, or the game ends there:
    the opponent is left fewer than 3 on the board and in hand)."""
    out = [None] * HAND_KINDS
    m, o, hm, ho = sub.m, sub.o, sub.hm, sub.ho
    if m >= 3 and o >= 1 and o - 1 + ho >= LOSE_BELOW:  # a slide closes a mill and removes
        out[SLIDE_REMOVES] = Subspace(o - 1, m, ho, hm)
    if hm > 0:
        top = 0 if m + 1 < 3 else min(o, 1 if dm == 1 else 2)
        for k in range(top + 1):
            if k == 0 or o - k + ho >= LOSE_BELOW:
                out[PLACE + k] = Subspace(o - k, m + 1, ho, hm - 1)
    return out


def check_hand(variant, sub: Subspace) -> None:
    """Raise UsageError naming the problem when ``sub`` is not a subspace of the place-or-move
    game with a piece in hand."""
    N = variant.pieces
    if not sub.placement:
        raise UsageError(f"{sub} is a movement subspace")
    if sub.m + sub.hm > N or sub.o + sub.ho > N:
        raise UsageError(f"subspace {sub} is outside {variant.name}: each side has {N} pieces, on the "
                         f"board and in hand together")
    if sub.m + sub.o > variant.board.n:
        raise UsageError(f"subspace {sub}: {sub.m + sub.o} pieces do not fit on {variant.board.n} points")
    if ended_by_count(sub):
        raise UsageError(f"subspace {sub}: a side has fewer than {LOSE_BELOW} pieces on the board and "
                         f"in hand, so the game is over there (nothing to solve)")


def pair_key(sub: Subspace) -> Subspace:
    """The top subspace naming the movement pair that contains ``sub``."""
    return sub.pair[0]


def pair_dependencies(top: Subspace) -> list[Subspace]:
    """Pairs (by top subspace) that the pair of ``top`` reads."""
    out = []
    for child in pair_children(top).values():
        if child is not None and pair_key(child) not in out:
            out.append(pair_key(child))
    return out


def check_movement(variant, sub: Subspace) -> None:
    """Raise UsageError (a ValueError) naming the problem when ``sub`` is not a movement subspace of ``variant``."""
    if sub.placement:
        raise UsageError(f"{sub} is a placement subspace")
    if not (LOSE_BELOW <= sub.m <= variant.pieces and LOSE_BELOW <= sub.o <= variant.pieces):
        raise UsageError(
            f"subspace {sub} is outside {variant.name}: movement subspaces have "
            f"{LOSE_BELOW}..{variant.pieces} pieces a side"
        )


def check_placement(variant, sub: Subspace) -> None:
    """Raise UsageError (a ValueError) naming the problem when ``sub`` is not a placement subspace of ``variant``."""
    if variant.rules.place_or_move:
        return check_hand(variant, sub)
    N = variant.pieces
    if not sub.placement:
        raise UsageError(f"{sub} is a movement subspace")
    if sub.hm < 1 or sub.hm > N or sub.ho > N or sub.m + sub.hm > N or sub.o + sub.ho > N:
        raise UsageError(
            f"subspace {sub} is outside {variant.name}: each side has {N} pieces, on the board "
            f"and in hand together, and the side to move has at least one in hand"
        )
    if sub.m + sub.o > variant.board.n:
        raise UsageError(f"subspace {sub}: {sub.m + sub.o} pieces do not fit on {variant.board.n} points")
    if variant.rules.count_hand and ended_by_count(sub):
        raise UsageError(f"subspace {sub}: a side has fewer than {LOSE_BELOW} pieces on the board and "
                         f"in hand, so the game is over there (nothing to solve)")


# ------------------------------------------------------------------------ placement graph
def placement_children(sub: Subspace, dm: int) -> dict:
    """k (pieces removed) -> (child subspace, movement?) for each k a placement in ``sub`` can
    remove (``dm``: pieces a double mill removes). The child is seen from the side to move next
    (the same side again when it still has pieces in hand and the other has none)."""
    out = {}
    hand = sub.hm - 1
    switched = switches(hand, sub.ho)
    top = 0 if sub.m + 1 < 3 else min(sub.o, 1 if dm == 1 else 2)
    for k in range(0, top + 1):
        if switched:
            child = Subspace(sub.o - k, sub.m + 1, sub.ho, hand)
        else:
            child = Subspace(sub.m + 1, sub.o - k, hand, sub.ho)
        out[k] = (child, child.hm == 0 and child.ho == 0)
    return out


def reads_file(child: Subspace, movement: bool, count_hand: bool = False) -> bool:
    """Whether a placement subspace reads the file of this child (from ``placement_children``):
    every child where both sides have 3 pieces or more (counting the hands under
    ``count_hand``; else placement children whatever their counts): with fewer the game is
    over and nothing needs reading."""
    if count_hand:
        return not ended_by_count(child)
    return not movement or (child.m >= LOSE_BELOW and child.o >= LOSE_BELOW)


def placement_inputs(sub: Subspace, dm: int, count_hand: bool = False) -> list[Subspace]:
    """The subspaces whose files a placement subspace reads."""
    out = []
    for child, movement in placement_children(sub, dm).values():
        if reads_file(child, movement, count_hand) and child not in out:
            out.append(child)
    return out


def layer(variant, sub: Subspace) -> int:
    """Pieces placed so far (by both sides)."""
    return 2 * variant.pieces - sub.hm - sub.ho


def placement_closure(variant, targets) -> list[Subspace]:
    """The placement subspaces the targets need (themselves included), last layer first."""
    dm = variant.rules.double_mill_removes
    seen = set()
    stack = list(targets)
    while stack:
        s = stack.pop()
        if s in seen or not s.placement:
            continue
        seen.add(s)
        for c, mv in placement_children(s, dm).values():
            if reads_file(c, mv, variant.rules.count_hand) and not mv:
                stack.append(c)
    return sorted(seen, key=lambda s: (-layer(variant, s), s))
