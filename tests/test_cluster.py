"""Solving through executors: a local process pool and a Dask LocalCluster."""

import os
import signal
import sys
import threading
import time

import pytest
from click.testing import CliRunner

from morris.cli.main import cli
from filetree import files_of
from morris.solving import schedule
from morris.core.progress import Reporter
from morris.core.variants import get_variant


def standard_files(solved):
    return {k: v for k, v in files_of(solved, ".mtb").items() if k.startswith("standard/") and "+" not in k}


def test_process_pool_gives_identical_files(solved, tmp_path):
    pool = schedule.local_pool(2)
    try:
        schedule.solve(str(tmp_path), get_variant("standard"), max_pieces=4, reporter=Reporter(quiet=True),
                       executor=pool, threads=1)
    finally:
        pool.shutdown()
    assert files_of(tmp_path, ".mtb") == standard_files(solved)


@pytest.mark.parametrize("alone", [100_000, 60_000])
def test_a_heavy_job_runs_alone_on_every_core(tmp_path, alone):
    """With ``alone`` (what --jobs N sets: schedule.ALONE), a job of that many positions starts
    only when nothing runs and gets every core's thread, nothing starts beside it, and the
    others run at most ``slots`` at a time on their share; the files are the plain solve's."""
    from concurrent.futures import Future

    launched, running = [], set()

    class Collected(Future):
        """A job's future: the driver reads its result when it collects the job."""
        def result(self, timeout=None):
            running.discard(self.name)
            return super().result(timeout)

    class Recording:
        """Runs each job at once and records what ran beside it (jobs not yet collected:
        the driver collects finished jobs only after it has started what it may)."""
        def submit(self, fn, out, desc, job, threads, *rest):
            launched.append((job.name, threads, set(running)))
            running.add(job.name)
            f = Collected()
            f.name = job.name
            f.set_result(fn(out, desc, job, threads, *rest))
            return f

    # Six Men's Morris up to 5 a side: 4-4 and 5-3/3-5 (56,748 and 90,540 positions) both wait
    # for 4-3/3-4 only: side by side under 100,000, and under 60,000 5-3/3-5 waits for 4-4 to
    # end; 5-4/4-5 and 5-5 (180,840 and 126,516) run alone
    six = get_variant("six")
    schedule.solve(str(tmp_path / "pool"), six, max_pieces=5, reporter=Reporter(quiet=True),
                   executor=Recording(), threads=1, slots=2, alone=alone, cores=2)
    heavy = {"5-4/4-5", "5-5"} | ({"5-3/3-5"} if alone < 90_540 else set())
    assert len(launched) == 6
    for name, threads, beside in launched:
        assert threads == (2 if name in heavy else 1), name
        assert not beside if name in heavy else len(beside) < 2 and not beside & heavy, (
            name, beside)
    assert any(beside for _, _, beside in launched) == (alone > 90_540)
    schedule.solve(str(tmp_path / "inline"), six, max_pieces=5, reporter=Reporter(quiet=True))
    assert files_of(tmp_path / "pool", ".mtb") == files_of(tmp_path / "inline", ".mtb")


def test_dask_local_cluster_gives_identical_files(solved, tmp_path):
    pytest.importorskip("distributed")
    r = CliRunner().invoke(cli, ["solve", "--out", str(tmp_path), "--max-pieces", "4", "--dask", "local:2", "--quiet"])
    assert r.exit_code == 0, r.output
    assert files_of(tmp_path, ".mtb") == standard_files(solved)


