"""The one place that validates each kind of outside input before any work starts: numbers, and
paths to read from or write to. The CLI's option types, the engine's options, the HTTP API's
query parameters and the notations all call these, so one rule holds everywhere:

- a number is ASCII digits (an optional ``-`` where negatives are allowed), nothing else:
  ``٧`` and ``７`` are not 7, ``+3``, ``3.0``, `` 3`` and ``1_000`` are not numbers;
- a path is not empty; one to write is not an existing directory, pipe, device or socket, and
  its folder exists (checked before the work, so a refusal comes at once); a symbolic link to
  write through is followed to its target, which must itself be a regular file or absent
  (:func:`check_output_file`).

Each check raises :class:`UsageError` (the user's input: exit 2, HTTP 400) naming what is wrong.
"""

from __future__ import annotations

import os
import stat

from .errors import UsageError


def is_ascii_number(text: str, negative: bool = False) -> bool:
    """Whether ``text`` is ASCII digits (after one leading ``-`` when ``negative``)."""
    if negative and text.startswith("-"):
        text = text[1:]
    return bool(text) and text.isascii() and text.isdigit()


def parse_int(text, what: str, lo: int | None = None, hi: int | None = None,
              negative: bool = False) -> int:
    """``text`` (ASCII digits, an optional leading ``-``) as an int within [lo, hi], or
    :class:`UsageError` naming ``what`` and the range. (``negative`` is kept for callers that
    say so; a negative number outside [lo, hi] is refused by the range.)"""
    if isinstance(text, bool):
        raise UsageError(f"{what} must be a number, got {text!r}")
    if isinstance(text, int):
        value = text
    else:
        if not isinstance(text, str) or not is_ascii_number(text, negative=True):
            raise UsageError(f"{what} must be a whole number in ASCII digits, got {text!r}")
        value = int(text)
    if lo is not None and value < lo or hi is not None and value > hi:
        span = (f"between {lo} and {hi}" if lo is not None and hi is not None
                else f"{lo} or more" if lo is not None else f"at most {hi}")
        raise UsageError(f"{what} must be {span}, got {value}")
    return value


def check_path_text(path, what: str) -> str:
    """A path given as text: not empty, no NUL byte."""
    path = os.fspath(path)
    if not path or not path.strip():
        raise UsageError(f"{what}: an empty path")
    if "\0" in path:
        raise UsageError(f"{what}: a path with a NUL byte")
    return path


def file_kind(mode: int) -> str:
    """What a file of mode ``mode`` (``os.stat``) is, in words, where it is not a regular file."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def check_output_file(path, what: str = "output file") -> str:
    """The path a file will be written to (atomically: a temporary file, then a rename): the
    real path to replace. A symbolic link is followed (the file it points to is replaced, the
    link stays); what is there must be a regular file or nothing, and its folder must exist."""
    path = check_path_text(path, what)
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise UsageError(f"{what} {path}: {exc.strerror or exc}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{what} {path} is {file_kind(st.st_mode)}; give the name of a regular file")
    folder = os.path.dirname(real) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{what} {path}: the folder {os.path.dirname(path) or '.'} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{what} {path}: the folder {os.path.dirname(path) or '.'} is not writable")
    return real


def check_output_dir(path, what: str = "database directory") -> str:
    """A directory to write databases into: not empty, and not an existing file of any kind."""
    path = check_path_text(path, what)
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError(f"{what} {path} exists and is not a directory")
    return path
