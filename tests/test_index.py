"""The perfect hash: exhaustive checks on small subspaces, and kernels against plain Python."""

from functools import lru_cache
from itertools import combinations

import numpy as np
import pytest

from morris.hashing.index import Hasher, board_tables, count_anchor_orbits, count_positions, slot_count
from morris.hashing.subspaces import Subspace, movement_subspaces
from morris.core.variants import get_variant


def all_masks(n, k):
    return np.array([sum(1 << p for p in c) for c in combinations(range(n), k)], dtype=np.int64)


def raw_positions(n, m, o):
    A = all_masks(n, m)
    B = all_masks(n, o)
    a = np.repeat(A, len(B))
    b = np.tile(B, len(A))
    keep = (a & b) == 0
    return a[keep], b[keep]


def images(T, s, masks):
    out = np.zeros_like(masks)
    for j in range(T.nb):
        out |= T.sym_bytes[s, j][(masks >> (8 * j)) & 255].astype(np.int64)
    return out


def canonical_keys(T, movers, opps):
    """Least (opp image, mover image) over the group, computed with numpy only."""
    best = None
    for s in range(T.S):
        key = (images(T, s, opps) << 32) | images(T, s, movers)
        best = key if best is None else np.minimum(best, key)
    return best


@pytest.mark.parametrize("name", ["standard", "six"])
def test_orbit_tables_match_burnside(name):
    board = get_variant(name).board
    h = Hasher(board)
    ob = h.orbits(range(board.n + 1))
    for k in range(board.n + 1):
        reps = ob.reps[ob.reps_off[k]:ob.reps_off[k + 1]]
        assert len(reps) == count_anchor_orbits(board, k)
        assert np.all(np.diff(reps) > 0)


CASES = [("standard", m, o) for m, o in [(3, 3), (0, 3), (3, 0), (2, 2), (1, 4), (4, 1), (5, 0)]] + [
    ("six", m, o) for m in range(0, 5) for o in range(0, 5)
]


@pytest.mark.parametrize("name, m, o", CASES)
def test_hash_is_perfect_on_every_raw_position(name, m, o):
    board = get_variant(name).board
    T = board_tables(board)
    h = Hasher(board)
    sub = Subspace(m, o)
    movers, opps = raw_positions(board.n, m, o)
    idx = h.index_batch(movers, opps)
    slots = h.slots(sub)
    assert slots == slot_count(board, sub)
    assert idx.min() >= 0 and idx.max() < slots
    keys = canonical_keys(T, movers, opps)
    # constant on orbits and distinct across orbits: index and canonical key determine each other
    pairs = np.unique(np.stack([idx, keys]), axis=1)
    assert len(np.unique(pairs[0])) == pairs.shape[1] == len(np.unique(pairs[1]))
    assert pairs.shape[1] == count_positions(board, m, o)
    # unindex(index(p)) is the canonical form of p
    back_m, back_o, used = h.unindex_batch(sub, idx)
    assert used.all()
    assert np.array_equal((back_o << 32) | back_m, keys)
    # the used slots are exactly the orbits
    all_m, all_o, all_used = h.unindex_batch(sub, np.arange(slots))
    assert all_used.sum() == count_positions(board, m, o)
    assert np.array_equal(np.sort(idx[np.unique(keys, return_index=True)[1]]), np.flatnonzero(all_used))


@pytest.mark.parametrize("name", ["standard", "six"])
def test_python_reference_matches_kernels(name):
    variant = get_variant(name)
    board = variant.board
    h = Hasher(board)
    rng = np.random.default_rng(7)
    subs = movement_subspaces(variant) + [Subspace(2, 1, 5, 5), Subspace(0, 4, 3, 3)]
    for sub in subs:
        slots = h.slots(sub)
        idx = rng.integers(0, slots, size=40)
        movers, opps, used = h.unindex_batch(sub, idx)
        for i, a, b, u in zip(idx, movers, opps, used):
            assert h.unindex_py(sub, int(i)) == (int(a), int(b), bool(u))
            if u:
                # a random image of the position indexes to the same slot in both versions
                s = int(rng.integers(len(board.symmetries)))
                ma = board.symmetries.apply(s, int(a))
                oa = board.symmetries.apply(s, int(b))
                assert h.index_py(ma, oa) == int(i)
                # the byte-by-byte path that boards of more than 24 points take
                assert h._index_py_wide(ma, oa, None, None) == int(i)
                assert h.index_batch(np.array([ma]), np.array([oa]))[0] == i


def test_movement_total_ratio_is_within_budget():
    variant = get_variant("standard")
    subs = movement_subspaces(variant)
    slots = sum(slot_count(variant.board, s) for s in subs)
    positions = sum(count_positions(variant.board, s.m, s.o) for s in subs)
    assert positions == 8_904_593_601
    assert slots / positions <= 1.035


def test_subspace_names():
    assert Subspace.parse("9-8") == Subspace(9, 8)
    assert Subspace.parse("5-4+4+4").name == "5-4+4+4"
    assert Subspace(3, 3).pair == (Subspace(3, 3),)
    assert Subspace(3, 4).pair == (Subspace(4, 3), Subspace(3, 4))
    with pytest.raises(ValueError, match="bad subspace name"):
        Subspace.parse("9x8")


@pytest.mark.parametrize("name, m, o", [("standard", 3, 4), ("standard", 0, 3), ("standard", 5, 0),
                                        ("six", 2, 2), ("six", 4, 3), ("lasker", 1, 5)])
