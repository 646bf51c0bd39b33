"""The exceptions of the toolkit.

Every error a user can cause derives from :class:`MorrisError` and carries a message that names
what is wrong. The command-line tool prints such errors on one line and exits with status 2.
"""


class MorrisError(Exception):
    """Base class of every error the toolkit raises on purpose."""


class UnknownVariantError(MorrisError, ValueError):
    """A variant name or rule option that the toolkit does not know."""


class IllegalPositionError(MorrisError, ValueError):
    """A position that is malformed (bad notation) or impossible under the variant's rules."""


class IllegalMoveError(MorrisError, ValueError):
    """A move token that is malformed or not legal in the position it is played in."""


class VariantMismatchError(MorrisError, ValueError):
    """A position, move or database that belongs to other rules than the ones asked for."""


class MissingSubspaceError(MorrisError, KeyError):
    """The database file of a subspace is not there (a ``KeyError``, like a missing table).
    ``subspace``: the name of the missing subspace, when known."""

    def __init__(self, *args, subspace: str | None = None):
        super().__init__(*args)
        self.subspace = subspace

    def __str__(self):  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "missing subspace"


class CorruptDatabaseError(MorrisError):
    """A database file whose header, size, offsets or checksums are wrong."""


class OutsideDatabaseError(MorrisError):
    """A position that no database in use covers (the bot says so instead of guessing)."""


class UnsupportedRulesError(MorrisError, ValueError):
    """Rules the databases cannot answer for (yet), refused instead of answered wrongly."""


class UsageError(MorrisError, ValueError):
    """An argument outside what a command can do (a perft depth beyond its limit, ...)."""


class OutputError(MorrisError):
    """A database directory that cannot be created or written."""


class ServeError(MorrisError):
    """The server cannot start: the web extra is missing, or the address cannot be listened on."""
