"""Board pictures as SVG (``morris show --svg``, the explorer), like python-chess's ``svg.board``.

    >>> from morris.svg import board_svg
    >>> svg = board_svg(Position.parse("a1,d1/d2 w 7 8"), last_move="d1", flipped=False)

The picture is drawn from the board's geometry (points by file and rank, lines between adjacent
points), so every board of variants.py gets one. Pieces in hand are drawn beside the board
during placement; the side to move is marked; the last move's points are ringed and the
pieces it removed crossed. Every point is a ``<g class="point" data-point="d2">`` so a page can
make it clickable.
"""

from __future__ import annotations

from html import escape

from .position import WHITE, Move, Position

COLORS = {
    "board": "#e9c98f", "line": "#5b3a1a", "white": "#fbfbf6", "black": "#24211f",
    "last": "#2f7de1", "removed": "#d1342f", "text": "#3b2a18",
}


def board_svg(position: Position, *, size: int = 400, flipped: bool = False,
              last_move: Move | str | None = None, coordinates: bool = True) -> str:
    """The position as a standalone SVG document (a string)."""
    board = position.board
    coords = board.coords
    files = max(f for f, _ in coords.values()) + 1
    ranks = max(r for _, r in coords.values())
    cell = 60
    margin = 46
    hand_h = 44 if position.in_placement else 0
    width = 2 * margin + (files - 1) * cell
    height = 2 * margin + (ranks - 1) * cell + 2 * hand_h

    def xy(name):
        f, r = coords[name]
        if flipped:
            f, r = files - 1 - f, ranks + 1 - r
        return margin + f * cell, hand_h + margin + (ranks - r) * cell

    mv = Move.parse(last_move) if isinstance(last_move, str) else last_move
    ringed = set()
    crossed = set()
    if mv is not None:
        ringed = {p for p in (mv.frm, mv.to) if p in board.index}
        crossed = {p for p in mv.removes if p in board.index}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="morris-board" viewBox="0 0 {width} {height}" '
        f'width="{size}" height="{round(size * height / width)}" role="img" '
        f'aria-label="{escape(position.to_compact())}">',
        f'<rect x="0" y="{hand_h}" width="{width}" height="{height - 2 * hand_h}" rx="10" fill="{COLORS["board"]}"/>',
        f'<g stroke="{COLORS["line"]}" stroke-width="3" stroke-linecap="round">',
    ]
    for a, b in board.edges:
        (xa, ya), (xb, yb) = xy(board.points[a]), xy(board.points[b])
        out.append(f'<line x1="{xa}" y1="{ya}" x2="{xb}" y2="{yb}"/>')
    out.append("</g>")
    if coordinates:
        out.append(f'<g font-family="sans-serif" font-size="14" fill="{COLORS["text"]}" text-anchor="middle">')
        for f in range(files):
            ff = files - 1 - f if flipped else f
            x = margin + ff * cell
            out.append(f'<text x="{x}" y="{height - hand_h - 8}">{chr(ord("a") + f)}</text>')
        for r in range(1, ranks + 1):
            rr = ranks + 1 - r if flipped else r
            y = hand_h + margin + (ranks - rr) * cell + 5
            out.append(f'<text x="14" y="{y}">{r}</text>')
        out.append("</g>")
    for name in board.points:
        x, y = xy(name)
        owner = position.piece_at(name)
        parts = [f'<g class="point" data-point="{name}" data-owner="{"" if owner is None else "wb"[owner]}">',
                 f'<circle cx="{x}" cy="{y}" r="24" fill="transparent"/>']
        if name in ringed:
            parts.append(f'<circle class="last" cx="{x}" cy="{y}" r="25" fill="none" stroke="{COLORS["last"]}" stroke-width="5"/>')
        if owner is None:
            parts.append(f'<circle cx="{x}" cy="{y}" r="6" fill="{COLORS["line"]}"/>')
        else:
            fill = COLORS["white"] if owner == WHITE else COLORS["black"]
            parts.append(f'<circle class="piece {"white" if owner == WHITE else "black"}" cx="{x}" cy="{y}" r="19" '
                         f'fill="{fill}" stroke="{COLORS["black"]}" stroke-width="2"/>')
        if name in crossed:
            d = 12
            parts.append(f'<path class="removed" d="M{x - d},{y - d}L{x + d},{y + d}M{x - d},{y + d}L{x + d},{y - d}" '
                         f'stroke="{COLORS["removed"]}" stroke-width="5" stroke-linecap="round"/>')
        parts.append(f"<title>{name}</title></g>")
        out.append("".join(parts))
    if position.in_placement:
        # pieces in hand: the top row belongs to the side at the top of the picture
        top, bottom = (WHITE, 1 - WHITE) if flipped else (1 - WHITE, WHITE)
        for color, y in ((top, hand_h // 2), (bottom, height - hand_h // 2)):
            n = position.white_hand if color == WHITE else position.black_hand
            fill = COLORS["white"] if color == WHITE else COLORS["black"]
            label = f'{("white", "black")[color]} in hand: {n}'
            out.append(f'<g class="hand {("white", "black")[color]}" data-count="{n}">')
            for i in range(n):
                out.append(f'<circle cx="{margin + i * 24}" cy="{y}" r="10" fill="{fill}" stroke="{COLORS["black"]}" stroke-width="1.5"/>')
            out.append(f'<title>{label}</title></g>')
    # side to move: a marker beside the board, on the mover's side
    mover_at_bottom = (position.turn == WHITE) != flipped
    my = height - hand_h - margin // 2 if mover_at_bottom else hand_h + margin // 2
    fill = COLORS["white"] if position.turn == WHITE else COLORS["black"]
    out.append(f'<g class="to-move" data-side="{"wb"[position.turn]}"><polygon points="{width - 26},{my - 9} {width - 10},{my} {width - 26},{my + 9}" '
               f'fill="{fill}" stroke="{COLORS["black"]}" stroke-width="1.5"/><title>{("white", "black")[position.turn]} to move</title></g>')
    out.append("</svg>")
    return "\n".join(out)
