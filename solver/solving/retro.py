"""Movement-phase solve of one subspace pair, as named phases.

``solve_pair`` takes the pair's top subspace and the value planes of the subspaces its removals
lead to, and returns the value and dtc planes of the pair. The phases are functions of their own,
called in this order; they print as they run (when a reporter is given) and show a tqdm bar each:

0. ``lay_out``    -- the pair's state array and block flags;
1. ``count``      -- moves counted, removals looked up, immediate results seeded;
2. ``propagate``  -- levels of retrograde analysis until nothing changes;
3. ``finish``     -- planes split per subspace.

Values: the codes of codes.py (for the side to move). ``dtc`` is the distance
to conversion (plies to the next removal or the end of the game; 0 for draws).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb

import numba
import numpy as np

from ..core.codes import DRAW, DV0, UNUSED, WIN
from ..core.errors import UnsupportedRulesError
from ..hashing.games import game_of
from ..hashing.index import Hasher
from ..core.progress import Reporter
from ..hashing.subspaces import Subspace, full_board_draws, pair_children
from ..kernels import draws as DK, dtw as WK, hand as HK, retro as K
from ..kernels.dtw import sched_flags
from ..kernels.pack import byte_counts, full
from ..kernels.retro import BLOCK


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


@dataclass
class PairLayout:
    """Where each subspace of a pair lies in the one state array (the second starts at a block
    boundary), and the array itself: a uint16 state per slot (kernels/retro.py), with a flag per
    block for the positions decided at level 0 (``flag0``) and level 1 (``flag1``)."""

    name: str
    parts: tuple
    slots: list
    offs: list
    nblocks: int
    #: per part: m, o, offset, slots, the other part's index, whether the opponent flies,
    #: where its movers' unranks start in ``movers``
    table: np.ndarray
    #: each part's movers by colex rank (``Hasher.colex_subsets``), one part after the other:
    #: ``kernels.retro.emit`` reads a decided position's mover there
    movers: np.ndarray
    st: np.ndarray
    flag0: np.ndarray
    flag1: np.ndarray


def solve_pair(variant, top: Subspace, children, hasher: Hasher | None = None,
               reporter: Reporter | None = None, limit: int | None = None) -> PairResult:
    """The value and dtc planes of the pair of ``top``, from the value planes of the subspaces
    its removals lead to (``children``: {subspace: plane}; for a hand pair also a loader,
    ``children(subspace)``, called for one part at a time), by the phases :func:`count`, :func:`propagate` and
    :func:`finish`. ``limit``: the no-removal limit L of the pair (limits.py). Propagation then
    stops after level L: what is undecided is a draw at counter 0, and a decided position's dtc
    is its distance under the limit (it wins or loses at counter c exactly when dtc <= L - c).
    The children's planes are then their values at counter 0 under the limit."""
    rep = reporter or Reporter(quiet=True)
    check_supported(variant)
    hasher = hasher or Hasher(variant.board)
    pair = lay_out(hasher, top, variant)
    seconds = {}
    t0 = time.perf_counter()
    count(variant, hasher, top, pair, children, rep)
    seconds["count"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    levels = propagate(variant, hasher, top, pair, rep, limit)
    seconds["propagate"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    values, dtcs = finish(pair)
    if full_board_draws(variant, top):
        for sub in pair.parts:  # every position is blocked, and drawn
            used = values[sub] != UNUSED
            values[sub][used] = DRAW
            dtcs[sub][used] = 0
    seconds["finish"] = time.perf_counter() - t0
    return PairResult(values=values, dtc=dtcs, seconds=seconds, levels=levels)


def pair_sizes(top: Subspace) -> set:
    """The piece counts whose orbit tables a pair's kernels need: its own, and for a hand pair
    the mover's after a placement."""
    sizes = {top.m, top.o}
    if top.placement:
        sizes |= {top.m + 1, top.o + 1}
    return sizes


def check_supported(variant) -> None:
    """Refuse rules the movement solver cannot do: a slide that closes two mills under a rule
    that removes two pieces for it."""
    board = variant.board
    if game_of(variant).args.dm != 1 and movement_double_mills_possible(board):
        raise UnsupportedRulesError(
            f"the {board.name} board allows a slide to close two mills; the movement solver "
            f"handles one removal per turn only"
        )


def lay_out(hasher: Hasher, top: Subspace, variant) -> PairLayout:
    """Allocate the state array of the pair of ``top`` (every slot unused) and its block flags."""
    parts = top.pair
    slots = [hasher.slots(s) for s in parts]
    offs = [0]
    if len(parts) == 2:
        offs.append(-(-slots[0] // K.BLOCK) * K.BLOCK)
    total = offs[-1] + slots[-1]
    nblocks = -(-total // K.BLOCK)
    table = np.zeros((len(parts), 7), dtype=np.int64)
    movers = [hasher.colex_subsets(s.m, variant.board.n - s.o) for s in parts]
    game = game_of(variant)
    for p, s in enumerate(parts):
        table[p] = (s.m, s.o, offs[p], slots[p], (1 - p) if len(parts) == 2 else 0,
                    game.opponent_flies(s), sum(len(u) for u in movers[:p]))
    return PairLayout(
        name="/".join(s.name for s in parts), parts=parts, slots=slots, offs=offs, nblocks=nblocks,
        table=table, movers=np.concatenate(movers),
        st=full(nblocks * K.BLOCK, K.UNUSED, np.uint16),
        flag0=np.zeros(nblocks, dtype=np.uint8), flag1=np.zeros(nblocks, dtype=np.uint8))


def count(variant, hasher: Hasher, top: Subspace, pair: PairLayout, children, rep) -> None:
    """Phase 1: every position's moves counted, removals looked up in the children's planes,
    the positions decided at once (no move, or a removal into a lost position) seeded."""
    T = hasher.tables
    Ob = hasher.orbits(pair_sizes(top))
    game = game_of(variant)
    count_errors = np.zeros(64, dtype=np.int64)
    empty = np.zeros(0, dtype=np.uint8)
    rep.phase(f"[{pair.name}] count: {sum(pair.slots):,} slots")
    with rep.bar(total=sum(pair.slots), desc=f"{pair.name} count", unit="pos") as bar:
        for p, sub in enumerate(pair.parts):
            if top.placement:  # a hand pair of the place-or-move game, in the sweep's order
                # (``children`` may be a loader: one part's children held at a time)
                get = children if callable(children) else children.__getitem__
                planes = part_planes(game, sub, get, empty)
                for a, b, done in rep_spans(hasher.board.n, Ob, sub):
                    HK.count_hand_sweep(T, Ob, game.args, game.mover_flies(sub), sub.m, sub.o, sub.hm,
                                        sub.ho, pair.offs[p], pair.st, pair.flag0, pair.flag1,
                                        *planes, a, b, min(64, b - a), count_errors)
                    bar.update(min(pair.slots[p], done))
                del planes
                continue
            child_sub = pair_children(top)[sub]
            child = children[child_sub] if child_sub is not None else empty
            off, n = pair.offs[p], pair.slots[p]
            lo = off // K.BLOCK
            hi = -(-(off + n) // K.BLOCK)
            step = max(1, (hi - lo) // 50)
            for b in range(lo, hi, step):
                e = min(hi, b + step)
                K.count_pass(T, Ob, game.args, sub.m, sub.o, off, n,
                             pair.st, pair.flag0, pair.flag1, child, b, e, count_errors)
                bar.update(min((e - b) * K.BLOCK, off + n - b * K.BLOCK))
    if count_errors.any():
        raise UnsupportedRulesError(f"a position of {pair.name} has more than {K.COUNT_MAX} moves")


def part_planes(game, sub: Subspace, load, empty) -> list:
    """Per exit kind of hand part ``sub`` (games.GameSpec.children), ``load(c)`` of the
    subspace c it leads to (each loaded once: two kinds may lead to one subspace), or ``empty``
    where the kind has none: the child planes the kernels of kernels/hand.py take."""
    loaded = {c: load(c) for c in set(game.children(sub)) - {None}}
    return [loaded[c] if c is not None else empty for c in game.children(sub)]


def rep_spans(n: int, Ob, sub: Subspace):
    """(a, b, positions) per call of a hand part's sweep (kernels/hand.py): its mover
    representatives cut into spans of about 4 M positions, and at least 50 spans where there
    are as many (a progress bar's steps); ``n``: the board's points."""
    nreps = int(Ob.reps_off[sub.m + 1] - Ob.reps_off[sub.m])
    per_rep = comb(n - sub.m, sub.o)
    step = max(1, min(nreps, (1 << 22) // max(1, per_rep), -(-nreps // 50)))
    for a in range(0, nreps, step):
        b = min(nreps, a + step)
        yield a, b, (b - a) * per_rep


def propagate(variant, hasher: Hasher, top: Subspace, pair: PairLayout, rep,
              limit: int | None = None) -> int:
    """Phase 2: levels of retrograde analysis (level d decides the positions at distance d + 1)
    until a level decides nothing, or after ``limit`` levels; returns the levels run."""
    levels = _Levels(variant, hasher, top, pair)
    no_exits = np.zeros(0, dtype=np.uint16)  # the dtc retrograde: every removal is level 1
    d = 0
    flags = units(pair.flag0)
    rep.phase(f"[{pair.name}] propagate")
    with rep.bar(desc=f"{pair.name} propagate", unit="level") as bar:
        while True:
            if d >= 2 and not flags.any():
                break
            if limit is not None and d >= limit:
                break  # levels beyond the limit are draws under it
            nxt = levels.step(d, flags, lambda *a: K.apply(pair.st, d, *a, no_exits, 0, False))
            if d == 0:
                nxt |= units(pair.flag1)
            flags = nxt
            d += 1
            if d > 16000:
                raise RuntimeError("retrograde analysis did not converge")
            bar.update(1)
            bar.set_postfix(decided=int(levels.newly.sum()))
    if levels.errors.any():
        raise RuntimeError(f"internal error in retrograde propagation ({int(levels.errors.sum())} count errors)")
    return d


def units(block_flags: np.ndarray) -> np.ndarray:
    """Flags per block (``BLOCK`` slots: the count's) as flags per unit (``UNIT`` slots: the
    level loop's)."""
    return np.repeat(block_flags, K.BLOCK // K.UNIT)


class _Levels:
    """The buffers of one level of propagation, and the level itself (:meth:`step`): every
    position decided at d emits its predecessors (``kernels.retro.emit``, task by task until
    every flagged unit is scanned), and ``apply`` updates them. Flags are per unit of
    ``kernels.retro.UNIT`` slots."""

    def __init__(self, variant, hasher: Hasher, top: Subspace, pair: PairLayout):
        self.variant, self.pair = variant, pair
        self.T = hasher.tables
        self.Ob = hasher.orbits(pair_sizes(top))
        nthreads = numba.get_num_threads()
        # four tasks a thread: the threads' last tasks of a round end closer together than
        # with two (standard 7-5/5-7's values: emit 16.7-17.5 -> 14.7-15.7 s, 1.80 -> 1.89 cores
        # busy in the propagation; docs/benchmarks.md), and more room a round: fewer rounds
        self.ntask = max(2, 4 * nthreads)
        # a buffer per task and owner in ``apply`` (8 MB a task in all)
        self.buf = np.empty((self.ntask, nthreads, max((1 << 20) // nthreads, 4 * K.RESERVE)),
                            dtype=np.int64)
        self.buf_n = np.zeros((self.ntask, nthreads), dtype=np.int64)
        self.task_blk = np.zeros(self.ntask, dtype=np.int64)
        self.task_slot = np.zeros(self.ntask, dtype=np.int64)
        self.errors = np.zeros(max(self.ntask, nthreads), dtype=np.int64)
        self.nunits = pair.nblocks * (K.BLOCK // K.UNIT)
        self.flags_next = np.zeros((nthreads, self.nunits), dtype=np.uint8)
        self.newly = np.zeros(nthreads, dtype=np.int64)

    def step(self, d: int, flags, apply) -> np.ndarray:
        """Level d; ``apply(buf, buf_n, flags_next, newly, errors)`` updates the predecessors.
        Returns the units holding a position decided at d + 1."""
        pair = self.pair
        if not flags.any():
            return np.zeros(self.nunits, dtype=np.uint8)
        self.flags_next[:] = 0
        for t in range(self.ntask):
            self.task_blk[t] = t
            self.task_slot[t] = t * K.UNIT
        while (self.task_blk < self.nunits).any():
            K.emit(self.T, self.Ob, pair.movers, pair.table, len(pair.parts), pair.st,
                   d, flags, self.task_blk, self.task_slot, self.buf, self.buf_n, self.errors)
            apply(self.buf, self.buf_n, self.flags_next, self.newly, self.errors)
        return self.flags_next.any(axis=0).astype(np.uint8)


def finish(pair: PairLayout):
    """Phase 3: ({subspace: value plane}, {subspace: dtc plane}); the distances stay in place
    in the state array."""
    vals = np.empty(len(pair.st), dtype=np.uint8)
    K.finish(pair.st, vals)
    values, dtcs = {}, {}
    for p, sub in enumerate(pair.parts):
        a, b = pair.offs[p], pair.offs[p] + pair.slots[p]
        values[sub], dtcs[sub] = vals[a:b], pair.st[a:b]
    return values, dtcs


# ---------------------------------------------------------------------------- dtw
def solve_pair_dtw(variant, top: Subspace, values, children,
                   hasher: Hasher | None = None, reporter: Reporter | None = None) -> dict:
    """The dtw planes (plies to the end of the game; kernels/dtw.py) of the pair of ``top``,
    from its value planes (``values(sub)``, as solved) and, for the subspace each part's
    removals lead to, ``children(child) = (values, dtw, halved)`` (``halved``: the plane holds
    dtw // 2, as the files store it): loaders, called one part at a time, so that no more than
    one child's planes are held beside the 5 bytes per slot of the pair.
    Phases: :func:`lay_out`, :func:`count_exits`, :func:`propagate_dtw`, :func:`finish_dtw`.
    Returns {subspace: uint16 plane} (0 for draws)."""
    rep = reporter or Reporter(quiet=True)
    check_supported(variant)
    hasher = hasher or Hasher(variant.board)
    if full_board_draws(variant, top):
        return {sub: np.zeros(hasher.slots(sub), np.uint16) for sub in top.pair}
    pair = lay_out(hasher, top, variant)
    vals = full(len(pair.st), 3, np.uint8)
    for p, sub in enumerate(pair.parts):
        vals[pair.offs[p]: pair.offs[p] + pair.slots[p]] = values(sub)
    sched = count_exits(variant, hasher, top, pair, vals, children, rep)
    del vals  # the state array says what is won (kernels/dtw.WINFLAG)
    propagate_dtw(variant, hasher, top, pair, sched, rep)
    del sched
    return finish_dtw(pair)


def count_exits(variant, hasher: Hasher, top: Subspace, pair: PairLayout, vals, children, rep):
    """Phase 1: each won or lost position's exit level (through a removal) and each lost
    position's count of non-removal moves; the positions lost in 0 flagged."""
    T = hasher.tables
    Ob = hasher.orbits(pair_sizes(top))
    sched = full(len(pair.st), WK.NONE, np.uint16)
    errors = np.zeros(64, dtype=np.int64)
    empty8, empty16 = np.zeros(0, np.uint8), np.zeros(0, np.uint16)
    rep.phase(f"[{pair.name}] dtw: exits")
    for p, sub in enumerate(pair.parts):
        if top.placement:  # a hand pair of the place-or-move game
            _count_hand_exits(variant, T, Ob, pair, p, sub, vals, sched, children, errors)
            continue
        child_sub = pair_children(top)[sub]
        cv, cd, halved = children(child_sub) if child_sub is not None else (empty8, empty16, False)
        off, n = pair.offs[p], pair.slots[p]
        WK.count_dtw(T, Ob, game_of(variant).args, sub.m, sub.o, off, n, vals, pair.st, sched,
                    cv, np.ascontiguousarray(cd, dtype=np.uint8 if cd.dtype == np.uint8 else np.uint16),
                    halved, off // BLOCK, -(-(off + n) // BLOCK), pair.flag0, errors)
        del cv, cd
    if errors.any():
        raise RuntimeError(f"{pair.name}: {int(errors.sum())} positions contradict their values "
                           f"or have too many moves")
    return sched


def _count_hand_exits(variant, T, Ob, pair, p, sub, vals, sched, children, errors) -> None:
    """:func:`count_exits` for part ``p`` of a hand pair (kernels/hand.count_hand_dtw)."""
    game = game_of(variant)

    def load(c):
        cv, cd, halved = children(c)
        if not halved:
            raise ValueError("hand pairs read their children's dtw as the files store it (halved)")
        return cv, np.ascontiguousarray(cd, dtype=np.uint16)

    kinds = part_planes(game, sub, load, (np.zeros(0, np.uint8), np.zeros(0, np.uint16)))
    for a, b, _ in rep_spans(int(T.n), Ob, sub):
        HK.count_hand_dtw(T, Ob, game.args, game.mover_flies(sub), sub.m, sub.o, sub.hm, sub.ho,
                          pair.offs[p], vals, pair.st, sched, *(k[0] for k in kinds),
                          *(k[1] for k in kinds), True, a, b, min(64, b - a), pair.flag0, errors)


def propagate_dtw(variant, hasher: Hasher, top: Subspace, pair: PairLayout, sched, rep) -> int:
    """Phase 2: levels d = 0, 1, ...: promote the positions whose exit level is d, then emit
    the predecessors of everything decided at d and apply them; until no level is left."""
    promote = Promotions(pair.st, sched)
    levels = _Levels(variant, hasher, top, pair)
    flags = units(pair.flag0)
    d = 0
    with rep.bar(desc=f"{pair.name} dtw", unit="level") as bar:
        while d <= promote.top or flags.any():
            promote(d, flags)
            flags = levels.step(d, flags, lambda *a: K.apply(pair.st, d, *a, sched, d + 1, True))
            d += 1
            if d > 16000:
                raise RuntimeError("dtw propagation did not converge")
            bar.update(1)
    if levels.errors.any():
        raise RuntimeError(f"internal error in dtw propagation ({int(levels.errors.sum())} errors)")
    return d


#: the most slots one window of the dtw pass's promotions lists (uint32 offsets: 128 MB)
WINDOW_SLOTS = 1 << 25
#: chunks of a pair's slots that the promotions and the finish deal to the threads (each many
#: times the threads, so that uneven chunks even out; the promotions' chunks whole units)
NCHUNK = 256


class Promotions:
    """The dtw pass's promotions (``kernels.dtw.promote``), level by level: ``promote(d,
    flags)`` decides the undecided positions whose exit level is d. The slots of a window of
    levels are listed in one scan (``window_fill``: the undecided ones; at most ``cap`` slots
    by the levels' counts before the propagation, ``level_counts``) and each level reads its
    list (``promote_listed``), instead of scanning at every level every block that holds its
    exit level (standard 7-6's dtw: 14.3 s of promotions over 168 levels); a level alone above
    ``cap`` (default :data:`WINDOW_SLOTS`) is scanned (``promote``). Levels
    are asked in order from 0."""

    def __init__(self, st, exits, cap: int | None = None, nchunk: int = NCHUNK):
        self.st, self.exits = st, exits
        self.cap = WINDOW_SLOTS if cap is None else cap
        self.top = int(WK.top_exit(exits))  # the last exit level (-1: none)
        n = len(st)
        self.chunk = max(1, -(-n // (nchunk * K.UNIT))) * K.UNIT  # (a thread owns its units)
        self.nchunk = -(-n // self.chunk)
        self.counts = np.zeros((self.nchunk, self.top + 1), dtype=np.int64)
        WK.level_counts(exits, self.chunk, self.counts)
        self.hist = self.counts.sum(axis=0)
        self.lo = self.hi = 0  # the levels listed: [lo, hi)
        self.listed = self.starts = self.ends = None

    def __call__(self, d: int, flags) -> None:
        if d > self.top:
            return
        if d >= self.hi:
            self._window(d)
        if self.listed is None:  # (one level above cap)
            WK.promote(self.st, self.exits, d, flags)
            return
        k = (d - self.lo) * self.nchunk  # (level d's lists: chunk by chunk)
        WK.promote_listed(self.st, self.listed, self.starts[k: k + self.nchunk],
                          self.ends[k: k + self.nchunk], self.chunk, d, flags)

    def _window(self, d: int) -> None:
        hi, total = d + 1, int(self.hist[d])
        while hi <= self.top and total + self.hist[hi] <= self.cap:
            total += int(self.hist[hi])
            hi += 1
        self.lo, self.hi = d, hi
        self.listed = self.starts = self.ends = None  # (the last window let go first)
        if total > self.cap:
            return
        room = self.counts[:, d:hi].T.ravel()  # (level by level, chunk by chunk)
        self.starts = np.concatenate([[0], np.cumsum(room)[:-1]]).astype(np.int64)
        self.ends = np.empty_like(self.starts)
        self.listed = np.empty(total, dtype=np.uint32)
        WK.window_fill(self.st, self.exits, d, hi, self.chunk, self.starts, self.ends, self.listed)


def finish_dtw(pair: PairLayout) -> dict:
    """Phase 3: {subspace: dtw plane}, made in place in the state array (``kernels.dtw.
    finish_states``); every won and lost position must have one (draws and unused slots were
    marked 3, so a slot left at code 0 is one that got none)."""
    st = pair.st
    missing = int(WK.finish_states(st, NCHUNK))
    if missing:
        raise RuntimeError(f"{pair.name}: {missing} won or lost positions got no dtw")
    return {sub: st[pair.offs[p]: pair.offs[p] + pair.slots[p]] for p, sub in enumerate(pair.parts)}


# ---------------------------------------------------------------------------- draw values
def solve_pair_draws(variant, top: Subspace, values, children, ranks: dict,
                     hasher: Hasher | None = None, reporter: Reporter | None = None,
                     tallies: dict | None = None) -> dict:
    """The draw values and draw distances (kernels/draws.py, docs/draws.md) of the pair of
    ``top``, from its value planes (``values(sub)``), each part's settlement rank
    (``ranks[sub]``, opposite for the two parts) and, for the subspace each part's removals
    lead to, ``children(child) = (values, stored draw-value plane)``: loaders, called one part
    at a time while counting, so that no more than one part's inputs are held beside the 5
    bytes per slot of the pair (6 with the draw distance, after the count). Returns {subspace:
    (dv, dd)}: dv the stored form (V + DV0 for a draw, 0 otherwise; uint8), dd the draw
    distance (uint8, 0 where V is the rank). ``tallies``: {subspace: (wins, draws)} of the
    pair's parts (their values files' headers; counted from the planes if not given), which
    choose how each part counts its moves into draws (kernels/draws.count_draws)."""
    rep = reporter or Reporter(quiet=True)
    check_supported(variant)
    hasher = hasher or Hasher(variant.board)
    if full_board_draws(variant, top):
        return {sub: (np.where(values(sub) == DRAW, DV0, 0).astype(np.uint8),
                      np.zeros(hasher.slots(sub), np.uint8)) for sub in top.pair}
    pair = lay_out(hasher, top, variant)
    n_all = len(pair.st)
    exits = full(n_all, DK.NONE, np.uint16)  # (the slots between the parts too)
    dv = np.zeros(n_all, dtype=np.uint8)
    T = hasher.tables
    Ob = hasher.orbits(pair_sizes(top))
    errors = np.zeros(64, dtype=np.int64)
    rep.phase(f"[{pair.name}] draw values: counts")
    wins = np.zeros(pair.nblocks, dtype=np.uint8)
    levels = _Levels(variant, hasher, top, pair)
    _count_draws(variant, T, Ob, top, pair, levels, values, children, ranks, tallies, exits, dv,
                 wins, errors)
    if errors.any() or levels.newly.any():
        raise RuntimeError(f"{pair.name}: {int(errors.sum() + levels.newly.sum())} drawn positions "
                           f"have no drawing move or too many moves")
    dist = np.zeros(n_all, dtype=np.uint8)
    off1 = pair.offs[1] if len(pair.parts) == 2 else n_all
    r0, r1 = (int(ranks[s]) for s in (pair.parts + pair.parts)[:2])

    def settle(e, touched):
        DK.settle(pair.st, e, touched, dv, dist, off1, r0, r1, errors)

    settle(0, units(wins))  # the won positions leave the state array
    sflags = np.zeros((2 * DK.KEY0, pair.nblocks), dtype=np.uint8)
    sched_flags(exits, pair.nblocks, sflags)  # per exit key, the blocks holding one
    # the grades from the keys present, read off the flags (a mask and a copy of the keys were
    # 1 to 3 more bytes a slot beside the 6 held here, at the pass's peak)
    grades = sorted({abs(int(k) - DK.KEY0) for k in np.flatnonzero(sflags.any(axis=1))} - {0},
                    reverse=True)
    with rep.bar(total=len(grades), desc=f"{pair.name} draw values", unit="grade") as bar:
        for e in grades:
            flags = np.zeros(levels.nunits, dtype=np.uint8)
            DK.promote_draws(pair.st, exits, e, sflags[e + DK.KEY0], sflags[DK.KEY0 - e], flags)
            touched = flags.copy()
            gate = DK.KEY0 - e
            d = 1
            while flags.any():
                flags = levels.step(d, flags, lambda *a: K.apply(pair.st, d, *a, exits, gate, False))
                touched |= flags
                d += 1
                if d > 16000:
                    raise RuntimeError("draw-value propagation did not converge")
            settle(e, touched)
            bar.update(1)
    if levels.errors.any():
        raise RuntimeError(f"internal error in draw-value propagation ({int(levels.errors.sum())} errors)")
    if errors.any():
        raise RuntimeError(f"{pair.name}: a draw distance passes 255 plies (the files store a byte)")
    return {sub: (dv[pair.offs[p]: pair.offs[p] + pair.slots[p]],
                  dist[pair.offs[p]: pair.offs[p] + pair.slots[p]]) for p, sub in enumerate(pair.parts)}


#: a part of a draw-value pass looks its drawn positions' children up where its draws are fewer
#: than this share of its sibling's wins (_count_draws)
LOOKUP_SHARE = 0.75


def _count_draws(variant, T, Ob, top, pair, levels, values, children, ranks, tallies, exits, dv,
                 wins, errors) -> None:
    """The count phase of :func:`solve_pair_draws`: each drawn position's count of moves into
    draws and best exit. A part looks its moves' children up, or counts all its moves and a
    level of predecessors from its sibling's wins takes off those into them; what each costs
    goes with the part's draws and with the sibling's wins: a drawn position's lookups cost 1.0
    to 1.5 times a won position's predecessors (standard 7-5/5-7, 6-6, 8-6/6-8, 9-8/8-9), so a
    part looks them up where its draws are fewer than :data:`LOOKUP_SHARE` of the wins."""
    empty8 = np.zeros(0, np.uint8)
    last = len(pair.parts) - 1  # part p's quiet moves lead into part last - p
    if top.placement:  # a hand pair of the place-or-move game counts all its moves
        direct = [False] * len(pair.parts)
    else:
        tallies = tallies or {s: _tally(values(s)) for s in pair.parts}
        direct = [tallies[pair.parts[p]][1] < LOOKUP_SHARE * tallies[pair.parts[last - p]][0]
                  for p in range(len(pair.parts))]
    if direct[0] and last:  # the codes of the part it reads (the second, counted after it)
        DK.mark_codes(np.ascontiguousarray(values(pair.parts[last])), pair.st, pair.offs[last])
    for p, sub in enumerate(pair.parts):
        if top.placement:
            _count_hand_draws(variant, T, Ob, pair, p, sub, int(ranks[sub]), values, children,
                              exits, dv, wins, errors)
            continue
        child_sub = pair_children(top)[sub]
        cv, cdv = children(child_sub) if child_sub is not None else (empty8, empty8)
        off, n = pair.offs[p], pair.slots[p]
        vals = np.ascontiguousarray(values(sub))
        q = last - p
        if direct[p] and q == p:  # a pair of one part reads its own codes
            DK.mark_codes(vals, pair.st, off)
        sib = pair.st[pair.offs[q]: pair.offs[q] + pair.slots[q]] if direct[p] else pair.st[:0]
        DK.count_draws(T, Ob, game_of(variant).args, sub.m, sub.o, off, n, int(ranks[sub]),
                      vals, pair.st, sib, exits, dv, cv,
                      np.ascontiguousarray(cdv, dtype=np.uint8), off // K.BLOCK,
                      -(-(off + n) // K.BLOCK), wins, errors)
        del cv, cdv, vals
    # the moves into won positions leave the counts that hold them (none may run out: gate -1
    # holds them): the wins of each part whose sibling counted all its moves
    emit = wins.copy()
    for q, direct_sibling in enumerate(reversed(direct)):
        if direct_sibling:
            emit[pair.offs[q] // K.BLOCK: -(-(pair.offs[q] + pair.slots[q]) // K.BLOCK)] = 0
    levels.step(0, units(emit), lambda *a: K.apply(pair.st, 0, *a, exits, -1, False))


def _tally(values) -> tuple[int, int]:
    """(wins, draws) of a value plane (its unused slots' neighbours' values counted too)."""
    counts = byte_counts(np.asarray(values, dtype=np.uint8))
    return int(counts[WIN]), int(counts[DRAW])


def _count_hand_draws(variant, T, Ob, pair, p, sub, rank, values, children, exits, dv, wins, errors):
    """The draw-value count of part ``p`` of a hand pair (kernels/hand.count_hand_draws)."""
    game = game_of(variant)
    empty8 = np.zeros(0, np.uint8)
    kinds = part_planes(game, sub, children, (empty8, empty8))
    vals = np.ascontiguousarray(values(sub))
    planes = [np.ascontiguousarray(k[1], dtype=np.uint8) for k in kinds]
    for a, b, _ in rep_spans(int(T.n), Ob, sub):
        HK.count_hand_draws(T, Ob, game.args, game.mover_flies(sub), sub.m, sub.o, sub.hm, sub.ho,
                            pair.offs[p], rank, vals, pair.st, exits, dv, *(k[0] for k in kinds),
                            *planes, DK.KEY0, a, b, min(64, b - a), wins, errors)
