"""bench/profile_solve.py: the phases it times are the library's, and its rows add up."""

import json
import os
import sys

import numpy as np

from script_module import load


def test_the_profile_times_every_phase_once_and_adds_up(tmp_path, capsys, whole_game):
    # (whole_game, unused: it puts the test in the worker that compiles the two-phase kernels
    # with dtw and draw values anyway, conftest.SHARED_FIXTURES)
    profile_solve = load("profile_solve")
    from morris.kernels import retro as kernels
    from morris.solving import jobs, retro

    before = (retro.count, jobs.write_table, kernels.emit)
    out = tmp_path / "json"
    assert profile_solve.main(["--out", str(tmp_path / "tb"), "--variant", "standard-3", "--phase", "all",
                               "--dtw", "--draws", "--json", str(out)]) == 0
    prof = json.loads(out.read_text())
    phases, calls = prof["phases"], prof["calls"]
    # standard-3 has one movement pair (3-3): each of its phases once; every file written is timed
    for phase in ("values: count", "values: propagate", "values: finish", "dtw: count exits",
                  "dtw: propagate", "draw values: pair"):
        assert calls[phase] == 1, phase
    written = [f for _, _, files in os.walk(tmp_path / "tb") for f in files]
    assert calls["placement: sweep"] == sum(f.endswith(".mtb") and "+" in f for f in written) > 10
    # (each file a job writes, and the pruned file beside each dtw file the pruning then takes)
    from morris.format.fileformat import TableFile

    pruned = 0
    for root, _, files in os.walk(tmp_path / "tb"):
        for f in files:
            if f.endswith(".mtw"):
                with TableFile(os.path.join(root, f)) as tf:
                    pruned += tf.pruned()
    assert pruned > 10 and calls["compress and write"] == len(written) + pruned
    assert calls["prune dtw at the end"] == 1
    assert all(s >= 0 for s in phases.values())
    cpu = prof["cpu"]  # (CPU seconds per phase, "other" the rest: they add up to the total)
    assert set(phases) <= set(cpu) and cpu["total"] > 0
    assert abs(sum(v for k, v in cpu.items() if k != "total") - cpu["total"]) < 1e-6
    assert sum(phases.values()) <= prof["total"]
    assert "compress and write" in capsys.readouterr().out
    # the library's functions are as they were once the profile is done
    assert (retro.count, jobs.write_table, kernels.emit) == before
    assert prof["kernel_calls"]["retro.count_pass"] >= 1 and prof["kernels"]["retro.emit"] > 0


def test_the_pair_bench_times_each_phase_and_leaves_the_library_as_it_was(six_small, capsys):
    bench_pair = load("bench_pair")
    from morris.core.variants import get_variant
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.kernels import draws
    from morris.solving import retro

    before = (retro._Levels.step, draws.count_draws)
    bench_pair.main(["--db", str(six_small), "--variant", "six", "--runs", "1", "4-3"])
    out = capsys.readouterr().out
    assert "4-3: values count" in out and "4-3: draw values" in out
    assert (retro._Levels.step, draws.count_draws) == before
    v = get_variant("six")
    parts = bench_pair.time_draws(v, Hasher(v.board), Subspace.parse("4-3"), str(six_small))
    assert parts["count"] > 0 and parts["won step"] > 0 and parts["units"] >= parts["levels"]
    assert parts["count"] + parts["won step"] + parts["grades"] <= parts["total"]


