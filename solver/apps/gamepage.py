"""The explorer's game page (``/game`` under ``morris serve``): a played game, graded.

``/game?moves=<the game>`` (plus the explorer's rule parameters, and ``ply=N``) shows the board
after ply N with the move that led there marked, links to step back and forth, the move list
coloured by grade (annotate.py: blunder, slip, best, ungraded), each move a link to its ply,
the game's course (``annotate.graph_svg``), and a link to the explorer's page of the position
shown. Without ``moves`` it is a form to paste a game. Server-side HTML, no script, nothing
loaded from elsewhere. A bad record is the page with the one line that names the game, the
ply and the token (HTTP 400).
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

from .advice import public_text
from .annotate import DEFAULT_SLIP, annotate_game, graph_svg, summary
from ..core.errors import MorrisError
from ..core.inputs import parse_int
from ..core.records import read_games
from .explorer import RULE_PARAMS, variant_of
from .svg import board_svg

STYLE = """body{font-family:sans-serif;margin:1em;background:#fdfaf3;color:#3b2a18}
.blunder{background:#f6c7c4}.slip{background:#f8deb0}.best{}.ungraded{color:#999}
.moves a{text-decoration:none;color:inherit;padding:0 .2em}.moves .current{outline:2px solid #2f7de1}
.error{color:#b3261e}textarea{width:40em;height:6em}nav a{margin-right:1em}"""


def _href(params: dict, **changes) -> str:
    q = {k: params[k] for k in RULE_PARAMS if params.get(k) not in (None, "")}
    q["moves"] = params.get("moves", "")
    q.update({k: str(v) for k, v in changes.items()})
    return "/game?" + urlencode(q)


def game_page(tb, params: dict) -> tuple[str, int]:
    """(HTML, status) of the game page for the query parameters ``params``."""
    text = params.get("moves") or ""
    form = (f'<form method="get" action="/game"><textarea name="moves" id="moves">{escape(text)}'
            f'</textarea><br><input name="variant" value="{escape(params.get("variant") or "standard")}">'
            f' <button>grade</button></form>')
    if not text.strip():
        return _page("a game", form + "<p>Paste a game: move tokens (d2 b4 d2-d3xb4 ...) or "
                     "Sanmill's move list.</p>"), 200
    try:
        record, game = read_games(text, variant_of(params))[0]
        ann = annotate_game(tb, record, game, DEFAULT_SLIP)
        n = len(game.moves)
        ply = min(n, parse_int(params.get("ply") or str(n), "ply", 0))
    except MorrisError as exc:
        msg = escape(public_text(f"{type(exc).__name__}: {exc}", tb.paths))
        return _page("a game", f'<p class="error" id="error">{msg}</p>' + form), exc.http_status
    pos = game.positions[ply]
    last = str(game.moves[ply - 1]) if ply else None
    nav = [f'<a id="first" href="{escape(_href(params, ply=0))}">|&lt;</a>']
    if ply > 0:
        nav.append(f'<a id="prev" href="{escape(_href(params, ply=ply - 1))}">&lt; back</a>')
    if ply < n:
        nav.append(f'<a id="next" href="{escape(_href(params, ply=ply + 1))}">forward &gt;</a>')
    nav.append(f'<a id="end" href="{escape(_href(params, ply=n))}">&gt;|</a>')
    explore = {k: params[k] for k in RULE_PARAMS if params.get(k)}
    explore.update(position=pos.to_compact(), **({"last": last} if last else {}))
    nav.append(f'<a id="explore" href="/?{escape(urlencode(explore))}">this position in the explorer</a>')
    moves = []
    for p in ann.plies:
        cls = f"{p.grade}{' current' if p.ply == ply else ''}"
        tip = p.grade if p.grade != "ungraded" else f"ungraded: {public_text(p.why or '', tb.paths)}"
        moves.append(f'<a class="{cls}" data-ply="{p.ply}" data-grade="{p.grade}" title="{escape(tip)}" '
                     f'href="{escape(_href(params, ply=p.ply))}">{p.ply}. {escape(p.move)}</a>')
    s = summary(ann)
    lines = [f"{side}: {v['blunders']} blunders, {v['slips']} slips" for side, v in s["sides"].items()]
    body = [f"<nav>{' '.join(nav)}</nav>", f'<section id="board">{board_svg(pos, last_move=last)}</section>',
            f'<p id="ply">after ply {ply} of {n}</p>',
            f'<p class="moves" id="movelist">{" ".join(moves)}</p>',
            graph_svg(ann), "<p id=\"summary\">" + escape("; ".join(lines)) + "</p>", form]
    return _page(f"game, ply {ply}", "\n".join(body)), 200


def _page(title: str, body: str) -> str:
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{escape(title)} - morris</title>'
            f'<style>{STYLE}</style></head><body>{body}</body></html>')
