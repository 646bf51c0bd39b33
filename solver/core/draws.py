"""Draw values: the settlement ranks they are made of, and how a stored one reads.

A drawn game that goes on for ever ends up in one movement pair (removals only go down), and
each pair is worth a *rank* to the side with m pieces (docs/draws.md):

    score(m, o) = (wins - losses) / positions of subspace (m, o), for its side to move
    rank(m, o)  = round(RANK_MAX * (score(m, o) - score(o, m)) / 2)   (half away from zero)

so rank(o, m) = -rank(m, o) and rank(m, m) = 0. A drawn position's draw value is the best rank
the side to move can force the game to settle in, or to leave the pair with, both sides keeping
the draw (kernels/draws.py computes it, verify.py checks it).
"""

from __future__ import annotations

import math

from .codes import DV0, RANK_MAX


def score(header: dict) -> float:
    """(wins - losses) / positions of a subspace, from its values file's header."""
    n = int(header["positions"])
    return (int(header["wins"]) - int(header["losses"])) / n if n else 0.0


def settlement_rank(score_mo: float, score_om: float) -> int:
    """The rank of pair (m, o) for the side with m pieces, from the two subspaces' scores."""
    x = RANK_MAX * (score_mo - score_om) / 2
    r = math.floor(abs(x) + 0.5)
    return int(math.copysign(r, x)) if r else 0


def pair_ranks(headers: dict) -> dict:
    """{subspace: rank} for the subspaces of one movement pair, from {subspace: header}."""
    subs = list(headers)
    if len(subs) == 1:
        return {subs[0]: 0}
    a, b = subs
    r = settlement_rank(score(headers[a]), score(headers[b]))
    return {a: r, b: -r}


def decode(byte: int) -> int | None:
    """The draw value a stored byte holds, or None (not a draw)."""
    return int(byte) - DV0 if byte else None
