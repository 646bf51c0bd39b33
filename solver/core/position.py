"""Positions and moves, and their notations.

A :class:`Position` is immutable: the points of each colour (bitmasks over the board's points),
the pieces each side still has in hand, and the side to move. It belongs to a variant.

Two notations read and write positions (:meth:`Position.parse` tells them apart):

- compact: ``"<white points>/<black points> <w|b> [<white in hand> <black in hand>] [c=<N>]"``,
  points comma-separated, hands 0 0 when left out. ``a1,d1,g1/a7,d7,g7 w`` is a movement-phase
  position, ``a1,d1/d2 w 7 8`` one during placement. ``c=N``: the no-removal counter (plies of the
  movement phase since the last removal), only under a no-removal limit (limits.py); 0 when
  left out.
- Sanmill's FEN: the board as ``inner8/middle8/outer8`` (each ring from its d-file point,
  clockwise; ``O`` white, ``@`` black, ``*`` empty), side to move, phase, action, then white on
  board, white in hand, black on board, black in hand, pieces to remove (white, black), the last
  mill's from/to squares (white, black), formed mills, the no-removal ply counter and the move
  number. The counter is read under a no-removal limit in the movement phase and ignored
  otherwise (Sanmill writes one in every FEN). The start position is
  ``********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1``.

A :class:`Move` is one whole turn, its removals included; its token is Sanmill's: ``d2``,
``d2-d3``, ``g1xd2``, ``a4-a7xd2`` (and ``g1xd2xf4`` when a double mill removes two).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import rules
from .codes import RESULT_WORDS
from .errors import IllegalMoveError, IllegalPositionError, VariantMismatchError
from .inputs import is_ascii_number
from .limits import check_counter
from .variants import (FLY_AT, INNER_RING, MIDDLE_RING, MORABARABA_BOARD, OUTER_RING, Variant,
                       get_variant)

WHITE, BLACK = 0, 1
COLOR_NAMES = ("white", "black")

# Sanmill's FEN board order: inner ring, middle ring, outer ring, each from the d-file point.
FEN_POINTS = INNER_RING + MIDDLE_RING + OUTER_RING
#: fields of a Sanmill FEN (the start: ``********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1``)
FEN_FIELDS = 17

_POINT_RE = r"[a-g][1-7]"
_MOVE_RE = re.compile(rf"^(?:({_POINT_RE})-)?({_POINT_RE})((?:x{_POINT_RE})*)$")


@dataclass(frozen=True)
class Move:
    """One turn: a placement (``frm is None``) or a slide/flight, and the pieces it removes."""

    to: str
    frm: str | None = None
    removes: tuple[str, ...] = ()

    def __str__(self):
        head = self.to if self.frm is None else f"{self.frm}-{self.to}"
        return head + "".join("x" + r for r in self.removes)

    @classmethod
    def parse(cls, token: str) -> "Move":
        text = token.strip()
        bad = _control_char(text)
        if bad:
            raise IllegalMoveError(f"a control character ({bad}) inside the move {text!r}")
        m = _MOVE_RE.match(text)
        if not m:
            if re.fullmatch(rf"x{_POINT_RE}", text):
                raise IllegalMoveError(
                    f"{text!r} is a removal on its own; write it glued to the move that closed "
                    f"the mill (for example g1{text})"
                )
            raise IllegalMoveError(
                f"malformed move token {token!r}: expected a placement (d2), a move (d2-d3), "
                f"optionally followed by removals (g1xd2, a4-a7xd2)"
            )
        frm, to, rest = m.group(1), m.group(2), m.group(3)
        removes = tuple(re.findall(_POINT_RE, rest))
        return cls(to=to, frm=frm, removes=removes)



def _control_char(text: str) -> str | None:
    """The first control character in ``text`` (a tab, a NUL byte, ...), named, or None."""
    for ch in text:
        if ord(ch) < 32 or 127 <= ord(ch) < 160:
            return f"U+{ord(ch):04X}"
    return None


def glue_removals(tokens) -> list[str]:
    """Sanmill-style tokens, where a removal may come as its own token (``d2``, ``xa1``), as
    whole turns: each lone removal glued to the token before it (``d2xa1``). Empty tokens are
    skipped; a removal that follows no move is an :class:`IllegalMoveError`."""
    out = []
    for tok in tokens:
        tok = tok.strip()
        if not tok:
            continue
        if tok.startswith("x"):
            if not out:
                raise IllegalMoveError(f"removal {tok!r} follows no move that closed a mill")
            out[-1] += tok
        else:
            out.append(tok)
    return out


@dataclass(frozen=True)
class Position:
    """A position between two turns. Build it with :meth:`parse` or :meth:`from_masks`."""

    variant: Variant
    white: int
    black: int
    turn: int
    white_hand: int = 0
    black_hand: int = 0
    #: plies of the movement phase since the last removal (only under a no-removal limit)
    no_removal_plies: int = 0

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_masks(cls, variant, white, black, turn, white_hand=0, black_hand=0,
                   no_removal_plies=0) -> "Position":
        pos = cls(variant, int(white), int(black), int(turn), int(white_hand), int(black_hand),
                  int(no_removal_plies))
        pos.validate()
        return pos

    @classmethod
    def start(cls, variant: Variant | str = "standard") -> "Position":
        v = get_variant(variant) if isinstance(variant, str) else variant
        return cls.from_masks(v, 0, 0, WHITE, v.pieces, v.pieces)

    @classmethod
    def from_mover(cls, variant, turn, mover, opponent, mover_hand=0, opponent_hand=0):
        """A position given from the point of view of the side to move."""
        if turn == WHITE:
            return cls.from_masks(variant, mover, opponent, WHITE, mover_hand, opponent_hand)
        return cls.from_masks(variant, opponent, mover, BLACK, opponent_hand, mover_hand)

    @classmethod
    def parse(cls, text: str, variant: Variant | str = "standard") -> "Position":
        """Read either notation, or ``start`` (``startpos``) for the start position; FEN is
        recognised by its three board groups."""
        v = get_variant(variant) if isinstance(variant, str) else variant
        if not isinstance(text, str) or not text.strip():
            raise IllegalPositionError("empty position")
        bad = _control_char(text.strip())
        if bad:
            raise IllegalPositionError(f"a control character ({bad}) inside the position {text.strip()!r}; "
                                       f"fields are separated by spaces")
        if text.strip().lower() in ("start", "startpos"):
            return cls.start(v)
        first = text.strip().split()[0]
        if first.count("/") == 2:
            return cls.from_fen(text, v)
        return cls.from_compact(text, v)

    @classmethod
    def from_compact(cls, text: str, variant: Variant | str = "standard") -> "Position":
        v = get_variant(variant) if isinstance(variant, str) else variant
        fields = text.split()
        counter = 0
        if len(fields) in (3, 5) and fields[-1].startswith("c="):
            counter = _parse_int(fields.pop()[2:], "no-removal counter (c=N)")
        if len(fields) not in (2, 4):
            raise IllegalPositionError(
                f"malformed position {text!r}: expected '<white points>/<black points> <w|b> "
                f"[<white in hand> <black in hand>] [c=<no-removal counter>]'"
            )
        if fields[0].count("/") != 1:
            raise IllegalPositionError(
                f"malformed position {text!r}: the board must be white points and black points "
                f"separated by one '/'"
            )
        white_txt, black_txt = fields[0].split("/")
        seen = {}
        masks = []
        for color, txt in ((WHITE, white_txt), (BLACK, black_txt)):
            mask = 0
            names = txt.split(",") if txt else []
            if any(not name for name in names):
                raise IllegalPositionError(
                    f"malformed position {text!r}: an empty point name in {txt!r} (points are "
                    f"separated by single commas, as a1,d1,g1)"
                )
            for name in names:
                if name not in v.board.index:
                    raise IllegalPositionError(
                        f"unknown point {name!r} (the {v.board.name} board has "
                        f"{', '.join(sorted(v.board.points))})"
                    )
                if name in seen:
                    if seen[name] == color:
                        raise IllegalPositionError(f"point {name} is listed twice")
                    raise IllegalPositionError(f"point {name} is listed as both white and black")
                seen[name] = color
                mask |= 1 << v.board.index[name]
            masks.append(mask)
        turn = _parse_turn(fields[1], text)
        hands = (0, 0)
        if len(fields) == 4:
            hands = tuple(_parse_count(f, "pieces in hand") for f in fields[2:])
        return cls.from_masks(v, masks[0], masks[1], turn, hands[0], hands[1], counter)

    @classmethod
    def from_fen(cls, text: str, variant: Variant | str = "standard") -> "Position":
        v = get_variant(variant) if isinstance(variant, str) else variant
        fields = text.split()
        if len(fields) != FEN_FIELDS:
            raise IllegalPositionError(
                f"malformed FEN: {len(fields)} fields, Sanmill's FEN has {FEN_FIELDS} (board, side, "
                f"phase, action, white on board, white in hand, black on board, black in hand, "
                f"pieces to remove x2, last mill squares x4, mills, no-removal plies, move number)"
            )
        groups = fields[0].split("/")
        if len(groups) != 3 or any(len(g) != 8 for g in groups):
            raise IllegalPositionError(
                f"malformed FEN board {fields[0]!r}: expected three groups of 8 characters "
                f"(inner/middle/outer ring)"
            )
        white = black = 0
        for name, ch in zip(FEN_POINTS, "".join(groups)):
            if ch not in "O@*":
                raise IllegalPositionError(
                    f"FEN board character {ch!r} at {name}: expected O (white), @ (black) or * (empty)"
                )
            if ch == "*":
                continue
            if name not in v.board.index:
                raise IllegalPositionError(
                    f"FEN has a piece on {name}, which is not a point of the {v.board.name} board"
                )
            bit = 1 << v.board.index[name]
            if ch == "O":
                white |= bit
            else:
                black |= bit
        turn = _parse_turn(fields[1], text)
        phase = fields[2] if len(fields) > 2 else None
        action = fields[3] if len(fields) > 3 else None
        if phase is not None and phase not in ("r", "p", "m", "o"):
            raise IllegalPositionError(f"FEN phase {phase!r}: expected r, p, m or o")
        if action is not None and action not in ("p", "s", "r", "?"):
            raise IllegalPositionError(f"FEN action {action!r}: expected p, s or r")
        nums = fields[4:]
        if len(nums) >= 4:
            w_on, w_hand, b_on, b_hand = (_parse_count(x, "FEN piece count") for x in nums[:4])
            if w_on != int.bit_count(white):
                raise IllegalPositionError(
                    f"FEN says white has {w_on} on the board, the board shows {int.bit_count(white)}"
                )
            if b_on != int.bit_count(black):
                raise IllegalPositionError(
                    f"FEN says black has {b_on} on the board, the board shows {int.bit_count(black)}"
                )
        elif phase in ("r", "p"):
            w_hand = v.pieces - int.bit_count(white)
            b_hand = v.pieces - int.bit_count(black)
        else:
            w_hand = b_hand = 0
        _check_fen_numbers(nums)
        if len(nums) >= 6:
            to_remove = [_parse_int(x, "FEN pieces to remove") for x in nums[4:6]]
            if any(to_remove) or action == "r":
                raise IllegalPositionError(
                    "FEN describes a turn in the middle of a removal (pieces to remove "
                    f"{to_remove[0]} {to_remove[1]}); positions here lie between whole turns: give "
                    "the position before the move that closed the mill and play it with its removal"
                )
        _check_fen_phase(v, phase, turn, white, black, w_hand, b_hand)
        counter = 0
        if len(nums) >= 12 and v.limited and not (w_hand or b_hand):
            counter = _parse_int(nums[11], "FEN no-removal counter")
            if v.rules.limit_of(int.bit_count(white), int.bit_count(black)) is None:
                counter = 0  # no limit applies in this subspace
        pos = cls.from_masks(v, white, black, turn, w_hand, b_hand, counter)
        if phase == "o" and pos.outcome() is None:
            raise IllegalPositionError("FEN phase o (game over) on a position whose game goes on "
                                       f"({COLOR_NAMES[turn]} has a legal move): give its phase, p or m")
        return pos

    # ------------------------------------------------------------------ validation
    def validate(self) -> None:
        """Raise :class:`IllegalPositionError` naming what is wrong, if anything is."""
        v = self.variant
        full = v.board.full
        if self.turn not in (WHITE, BLACK):
            raise IllegalPositionError(f"side to move must be white or black, got {self.turn!r}")
        for color, mask in ((WHITE, self.white), (BLACK, self.black)):
            if mask & ~full or mask < 0:
                raise IllegalPositionError(f"{COLOR_NAMES[color]} has pieces off the board")
        if self.white & self.black:
            both = ", ".join(v.board.names(self.white & self.black))
            raise IllegalPositionError(f"point {both} is both white and black")
        n = v.pieces
        for color, mask, hand in (
            (WHITE, self.white, self.white_hand),
            (BLACK, self.black, self.black_hand),
        ):
            name = COLOR_NAMES[color]
            on = int.bit_count(mask)
            if on > n:
                raise IllegalPositionError(
                    f"{on} {name} pieces on the board; {v.name} allows {n}"
                )
            if not 0 <= hand <= n:
                raise IllegalPositionError(f"{hand} {name} pieces in hand; {v.name} has {n} a side")
            if on + hand > n:
                raise IllegalPositionError(
                    f"{name} has {on} on the board and {hand} in hand: more than the {n} pieces "
                    f"of {v.name}"
                )
        if (self.white_hand or self.black_hand) and self.mover_hand == 0 and not v.rules.place_or_move:
            me, other = COLOR_NAMES[self.turn], COLOR_NAMES[1 - self.turn]
            raise IllegalPositionError(
                f"{me} to move with no piece in hand while {other} still has "
                f"{self.opponent_hand} to place: during placement the side to move places a piece"
            )
        if not isinstance(self.no_removal_plies, int):
            raise IllegalPositionError(f"the no-removal counter must be a number, got {self.no_removal_plies!r}")
        why = check_counter(v, self.no_removal_plies, int.bit_count(self.white), int.bit_count(self.black),
                            self.in_placement)
        if why:
            raise IllegalPositionError(why)

    # ------------------------------------------------------------------ views
    @property
    def board(self):
        return self.variant.board

    @property
    def mover(self) -> int:
        return self.white if self.turn == WHITE else self.black

    @property
    def opponent(self) -> int:
        return self.black if self.turn == WHITE else self.white

    @property
    def mover_hand(self) -> int:
        return self.white_hand if self.turn == WHITE else self.black_hand

    @property
    def opponent_hand(self) -> int:
        return self.black_hand if self.turn == WHITE else self.white_hand

    @property
    def in_placement(self) -> bool:
        return bool(self.white_hand or self.black_hand)

    @property
    def phase(self) -> str:
        return "placement" if self.in_placement else "movement"

    def count(self, color: int) -> int:
        return int.bit_count(self.white if color == WHITE else self.black)

    def piece_at(self, name: str) -> int | None:
        i = self.board.index[name]
        if self.white >> i & 1:
            return WHITE
        if self.black >> i & 1:
            return BLACK
        return None

    def check_variant(self, variant: Variant) -> None:
        if self.variant.board != variant.board or self.variant.rules != variant.rules:
            raise VariantMismatchError(
                f"position of variant {self.variant.name} used with variant {variant.name}"
            )

    # ------------------------------------------------------------------ notation out
    def to_compact(self) -> str:
        w = ",".join(sorted(self.board.names(self.white)))
        b = ",".join(sorted(self.board.names(self.black)))
        s = f"{w}/{b} {'wb'[self.turn]}"
        if self.in_placement:
            s += f" {self.white_hand} {self.black_hand}"
        if self.no_removal_plies:
            s += f" c={self.no_removal_plies}"
        return s

    def __str__(self):
        return self.to_compact()

    def to_fen(self, no_removal_plies: int | None = None, fullmove: int | None = None) -> str:
        if no_removal_plies is None:
            no_removal_plies = self.no_removal_plies
        if any(p not in FEN_POINTS for p in self.board.points):
            raise IllegalPositionError(f"Sanmill's FEN cannot describe the {self.board.name} board")
        chars = []
        for name in FEN_POINTS:
            owner = self.piece_at(name) if name in self.board.index else None
            chars.append("*" if owner is None else ("O" if owner == WHITE else "@"))
        board = "/".join("".join(chars[i : i + 8]) for i in (0, 8, 16))
        if self.in_placement:
            if self.variant.rules.place_or_move:
                raise IllegalPositionError("Sanmill's FEN cannot describe Lasker Morris with pieces "
                                           "in hand (a turn may move instead of placing); use the "
                                           "compact form")
            if not alternating_hands(self.white_hand, self.black_hand):
                raise IllegalPositionError(
                    f"Sanmill's FEN cannot describe {self.white_hand} white and {self.black_hand} "
                    f"black in hand (placement by turns leaves black as many as white or one more)")
            phase, action = "p", "p"
            placed = 2 * self.variant.pieces - self.white_hand - self.black_hand
            move_no = 1 + placed // 2
        else:
            phase = "o" if self.is_game_over() else "m"
            action = "s"
            move_no = 1 + self.variant.pieces
        if fullmove is not None:
            move_no = fullmove
        return (
            f"{board} {'wb'[self.turn]} {phase} {action} "
            f"{self.count(WHITE)} {self.white_hand} {self.count(BLACK)} {self.black_hand} "
            f"0 0 -1 -1 -1 -1 0 {no_removal_plies} {move_no}"
        )

    def diagram(self) -> str:
        """The board drawn in text: ``O`` white, ``@`` black, ``.`` empty, ``-`` no point."""
        return draw_board(self)

    # ------------------------------------------------------------------ play
    @property
    def state(self):
        """``(mover, opponent, mover_hand, opponent_hand)``: the masks and hands of rules.py."""
        return self.mover, self.opponent, self.mover_hand, self.opponent_hand

    @property
    def limit(self) -> int | None:
        """The no-removal limit of this position's subspace (None: none applies)."""
        if self.in_placement:
            return None
        return self.variant.rules.limit_of(self.count(WHITE), self.count(BLACK))

    @property
    def drawn_by_limit(self) -> bool:
        """Whether the no-removal counter has reached the limit (the game is then drawn, unless
        the side to move has no legal move: :meth:`outcome` decides that first)."""
        limit = self.limit
        return limit is not None and self.no_removal_plies >= limit

    @property
    def key(self) -> "Position":
        """The position without its counter (what threefold repetition compares)."""
        if not self.no_removal_plies:
            return self
        return Position(self.variant, self.white, self.black, self.turn, self.white_hand,
                        self.black_hand)

    def outcome(self):
        """``None`` while the game goes on, else ``'win'``, ``'draw'`` or ``'loss'`` for the side
        to move (a draw too when the no-removal counter has reached the limit)."""
        value = rules.terminal(self.variant, *self.state)
        if value is None and self.drawn_by_limit:
            return "draw"
        return value

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def legal_turns(self) -> list:
        """Legal turns as ``(frm, to, removed)`` tuples (rules.py); none when the game is over."""
        ts = rules.turns(self.variant, *self.state)
        if rules.terminal(self.variant, *self.state, any_turn=bool(ts)) is not None:
            return []
        if self.drawn_by_limit:
            return []
        return ts

    def legal_moves(self) -> list[Move]:
        """Every legal turn as a :class:`Move`, sorted by token."""
        return sorted((self.move_of_turn(t) for t in self.legal_turns()), key=str)

    def move_of_turn(self, turn) -> Move:
        board = self.board
        frm, to, removed = turn
        order = rules.removal_order(board, self.opponent, removed)
        return Move(
            to=board.points[to],
            frm=None if frm < 0 else board.points[frm],
            removes=tuple(board.points[x] for x in order),
        )

    def turn_of_move(self, move: "Move | str"):
        """The ``(frm, to, removed)`` turn a move token stands for; explains why when it is
        illegal."""
        mv = Move.parse(move) if isinstance(move, str) else move
        board = self.board
        for name in [mv.to, *([mv.frm] if mv.frm else []), *mv.removes]:
            if name not in board.index:
                raise IllegalMoveError(f"{mv}: {name} is not a point of the {board.name} board")
        to = board.index[mv.to]
        frm = -1 if mv.frm is None else board.index[mv.frm]
        removed = 0
        for r in mv.removes:
            bit = 1 << board.index[r]
            if removed & bit:
                raise IllegalMoveError(f"{mv}: {r} is removed twice")
            removed |= bit
        turn = (frm, to, removed)
        if turn in set(self.legal_turns()):
            return turn
        raise IllegalMoveError(f"illegal move {mv}: {self._why_illegal(frm, to, removed)}")

    def completions(self, move: "Move | str") -> list[Move]:
        """The legal moves that a token without its removal stands for: ``[move]`` itself when
        it closes no mill, else one move per legal removal (empty when none fits)."""
        mv = Move.parse(move) if isinstance(move, str) else move
        return [m for m in self.legal_moves()
                if m.frm == mv.frm and m.to == mv.to and m.removes[: len(mv.removes)] == mv.removes]

    def play(self, move: "Move | str") -> "Position":
        """The position after a legal move (raises :class:`IllegalMoveError` otherwise)."""
        return self.play_turn(self.turn_of_move(move))

    def play_turn(self, turn) -> "Position":
        """The position after a turn ``(frm, to, removed)`` (not checked for legality)."""
        (mover, opp, mover_hand, opp_hand), switched = rules.play(self.variant, *self.state, turn)
        turn_ = 1 - self.turn if switched else self.turn
        counter = 0  # after a removal, and during placement (its plies do not count)
        if not (turn[2] or self.in_placement) and self.variant.limited:
            if self.variant.rules.limit_of(int.bit_count(mover), int.bit_count(opp)) is not None:
                counter = self.no_removal_plies + 1
        if turn_ == WHITE:
            return Position(self.variant, mover, opp, turn_, mover_hand, opp_hand, counter)
        return Position(self.variant, opp, mover, turn_, opp_hand, mover_hand, counter)

    def _why_illegal(self, frm: int, to: int, removed: int) -> str:
        board = self.board
        variant = self.variant
        me = COLOR_NAMES[self.turn]
        result = self.outcome()
        if result is not None:
            said = RESULT_WORDS[result]
            return f"the game is over ({me} to move has {said})"
        mover, opp, mh, oh = self.state
        if mh > 0 and frm >= 0 and not variant.rules.place_or_move:
            return (f"{me} still has {mh} in hand: during placement pieces are placed, not moved "
                    f"(placing or moving at will is Lasker Morris's rule: --variant lasker)")
        if mh == 0 and frm < 0:
            return "placement is over: move a piece with from-to, as d2-d3"
        if (mover | opp) >> to & 1:
            return f"{board.points[to]} is not empty"
        if frm >= 0:
            if not mover >> frm & 1:
                return f"{board.points[frm]} holds no {me} piece"
            if not rules.flies(variant, mover, mh, oh) and not board.adjacency[frm] >> to & 1:
                why = (
                    "flying is off in this variant" if not variant.rules.flying
                    else f"{me} has {int.bit_count(mover)} pieces and flies only with {FLY_AT}"
                )
                if MORABARABA_BOARD.adjacency[frm] >> to & 1 and board.n == MORABARABA_BOARD.n:
                    why = f"the {board.name} board has no diagonal lines; {why}"
                return f"{board.points[to]} is not adjacent to {board.points[frm]} ({why})"
        after = mover | (1 << to)
        if frm >= 0:
            after ^= 1 << frm
        closed = rules.mills_closed(board, after, to)
        if not closed:
            if removed:
                return "it closes no mill, so it removes nothing"
            return "illegal"
        need = min(int.bit_count(opp), 1 if variant.rules.double_mill_removes == 1 else closed)
        if int.bit_count(removed) != need:
            if need == 0:
                return "the opponent has no piece on the board to remove"
            example = board.points[next(rules.bits(rules.removable(board, opp)))]
            return (
                f"it closes {'two mills' if closed > 1 else 'a mill'} and must remove {need} "
                f"opponent piece{'s' if need > 1 else ''} (for example x{example})"
            )
        for x in rules.bits(removed):
            if not opp >> x & 1:
                return f"{board.points[x]} holds no opponent piece to remove"
        protected = rules.pieces_in_mills(board, opp)
        bad = [board.points[x] for x in rules.bits(removed & protected)]
        if bad:
            return f"{', '.join(bad)} stands in a mill and the opponent has pieces outside mills"
        return "illegal removal"


