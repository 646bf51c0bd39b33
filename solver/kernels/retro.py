"""Retrograde analysis of one movement-phase pair (m, o)/(o, m) (numba).

The positions of the pair live in one array ``st`` (uint16) over a global slot space: part p
occupies ``[off_p, off_p + slots_p)`` (offsets aligned to ``BLOCK``). A slot is

- decided: ``dtc << 2 | code``, code WIN (1), LOSS (2) or UNUSED (3: a hash slot that holds no
  position);
- undecided (code 0): ``count << 2 | DRAWCONV?``, where count is the number of non-removal moves
  whose value is still unknown and ``DRAWCONV`` (bit 9) says that a removal leads to a drawn
  position (such a position never loses). Undecided positions end as draws.

A decided slot never needs a count and an undecided one never a distance, so one uint16 holds
either (2 bytes per position while solving).

Phases (retro.py runs them and reports progress):

1. ``count_pass``: every position counts its non-removal moves and looks up its removals in the
   solved subspace below; it is decided at once when a removal wins (WIN 1), when it has no
   move at all (LOSS 0), or when every move removes and loses (LOSS 1).
2. levels d = 0, 1, 2, ...: ``emit`` scans the positions decided at dtc d, generates their
   predecessors by un-moving the opponent's non-removal moves and writes them to per-task
   buffers, one for each owner; ``apply`` then updates the predecessors, each thread owning a
   fixed share of the slots (no two threads write the same slot) and reading its buffers: a
   LOSS at d makes its predecessors WIN at d+1; a WIN at d takes one move off each
   predecessor's count, and a count reaching zero is a LOSS at d+1. Positions never decided
   are draws.

Symmetry and counts: a position Q0 (canonical) counts its raw moves; one un-move from a canonical
position P0 into the orbit of Q stands for |Stab(Q0)| / |Stab(P0)| of Q0's moves into the orbit
of P, and that is the amount taken off Q's count (both stabilizers are trivial nearly always).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .bitboard import in_mills
from .bits import ctz, prefetch
from .hashing import (anchor, colex_rank, compress, free_bit, ranked, slot_walk, sym_image,
                      unindex_from, walk_at, walk_on)
from .jit import CHUNK, run_chunks
from .turns import END, kid_buffer, movement_children

_NJ = dict(cache=True, nogil=True)

BLOCK = 1 << 14
#: the slots one flag of the level loop covers (``emit`` scans only the flagged ones; a level
#: decides few positions in most blocks, so its flags are finer than the count's blocks)
UNIT = 1 << 10
from ..core.codes import LOSS, UNUSED, WIN

DRAWCONV = 1 << 9
COUNT_MAX = 127
PREFETCH = 24
#: room for one position's predecessors (at most o * (n - m - o) of them: at most 132 on the
#: boards of 24 points, with m = 1)
PREDS = 256
#: room kept free in a task buffer before another position's predecessors are emitted (beyond
#: the entries waiting to be dealt, at most ``PREDS``, and the position's own)
RESERVE = 1024

# columns of the ``parts`` table: the part's pieces, where it lies, the other part's index,
# whether its predecessors' mover (the part's opponent) flies, and where its movers' unranks
# start in ``emit``'s U
P_M, P_O, P_OFF, P_SLOTS, P_TARGET, P_FLY, P_UOFF = 0, 1, 2, 3, 4, 5, 6


def count_pass(T, Ob, R, m, o, off, slots, st, flag0, flag1, child, lo_blk, hi_blk, errors):
    """Phase 1 for the blocks [lo_blk, hi_blk) of part (m, o); ``child``: values (0 draw,
    1 win, 2 loss) of subspace (o-1, m), empty when a removal ends the game; ``R``: the game's
    rules (games.KernelRules)."""
    end = off + slots
    flying = R.flying

    def run(bi):
        _count_block(T, Ob, flying, m, o, off, st, flag0, flag1, child, lo_blk, errors, end, bi,
                     kid_buffer(), kid_buffer())

    run_chunks(hi_blk - lo_blk, run)


@njit(**CHUNK)
def _count_block(T, Ob, flying, m, o, off, st, flag0, flag1, child, lo_blk, errors, end, bi, kids,
                 back):
    """One block of ``count_pass``: each position's removal children are fetched while the next
    position's are generated (``back`` holds the children of the position waiting, ``pg``)."""
    b = lo_blk + bi
    g0 = b * BLOCK
    g1 = min(g0 + BLOCK, end)
    has0 = False
    has1 = False
    w = slot_walk(T, Ob, m, o, g0 - off)
    pg = -1
    moves = nonrem = nk = pmoves = pnonrem = pnk = 0
    for g in range(g0, g1 + 1):
        if g < g1:
            M, O, used = walk_at(T, m, o, w)
            w = walk_on(T, Ob, m, o, w)
            if not used:
                st[g] = UNUSED
                continue
            moves, nonrem, nk = movement_children(T, Ob, flying, m, o, M, O, kids)
            fetch_kids(kids, nk, child)
        if pg >= 0:
            win, drawc = removal_exits(back, pnk, child)
            state, level = counted(win, drawc, pnonrem, pmoves)
            st[pg] = state
            has0 |= level == 0
            has1 |= level == 1
            if level == -1 and pnonrem > COUNT_MAX:
                errors[bi % errors.shape[0]] += 1
        pg, pmoves, pnonrem, pnk = g, moves, nonrem, nk
        kids, back = back, kids
    flag0[b] = has0
    flag1[b] = has1


