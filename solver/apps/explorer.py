"""The explorer page of ``morris serve`` (``/``): one HTML page per position, no external
resources.

``/?position=<compact or FEN>`` (plus ``variant``, ``flying``, ``double_mill_removes`` where they
differ from the default, ``flip=1`` to turn the board, ``last=<move>`` to mark the move that led
here) shows the board, the value and distance of the position, and every legal move grouped
into wins, draws and losses, best first, each a link to the position it leads to. Clicking the
board plays too: the point to place on, or the piece then its destination, then the piece to
remove when the move closes a mill.
"""

from __future__ import annotations

import json
from html import escape
from urllib.parse import urlencode

from .advice import advice, public_text
from ..core.codes import RESULT_WORDS
from ..core.errors import DataError, MissingSubspaceError, MorrisError, UnknownVariantError, UsageError
from ..core.position import COLOR_NAMES, Position
from .reports import draw_words
from .svg import board_svg
from ..lookups.tablebase import MoveInfo
from ..core.variants import PRESETS, RULE_FIELDS, VARIANTS, get_variant

#: the query parameters that name the rules: the variant, a preset, and each rule field by its name
RULE_PARAMS = ("variant", "rules") + tuple(f.name for f in RULE_FIELDS if f.flag)


def variant_of(params):
    """The variant named by query parameters ``variant``, ``rules`` (a preset) and the rule
    fields by name (``flying=0``, ``double_mill_removes=2``, ``no_removal_limit=50``, 0 or empty:
    none, ``full_board=loss``, ...: rulefields.py). Numbers are checked as everywhere
    (inputs.py); a bad value is a :class:`UsageError` (HTTP 400)."""
    options = {}
    for f in RULE_FIELDS:
        if f.flag:
            try:
                options[f.name] = f.parse_text(params.get(f.name))
            except UnknownVariantError as exc:
                raise UsageError(str(exc)) from None
    return get_variant(params.get("variant") or None, rules=params.get("rules") or None, **options)


def _href(params: dict, **changes) -> str:
    q = {k: params[k] for k in RULE_PARAMS if params.get(k) not in (None, "", "standard")}
    if params.get("flip") == "1":
        q["flip"] = "1"
    q.update({k: v for k, v in changes.items() if v is not None})
    # keep the position first: the URL reads as the position it shows
    ordered = {k: q.pop(k) for k in ("position",) if k in q}
    ordered.update(q)
    return "/?" + urlencode(ordered)


def _plies(n):
    return f"{n} pl{'y' if n == 1 else 'ies'}"