def test_the_pair_bench_times_emit_over_the_levels_of_the_solved_files(standard5, capsys):
    """bench_pair.py --levels: emit alone over levels rebuilt from the files; the decided
    positions it counts are the files' own at those distances, and each emits its predecessors."""
    bench_pair = load("bench_pair")
    from morris.core.variants import get_variant
    from morris.format.fileformat import TableFile
    from morris.hashing.index import Hasher
    from morris.hashing.subspaces import Subspace
    from morris.solving.jobs import file_path

    v = get_variant("standard")
    top = Subspace.parse("5-4")
    sec, ndec, entries, threads = bench_pair.time_emit(v, Hasher(v.board), top, str(standard5),
                                                       [1, 2, 3], 1)
    want = 0
    for s in top.pair:
        with TableFile(file_path(str(standard5), v, s)) as tf:
            val, dtc = tf.values_all(), tf.dtc_all()
        want += int((((val == 1) | (val == 2)) & (dtc >= 1) & (dtc <= 3)).sum())
    assert ndec == want > 0
    assert entries > ndec and sec > 0 and threads >= 1
    bench_pair.main(["--db", str(standard5), "--no-draws", "--levels", "1", "--runs", "1", "5-4"])
    out = capsys.readouterr().out
    assert "5-4: values count" in out and "5-4: emit at levels 1" in out
    assert "draw values" not in out


def test_a_job_profiled_alone_reads_the_others_and_is_compared(standard5, tmp_path, capsys):
    """profile_solve.py --alone: every other file is a link to --db's, the job's own files are
    solved anew (and only they: the profile's one count), and a difference from --db's files
    fails the run, naming the file."""
    import shutil

    profile_solve = load("profile_solve")

    out = tmp_path / "prof"
    assert profile_solve.main(["--out", str(out), "--db", str(standard5), "--alone", "4-3",
                               "--runs", "2"]) == 0
    printed = capsys.readouterr().out
    assert printed.count("4-3 alone, its 2 files the same as --db's") == 2
    counts = [line.split() for line in printed.splitlines() if line.startswith("values: count")]
    assert [c[-2] for c in counts] == ["1", "1"]  # (one pair counted a run: the others linked)
    d = out / "standard"
    own = {"4-3.mtb", "3-4.mtb"}
    assert {f for f in os.listdir(d) if not os.path.islink(d / f)} == own
    assert len(os.listdir(d)) == len(os.listdir(standard5 / "standard"))
    # a --db whose 4-4 differs from what the job writes
    db = tmp_path / "db"
    shutil.copytree(standard5, db)
    with open(db / "standard" / "4-4.mtb", "r+b") as f:
        f.seek(-50, os.SEEK_END)
        f.write(b"\xff")
    assert profile_solve.main(["--out", str(tmp_path / "p2"), "--db", str(db), "--alone",
                               "4-4"]) == 1
    assert "DIFFER from --db's: 4-4.mtb" in capsys.readouterr().out


def test_a_job_profiled_alone_writes_only_its_kinds_and_prunes_nothing(six_small, tmp_path,
                                                                        capsys):
    """profile_solve.py --alone on a database with dtw and draw values: a values profile takes
    the job's values files alone (its dtw and draw files stay links, not counted as differing);
    with --dtw --draws its six files are solved anew, the same bytes, and the other dtw files
    are left links (the run prunes nothing of --db's)."""
    profile_solve = load("profile_solve")

    out = tmp_path / "v"
    assert profile_solve.main(["--out", str(out), "--db", str(six_small), "--variant", "six",
                               "--alone", "4-3"]) == 0
    assert "4-3 alone, its 2 files the same as --db's" in capsys.readouterr().out
    d = next(p for p in out.iterdir() if p.is_dir())
    assert {f for f in os.listdir(d) if not os.path.islink(d / f)} == {"4-3.mtb", "3-4.mtb"}
    out = tmp_path / "wd"
    assert profile_solve.main(["--out", str(out), "--db", str(six_small), "--variant", "six",
                               "--alone", "4-3", "--dtw", "--draws"]) == 0
    assert "4-3 alone, its 6 files the same as --db's" in capsys.readouterr().out
    d = next(p for p in out.iterdir() if p.is_dir())
    own = {f for f in os.listdir(d) if not os.path.islink(d / f)}
    assert own == {f"{s}.{k}" for s in ("4-3", "3-4") for k in ("mtb", "mtw", "mdv")}
    assert any(f.endswith(".mtw") for f in os.listdir(d) if os.path.islink(d / f))


