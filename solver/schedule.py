"""Which subspaces to solve, in what order, and the solve of one pair into files.

The movement phase forms a dependency graph of pairs: the pair of (m, o) needs the pairs its
removals lead to, (o-1, m) and (m-1, o). ``plan`` lists the pairs needed for some targets,
dependencies first; ``solve`` runs them, skipping pairs whose files are complete and whose
checksums match, so a killed run resumes where it stopped (the pair in progress is redone;
files appear only complete, by atomic rename). The same inputs give byte-identical files.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from . import __version__
from .dbfile import SUFFIX, TableFile, check_file, plane_stats, remove_stale_temporaries, write_table
from .index import Hasher, Subspace, count_positions, movement_subspaces
from .retro import Reporter, pair_children, solve_pair
from .tablebase import ruleset_fields
from .variants import LOSE_BELOW

HASH_SCHEME = "anchor-orbit-colex-v1"


def pair_key(sub: Subspace) -> Subspace:
    """The top subspace naming the pair that contains ``sub``."""
    return sub.pair[0]


def dependencies(top: Subspace) -> list[Subspace]:
    """Pairs (by top subspace) that the pair of ``top`` reads."""
    out = []
    for child in pair_children(top).values():
        if child is not None:
            k = pair_key(child)
            if k not in out:
                out.append(k)
    return out


def plan(variant, targets=None, max_pieces=None) -> list[Subspace]:
    """Pairs (top subspaces) to solve for the targets, every pair after those it needs."""
    if targets is None:
        targets = movement_subspaces(variant, max_pieces)
    for t in targets:
        if t.placement:
            raise ValueError(f"{t} is a placement subspace (use the placement solver)")
        if not (LOSE_BELOW <= t.m <= variant.pieces and LOSE_BELOW <= t.o <= variant.pieces):
            raise ValueError(
                f"subspace {t} is outside {variant.name}: movement subspaces have "
                f"{LOSE_BELOW}..{variant.pieces} pieces a side"
            )
    needed = []
    seen = set()

    def visit(top):
        if top in seen:
            return
        seen.add(top)
        for dep in dependencies(top):
            visit(dep)
        needed.append(top)

    for t in sorted({pair_key(t) for t in targets}):
        visit(t)
    return needed


def table_path(out: str, variant, sub: Subspace) -> str:
    return os.path.join(out, variant.ruleset_id, sub.name + SUFFIX)


def pair_done(out, variant, top: Subspace) -> bool:
    return all(check_file(table_path(out, variant, s)) is None for s in top.pair)


def table_header(variant, sub: Subspace, hasher: Hasher, values, dtc) -> dict:
    board = variant.board
    st = plane_stats(values, dtc)
    positions = st["positions"]
    hdr = ruleset_fields(variant)
    hdr.update(
        format="morris-tablebase",
        generator=f"morris-solver {__version__}",
        points=list(board.points),
        symmetries=len(board.symmetries),
        symmetry_perms=[list(p) for p in board.symmetries.perms],
        subspace=sub.name,
        phase="placement" if sub.placement else "movement",
        m=sub.m, o=sub.o, hm=sub.hm, ho=sub.ho,
        hash={"scheme": HASH_SCHEME, "anchor": "opponent", "orbits": int(len(hasher.anchor_reps(sub.o)))},
        positions=positions,
        wins=st["wins"],
        losses=st["losses"],
        draws=positions - st["wins"] - st["losses"],
        max_win_dtc=st["max_win_dtc"],
        max_loss_dtc=st["max_loss_dtc"],
        distance="dtc",
    )
    expected = count_positions(board, sub.m, sub.o)
    if positions != expected:
        raise RuntimeError(f"{sub}: {positions} used slots, Burnside counts {expected}")
    return hdr


def load_values(out, variant, sub: Subspace):
    with TableFile(table_path(out, variant, sub)) as tf:
        return tf.values_all()


def solve_one_pair(out, variant, top: Subspace, reporter=None, hasher=None) -> dict:
    """Solve the pair of ``top`` from the files of its dependencies and write its files."""
    rep = reporter or Reporter(quiet=True)
    hasher = hasher or Hasher(variant.board)
    os.makedirs(os.path.join(out, variant.ruleset_id), exist_ok=True)
    t0 = time.perf_counter()
    children = {}
    for child in pair_children(top).values():
        if child is not None and child not in children:
            rep.phase(f"[{top}] load {child}")
            children[child] = load_values(out, variant, child)
    t_load = time.perf_counter() - t0
    result = solve_pair(variant, top, children, hasher, rep)
    del children
    t0 = time.perf_counter()
    stats = {}
    for sub in top.pair:
        rep.phase(f"[{sub}] write")
        values, dtc = result.values[sub], result.dtc[sub]
        hdr = table_header(variant, sub, hasher, values, dtc)
        write_table(table_path(out, variant, sub), hdr, values, dtc, hasher.anchor_reps(sub.o))
        stats[sub] = hdr
    seconds = dict(result.seconds, load=t_load, write=time.perf_counter() - t0)
    return {"pair": top, "stats": stats, "seconds": seconds, "levels": result.levels}


@dataclass
class SolveSummary:
    solved: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    seconds: float = 0.0


def solve(out, variant, targets=None, max_pieces=None, reporter=None, on_pair=None) -> SolveSummary:
    """Solve (in this process) every pair needed for the targets; skip complete pairs."""
    rep = reporter or Reporter()
    t0 = time.perf_counter()
    summary = SolveSummary()
    pairs = plan(variant, targets, max_pieces)
    hasher = Hasher(variant.board)
    for name in remove_stale_temporaries(os.path.join(out, variant.ruleset_id)):
        rep.phase(f"removed {name}, left by an interrupted run")
    for k, top in enumerate(pairs, 1):
        names = "/".join(s.name for s in top.pair)
        if pair_done(out, variant, top):
            rep.phase(f"({k}/{len(pairs)}) {names}: complete, skipped")
            summary.skipped.append(top)
            continue
        rep.phase(f"({k}/{len(pairs)}) {names}: solving")
        info = solve_one_pair(out, variant, top, rep, hasher)
        secs = info["seconds"]
        positions = sum(h["positions"] for h in info["stats"].values())
        total = sum(secs.values())
        rep.phase(
            f"({k}/{len(pairs)}) {names}: {positions:,} positions in {total:.1f} s "
            f"({info['levels']} levels; " + ", ".join(f"{a} {b:.1f} s" for a, b in secs.items()) + ")"
        )
        summary.solved.append(info)
        if on_pair:
            on_pair(info)
    summary.seconds = time.perf_counter() - t0
    return summary
