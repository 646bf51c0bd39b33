"""The command-line tool, in process (click) and as the installed script."""

import json
import os
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from morris.cli.main import cli


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_moves_json_seed_example():
    r = run("moves", "a1,d1/d2 w 7 8", "--json")
    assert r.exit_code == 0
    tokens = json.loads(r.output)
    assert "g1xd2" in tokens and len(tokens) == 21


def test_bad_position_is_one_line_and_exit_2():
    r = CliRunner().invoke(cli, ["moves", "a1,z9/d2 w 7 8"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        r.output.strip().splitlines()[0]
    ] and r.output.startswith("IllegalPositionError: unknown point 'z9'")


def test_show_and_perft():
    r = run("show", "start", "--variant", "six")
    assert r.exit_code == 0 and "white to move" in r.output
    r = run("perft", "start", "4")
    assert "perft(4) = 255024" in r.output
    r = run("perft", "start", "3", "--python", "--divide")
    assert "perft(3) = 12144" in r.output and "a1: 506" in r.output


def test_rule_flags():
    r = run("moves", "a1,d1,g4,g7/b2,d6,f6,c5 w 5 5", "--double-mill-removes", "2", "--json")
    assert sum(t.startswith("g1x") for t in json.loads(r.output)) == 6
    r = run("moves", "a1,d1,g4/a7,d7,b6,f6 w", "--no-flying", "--json")
    assert "a1-e4" not in json.loads(r.output)


def test_subspaces_json():
    r = run("subspaces", "--json")
    rows = json.loads(r.output)
    assert len(rows) == 49
    assert set(rows[0]) == {"subspace", "slots", "positions"}
    assert sum(x["positions"] for x in rows) == 8_904_593_601


def test_query_json_and_stdin(solved):
    r = run("query", "--db", solved, "--json", "a1,d1,g1/a7,d7,g7 w", "-", input="a1,d1,g1,b2/a7,d7,g7 b\n")
    assert r.exit_code == 0
    lines = [json.loads(x) for x in r.output.strip().splitlines()]
    assert len(lines) == 2
    first = lines[0]
    assert first["position"] == "a1,d1,g1/a7,d7,g7 w"
    assert first["value"] == "win" and first["dtc"] == 3
    # no dtw files here: dtw is null, the key is always there
    assert first["moves"][0] == {"move": "a1-d2", "value": "win", "dtc": 3, "dtw": None,
                                 "draw_value": None, "draw_distance": None}
    assert first["dtw"] is None


def test_query_bad_and_missing_positions(solved):
    r = CliRunner().invoke(cli, ["query", "--db", solved, "--json", "a1,z9/d2 w", "a1,d1,g1,b2,b4/a7,d7,g7 w"])
    assert r.exit_code == 2
    lines = [json.loads(x) for x in r.output.strip().splitlines()]
    assert "IllegalPositionError" in lines[0]["error"]
    assert "MissingSubspaceError" in lines[1]["error"]
    # only a missing file: the status of missing data, not of bad input
    r = CliRunner().invoke(cli, ["query", "--db", solved, "--json", "a1,d1,g1,b2,b4/a7,d7,g7 w"])
    assert r.exit_code == 3, r.output


def test_stats_json(solved):
    rows = json.loads(run("stats", "--db", solved, "--json").output)
    keys = {"subspace", "positions", "wins", "draws", "losses", "max_win_dtc", "max_loss_dtc", "bytes"}
    assert all(keys <= set(r) for r in rows)
    r33 = next(r for r in rows if r["subspace"] == "3-3" and r["ruleset"] == "standard")
    assert r33["positions"] == 169_626 and r33["wins"] + r33["draws"] + r33["losses"] == 169_626


def test_verify_exit_codes(solved, tmp_path):
    db = tmp_path / "db"
    shutil.copytree(os.path.join(solved, "six-nofly"), db / "six-nofly")  # (all of `solved`: test_solver)
    assert run("verify", "--db", str(db), "--quiet").exit_code == 0
    p = db / "six-nofly" / "3-3.mtb"
    p.write_bytes(p.read_bytes()[:-100])
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--quiet"])
    assert r.exit_code == 3 and "FAIL" in r.output and "3-3.mtb" in r.output


def test_verify_says_each_file_as_it_ends(solved, tmp_path, monkeypatch):
    """A long check killed part way has written a line for every file it finished: each file's
    line comes when its forward check ends, not all of them at the end."""
    from morris.solving import verify as verify_module

    db = tmp_path / "db"
    shutil.copytree(os.path.join(solved, "six-nofly"), db / "six-nofly")
    full = run("verify", "--db", str(db), "--quiet").output.splitlines()
    assert "verified" in full[-1]
    per_file = [x for x in full if x.startswith("ok   ")]
    assert len(per_file) >= 3

    class Killed(Exception):
        pass

    real = verify_module._forward_one
    calls = []

    def dies_at_the_third(*args):
        calls.append(args[0].path)
        if len(calls) == 3:
            raise Killed
        return real(*args)

    monkeypatch.setattr(verify_module, "_forward_one", dies_at_the_third)
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--quiet"])
    assert isinstance(r.exception, Killed)
    assert r.output.splitlines() == per_file[:2]  # the two files checked, as the full run said


def test_installed_script():
    morris = shutil.which("morris")
    if morris is None:
        pytest.skip("morris is not installed on PATH")
    out = subprocess.run([morris, "moves", "a1,d1/d2 w 7 8", "--json"], capture_output=True, text=True)
    assert out.returncode == 0 and "g1xd2" in json.loads(out.stdout)
