"""The solver's turn generator (numba): the one place where the solving kernels learn the turns of
a position and where its children lie in the perfect hash.

Every forward step of the solver goes through here: the count phases of the values, dtw and
draw-value passes (``movement_children``), the wins of a pruned dtw file (``every_child``),
the placement search (``placements``), and the placement sweep and Lasker Morris's hand
counts (the same turns split: ``mill_points``, ``mill_placements``; kernels/hand.py). The
backward step (un-moves, ``retro.emit``) is the only other statement of the movement rules in
the solver. The verifier does not use this module: it takes its turns from
``bitboard.gen_turns`` and its slots from ``hashing.index_one`` (tests/test_architecture.py
checks that it imports nothing of the solver), so the two routes check each other.

Contracts (arrays and scalars in, a buffer the caller owns written):

- ``movement_children(T, Ob, flying, m, o, M, O, kids)`` for a movement position of subspace
  (m, o) (mover mask ``M``, opponent mask ``O``): returns ``(moves, quiet, nkids)``. ``moves``
  counts every slide (or flight, when the mover flies); ``quiet`` those that close no mill,
  whose children lie in the sibling subspace (o, m) and which the retrograde reaches backwards;
  ``kids[:nkids]`` are the children of the moves that close a mill, one per piece the mover may
  remove: the child's slot in subspace (o - 1, m), or ``END`` when the removal leaves the
  opponent too few pieces (the turn ends the game, won for the mover).
- ``every_child(T, Ob, flying, m, o, M, O, kids, quiet_kids)``: the same, and the quiet moves'
  children too, their slots in (o, m) in ``quiet_kids[:quiet]`` (the one forward pass over
  every move: a pruned dtw file's wins, ``dtw.won_dtw``).
- ``placements(T, dm, M, O, closed, rows)`` for a placement turn (the mover has a piece in hand;
  ``closed``: the mills a placement on each point closes, kept per mover mask by the sweep, or
  ``NO_TABLE``):
  returns the number of turns, written as turn rows ``(-1, to, removed)`` like
  ``bitboard.gen_turns``': the point placed on and the mask of the pieces removed (0 for none),
  one row per set of pieces the rules let it remove (``bitboard.removal_turns``).
- ``mill_points(free, closed)`` and ``mill_placements(T, dm, O, mills, closed, rows)``: the
  same turns split, for the sweep: the rows of the placements that close a mill, on the points
  ``mills``; every other empty point is one quiet placement.

The rules themselves (which mills a move closes, which pieces may be removed, who flies) are the
primitives of ``bitboard.py``, shared with the verifier's generator: a rule is stated once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.codes import LOSE_BELOW
from .bitboard import NO_TABLE  # noqa: F401 (for callers)
from .bitboard import (MAX_TURNS, closing_sources, flies, mill_targets, placement_turns, removable,
                       removal_turns)
from .bits import ctz, popcount
from .hashing import anchor, colex_rank, compress, free_bit, ranked, sym_image

_NJ = dict(cache=True, nogil=True)

#: a removal child that is no position: the turn ends the game (won for the side that moved)
END = -1
#: room for the removal children of one movement position, or the placement turns of one
MAX_KIDS = MAX_TURNS


def kid_buffer():
    """A buffer for ``movement_children`` (a kernel allocates one per chunk, outside the chunk
    function, which cannot allocate: kernels/jit.py)."""
    return np.empty(MAX_KIDS, dtype=np.int64)


@njit(inline="always", **_NJ)
def movement_children(T, Ob, flying, m, o, M, O, kids):
    """(moves, quiet, nkids) of movement position (M, O) of subspace (m, o); the removal
    children's slots in (o - 1, m), or END, in ``kids[:nkids]`` (module docstring)."""
    return slide_children(T, Ob, flies(flying, M, 0, 0), o - 1 < LOSE_BELOW, m, o, M, O, kids)


@njit(inline="always", **_NJ)
def slide_children(T, Ob, fly, ends, m, o, M, O, kids):
    """``movement_children`` with who flies (``fly``) and whether a removal ends the game
    (``ends``) given: the slides (or flights) of any position, hands or not."""
    return _slides(T, Ob, fly, ends, m, o, M, O, kids, kids, False)


@njit(inline="always", **_NJ)
def every_child(T, Ob, flying, m, o, M, O, kids, quiet_kids):
    """``movement_children``, and the children of the quiet moves too: their slots in the
    sibling subspace (o, m) in ``quiet_kids[:quiet]`` (a forward pass over every move: the
    wins' dtw of a pruned dtw file, prune.py)."""
    return _slides(T, Ob, flies(flying, M, 0, 0), o - 1 < LOSE_BELOW, m, o, M, O, kids,
                   quiet_kids, True)