@njit(inline="always", **_NJ)
def fetch_kids(kids, nk, child):
    """Start fetching the child planes' entries of ``kids[:nk]`` (those that are slots)."""
    for x in range(nk):
        if kids[x] != END:
            prefetch(child, kids[x])


@njit(inline="always", **_NJ)
def removal_exits(kids, nk, child):
    """(win, drawc) over the removal children ``kids[:nk]`` (slots of ``child``'s values, or
    END): a removal wins when it ends the game or leads into a lost position; ``drawc`` when
    one leads into a draw (the scan stops at a win)."""
    drawc = False
    for x in range(nk):
        j = kids[x]
        if j == END:
            return True, drawc
        v = child[j]
        if v == LOSS:
            return True, drawc
        if v == 0:
            drawc = True
    return False, drawc


@njit(inline="always", **_NJ)
def counted(win, drawc, quiet, moves):
    """(state, level) of a position after its count: decided at level 1 when a move out of the
    pair wins (``win``), at 0 when it has no move, at 1 when every move leaves the pair and
    loses; else undecided (level -1) with its count of ``quiet`` moves (those that stay in the
    pair) and ``DRAWCONV`` when a move out of the pair draws (``drawc``)."""
    if win:
        return np.uint16((1 << 2) | WIN), 1
    if quiet == 0:
        if moves == 0:
            return np.uint16(LOSS), 0
        if drawc:
            return np.uint16(DRAWCONV), -1
        return np.uint16((1 << 2) | LOSS), 1
    return np.uint16((quiet << 2) | (DRAWCONV if drawc else 0)), -1