def _parse_turn(tok: str, text: str) -> int:
    if tok == "w":
        return WHITE
    if tok == "b":
        return BLACK
    raise IllegalPositionError(f"side to move {tok!r} in {text!r}: expected 'w' or 'b'")


def _parse_int(tok: str, what: str) -> int:
    """A number of a notation: ASCII digits, an optional leading ``-`` (inputs.py's rule)."""
    if not is_ascii_number(tok, negative=True):
        raise IllegalPositionError(f"{what} {tok!r} is not a number (ASCII digits)")
    return int(tok)


def alternating_hands(white_hand: int, black_hand: int) -> bool:
    """Whether placement by turns (white first) can leave these hands: black has as many in hand
    as white, or one more. (Teaching positions of the compact notation may have others; Sanmill's
    FEN, written from games, cannot.)"""
    return white_hand <= black_hand <= white_hand + 1


def _check_fen_numbers(nums) -> None:
    """The numeric fields of a Sanmill FEN after the board, side, phase and action: counts and
    pieces to remove 0 or more, the last mill's squares -1 (none) or more, the mill count and
    the no-removal plies 0 or more, the move number 1 or more."""
    low = [0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 1]
    names = ["white on board", "white in hand", "black on board", "black in hand",
             "white pieces to remove", "black pieces to remove", "last mill square",
             "last mill square", "last mill square", "last mill square", "mills",
             "no-removal plies", "move number"]
    high = {6: 31, 7: 31, 8: 31, 9: 31}  # Sanmill's squares run 8 .. 31 (-1: none)
    for k, (x, lo, name) in enumerate(zip(nums, low, names)):
        value = _parse_int(x, f"FEN {name}")
        if value < lo:
            raise IllegalPositionError(f"FEN {name} {value}: must be {lo} or more")
        if k in high and value > high[k]:
            raise IllegalPositionError(f"FEN {name} {value}: a square is at most {high[k]} (-1 for none)")