def _describe(value, dtc, placement, dtw=None):
    if value == "draw":
        return "draw"
    if dtc is None:
        return value
    until = "to the next removal or the end of placement" if placement else "to the next removal"
    if dtw is not None:
        return f"{value} in {_plies(dtw)} to the end of the game ({_plies(dtc)} {until})"
    return f"{value} in {_plies(dtc)} {until}" if dtc else value


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 0; background: #faf7f1; color: #2b2118; }}
header {{ background: #5b3a1a; color: #fff; padding: .6em 1em; }}
header a {{ color: #fff; }}
main {{ display: flex; flex-wrap: wrap; gap: 1.2em; padding: 1em; max-width: 1100px; }}
#board {{ flex: 1 1 360px; max-width: 520px; }}
#board svg {{ width: 100%; height: auto; }}
#board .point {{ cursor: pointer; }}
#board .point.selected circle:first-child {{ fill: rgba(47,125,225,.35); }}
#board .point.target circle:first-child {{ fill: rgba(46,160,67,.30); }}
#info {{ flex: 1 1 300px; min-width: 260px; }}
form {{ display: flex; flex-wrap: wrap; gap: .4em; margin: .5em 0; }}
form input[name=position] {{ flex: 1 1 14em; font: inherit; padding: .3em; }}
.value {{ font-size: 1.3em; font-weight: 600; margin: .3em 0; }}
.win {{ color: #1d7a33; }} .loss {{ color: #b3261e; }} .draw {{ color: #555; }}
.moves h3 {{ margin: .8em 0 .2em; font-size: 1em; }}
.moves ul {{ list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .3em; }}
.moves li a {{ display: inline-block; padding: .25em .5em; border: 1px solid #cdb899; border-radius: 4px;
  text-decoration: none; color: inherit; background: #fff; font-family: ui-monospace, monospace; }}
.moves li a:hover {{ background: #f0e4cf; }}
.moves li small {{ color: #666; }}
.notice {{ background: #fff4e5; border: 1px solid #e0a84a; padding: .5em; border-radius: 4px; }}
.error {{ background: #fde8e7; border: 1px solid #b3261e; padding: .5em; border-radius: 4px; }}
code {{ word-break: break-all; }}
nav a {{ margin-right: .8em; }}
</style></head>
<body>
<header><strong>morris</strong> tablebase explorer · <a href="/stats">statistics</a> · <a id="games" href="/game">grade a game</a></header>
<main>
<section id="board">{board}</section>
<section id="info">
<form method="get" action="/">
<input name="position" value="{position}" aria-label="position (compact notation or Sanmill FEN)" placeholder="a1,d1,g1/a7,d7,g7 w">
<select name="variant" aria-label="variant">{variant_options}</select>
<select name="rules" aria-label="rules (a preset)">{rules_options}</select>
<button type="submit">Show</button>
</form>
<nav><a id="start" href="{start_href}">start position</a><a id="flip" href="{flip_href}">flip board</a><a id="api" href="{api_href}">JSON</a></nav>
{body}
</section>
</main>
<script id="moves-data" type="application/json">{moves_json}</script>
<script>
(function () {{
  var moves = JSON.parse(document.getElementById('moves-data').textContent);
  var picked = [];  // from, to, removals... as clicked
  function fits(m, seq) {{
    var parts = (m.from ? [m.from, m.to] : [m.to]).concat(m.removes);
    for (var i = 0; i < seq.length; i++) if (parts[i] !== seq[i]) return false;
    return true;
  }}
  function mark() {{
    document.querySelectorAll('#board .point').forEach(function (g) {{
      var p = g.getAttribute('data-point');
      g.classList.toggle('selected', picked.indexOf(p) >= 0);
      g.classList.toggle('target', picked.length > 0 && moves.some(function (m) {{ return fits(m, picked.concat([p])); }}));
    }});
  }}
  document.querySelectorAll('#board .point').forEach(function (g) {{
    g.addEventListener('click', function () {{
      var p = g.getAttribute('data-point');
      var seq = picked.concat([p]);
      var ok = moves.filter(function (m) {{ return fits(m, seq); }});
      if (!ok.length) {{
        seq = [p];
        ok = moves.filter(function (m) {{ return fits(m, seq); }});
        if (!ok.length) {{ picked = []; mark(); return; }}
      }}
      picked = seq;
      var whole = ok.filter(function (m) {{ return (m.from ? 2 : 1) + m.removes.length === seq.length; }});
      if (ok.length === 1 || (whole.length === 1 && ok.length === whole.length)) {{
        window.location.href = ok[0].href; return;
      }}
      mark();
    }});
  }});
}})();
</script>
</body></html>
"""


def _moves_html(params: dict, pos, analysis, moves_data: list) -> list:
    """The legal moves grouped into wins, draws and losses (each a link to the position it
    leads to); ``moves_data`` gets each move's points, for the page's script."""
    body = []
    # each move's position, from its turn: once, without replaying the token's legality check
    child_of = {str(pos.move_of_turn(t)): pos.play_turn(t) for t in pos.legal_turns()}
    infos = analysis.moves if analysis is not None else [
        MoveInfo(m, None, None) for m in pos.legal_moves()]
    groups = {"win": [], "draw": [], "loss": [], None: []}
    for mi in infos:
        href = _href(params, position=child_of[str(mi.move)].to_compact(), last=str(mi.move))
        moves_data.append({"token": str(mi.move), "from": mi.move.frm, "to": mi.move.to,
                           "removes": list(mi.move.removes), "href": href})
        groups[mi.value].append((mi, href))
    titles = {"win": "Winning moves", "draw": "Drawing moves", "loss": "Losing moves", None: "Moves"}
    body.append('<div class="moves" id="moves">')
    for key in ("win", "draw", "loss", None):
        if not groups[key]:
            continue
        body.append(f'<h3 class="{key or ""}">{titles[key]} ({len(groups[key])})</h3><ul>')
        for mi, href in groups[key]:
            dist = "" if mi.dtc is None else f" <small>{mi.dtc}</small>"
            if mi.dtw is not None:
                dist = f" <small>{mi.dtw} plies ({mi.dtc} to a removal)</small>"
            if mi.draw is not None:
                dist = f" <small>draw value {mi.draw:+d}</small>"
            body.append(f'<li><a class="move {mi.value or ""}" data-move="{escape(str(mi.move))}" '
                        f'data-value="{mi.value or ""}" href="{escape(href)}">{escape(str(mi.move))}</a>{dist}</li>')
        body.append("</ul>")
    body.append("</div>")
    if infos and analysis is not None:
        body.append("<p><small>Distances count plies to the next removal"
                    + (" or the end of placement" if pos.in_placement else "")
                    + ", from the side to move's point of view: the winner hurries, the loser delays.</small></p>")
    return body


def explorer_page(tb, params: dict) -> tuple[str, int]:
    """(HTML, status) of the explorer for the query parameters ``params``."""
    text = (params.get("position") or "start").strip()
    flip = params.get("flip") == "1"
    last = params.get("last") or None
    status = 200
    body = []
    moves_data = []
    board = ""
    variant_name = params.get("variant") or "standard"
    try:
        variant = variant_of(params)
        pos = Position.parse(text, variant)
    except MorrisError as exc:
        body.append(f'<p class="error" id="error">{escape(type(exc).__name__)}: {escape(str(exc))}</p>')
        pos = None
        status = 400
    if pos is not None:
        try:
            board = board_svg(pos, flipped=flip, last_move=last)
        except MorrisError:
            board = board_svg(pos, flipped=flip)
        compact = pos.to_compact()
        side = COLOR_NAMES[pos.turn]
        over = pos.outcome()
        analysis = None
        if over is None:
            try:
                analysis = tb.analyze(pos)
            except MissingSubspaceError as exc:
                hint = advice(exc, "DB")
                body.append(f'<p class="notice" id="missing">No database covers this position: '
                            f'{escape(public_text(str(exc), tb.paths))}'
                            f'{escape("; " + hint) if hint else ""}</p>')
            except DataError as exc:  # a damaged file: the page says so, with the server's status
                body.append(f'<p class="error" id="error">{escape(type(exc).__name__)}: '
                            f'{escape(public_text(str(exc), tb.paths))}</p>')
                status = exc.http_status
        if over is not None:
            word = RESULT_WORDS[over]
            body.append(f'<p class="value {over}" id="value" data-value="{over}">Game over: {side} to move has {word}</p>')
        elif analysis is not None:
            desc = _describe(analysis.value, analysis.dtc, pos.in_placement, analysis.dtw)
            if analysis.draw is not None:
                desc = f"draw ({draw_words(analysis.draw)})"
            body.append(f'<p class="value {analysis.value}" id="value" data-value="{analysis.value}" '
                        f'data-dtc="{"" if analysis.dtc is None else analysis.dtc}" '
                        f'data-dtw="{"" if analysis.dtw is None else analysis.dtw}" '
                        f'data-draw="{"" if analysis.draw is None else analysis.draw.value}">'
                        f'{side.capitalize()} to move: {escape(desc)}</p>')
        body.append(f'<p><code id="compact">{escape(compact)}</code></p>')
        body += _moves_html(params, pos, analysis, moves_data)
        text = compact
    options = "".join(f'<option value="{v}"{" selected" if v == variant_name else ""}>{v}</option>'
                      for v in sorted(VARIANTS, key=lambda v: (v != "standard", v)))
    preset = params.get("rules") or ""
    rules_options = '<option value="">no preset</option>' + "".join(
        f'<option value="{n}"{" selected" if n == preset else ""}>{n}</option>' for n in PRESETS)
    api = "/api/probe?" + urlencode({"position": text, **{k: params[k] for k in RULE_PARAMS if params.get(k)}})
    html = PAGE.format(
        title=escape(f"{text} - morris explorer"), board=board, position=escape(text),
        variant_options=options, rules_options=rules_options, body="\n".join(body),
        start_href=escape(_href(params, position="start")),
        flip_href=escape(_href({**params, "flip": None if flip else "1"}, position=text, last=last)),
        api_href=escape(api),
        moves_json=json.dumps(moves_data).replace("</", "<\\/"),
    )
    return html, status
