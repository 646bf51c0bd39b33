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

from morris import rules


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
