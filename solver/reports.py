"""The text the command-line tool prints: each report built here from the library's results, as
lines, so that the CLI only parses options and prints (and a test can read the same lines).

Every function takes results (an :class:`Analysis`, a verify report, headers, a plan) and returns
lines or rows; nothing here reads options or writes to a terminal.
"""

from __future__ import annotations

import os

from .position import COLOR_NAMES


def plural(n: int, word: str) -> str:
    """``1 position``, ``2 positions``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------- positions
def show_lines(pos) -> list[str]:
    """``morris show``: the diagram, the position in both notations, the result if it is over."""
    from .errors import MorrisError

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
    """``morris query``'s lines for one position: its value, then each move's."""
    dist = "" if a.dtc is None else f" in {a.dtc}"
    limit = ""
    if pos.limit is not None:
        limit = f" (counter {pos.no_removal_plies} of {pos.limit}"
        limit += f"; at counter 0: {a.category})" if a.category else ")"
    out = [f"{pos.to_compact()}: {a.value}{dist} for {COLOR_NAMES[pos.turn]}{limit}"]
    for mi in a.moves:
        dist = "" if mi.dtc is None else f" {mi.dtc}"
        out.append(f"  {str(mi.move):<12} {mi.value}{dist}")
    return out


def choice_line(choice) -> str:
    """``morris bestmove``'s line."""
    if choice is None:
        return "the game is over"
    dist = "" if choice.dtc is None else f" in {choice.dtc}"
    return f"{choice.move} ({choice.value}{dist}; {choice.rule})"


# ---------------------------------------------------------------------------- subspaces and plans
def subspace_rows(variant, phase: str) -> list[dict]:
    """``morris subspaces``: per subspace its hash slots and its positions (Burnside)."""
    from .index import count_positions, slot_count
    from .subspaces import movement_subspaces, placement_subspaces

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


def plan_lines(variant, job_list, deps) -> list[str]:
    """``morris solve --plan``: the jobs, the critical path, and the estimate."""
    from .schedule import critical_path, estimate, human_bytes, human_time

    p = critical_path(variant, job_list, deps)
    out = [f"{plural(len(p.jobs), 'job')}, {p.total:,} positions"]
    for j in p.jobs:
        needs = ", ".join(d.name for d in p.deps[j]) or "-"
        out.append(f"  {j.name:<14} {p.weight[j]:>15,} positions  needs {needs}")
    out.append(f"critical path ({len(p.critical)} jobs, {p.critical_weight:,} positions, "
               f"{100 * p.critical_weight / max(1, p.total):.1f}% of all):")
    out.append("  " + " -> ".join(j.name for j in p.critical))
    out.append(f"no number of machines can finish sooner than the critical path: at most "
               f"{p.total / max(1, p.critical_weight):.2f}x the speed of one machine of the same kind")
    secs, size = estimate(variant, p.jobs)
    out.append(f"estimate: about {human_time(secs)} on 2 cores and {human_bytes(size)} of files "
               f"(rates measured on the standard board, docs/benchmarks.md; complete files are "
               f"kept, so a rerun does less)")
    return out


def solve_line(summary, out) -> str:
    return (f"solved {plural(len(summary.solved), 'job')}, {len(summary.skipped)} already complete, "
            f"in {summary.seconds:.1f} s; databases in {out}")


# ---------------------------------------------------------------------------- stats
def stats_rows(paths) -> list[dict]:
    """``morris stats``: per file the counts its header records, and its size."""
    from .fileformat import TableFile

    rows = []
    for path in paths:
        with TableFile(path) as tf:
            h = tf.header
            row = {
                "ruleset": h["ruleset"], "subspace": h["subspace"], "positions": h["positions"],
                "wins": h["wins"], "draws": h["draws"], "losses": h["losses"],
                "max_win_dtc": h["max_win_dtc"], "max_loss_dtc": h["max_loss_dtc"],
                "bytes": os.path.getsize(path),
            }
            if "cursed_wins" in h:  # rules with a no-removal limit
                row.update(limit=h["limit"], cursed_wins=h["cursed_wins"],
                           blessed_losses=h["blessed_losses"])
            rows.append(row)
    return rows


def stats_table(rows: list[dict]) -> list[str]:
    curses = any("cursed_wins" in r for r in rows)
    extra = f" {'cursedW':>12} {'blessedL':>12}" if curses else ""
    w = max(10, *(len(r["ruleset"]) for r in rows))
    out = [f"{'ruleset':<{w}} {'subspace':>10} {'positions':>14} {'win%':>6} {'draw%':>6} {'loss%':>6} "
           f"{'maxW':>5} {'maxL':>5} {'bytes':>12} {'bits/pos':>8}{extra}"]
    for r in rows:
        p = max(1, r["positions"])
        extra = f" {r.get('cursed_wins', 0):>12,} {r.get('blessed_losses', 0):>12,}" if curses else ""
        out.append(
            f"{r['ruleset']:<{w}} {r['subspace']:>10} {r['positions']:>14,} {100 * r['wins'] / p:>6.2f} "
            f"{100 * r['draws'] / p:>6.2f} {100 * r['losses'] / p:>6.2f} {r['max_win_dtc']:>5} "
            f"{r['max_loss_dtc']:>5} {r['bytes']:>12,} {8 * r['bytes'] / p:>8.3f}{extra}")
    tp = sum(r["positions"] for r in rows)
    tb = sum(r["bytes"] for r in rows)
    out.append(f"{'total':<{w}} {'':>10} {tp:>14,} {'':>6} {'':>6} {'':>6} {'':>5} {'':>5} {tb:>12,} "
               f"{8 * tb / max(1, tp):>8.3f}")
    return out


# ---------------------------------------------------------------------------- verify
def verify_lines(report) -> list[str]:
    """``morris verify``: a line per file (ok, FAIL or SKIP, and what was checked)."""
    out = []
    for f in report.files:
        if f.checksum != "ok":
            out.append(f"FAIL {f.path}: {f.checksum}")
        elif f.skipped:
            out.append(f"SKIP {f.path}: {f.skipped}")
        elif f.mismatches:
            curse = f"; curse plane: {f.curse}" if f.curse and f.curse != "ok" else ""
            out.append(f"FAIL {f.path}: {f.mismatches:,} of {plural(f.checked, 'position')} checked "
                       f"disagree; first {f.first_mismatch}{curse}")
        else:
            if f.checked < f.positions:
                what = f"{f.checked:,} slots of {plural(f.positions, 'position')} (a fixed random sample)"
            else:
                what = plural(f.checked, "position")
            if f.curse:
                what += "; curse plane " + f.curse
            out.append(f"ok   {f.path}" + (f": {what}" if f.checked else ""))
    return out


def verify_summary(report, db) -> str:
    if not report.files:
        return f"no databases under {db}"
    n = len(report.files)
    if not report.ok:
        return f"{plural(n, 'file')} checked: {sum(not f.ok for f in report.files)} failed"
    return f"{plural(n, 'file')} verified" if n != 1 else "the file verified"
