"""The text the command-line tool prints: each report built here from the library's results, as
lines, so that the CLI only parses options and prints (and a test can read the same lines).

Every function takes results (an :class:`Analysis`, a verify report, headers, a plan) and returns
lines or rows; nothing here reads options or writes to a terminal.
"""

from __future__ import annotations

import os

from ..core.position import COLOR_NAMES, Position
from ..core.errors import MorrisError
from ..hashing.games import game_of
from ..hashing.index import Hasher, count_positions, slot_count
from ..hashing.subspaces import Subspace, movement_subspaces, placement_subspaces
from ..solving.schedule import (ALONE, RATES, critical_path, estimate, human_bytes, human_time,
                               present_jobs)
from ..database.folders import beside, open_found
from ..core.variants import variant_from_fields


def plural(n: int, word: str) -> str:
    """``1 position``, ``2 positions``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------- positions
def show_lines(pos) -> list[str]:
    """``morris show``: the diagram, the position in both notations, the result if it is over."""
    out = [pos.diagram(), f"compact: {pos.to_compact()}"]
    try:
        out.append(f"fen:     {pos.to_fen()}")
    except MorrisError:  # a position Sanmill's FEN cannot write
        pass
    result = pos.outcome()
    if result is not None:
        out.append(f"game over: {result} for the side to move")
    return out


def read_positions(args, stdin):
    """The positions of a command line: each argument, and for ``-`` every line of ``stdin``
    that is not empty or a ``#`` comment."""
    for a in args:
        if a == "-":
            for line in stdin:
                line = line.strip()
                if line and not line.startswith("#"):
                    yield line
        else:
            yield a


# ---------------------------------------------------------------------------- lookups
def search_line(analysis) -> str | None:
    """The one line that says a search was needed, and how long it took (None: no search)."""
    if analysis is None or analysis.source != "search":
        return None
    why = f"no database holds {analysis.missing}" if analysis.missing else "--search"
    load = (f", {analysis.load_seconds:.2f} s of it loading the movement values"
            if analysis.load_seconds >= 0.01 else "")
    return (f"search: {why}; valued by exact search over the movement databases in "
            f"{analysis.search_seconds:.2f} s{load}")


def analysis_lines(pos, a) -> list[str]:
    """``morris query``'s lines for one position: its value, then each move's. Where the files
    hold dtw: ``win in 37 plies (next removal in 3)``, and each move ``37 plies, removal in 3``."""
    if a.dtw is not None:
        dist = f" in {a.dtw} plies (next removal in {a.dtc})" if not pos.in_placement else \
            f" in {a.dtw} plies (end of placement or a removal in {a.dtc})"
    else:
        dist = "" if a.dtc is None else f" in {a.dtc}"
    if a.draw is not None:
        dist = " (" + draw_words(a.draw) + ")"
    limit = ""
    if pos.limit is not None:
        limit = f" (counter {pos.no_removal_plies} of {pos.limit}"
        limit += f"; at counter 0: {a.category})" if a.category else ")"
    out = [f"{pos.to_compact()}: {a.value}{dist} for {COLOR_NAMES[pos.turn]}{limit}"]
    for mi in a.moves:
        if mi.dtw is not None:
            dist = f" {mi.dtw} plies, removal in {mi.dtc}"
        else:
            dist = "" if mi.dtc is None else f" {mi.dtc}"
        if mi.draw is not None:
            far = a.draw is not None and a.draw.rank is not None and mi.draw != a.draw.rank
            dist = f" {mi.draw:+d}" + (f", {_plies(mi.draw_distance)}" if far else "")
        out.append(f"  {str(mi.move):<12} {mi.value}{dist}")
    return out


def _plies(n: int) -> str:
    return f"{n} ply" if n == 1 else f"{n} plies"


def draw_words(d) -> str:
    """A draw value in words (docs/draws.md): ``+6: can force a settlement worth +6 in 3 plies
    (this pair: 0)``."""
    if d.rank is None:  # placement
        return f"{d.value:+d}: can force a settlement worth {d.value:+d}"
    if d.value == d.rank:
        return f"{d.value:+d}: the settlement of this pair, worth {d.rank:+d}"
    who = "can force" if d.value > d.rank else "the opponent can force"
    return (f"{d.value:+d}: {who} a settlement worth {d.value:+d} within {_plies(d.distance)} "
            f"(this pair: {d.rank:+d})")


