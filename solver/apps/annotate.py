"""``morris annotate``: every ply of a played game graded with the databases.

For each ply the position before it is analysed (``Tablebase.analyze``: the databases, then the
shipped data, then the search, as ``query`` does), and the move played is compared with the best:

========== ==================================================================================
grade      meaning
========== ==================================================================================
blunder    the value dropped for the player who moved: a win given up, or a draw turned into
           a loss
slip       the value kept, but the winner took more than ``slip`` plies longer to win (dtw, or
           dtc where no dtw file holds it), the loser lost more than ``slip`` plies sooner, or a
           draw was kept with a lower draw value than the best
best       otherwise
ungraded   no file or search could value the position (``why`` says what was missing)
========== ==================================================================================

Values are for the player making the move; ``before`` is the position's value, ``after`` the
move's. The JSON of a game (``game_json``) is the documented output of ``--json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.codes import NEGATE_NAME, VALUE_RANK
from ..core.errors import MissingSubspaceError, UnsupportedRulesError
from ..core.position import COLOR_NAMES

#: plies a win may take longer (a loss end sooner) than the best before the move is a slip
DEFAULT_SLIP = 2


@dataclass
class Ply:
    ply: int
    side: str
    move: str
    grade: str
    before: str | None = None
    after: str | None = None
    distance: str | None = None  # "dtw" or "dtc": the metric of best_dist / played_dist
    best_dist: int | None = None
    played_dist: int | None = None
    draw_best: int | None = None
    draw_played: int | None = None
    best: list = field(default_factory=list)  # the best moves, where another was played
    why: str | None = None  # ungraded: what was missing


def _dist(info, use_dtw: bool):
    return info.dtw if use_dtw else info.dtc


def grade_ply(tb, pos, move, ply: int, slip: int = DEFAULT_SLIP) -> Ply:
    """The grade of ``move`` played in ``pos`` (see the module docstring)."""
    side = COLOR_NAMES[pos.turn]
    try:
        a = tb.analyze(pos)
    except (MissingSubspaceError, UnsupportedRulesError) as exc:  # (damaged files still raise)
        return Ply(ply, side, str(move), "ungraded", why=f"{type(exc).__name__}: {exc}")
    infos = a.moves
    played = next((m for m in infos if str(m.move) == str(move)), None)
    if played is None or not infos:  # (cannot be: the move was legal)
        return Ply(ply, side, str(move), "ungraded", why="the move is not among the analysed moves")
    best_value = min((m.value for m in infos), key=VALUE_RANK.__getitem__)
    use_dtw = all(m.dtw is not None for m in infos if m.value != "draw")
    metric = "dtw" if use_dtw else "dtc"
    out = Ply(ply, side, str(move), "best", before=best_value, after=played.value, distance=metric)
    same = [m for m in infos if m.value == best_value]
    if best_value != "draw":
        dists = [_dist(m, use_dtw) for m in same if _dist(m, use_dtw) is not None]
        if dists:
            out.best_dist = min(dists) if best_value == "win" else max(dists)
        out.played_dist = _dist(played, use_dtw)
    else:
        draws = [m.draw for m in same if m.draw is not None]
        out.draw_best = max(draws) if draws else None
        out.draw_played = played.draw
    if VALUE_RANK[played.value] > VALUE_RANK[best_value]:
        out.grade = "blunder"
    elif out.best_dist is not None and out.played_dist is not None and (
            (best_value == "win" and out.played_dist > out.best_dist + slip)
            or (best_value == "loss" and out.played_dist < out.best_dist - slip)):
        out.grade = "slip"
    elif out.draw_best is not None and out.draw_played is not None and out.draw_played < out.draw_best:
        out.grade = "slip"
    best_moves = [str(m.move) for m in same if _better_or_equal(m, out, use_dtw)]
    if str(move) not in best_moves:
        out.best = best_moves[:5]
    return out


def _better_or_equal(m, out: Ply, use_dtw: bool) -> bool:
    """Whether move info ``m`` (of the best value) is one of the best moves."""
    if out.before == "draw":
        return out.draw_best is None or m.draw == out.draw_best
    return out.best_dist is None or _dist(m, use_dtw) == out.best_dist


@dataclass
class Annotated:
    number: int
    tags: dict
    plies: list
    start_value: str | None  # for White, from the start of the record
    result: str | None  # as played (the record's, or the rules')
    reason: str | None


def annotate_game(tb, record, game, slip: int = DEFAULT_SLIP) -> Annotated:
    plies = [grade_ply(tb, game.positions[i], mv, i + 1, slip) for i, mv in enumerate(game.moves)]
    start = None
    if plies and plies[0].before is not None:
        start = plies[0].before if game.start.turn == 0 else NEGATE_NAME[plies[0].before]
    return Annotated(record.number, record.tags, plies, start, game.result or record.result, game.reason)


def summary(ann: Annotated) -> dict:
    """Per side: blunders, slips, the share of graded plies that kept the value; the ply that
    decided the result (the last one that changed the value for White); the value at the start."""
    sides = {}
    for side in COLOR_NAMES:
        mine = [p for p in ann.plies if p.side == side and p.grade != "ungraded"]
        kept = sum(1 for p in mine if p.grade != "blunder")
        sides[side] = {"plies": len(mine), "blunders": sum(p.grade == "blunder" for p in mine),
                       "slips": sum(p.grade == "slip" for p in mine),
                       "kept_value": round(kept / len(mine), 3) if mine else None}
    decided = max((p.ply for p in ann.plies if p.grade == "blunder"), default=None)
    return {"sides": sides, "decided_at_ply": decided, "start_value_for_white": ann.start_value,
            "ungraded": [p.ply for p in ann.plies if p.grade == "ungraded"]}


def game_json(ann: Annotated) -> dict:
    """The ``--json`` object of one game: ``game`` (its number in the input), ``tags``,
    ``result`` and ``reason`` (as played), ``plies`` (each: ply, side, move, grade, before,
    after, distance ("dtw" or "dtc"), best_dist, played_dist, draw_best, draw_played, best,
    why) and ``summary`` (:func:`summary`)."""
    return {"game": ann.number, "tags": ann.tags, "result": ann.result, "reason": ann.reason,
            "plies": [vars(p) for p in ann.plies], "summary": summary(ann)}


def table_lines(ann: Annotated) -> list[str]:
    """The readable table of one game, then its summary."""
    out = [f"game {ann.number}" + "".join(f' [{k} "{v}"]' for k, v in ann.tags.items())]
    for p in ann.plies:
        if p.grade == "ungraded":
            out.append(f"{p.ply:4} {p.side:5} {p.move:12} ungraded  ({p.why})")
            continue
        d = ""
        if p.played_dist is not None:
            d = f" {p.distance} {p.played_dist}" + (f" (best {p.best_dist})" if p.best_dist != p.played_dist else "")
        elif p.draw_played is not None:
            d = f" draw value {p.draw_played:+d}" + (f" (best {p.draw_best:+d})" if p.draw_best != p.draw_played else "")
        best = f"  best: {', '.join(p.best)}" if p.best else ""
        out.append(f"{p.ply:4} {p.side:5} {p.move:12} {p.grade:8} {p.before} -> {p.after}{d}{best}")
    s = summary(ann)
    for side, v in s["sides"].items():
        kept = "-" if v["kept_value"] is None else f"{100 * v['kept_value']:.0f}%"
        out.append(f"{side}: {v['blunders']} blunders, {v['slips']} slips, value kept on {kept} of "
                   f"{v['plies']} graded plies")
    out.append(f"start: {s['start_value_for_white'] or 'unknown'} for white; "
               + (f"decided at ply {s['decided_at_ply']}" if s["decided_at_ply"] else "no blunder")
               + (f"; result {ann.result} ({ann.reason})" if ann.reason else
                  (f"; result {ann.result}" if ann.result else "")))
    if s["ungraded"]:
        out.append(f"ungraded plies: {', '.join(map(str, s['ungraded']))}")
    return out


def white_score(p: Ply) -> float | None:
    """The position after ply ``p`` for White, in -1 .. 1: a win +1 less a little for each ply
    it takes (the sooner the higher), a draw 0, a loss the mirror; None where ungraded."""
    if p.after is None:
        return None
    d = p.played_dist or 0
    x = {"win": 1 - min(d, 200) / 400, "draw": 0.0, "loss": -1 + min(d, 200) / 400}[p.after]
    return x if p.side == "white" else -x


def start_score(ann: Annotated) -> float | None:
    """The start position for White on the graphs' scale: 1 a win, 0 a draw, -1 a loss (None
    where ungraded); the course's first point."""
    return {"win": 1.0, "draw": 0.0, "loss": -1.0}.get(ann.start_value or "")