def test_the_compression_study_compresses_as_the_writer_does(standard5, capsys):
    """bench/compression_levels.py: at the writer's level its bytes are the files' own (each
    file's distance section compressed again block by block), so its other levels are what the
    files would weigh."""
    compression_levels = load("compression_levels")

    from morris.database.folders import find_tables
    from morris.format.fileformat import DTC_LEVEL

    paths = find_tables(standard5 / "standard")
    out, held, wrong = compression_levels.study(paths, [3, DTC_LEVEL])
    assert not wrong and held > 0 and out[DTC_LEVEL][0] == held
    assert out[3][0] != held  # (another level is another size: the study measures something)
    assert compression_levels.main(["--db", str(standard5), "--levels", "3"]) == 0
    assert f"{held:,}" in capsys.readouterr().out


def test_a_limited_job_alone_links_its_twin(tmp_path, capsys):
    """profile_solve.py --alone under a no-removal limit: the job reads its unlimited twin (the
    same subspaces' files without the limit), which is linked whole beside the limited folder's
    other files; the job's own files come out the same as --db's."""
    profile_solve = load("profile_solve")

    from morris.core.variants import get_variant
    from morris.database.folders import ruleset_dir
    from morris.solving.schedule import solve
    from morris.core.progress import Reporter

    db, out = tmp_path / "db", tmp_path / "prof"
    limited = get_variant("standard-4", no_removal_limit=12)
    solve(str(db), limited, reporter=Reporter(quiet=True))  # (the twin first, by itself)
    assert profile_solve.main(["--out", str(out), "--db", str(db), "--alone", "4-3", "--variant",
                               "standard-4", "--no-removal-limit", "12"]) == 0
    assert "4-3 alone, its 2 files the same as --db's" in capsys.readouterr().out
    lim, twin = ruleset_dir(out, limited), ruleset_dir(out, limited.unlimited)
    assert {f for f in os.listdir(lim) if not os.path.islink(os.path.join(lim, f))} == \
        {"4-3.mtb", "3-4.mtb"}
    assert os.listdir(twin) and all(os.path.islink(os.path.join(twin, f))
                                    for f in os.listdir(twin))


def test_the_sweeps_hottest_offsets_are_counted_inside_the_function_only():
    perf = load("perf_sweep")
    base = 0x7000
    samples = [base + 4, base + 4, base + 9, base - 1, base + 0x100, base + 4, base + 9, 5]
    top, inside = perf.hottest(samples, base, 0x100, 2)
    assert top == [(4, 3), (9, 2)]
    assert inside == 5  # base - 1, base + 0x100 and 5 lie outside [base, base + 0x100)
    asm = ["   0:\tnop", "   4:\tmov (%rax),%rbx", "   9:\tret", "   a:\tnop"]
    assert perf.around(asm, 9, before=1) == asm[1:4]
    assert perf.around(asm, 0x30) == []


def test_the_machine_benchmarks_chase_visits_every_slot_once():
    """bench/bench_machine.py: the pointer chase's array is one cycle through every slot
    (a shorter cycle would stay in cache and time the cache, not the memory), and the chase
    kernel follows it."""
    bench_machine = load("bench_machine")

    for size in (1, 2, 17, 1 << 12):
        a = bench_machine.one_cycle(size, seed=size)
        seen = np.zeros(size, dtype=bool)
        j = 0
        for _ in range(size):
            assert not seen[j]
            seen[j] = True
            j = int(a[j])
        assert j == 0 and seen.all()
        assert bench_machine.chase(a, size) == 0 and (size == 1 or bench_machine.chase(a, 1) != 0)


