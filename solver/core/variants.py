"""Boards and rules as data.

A :class:`Board` is a set of named points, the lines that join adjacent points, and the mills
(lines of three). A :class:`Rules` object holds the rule options of RULES.md. A :class:`Variant`
is a board, rules and a name. Nothing elsewhere in the toolkit branches on a variant's name: code
reads the board's masks and the rule fields.

Point ``i`` of a board is bit ``i`` of every bitboard. The standard board numbers its points as
Sanmill does (inner ring, middle ring, outer ring; each ring from its d-file point clockwise), so
Sanmill's FEN board field is the points in index order.

Built-in variants (:func:`get_variant`):

============== ======= ======== ======================================================
name           points  pieces   notes
============== ======= ======== ======================================================
``standard``   24      9        Nine Men's Morris, flying with 3 pieces
``standard-N`` 24      N        the standard board with N = 3..8 pieces a side
``six``        16      6        Six Men's Morris: outer and middle squares, no flying
``six-hand``   16      6        Six Men's Morris with the hand counted (fewer than 3 on the
                                board and in hand together loses, in placement too)
``morabaraba`` 24      12       the standard board with four diagonal lines (20 mills),
                                flying with 3, counts with the hand, a full board draws
``twelve``     24      12       Twelve Men's Morris: Morabaraba without flying
``lasker``     24      10       Lasker Morris: a turn places or moves; flying with 3 on the
                                board and in hand; counts with the hand
============== ======= ======== ======================================================
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from functools import cached_property

from .errors import UnknownVariantError
from .rulefields import RuleField, fields_of, rule
from .symmetry import board_automorphisms

# The three rings of the standard board, each from its d-file point, clockwise (Sanmill order).
INNER_RING = ("d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5")
MIDDLE_RING = ("d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6")
OUTER_RING = ("d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7")

from .codes import FLY_AT, LOSE_BELOW  # noqa: F401 (the rules' numbers, named in codes.py)

#: the longest no-removal limit accepted, in plies (distances are stored in 16 bits)
MAX_LIMIT = 10000


@dataclass(frozen=True, eq=False)
class Board:
    """Points, adjacency and mills. Compared by name: a name stands for one geometry."""

    name: str
    points: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]
    mills: tuple[tuple[int, ...], ...]

    def __post_init__(self):
        n = len(self.points)
        if len(set(self.points)) != n:
            raise ValueError(f"board {self.name}: a point is named twice")
        if n > 32:
            raise ValueError(f"board {self.name}: at most 32 points are supported, got {n}")
        for a, b in self.edges:
            if not (0 <= a < n and 0 <= b < n) or a == b:
                raise ValueError(f"board {self.name}: bad edge {(a, b)}")
        for m in self.mills:
            if len(set(m)) != len(m) or not all(0 <= p < n for p in m):
                raise ValueError(f"board {self.name}: bad mill {m}")

    def __eq__(self, other):
        return isinstance(other, Board) and other.name == self.name

    def __hash__(self):
        return hash(("Board", self.name))

    @property
    def n(self) -> int:
        return len(self.points)

    @property
    def full(self) -> int:
        """The mask with every point set."""
        return (1 << self.n) - 1

    @cached_property
    def coords(self) -> dict[str, tuple[int, int]]:
        """Point name -> (file, rank): ``a1`` is (0, 1). Pictures place points by these."""
        return {name: (ord(name[0]) - ord("a"), int(name[1])) for name in self.points}

    @cached_property
    def index(self) -> dict[str, int]:
        """Point name -> point index."""
        return {p: i for i, p in enumerate(self.points)}

    @cached_property
    def adjacency(self) -> tuple[int, ...]:
        """``adjacency[p]``: mask of the points joined to ``p`` by a line."""
        adj = [0] * self.n
        for a, b in self.edges:
            adj[a] |= 1 << b
            adj[b] |= 1 << a
        return tuple(adj)

    @cached_property
    def mill_masks(self) -> tuple[int, ...]:
        return tuple(sum(1 << p for p in m) for m in self.mills)

    @cached_property
    def point_mills(self) -> tuple[tuple[int, ...], ...]:
        """``point_mills[p]``: masks of the mills through point ``p``."""
        return tuple(
            tuple(mask for mask in self.mill_masks if mask >> p & 1) for p in range(self.n)
        )

    def mask(self, names) -> int:
        m = 0
        for name in names:
            m |= 1 << self.index[name]
        return m

    def names(self, mask: int) -> list[str]:
        return [self.points[i] for i in range(self.n) if mask >> i & 1]

    @cached_property
    def symmetries(self):
        """The automorphisms of the board, computed from its lines and mills (see symmetry.py)."""
        return board_automorphisms(self)


def ring_board(name: str, rings, cross_mills: bool) -> Board:
    """A board of concentric square rings of 8 points (each from its top midpoint, clockwise).

    Adjacent points of a ring are joined; the midpoints (ring indices 0, 2, 4, 6) of consecutive
    rings are joined. Mills: the 4 sides of every ring, and, with ``cross_mills``, the lines
    across all rings through the midpoints (these need exactly three rings).
    """
    points = tuple(p for ring in rings for p in ring)
    base = [8 * r for r in range(len(rings))]
    edges = []
    mills = []
    for r in range(len(rings)):
        for i in range(8):
            edges.append((base[r] + i, base[r] + (i + 1) % 8))
        for mid in (0, 2, 4, 6):
            mills.append((base[r] + (mid - 1) % 8, base[r] + mid, base[r] + mid + 1))
    for r in range(len(rings) - 1):
        for mid in (0, 2, 4, 6):
            edges.append((base[r] + mid, base[r + 1] + mid))
    if cross_mills:
        if len(rings) != 3:
            raise ValueError("cross mills need three rings")
        for mid in (0, 2, 4, 6):
            mills.append(tuple(base[r] + mid for r in range(3)))
    return Board(name=name, points=points, edges=tuple(edges), mills=tuple(mills))


def with_diagonals(name: str, board: Board) -> Board:
    """A board of three rings with the four diagonal lines that join the rings' corners
    (a7-b6-c5, g7-f6-e5, a1-b2-c3, g1-f2-e3): each is a mill and pieces slide along it."""
    if board.n != 24:
        raise ValueError("diagonal lines need the three rings of the standard board")
    ix = board.index
    lines = [("a7", "b6", "c5"), ("g7", "f6", "e5"), ("a1", "b2", "c3"), ("g1", "f2", "e3")]
    edges = list(board.edges)
    mills = list(board.mills)
    for a, b, c in lines:
        edges += [(ix[a], ix[b]), (ix[b], ix[c])]
        mills.append((ix[a], ix[b], ix[c]))
    return Board(name=name, points=board.points, edges=tuple(edges), mills=tuple(mills))


STANDARD_BOARD = ring_board("standard", (INNER_RING, MIDDLE_RING, OUTER_RING), cross_mills=True)
SIX_BOARD = ring_board("six", (MIDDLE_RING, OUTER_RING), cross_mills=False)
MORABARABA_BOARD = with_diagonals("morabaraba", STANDARD_BOARD)
BOARDS = {b.name: b for b in (STANDARD_BOARD, SIX_BOARD, MORABARABA_BOARD)}

#: the outcomes a full board (every point taken, the side to move blocked) may have
FULL_BOARD = ("draw", "loss")


@dataclass(frozen=True)
class Rules:
    """Rule options (RULES.md, "Variant options").

    - ``pieces``: pieces per side.
    - ``flying``: a player with exactly 3 pieces on the board after placement moves to any point.
    - ``double_mill_removes``: pieces removed when one turn closes two mills (1 or 2).
    - ``no_removal_limit``: L, plies of the movement phase without a removal after which the
      game is drawn (counted from 0 at the start of the movement phase and after every removal;
      a side to move without a legal move still loses); ``None`` for no limit.
    - ``endgame_no_removal_limit``: E, the limit instead of L in every subspace where a side has
      exactly 3 pieces; ``None``: L there too.
    - ``count_hand``: pieces in hand count with those on the board (Morabaraba and Lasker Morris
      as Gevay and Danner solved them): a player with fewer than 3 on the board and in hand
      together has lost, in placement too. Without it (Nine Men's Morris as Gasser solved it)
      only the board counts, once placement is over.
    - ``full_board``: the value of a full board for the side to move, who is blocked: "draw" (the
      default, and Morabaraba's published convention) or "loss" (blocked loses, as anywhere
      else). Only a game of 2 x pieces >= points can fill its board.
    - ``place_or_move``: Lasker Morris's turn: while a player has pieces in hand, each turn either
      places one or moves one on the board (with an empty hand, only moves); flying is then
      counted with the hand (board plus hand exactly 3). Needs ``count_hand``.

    With a limit the values depend on the counter (limits.py); databases of such rules are
    solved in their own ruleset directory.
    """

    pieces: int = rule(9, int, "Pieces a side (default: the variant's; e.g. --variant morabaraba --pieces 4).",
                       lo=3, hi=12, header="never", metavar="N")
    flying: bool = rule(True, bool, "Whether a player with 3 pieces flies (default: the variant's).",
                        token="nofly")
    double_mill_removes: int = rule(1, int, "Pieces removed when one turn closes two mills (default 1).",
                                    lo=1, hi=2, token="dm{v}")
    no_removal_limit: int | None = rule(
        None, int, "Draw after this many plies of the movement phase without a removal (Sanmill's "
        "N-move rule N is N+1 here); positions then take a counter, c=N.",
        optional=True, lo=1, hi=MAX_LIMIT, token="limit{v}", metavar="PLIES")
    endgame_no_removal_limit: int | None = rule(
        None, int, "The no-removal limit instead, where a side has exactly 3 pieces.",
        optional=True, lo=1, hi=MAX_LIMIT, header="set", token="endgame{v}", metavar="PLIES")
    count_hand: bool = rule(False, bool, "Whether the pieces in hand count with those on the board: "
                            "fewer than 3 together loses, in placement too (default: the variant's).",
                            header="set", token="hand")
    full_board: str = rule("draw", str, "A full board (12 against 12 on 24 points), the side to move "
                           "blocked: a draw (default) or a loss.",
                           choices=FULL_BOARD, header="set", token="full{v}")
    place_or_move: bool = rule(False, bool, "Lasker Morris's turn: place or move while a piece is in "
                               "hand; needs --count-hand (default: the variant's).",
                               header="set", token="lasker")

    def __post_init__(self):
        if self.place_or_move and not self.count_hand:
            raise UnknownVariantError(
                "the place-or-move turn (Lasker Morris) counts the pieces in hand with those on the "
                "board: it needs count_hand")
        if self.full_board not in FULL_BOARD:
            raise UnknownVariantError(
                f"a full board must be a draw or a loss, got {self.full_board!r}")
        if not isinstance(self.pieces, int) or not 3 <= self.pieces <= 12:
            raise UnknownVariantError(f"pieces per side must be 3..12, got {self.pieces!r}")
        if self.double_mill_removes not in (1, 2):
            raise UnknownVariantError(
                f"pieces removed for a double mill must be 1 or 2, got {self.double_mill_removes!r}"
            )
        for what, lim in (("no-removal limit", self.no_removal_limit),
                          ("endgame no-removal limit", self.endgame_no_removal_limit)):
            if lim is not None and (not isinstance(lim, int) or isinstance(lim, bool)
                                    or not 1 <= lim <= MAX_LIMIT):
                raise UnknownVariantError(f"the {what} must be 1 to {MAX_LIMIT} plies, got {lim!r}")
        for f in RULE_FIELDS:  # the rest of each field's type and range, from its declaration
            f.check(getattr(self, f.name), "rule ")

    @property
    def limited(self) -> bool:
        """Whether some subspace has a no-removal limit."""
        return self.no_removal_limit is not None or self.endgame_no_removal_limit is not None

    def limit_of(self, m: int, o: int) -> int | None:
        """The no-removal limit (plies) of the movement subspace with m and o pieces: E where a
        side has exactly 3 pieces and E is set, else L (None: no limit there)."""
        if self.endgame_no_removal_limit is not None and 3 in (m, o):
            return self.endgame_no_removal_limit
        return self.no_removal_limit


#: every rule option, in declaration order (rulefields.py)
RULE_FIELDS: tuple[RuleField, ...] = fields_of(Rules)


@dataclass(frozen=True)
class Variant:
    """A named board and rules. Equal variants have the same board and rules."""

    name: str
    board: Board
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self):
        if 2 * self.rules.pieces > self.board.n:
            raise UnknownVariantError(
                f"{2 * self.rules.pieces} pieces do not fit on the {self.board.n} points of {self.board.name}"
            )

    @property
    def pieces(self) -> int:
        return self.rules.pieces

    @cached_property
    def ruleset_id(self) -> str:
        """Name of the rules that decide the value of every position: the board and the rule
        options, but not the number of pieces (a position's value does not depend on how many
        pieces the game started with, only on what is on the board and in hand). Databases of a
        ruleset live in a directory of that name and serve every piece count. Each rule field
        that differs from its default adds its token (rulefields.py): ``six-nofly``,
        ``standard-limit50``, ``morabaraba-hand``."""
        tokens = (f.token_of(getattr(self.rules, f.name)) for f in RULE_FIELDS)
        return "-".join([self.board.name] + [t for t in tokens if t])

    @property
    def full_board_draws(self) -> bool:
        """Whether a full board is a draw (only a board that 2 x pieces can fill)."""
        return self.rules.full_board == "draw"

    @property
    def limited(self) -> bool:
        return self.rules.limited

    @cached_property
    def unlimited(self) -> "Variant":
        """The same board and rules without the no-removal limits (itself when it has none):
        the rules whose values tell a limited database which draws are cursed wins."""
        if not self.rules.limited:
            return self
        rules = dataclasses.replace(self.rules, no_removal_limit=None, endgame_no_removal_limit=None)
        return Variant(self.name, self.board, rules)

    def describe(self) -> dict:
        """Name, board, points and every rule field (what a worker process receives;
        :func:`variant_from_fields` reads it back)."""
        return {"name": self.name, "board": self.board.name, "points": self.board.n,
                **{f.name: getattr(self.rules, f.name) for f in RULE_FIELDS}}

    def closest_builtin(self) -> "Variant":
        """The built-in variant of this board whose rules differ from these in the fewest
        fields (the piece count aside; ties: the first in :data:`VARIANTS`): the ``--variant``
        that option flags or query parameters are written against."""
        same = VARIANTS.get(self.name)
        if same is not None and same.board == self.board:
            return same

        def distance(v):
            return sum(getattr(v.rules, f.name) != getattr(self.rules, f.name)
                       for f in RULE_FIELDS if f.header != "never")

        return min((v for v in VARIANTS.values() if v.board == self.board), key=distance)

    def changed_fields(self, pieces: bool = True, base: "Variant | None" = None) -> dict:
        """``{field: value}`` of the rule fields that differ from ``base``'s (default:
        :meth:`closest_builtin`; with ``pieces=False``, the piece count left out, which files do
        not depend on)."""
        base = base or self.closest_builtin()
        return {f.name: getattr(self.rules, f.name) for f in RULE_FIELDS
                if getattr(self.rules, f.name) != getattr(base.rules, f.name)
                and (pieces or f.header != "never")}

    def cli_flags(self) -> str:
        """The ``morris`` options that select this variant's board and rules, e.g.
        ``--variant six --double-mill-removes 2`` (for hints that print a command)."""
        base = self.closest_builtin()
        out = [f"--variant {base.name}"]
        changed = self.changed_fields(base=base)
        for f in RULE_FIELDS:
            if f.name not in changed:
                continue
            value = changed[f.name]
            if f.kind is bool:
                yes, no = f.option.split("/")
                out.append(yes if value else no)
            elif value is not None:  # (no limit: the option left out)
                out.append(f"{f.option} {value}")
        return " ".join(out)

    def query_params(self) -> dict:
        """The explorer's query parameters for this variant's rules (files serve every piece
        count, so the count is left out): ``{"variant": "six", "double_mill_removes": "2"}``."""
        base = self.closest_builtin()
        out = {"variant": base.name}
        for name, value in self.changed_fields(pieces=False, base=base).items():
            out[name] = ("1" if value else "0") if isinstance(value, bool) else \
                ("0" if value is None else str(value))
        return out


def _builtin():
    out = {
        "standard": Variant("standard", STANDARD_BOARD, Rules(pieces=9, flying=True)),
        "six": Variant("six", SIX_BOARD, Rules(pieces=6, flying=False)),
        "six-hand": Variant("six-hand", SIX_BOARD, Rules(pieces=6, flying=False, count_hand=True)),
        "morabaraba": Variant("morabaraba", MORABARABA_BOARD,
                              Rules(pieces=12, flying=True, count_hand=True)),
        "twelve": Variant("twelve", MORABARABA_BOARD,
                          Rules(pieces=12, flying=False, count_hand=True)),
        "lasker": Variant("lasker", STANDARD_BOARD,
                          Rules(pieces=10, flying=True, count_hand=True, place_or_move=True)),
    }
    for k in range(3, 9):
        out[f"standard-{k}"] = Variant(f"standard-{k}", STANDARD_BOARD, Rules(pieces=k, flying=True))
    return out


VARIANTS = _builtin()


def variant_names() -> str:
    """The built-in variants' names in one line, ``standard-3`` to ``standard-8`` as one entry
    (for help texts): ``standard, standard-3 .. standard-8, six, ...``."""
    counted = [n for n in VARIANTS if re.fullmatch(r"standard-\d+", n)]
    names = [n for n in VARIANTS if n not in counted]
    if counted:
        names.insert(1, f"{counted[0]} .. {counted[-1]}")
    return ", ".join(names)


@dataclass(frozen=True)
class Preset:
    """A named rule set: a built-in variant and rule options, as a site or app plays them
    (``--rules NAME``; ``morris rules`` lists them)."""

    name: str
    variant: str
    options: tuple  # ((get_variant keyword, value), ...)
    source: str     # where the rules are written down


#: The rule sets of the rule pages this project started from (docs/rules.md, "Presets"): the
#: other pages (Ply Yard, "Reglas del juego del molino", MorrisLive) play the standard rules.
PRESETS = {p.name: p for p in (
    Preset("standard", "standard", (),
           "the standard rules (pages 000 Ply Yard, 001, 003 MorrisLive: no draw by a move count)"),
    Preset("cetinsgame", "standard", (("no_removal_limit", 50),),
           "CetinsGame (page 002): a draw after 50 plies of the movement phase without a "
           "removal; flying with 3 (its default)"),
    Preset("cetinsgame-no-flying", "standard", (("no_removal_limit", 50), ("flying", False)),
           "CetinsGame (page 002) with its setting 'Volar con tres' off"),
    Preset("juego-del-molino", "standard", (("no_removal_limit", 100),),
           "Juego del Molino (page 004) as it starts: a draw after 50 moves of each side "
           "(100 plies) after placement without a mill; flying with 3; one removal for two mills"),
    Preset("juego-del-molino-variantes", "standard",
           (("no_removal_limit", 100), ("flying", False), ("double_mill_removes", 2)),
           "Juego del Molino (page 004) with both of its host's options: no flying, and a "
           "double mill takes two"),
)}


def _preset(rules: str, name, given: dict) -> tuple[str, dict]:
    """The variant name and options of preset ``rules`` with the ``given`` options (None: not
    given); a variant or an option that contradicts the preset is refused, naming both."""
    try:
        preset = PRESETS[rules]
    except KeyError:
        raise UnknownVariantError(f"unknown rules {rules!r}; known: {', '.join(PRESETS)}") from None
    asked = getattr(name, "name", name)  # a name or a Variant
    if asked is not None and asked != preset.variant:
        raise UnknownVariantError(f"the rules {rules!r} are played with the variant {preset.variant!r}, "
                                  f"not {asked!r}")
    out = dict(given)
    for key, value in preset.options:
        if given.get(key) is not None and given[key] != value:
            raise UnknownVariantError(f"the rules {rules!r} have {key.replace('_', '-')} {value}; "
                                      f"{given[key]} contradicts them")
        out[key] = value
    return preset.variant, out


def get_variant(name: str | None = None, *, rules: str | None = None, **options) -> Variant:
    """A built-in variant (default ``standard``), with rule options changed where given (any
    field of :class:`Rules`: ``flying``, ``double_mill_removes``, ``no_removal_limit``,
    ``endgame_no_removal_limit``, ``pieces``, ``count_hand``, ``full_board``,
    ``place_or_move``; ``None``: the variant's); ``rules`` names a preset (:data:`PRESETS`),
    whose variant and options the others may repeat but not contradict."""
    known = {f.name for f in RULE_FIELDS}
    unknown = sorted(set(options) - known)
    if unknown:
        raise TypeError(f"get_variant() got unknown rule option {unknown[0]!r}; "
                        f"known: {', '.join(f.name for f in RULE_FIELDS)}")
    given = {f.name: options.get(f.name) for f in RULE_FIELDS}
    if rules is not None:
        name, given = _preset(rules, name, given)
    if name is None:
        name = "standard"
    if isinstance(name, Variant):
        base = name
    else:
        try:
            base = VARIANTS[name]
        except KeyError:
            raise UnknownVariantError(
                f"unknown variant {name!r}; known: {', '.join(sorted(VARIANTS))}"
            ) from None
    changes = {k: v for k, v in given.items() if v is not None}
    if not changes:
        return base
    return Variant(base.name, base.board, dataclasses.replace(base.rules, **changes))


def variant_from_fields(d: dict) -> Variant:
    """The variant that a dict of rule fields names: :meth:`Variant.describe`'s (which a worker
    process receives) or a database header's (folders.ruleset_fields: a field stated only where
    set takes its default where absent; a header names no piece count, which files do not
    depend on: the most the board holds is taken)."""
    try:
        board = BOARDS[d["board"]]
    except KeyError:
        raise UnknownVariantError(f"unknown board {d.get('board')!r}") from None
    values = {}
    for f in RULE_FIELDS:
        if f.name in d:
            values[f.name] = d[f.name]
        elif f.header == "always":
            raise UnknownVariantError(f"the rules name no {f.name}")
    values.setdefault("pieces", min(12, board.n // 2))
    return Variant(d.get("name", d.get("ruleset", board.name)), board, Rules(**values))
