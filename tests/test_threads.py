"""core.threads.run_tasks: every task once, the first error raised, and no wait on a thread that
never starts (the hang of ``morris verify`` under a 700 MB memory limit: a pool thread died of a
MemoryError before it started, and ``Thread.start`` waited for it for ever)."""

import threading
import time

import pytest

from morris.core import threads


def _finishes(fn, seconds=20):
    """fn() run on a thread of its own; whatever it raised, or a failure if it hangs."""
    out = []

    def go():
        try:
            fn()
            out.append(None)
        except BaseException as e:  # noqa: BLE001 (handed back to the test)
            out.append(e)

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "run_tasks hung"
    return out[0]


@pytest.mark.parametrize("ntasks, nthreads", [(0, 4), (1, 4), (7, 1), (7, 2), (100, 3), (3, 8)])
def test_every_task_runs_once(ntasks, nthreads):
    seen = [0] * ntasks
    lock = threading.Lock()

    def run(i):
        time.sleep(0.001 * (i % 3))
        with lock:
            seen[i] += 1

    threads.run_tasks(ntasks, run, nthreads)
    assert seen == [1] * ntasks


def test_tasks_run_on_several_threads():
    idents = set()

    def run(i):
        idents.add(threading.get_ident())
        time.sleep(0.02)

    threads.run_tasks(20, run, 3)
    assert len(idents) >= 2  # (the caller and at least one helper)


def test_the_first_error_is_raised_and_stops_the_rest():
    ran = []

    def run(i):
        ran.append(i)
        if i == 2:
            raise ValueError("task 2")
        time.sleep(0.01)

    with pytest.raises(ValueError, match="task 2"):
        threads.run_tasks(1000, run, 2)
    assert len(ran) < 1000


def test_a_thread_the_system_refuses_leaves_the_work_to_the_caller(monkeypatch):
    def refuse(fn, args):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threads._thread, "start_new_thread", refuse)
    seen = []
    assert _finishes(lambda: threads.run_tasks(50, seen.append, 4)) is None
    assert sorted(seen) == list(range(50))


def test_a_helper_that_dies_before_it_starts_is_not_waited_for(monkeypatch):
    real = threads._thread.start_new_thread

    def dies(fn, args):  # a thread is created and ends before it runs fn (as a MemoryError in
        def boot():      # its setup ends it under ``ulimit -v``; here quietly, for pytest)
            return None

        return real(boot, ())

    monkeypatch.setattr(threads._thread, "start_new_thread", dies)
    seen = []
    assert _finishes(lambda: threads.run_tasks(50, seen.append, 4)) is None
    assert sorted(seen) == list(range(50))
