"""Draw values of one movement-phase pair, given its values (numba); docs/draws.md says what
they mean.

Every drawn position gets a *draw value* V (for the side to move, -100 .. 100): the best
settlement rank it can force. A game that stays drawn for ever stays, in the end, in one pair
(removals only go down), and staying in the pair of (m, o) is worth its *rank* r(m, o) to the side
with m pieces (r(o, m) = -r(m, o)); a removal into a drawn position of the pair below is an
*exit* worth minus the child's draw value. Both sides keep the draw (only drawn positions and
their drawn moves take part).

Inside the pair the solver works with the *excess* x = V - r of each position (its value above
its own side's rank). Because the two sides' ranks are opposite, a move into q gives the mover
-x(q) (negamax), an exit gives a fixed excess, and play that stays in the pair for ever gives 0.
So the pair is a graded win/loss retrograde, where "won at grade e" (an *attacker*, x = +e) means
the side to move can force leaving with at least e above its rank, and "lost at grade e" (a
*defender*, x = -e) the opponent can. Grades are taken from the largest down; each is a
retrograde of its own on the same state array and predecessor generator as the dtc retrograde
(retro.emit / retro.apply):

- ``count_draws``: for each drawn position, the number of its non-removal moves into drawn
  positions (the count: each child looked up in the sibling part's codes, ``mark_codes``, or
  all its moves counted and then, by one level of predecessors from the sibling's won
  positions, the moves into them taken off, whichever the part's draws and the sibling's wins
  say is cheaper) and ``exits[g]``: the key of its best exit (``key(x) = x + KEY0``; ``NONE``
  where it has no drawn removal), and the stored draw value of staying (its rank + DV0) in
  ``dv``; every other slot ends UNUSED (Lasker Morris's hand pairs count every move:
  kernels/hand.py);
- grade e: ``promote_draws`` decides at level 1 the undecided positions whose best exit is +e
  (attackers) and those whose best exit is -e and whose count is 0 (defenders); then the levels
  run as in the dtc retrograde, except that a defender whose count runs out waits while its best
  exit is better than -e (``retro.apply``'s gate); ``settle`` writes everything decided in the
  grade to the output (``dv``: rank ± e + DV0; ``dist``: the level, its *draw distance* D) and
  marks it UNUSED.

What is never decided has excess 0 (V = r, D = 0). D is the plies until the game leaves the pair
through an exit worth V (the side above its rank hurrying, the other delaying): the progress
measure that lets a player realise V and the verifier check it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.codes import DRAW, DV0, LOSS, UNUSED, WIN
from .hashing import slot_walk, walk_at, walk_on
from .jit import CHUNK, run_chunks
from .retro import BLOCK, COUNT_MAX, UNIT, decide_exit, fetch_kids
from .turns import END, every_child, kid_buffer, movement_children

_NJ = dict(cache=True, nogil=True)

#: no exit
NONE = 0xFFFF
#: the best exit's excess of a position without a drawn exit (below every excess)
NO_EXIT = -(1 << 30)
#: exit keys: key(x) = x + KEY0 (excess values lie in -2 * RANK_MAX .. 2 * RANK_MAX, codes.py)
KEY0 = 256


def count_draws(T, Ob, R, m, o, off, slots, rank, vals, st, sib, exits, dv, child_vals,
                child_dv, lo_blk, hi_blk, wins, errors):
    """Counts and best exits for the blocks [lo_blk, hi_blk) of part (m, o) (rank ``rank``);
    ``vals``: the part's values (its own slots, from ``off``); ``dv`` gets the stored draw value
    of staying (rank + DV0) for each draw, 0 elsewhere; ``child_vals`` / ``child_dv``: the value and
    stored draw-value planes of subspace (o-1, m). The count of a drawn position, two ways:

    - ``sib`` empty: all its non-removal moves, by popcounts; a level of predecessors from the
      sibling part's won positions then takes off the moves into them (``retro.apply``);
    - ``sib``: the state array's slots of the sibling part (o, m), where the quiet moves lead,
      their codes set (``mark_codes``): its moves into drawn positions (code 0), each child
      looked up (fetched one position ahead). Its cost goes with the part's draws, the other's
      with the sibling's wins, which the caller weighs.

    A drawn position without a drawing move (none of its moves into a draw) is an error. The
    won positions are marked WIN at level 0 (``wins[b]``: the block holds one; they leave the
    state array before the grades); lost and unused slots are UNUSED. ``R``: the game's rules
    (games.KernelRules)."""
    end = off + slots
    flying = R.flying

    def run(bi):
        _draws_block(T, Ob, flying, m, o, off, rank, vals, st, sib, sib.shape[0] > 0, exits, dv,
                     child_vals, child_dv, lo_blk, wins, errors, end, bi, kid_buffer(),
                     kid_buffer(), kid_buffer(), kid_buffer())

    run_chunks(hi_blk - lo_blk, run)


@njit(parallel=True, **_NJ)
def mark_codes(vals, st, off):
    """``st[off:]`` gets the codes of ``vals`` (a part's values): a draw 0 (undecided), a win
    WIN, a loss or an unused value UNUSED: what ``count_draws`` reads of the sibling part."""
    for i in prange(vals.shape[0]):
        v = vals[i]
        st[off + i] = np.uint16(0 if v == DRAW else (WIN if v == WIN else UNUSED))


@njit(**CHUNK)
def _draws_block(T, Ob, flying, m, o, off, rank, vals, st, sib, direct, exits, dv, child_vals,
                 child_dv, lo_blk, wins, errors, end, bi, kids, back, quiet, qback):
    """One block of ``count_draws``: as in ``retro._count_block``, a drawn position's children
    are fetched while the next one's are generated (``back`` and ``qback`` hold the removal and
    quiet children of the position waiting, ``pg``)."""
    b = lo_blk + bi
    has_win = False
    g0 = b * BLOCK
    g1 = min(g0 + BLOCK, end)
    w = slot_walk(T, Ob, m, o, g0 - off)
    pg = -1
    nq = nk = pnq = pnk = 0
    for g in range(g0, g1 + 1):
        if g < g1:
            M, O, used = walk_at(T, m, o, w)
            w = walk_on(T, Ob, m, o, w)
            v = start_slot(st, exits, dv, g, used, vals[g - off], rank)
            if v != DRAW:
                has_win |= v == WIN
                continue
            if direct:
                _, nq, nk = every_child(T, Ob, flying, m, o, M, O, kids, quiet)
                fetch_kids(quiet, nq, sib)
            else:
                _, nq, nk = movement_children(T, Ob, flying, m, o, M, O, kids)
            fetch_kids(kids, nk, child_vals)
            fetch_kids(kids, nk, child_dv)
        if pg >= 0:
            best = NO_EXIT
            for i in range(pnk):
                j = back[i]
                if j != END and child_vals[j] == DRAW:  # (END wins: never a drawn position's)
                    x = -(np.int64(child_dv[j]) - DV0) - rank
                    if x > best:
                        best = x
            drawn = pnq
            if direct:
                drawn = 0
                for i in range(pnq):
                    drawn += (sib[qback[i]] & 3) == 0
            if direct and drawn == 0 and best == NO_EXIT:  # no move keeps the draw
                errors[bi % errors.shape[0]] += 1
            put_count(st, exits, errors, pg, bi, drawn, best, KEY0)
        pg, pnq, pnk = g, nq, nk
        kids, back = back, kids
        quiet, qback = qback, quiet
    wins[b] = has_win


@njit(inline="always", **_NJ)
def start_slot(st, exits, dv, g, used, v, rank):
    """Slot g of a draw-value count, of value ``v``: no exit yet and a draw value of 0; a lost
    or unused slot leaves the state array (UNUSED), a won one is WIN at level 0 (its
    predecessors lose a move into it), a drawn one gets the draw value of staying (``rank`` +
    DV0) and waits for its count. Returns DRAW, WIN, or LOSS for the rest."""
    exits[g] = NONE
    dv[g] = 0
    if not used or v == LOSS:
        st[g] = UNUSED
        return LOSS
    if v == WIN:
        st[g] = WIN
        return WIN
    dv[g] = rank + DV0
    return DRAW


@njit(inline="always", **_NJ)
def put_count(st, exits, errors, g, bi, quiet, best, key0):
    """A drawn position's count of ``quiet`` moves into ``st[g]`` (``errors`` counts one above
    ``COUNT_MAX``) and the key of its best exit, of excess ``best`` (``NO_EXIT``: none, and
    ``exits[g]`` stays ``NONE``), into ``exits[g]`` (block ``bi``'s count of the errors)."""
    if quiet > COUNT_MAX:
        errors[bi % errors.shape[0]] += 1
    st[g] = quiet << 2
    if best != NO_EXIT:
        exits[g] = best + key0


@njit(parallel=True, **_NJ)
def promote_draws(st, exits, e, sflags_up, sflags_down, flags):
    """Grade ``e``: decide at level 1 the undecided positions whose best exit has excess +e
    (attackers, WIN) and those whose best exit has -e and whose count is 0 (defenders, LOSS).
    ``sflags_up`` / ``sflags_down``: the blocks holding those exit keys; ``flags`` gets the
    units (``UNIT`` slots) touched."""
    up = e + KEY0
    down = -e + KEY0
    for b in prange(sflags_up.shape[0]):
        if not (sflags_up[b] or sflags_down[b]):
            continue
        for g in range(b * BLOCK, min((b + 1) * BLOCK, st.shape[0])):
            k = exits[g]
            if k == up or k == down:
                decide_exit(st, g, 1, k == up, flags)


@njit(parallel=True, **_NJ)
def settle(st, e, touched, dv, dist, off1, rank0, rank1, errors):
    """End of grade ``e``: every slot decided in it (in the ``touched`` units of ``UNIT`` slots)
    gets the stored draw value of excess +e (WIN) or -e (LOSS) above its part's rank
    (``rank0``; ``rank1`` from slot ``off1`` on) and its level as distance (``errors`` counts
    levels past 255), and leaves the state array (UNUSED). With ``e`` 0 (the won positions
    after the count) slots only leave."""
    for u in prange(touched.shape[0]):
        if not touched[u]:
            continue
        for g in range(u * UNIT, min((u + 1) * UNIT, st.shape[0])):
            v = np.int64(st[g])
            code = v & 3
            if code == WIN or code == LOSS:
                st[g] = UNUSED
                if e == 0:
                    continue
                rank = rank0 if g < off1 else rank1
                dv[g] = (e if code == WIN else -e) + rank + DV0
                if (v >> 2) > 255:
                    errors[u % errors.shape[0]] += 1
                dist[g] = min(v >> 2, 255)