@njit(inline="always", **_NJ)
def _slides(T, Ob, fly, ends, m, o, M, O, kids, quiet_kids, with_quiet):
    """The one loop over the slides of (M, O) behind ``slide_children`` and ``every_child``
    (``with_quiet``, a constant where it is inlined: the quiet children's slots). The moves
    are counted by popcounts; only the points where a move may close a mill
    (``bitboard.mill_targets``) are visited, each for the pieces whose move there closes one
    (``closing_sources``): a test per move (``closed_mills``) cost the count pass a third of
    its time (standard 7-5: 177 against 112 ns a position). With ``with_quiet`` every empty
    point is visited, for its quiet moves too."""
    empty = T.full & ~(M | O)
    cblock = T.binom[T.n - m, o - 1]
    if fly:
        moves = popcount(M) * popcount(empty)
    else:
        moves = 0
        src = M
        while src:
            fb = src & -src
            src ^= fb
            moves += popcount(T.adj[ctz(fb)] & empty)
    # (a mill with nothing to remove, when the opponent has no piece, is a quiet move)
    mills = mill_targets(T, M, empty) if O else 0
    rm = removable(T, O) if mills else 0
    closing = 0
    nk = 0
    q = 0  # the quiet children written (with_quiet)
    tg = empty if with_quiet else mills
    while tg:
        tb = tg & -tg
        tg ^= tb
        to = ctz(tb)
        srcs = M if fly else (T.adj[to] & M)
        cl = closing_sources(T, M, to, srcs) if tb & mills else 0
        if with_quiet:
            qs = srcs & ~cl
            while qs:
                fb = qs & -qs
                qs ^= fb
                orb, s, rep, stab = anchor(T, Ob, m, (M ^ fb) | tb)
                quiet_kids[q] = orb * T.binom[T.n - m, o] + ranked(
                    T, s, rep, stab, sym_image(T, s, O))
                q += 1
        closing += popcount(cl)
        while cl:
            fb = cl & -cl
            cl ^= fb
            if ends:
                kids[nk] = END
                nk += 1
                continue
            orb, s, rep, stab = anchor(T, Ob, m, (M ^ fb) | tb)
            base = orb * cblock
            r = rm
            if stab == 1:
                # each child's opponent mask, mapped and compressed onto the anchor's free
                # points, is the position's with one bit less (``free_bit``): one compress a
                # move, not one a removal
                free = T.full & ~rep
                cO = compress(T, sym_image(T, s, O), free)
                while r:
                    xb = r & -r
                    r ^= xb
                    kids[nk] = base + colex_rank(T, cO ^ free_bit(free, T.sym_point[s, ctz(xb)]))
                    nk += 1
                continue
            while r:
                xb = r & -r
                r ^= xb
                kids[nk] = base + ranked(T, s, rep, stab, sym_image(T, s, O ^ xb))
                nk += 1
    return moves, moves - closing, nk


@njit(inline="always", **_NJ)
def placements(T, dm, M, O, closed, rows):
    """Number of placement turns of the mover (masks ``M``, ``O``), written into ``rows`` as
    (-1, to, removed) (module docstring); ``dm``: pieces removed by a double mill; ``closed``:
    the mills a placement on each point closes for this ``M`` (a table the sweep keeps per mover
    mask), or ``NO_TABLE``. A placement is the same turn for the solver and the verifier:
    ``bitboard.placement_turns`` states it."""
    return placement_turns(T, dm, M, O, closed, rows)


@njit(inline="always", **_NJ)
def mill_points(free, closed):
    """The points of ``free`` where a placement closes a mill, for a mover mask whose placements
    close ``closed[q]`` mills on each free point q (the table the sweep keeps per mover mask)."""
    out = 0
    f = free
    while f:
        qb = f & -f
        f ^= qb
        if closed[ctz(qb)]:
            out |= qb
    return out


@njit(inline="always", **_NJ)
def mill_placements(T, dm, O, mills, closed, rows):
    """The placement turns that close a mill, as ``placements`` writes them (rows (-1, to,
    removed), one per set of pieces the rules let it remove), for the empty points ``mills`` of
    ``mill_points``; returns how many. With them, one quiet placement (nothing removed) on each
    other empty point makes ``placements``' turns, in another order: the sweep takes the turns
    that close a mill first and walks the quiet points itself (tests/test_movegen.py checks the
    two sets equal against rules.py)."""
    n = 0
    e = mills
    while e:
        qb = e & -e
        e ^= qb
        q = ctz(qb)
        n = removal_turns(T, dm, O, -1, q, closed[q], rows, n)
    return n
