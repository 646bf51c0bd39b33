"""Movement-phase solve of one subspace pair, as named phases.

``solve_pair`` takes the pair's top subspace and the value planes of the subspaces its removals
lead to, and returns the value and dtc planes of the pair. The phases print as they run (when a
reporter is given) and show a tqdm bar each:

1. ``count``      -- moves counted, removals looked up, immediate results seeded;
2. ``propagate``  -- levels of retrograde analysis until nothing changes;
3. ``finish``     -- planes split per subspace.

Values: the codes of codes.py (for the side to move). ``dtc`` is the distance
to conversion (plies to the next removal or the end of the game; 0 for draws).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from .index import Hasher
from .progress import Reporter
from .subspaces import Subspace, pair_children


@dataclass
class PairResult:
    values: dict  # Subspace -> uint8 array of codes (codes.py)
    dtc: dict  # Subspace -> uint16 array
    seconds: dict  # phase -> seconds
    levels: int


def movement_double_mills_possible(board) -> bool:
    """Whether one slide can close two mills (then a double-mill rule would remove two pieces
    in the movement phase). A flight cannot: two mills need five pieces, a flyer has three."""
    for a, b in board.edges:
        for frm, to in ((a, b), (b, a)):
            avoiding = [m for m in board.point_mills[to] if not m >> frm & 1]
            if len(avoiding) >= 2:
                return True
    return False


def solve_pair(variant, top: Subspace, children: dict, hasher: Hasher | None = None,
               reporter: Reporter | None = None, limit: int | None = None) -> PairResult:
    """``limit``: the no-removal limit L of the pair (limits.py). Propagation then stops after
    level L: what is undecided is a draw at counter 0, and a decided position's dtc is its
    distance under the limit (it wins or loses at counter c exactly when dtc <= L - c). The
    children's planes are then their values at counter 0 under the limit."""
    from .kernels import retro as K

    rep = reporter or Reporter(quiet=True)
    board = variant.board
    if variant.rules.double_mill_removes != 1 and movement_double_mills_possible(board):
        raise NotImplementedError(
            f"the {board.name} board allows a slide to close two mills; the movement solver "
            f"handles one removal per turn only"
        )
    hasher = hasher or Hasher(board)
    T = hasher.tables
    parts = top.pair
    Ob = hasher.orbits({top.m, top.o})
    slots = [hasher.slots(s) for s in parts]
    offs = [0]
    if len(parts) == 2:
        offs.append(-(-slots[0] // K.BLOCK) * K.BLOCK)
    total = offs[-1] + slots[-1]
    nblocks = -(-total // K.BLOCK)
    total_padded = nblocks * K.BLOCK
    table = np.zeros((len(parts), 5), dtype=np.int64)
    for p, s in enumerate(parts):
        table[p] = (s.m, s.o, offs[p], slots[p], (1 - p) if len(parts) == 2 else 0)
    st = np.full(total_padded, K.UNUSED, dtype=np.uint16)
    flag0 = np.zeros(nblocks, dtype=np.uint8)
    flag1 = np.zeros(nblocks, dtype=np.uint8)
    seconds = {}
    name = "/".join(s.name for s in parts)
    count_errors = np.zeros(64, dtype=np.int64)

    # phase 1: count
    t0 = time.perf_counter()
    rep.phase(f"[{name}] count: {sum(slots):,} slots")
    with rep.bar(total=sum(slots), desc=f"{name} count", unit="pos") as bar:
        for p, sub in enumerate(parts):
            child_sub = pair_children(top)[sub]
            child = children[child_sub] if child_sub is not None else np.zeros(0, dtype=np.uint8)
            lo = offs[p] // K.BLOCK
            hi = -(-(offs[p] + slots[p]) // K.BLOCK)
            step = max(1, (hi - lo) // 50)
            for b in range(lo, hi, step):
                e = min(hi, b + step)
                K.count_pass(T, Ob, variant.rules.flying, sub.m, sub.o, offs[p], slots[p],
                             st, flag0, flag1, child, b, e, count_errors)
                bar.update(min((e - b) * K.BLOCK, offs[p] + slots[p] - b * K.BLOCK))
    if count_errors.any():
        raise NotImplementedError(f"a position of {name} has more than {K.COUNT_MAX} moves")
    seconds["count"] = time.perf_counter() - t0

    # phase 2: propagate
    t0 = time.perf_counter()
    nthreads = numba.get_num_threads()
    ntask = max(2, 2 * nthreads)
    cap = 1 << 20
    buf = np.empty((ntask, cap), dtype=np.int64)
    buf_n = np.zeros(ntask, dtype=np.int64)
    task_blk = np.zeros(ntask, dtype=np.int64)
    task_slot = np.zeros(ntask, dtype=np.int64)
    errors = np.zeros(max(ntask, nthreads), dtype=np.int64)
    flags_next = np.zeros((nthreads, nblocks), dtype=np.uint8)
    newly = np.zeros(nthreads, dtype=np.int64)
    d = 0
    flags = flag0.copy()
    rep.phase(f"[{name}] propagate")
    with rep.bar(desc=f"{name} propagate", unit="level") as bar:
        while True:
            if d >= 2 and not flags.any():
                break
            if limit is not None and d >= limit:
                break  # levels beyond the limit are draws under it
            if flags.any():
                flags_next[:] = 0
                for t in range(ntask):
                    task_blk[t] = t
                    task_slot[t] = t * K.BLOCK
                while (task_blk < nblocks).any():
                    K.emit(T, Ob, variant.rules.flying, table, len(parts), st, d, flags,
                           task_blk, task_slot, buf, buf_n, errors)
                    K.apply(st, d, buf, buf_n, flags_next, newly, errors)
                nxt = flags_next.any(axis=0).astype(np.uint8)
            else:
                nxt = np.zeros(nblocks, dtype=np.uint8)
            if d == 0:
                nxt |= flag1
            flags = nxt
            d += 1
            if d > 16000:
                raise RuntimeError("retrograde analysis did not converge")
            bar.update(1)
            bar.set_postfix(decided=int(newly.sum()))
    if errors.any():
        raise RuntimeError(f"internal error in retrograde propagation ({int(errors.sum())} count errors)")
    seconds["propagate"] = time.perf_counter() - t0

    # phase 3: finish: a value plane, and the distances in place
    t0 = time.perf_counter()
    del buf
    vals = np.empty(total_padded, dtype=np.uint8)
    K.finish(st, vals)
    values, dtcs = {}, {}
    for p, sub in enumerate(parts):
        values[sub] = vals[offs[p] : offs[p] + slots[p]]
        dtcs[sub] = st[offs[p] : offs[p] + slots[p]]
    seconds["finish"] = time.perf_counter() - t0
    return PairResult(values=values, dtc=dtcs, seconds=seconds, levels=d)
