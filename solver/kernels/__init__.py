"""The numba kernels: arrays and scalars in, tables passed (docs/design.md).

numba caches a kernel's compiled code (``cache=True``) under a key made of its own source
file's time stamp and its own bytecode; the helpers it calls from other files (``turns``,
``bits``, ``hashing``; the constants of ``core/codes.py``) are compiled into it, yet a change
to their file alone leaves the cached code in use: a working tree (an editable install) would
run the old helper after an edit or a ``git pull``. So on import this package compares a
digest of every kernel source (and of ``core/codes.py``) with the one kept beside the cache,
and drops the kernels' cached code when they differ (numba compiles again, once). An
installed copy, whose files all change together, never needed it. (A process that was already
running when the sources changed still compiles, and may cache, the code it imported: stop
such runs before editing the kernels, or drop the cache once more after them:
``python3 -c "import morris.kernels as k; k.drop_stale_cache(force=True)"``.)
"""

from __future__ import annotations

import hashlib
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
#: the one module outside this folder whose names the kernels compile in (core/codes.py: the
#: value codes and piece counts, constants to numba)
CODES = os.path.join(os.path.dirname(_HERE), "core", "codes.py")
#: the file beside numba's cache files that names the sources they were compiled from
STAMP = "kernel-sources.sha256"


def sources_digest(folder: str = _HERE, extra=()) -> str:
    """The sha256 of the names and contents of the ``.py`` files of ``folder`` and of the
    files ``extra``."""
    h = hashlib.sha256()
    paths = [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".py")]
    for path in paths + list(extra):
        with open(path, "rb") as f:
            h.update(os.path.basename(path).encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def cache_folder(folder: str = _HERE) -> str | None:
    """Where numba keeps the cached code of the kernels of ``folder``: beside them
    (``__pycache__``), or under ``NUMBA_CACHE_DIR`` where that is set (asked of numba then;
    None where this numba does not say)."""
    if not os.environ.get("NUMBA_CACHE_DIR"):
        return os.path.join(folder, "__pycache__")
    import numba.core.caching as caching  # (lazy: imports numba)
    from numba import config

    locator = (getattr(caching, "UserProvidedCacheLocator", None)
               or getattr(caching, "_UserProvidedCacheLocator", None))
    if locator is None or not config.CACHE_DIR:
        return None
    return os.path.join(config.CACHE_DIR,
                        locator.get_suitable_cache_subpath(os.path.join(folder, "__init__.py")))


def drop_stale_cache(folder: str = _HERE, cache: str | None = None, force: bool = False,
                     extra=None) -> int:
    """Remove numba's cached code of the kernels of ``folder`` (from ``cache``, by default
    :func:`cache_folder`) unless it was compiled from the sources there now (``force``: in any
    case; ``extra``: more files they are compiled from, by default ``CODES`` for this folder's
    kernels); record their digest. Returns the number of files removed. Quietly does nothing
    where the cache cannot be written (numba then caches elsewhere or not at all)."""
    cache = cache or cache_folder(folder)
    if cache is None:
        return 0
    stamp = os.path.join(cache, STAMP)
    if extra is None:
        extra = [CODES] if os.path.abspath(folder) == _HERE else []
    digest = sources_digest(folder, extra)
    try:
        with open(stamp) as f:
            if f.read().strip() == digest and not force:
                return 0
    except OSError:
        pass
    removed = 0
    try:
        os.makedirs(cache, exist_ok=True)
        names = os.listdir(cache)
    except OSError:
        return 0
    for name in names:
        if name.endswith((".nbi", ".nbc")):
            try:
                os.remove(os.path.join(cache, name))
                removed += 1
            except OSError:  # (another process removed it first)
                pass
    tmp = f"{stamp}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w") as f:
            f.write(digest + "\n")
        os.replace(tmp, stamp)
    except OSError:
        pass
    return removed


drop_stale_cache()
