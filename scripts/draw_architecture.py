"""Draw docs/architecture.svg from the package's folders: one band per layer, top (apps) to
bottom (core), each listing the modules that lie in its folder.

    python3 scripts/draw_architecture.py            # write docs/architecture.svg
    python3 scripts/draw_architecture.py --check    # exit 1 if the picture differs from the tree

tests/test_architecture.py runs the check, so the picture cannot drift from the tree.
"""

import argparse
import os
import sys
from html import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "architecture.svg")

#: top first: (folder(s) side by side, what the layer is, band colour)
BANDS = [
    (["apps"], "everything a person or program talks to (and cli/)", "#f4d58d"),
    (["solving", "lookups"], None, None),
    (["database"], "where files live; the header fields that tie a file to its rules", "#d9c7ef"),
    (["format"], "one file's bytes: sections, blocks, checksums", "#f9c9a3"),
    (["hashing"], "subspaces and the symmetry-reduced perfect hash", "#c9e4ca"),
    (["kernels"], "numba: arrays and scalars in; the turn generators (turns, bitboard)", "#e0e0e0"),
    (["core"], "plain Python: board and rules as data, positions, errors, inputs, constants", "#cfe3f7"),
]
SIDE = {"solving": ("retrograde solve, placement sweep, independent verifier", "#f2b8b5"),
        "lookups": ("open files lazily and answer values", "#b5e0f2")}


def modules(folder: str) -> list[str]:
    d = os.path.join(ROOT, "solver", folder)
    names = sorted(f[:-3] for f in os.listdir(d) if f.endswith(".py") and f != "__init__.py")
    return names + (["cli/"] if folder == "apps" else [])


def _lines(names: list[str], width_chars: int) -> list[str]:
    out, cur = [], ""
    for n in names:
        piece = n if not cur else f" · {n}"
        if len(cur) + len(piece) > width_chars:
            out.append(cur)
            piece = n
            cur = ""
        cur += piece
    return out + ([cur] if cur else [])


def draw() -> str:
    w, x0, gap = 860, 20, 14
    parts = ['<defs><marker id="a" markerWidth="10" markerHeight="10" refX="5" refY="5" orient="auto">'
             '<path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>',
             '<text x="20" y="22" font-size="15" font-weight="bold">morris: one folder of solver/ per '
             'layer; an import points down; solving and lookups never import each other</text>']
    y = 40
    for folders, what, colour in BANDS:
        cols = [(f, *(SIDE[f] if f in SIDE else (what, colour))) for f in folders]
        colw = (w - 2 * x0 - (len(cols) - 1) * 20) // len(cols)
        rows = max(len(_lines(modules(f), colw // 7)) for f, _, _ in cols)
        h = 44 + 16 * rows
        for k, (f, text, col) in enumerate(cols):
            x = x0 + k * (colw + 20)
            parts.append(f'<rect x="{x}" y="{y}" width="{colw}" height="{h}" rx="8" fill="{col}" '
                         f'stroke="#555"/>')
            parts.append(f'<text x="{x + 10}" y="{y + 20}" font-weight="bold">{escape(f)}/ '
                         f'<tspan font-weight="normal" font-size="12">{escape(text)}</tspan></text>')
            for i, line in enumerate(_lines(modules(f), colw // 7)):
                parts.append(f'<text x="{x + 10}" y="{y + 40 + 16 * i}" font-size="12">'
                             f'{escape(line)}</text>')
        if len(cols) == 2:
            parts.append(f'<text x="{x0 + colw + 3}" y="{y + h // 2 + 6}" font-size="20" '
                         f'fill="#b00">✕</text>')
        y += h
        if folders != BANDS[-1][0]:
            parts.append(f'<line x1="{w - 60}" y1="{y}" x2="{w - 60}" y2="{y + gap - 2}" stroke="#555" '
                         f'stroke-width="2" marker-end="url(#a)"/>')
        y += gap
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{y}" '
            f'font-family="sans-serif" font-size="14">')
    return "\n".join([head, *parts, "</svg>"]) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    svg = draw()
    if args.check:
        have = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if have != svg:
            print(f"{OUT} does not match the tree: run python3 scripts/draw_architecture.py")
            sys.exit(1)
        return
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(svg)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