def graph_svg(ann: Annotated, width: int = 640, height: int = 240) -> str:
    """The game's course as SVG: the value for White after each ply (up: White wins, the
    sooner the higher; the middle line a draw), blunders as red rings, slips as orange ones,
    ungraded plies as gaps."""
    n = max(1, len(ann.plies))
    left, right, top, bottom = 40, 10, 10, 24
    w, h = width - left - right, height - top - bottom

    def xy(i, y):
        return left + w * i / n, top + h * (1 - y) / 2

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="#fdfaf3"/>']
    for y, label in ((1, "white wins"), (0, "draw"), (-1, "black wins")):
        x0, yy = xy(0, y)
        parts.append(f'<line x1="{x0}" y1="{yy}" x2="{left + w}" y2="{yy}" stroke="#ccc"/>')
        parts.append(f'<text x="2" y="{yy + 4}" fill="#555">{label.split()[0]}</text>')
    start = start_score(ann)
    runs, run = [], ([xy(0, start)] if start is not None else [])
    for i, p in enumerate(ann.plies, start=1):
        s = white_score(p)
        if s is None:
            if run:
                runs.append(run)
            run = []
            continue
        run.append(xy(i, s))
    if run:
        runs.append(run)
    for r in runs:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in r)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="#2f5d8a" stroke-width="2"/>')
    for i, p in enumerate(ann.plies, start=1):
        s = white_score(p)
        if s is not None and p.grade in ("blunder", "slip"):
            x, y = xy(i, s)
            colour = "#d1342f" if p.grade == "blunder" else "#e39b27"
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="none" stroke="{colour}" '
                         f'stroke-width="2"><title>ply {p.ply} {p.side} {p.move}: {p.grade}</title></circle>')
    for i in range(0, n + 1, max(1, n // 10)):
        x, _ = xy(i, -1)
        parts.append(f'<text x="{x:.1f}" y="{height - 6}" fill="#555" text-anchor="middle">{i}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
