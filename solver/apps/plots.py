"""``morris stats --plot``: how wins and losses spread over distance, per subspace.

For each subspace, a histogram of the distances (dtc) of its won positions (up, green) and of
its lost positions (down, red), on a log scale: the figure tablebase papers print. Needs
matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

import io
import os

import numpy as np

from ..core.atomic import write_atomic
from ..database.folders import open_found
from ..core.errors import MorrisError, UsageError
from ..core.codes import LOSS, WIN
from ..core.counting import histograms
from ..hashing.index import Hasher
from ..hashing.subspaces import Subspace
from ..core.variants import BOARDS

INSTALL_HINT = "pip install 'morris-solver[plot]' (from a checkout: pip install '.[plot]')"


def distance_histograms(paths) -> list[dict]:
    """Per file: ruleset, subspace, and counts of won and lost positions at each distance."""
    out = []
    hashers = {}
    for path in paths:
        with open_found(path) as tf:
            vals, dtc = tf.values_all(), tf.dtc_all()
            h = tf.header
        board = BOARDS[h["board"]]
        hasher = hashers.setdefault(board.name, Hasher(board))
        used = hasher.used_mask(Subspace.parse(h["subspace"]))  # unused slots carry a neighbour's code
        wins, losses = histograms(dtc, vals, used, (WIN, LOSS))
        out.append({"ruleset": h["ruleset"], "subspace": h["subspace"], "wins": wins, "losses": losses,
                    "header_wins": h["wins"], "header_losses": h["losses"]})
    return out


def need_pyplot(option: str):
    """matplotlib's pyplot on the Agg backend, or the install hint naming ``option``."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MorrisError(f"{option} needs matplotlib: {INSTALL_HINT}") from None
    return plt


def graph_png(ann) -> bytes:
    """``morris annotate --graph FILE.png``: the game's course as PNG, drawn as ``graph_svg``
    draws it (the value for White after each ply, the sooner a win the higher; blunders red,
    slips orange; ungraded plies as gaps)."""
    from .annotate import start_score, white_score

    plt = need_pyplot("--graph FILE.png")
    ys = [start_score(ann)] + [white_score(p) for p in ann.plies]  # ys[i]: after ply i
    fig, ax = plt.subplots(figsize=(6.4, 2.4))
    ax.plot(range(len(ys)), [np.nan if y is None else y for y in ys], color="#2f5d8a", lw=2)
    for grade, colour in (("blunder", "#d1342f"), ("slip", "#e39b27")):
        pts = [(i, ys[i]) for i, p in enumerate(ann.plies, start=1) if p.grade == grade and ys[i] is not None]
        if pts:
            ax.scatter(*zip(*pts), s=60, facecolors="none", edgecolors=colour, linewidths=2, label=grade)
    ax.set_ylim(-1.1, 1.1)
    ax.set_yticks([-1, 0, 1], ["black wins", "draw", "white wins"], fontsize=8)
    ax.axhline(0, color="#ccc", lw=1)
    ax.set_xlabel("ply", fontsize=8)
    if any(p.grade in ("blunder", "slip") for p in ann.plies):
        ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()


def plot_distances(paths, out_path: str) -> int:
    """Draw the histograms of the files into ``out_path`` (PNG or SVG by extension); returns
    the number of panels."""
    ext = os.path.splitext(out_path)[1].lower()
    if ext not in (".png", ".svg"):
        raise UsageError(f"--plot {out_path}: the file name must end in .png or .svg")
    plt = need_pyplot("--plot")
    hists = distance_histograms(paths)
    if not hists:
        raise UsageError("no databases to plot")
    n = len(hists)
    cols = min(7, n)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(2.6 * cols, 2.1 * rows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.axis("off")
    for ax, h in zip(axes.flat, hists):
        w, l = h["wins"], h["losses"]
        xs = np.arange(max(len(w), len(l)))
        ax.bar(xs[: len(w)], w, width=1.0, color="#2e9e48", label="wins")
        ax.bar(xs[: len(l)], -l, width=1.0, color="#c8372f", label="losses")
        ax.set_yscale("symlog", linthresh=1)
        ax.set_title(f"{h['ruleset']} {h['subspace']}", fontsize=9)
        if ax is axes.flat[0]:
            ax.legend(fontsize=7, loc="upper right")
        ax.tick_params(labelsize=7)
        ax.axhline(0, color="black", lw=0.5)
    fig.supxlabel("distance to conversion (plies)")
    fig.supylabel("positions (log)")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=ext[1:], dpi=110)
    plt.close(fig)
    write_atomic(out_path, buf.getvalue())
    return n
