"""Runs that span sessions: ``morris solve --plan`` over a run in progress says what is done and
what is left, and ``scripts/long_run.py`` keeps a run's arguments, segments and refusals."""

import json
import os
import re

import pytest
from click.testing import CliRunner

from morris.cli.main import cli

from script_module import load

long_run = load("long_run")


def plan_progress(db, *args):
    r = CliRunner().invoke(cli, ["solve", "--out", str(db), "--variant", "six", *args, "--plan"])
    assert r.exit_code == 0, r.output
    lines = [x for x in r.output.splitlines() if x.startswith("in ")]
    return r.output, lines


def test_plan_says_how_far_a_run_into_out_is(tmp_path):
    db = tmp_path / "db"
    out, lines = plan_progress(db, "--max-pieces", "4")
    assert lines == []  # no folder yet: nothing to say
    r = CliRunner().invoke(cli, ["solve", "--out", str(db), "--variant", "six", "--max-pieces", "3",
                                 "--quiet"])
    assert r.exit_code == 0, r.output
    three = int(re.match(r"([\d,]+) jobs?", plan_progress(db, "--max-pieces", "3")[0]).group(1))
    out, lines = plan_progress(db, "--max-pieces", "4")
    total = int(re.match(r"([\d,]+) jobs", out).group(1).replace(",", ""))
    m = re.match(r"in .*: ([\d,]+) of ([\d,]+) jobs have their files", lines[0])
    assert (int(m.group(1)), int(m.group(2))) == (three, total) and three < total
    assert f"left: {total - three} jobs" in lines[0]
    # a file taken away: its job is no longer counted
    victim = next(p for p in (db).rglob("*") if p.is_file() and p.name.startswith("3-3"))
    victim.unlink()
    m = re.match(r"in .*: ([\d,]+) of", plan_progress(db, "--max-pieces", "4")[1][0])
    assert int(m.group(1)) == three - 1


def beat(path, lines):
    path.write_text("".join(line + "\n" for line in lines))


def test_segments_are_timed_from_their_heartbeats(tmp_path):
    run = tmp_path / "runs" / "game"
    (run / "logs").mkdir(parents=True)
    beat(run / "logs" / "run.1.heartbeat", ["1000 00:00:00 start run --variant six",
                                            "1030 00:00:30", "4600 01:00:00"])  # killed
    beat(run / "logs" / "run.2.heartbeat", ["9000 00:00:00 start run --variant six",
                                            "9030 00:00:30", "10800 00:30:00 end run rc=0"])
    segs = long_run.segments(str(run))
    assert [s["segment"] for s in segs] == [1, 2]
    assert segs[0]["hours"] == pytest.approx(1.0) and segs[0]["rc"] is None
    assert segs[1]["hours"] == pytest.approx(0.5) and segs[1]["rc"] == "0"
    (run / "args.json").write_text(json.dumps(["--variant", "six"]))
    text = "\n".join(long_run.status(str(tmp_path / "runs"), "game"))
    assert "1.50 h of running over 2 segment(s)" in text
    assert "killed (timed to its last beat)" in text and "exit 0" in text
    assert "not running" in text


@pytest.mark.parametrize("args,why", [
    (["--variant", "lasker"], "resume it with no arguments"),
    (["--out", "x", "--variant", "six"], None),
])
def test_start_refuses_what_would_mix_runs(tmp_path, args, why):
    runs = tmp_path / "runs"
    (runs / "game" / "logs").mkdir(parents=True)
    (runs / "game" / "args.json").write_text(json.dumps(["--variant", "six"]))
    name = "game" if why else "other"
    with pytest.raises(long_run.RunError, match=why or "leave --out out"):
        long_run.start(str(runs), name, args)
    assert not (runs / "other" / "env").exists()  # refused before anything was installed


def test_new_run_without_arguments_and_bad_names_are_refused(tmp_path):
    with pytest.raises(long_run.RunError, match="give the solve's arguments"):
        long_run.start(str(tmp_path), "fresh", [])
    for bad in ("../x", ".hidden", ""):
        with pytest.raises(long_run.RunError, match="one plain folder name"):
            long_run.run_dir(str(tmp_path), bad)
    assert long_run.main(["--runs", str(tmp_path / "none"), "status"]) == 2