def line_lines(steps, end) -> list[str]:
    """``morris line``: a numbered move per line with its value, dtw and dtc (and a drawing
    move's draw value where the files hold it), then the end."""
    out = []
    for k, st in enumerate(steps, 1):
        dtw = "-" if st.dtw is None else st.dtw
        dtc = "-" if st.dtc is None else st.dtc
        extra = "" if st.draw is None else f"  draw value {st.draw:+d}"
        out.append(f"{k:>4}. {COLOR_NAMES[st.position.turn]:<5} {str(st.move):<12} {st.value:<4} "
                   f"dtw {dtw:>3}  dtc {dtc:>3}{extra}")
    out.append(end)
    return out


def line_json(position: str, steps, end) -> str:
    import json

    return json.dumps({"position": position, "moves": [s.to_json() for s in steps], "end": end})


def match_lines(r) -> list[str]:
    """``morris match``: A's results against B, with the 95% intervals."""
    mean, lo, hi = r.score_interval()
    p, plo, phi = r.wins_interval()
    return [f"{r.a} against {r.b}: {r.games} games, {r.wins} won, {r.draws} drawn, {r.losses} lost",
            f"score {mean:.3f} (95%: {lo:.3f} to {hi:.3f}); games won {100 * p:.1f}% "
            f"(95%: {100 * plo:.1f}% to {100 * phi:.1f}%)"]


def choice_line(choice) -> str:
    """``morris bestmove``'s line."""
    if choice is None:
        return "the game is over"
    dist = "" if choice.dtc is None else f" in {choice.dtc}"
    return f"{choice.move} ({choice.value}{dist}; {choice.rule})"


# ---------------------------------------------------------------------------- subspaces and plans
def preset_rows() -> list[dict]:
    """``morris rules``: each preset with its variant, the flags it stands for and its source."""
    from ..core.variants import PRESETS, get_variant

    rows = []
    for p in PRESETS.values():
        v = get_variant(rules=p.name)
        rows.append({"name": p.name, "variant": p.variant, "flags": v.cli_flags(),
                     "options": dict(p.options), "source": p.source})
    return rows


def preset_lines(rows: list[dict]) -> list[str]:
    width = max(len(r["name"]) for r in rows)
    out = []
    for r in rows:
        out.append(f"{r['name']:<{width}}  {r['flags']}")
        out.append(f"{'':<{width}}  {r['source']}")
    return out


def subspace_rows(variant, phase: str) -> list[dict]:
    """``morris subspaces``: per subspace its hash slots and its positions (Burnside)."""
    board = variant.board
    subs = []
    if phase in ("movement", "all"):
        subs += movement_subspaces(variant)
    if phase in ("placement", "all"):
        subs += placement_subspaces(variant)
    return [{"subspace": s.name, "slots": slot_count(board, s),
             "positions": count_positions(board, s.m, s.o)} for s in subs]


def subspace_table(rows: list[dict]) -> list[str]:
    out = [f"{'subspace':>12} {'slots':>15} {'positions':>15} {'ratio':>7}"]
    for r in rows:
        out.append(f"{r['subspace']:>12} {r['slots']:>15,} {r['positions']:>15,} "
                   f"{r['slots'] / r['positions']:>7.4f}")
    slots = sum(r["slots"] for r in rows)
    positions = sum(r["positions"] for r in rows)
    out.append(f"{'total':>12} {slots:>15,} {positions:>15,} {slots / max(1, positions):>7.4f}")
    return out


def plan_lines(variant, job_list, deps, out=None) -> list[str]:
    """``morris solve --plan``: the jobs, the critical path, and the estimate; with ``out`` (an
    existing database folder), how many of the jobs have their files there and what is left."""
    p = critical_path(variant, job_list, deps)
    lines = [f"{plural(len(p.jobs), 'job')}, {p.total:,} positions"]
    for j in p.jobs:
        needs = ", ".join(d.name for d in p.deps[j]) or "-"
        lines.append(f"  {j.name:<14} {p.weight[j]:>15,} positions  needs {needs}")
    lines.append(f"critical path ({len(p.critical)} jobs, {p.critical_weight:,} positions, "
               f"{100 * p.critical_weight / max(1, p.total):.1f}% of all):")
    lines.append("  " + " -> ".join(j.name for j in p.critical))
    lines.append(f"no number of machines can finish sooner than the critical path: at most "
               f"{p.total / max(1, p.critical_weight):.2f}x the speed of one machine of the same kind")
    secs, size = estimate(variant, p.jobs)
    family = game_of(variant).family
    whose = (f"{family}'s rates by kind of job" if family in RATES
             else f"the standard game's rates ({family}'s are not measured)")
    lines.append(f"estimate: about {human_time(secs)} on 2 cores and {human_bytes(size)} of files "
               f"({whose}, docs/benchmarks.md; complete files are kept, so a rerun does less)")
    if p.jobs:
        heavy = max(p.jobs, key=lambda j: j.memory(variant))
        lines.append(f"peak memory: about {human_bytes(heavy.memory(variant))} (the heaviest job, "
                   f"{heavy.name}; one job at a time; --jobs N runs those under "
                   f"{ALONE // 1_000_000} M positions N at once, the larger ones alone)")
    if out is not None:
        lines.extend(progress_lines(variant, p, out))
    return lines