def test_a_killed_worker_does_not_stop_the_solve(standard5, tmp_path):
    """A worker killed once the first pair is written (the others running): the solve ends
    without an error, and its 9 files are the plain solve's, byte for byte."""
    pytest.importorskip("distributed")
    from morris.solving.cluster import dask_executor

    variant = get_variant("standard")
    kwargs, close = dask_executor("local:2", variant, Reporter(quiet=True))
    errors = []

    def run():
        try:
            schedule.solve(str(tmp_path), variant, max_pieces=5, reporter=Reporter(quiet=True), **kwargs)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    t = threading.Thread(target=run)
    t.start()
    # wait until the first pair is written, then kill a worker while the others run
    first = tmp_path / "standard" / "3-3.mtb"
    deadline = time.time() + 300
    while not first.exists() and time.time() < deadline:
        time.sleep(0.05)
    from distributed import default_client

    pids = list(default_client().run(os.getpid).values())
    os.kill(pids[0], signal.SIGKILL)
    t.join(timeout=600)
    close()
    assert not errors, errors
    done = files_of(tmp_path, ".mtb")
    assert len(done) == 9 and done == files_of(standard5, ".mtb")


def test_missing_dask_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    r = CliRunner().invoke(cli, ["solve", "--out", str(tmp_path), "--max-pieces", "3", "--dask", "local:2"])
    assert r.exit_code == 2
    assert "pip install" in r.output and "dask" in r.output


def test_plan_prints_the_critical_path():
    r = CliRunner().invoke(cli, ["solve", "--out", "unused", "--plan"])
    assert r.exit_code == 0
    assert "critical path (13 jobs, 5,328,038,462 positions" in r.output
    assert "9-8/8-9 -> 9-9" in r.output


def test_plan_estimates_time_and_disk_from_the_measured_rates():
    r = CliRunner().invoke(cli, ["solve", "--out", "unused", "--plan"])
    # the standard movement phase: 8,904,593,601 positions at the measured rate on 2 cores and
    # the measured bytes a position (schedule.RATES, docs/benchmarks.md)
    rate, per_position = schedule.rate_of(get_variant("standard"), "movement")
    secs, size = 8_904_593_601 / (2 * rate), 8_904_593_601 * per_position
    assert (f"estimate: about {schedule.human_time(secs)} on 2 cores and "
            f"{schedule.human_bytes(size)} of files (standard's rates by kind of job") in r.output
    # both phases: each job at the rate of its kind (the placement sweep's, not the movement's)
    v = get_variant("standard")
    jobs, _ = schedule.job_graph(v, phase="all")
    secs, size = schedule.estimate(v, jobs)
    movement_only = sum(j.weight(v) for j in jobs) / (2 * rate)
    assert abs(secs - movement_only) > 0.1 * secs
    r = CliRunner().invoke(cli, ["solve", "--out", "unused", "--plan", "--phase", "all"])
    assert f"estimate: about {schedule.human_time(secs)} on 2 cores and {schedule.human_bytes(size)}" in r.output


@pytest.mark.parametrize("name", ["six", "morabaraba", "lasker"])
def test_each_game_is_estimated_at_its_own_rates(name):
    """Each job at the rate of its game and kind: a game's plan is not the standard game's."""
    v = get_variant(name, pieces=5)
    jobs, _ = schedule.job_graph(v, phase="all", dtw=True, draws=True)
    secs, size = schedule.estimate(v, jobs)
    want = [schedule.rate_of(v, schedule.job_kind(j)) for j in jobs]
    assert secs == pytest.approx(sum(j.weight(v) / (2 * r) for j, (r, _) in zip(jobs, want)))
    assert size == pytest.approx(sum(j.weight(v) * b for j, (_, b) in zip(jobs, want)))
    assert name in schedule.RATES
    assert {schedule.job_kind(j) for j in jobs} <= set(schedule.RATES[name])
    standard = get_variant("standard")
    assert any(schedule.rate_of(v, k) != schedule.rate_of(standard, k) for k in schedule.RATES[name])
    r = CliRunner().invoke(cli, ["solve", "--out", "unused", "--plan", "--variant", name, "--pieces", "5",
                                 "--phase", "all", "--dtw", "--draws"])
    assert r.exit_code == 0, r.output
    assert (f"estimate: about {schedule.human_time(secs)} on 2 cores and "
            f"{schedule.human_bytes(size)} of files ({name}'s rates by kind of job") in r.output
