"""Board pictures as SVG (``morris show --svg``, the explorer), like python-chess's ``svg.board``.

    >>> from morris.apps.svg import board_svg
    >>> svg = board_svg(Position.parse("a1,d1/d2 w 7 8"), last_move="d1", flipped=False)

The picture is drawn from the board's geometry (points by file and rank, lines between adjacent
points), so every board of variants.py gets one. Pieces in hand are drawn beside the board
during placement; the side to move is marked; the last move's points are ringed and the
pieces it removed crossed. Every point is a ``<g class="point" data-point="d2">`` so a page can
make it clickable.
"""

from __future__ import annotations

from html import escape

from ..core.errors import IllegalMoveError
from ..core.position import COLOR_NAMES, WHITE, Move, Position

COLORS = {
    "board": "#e9c98f", "line": "#5b3a1a", "white": "#fbfbf6", "black": "#24211f",
    "last": "#2f7de1", "removed": "#d1342f", "text": "#3b2a18",
}


def check_last_move(position: Position, mv: Move) -> None:
    """Refuse a "last move" that cannot have led to ``position``: its points must be points of
    the board, the piece it moved must stand on its destination (the colour that just moved),
    its origin and every point it removed from must be empty."""
    board = position.board
    for p in (mv.frm, mv.to, *mv.removes):
        if p is not None and p not in board.index:
            raise IllegalMoveError(f"last move {mv}: {p} is not a point of the {board.name} board")
    mover = 1 - position.turn
    if position.piece_at(mv.to) != mover:
        raise IllegalMoveError(f"last move {mv} cannot lead here: {mv.to} holds no "
                               f"{COLOR_NAMES[mover]} piece")
    for p in ([mv.frm] if mv.frm else []) + list(mv.removes):
        if position.piece_at(p) is not None:
            raise IllegalMoveError(f"last move {mv} cannot lead here: {p} is not empty")


class _Frame:
    """Where the points of a board go in the picture (a1 at the bottom left unless flipped)."""

    CELL = 60
    MARGIN = 46

    def __init__(self, position: Position, flipped: bool):
        coords = position.board.coords
        self.coords, self.flipped = coords, flipped
        self.files = max(f for f, _ in coords.values()) + 1
        self.ranks = max(r for _, r in coords.values())
        self.hand_h = 44 if position.in_placement else 0
        self.width = 2 * self.MARGIN + (self.files - 1) * self.CELL
        self.height = 2 * self.MARGIN + (self.ranks - 1) * self.CELL + 2 * self.hand_h

    def xy(self, name):
        f, r = self.coords[name]
        if self.flipped:
            f, r = self.files - 1 - f, self.ranks + 1 - r
        return self.MARGIN + f * self.CELL, self.hand_h + self.MARGIN + (self.ranks - r) * self.CELL


def board_svg(position: Position, *, size: int = 400, flipped: bool = False,
              last_move: Move | str | None = None, coordinates: bool = True) -> str:
    """The position as a standalone SVG document (a string)."""
    board = position.board
    fr = _Frame(position, flipped)
    mv = Move.parse(last_move) if isinstance(last_move, str) else last_move
    ringed = set()
    crossed = set()
    if mv is not None:
        check_last_move(position, mv)
        ringed = {p for p in (mv.frm, mv.to) if p is not None}
        crossed = set(mv.removes)
    width, height, hand_h = fr.width, fr.height, fr.hand_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="morris-board" viewBox="0 0 {width} {height}" '
        f'width="{size}" height="{round(size * height / width)}" role="img" '
        f'aria-label="{escape(position.to_compact())}">',
        f'<rect x="0" y="{hand_h}" width="{width}" height="{height - 2 * hand_h}" rx="10" fill="{COLORS["board"]}"/>',
        f'<g stroke="{COLORS["line"]}" stroke-width="3" stroke-linecap="round">',
    ]
    for a, b in board.edges:
        (xa, ya), (xb, yb) = fr.xy(board.points[a]), fr.xy(board.points[b])
        out.append(f'<line x1="{xa}" y1="{ya}" x2="{xb}" y2="{yb}"/>')
    out.append("</g>")
    if coordinates:
        out += _coordinates(fr)
    out += [_point(position, fr, name, name in ringed, name in crossed) for name in board.points]
    if position.in_placement:
        out += _hands(position, fr)
    out.append(_to_move(position, fr))
    out.append("</svg>")
    return "\n".join(out)


