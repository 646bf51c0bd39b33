"""The curse plane of a file of limited rules: its values at counter 0 compared with the values of
the same slots without the limit (the categories are explained in limits.py). Used by the solver,
which writes the plane, and by the verifier, which recomputes it; the comparison runs in a kernel.
"""

from __future__ import annotations

import numpy as np


def compare_unlimited(values: np.ndarray, unlimited: np.ndarray) -> tuple:
    """(curse plane, cursed wins, blessed losses, contradictions) from the values at counter 0
    under the limit and the unlimited values of the same slots; contradictions: positions won
    or lost under the limit but not without it (the solver and the verifier both use this)."""
    from ..kernels.pack import curse_plane as kernel  # (lazy: imports numba)

    out = np.empty(len(values), dtype=np.uint8)
    counts = np.zeros((64, 3), dtype=np.int64)
    kernel(values, unlimited, 64, out, counts)
    return out, int(counts[:, 0].sum()), int(counts[:, 1].sum()), int(counts[:, 2].sum())


def curse_plane(values: np.ndarray, unlimited: np.ndarray, name: str = "") -> tuple:
    """(curse plane, cursed wins, blessed losses) (:func:`compare_unlimited`). Raises
    RuntimeError where a value under the limit is a win or loss that the unlimited value is
    not (that would be a solver error)."""
    if values.shape != unlimited.shape:
        raise RuntimeError(f"{name}: {len(values)} slots under the limit, {len(unlimited)} without it")
    out, cw, bl, bad = compare_unlimited(values, unlimited)
    if bad:
        raise RuntimeError(f"{name}: {bad} positions are won or lost under the no-removal limit "
                           f"but not without it")
    return out, cw, bl