def test_a_walk_over_slots_meets_what_unindex_gives(name, m, o):
    """The count kernels step through a block's slots (``slot_walk``, ``walk_at``,
    ``walk_on``) instead of unranking each: from any start, across orbits (with nontrivial
    stabilizers, whose extra slots are unused) and with no mover piece at all."""
    from numba import njit

    from morris.kernels.hashing import slot_walk, walk_at, walk_on

    @njit
    def walk(T, Ob, m, o, start, movers, opps, used):
        w = slot_walk(T, Ob, m, o, start)
        for k in range(movers.shape[0]):
            movers[k], opps[k], used[k] = walk_at(T, m, o, w)
            w = walk_on(T, Ob, m, o, w)

    board = get_variant(name).board
    h = Hasher(board)
    sub = Subspace(m, o)
    slots = h.slots(sub)
    Ob = h.orbits({m, o})
    rng = np.random.default_rng(m * 10 + o)
    met_unused = False
    for start in [0, *rng.integers(0, slots, size=3)]:
        n = int(min(slots - start, 5000))
        movers, opps = np.zeros(n, np.int64), np.zeros(n, np.int64)
        used = np.zeros(n, np.bool_)
        walk(h.tables, Ob, m, o, int(start), movers, opps, used)
        want_m, want_o, want_u = h.unindex_batch(sub, np.arange(start, start + n))
        assert np.array_equal(movers, want_m) and np.array_equal(opps, want_o)
        assert np.array_equal(used, want_u)
        met_unused |= not used.all()
    if (name, m, o) in {("six", 2, 2), ("standard", 5, 0)}:
        assert met_unused  # (where the windows hold slots that symmetric anchors leave unused)


@pytest.mark.parametrize("name, m, o", [("standard", 3, 4), ("standard", 0, 3), ("standard", 9, 3),
                                        ("six", 2, 2), ("lasker", 1, 5)])
def test_unindex_from_the_colex_table_gives_what_unindex_gives(name, m, o):
    """``emit`` reads a slot's mover from a table of the colex-ordered subsets
    (``Hasher.colex_subsets``, ``unindex_from``) instead of unranking it: the table is the
    subsets in colex order (the pure-Python ``combinations``, ranked by their colex sums),
    and a slot's position from it is ``unindex_one``'s, used slots or not."""
    from math import comb

    board = get_variant(name).board
    h = Hasher(board)
    length = board.n - o
    table = h.colex_subsets(m, length)
    assert len(table) == comb(length, m)
    if length <= 16:
        ranked = sorted(combinations(range(length), m), key=lambda c: sum(comb(x, i + 1)
                                                                          for i, x in enumerate(c)))
        assert [sum(1 << x for x in c) for c in ranked] == table.tolist()
    sub = Subspace(m, o)
    rng = np.random.default_rng(m * 10 + o)
    idx = np.unique(rng.integers(0, h.slots(sub), size=5000))
    movers, opps = np.zeros(len(idx), np.int64), np.zeros(len(idx), np.int64)
    # the table behind another one, as emit reads a pair's second part
    U = np.concatenate([np.zeros(7, np.int32), table])
    _unindexed_from()(h.tables, h.orbits({m, o}), U, 7, m, o, idx, movers, opps)
    want_m, want_o, _ = h.unindex_batch(sub, idx)
    assert np.array_equal(movers, want_m) and np.array_equal(opps, want_o)


@lru_cache(maxsize=1)
def _unindexed_from():
    """A kernel over ``unindex_from`` (compiled once for every case of the test above)."""
    from numba import njit

    from morris.kernels.hashing import unindex_from

    @njit
    def positions(T, Ob, U, uoff, m, o, idx, movers, opps):
        for k in range(idx.shape[0]):
            movers[k], opps[k] = unindex_from(T, Ob, U, uoff, m, o, idx[k])

    return positions


@pytest.mark.parametrize("name", ["standard", "six", "morabaraba"])
def test_least_image_keeps_one_image_under_each_stabilizer(name):
    """The placement sweeps evaluate a position (M, O) of a symmetric mover representative M
    at one image only: ``least_image`` holds for exactly one member of every class {h(O) : h
    in M's stabilizer} (numpy's images, computed apart), the least, and always where the
    stabilizer is the identity alone."""
    from numba import njit

    from morris.kernels.hashing import least_image

    @njit
    def keep(T, stab, masks, out):
        for i in range(masks.shape[0]):
            out[i] = least_image(T, stab, masks[i])

    board = get_variant(name).board
    h = Hasher(board)
    T = h.tables
    ob = h.orbits(range(5))
    met = 0
    for m in range(5):
        for at in range(ob.reps_off[m], ob.reps_off[m + 1]):
            M, stab = int(ob.reps[at]), int(ob.stab[at])
            free = [p for p in range(board.n) if not M >> p & 1]
            opps = np.array([sum(1 << p for p in c) for c in combinations(free, 2)], np.int64)
            got = np.zeros(len(opps), np.bool_)
            keep(T, stab, opps, got)
            if stab == 1:
                assert got.all()
                continue
            met += 1
            least = opps.copy()
            for s in range(1, T.S):
                if stab >> s & 1:
                    assert np.array_equal(images(T, s, np.array([M], np.int64)), [M])
                    least = np.minimum(least, images(T, s, opps))
            assert np.array_equal(got, least == opps)
            assert got.sum() == len(np.unique(least)) < len(opps)
    assert met > 3