def progress_lines(variant, p, out) -> list[str]:
    """How far a run into ``out`` is: the jobs whose files are there, and the estimate of the rest."""
    done = set(present_jobs(out, variant, p.jobs))
    left = [j for j in p.jobs if j not in done]
    positions = sum(p.weight[j] for j in done)
    secs, size = estimate(variant, left)
    return [f"in {out}: {len(done):,} of {len(p.jobs):,} jobs have their files "
            f"({positions:,} of {p.total:,} positions, {100 * positions / max(1, p.total):.1f}%); "
            f"left: {plural(len(left), 'job')}, about {human_time(secs)} on 2 cores and "
            f"{human_bytes(size)} of files"]


def solve_line(summary, out) -> str:
    return (f"solved {plural(len(summary.solved), 'job')}, {len(summary.skipped)} already complete, "
            f"in {summary.seconds:.1f} s; databases in {out}")


# ---------------------------------------------------------------------------- stats
def stats_rows(paths) -> list[dict]:
    """``morris stats``: per file the counts its header records, and its size."""
    rows = []
    for path in paths:
        with open_found(path) as tf:
            h = tf.header
            row = {
                "ruleset": h["ruleset"], "subspace": h["subspace"], "positions": h["positions"],
                "wins": h["wins"], "draws": h["draws"], "losses": h["losses"],
                "max_win_dtc": h["max_win_dtc"], "max_loss_dtc": h["max_loss_dtc"],
                "bytes": os.path.getsize(path), "phase": h.get("phase", "movement"),
                # the explorer's parameters for the file's rules (the stats page's links)
                "rules": variant_from_fields(h).query_params(),
            }
            if "cursed_wins" in h:  # rules with a no-removal limit
                row.update(limit=h["limit"], cursed_wins=h["cursed_wins"],
                           blessed_losses=h["blessed_losses"])
        dtw = beside(path, "dtw")
        if os.path.exists(dtw):
            row.update(_dtw_stats(dtw), dtw_bytes=os.path.getsize(dtw))
        draws = beside(path, "draw")
        if os.path.exists(draws):
            row.update(_draw_stats(draws), draw_bytes=os.path.getsize(draws))
        rows.append(row)
    return rows


def _draw_stats(path) -> dict:
    """A draw-value file's rank and the range of its draw values (docs/draws.md)."""
    with open_found(path) as tf:
        h = tf.header
    vals = [int(k) for k in h.get("draw_values", {})]
    return {"rank": h.get("rank"), "draw_values": h.get("draw_values", {}),
            "min_draw_value": min(vals, default=None), "max_draw_value": max(vals, default=None)}


def _dtw_stats(path) -> dict:
    """The longest dtw win and loss of a dtw file, each with one position that has it."""
    with open_found(path) as tf:
        h = tf.header
    variant = variant_from_fields(h)
    sub = Subspace.parse(h["subspace"])
    hasher = Hasher(variant.board)
    out = {}
    for kind in ("win", "loss"):
        out[f"max_{kind}_dtw"] = h[f"max_{kind}_dtw"]
        slot = h.get(f"max_{kind}_dtw_slot")
        pos = None
        if slot is not None:
            mover, opp, _ = hasher.unindex_py(sub, slot, hasher.anchor_reps(sub.o))
            pos = Position.from_masks(variant, mover, opp, 0, sub.hm, sub.ho).to_compact()
        out[f"longest_{kind}"] = pos
    return out


def longest_lines(rows: list[dict]) -> list[str]:
    """The longest win and loss over every subspace with dtw, with their positions; where both
    phases have dtw, also the longest of each phase."""
    out = []
    phases = {r["phase"] for r in rows if r.get("longest_win") or r.get("longest_loss")}
    for phase in [None] + (sorted(phases) if len(phases) > 1 else []):
        for kind in ("win", "loss"):
            have = [r for r in rows if r.get(f"longest_{kind}") and phase in (None, r["phase"])]
            if have:
                r = max(have, key=lambda r: r[f"max_{kind}_dtw"])
                out.append(f"longest {kind}{f' ({phase})' if phase else ''}: {r[f'max_{kind}_dtw']} plies "
                           f"to the end of the game, {r[f'longest_{kind}']} ({r['ruleset']} {r['subspace']})")
    return out


