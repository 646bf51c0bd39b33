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
    def beats(start, stop):
        return [f"{t} 00:00:00" for t in range(start, stop + 1, 30)]

    # killed an hour after its start
    beat(run / "logs" / "run.1.heartbeat", ["1000 00:00:00 start run --variant six"] + beats(1030, 4600))
    # 15 minutes, paused for 10 (no beats), 15 more, then its end
    beat(run / "logs" / "run.2.heartbeat", ["9000 00:00:00 start run --variant six"] + beats(9030, 9900)
         + beats(10500, 11370) + ["11400 00:00:00 end run rc=0"])
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


def test_pause_stops_the_segment_and_cont_lets_it_go_on(tmp_path):
    """``pause`` stops every process of the segment's group (SIGSTOP), ``cont`` lets them go on,
    each written down in logs/pauses; the segment's session is lowered to nice 19 as a whole
    where the kernel has autogroups."""
    import signal
    import subprocess
    import time

    run = tmp_path / "runs" / "game"
    (run / "logs").mkdir(parents=True)
    p = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        (run / "pid").write_text(f"{p.pid}\n")
        long_run.lower_group(p.pid)
        group = f"/proc/{p.pid}/autogroup"
        if os.path.exists(group):
            assert open(group).read().split()[-1] == "19"

        def state():
            for _ in range(100):  # (the signal is delivered soon, not at once)
                s = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()[0]
                if s in want:
                    return s
                time.sleep(0.02)
            return s

        long_run.pause(str(tmp_path / "runs"), "game")
        want = "T"
        assert state() == "T"
        long_run.pause(str(tmp_path / "runs"), "game", cont=True)
        want = "SR"
        assert state() in "SR"
        assert [line.split()[1] for line in (run / "logs" / "pauses").read_text().splitlines()] == ["pause", "cont"]
    finally:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    with pytest.raises(long_run.RunError, match="not running"):
        long_run.pause(str(tmp_path / "runs"), "game")
