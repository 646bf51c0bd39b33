"""What the apps tell a user about an error: one line, and for a missing database file what to
solve and what it costs.

The lookups only name what is missing (:class:`MissingSubspaceError` carries the subspace and the
rules); this module, above both the lookups and the solver, turns that into advice with the
solver's job graph and its measured rates (schedule.py). The CLI, the server and the engine all
print errors through :func:`error_line`.
"""

from __future__ import annotations

from ..core.errors import DataError, MissingDrawsError, MissingDtwError, MorrisError
from ..solving.schedule import estimate, human_bytes, human_time, job_graph
from ..hashing.games import game_of
from ..hashing.subspaces import Subspace
from ..database.shipped import data_dir

_HINTS: dict = {}


def solve_advice(variant, sub, out) -> str:
    """What to solve for the subspace ``sub`` into ``out``, and what it costs; for a placement
    subspace also the cheaper route: the movement phase, then search."""
    key = (variant, sub, str(out))
    if key in _HINTS:
        return _HINTS[key]
    flags = variant.cli_flags()
    flags = f" {flags}" if flags else ""
    try:
        jobs, _ = job_graph(variant, [sub])
    except (ValueError, MorrisError) as exc:
        return f"({exc})"
    secs, size = estimate(variant, jobs)
    text = (f"solve it with: morris solve --out {out}{flags} {sub} ({len(jobs)} jobs: about "
            f"{human_time(secs)} on 2 cores and {human_bytes(size)} of files)")
    if sub.placement and not game_of(variant).hand_pairs:  # (no search over its cycles)
        mjobs, _ = job_graph(variant)
        msecs, msize = estimate(variant, mjobs)
        text += (f"; or solve the movement phase (morris solve --out {out}{flags}: about "
                 f"{human_time(msecs)}, {human_bytes(msize)}) and placement positions are valued "
                 f"by exact search")
    _HINTS[key] = text
    return text


def advice(exc: BaseException, out=None) -> str:
    """The advice that goes with an error ("" where there is none): for a missing subspace
    whose rules are known, what to solve into ``out`` (the database directory; ``DB`` where
    none was given)."""
    if isinstance(exc, (MissingDtwError, MissingDrawsError)) and exc.subspace and exc.variant is not None:
        flags = exc.variant.cli_flags()
        opt = "--dtw" if isinstance(exc, MissingDtwError) else "--draws"
        return (f"add it from the values with: morris solve --out {out or 'DB'} {flags} {opt} "
                f"{exc.subspace} (the values are solved first where they are missing too)")
    if isinstance(exc, DataError) and exc.subspace and exc.variant is not None:

        return solve_advice(exc.variant, Subspace.parse(exc.subspace), out or "DB")
    return ""


def error_line(exc: BaseException, out=None) -> str:
    """``ErrorName: message``, with the advice after a semicolon where there is some."""
    extra = advice(exc, out)
    return f"{type(exc).__name__}: {exc}" + (f"; {extra}" if extra else "")


def public_text(text: str, roots) -> str:
    """``text`` with the database directories ``roots`` written ``<db>`` and the shipped data's
    ``<shipped data>`` in the paths in it, so that an answer to a remote client names files
    within the database and never shows where the server keeps them."""
    import os


    cuts = {}  # a directory's spelling -> what the text says instead
    for r, label in [(data_dir(), "<shipped data>")] + [(r, "<db>") for r in roots or []]:
        if r:
            for form in (os.fspath(r), os.path.abspath(r), os.path.realpath(r)):
                cuts.setdefault(form.rstrip(os.sep), label)
    for c in sorted(cuts, key=len, reverse=True):
        if c:
            text = text.replace(c + os.sep, cuts[c] + "/").replace(c, cuts[c])
    return text
