"""Forward consistency check of stored values (numba). Shares no code with the solver's kernels:
its turns come from ``bitboard.gen_turns`` and ``apply_turn``, its slots from
``hashing.index_one`` (the solver's from ``turns.py``; tests/test_architecture.py keeps it so).

For every position it generates the moves, looks up each result's stored value and distance,
and recomputes what the position must be: a win in the least dtc over winning moves, else a
draw if some move draws, else a loss in the largest dtc (a removal counts 1; no move at all is a
loss in 0). Stored values that satisfy this everywhere are exactly right (the distances make
every win and loss well founded).

Under a no-removal limit L (``limit`` >= 0; -1 without one) the files hold values at counter 0
and distances under the limit: a move without removal leads to counter 1, where a win or loss
of distance above L - 1 is a draw (limits.py); removals lead to counter 0 as always.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.codes import DRAW, DV0, LOSE_BELOW, LOSS, ONGOING, WIN
from .bitboard import apply_turn, count_result, gen_turns, turn_rows
from .bits import popcount
from .hashing import index_one, unindex_one
from .jit import CHUNK, run_spans

_NJ = dict(cache=True, nogil=True)
BIG = 1 << 30


@njit(inline="always", **_NJ)
def minimax(moves, best_win, draw, worst_loss):
    """(value, dtc) of a position from its moves: the quickest win, else a draw, else the
    slowest loss (a position with no move is lost in 0)."""
    if moves == 0:
        return LOSS, 0
    if best_win < BIG:
        return WIN, best_win
    if draw:
        return DRAW, 0
    return LOSS, worst_loss


def check_movement(T, Ob, flying, m, o, vals, dtc, sib_vals, sib_dtc, child_vals, child_dist,
                   slots, bad_count, bad_first, limit, blocked_draw, derive=False):
    """Check the slots ``slots`` (increasing) of subspace (m, o). ``sib_*``: planes of (o, m);
    ``child_vals``: values of (o-1, m); ``limit``: the no-removal limit, -1 for none;
    ``blocked_draw``: a position without a move is a draw (the board is full, and the rules
    make a full board a draw), not a loss. Per chunk: mismatches and the first mismatching slot.

    The distance checked is dtc when ``child_dist`` is empty (a removal is a conversion: 1),
    and dtw when it holds the dtw plane of (o-1, m) (``dtc``/``sib_dtc`` then the dtw planes of
    the pair): a removal then counts 1 + the distance of the position it leads to.

    ``derive``: write the distance of each win into ``dtc`` instead of checking it (a pruned dtw
    file's wins, from the children's losses; a win the moves do not make one is a mismatch)."""
    ends = o - 1 < LOSE_BELOW
    run_spans(bad_count.shape[0], 0, slots.shape[0], lambda c, a, b: _check_movement_chunk(
        T, Ob, flying, m, o, vals, dtc, sib_vals, sib_dtc, child_vals, child_dist, slots,
        bad_count, bad_first, limit, blocked_draw, ends, derive, c, a, b, turn_rows()))


@njit(**CHUNK)
def _check_movement_chunk(T, Ob, flying, m, o, vals, dtc, sib_vals, sib_dtc, child_vals,
                          child_dist, slots, bad_count, bad_first, limit, blocked_draw, ends,
                          derive, c, a, b, turns):
    """One chunk of ``check_movement``."""
    nbad = 0
    first = -1
    for t in range(a, b):
        i = slots[t]
        M, O, used = unindex_one(T, Ob, m, o, i)
        if not used:
            continue
        best_win = BIG
        worst_loss = -1
        draw = False
        moves = gen_turns(T, flying, 1, M, O, 0, 0, turns)
        for u in range(moves):
            removed = turns[u, 2]
            if removed != 0 and ends:
                best_win = 1
                continue
            cM, cO, _, _, _ = apply_turn(M, O, 0, 0, turns[u, 0], turns[u, 1], removed)
            j = index_one(T, Ob, cM, cO)
            if removed == 0:
                v = sib_vals[j]
                d = np.int64(sib_dtc[j]) + 1
                if limit >= 0 and d > limit:
                    v = DRAW  # at counter 1 the limit comes first
            else:
                v = child_vals[j]
                d = 1 if child_dist.shape[0] == 0 else np.int64(child_dist[j]) + 1
            if v == LOSS:
                best_win = min(best_win, d)
            elif v == DRAW:
                draw = True
            else:
                worst_loss = max(worst_loss, d)
        ev, ed = minimax(moves, best_win, draw, worst_loss)
        if moves == 0 and blocked_draw:
            ev = DRAW
        sv = vals[i]
        if derive:
            if sv != WIN:
                continue
            if ev == WIN:
                dtc[i] = ed
        ok = sv == ev and (ev == DRAW or np.int64(dtc[i]) == ed)
        if not ok:
            nbad += 1
            if first < 0:
                first = i
    bad_count[c] = nbad
    bad_first[c] = first


def check_placement(T, Ob, flying, count_hand, dm, m, o, hm, ho, slots, vals, dtc, cinfo, v0, d0, v1, d1, v2, d2,
                    bad_count, bad_first, mode, derive=False):
    """Check the placement slots ``slots`` of subspace (m, o, hm, ho) the plain way, in slot
    order, sharing nothing with the sweep's evaluation (kernels/placement.py): the generic turn
    generator, each child made by ``apply_turn``, its slot by ``index_one``, its value and
    distance read from unpacked planes (``v_k``/``d_k``: the child after a turn removing k
    pieces; ``cinfo[k]`` = its (mover, opponent, mover's hand, opponent's hand) as seen there).
    A child whose counts are not ``cinfo[k]`` counts as a mismatch. The piece counts end the
    game once placement is over, or at any time with ``count_hand`` (board and hand together).
    ``mode`` says what ``dtc`` and every ``d_k`` hold: 0 dtc (a removal or the end of placement counts 1, another move
    1 + its child's), 1 dtw (every move 1 + its child's), 2 stored draw values (a draw's is the
    best over its drawing moves of the child's, negated when the turn passes, a game the rules
    end drawn counting 0; 0 for a non-draw). ``derive`` (mode 1): write each win's dtw into
    ``dtc`` instead of checking it, as ``check_movement`` does."""
    dtw = mode == 1
    run_spans(bad_count.shape[0], 0, slots.shape[0], lambda c, a, b: _check_placement_chunk(
        T, Ob, flying, count_hand, dm, m, o, hm, ho, slots, vals, dtc, cinfo, v0, d0, v1, d1, v2,
        d2, bad_count, bad_first, mode, dtw, derive, c, a, b, turn_rows()))


@njit(**CHUNK)
def _check_placement_chunk(T, Ob, flying, count_hand, dm, m, o, hm, ho, slots, vals, dtc, cinfo,
                           v0, d0, v1, d1, v2, d2, bad_count, bad_first, mode, dtw, derive, c,
                           a, b, turns):
    """One chunk of ``check_placement``."""
    nbad = 0
    first = -1
    for t in range(a, b):
        i = slots[t]
        M, O, used = unindex_one(T, Ob, m, o, i)
        if not used:
            continue
        nt = gen_turns(T, flying, dm, M, O, hm, ho, turns)
        best_win = BIG
        worst_loss = -1
        draw = False
        sound = True
        best_dv = -BIG
        for u in range(nt):
            removed = turns[u, 2]
            M2, O2, mh2, oh2, sw = apply_turn(M, O, hm, ho, turns[u, 0], turns[u, 1], removed)
            k = popcount(removed)
            pm = popcount(M2)
            po = popcount(O2)
            moved = mh2 == 0 and oh2 == 0
            if count_hand:
                r = count_result(pm + mh2, po + oh2)
            else:
                r = count_result(pm, po) if moved else ONGOING
            if r != ONGOING:
                v = np.int64(r)
                d = np.int64(0)
            else:
                if cinfo[k, 0] != pm or cinfo[k, 1] != po or cinfo[k, 2] != mh2 or cinfo[k, 3] != oh2:
                    sound = False
                    break
                j = index_one(T, Ob, M2, O2)
                if k == 0:
                    v = np.int64(v0[j])
                    d = np.int64(d0[j]) if d0.shape[0] else np.int64(0)
                elif k == 1:
                    v = np.int64(v1[j])
                    d = np.int64(d1[j]) if d1.shape[0] else np.int64(0)
                else:
                    v = np.int64(v2[j])
                    d = np.int64(d2[j]) if d2.shape[0] else np.int64(0)
            dist = d + 1 if dtw or not (k > 0 or moved) else 1
            if sw:  # the child's value is the other side's
                v = LOSS if v == WIN else (WIN if v == LOSS else v)
            if v == WIN:
                best_win = min(best_win, dist)
            elif v == DRAW:
                draw = True
                x = 0 if r != ONGOING else d - DV0  # a game drawn by the rules: 0
                best_dv = max(best_dv, -x if sw else x)
            else:
                worst_loss = max(worst_loss, dist)
        ev, ed = minimax(nt, best_win, draw, worst_loss)
        sv = vals[i]
        if derive:
            if sv != WIN:
                continue
            if ev == WIN:
                dtc[i] = ed
        if mode == 2:
            ok = sound and sv == ev and np.int64(dtc[i]) == (best_dv + DV0 if ev == DRAW else 0)
        else:
            ok = sound and sv == ev and (ev == DRAW or np.int64(dtc[i]) == ed)
        if not ok:
            nbad += 1
            if first < 0:
                first = i
    bad_count[c] = nbad
    bad_first[c] = first


@njit(inline="always", **_NJ)
def _keep_draw(x, d, best, lo, hi):
    """The best draw value over the moves so far and the least and largest draw distance of the
    moves that give it, after a drawing move worth ``x`` at distance ``d``."""
    if x > best:
        return x, d, d
    if x == best:
        return best, min(lo, d), max(hi, d)
    return best, lo, hi


@njit(inline="always", **_NJ)
def _draw_distance(best, lo, hi, rank):
    """A draw's distance: 0 at its pair's rank, the quickest way to a value above it, the
    slowest to one below."""
    if best == rank:
        return 0
    return lo if best > rank else hi


def check_draws_movement(T, Ob, flying, m, o, vals, dv, dd, rank, sib_vals, sib_dv, sib_dd,
                         child_vals, child_dv, slots, bad_count, bad_first):
    """Check the draw values (docs/draws.md) of the slots ``slots`` of subspace (m, o), whose
    settlement rank is ``rank`` (its sibling's is -rank): a non-draw stores 0; a draw stores
    V + DV0 where V is the best over its drawing moves (a move into a drawn position of the
    sibling: minus its V; a removal into a drawn position of (o-1, m): minus its V), and its
    draw distance is 0 where V is the rank, else 1 + the least (V above the rank) or largest
    (below) over the moves that give V of the sibling's draw distance, a removal counting 0.
    Distances so checked make every value above or below the rank well founded."""
    ends = o - 1 < LOSE_BELOW
    run_spans(bad_count.shape[0], 0, slots.shape[0], lambda c, a, b: _check_draws_movement_chunk(
        T, Ob, flying, m, o, vals, dv, dd, rank, sib_vals, sib_dv, sib_dd, child_vals, child_dv,
        slots, bad_count, bad_first, ends, c, a, b, turn_rows()))


@njit(**CHUNK)
def _check_draws_movement_chunk(T, Ob, flying, m, o, vals, dv, dd, rank, sib_vals, sib_dv, sib_dd,
                                child_vals, child_dv, slots, bad_count, bad_first, ends, c, a, b,
                                turns):
    """One chunk of ``check_draws_movement``."""
    nbad = 0
    first = -1
    for t in range(a, b):
        i = slots[t]
        M, O, used = unindex_one(T, Ob, m, o, i)
        if not used:
            continue
        if vals[i] != DRAW:
            ok = dv[i] == 0 and dd[i] == 0
        else:
            v = np.int64(dv[i]) - DV0
            best = -BIG
            lo = BIG  # least and largest distance over the moves that give v
            hi = -1
            nt = gen_turns(T, flying, 1, M, O, 0, 0, turns)
            for u in range(nt):
                removed = turns[u, 2]
                if removed != 0 and ends:
                    continue  # (wins: never a drawn position's move)
                cM, cO, _, _, _ = apply_turn(M, O, 0, 0, turns[u, 0], turns[u, 1], removed)
                j = index_one(T, Ob, cM, cO)
                if removed == 0:
                    if sib_vals[j] != DRAW:
                        continue
                    x = -(np.int64(sib_dv[j]) - DV0)
                    d = np.int64(sib_dd[j]) + 1
                else:
                    if child_vals[j] != DRAW:
                        continue
                    x = -(np.int64(child_dv[j]) - DV0)
                    d = 1  # a removal counts 0 plies of draw distance beyond itself
                best, lo, hi = _keep_draw(x, d, best, lo, hi)
            if nt == 0:  # blocked and drawn (a full board): the rules end it, 0 and 0
                best, lo, hi = 0, 0, 0
            ok = dv[i] != 0 and v == best and np.int64(dd[i]) == _draw_distance(best, lo, hi, rank)
        if not ok:
            nbad += 1
            if first < 0:
                first = i
    bad_count[c] = nbad
    bad_first[c] = first


@njit(inline="always", **_NJ)
def _plane(kind, p0, p1, p2, p3, p4, j):
    if kind == 0:
        return np.int64(p0[j])
    if kind == 1:
        return np.int64(p1[j])
    if kind == 2:
        return np.int64(p2[j])
    if kind == 3:
        return np.int64(p3[j])
    return np.int64(p4[j])


def check_hand(T, Ob, flying, dm, m, o, hm, ho, slots, vals, dist, v0, v1, v2, v3, v4,
               d0, d1, d2, d3, d4, bad_count, bad_first, dtw):
    """Check the slots ``slots`` of a subspace (m, o, hm, ho) of the place-or-move game (Lasker
    Morris) the plain way: the generic turn generator with the place-or-move turn, each child
    by ``apply_turn`` and ``index_one``. The planes ``v_k``/``d_k`` (values, distance) of the
    subspaces the turns lead to: 0 the sibling (o, m, ho, hm), reached by a move that removes
    nothing; 1 a move that removes; 2, 3, 4 a placement removing 0, 1, 2. The distance is dtc
    (``dtw`` False: a placement or a removal counts 1, a move 1 + its child's) or dtw (every
    turn 1 + its child's). A turn that leaves the opponent fewer than 3 on the board and in hand
    wins in 1."""
    run_spans(bad_count.shape[0], 0, slots.shape[0], lambda c, a, b: _check_hand_chunk(
        T, Ob, flying, dm, m, o, hm, ho, slots, vals, dist, v0, v1, v2, v3, v4, d0, d1, d2, d3,
        d4, bad_count, bad_first, dtw, c, a, b, turn_rows()))


@njit(**CHUNK)
def _check_hand_chunk(T, Ob, flying, dm, m, o, hm, ho, slots, vals, dist, v0, v1, v2, v3, v4, d0,
                      d1, d2, d3, d4, bad_count, bad_first, dtw, c, a, b, turns):
    """One chunk of ``check_hand``."""
    nbad = 0
    first = -1
    for t in range(a, b):
        i = slots[t]
        M, O, used = unindex_one(T, Ob, m, o, i)
        if not used:
            continue
        best_win = BIG
        worst_loss = -1
        draw = False
        moves = gen_turns(T, flying, dm, M, O, hm, ho, turns, True)
        for u in range(moves):
            frm = turns[u, 0]
            removed = turns[u, 2]
            cM, cO, cmh, coh, _ = apply_turn(M, O, hm, ho, frm, turns[u, 1], removed, True)
            if popcount(cM) + cmh < LOSE_BELOW:  # the opponent is left too few: won
                best_win = min(best_win, 1)
                continue
            k = popcount(removed)
            kind = 2 + k if frm < 0 else (1 if k > 0 else 0)
            j = index_one(T, Ob, cM, cO)
            v = _plane(kind, v0, v1, v2, v3, v4, j)
            if dtw or kind == 0:
                d = _plane(kind, d0, d1, d2, d3, d4, j) + 1
            else:
                d = np.int64(1)
            if v == LOSS:
                best_win = min(best_win, d)
            elif v == DRAW:
                draw = True
            else:
                worst_loss = max(worst_loss, d)
        ev, ed = minimax(moves, best_win, draw, worst_loss)
        sv = vals[i]
        ok = sv == ev and (ev == DRAW or np.int64(dist[i]) == ed)
        if not ok:
            nbad += 1
            if first < 0:
                first = i
    bad_count[c] = nbad
    bad_first[c] = first


def check_draws_hand(T, Ob, flying, dm, m, o, hm, ho, vals, dv, dd, rank, v0, v1, v2, v3, v4,
                     e0, e1, e2, e3, e4, sib_dd, slots, bad_count, bad_first):
    """``check_draws_movement`` for a subspace (m, o, hm, ho) of the place-or-move game: the
    planes ``v_k``/``e_k`` (values, stored draw values) of the subspaces of ``check_hand``'s
    kinds (0 the sibling, whose draw distances are ``sib_dd``); every placement and every
    removal is an exit (its draw distance counts 1)."""
    run_spans(bad_count.shape[0], 0, slots.shape[0], lambda c, a, b: _check_draws_hand_chunk(
        T, Ob, flying, dm, m, o, hm, ho, vals, dv, dd, rank, v0, v1, v2, v3, v4, e0, e1, e2, e3,
        e4, sib_dd, slots, bad_count, bad_first, c, a, b, turn_rows()))


@njit(**CHUNK)
def _check_draws_hand_chunk(T, Ob, flying, dm, m, o, hm, ho, vals, dv, dd, rank, v0, v1, v2, v3,
                            v4, e0, e1, e2, e3, e4, sib_dd, slots, bad_count, bad_first, c, a, b,
                            turns):
    """One chunk of ``check_draws_hand``."""
    nbad = 0
    first = -1
    for t in range(a, b):
        i = slots[t]
        M, O, used = unindex_one(T, Ob, m, o, i)
        if not used:
            continue
        if vals[i] != DRAW:
            ok = dv[i] == 0 and dd[i] == 0
        else:
            v = np.int64(dv[i]) - DV0
            best = -BIG
            lo = BIG
            hi = -1
            nt = gen_turns(T, flying, dm, M, O, hm, ho, turns, True)
            for u in range(nt):
                frm = turns[u, 0]
                removed = turns[u, 2]
                cM, cO, cmh, coh, _ = apply_turn(M, O, hm, ho, frm, turns[u, 1], removed, True)
                if popcount(cM) + cmh < LOSE_BELOW:
                    continue  # (wins: never a drawn position's move)
                k = popcount(removed)
                kind = 2 + k if frm < 0 else (1 if k > 0 else 0)
                j = index_one(T, Ob, cM, cO)
                if _plane(kind, v0, v1, v2, v3, v4, j) != DRAW:
                    continue
                x = -(_plane(kind, e0, e1, e2, e3, e4, j) - DV0)
                d = np.int64(sib_dd[j]) + 1 if kind == 0 else np.int64(1)
                best, lo, hi = _keep_draw(x, d, best, lo, hi)
            ok = dv[i] != 0 and v == best and np.int64(dd[i]) == _draw_distance(best, lo, hi, rank)
        if not ok:
            nbad += 1
            if first < 0:
                first = i
    bad_count[c] = nbad
    bad_first[c] = first
