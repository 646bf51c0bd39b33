"""The lookup API: probe, get, analyze, variants and terminal positions."""

import os
import shutil

import pytest

from morris.core.errors import MissingSubspaceError, VariantMismatchError
from morris.core.position import Position
from morris.hashing.subspaces import Subspace
from morris.lookups.tablebase import open_tablebase
from morris.core.variants import get_variant


def test_probe_values_and_distances(solved):
    with open_tablebase(solved) as tb:
        r = tb.probe(Position.parse("a1,d1,g1/a7,d7,g7 w"))
        assert r.value == "win" and r.dtc == 3
        assert tb.probe_wdl(Position.parse("a1,d1,g1/a7,d7,g7 w")) == "win"
        # a finished game needs no file
        assert tb.probe(Position.parse("a1,d1/a7,d7,g7 w")).value == "loss"
        assert tb.probe(Position.parse("a1,d1,g1,d2/a4,g4,b2,f2,d3 w")) .dtc == 0


def test_analyze_is_consistent_with_probe(solved):
    """Every move's value is the negation of the probed result, and the position's value is
    that of its best move, on many positions of several subspaces."""
    import numpy as np

    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace

    v = get_variant("standard")
    h = Hasher(v.board)
    rng = np.random.default_rng(5)
    with open_tablebase(solved) as tb:
        for sub in (Subspace(3, 3), Subspace(4, 3), Subspace(3, 4), Subspace(4, 4)):
            idx = rng.integers(0, h.slots(sub), 150)
            movers, opps, used = h.unindex_batch(sub, idx)
            for m, o, u in zip(movers, opps, used):
                if not u:
                    continue
                pos = Position.from_mover(v, int(rng.integers(2)), int(m), int(o))
                a = tb.analyze(pos)
                assert len(a.moves) == len(pos.legal_moves())
                best = a.moves[0] if a.moves else None
                if best is None:
                    assert a.value == "loss" and a.dtc == 0
                    continue
                assert best.value == a.value
                if a.value == "win":
                    assert a.dtc == min(mi.dtc for mi in a.moves if mi.value == "win")
                elif a.value == "loss":
                    assert a.dtc == max(mi.dtc for mi in a.moves)
                    assert all(mi.value == "loss" for mi in a.moves)
                else:
                    assert a.dtc is None and all(mi.value != "win" for mi in a.moves)


def test_colours_do_not_matter(solved):
    with open_tablebase(solved) as tb:
        w = tb.probe(Position.parse("a1,d1,g1,b2/a7,d7,g7 w"))
        b = tb.probe(Position.parse("a7,d7,g7/a1,d1,g1,b2 b"))
        assert w == b


def test_six_and_standard_live_side_by_side(solved):
    with open_tablebase(solved) as tb:
        six = Position.parse("a1,d1,g1/a7,d7,b6 w", "six")
        std = Position.parse("a1,d1,g1/a7,d7,b6 w")
        # the same points on two boards: each read from its own ruleset's file, and each value
        # the best of its own moves (a wrong file would break that)
        for pos in (six, std):
            a = tb.analyze(pos)
            best = a.moves[0]
            assert a.value == best.value and a.dtc == best.dtc, pos
        assert tb.table(six.variant, Subspace(3, 3)).path != tb.table(std.variant, Subspace(3, 3)).path
        with pytest.raises(MissingSubspaceError, match="5-3"):
            tb.probe(Position.parse("a1,d1,g1,b2,b4/a7,d7,g7 w"))


def test_other_rules_are_an_error_not_a_wrong_answer(solved, tmp_path):
    db = tmp_path / "db"
    shutil.copytree(solved, db)
    # pretend the standard files were the no-flying ruleset
    shutil.copytree(db / "standard", db / "standard-nofly")
    nofly = get_variant("standard", flying=False)
    with open_tablebase(db) as tb:
        with pytest.raises(VariantMismatchError, match="not the rules"):
            tb.probe(Position.parse("a1,d1,g1,b2/a7,d7,g7 w", nofly))


def test_missing_directory(tmp_path):
    with pytest.raises(MissingSubspaceError, match="no such database directory"):
        open_tablebase(tmp_path / "nothing")


def test_one_search_per_rules_and_piece_count(placed, tmp_path):
    """The placement search is cached per rules *and* piece count: standard-3, then standard-4,
    then standard-3 again, over one set of movement files, each answered as the placement files
    in ``placed`` say (a search loaded for 3 pieces once answered standard-4 wrongly, and
    crashed on standard-5's positions)."""
    import shutil

    from morris.database.folders import file_path
    from morris.hashing.subspaces import movement_subspaces
    from morris.core.variants import get_variant

    four = get_variant("standard-4")
    for s in movement_subspaces(four):  # movement files only: every placement answer is searched
        dst = file_path(str(tmp_path), four, s)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(file_path(placed, four, s), dst)
    with open_tablebase(placed, shipped=False, search="never") as truth, \
            open_tablebase(str(tmp_path), shipped=False, search="auto") as tb:
        for name in ("standard-3", "standard-4", "standard-3", "standard-4"):
            v = get_variant(name)
            start = Position.start(v)
            a = tb.analyze(start)
            assert a.source == "search"
            assert a.value == truth.probe(start).value, name
            after = start.play(start.legal_moves()[0])
            assert tb.analyze(after).value == truth.probe(after).value, name


def test_a_cap_on_open_files_keeps_the_answers(solved):
    """At most ``max_open`` files stay open (lookups.files, as python-chess's max_fds): probes
    over many subspaces with a cap of 3 answer as an uncapped tablebase does, and never hold
    more than 3 files open."""
    import random

    v = get_variant("six")
    rng = random.Random(4)
    positions = []
    while len(positions) < 60:
        pos = Position.start(v)
        for _ in range(rng.randrange(14, 40)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos = pos.play(rng.choice(moves))
        if pos.outcome() is None and not pos.in_placement:
            positions.append(pos)
    assert len({(p.mover.bit_count(), p.opponent.bit_count()) for p in positions}) > 3
    with open_tablebase(solved, shipped=False, search="never") as free, \
            open_tablebase(solved, shipped=False, search="never", max_open=3) as capped:
        for p in positions:
            assert capped.analyze(p).moves == free.analyze(p).moves
            assert capped._files.open_count <= 3
