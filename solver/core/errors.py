"""The exceptions of the toolkit, and the one classification of them.

Every error the toolkit raises on purpose derives from :class:`MorrisError` and carries a message
that names what is wrong. Each class says whose fault it is (``kind``), and with it how the apps
answer it:

========= ================================================ ============ ===========
kind      meaning                                          exit status  HTTP status
========= ================================================ ============ ===========
``input`` the user's input: a position, move, option, path 2            400
``data``  a database file that is missing or damaged       3            503
``resource`` out of disk or memory during a solve          4            (none)
(other)   anything else is a bug                           1            500
========= ================================================ ============ ===========

The command-line tool prints a :class:`MorrisError` on one line (``ErrorName: message``).
"""


class MorrisError(Exception):
    """Base class of every error the toolkit raises on purpose."""

    #: whose fault it is: "input" (the user's) or "data" (a database file's)
    kind = "input"
    exit_status = 2
    http_status = 400


class DataError(MorrisError):
    """Base class of the errors of missing or damaged database files. ``subspace`` and
    ``variant``: the subspace whose file is missing and its rules, where known (the apps turn
    them into advice: advice.py)."""

    kind = "data"
    exit_status = 3
    http_status = 503

    def __init__(self, *args, subspace: str | None = None, variant=None):
        super().__init__(*args)
        self.subspace = subspace
        self.variant = variant


class UnknownVariantError(MorrisError, ValueError):
    """A variant name or rule option that the toolkit does not know."""


class IllegalPositionError(MorrisError, ValueError):
    """A position that is malformed (bad notation) or impossible under the variant's rules."""


class IllegalMoveError(MorrisError, ValueError):
    """A move token that is malformed or not legal in the position it is played in."""


class VariantMismatchError(MorrisError, ValueError):
    """A position, move or database that belongs to other rules than the ones asked for."""


class ForeignDatabaseError(DataError, VariantMismatchError):
    """A database file of other rules, or of another subspace or kind, than the place it lies
    in says: damaged data (exit 3), not the user's input, though still a VariantMismatchError."""


class MissingSubspaceError(DataError, KeyError):
    """The database file of a subspace is not there (a ``KeyError``, like a missing table)."""

    def __str__(self):  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "missing subspace"


class MissingDtwError(MissingSubspaceError):
    """The dtw file (distance to the end of the game) of a subspace is not there; its values
    may be (``morris solve --dtw`` adds it from them)."""


class MissingDrawsError(MissingSubspaceError):
    """The draw-value file of a subspace is not there; its values may be (``morris solve
    --draws`` adds it from them)."""


class CorruptDatabaseError(DataError):
    """A database file whose header, size, offsets or checksums are wrong."""


class OutsideDatabaseError(DataError):
    """A position that no database in use covers (the bot says so instead of guessing)."""


class UnsupportedRulesError(MorrisError, ValueError):
    """Rules the databases cannot answer for (yet), refused instead of answered wrongly."""


class UsageError(MorrisError, ValueError):
    """An argument outside what a command can do (a perft depth beyond its limit, ...)."""


class OutputError(MorrisError):
    """A database directory that cannot be created or written."""


class ResourceError(MorrisError):
    """A solve ran out of disk or memory: what it half wrote is removed, complete files are
    kept, and the same command resumes once there is room."""

    kind = "resource"
    exit_status = 4
    http_status = 507


def out_of_room(exc: BaseException) -> str | None:
    """What ran out, when ``exc`` says a disk or the memory is full (None otherwise): a
    MemoryError; a full disk or quota; numba's compiler library that could not be mapped (what
    a low ``ulimit -v`` does to it before any array is made); a thread that could not be
    started (Python's RuntimeError when the system refuses a new thread its stack: under
    ``ulimit -v``, a kernel's worker threads)."""
    import errno

    if isinstance(exc, MemoryError) or (isinstance(exc, OSError) and exc.errno == errno.ENOMEM):
        return "out of memory"
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"no space left on the device ({exc.strerror})"
    if isinstance(exc, OSError) and "libllvmlite" in str(exc):
        return "out of memory (numba's compiler library, libllvmlite, could not be loaded)"
    if type(exc) is RuntimeError and str(exc) == "can't start new thread":
        return "out of memory (a thread could not be started)"
    return None


class ServeError(MorrisError):
    """The server cannot start: the web extra is missing, or the address cannot be listened on."""
