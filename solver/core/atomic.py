"""Writing a file so that it is either absent or complete: a temporary name, then a rename.

The one writer of the files a user names (pictures, plots). It never replaces what is not a
regular file: a symbolic link is written through (its target is replaced, the link stays), and
a directory, named pipe, device or socket is refused before anything is written
(inputs.check_output_file)."""

from __future__ import annotations

import os
import tempfile

from .errors import OutputError
from .inputs import check_output_file


def write_atomic(path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory."""
    path = check_output_file(path)
    d = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=d, prefix=os.path.basename(path) + ".", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as open() would create it, not mkstemp's 0600
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
