"""Where the data shipped with the package lives: the small databases of ``data/`` (Six Men's
Morris whole; the standard game's opening book, made by scripts/make_book.py from a full
solve) and the reference positions.

The folder ``data/`` of the source tree is installed as ``morris/data`` (pyproject.toml), so the
same lookup works from a checkout, an editable install and ``pip install .``. Every command and
:func:`morris.open_tablebase` look there after the directories they are given.
"""

from __future__ import annotations

import importlib.util
import os


def data_dir() -> str | None:
    """The shipped data directory, or None when this installation has none."""
    try:
        spec = importlib.util.find_spec("morris.data")
    except (ImportError, ValueError):
        spec = None
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # (this is database/)
    places += [os.path.join(package, "data"), os.path.join(os.path.dirname(package), "data")]
    for p in places:
        if os.path.isfile(os.path.join(p, "SHA256SUMS")):
            return p
    return None
