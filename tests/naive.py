"""Naive reference solver: plain Python, no symmetry, obviously right.

It enumerates every raw position of a movement-phase pair, builds the move graph with the
reference move generator (solver/rules.py), and runs a breadth-first retrograde analysis:
a position whose mover has no move is lost in 0; a position with a move to a lost position, or
a removal into a lost (or finished) position, is won; a position all of whose moves lead to won
positions is lost. Breadth-first order makes every distance the shortest win / longest loss.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations

from morris.core import rules


def raw_positions(n, m, o):
    for mover in combinations(range(n), m):
        mmask = sum(1 << p for p in mover)
        rest = [p for p in range(n) if not mmask >> p & 1]
        for opp in combinations(rest, o):
            yield mmask, sum(1 << p for p in opp)


def solve_pair(variant, m, o, lower):
    """Values of the raw positions of subspaces (m, o) and (o, m).

    ``lower(mover, opp)`` gives ``(value, dtc)`` of a position a removal leads to (in a subspace
    with fewer pieces, solved before). Returns {(mover, opp): (value, dtc)} with value in
    'win', 'draw', 'loss' and dtc None for draws."""
    n = variant.board.n
    subspaces = {(m, o), (o, m)}
    keys = [k for (a, b) in sorted(subspaces) for k in raw_positions(n, a, b)]
    number = {k: i for i, k in enumerate(keys)}
    count = [0] * len(keys)  # non-removal moves not yet known to lose
    draw_by_removal = [False] * len(keys)
    parents = [[] for _ in keys]
    value = [None] * len(keys)
    dtc = [None] * len(keys)
    queue = deque()
    for i, (mover, opp) in enumerate(keys):
        ts = rules.turns(variant, mover, opp, 0, 0)
        if not ts:
            value[i], dtc[i] = "loss", 0
            queue.append(i)
            continue
        win_now = False
        for t in ts:
            (cm, co, _, _), _ = rules.child(mover, opp, 0, 0, t)
            if t[2]:  # a removal: the result is known already
                if bin(cm).count("1") < 3:
                    result = "loss"  # the opponent is left with two pieces
                else:
                    result = lower(cm, co)[0]
                if result == "loss":
                    win_now = True
                elif result == "draw":
                    draw_by_removal[i] = True
            else:
                count[i] += 1
                parents[number[(cm, co)]].append(i)
        if win_now:
            value[i], dtc[i] = "win", 1
            queue.append(i)
        elif count[i] == 0:
            if draw_by_removal[i]:
                value[i] = "draw"
            else:
                value[i], dtc[i] = "loss", 1
                queue.append(i)
    # breadth-first by distance: process in order of dtc
    order = sorted(queue, key=lambda i: dtc[i])
    queue = deque(order)
    while queue:
        i = queue.popleft()
        for p in parents[i]:
            if value[p] is not None:
                continue
            if value[i] == "loss":
                value[p], dtc[p] = "win", dtc[i] + 1
                queue.append(p)
            else:
                count[p] -= 1
                if count[p] == 0 and not draw_by_removal[p]:
                    value[p], dtc[p] = "loss", dtc[i] + 1
                    queue.append(p)
    out = {}
    for i, k in enumerate(keys):
        out[k] = (value[i] or "draw", dtc[i] if value[i] in ("win", "loss") else None)
    return out


def solve_up_to(variant, top):
    """All movement pairs with at most ``top`` pieces a side, lowest first."""
    results = {}

    def lower(mover, opp):
        return results[(mover, opp)]

    for total in range(6, 2 * top + 1):
        for m in range(3, top + 1):
            o = total - m
            if 3 <= o <= m:
                results.update(solve_pair(variant, m, o, lower))
    return results


# ---------------------------------------------------------------------------- no-removal limit
def move_graph(variant, top):
    """The movement positions with 3..``top`` pieces a side, numbered, and their moves: (keys,
    pairs, edges, removals, blocked). ``pairs``: {(m, o) with m >= o: slice of keys}, lowest
    total first; ``edges``: (src, dst) of the moves without removal; ``removals``: (src, dst)
    of the moves that remove, dst -1 where the opponent is left with 2 pieces; ``blocked``:
    positions whose mover has no legal move."""
    return move_graphs([variant], top)[0]


def move_graphs(variants, top):
    """:func:`move_graph` of each of ``variants``: one game (board and rules) under different
    flying rules, listed in one pass. The flying rule enters the turns only through whether the
    mover flies (rules.turns asks rules.flies), so a position whose mover flies, or does not,
    under two of the variants has its turns listed once for both."""
    import dataclasses

    import numpy as np

    first = variants[0]
    for v in variants:
        assert v.board is first.board and dataclasses.replace(v.rules, flying=first.rules.flying) == first.rules
    n = first.board.n
    keys, pairs = [], {}
    for total in range(6, 2 * top + 1):
        for m in range(3, top + 1):
            o = total - m
            if 3 <= o <= m:
                start = len(keys)
                for a, b in sorted({(m, o), (o, m)}):
                    keys.extend(raw_positions(n, a, b))
                pairs[(m, o)] = slice(start, len(keys))
    # a position's number by its masks packed into one int (hashed faster than a pair)
    number = {mover << n | opp: i for i, (mover, opp) in enumerate(keys)}
    lists = [([], [], [], [], []) for _ in variants]  # es, ed, rs, rd, blocked
    for i, (mover, opp) in enumerate(keys):
        listed = {}  # whether the mover flies: the child numbers of its moves and its removals
        for v, (es, ed, rs, rd, blocked) in zip(variants, lists):
            fly = rules.flies(v, mover, 0, 0)
            if fly not in listed:
                listed[fly] = _children(v, mover, opp, n, number)
            moves, removals = listed[fly]
            if not moves and not removals:
                blocked.append(i)
            es.extend([i] * len(moves))
            ed.extend(moves)
            rs.extend([i] * len(removals))
            rd.extend(removals)
    arr = lambda x: np.array(x, dtype=np.int64)  # noqa: E731
    return [(keys, pairs, (arr(es), arr(ed)), (arr(rs), arr(rd)), arr(blocked))
            for es, ed, rs, rd, blocked in lists]


def _children(variant, mover, opp, n, number):
    """The numbers of the positions the moves of (mover, opp) lead to: (moves without removal,
    removals), a removal that leaves the opponent 2 pieces as -1."""
    moves, removals = [], []
    for t in rules.turns(variant, mover, opp, 0, 0):
        (cm, co, _, _), _ = rules.child(mover, opp, 0, 0, t)
        if t[2]:
            removals.append(-1 if cm.bit_count() < 3 else number[cm << n | co])
        else:
            moves.append(number[cm << n | co])
    return moves, removals


def six_move_graphs(top):
    """:func:`move_graphs` of Six Men's Morris without and with flying: {flying: graph} (a
    picklable call, for a worker process)."""
    from morris.core.variants import get_variant

    return dict(zip((False, True), move_graphs([get_variant("six", flying=f) for f in (False, True)], top)))


def solve_with_counter(variant, graph):
    """Values at every counter, by iterating the counter explicitly: V[i, c] for position i and
    counter c (1 win, 0 draw, -1 loss for the side to move), straight from the rule: a blocked
    mover loses; c >= limit draws; else the best move, a move without removal going to counter
    c + 1 and a removal to counter 0 in the subspace below (a removal to 2 pieces wins)."""
    import numpy as np

    keys, pairs, (es, ed), (rs, rd), blocked = graph
    limits = {p: variant.rules.limit_of(*p) for p in pairs}
    top = max(limits.values())
    V = np.zeros((len(keys), top + 1), dtype=np.int8)
    is_blocked = np.zeros(len(keys), dtype=bool)
    is_blocked[blocked] = True
    for p, sl in pairs.items():  # lowest first: removals lead to pairs solved before
        L = limits[p]
        lo, hi = sl.start, sl.stop
        e = (es >= lo) & (es < hi)
        src, dst = es[e] - lo, ed[e]
        r = (rs >= lo) & (rs < hi)
        rsrc, rdst = rs[r] - lo, rd[r]
        # removals do not depend on the counter: their value at counter 0 below (or a win)
        rval = np.where(rdst < 0, 1, -V[np.maximum(rdst, 0), 0].astype(np.int64))
        best_removal = np.full(hi - lo, -2, dtype=np.int64)
        np.maximum.at(best_removal, rsrc, rval)
        V[lo:hi, L] = np.where(is_blocked[lo:hi], -1, 0)
        for c in range(L - 1, -1, -1):
            best = best_removal.copy()
            np.maximum.at(best, src, -V[dst, c + 1].astype(np.int64))
            V[lo:hi, c] = np.where(is_blocked[lo:hi], -1, best)
    return V, limits


# ---------------------------------------------------------------------------- dtw
def dtw_by_horizon(graph):
    """Values and distances to the end of the game, straight from the definition, over the whole
    move graph at once (removals are edges like any other; no exits, no levels, no symmetry):
    with W_h (L_h) the positions won (lost) within h plies, L_0 holds the blocked positions,
    W_h those with a move into L_{h-1} or a removal that leaves the opponent two pieces,
    L_h those all of whose moves lead into W_{h-1}. A position's dtw is the least h that puts
    it in W_h or L_h; positions in neither for every h are draws. Returns (value, dtw): value
    1 win, 0 draw, -1 loss; dtw -1 for draws."""
    import numpy as np

    keys, _, (es, ed), (rs, rd), blocked = graph
    n = len(keys)
    src = np.concatenate([es, rs])
    dst = np.concatenate([ed, rd])
    ends = dst < 0  # a removal that leaves two pieces: the child is over (lost, dtw 0)
    dst = np.maximum(dst, 0)
    moves = np.bincount(src, minlength=n)
    dtw = np.full(n, -1, dtype=np.int64)
    value = np.zeros(n, dtype=np.int8)
    dtw[blocked] = 0
    value[blocked] = -1
    h = 0
    while True:
        h += 1
        lost = (value[dst] == -1) | ends  # the child is lost within h - 1 plies
        won = (value[dst] == 1) & ~ends
        win_now = np.zeros(n, dtype=bool)
        win_now[src[lost]] = True
        into_won = np.bincount(src[won], minlength=n)
        loss_now = (moves > 0) & (into_won == moves)
        new_win = win_now & (value == 0)
        new_loss = loss_now & (value == 0)
        if not new_win.any() and not new_loss.any():
            return value, dtw
        value[new_win] = 1
        value[new_loss] = -1
        dtw[new_win | new_loss] = h


def dtc_by_horizon(graph, value):
    """Distances to the next conversion (a removal, or the end of the game), straight from the
    definition over the whole move graph, given the final values ``value`` (dtw_by_horizon's:
    a value does not depend on the metric): L_0 holds the blocked positions; W_h those with a
    removal into a lost position (or one that leaves the opponent two pieces), or a move
    without removal into L_{h-1}; L_h those all of whose moves are removals into won positions
    or moves into W_{h-1}. A removal counts one ply whatever follows it. Returns dtc (-1 for
    draws)."""
    import numpy as np

    keys, _, (es, ed), (rs, rd), blocked = graph
    n = len(keys)
    ends = rd < 0
    rlost = ends | (value[np.maximum(rd, 0)] == -1)  # removals that win
    rwon = ~ends & (value[np.maximum(rd, 0)] == 1)  # removals into a won position
    moves = np.bincount(es, minlength=n) + np.bincount(rs, minlength=n)
    removal_wins = np.zeros(n, dtype=bool)
    removal_wins[rs[rlost]] = True
    removals_into_won = np.bincount(rs[rwon], minlength=n)
    dtc = np.full(n, -1, dtype=np.int64)
    decided = np.zeros(n, dtype=np.int8)  # 1 won, -1 lost within the horizon so far
    dtc[blocked] = 0
    decided[blocked] = -1
    h = 0
    while True:
        h += 1
        win_now = removal_wins.copy()
        win_now[es[decided[ed] == -1]] = True
        loss_now = (moves > 0) & (np.bincount(es[decided[ed] == 1], minlength=n) + removals_into_won == moves)
        new_win = win_now & (decided == 0)
        new_loss = loss_now & (decided == 0)
        if not new_win.any() and not new_loss.any():
            return dtc
        decided[new_win] = 1
        decided[new_loss] = -1
        dtc[new_win | new_loss] = h


# ---------------------------------------------------------------------------- draw values
def orbit_weights(variant, keys):
    """For each raw position, 1 / (the size of its orbit under the board's symmetries): summed
    over a subspace's raw positions of one value, the count of its positions up to symmetry
    (what the files' headers count)."""
    import numpy as np

    movers = np.array([k[0] for k in keys], dtype=np.int64)
    opps = np.array([k[1] for k in keys], dtype=np.int64)

    def image(x, perm):
        out = np.zeros_like(x)
        for p, q in enumerate(perm):
            out |= ((x >> p) & 1) << q
        return out

    fixed = np.zeros(len(keys), dtype=np.int64)
    perms = variant.board.symmetries.perms
    for perm in perms:
        fixed += (image(movers, perm) == movers) & (image(opps, perm) == opps)
    return fixed / len(perms)


def draw_values(variant, graph, value):
    """Draw values straight from their definition (docs/draws.md), over the raw move graph (no
    symmetry): for each pair, lowest first, and each threshold t (every exit's value and the
    pair's rank, seen by the side A with more pieces), the set X_t of positions from which A
    can make sure the game either stays in the pair for ever (worth the rank) or leaves it
    through a drawn removal worth at least t, both sides playing only drawing moves. X_t is a
    greatest fixpoint (start from everything, drop what cannot stay) when the rank is at least t,
    else a least fixpoint (start from nothing, add what can get in); A's value is the largest t
    whose X_t holds the position. A pair with equal counts is solved twice over (once with each
    side as A), and both copies must agree. Returns each raw position's draw value for the side
    to move (-999 where it is not a draw)."""
    import numpy as np

    keys, pairs, (es, ed), (rs, rd), _ = graph
    weight = orbit_weights(variant, keys)
    mc = np.array([k[0].bit_count() for k in keys])
    oc = np.array([k[1].bit_count() for k in keys])

    def score(m, o):
        sel = (mc == m) & (oc == o)
        w, l, n = (weight[sel & (value == 1)].sum(), weight[sel & (value == -1)].sum(), weight[sel].sum())
        return (w - l) / n

    def rank(m, o):
        x = 100 * (score(m, o) - score(o, m)) / 2
        r = int(np.floor(abs(x) + 0.5))
        return int(np.sign(x)) * r

    dv = np.full(len(keys), -999, dtype=np.int64)  # -999: not a draw
    drawn = value == 0
    for (m, o), sl in pairs.items():  # lowest first: exits lead to pairs done before
        nodes = np.flatnonzero(drawn[sl])  + sl.start
        copies = (True,) if m != o else (True, False)
        # node k of copy c: A moves at it when the mover has m pieces (copy 0), or (equal
        # counts) in copy 0 A is the mover, in copy 1 the other side
        number = np.full(len(keys), -1, dtype=np.int64)
        number[nodes] = np.arange(len(nodes))
        N = len(nodes) * len(copies)
        if m != o:
            a_side = mc[nodes] == m
        else:
            a_side = np.concatenate([np.ones(len(nodes), bool), np.zeros(len(nodes), bool)])
        e = (number[es] >= 0) & (number[ed] >= 0)
        src, dst = number[es[e]], number[ed[e]]
        x = (number[rs] >= 0) & (rd >= 0)
        x &= drawn[np.maximum(rd, 0)]
        xsrc, xdst = number[rs[x]], np.maximum(rd[x], 0)
        xval = -dv[xdst]  # for the side that removes
        if m != o:
            esrc, edst = src, dst
            xs, xv = xsrc, np.where(a_side[xsrc], xval, -xval)
        else:  # copy 0 -> copy 1 and back; A's view flips with the copy
            L = len(nodes)
            esrc, edst = np.concatenate([src, src + L]), np.concatenate([dst + L, dst])
            xs, xv = np.concatenate([xsrc, xsrc + L]), np.concatenate([xval, -xval])
        assert (dv[xdst] != -999).all()
        r = rank(m, o)
        moves = np.bincount(esrc, minlength=N) + np.bincount(xs, minlength=N)
        best = np.full(N, -999, dtype=np.int64)
        for t in sorted({r} | set(xv.tolist())):
            exit_ok = np.bincount(xs, weights=xv >= t, minlength=N)
            X = np.full(N, r >= t)
            while True:
                good = np.bincount(esrc, weights=X[edst], minlength=N) + exit_ok
                Y = np.where(a_side, good > 0, good == moves)
                if (Y == X).all():
                    break
                X = Y
            best[X] = t
        assert (best != -999).all()
        view = np.where(a_side, best, -best)  # for the side to move
        if m == o:
            L = len(nodes)
            assert (view[:L] == view[L:]).all(), "the two copies of an equal pair disagree"
            view = view[:L]
        dv[nodes] = view
    return dv


# ---------------------------------------------------------------------------- placement
def placement_recursion(variant, state, movement, memo, combine):
    """A placement position's (value, metric) by plain recursion over the reference move
    generator (rules.py) down to the movement phase, whose (value, metric) ``movement(mover,
    opp)`` gives; a game the rules end by the piece count is (its value, 0). ``combine(results)``
    makes a position's (value, metric) from its moves' [(value, metric, switched, conversion)],
    each as the side that moves next sees it (``switched``: the turn passes; ``conversion``: the
    move removes, or it is the last placement)."""
    if state in memo:
        return memo[state]
    mover, opp, mh, oh = state
    end = rules.decided_by_count(mover, opp, mh, oh, variant.rules.count_hand)
    if end is not None:
        out = ({rules.WIN: "win", rules.LOSS: "loss", rules.DRAW: "draw"}[end], 0)
    elif not (mh or oh):
        out = movement(mover, opp)
    else:
        results = []
        for t in rules.turns(variant, mover, opp, mh, oh):
            child, switched = rules.play(variant, mover, opp, mh, oh, t)
            v, x = placement_recursion(variant, child, movement, memo, combine)
            results.append((v, x, switched, t[2] != 0 or not (child[2] or child[3])))
        out = combine(results)
    memo[state] = out
    return out


NEGATE = {"win": "loss", "loss": "win", "draw": "draw"}


def dtc_dtw_of_moves(results):
    """(value, (dtc, dtw)) of a placement position from its moves' (naive.placement_recursion):
    dtc counts 1 for a removal or the last placement, else 1 + the child's; dtw 1 + the child's;
    a win takes the least over its winning moves, a loss the largest over all. (A game the
    rules end has the metric 0: both distances 0.)"""
    wins, losses, draw = [], [], False
    for v, x, sw, conversion in results:
        v = NEGATE[v] if sw else v
        if v == "draw":
            draw = True
            continue
        dtc, dtw = x if x else (0, 0)
        step = (1 if conversion else dtc + 1, dtw + 1)
        (wins if v == "win" else losses).append(step)
    if wins:
        return ("win", (min(c for c, _ in wins), min(w for _, w in wins)))
    if draw:
        return ("draw", (None, None))
    return ("loss", (max(c for c, _ in losses), max(w for _, w in losses)))
