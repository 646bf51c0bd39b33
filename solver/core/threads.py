"""Tasks shared among threads, without waiting for a thread to start.

CPython's ``Thread.start`` (and so ``ThreadPoolExecutor``) waits until the new thread has set
up its own state; under a memory limit (``ulimit -v``) that setup can fail with a MemoryError
inside the new thread, which nobody catches, and the caller then waited for ever (``morris
verify`` of a 5-5 file under a 700 MB limit hung so, its kernels' pool waiting on a thread
that had died). Here the caller works through the tasks itself beside up to ``threads - 1``
helpers started with ``_thread.start_new_thread``, which does not wait: a helper that dies
before it starts takes no task, one the system refuses leaves its share to the others, and the
caller waits only for the tasks that were taken.
"""

from __future__ import annotations

import _thread
import threading


def run_tasks(ntasks: int, run, threads: int) -> None:
    """Call ``run(i)`` for every task ``i`` in ``range(ntasks)``, on the calling thread and up
    to ``threads - 1`` helpers, each taking the next task as it comes free. ``run`` must write
    only what task ``i`` owns. Returns when every task taken has finished; the first exception
    (or an interrupt) stops the others at their next task and is raised here."""
    if threads <= 1 or ntasks <= 1:
        for i in range(ntasks):
            run(i)
        return
    todo = iter(range(ntasks))
    errors: list = []
    cond = threading.Condition()
    busy = [0]  # tasks taken and not finished

    def work():
        while True:
            with cond:
                i = None if errors else next(todo, None)
                if i is None:
                    return
                busy[0] += 1
            try:
                run(i)
            except BaseException as e:  # (the others stop at their next task)
                errors.append(e)
            finally:
                with cond:
                    busy[0] -= 1
                    cond.notify_all()

    for _ in range(min(threads, ntasks) - 1):
        try:
            _thread.start_new_thread(work, ())
        except RuntimeError:  # the system refused a thread: the others do its share
            break
    try:
        work()
        with cond:
            cond.wait_for(lambda: busy[0] == 0)
    except BaseException as e:  # an interrupt here: the helpers stop at their next task
        errors.append(e)
        raise
    if errors:
        raise errors[0]
