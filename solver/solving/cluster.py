"""Solving on a Dask cluster (``morris solve --dask ADDRESS`` or ``--dask local:N``).

The driver (schedule.solve) walks the dependency graph and submits each job as soon as its
inputs exist, through the Dask client's ``concurrent.futures`` executor. Workers read their
inputs from files in the shared database directory and write their outputs atomically, so a
worker that dies leaves no file that looks complete; Dask runs its task again elsewhere.

Memory: when the workers declare a ``MEMORY`` resource (bytes; ``dask worker --resources
MEMORY=20e9``, and every worker of ``local:N``), each job asks for its estimated peak, so a
worker runs only as many large jobs at once as its memory allows.
"""

from __future__ import annotations

import os

from ..core.errors import MorrisError

INSTALL_HINT = "pip install 'morris-solver[dask]' (from a checkout: pip install '.[dask]')"


def _import_dask():
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise MorrisError(f"--dask needs the dask and distributed packages: {INSTALL_HINT}") from None
    return Client, LocalCluster


def _total_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        return 8 << 30


def connect(address: str):
    """(client, cluster or None, threads per job or None) for ``ADDRESS`` or ``local:N``."""
    Client, LocalCluster = _import_dask()
    if address.startswith("local:"):
        try:
            n = int(address.split(":", 1)[1])
        except ValueError:
            raise MorrisError(f"--dask local:N needs a number of workers, got {address!r}") from None
        if n < 1:
            raise MorrisError("--dask local:N needs at least one worker")
        cores = os.cpu_count() or 1
        cluster = LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
            memory_limit=0, resources={"MEMORY": _total_memory() * 0.8 / n},
        )
        return Client(cluster), cluster, max(1, cores // n)
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError) as exc:
        raise MorrisError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return client, None, None


def dask_executor(address: str, variant, reporter):
    """Keyword arguments for ``schedule.solve`` that run jobs on Dask, and a close function."""
    client, cluster, threads = connect(address)
    workers = client.scheduler_info().get("workers", {})
    budgets = [w.get("resources", {}).get("MEMORY") for w in workers.values()]
    budgets = [b for b in budgets if b]
    reporter.phase(
        f"dask: {len(workers)} workers at {client.scheduler.address}"
        + (f", memory per worker {max(budgets) / 2**30:.1f} GiB" if budgets else ", no MEMORY resource declared")
    )

    def submit(job, fn, *args):
        kw = {"retries": 2}
        if budgets:
            kw["resources"] = {"MEMORY": min(job.memory(variant), max(budgets))}
        return client.get_executor(**kw).submit(fn, *args)

    def close():
        client.close()
        if cluster is not None:
            cluster.close()

    return {"submit": submit, "threads": threads}, close