def _coordinates(fr: _Frame) -> list:
    """The file letters below the board and the rank numbers beside it."""
    out = [f'<g font-family="sans-serif" font-size="14" fill="{COLORS["text"]}" text-anchor="middle">']
    for f in range(fr.files):
        ff = fr.files - 1 - f if fr.flipped else f
        x = fr.MARGIN + ff * fr.CELL
        out.append(f'<text x="{x}" y="{fr.height - fr.hand_h - 8}">{chr(ord("a") + f)}</text>')
    for r in range(1, fr.ranks + 1):
        rr = fr.ranks + 1 - r if fr.flipped else r
        y = fr.hand_h + fr.MARGIN + (fr.ranks - rr) * fr.CELL + 5
        out.append(f'<text x="14" y="{y}">{r}</text>')
    out.append("</g>")
    return out


def _point(position: Position, fr: _Frame, name: str, ringed: bool, crossed: bool) -> str:
    """One point: its piece (or a dot), a ring if the last move touched it, a cross if it
    removed the piece there."""
    x, y = fr.xy(name)
    owner = position.piece_at(name)
    parts = [f'<g class="point" data-point="{name}" data-owner="{"" if owner is None else "wb"[owner]}">',
             f'<circle cx="{x}" cy="{y}" r="24" fill="transparent"/>']
    if ringed:
        parts.append(f'<circle class="last" cx="{x}" cy="{y}" r="25" fill="none" stroke="{COLORS["last"]}" stroke-width="5"/>')
    if owner is None:
        parts.append(f'<circle cx="{x}" cy="{y}" r="6" fill="{COLORS["line"]}"/>')
    else:
        fill = COLORS["white"] if owner == WHITE else COLORS["black"]
        parts.append(f'<circle class="piece {"white" if owner == WHITE else "black"}" cx="{x}" cy="{y}" r="19" '
                     f'fill="{fill}" stroke="{COLORS["black"]}" stroke-width="2"/>')
    if crossed:
        d = 12
        parts.append(f'<path class="removed" d="M{x - d},{y - d}L{x + d},{y + d}M{x - d},{y + d}L{x + d},{y - d}" '
                     f'stroke="{COLORS["removed"]}" stroke-width="5" stroke-linecap="round"/>')
    parts.append(f"<title>{name}</title></g>")
    return "".join(parts)


def _hands(position: Position, fr: _Frame) -> list:
    """Pieces in hand: the top row belongs to the side at the top of the picture."""
    out = []
    top, bottom = (WHITE, 1 - WHITE) if fr.flipped else (1 - WHITE, WHITE)
    for color, y in ((top, fr.hand_h // 2), (bottom, fr.height - fr.hand_h // 2)):
        n = position.white_hand if color == WHITE else position.black_hand
        fill = COLORS["white"] if color == WHITE else COLORS["black"]
        label = f'{COLOR_NAMES[color]} in hand: {n}'
        out.append(f'<g class="hand {COLOR_NAMES[color]}" data-count="{n}">')
        for i in range(n):
            out.append(f'<circle cx="{fr.MARGIN + i * 24}" cy="{y}" r="10" fill="{fill}" stroke="{COLORS["black"]}" stroke-width="1.5"/>')
        out.append(f'<title>{label}</title></g>')
    return out


def _to_move(position: Position, fr: _Frame) -> str:
    """The side to move: a marker beside the board, on the mover's side."""
    mover_at_bottom = (position.turn == WHITE) != fr.flipped
    my = fr.height - fr.hand_h - fr.MARGIN // 2 if mover_at_bottom else fr.hand_h + fr.MARGIN // 2
    fill = COLORS["white"] if position.turn == WHITE else COLORS["black"]
    w = fr.width
    return (f'<g class="to-move" data-side="{"wb"[position.turn]}"><polygon points="{w - 26},{my - 9} {w - 10},{my} {w - 26},{my + 9}" '
            f'fill="{fill}" stroke="{COLORS["black"]}" stroke-width="1.5"/><title>{COLOR_NAMES[position.turn]} to move</title></g>')