def _check_fen_phase(v, phase, turn, white, black, w_hand, b_hand) -> None:
    """The FEN's phase against its pieces: movement has empty hands, placement has some piece
    in hand, the ready phase is the empty board with full hands, and during placement the hands
    add up as alternation leaves them (:func:`alternating_hands`)."""
    if phase == "m" and (w_hand or b_hand):
        raise IllegalPositionError(
            f"FEN phase m (movement) with pieces in hand ({w_hand} white, {b_hand} black)")
    if phase == "p" and not (w_hand or b_hand):
        raise IllegalPositionError("FEN phase p (placement) with no piece in hand: that is movement (m)")
    if phase == "r" and (white or black or w_hand != v.pieces or b_hand != v.pieces):
        raise IllegalPositionError(
            f"FEN phase r (ready) is the start: an empty board and {v.pieces} in each hand")
    if v.rules.place_or_move:
        return  # (a player may move instead of placing: any hands, either side to move)
    if (w_hand or b_hand) and not alternating_hands(w_hand, b_hand):
        raise IllegalPositionError(
            f"FEN hands do not add up: {w_hand} white and {b_hand} black in hand (placement "
            f"alternates and white places first, so black has as many as white or one more)")
    if w_hand or b_hand:
        due = WHITE if w_hand == b_hand else BLACK
        if turn != due:
            raise IllegalPositionError(
                f"FEN side to move {COLOR_NAMES[turn]} against the hands ({w_hand} white, {b_hand} "
                f"black in hand): placement alternates from white, so {COLOR_NAMES[due]} places next")


