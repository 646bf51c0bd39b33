"""core/memory.py: a solve that keeps its freed memory reuses it and writes the same files.

Each check runs in a process of its own: keeping freed memory changes a process for good."""

import filecmp
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

def _libc():
    try:
        return os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (ValueError, OSError, AttributeError):
        return ""


glibc = pytest.mark.skipif(not _libc().startswith("glibc"), reason="mallopt is glibc's")

#: a process's resident megabytes after touching and freeing 256 MB twice
RSS_SCRIPT = textwrap.dedent("""
    import os, sys
    import numpy as np
    from morris.core.memory import keep_freed_memory

    def rss():
        return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20

    kept = keep_freed_memory() if sys.argv[1] == "keep" else False
    before = rss()
    a = np.ones(256 << 20, np.uint8)
    del a
    after_one = rss()
    b = np.ones(250 << 20, np.uint8)
    during_two = rss()
    del b
    print(kept, before, after_one, during_two)
""")


def _rss(mode):
    out = subprocess.run([sys.executable, "-c", RSS_SCRIPT, mode], capture_output=True,
                         text=True, check=True).stdout.split()
    return out[0] == "True", [int(x) for x in out[1:]]


@glibc
def test_freed_memory_is_kept_and_reused_only_when_asked():
    kept, (before, after_one, during_two) = _rss("keep")
    assert kept
    assert after_one - before >= 200  # the 256 MB stay in the process once freed
    assert during_two - after_one <= 16  # and the next array takes them, not fresh pages
    kept, (before, after_one, during_two) = _rss("default")
    assert not kept
    assert after_one - before < 64  # by default glibc hands a large block back at once
    assert during_two - after_one >= 200


def test_a_solve_that_keeps_its_memory_writes_the_same_files(tmp_path):
    """`morris solve --keep-memory` against the default: standard-4 whole with dtw and draw
    values (79 jobs, their pruned dtw files included), every file the same bytes."""
    dirs = []
    for flag in ([], ["--keep-memory"]):
        out = tmp_path / ("kept" if flag else "default")
        subprocess.run([sys.executable, "-m", "morris.cli.main", "solve", "--out", str(out),
                        "--variant", "standard-4", "--phase", "all", "--dtw", "--draws",
                        "--quiet", *flag], check=True, capture_output=True)
        (ruleset,) = os.listdir(out)
        dirs.append(out / ruleset)
    names = sorted(os.listdir(dirs[0]))
    assert len(names) > 200 and names == sorted(os.listdir(dirs[1]))
    match, mismatch, errors = filecmp.cmpfiles(dirs[0], dirs[1], names, shallow=False)
    assert not mismatch and not errors and len(match) == len(names)


def _advice():
    from morris.core.memory import _madvise_switch

    switch = _madvise_switch()
    if switch is None:
        pytest.skip("this numpy has no switch for its huge-page advice")
    return switch


@pytest.mark.parametrize("name, inside", [("small_pages", False), ("huge_pages", True)])
def test_a_page_context_sets_numpys_advice_and_puts_it_back(monkeypatch, name, inside):
    from morris.core import memory

    context = getattr(memory, name)
    get, put = _advice()
    monkeypatch.delenv("NUMPY_MADVISE_HUGEPAGE", raising=False)
    before = bool(get())
    try:
        for start in (True, False):
            put(start)
            with context():
                assert bool(get()) is inside
                with memory.small_pages():  # (nested: the sweep's results inside a job)
                    assert not get()
                assert bool(get()) is inside
            assert bool(get()) is start  # the setting before, restored
        put(not inside)
        monkeypatch.setenv("NUMPY_MADVISE_HUGEPAGE", "1")  # the user's choice is obeyed
        with context():
            assert bool(get()) is not inside
    finally:
        put(before)


def test_a_placement_sweeps_results_go_on_huge_pages(monkeypatch, tmp_path):
    """The one array a placement sweep writes at random all over (its results) is made with
    numpy's huge-page advice inside a solve's small pages (docs/benchmarks.md: standard
    7-6+1+1's complete sweep 17% less time); the files are what they were (test_handoff's
    and same_bytes.sh's comparisons)."""
    from morris.core.progress import Reporter
    from morris.core.variants import get_variant
    from morris.kernels import pack
    from morris.solving.schedule import solve

    get, put = _advice()
    monkeypatch.delenv("NUMPY_MADVISE_HUGEPAGE", raising=False)
    seen = []
    real = pack.full  # (the placement sweep imports it when it runs)

    def probe(n, value, dtype):
        if sys._getframe(1).f_code.co_name == "evaluate":  # (placement.evaluate's results)
            seen.append(bool(get()))
        return real(n, value, dtype)

    monkeypatch.setattr(pack, "full", probe)
    before = bool(get())
    try:
        put(True)
        solve(tmp_path, get_variant("standard-3"), phase="all", reporter=Reporter(quiet=True),
              dtw=True, draws=True)
        assert len(seen) > 10 and all(seen)
        put(False)
        solve(tmp_path / "values", get_variant("standard-3"), phase="all",
              reporter=Reporter(quiet=True))
        assert len(seen) > 20 and all(seen) and not get()
    finally:
        put(before)


def test_a_solves_jobs_run_without_huge_page_advice(monkeypatch, tmp_path):
    """run_job (every job of a solve, in this process or a worker's) runs the job inside
    small_pages, and the process's setting is back afterwards."""
    from morris.core.variants import get_variant
    from morris.solving.schedule import run_job

    get, put = _advice()
    monkeypatch.delenv("NUMPY_MADVISE_HUGEPAGE", raising=False)
    seen = []

    class Probe:
        def run(self, out, variant, rep):
            seen.append(bool(get()))
            return 0

    before = bool(get())
    try:
        put(True)
        run_job(str(tmp_path), get_variant("standard-4").describe(), Probe())
        assert seen == [False] and get()
    finally:
        put(before)


@pytest.mark.parametrize("n, value, dtype", [(0, 3, np.uint8), (1, 3, np.uint8), (255, 7, np.uint8),
                                             (1000, 0xFFFF, np.uint16), (70001, 3, np.uint16)])
def test_full_on_every_thread_is_numpys_full(n, value, dtype):
    """The solve's large prefilled arrays (the state array, the sweep's output, the exit
    levels) are filled on every thread (``kernels.pack.full``): every entry the value, of the
    dtype asked, over array lengths that do not divide into its chunks."""
    from morris.kernels.pack import full

    got = full(n, value, dtype)
    assert got.dtype == dtype and got.shape == (n,)
    assert np.array_equal(got, np.full(n, value, dtype))
