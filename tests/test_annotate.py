"""morris annotate: game records read (toolkit tokens, Sanmill's lists), every ply graded with the
databases (here the shipped Six Men's Morris files), bad records refused in one line."""

import json
import random

import pytest
from click.testing import CliRunner

from morris import open_tablebase
from morris.apps.annotate import annotate_game, grade_ply
from morris.cli.main import cli
from morris.core.codes import NEGATE_NAME, VALUE_RANK
from morris.core.game import Game
from morris.core.position import Position
from morris.core.records import RecordError, read_games, split_records
from morris.core.variants import get_variant

SIX = get_variant("six")


def random_game(seed, plies=30):
    rng = random.Random(seed)
    game = Game(Position.start(SIX))
    for _ in range(plies):
        if game.result:
            break
        game.push(rng.choice(game.legal_moves()))
    return game


def test_records_in_both_notations_and_several_games():
    text = """
[Event "club night"]
[White "Ana"]
1. d2 b4 2. a4 g4 3. d7 f4 4. b2 a7 5. b6 a1 6. f2 xg4 g4 *

[Event "second"]
1.d2 b4 2.a4 g4 1-0
d6 f4
"""
    recs = split_records(text)
    assert [r.tags.get("Event") for r in recs] == ["club night", "second", None]
    assert [t for _, t in recs[0].tokens][-2:] == ["f2xg4", "g4"]  # the lone removal glued on
    assert (recs[1].result, len(recs[1].tokens), len(recs[2].tokens)) == ("1-0", 4, 2)
    games = read_games(text, SIX)
    assert [len(g.moves) for _, g in games] == [12, 4, 2]
    fen_game = read_games(f'[FEN "{games[0][1].positions[4].to_fen()}"]\nd7 f4', SIX)[0][1]
    assert fen_game.start == games[0][1].positions[4] and len(fen_game.moves) == 2


@pytest.mark.parametrize("text, said", [
    ("d2 b4 d2", "game 1, ply 3, 'd2'"),                    # an occupied point
    ("d2 b4\n\n[Event \"x\"]\nd2 zz", "game 2, ply 2, 'zz'"),  # not a token
    ("xg4 d2", "game 1: removal 'xg4' follows no move"),
    ('[Event "x"\nd2', "game 1: line 1 is not a tag line"),
    ('[FEN "nonsense"]\nd2', "game 1: its FEN tag"),
    ("", "no game in the input"),
])
def test_a_bad_record_is_one_line_exit_2_nothing_written(tmp_path, text, said):
    path = tmp_path / "games.txt"
    path.write_text(text)
    r = CliRunner().invoke(cli, ["annotate", str(path), "--variant", "six"])
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert r.stdout == ""
    line, = r.stderr.strip().splitlines()
    assert said in line and "Traceback" not in r.stderr, line
    with pytest.raises(RecordError):
        read_games(text, SIX)


@pytest.mark.parametrize("seed", range(4))
def test_every_grade_agrees_with_the_values_of_the_positions(seed):
    """Each ply's before and after values against probes of the position and the position the
    move leads to (from the other side), and blunder exactly where the value dropped."""
    game = random_game(seed)
    with open_tablebase(None) as tb:
        for i, mv in enumerate(game.moves):
            pos, nxt = game.positions[i], game.positions[i + 1]
            p = grade_ply(tb, pos, mv, i + 1)
            assert p.before == tb.probe_wdl(pos)
            after = tb.probe_wdl(nxt)
            assert p.after == (NEGATE_NAME[after] if nxt.turn != pos.turn else after)
            assert (p.grade == "blunder") == (VALUE_RANK[p.after] > VALUE_RANK[p.before])
            assert p.grade in ("best", "slip", "blunder")


def test_a_slower_win_is_a_slip_and_the_summary_counts_it():
    """From a won position: the fastest win is best, a win more than --slip plies slower a slip."""
    with open_tablebase(None) as tb:
        for seed in range(200):
            game = random_game(seed, 16)
            pos = game.position
            if game.result or tb.probe_wdl(pos) != "win":
                continue
            a = tb.analyze(pos)
            wins = [m for m in a.moves if m.value == "win"]
            slow = max(wins, key=lambda m: m.dtc)
            if slow.dtc > wins[0].dtc:
                break
        else:
            pytest.fail("no won position with wins of two lengths")
        assert grade_ply(tb, pos, wins[0].move, 1, slip=0).grade == "best"
        p = grade_ply(tb, pos, slow.move, 1, slip=0)
        assert p.grade == "slip" and p.best and str(wins[0].move) in p.best
        assert grade_ply(tb, pos, slow.move, 1, slip=slow.dtc - wins[0].dtc).grade == "best"