@njit(inline="always", **_NJ)
def decide_exit(st, g, d, win, flags):
    """Slot g decided at level ``d`` by its exit, if it is still undecided: a win (``win``), or
    a loss when its count of undecided non-removal moves is 0 (else it waits); its unit
    (``UNIT`` slots) flagged. The dtw pass's promotions and the draw values' grades share it."""
    v = np.int64(st[g])
    if v & 3:
        return
    if win:
        st[g] = np.uint16((d << 2) | WIN)
        flags[g // UNIT] = 1
    elif (v >> 2) == 0:
        st[g] = np.uint16((d << 2) | LOSS)
        flags[g // UNIT] = 1


@njit(inline="always", **_NJ)
def _stab_size(T, stab, mover):
    """Number of symmetries in ``stab`` (a bitmask) that fix ``mover``."""
    c = 0
    for h in range(T.S):
        if stab >> h & 1:
            if sym_image(T, h, mover) == mover:
                c += 1
    return c


def emit(T, Ob, U, parts, nparts, st, d, flags, task_blk, task_slot, buf, buf_n, errors):
    """Phase 2a: predecessors of the positions decided at dtc ``d`` into the task buffers.
    ``U``: per part, the colex unranks of its movers (``colex_subsets``), at the part's
    ``P_UOFF``.

    Task t scans the flagged units (``UNIT`` slots each) t, t + ntask, ... from where it
    stopped (``task_blk``, ``task_slot``) until one of its buffers is nearly full. Entries are
    ``slot << 8 | w``: w = 0 marks a WIN, w > 0 takes w moves off the count; each goes to the
    buffer of the slot's owner in ``apply`` (``buf[t, owner]``, ``buf_n[t, owner]`` entries)."""
    ntask = buf.shape[0]
    cap = buf.shape[2]
    nunits = flags.shape[0]
    n = T.n

    def run(t):
        js = np.empty(PREDS, dtype=np.int64)
        ws = np.empty(PREDS, dtype=np.int64)
        es = np.empty(2 * PREDS, dtype=np.int64)
        _emit_task(T, Ob, U, parts, nparts, st, d, flags, task_blk, task_slot, buf, buf_n,
                   errors, ntask, cap, nunits, n, t, js, ws, es)

    run_chunks(ntask, run)


@njit(**CHUNK)
def _emit_task(T, Ob, U, parts, nparts, st, d, flags, task_blk, task_slot, buf, buf_n, errors,
               ntask, cap, nunits, n, t, js, ws, es):
    """One task of ``emit``: a decided position's entries go to ``es``, dealt to the owners'
    buffers when more than ``PREDS`` wait (``_deal``)."""
    nown = buf.shape[1]
    for x in range(nown):
        buf_n[t, x] = 0
    blk = task_blk[t]
    g = task_slot[t]
    ne = 0  # entries in ``es`` not yet dealt to their owners' buffers
    while blk < nunits:
        if not flags[blk]:
            blk += ntask
            g = blk * UNIT
            continue
        p = 0
        if nparts == 2 and blk * UNIT >= parts[1, P_OFF]:
            p = 1
        m = parts[p, P_M]
        o = parts[p, P_O]
        offp = parts[p, P_OFF]
        q = parts[p, P_TARGET]
        offq = parts[q, P_OFF]
        uoff = parts[p, P_UOFF]
        g1 = min((blk + 1) * UNIT, offp + parts[p, P_SLOTS])
        full = False
        while g < g1:
            v = np.int64(st[g])
            kind = v & 3
            if (v >> 2) != d or kind == 0 or kind == UNUSED:
                g += 1
                continue
            for x in range(nown):
                if buf_n[t, x] + ne + RESERVE > cap:
                    full = True
            if full:
                break
            i = g - offp
            M, O = unindex_from(T, Ob, U, uoff, m, o, i)
            orb, s, rep, stab = anchor(T, Ob, m, M)
            base = offq + orb * T.binom[n - m, o]
            simple = True
            sP = 1
            if kind == WIN:
                ob_o = i // T.binom[n - o, m]
                stO = np.int64(Ob.stab[Ob.reps_off[o] + ob_o])
                if stO != 1:
                    sP = _stab_size(T, stO, M)
                if sP != 1 or stab != 1:
                    simple = False
            gO = sym_image(T, s, O)
            empty = T.full & ~(M | O)
            fly = parts[p, P_FLY] != 0
            nloc = 0
            # a predecessor's opponent mask differs from gO in two points, so its mask
            # compressed onto the anchor's free points differs from gO's in two bits
            # (``free_bit``): one compress per position, not one per predecessor
            free = T.full & ~rep
            cO = compress(T, gO, free)
            # the opponent's last move closed no mill (a mill with nothing to remove, when
            # the side to move has no piece on the board, is a quiet move too)
            qs = O & ~in_mills(T, O) if m > 0 else O
            while qs:
                qb = qs & -qs
                qs ^= qb
                qpt = ctz(qb)
                sq = T.sym_point[s, qpt]
                cq = cO ^ free_bit(free, sq)
                srcs = empty if fly else (T.adj[qpt] & empty)
                while srcs:
                    pb = srcs & -srcs
                    srcs ^= pb
                    sp = T.sym_point[s, ctz(pb)]
                    # no look at st[j] here: a branch on a random load would stall;
                    # apply skips decided slots
                    gO2 = gO ^ (np.int64(1) << sq) ^ (np.int64(1) << sp)
                    if stab == 1:
                        j = base + colex_rank(T, cq ^ free_bit(free, sp))
                    else:
                        j = base + ranked(T, s, rep, stab, gO2)
                    if kind == LOSS:
                        es[ne] = j << 8
                        ne += 1
                    elif simple:
                        es[ne] = (j << 8) | 1
                        ne += 1
                    else:
                        sQ = 1 if stab == 1 else _stab_size(T, stab, gO2)
                        found = False
                        for x in range(nloc):
                            if js[x] == j:
                                ws[x] += sQ
                                found = True
                                break
                        if not found:
                            js[nloc] = j
                            ws[nloc] = sQ
                            nloc += 1
            for x in range(nloc):
                if ws[x] % sP != 0:
                    errors[t] += 1
                es[ne] = (js[x] << 8) | (ws[x] // sP)
                ne += 1
            if ne > PREDS:
                _deal(buf, buf_n, t, nown, es, ne)
                ne = 0
            g += 1
        if full:
            break
        blk += ntask
        g = blk * UNIT
    _deal(buf, buf_n, t, nown, es, ne)
    task_blk[t] = blk
    task_slot[t] = g


@njit(inline="always", **_NJ)
def _deal(buf, buf_n, t, nown, es, ne):
    """Task t's entries ``es[:ne]`` into the buffers of their slots' owners, in order. Each
    owner's count is loaded once and stored once: an entry put straight into ``buf[t, owner]``
    read its owner's count back after every store (the compiler cannot tell ``buf_n`` from
    ``buf``), and that cost a third of emit's time (standard 7-5's levels 2, 4, 5: 460 against
    299 ns a decided position, the entries the same)."""
    for x in range(nown):
        c = buf_n[t, x]
        for k in range(ne):
            e = es[k]
            buf[t, x, c] = e  # (a slot written that is not the owner's is written over)
            c += owner(e >> 8, nown) == x
        buf_n[t, x] = c


@njit(inline="always", **_NJ)
def owner(g, nown):
    """The owner of slot ``g`` among ``nown`` in ``apply``: pages of 4,096 slots dealt round the
    owners, (g >> 12) % nown, taken with a mask where nown is a power of two (with a division
    there, when ``apply`` took it twice an entry, the draw-value levels of standard 6-5 ran
    about 15% slower)."""
    page = g >> 12
    if nown & (nown - 1) == 0:
        return page & (nown - 1)
    return page % nown


@njit(parallel=True, **_NJ)
def apply(st, d, buf, buf_n, flags_next, newly, errors, exits, gate, strict):
    """Phase 2b: owner t updates the slots g with (g >> 12) % nown == t (``owner``: every task
    of ``emit`` put them in its buffer ``buf[task, t]``), fetching ahead; ``flags_next[t]``
    gets the units (``UNIT``) holding a slot it decides.

    A slot with ``DRAWCONV`` set never loses by its count running out, so its count is left
    alone. ``exits`` is empty for the dtc retrograde; otherwise it holds a key per slot, and a
    loss whose count runs out is decided at d + 1 only when its key is ``NONE`` (0xFFFF) or at
    most ``gate``: the dtw pass (kernels/dtw.py) passes exit levels and gate d + 1 (no exit of
    it is longer), the draw-value pass (kernels/draws.py) best-exit keys and the grade's. With
    ``strict`` (the dtw pass, where the bit is ``WINFLAG``: a won position) an entry from a
    lost position must target a won one."""
    gated = exits.shape[0] > 0
    nown = flags_next.shape[0]
    ntask = buf.shape[0]
    win = np.uint16(((d + 1) << 2) | WIN)
    loss = np.uint16(((d + 1) << 2) | LOSS)
    for t in prange(nown):
        c = 0
        bad = 0
        for task in range(ntask):
            n = buf_n[task, t]
            for e in range(n):
                if e + PREFETCH < n:
                    prefetch(st, buf[task, t, e + PREFETCH] >> 8)
                x = buf[task, t, e]
                g = x >> 8
                v = np.int64(st[g])
                if v & 3:
                    continue  # decided (or unused)
                w = x & 255
                if w == 0:  # a move into a position lost at d
                    if strict and not (v & DRAWCONV):
                        bad += 1
                    else:
                        st[g] = win
                        flags_next[t, g // UNIT] = 1
                        c += 1
                elif not (v & DRAWCONV):
                    left = ((v >> 2) & COUNT_MAX) - w
                    if left < 0:
                        bad += 1
                        left = 0
                    if left == 0 and (not gated or exits[g] == 0xFFFF or exits[g] <= gate):
                        st[g] = loss
                        flags_next[t, g // UNIT] = 1
                        c += 1
                    else:  # more moves to come (or it waits for its exit)
                        st[g] = np.uint16(left << 2)
        newly[t] += c
        errors[t] += bad


@njit(parallel=True, **_NJ)
def finish(st, values):
    """``values`` gets the value plane (0 draw, 1 win, 2 loss, 3 unused); ``st`` becomes the
    distances in place (0 for draws)."""
    for i in prange(st.shape[0]):
        v = st[i]
        code = v & 3
        values[i] = code
        st[i] = (v >> 2) if code else 0