def _parse_count(tok: str, what: str) -> int:
    value = _parse_int(tok, what)
    if value < 0:
        raise IllegalPositionError(f"{what} {value} is negative")
    return value


def draw_board(pos: Position) -> str:
    """Draw the board from its geometry: points are placed by file and rank, lines between
    adjacent points drawn with ``-`` and ``|`` (a diagonal with ``/`` or ``\\``). ``O`` white,
    ``@`` black, ``.`` empty."""
    board = pos.board
    coords = board.coords
    max_rank = max(r for _, r in coords.values())
    max_file = max(f for f, _ in coords.values())
    width, height = 4 * max_file + 1, 2 * (max_rank - 1) + 1
    grid = [[" "] * width for _ in range(height)]

    def cell(name):
        f, r = coords[name]
        return 2 * (max_rank - r), 4 * f

    for a, b in board.edges:
        (ya, xa), (yb, xb) = cell(board.points[a]), cell(board.points[b])
        if ya == yb:
            for x in range(min(xa, xb) + 1, max(xa, xb)):
                grid[ya][x] = "-"
        elif xa == xb:
            for y in range(min(ya, yb) + 1, max(ya, yb)):
                grid[y][xa] = "|"
        else:  # a diagonal line (Morabaraba): one stroke between the two rows
            grid[(ya + yb) // 2][(xa + xb) // 2] = "/" if (yb - ya) * (xb - xa) < 0 else "\\"
    for name in board.points:
        y, x = cell(name)
        owner = pos.piece_at(name)
        grid[y][x] = "." if owner is None else ("O" if owner == WHITE else "@")
    lines = []
    for y, row in enumerate(grid):
        label = str(max_rank - y // 2) if y % 2 == 0 else " "
        lines.append(f"{label} {''.join(row)}".rstrip())
    lines.append("  " + "   ".join(chr(ord("a") + f) for f in range(max_file + 1)))
    status = f"{COLOR_NAMES[pos.turn]} to move"
    if pos.in_placement:
        status += f"; in hand: white {pos.white_hand}, black {pos.black_hand}"
    status += f"; on board: white {pos.count(WHITE)}, black {pos.count(BLACK)}"
    return "\n".join(lines) + "\n" + status