def test_the_json_and_the_table(tmp_path):
    games = [random_game(s, 20) for s in (1, 2)]
    text = "\n".join(" ".join(map(str, g.moves)) + " *" for g in games)
    r = CliRunner().invoke(cli, ["annotate", "-", "--variant", "six", "--json"], input=text)
    assert r.exit_code == 0, r.output
    objs = [json.loads(line) for line in r.output.splitlines()]
    assert [o["game"] for o in objs] == [1, 2]
    for o, g in zip(objs, games):
        assert [p["move"] for p in o["plies"]] == [str(m) for m in g.moves]
        s = o["summary"]
        assert s["sides"]["white"]["blunders"] == sum(p["grade"] == "blunder" and p["side"] == "white"
                                                      for p in o["plies"])
        assert s["start_value_for_white"] == "draw"  # Six Men's Morris is a draw
    r = CliRunner().invoke(cli, ["annotate", "-", "--variant", "six"], input=text)
    assert r.exit_code == 0 and r.output.count("game ") == 2 and "white:" in r.output


def test_a_ply_no_file_values_is_ungraded_saying_why(tmp_path):
    """The standard game past the opening book, with no database: each such ply says what is
    missing, and the command still answers for the others."""
    game = Game(Position.start(get_variant("standard")))
    rng = random.Random(0)
    for _ in range(14):
        game.push(rng.choice(game.legal_moves()))
    record = split_records(" ".join(map(str, game.moves)))[0]
    with open_tablebase(None, search="never") as tb:
        ann = annotate_game(tb, record, game)
    grades = [p.grade for p in ann.plies]
    assert grades[0] != "ungraded" and "ungraded" in grades
    assert all(p.why for p in ann.plies if p.grade == "ungraded")


def test_the_graph_marks_every_blunder(tmp_path):
    import xml.etree.ElementTree as ET

    games = [random_game(s, 24) for s in (1, 2)]
    src = tmp_path / "games.txt"
    src.write_text("\n".join(" ".join(map(str, g.moves)) + " *" for g in games))
    out = tmp_path / "course.svg"
    r = CliRunner().invoke(cli, ["annotate", str(src), "--variant", "six", "--json", "--graph", str(out)])
    assert r.exit_code == 0, r.output
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    for path, o in ((out, objs[0]), (tmp_path / "course-2.svg", objs[1])):
        root = ET.parse(path).getroot()
        ns = "{http://www.w3.org/2000/svg}"
        rings = root.findall(f"{ns}circle")
        marked = sum(p["grade"] in ("blunder", "slip") for p in o["plies"])
        assert len(rings) == marked and marked > 0
        assert root.findall(f"{ns}polyline")


def test_a_planted_blunder_is_flagged_at_its_ply_and_no_other():
    """Both sides play the best move of `query` (analyze) but for one ply where a move of a
    worse value is played: that ply, and no other, is a blunder; the summary says so."""
    with open_tablebase(None) as tb:
        game = Game(Position.start(SIX))
        planted = None
        while len(game.moves) < 24 and not game.result:
            a = tb.analyze(game.position)
            worse = [m for m in a.moves if VALUE_RANK[m.value] > VALUE_RANK[a.value]]
            if planted is None and len(game.moves) >= 6 and worse:
                game.push(worse[0].move)
                planted = len(game.moves)
            else:
                game.push(a.moves[0].move)
        assert planted is not None
        record = split_records(" ".join(map(str, game.moves)))[0]
        ann = annotate_game(tb, record, game)
    assert [p.ply for p in ann.plies if p.grade == "blunder"] == [planted]
    side = ann.plies[planted - 1].side
    from morris.apps.annotate import summary
    s = summary(ann)
    assert s["decided_at_ply"] == planted and s["sides"][side]["blunders"] == 1


def test_openspiel_histories_are_read_as_games(tmp_path):
    """annotate --openspiel: one action history a line (OpenSpiel's numbering, a capture its own
    action); a history with an illegal action is one line naming the game, exit 2."""
    r = CliRunner().invoke(cli, ["annotate", "-", "--openspiel", "--json"], input="0 21 1 22 2 22 9\n4,19\n")
    assert r.exit_code == 0, r.output
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [p["move"] for p in objs[0]["plies"]] == ["a7", "a1", "d7", "d1", "g7xd1", "a4"]
    assert [p["move"] for p in objs[1]["plies"]] == ["d6", "d2"]
    r = CliRunner().invoke(cli, ["annotate", "-", "--openspiel"], input="0 0\n")
    assert r.exit_code == 2 and r.stdout == "" and "game 1: action 0 (#2)" in r.stderr


def test_the_graph_as_png(tmp_path):
    """--graph FILE.png draws the course with matplotlib: a PNG, one per game."""
    pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is not installed")
    games = [random_game(s, 16) for s in (3, 4)]
    src = tmp_path / "games.txt"
    src.write_text("\n".join(" ".join(map(str, g.moves)) + " *" for g in games))
    out = tmp_path / "course.png"
    r = CliRunner().invoke(cli, ["annotate", str(src), "--variant", "six", "--graph", str(out)])
    assert r.exit_code == 0, r.output
    for path in (out, tmp_path / "course-2.png"):
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
