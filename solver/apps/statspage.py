"""The explorer's statistics page (``/stats``): per subspace its positions, wins, draws and
losses, the longest wins and losses (dtc, and dtw where the files hold it) with links to one
position of each; ``/stats?ruleset=R&subspace=S`` draws the subspace's dtw histogram (wins up,
losses down) as an SVG picture. One page of HTML, nothing loaded from elsewhere.
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

import numpy as np

from ..core.errors import UsageError
from ..database.folders import file_in, find_tables, named_ruleset_dir, open_found
from .reports import stats_rows
from ..core.variants import variant_from_fields
from ..core.codes import LOSS, WIN
from ..core.counting import histograms
from ..hashing.index import Hasher
from ..hashing.subspaces import Subspace

STYLE = ("body{font-family:system-ui,sans-serif;margin:1em;background:#faf7f1;color:#2b2118}"
         "table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;"
         "text-align:right}th{background:#eee}td.l{text-align:left}")


def _link(row, position) -> str:
    if not position:
        return "-"
    href = "/?" + urlencode({"position": position, **row["rules"]})
    return f'<a href="{escape(href)}">{escape(position)}</a>'


def stats_page(tb, params: dict) -> tuple[str, int]:
    """(HTML, status) of ``/stats`` for the databases of ``tb``."""
    if params.get("subspace") or params.get("ruleset"):
        return histogram_page(tb, params.get("ruleset", ""), params.get("subspace", ""))
    rows, seen = [], set()
    for root in tb.paths:  # the directories given, then the shipped data: the first file counts
        for r in stats_rows(find_tables(root)):
            if (r["ruleset"], r["subspace"]) not in seen:
                seen.add((r["ruleset"], r["subspace"]))
                rows.append(r)
    head = ("<tr><th>ruleset</th><th>subspace</th><th>positions</th><th>win%</th><th>draw%</th>"
            "<th>loss%</th><th>longest win (dtc)</th><th>longest loss (dtc)</th>"
            "<th>longest win (dtw)</th><th>longest loss (dtw)</th><th>dtw histogram</th></tr>")
    body = []
    for r in rows:
        p = max(1, r["positions"])
        dtw = "max_win_dtw" in r
        hist = "/stats?" + urlencode({"ruleset": r["ruleset"], "subspace": r["subspace"]})
        body.append(
            f'<tr class="subspace" data-subspace="{escape(r["subspace"])}"><td class="l">{escape(r["ruleset"])}</td>'
            f'<td class="l">{escape(r["subspace"])}</td><td>{r["positions"]:,}</td>'
            f'<td>{100 * r["wins"] / p:.2f}</td><td>{100 * r["draws"] / p:.2f}</td>'
            f'<td>{100 * r["losses"] / p:.2f}</td><td>{r["max_win_dtc"]}</td><td>{r["max_loss_dtc"]}</td>'
            + (f'<td>{r["max_win_dtw"]}: {_link(r, r["longest_win"])}</td>'
               f'<td>{r["max_loss_dtw"]}: {_link(r, r["longest_loss"])}</td>'
               f'<td><a href="{escape(hist)}">picture</a></td>' if dtw else
               '<td>-</td><td>-</td><td>-</td>') + "</tr>")
    longest = [r for r in rows if r.get("longest_win")]
    summary = ""
    if longest:
        r = max(longest, key=lambda r: r["max_win_dtw"])
        summary = (f'<p id="longest">The longest win: {r["max_win_dtw"]} plies to the end of the game, '
                   f'{_link(r, r["longest_win"])} ({escape(r["ruleset"])} {escape(r["subspace"])}).</p>')
    html = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>morris statistics</title>"
            f"<style>{STYLE}</style></head><body><h1>Statistics</h1><p><a href='/'>explorer</a></p>"
            f"{summary}<table id='stats'>{head}{''.join(body)}</table></body></html>")
    return html, 200


def dtw_histogram(tb, ruleset: str, subspace: str) -> tuple:
    """(wins, losses): counts of won and lost positions at each dtw, from the subspace's files."""
    from ..solving.prune import read_full_dtw  # (a pruned file's wins are derived: solver kernels)

    sub = Subspace.parse(subspace)
    for root in tb.paths:
        d = named_ruleset_dir(root, ruleset)
        if d is None:
            continue
        path, wpath = file_in(d, sub), file_in(d, sub, "dtw")
        try:
            with open_found(path) as tf, open_found(wpath):
                variant = variant_from_fields(tf.header)
                vals = tf.values_all()
            dtw = read_full_dtw(wpath, vals)
        except FileNotFoundError:
            continue
        used = Hasher(variant.board).used_mask(sub)
        wins, losses = histograms(dtw, vals, used, (WIN, LOSS))
        return wins, losses
    raise UsageError(f"no dtw file for {ruleset} {subspace} here")


def histogram_svg(wins, losses, width: int = 720, height: int = 320) -> str:
    """Bars of won positions up and lost positions down, one per dtw, on a log scale."""
    n = max(len(wins), len(losses), 1)
    top = max(1.0, float(np.log10(max(int(wins.max(initial=0)), int(losses.max(initial=0)), 1)) + 1))
    mid = height / 2
    bw = width / n
    bars = []
    for k in range(n):
        for counts, sign, color, kind in ((wins, -1, "#2e9e48", "win"), (losses, 1, "#c8372f", "loss")):
            c = int(counts[k]) if k < len(counts) else 0
            if c:
                h = (np.log10(c) + 1) / top * (mid - 10)
                y = mid - h if sign < 0 else mid
                bars.append(f'<rect class="{kind}" data-dtw="{k}" data-count="{c}" x="{k * bw:.1f}" '
                            f'y="{y:.1f}" width="{max(bw - 1, 1):.1f}" height="{h:.1f}" fill="{color}">'
                            f'<title>{kind}s in {k} plies: {c:,}</title></rect>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" id="histogram" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}"><line x1="0" y1="{mid}" x2="{width}" y2="{mid}" '
            f'stroke="#000"/>{"".join(bars)}</svg>')


def histogram_page(tb, ruleset: str, subspace: str) -> tuple[str, int]:
    wins, losses = dtw_histogram(tb, ruleset, subspace)
    html = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(ruleset)} "
            f"{escape(subspace)} dtw</title><style>{STYLE}</style></head><body>"
            f"<h1>{escape(ruleset)} {escape(subspace)}: plies to the end of the game</h1>"
            f"<p>Won positions up (green), lost ones down (red), by dtw, log scale; "
            f"{int(wins.sum()):,} wins, {int(losses.sum()):,} losses. <a href='/stats'>all subspaces</a></p>"
            f"{histogram_svg(wins, losses)}</body></html>")
    return html, 200
