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


# ---------------------------------------------------------------------------- presets (--rules)
def test_every_preset_is_its_variant_and_options_and_rules_lists_them():
    """Each preset is its variant with its options (and nothing else changed); `morris rules`
    prints each with the flags that select the same rules, which read back to the same variant."""
    import json
    import shlex

    from click.testing import CliRunner

    from morris.cli.main import cli
    from morris.cli.options import make_variant
    from morris.core.variants import PRESETS

    assert {"cetinsgame", "cetinsgame-no-flying", "juego-del-molino", "juego-del-molino-variantes"} <= set(PRESETS)
    r = CliRunner().invoke(cli, ["rules", "--json"])
    assert r.exit_code == 0, r.output
    rows = {row["name"]: row for row in json.loads(r.output)}
    assert set(rows) == set(PRESETS)
    for name, p in PRESETS.items():
        v = get_variant(rules=name)
        base = get_variant(p.variant)
        want = {**{f: getattr(base.rules, f) for f in ("flying", "double_mill_removes", "no_removal_limit")},
                **dict(p.options)}
        assert {f: getattr(v.rules, f) for f in want} == want, name
        args = shlex.split(rows[name]["flags"])
        ctx = cli.commands["moves"].make_context("moves", ["start", *args])
        kw = dict(ctx.params)  # (make_variant takes the rule options it knows from them)
        assert make_variant(kw) == v, name
    text = CliRunner().invoke(cli, ["rules"]).output
    assert "--no-flying --double-mill-removes 2 --no-removal-limit 100" in text and "page 004" in text
    assert get_variant(rules="juego-del-molino-variantes").rules.double_mill_removes == 2
    assert get_variant(rules="cetinsgame").rules.no_removal_limit == 50


@pytest.mark.parametrize("args, words", [
    (["--rules", "cetinsgame", "--no-removal-limit", "40"], ["no-removal-limit 50", "40 contradicts"]),
    (["--rules", "cetinsgame", "--variant", "six"], ["variant 'standard'", "not 'six'"]),
    (["--rules", "juego-del-molino-variantes", "--flying"], ["flying False", "True contradicts"]),
    (["--rules", "fide"], ["unknown rules 'fide'", "cetinsgame"]),
])
def test_a_flag_that_contradicts_the_preset_is_one_line_exit_2(args, words):
    from click.testing import CliRunner

    from morris.cli.main import cli

    r = CliRunner().invoke(cli, ["moves", "start", *args])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and all(w in lines[0] for w in words), r.output


def test_a_preset_repeated_by_its_flags_is_accepted_and_reaches_the_engine_and_the_server():
    import io

    from click.testing import CliRunner

    from morris.apps.engine import Engine
    from morris.apps.explorer import variant_of
    from morris.cli.main import cli

    r = CliRunner().invoke(cli, ["moves", "start", "--rules", "cetinsgame", "--no-removal-limit", "50",
                                 "--variant", "standard"])
    assert r.exit_code == 0 and "d1" in r.output, r.output
    out = io.StringIO()
    e = Engine(None, out=out)
    e.handle("setoption name Rules value juego-del-molino-variantes")
    assert e.variant == get_variant(rules="juego-del-molino-variantes")
    e.handle("setoption name Rules value nope")
    assert "unknown rules 'nope'" in out.getvalue()
    e.handle("uci")
    assert "option name Rules type combo default standard" in out.getvalue()
    assert variant_of({"rules": "cetinsgame-no-flying"}) == get_variant(rules="cetinsgame-no-flying")
    with pytest.raises(Exception, match="contradicts"):
        variant_of({"rules": "cetinsgame", "no_removal_limit": "30"})


def test_six_hand_counts_the_hand_and_agrees_with_plain_recursion(tmp_path):
    """``six-hand`` (docs/architecture.md, "Adding a game": one line in variants.py): its files in
    their own folder, and every placement position with up to 3 pieces left in hand, 4 a side:
    value, dtc and dtw against plain recursion over core/rules.py (tests/naive.py)."""
    import random

    import naive
    from morris.core.position import Position
    from morris.core.progress import Reporter
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import placement_subspaces
    from morris.lookups.tablebase import open_tablebase
    from morris.solving.schedule import solve

    v = get_variant("six-hand", pieces=4)
    assert v.ruleset_id == get_variant("six", count_hand=True).ruleset_id == "six-nofly-hand"
    solve(tmp_path, v, phase="all", reporter=Reporter(quiet=True), dtw=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["six-nofly-hand"]
    plain_variant, plain_db = get_variant("six", pieces=4), tmp_path / "plain"
    solve(plain_db, plain_variant, phase="all", reporter=Reporter(quiet=True), dtw=True)
    h, rng, memo = Hasher(v.board), random.Random(3), {}
    differ = checked = 0
    with open_tablebase(tmp_path, shipped=False, search="never") as tb:
        def movement(mover, opp):
            p = Position.from_masks(v, mover, opp, 0)
            return (tb.probe(p).value, (tb.probe(p).dtc, tb.probe_dtw(p)))

        for s in placement_subspaces(v):
            if s.hm + s.ho > 3:
                continue
            found = 0
            while found < 15:  # (a slot of no position: drawn again)
                mover, opp, used = h.unindex_py(s, rng.randrange(h.slots(s)), h.anchor_reps(s.o))
                if not used:
                    continue
                found += 1
                pos = Position.from_masks(v, mover, opp, 0, s.hm, s.ho)
                state = (pos.mover, pos.opponent, pos.mover_hand, pos.opponent_hand)
                want = naive.placement_recursion(v, state, movement, memo, naive.dtc_dtw_of_moves)
                r = tb.probe(pos)
                assert (r.value, (r.dtc, tb.probe_dtw(pos))) == want, pos.to_compact()
                checked += 1
                with open_tablebase(plain_db, shipped=False, search="never") as plain:
                    pp = Position.from_masks(plain_variant, mover, opp, 0, s.hm, s.ho)
                    differ += (plain.probe(pp).value, plain.probe_dtw(pp)) != (r.value, tb.probe_dtw(pos))
    # the hand counted changes the game: positions whose dtw differs from Six's own (a player
    # with 2 on the board and in hand loses at once, not when placement ends)
    assert checked >= 150 and differ > 0, (checked, differ)