def test_a_timed_solve_logs_its_output_its_figures_and_a_heartbeat(tmp_path):
    """scripts/timed_solve.sh, with a fake morris: the solve's status passed on, its output and
    /usr/bin/time's figures logged, the heartbeat's first line the start, its last the end."""
    import shutil
    import subprocess

    fake = _fake_morris(tmp_path, '#!/bin/sh\necho "out $*"; echo "a progress line" >&2; exit 3\n')
    log = tmp_path / "run"
    script = os.path.join(os.path.dirname(__file__), "..", "scripts", "timed_solve.sh")
    r = subprocess.run([shutil.which("bash"), script, str(log), "2", str(fake), "--out", "X"],
                       timeout=60)
    assert r.returncode == 3  # the solve's status, passed on
    assert (tmp_path / "run.2.out").read_text() == "out solve --out X\n"
    err = (tmp_path / "run.2.err").read_text()
    assert err.startswith("a progress line") and "Elapsed (wall clock)" in err
    beats = (tmp_path / "run.2.heartbeat").read_text().splitlines()
    assert beats[0].split()[2:] == ["start", "run", "--out", "X"]
    assert beats[-1].split()[2:] == ["end", "run", "rc=3"]
    assert int(beats[0].split()[0]) <= int(beats[-1].split()[0])
    # the lines scripts/seed_table.py times a run by: one segment, ended
    seed_table = load("seed_table")
    start, end = int(beats[0].split()[0]), int(beats[-1].split()[0])
    assert seed_table.segments([tmp_path / "run.2.heartbeat"], "run") == [(start, end, True)]


def test_the_seed_solves_run_in_order_each_timed_and_stop_at_a_failure(tmp_path):
    """scripts/solve_seeds.sh, with a fake morris: each rule set named solved in turn through
    timed_solve.sh (its own log and heartbeat), the chain stopped at the first that fails,
    with that solve's status."""
    import shutil
    import subprocess

    fake = _fake_morris(tmp_path, '#!/bin/sh\necho "$*"\ncase "$*" in *"--rules b "*) exit 5;; esac\n')
    out = tmp_path / "tb"
    out.mkdir()
    script = os.path.join(os.path.dirname(__file__), "..", "scripts", "solve_seeds.sh")
    r = subprocess.run([shutil.which("bash"), script, str(out), "7", str(fake), "a", "b", "c"],
                       timeout=60)
    assert r.returncode == 5
    assert (out / "a.7.out").read_text() == f"solve --out {out} --rules a --phase all\n"
    assert (out / "b.7.out").read_text() == f"solve --out {out} --rules b --phase all\n"
    assert not (out / "c.7.out").exists()
    assert (out / "a.7.heartbeat").read_text().splitlines()[-1].split()[2:] == ["end", "a", "rc=0"]
    assert (out / "b.7.heartbeat").read_text().splitlines()[-1].split()[2:] == ["end", "b", "rc=5"]
    r = subprocess.run([shutil.which("bash"), script, str(out), "8", str(fake), "c"], timeout=60,
                       env=dict(os.environ, SOLVE_FLAGS="--keep-memory --jobs 2"))
    assert r.returncode == 0
    assert (out / "c.8.out").read_text() == (f"solve --out {out} --rules c --phase all "
                                             "--keep-memory --jobs 2\n")


