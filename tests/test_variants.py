from morris.core.variants import MORABARABA_BOARD, SIX_BOARD, STANDARD_BOARD, get_variant
from morris.core.errors import UnknownVariantError
import pytest


def test_standard_board_geometry():
    b = STANDARD_BOARD
    assert b.n == 24
    assert len(b.mills) == 16
    assert len(b.edges) == 32
    # every point lies on exactly two mills
    assert all(len(pm) == 2 for pm in b.point_mills)
    # corners have 2 neighbours, midpoints of outer/inner rings 3, middle ring midpoints 4
    degrees = {p: bin(b.adjacency[i]).count("1") for i, p in enumerate(b.points)}
    assert degrees["a1"] == 2 and degrees["d1"] == 3 and degrees["d2"] == 4 and degrees["d3"] == 3
    names = {frozenset(b.names(m)) for m in b.mill_masks}
    for mill in (("a1", "d1", "g1"), ("a1", "a4", "a7"), ("d7", "d6", "d5"), ("a4", "b4", "c4"),
                 ("e4", "f4", "g4"), ("d3", "d2", "d1"), ("c3", "c4", "c5")):
        assert frozenset(mill) in names
    # no diagonals
    assert not b.adjacency[b.index["a1"]] >> b.index["b2"] & 1


def test_six_board_geometry():
    b = SIX_BOARD
    assert b.n == 16
    assert len(b.mills) == 8
    assert "d5" not in b.index
    # midpoints joined across, but there is no mill across the two squares
    assert b.adjacency[b.index["d7"]] >> b.index["d6"] & 1
    assert all(len(m) == 3 for m in b.mills)
    assert frozenset(("d6", "d7")) not in {frozenset(b.names(m)) for m in b.mill_masks}


@pytest.mark.parametrize("board", [STANDARD_BOARD, SIX_BOARD, MORABARABA_BOARD])
def test_symmetry_group_is_computed_and_closed(board):
    g = board.symmetries
    assert len(g) == 16
    assert g.perms[0] == tuple(range(board.n))
    perms = set(g.perms)
    for a in g.perms:
        for c in g.perms:
            assert tuple(a[c[i]] for i in range(board.n)) in perms
        # each keeps adjacency and mills
        for x, y in board.edges:
            assert board.adjacency[a[x]] >> a[y] & 1
        mills = {frozenset(m) for m in board.mills}
        for m in board.mills:
            assert frozenset(a[p] for p in m) in mills


def test_variant_options_and_ids():
    assert get_variant("standard").ruleset_id == "standard"
    assert get_variant("standard-5").ruleset_id == "standard"
    assert get_variant("six").ruleset_id == "six-nofly"
    v = get_variant("standard", flying=False, double_mill_removes=2, no_removal_limit=100)
    assert v.ruleset_id == "standard-nofly-dm2-limit100"
    assert get_variant("standard-4").pieces == 4
    with pytest.raises(UnknownVariantError, match="unknown variant 'lasker9'"):
        get_variant("lasker9")
    with pytest.raises(UnknownVariantError, match="1 or 2"):
        get_variant("standard", double_mill_removes=3)
