"""The value of the start position, and how it was obtained (``morris verify-draw``): by search
over the movement databases, or read from the placement sweep's own file of the start (never
from the shipped opening book, nor by a search standing in for a missing file)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..core.position import Position
from ..core.progress import Reporter
from ..hashing.games import game_of
from ..solving.schedule import solve
from ..lookups.search import start_value_by_search
from ..lookups.tablebase import open_tablebase


@dataclass(frozen=True)
class StartValue:
    """The value of a variant's start position for white, by one of two methods."""

    variant: str
    value: str  # "win", "draw" or "loss" for white, who moves first
    method: str  # "search" or "sweep"
    db: str
    seconds: float
    nodes: int | None = None
    leaves: int | None = None
    hand_pairs: bool = False  # the place-or-move turn: placement solved by retrograde analysis

    @property
    def verdict(self) -> str:
        return {"win": "a win for white", "loss": "a win for black", "draw": "a draw"}[self.value]

    @property
    def how(self) -> str:
        if self.method == "search":
            return (f"alpha-beta search of the placement phase ({self.nodes:,} nodes, "
                    f"{self.leaves:,} movement-phase lookups) on the movement databases in {self.db}")
        if self.hand_pairs:
            return f"retrograde analysis of every hand pair (place or move), databases in {self.db}"
        return f"backward sweep of every placement subspace, databases in {self.db}"

    def to_json(self) -> dict:
        out = {"variant": self.variant, "value": self.value, "method": self.method,
               "seconds": round(self.seconds, 3)}
        if self.method == "search":
            out.update(nodes=self.nodes, leaves=self.leaves)
        return out


def start_value(variant, db: str | None = None, method: str = "search", reporter=None) -> StartValue:
    """The value of the start position. ``db``: databases to use (nothing is solved); without
    it, what is missing is solved into ``./tb`` first. ``method``: ``search`` (alpha-beta over
    placement on the movement databases) or ``sweep`` (the placement databases)."""
    rep = reporter or Reporter()
    t0 = time.perf_counter()
    target = db or "tb"
    if db is None:
        rep.phase(f"solving what is missing into {target}")
        solve(target, variant, reporter=rep, phase="all" if method == "sweep" else "movement")
    if method == "search":
        r = start_value_by_search(target, variant, reporter=rep)
        return StartValue(variant.name, r["value"], method, target, time.perf_counter() - t0,
                          r["nodes"], r["leaves"])
    # the sweep's file of the start only: not the shipped book, not a search
    with open_tablebase(target, shipped=False, search="never") as tb:
        value = tb.probe_wdl(Position.start(variant))
    return StartValue(variant.name, value, method, target, time.perf_counter() - t0,
                      hand_pairs=game_of(variant).hand_pairs)