def test_a_runs_phases_add_its_jobs_by_kind_and_time_a_killed_segment(tmp_path, capsys):
    """scripts/run_phases.py: the printed jobs summed by kind (movement values, dtw, draw values,
    placement; a twin's job as its kind), the wall clock of an ended segment from /usr/bin/time
    and of a killed one from its heartbeat, less the stopped time; the rest a row."""
    run_phases = load("run_phases")

    one = tmp_path / "complete.1.err"
    one.write_text("[1/9] 8-7/7-8: 1,000 positions in 10.0 s\n"
                   "[2/9] 8-8 (no limit): 500 positions in 5.0 s\n"
                   "[3/9] 8-7/7-8 dtw: 1,000 positions in 20.0 s\n"
                   "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:00.00\n"
                   "\tMaximum resident set size (kbytes): 1234\n")
    two = tmp_path / "complete.2.err"
    two.write_text("[4/9] 8-7/7-8 draws: 1,000 positions in 30.0 s\n"
                   "[5/9] 5-4+4+4 +dtw +draws: 2,000 positions in 40.0 s\n")
    beat = tmp_path / "complete.2.heartbeat"
    beat.write_text("1000 10:00:00 start complete --out X\n1030 10:00:30\n1100 10:01:40\n")
    pauses = tmp_path / "pauses.log"
    pauses.write_text("STOP 1010 x\nCONT 1020 x\n")
    assert run_phases.kind_of("9-9") == "movement values"
    assert run_phases.kind_of("0-0+1+0") == "placement"
    rows = run_phases.phases([one, two])
    assert rows["movement values"] == {"jobs": 2, "positions": 1500, "seconds": 15.0}
    assert rows["movement dtw"]["seconds"] == 20.0
    assert rows["movement draw values"]["positions"] == 1000
    assert rows["placement"] == {"jobs": 1, "positions": 2000, "seconds": 40.0}
    out = tmp_path / "j"
    assert run_phases.main([str(one), str(two), "--heartbeat", str(beat), "--pauses",
                            str(pauses), "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["wall"] == 60.0 + 100 - 10 and got["peak_kb"] == 1234
    table = capsys.readouterr().out
    assert "| the rest (shorter jobs, loading, starting) | | | 45.0 | |" in table
    try:
        run_phases.kind_of("8-7/7-8 frobs")
    except ValueError as e:
        assert "frobs" in str(e)
    else:
        raise AssertionError("an unknown kind passed")


def test_a_heartbeat_of_the_older_script_times_its_run_whatever_the_name(tmp_path):
    """seed_table.segments: a heartbeat file whose start and end lines do not name the run
    (``start --out ...``, ``end rc=N``: timed_solve.sh before its lines named it) holds one
    run, taken as the named run's; a named line of another run is not."""
    seed_table = load("seed_table")

    old = tmp_path / "a.heartbeat"
    old.write_text("1000 10:00:00 start --out X --dtw\n1030 10:00:30\n1060 10:01:00\n")
    ended = tmp_path / "b.heartbeat"
    ended.write_text("2000 10:16:40 start --out X\n2030 10:17:10\n2040 10:17:20 end rc=0\n")
    other = tmp_path / "c.heartbeat"
    other.write_text("3000 10:33:20 start other --out X\n3030 10:33:50\n")
    assert seed_table.segments([old, ended, other], "complete") == [
        (1000, 1060, False), (2000, 2040, True)]


def _fake_morris(tmp_path, script):
    """An executable ``morris`` of ``script`` for the scripts that time solves (they need
    /usr/bin/time: the test skips without it)."""
    import pytest

    if not os.path.exists("/usr/bin/time"):
        pytest.skip("needs /usr/bin/time (Debian: time)")
    fake = tmp_path / "morris"
    fake.write_text(script)
    fake.chmod(0o755)
    return fake


def test_a_job_profiled_alone_with_fast_dtw_writes_as_a_pruning_solve(six_small, tmp_path,
                                                                      capsys):
    """profile_solve.py --alone --fast-dtw: the job's dtw files are written as a whole solve
    that prunes writes them, each with its pruned file beside it, the very bytes that pruning
    the whole file gives; without it, no pruned file is written."""
    import filecmp
    import shutil

    profile_solve = load("profile_solve")
    from morris.core.variants import get_variant
    from morris.database.folders import file_path, stored_values
    from morris.format.fileformat import prune_to_losses
    from morris.hashing.subspaces import Subspace
    from morris.solving.prune import pruned_beside

    six = get_variant("six")
    for fast in (False, True):
        out = tmp_path / f"fast{fast}"
        # (--db's dtw files were written whole at their own level: the fast ones differ)
        assert profile_solve.main(["--out", str(out), "--db", str(six_small), "--variant", "six",
                                   "--alone", "4-3", "--dtw", "--draws"]
                                  + (["--fast-dtw"] if fast else [])) == fast
        printed = capsys.readouterr().out
        assert ("its 6 files DIFFER from --db's: 3-4.mtw, 4-3.mtw" in printed) == fast
        assert "read own values back" in printed
        for name in ("4-3", "3-4"):
            path = file_path(out, six, Subspace.parse(name), "dtw")
            assert os.path.exists(pruned_beside(path)) == fast
            if fast:
                mine = tmp_path / f"{name}.mtw"
                shutil.copyfile(path, mine)
                prune_to_losses(mine, stored_values(file_path(out, six, Subspace.parse(name))))
                assert filecmp.cmp(mine, pruned_beside(path), shallow=False)