def side_file_lines(rows: list[dict]) -> list[str]:
    """The dtw and draw-value files' bytes and bits per position (over the subspaces that have
    them)."""
    out = []
    for key, what in (("dtw_bytes", "dtw files"), ("draw_bytes", "draw-value files")):
        have = [r for r in rows if key in r]
        if have:
            size, positions = sum(r[key] for r in have), sum(r["positions"] for r in have)
            out.append(f"{what}: {len(have)} files, {size:,} bytes, {8 * size / max(1, positions):.3f} "
                       f"bits per position ({positions:,} positions)")
    return out


def stats_table(rows: list[dict]) -> list[str]:
    curses = any("cursed_wins" in r for r in rows)
    dtws = any("max_win_dtw" in r for r in rows)
    draws = any("draw_values" in r for r in rows)
    extra = (f" {'cursedW':>12} {'blessedL':>12}" if curses else "") + \
        (f" {'maxWdtw':>7} {'maxLdtw':>7}" if dtws else "") + \
        (f" {'rank':>5} {'drawvalues':>11}" if draws else "")
    w = max(10, *(len(r["ruleset"]) for r in rows))
    out = [f"{'ruleset':<{w}} {'subspace':>10} {'positions':>14} {'win%':>6} {'draw%':>6} {'loss%':>6} "
           f"{'maxW':>5} {'maxL':>5} {'bytes':>12} {'bits/pos':>8}{extra}"]
    for r in rows:
        p = max(1, r["positions"])
        extra = f" {r.get('cursed_wins', 0):>12,} {r.get('blessed_losses', 0):>12,}" if curses else ""
        if dtws:
            extra += f" {r.get('max_win_dtw', '-'):>7} {r.get('max_loss_dtw', '-'):>7}"
        if draws:
            rank = "-" if r.get("rank") is None else f"{r['rank']:+d}"
            span = "-" if r.get("min_draw_value") is None else \
                f"{r['min_draw_value']:+d}..{r['max_draw_value']:+d}"
            extra += f" {rank:>5} {span:>11}"
        out.append(
            f"{r['ruleset']:<{w}} {r['subspace']:>10} {r['positions']:>14,} {100 * r['wins'] / p:>6.2f} "
            f"{100 * r['draws'] / p:>6.2f} {100 * r['losses'] / p:>6.2f} {r['max_win_dtc']:>5} "
            f"{r['max_loss_dtc']:>5} {r['bytes']:>12,} {8 * r['bytes'] / p:>8.3f}{extra}")
    tp = sum(r["positions"] for r in rows)
    tb = sum(r["bytes"] for r in rows)
    out.append(f"{'total':<{w}} {'':>10} {tp:>14,} {'':>6} {'':>6} {'':>6} {'':>5} {'':>5} {tb:>12,} "
               f"{8 * tb / max(1, tp):>8.3f}")
    return out + side_file_lines(rows) + longest_lines(rows)


# ---------------------------------------------------------------------------- verify
def verify_line(f) -> str:
    """One file's line of ``morris verify`` (a ``FileReport``): ok, FAIL or SKIP, and what was
    checked."""
    if f.checksum != "ok":  # (the problem names the file already: said once)
        return f"FAIL {f.path}: {f.checksum.removeprefix(f'{f.path}: ')}"
    if f.skipped:
        return f"SKIP {f.path}: {f.skipped}"
    if f.mismatches:
        curse = f"; curse plane: {f.curse}" if f.curse and f.curse != "ok" else ""
        stats = f"; {f.header_stats}" if f.header_stats not in (None, "ok") else ""
        return (f"FAIL {f.path}: {f.mismatches:,} of {plural(f.checked, 'position')} checked "
                f"disagree; first {f.first_mismatch}{curse}{stats}")
    if f.header_stats not in (None, "ok"):
        return f"FAIL {f.path}: {f.header_stats}"
    if f.checked < f.positions:
        what = f"{f.checked:,} slots of {plural(f.positions, 'position')} (a fixed random sample)"
    else:
        what = plural(f.checked, "position")
    if f.curse:
        what += "; curse plane " + f.curse
    return f"ok   {f.path}" + (f": {what}" if f.checked else "")


def verify_summary(report, db) -> str:
    if not report.files:
        return f"no databases under {db}"
    n = len(report.files)
    if not report.ok:
        return f"{plural(n, 'file')} checked: {sum(not f.ok for f in report.files)} failed"
    return f"{plural(n, 'file')} verified" if n != 1 else "the file verified"
