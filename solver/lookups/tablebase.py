"""Lookup API: the perfect-play value of a position and of each of its moves.

    >>> from morris.lookups.tablebase import open_tablebase
    >>> from morris.core.position import Position
    >>> with open_tablebase("tb") as tb:
    ...     tb.probe(Position.parse("a1,d1,g1,b2/a7,d7,g7 w"))
    ProbeResult(value='win', dtc=5)

Values are from the point of view of the side to move:

========= =============================================================================
value     meaning
========= =============================================================================
``win``   the side to move wins with perfect play; ``dtc`` plies to the next conversion
          (a removal or the end of the game), the winner playing to make it soonest
``draw``  neither side can force a win; ``dtc`` is ``None``
``loss``  the side to move loses; ``dtc`` plies to the next conversion, the loser
          playing to make it as late as possible
========= =============================================================================

Under a no-removal limit (limits.py) the value is the value at the position's counter
(``Position.no_removal_plies``) and ``dtc`` the distance under the limit; :meth:`Tablebase.category`
(and ``Analysis.category``) gives the category at counter 0: ``win``, ``cursed-win`` (a win
without the limit, a draw under it), ``draw``, ``blessed-loss`` or ``loss``. Each move is valued
at the counter that follows it (one more, or 0 after a removal).

A finished game (fewer than 3 pieces after placement, or no legal move) is probed without any
file, with ``dtc`` 0. During placement the distance counts plies to the next removal or to the
end of placement, whichever comes first (see placement.py).

Directory layout: ``DIR/<ruleset>/<subspace>.mtb``, where the ruleset names the board and rule
options (``standard``, ``six-nofly``, ...). ``open_tablebase`` takes ``DIR`` (or a ruleset
directory itself, or a list of them, or nothing).

Where a position is looked up, in order:

1. the directories given, in their order;
2. the data shipped with the package (``morris.database.shipped``: Six Men's Morris whole, and the
   standard game's opening book: positions after 0 to 9 plies), unless ``shipped=False``;
3. for a placement position that no file holds: exact alpha-beta search over the movement
   databases of one of those directories (``search="auto"``, the default; ``"always"`` searches
   every placement position, ``"never"`` raises instead). A searched value has no distance
   (``dtc`` None), and the :class:`Analysis` says so (``source == "search"``, with the time
   the search took and the subspace no file held).

The rules come from the file headers: every file passes one gate before use
(``folders.open_checked``): a file of other rules where the position's should be is a
:class:`ForeignDatabaseError` (a ``VariantMismatchError`` and a ``DataError``: exit 3), a missing
file a :class:`MissingSubspaceError` (a ``KeyError``) and a damaged one (a named pipe, a bad
header, another subspace or kind) a :class:`CorruptDatabaseError`.

Thread safety: a ``Tablebase`` may be shared between threads; files open under a lock. A
file's block cache is not locked: its entries are immutable bytes, and two threads that miss on
the same block at once both decompress it (harmless, no wrong answer).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core import rules
from ..core.codes import DRAW, DV0, NEGATE_NAME, VALUE_NAMES, VALUE_RANK, WIN
from ..format.fileformat import TableFile
from ..core.errors import (CorruptDatabaseError, MissingDrawsError, MissingDtwError, MissingSubspaceError,
                           UnsupportedRulesError)
from ..hashing.index import Hasher
from .files import FileCache, MAX_OPEN
from .search import SearchFallback
from ..core.limits import category as category_of, value_at
from ..hashing.games import game_of
from ..hashing.subspaces import Subspace, placement_closure
from ..core.position import Move, Position
from ..database.shipped import data_dir

_NEGATE = NEGATE_NAME


class ProbeResult(NamedTuple):
    """Value ('win', 'draw', 'loss') for the side to move, and dtc (None for draws)."""

    value: str
    dtc: int | None


@dataclass(frozen=True)
class MoveInfo:
    """A legal move with its value and distances from the point of view of the player making
    it: ``dtc`` plies to the next conversion, ``dtw`` plies to the end of the game (None for a
    draw, or where no dtw file holds the position the move leads to)."""

    move: Move
    value: str
    dtc: int | None
    dtw: int | None = None
    #: for a drawing move, where draw-value files hold it: the draw value it keeps for the
    #: player making it (docs/draws.md) and the plies it leaves to realise it (1 for a removal)
    draw: int | None = None
    draw_distance: int | None = None

    def to_json(self):
        return {"move": str(self.move), "value": self.value, "dtc": self.dtc, "dtw": self.dtw,
                "draw_value": self.draw, "draw_distance": self.draw_distance}


class DrawValue(NamedTuple):
    """A drawn position's draw value for the side to move (-100 .. 100, docs/draws.md), the
    plies to leave its pair through an exit worth it (0 where it is the pair's rank, or in
    placement), and the rank of its pair (None in placement)."""

    value: int
    distance: int
    rank: int | None


@dataclass
class Analysis:
    position: Position
    value: str
    dtc: int | None
    moves: list = field(default_factory=list)
    source: str = "database"  # or "search": some values by alpha-beta, without distances
    search_seconds: float = 0.0  # time this analysis took, where it needed a search
    load_seconds: float = 0.0  # of which loading the search's movement values (the first time)
    missing: str | None = None  # the subspace no file held, when a search was needed
    category: str | None = None  # under a no-removal limit: the category at counter 0
    dtw: int | None = None  # plies to the end of the game, where a dtw file holds it
    draw: DrawValue | None = None  # a draw's draw value, where a draw-value file holds it

    def to_json(self, notation: str = "compact"):
        pos = self.position.to_fen() if notation == "fen" else self.position.to_compact()
        out = {
            "position": pos,
            "value": self.value,
            "dtc": self.dtc,
            "dtw": self.dtw,
            "draw_value": None if self.draw is None else self.draw.value,
            "draw_distance": None if self.draw is None else self.draw.distance,
            "rank": None if self.draw is None else self.draw.rank,
            "moves": [m.to_json() for m in self.moves],
            "source": self.source,
        }
        if self.position.variant.limited:
            out["counter"] = self.position.no_removal_plies
            out["limit"] = self.position.limit
            out["category"] = self.category
        return out


def move_order_key(info: MoveInfo):
    """Best first: wins soonest, then draws (the best draw value first), then losses latest."""
    if info.value == "win":
        return (0, info.dtc, str(info.move))
    if info.value == "draw":
        return (1, -(info.draw or 0), str(info.move))
    return (2, -(info.dtc or 0), str(info.move))


class Tablebase:
    """Databases under one or more directories, then the shipped data, then search; see the
    module docstring."""

    SEARCH_MODES = ("auto", "always", "never")

    def __init__(self, path=None, *, shipped: bool = True, search: str = "auto", max_open: int = MAX_OPEN):
        if path is None:
            given = []
        elif isinstance(path, (str, os.PathLike)):
            given = [os.fspath(path)]
        else:
            given = [os.fspath(p) for p in path]
        for p in given:
            if not os.path.isdir(p):
                raise MissingSubspaceError(f"{p}: no such database directory")
        if search not in self.SEARCH_MODES:
            raise ValueError(f"search must be one of {self.SEARCH_MODES}, not {search!r}")
        self.path = given[0] if given else None
        self.paths = list(given)
        if shipped:

            d = data_dir()
            if d is not None and all(os.path.realpath(d) != os.path.realpath(p) for p in given):
                self.paths.append(d)
        self.search_mode = search
        self._files = FileCache(self.paths, max_open)
        self._search = SearchFallback(self._files)

    def close(self):
        self._files.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------ files
    def directories(self, variant) -> list[str]:
        """The ruleset directories looked in for ``variant``, in order."""
        return self._files.directories(variant)

    def _missing(self, variant, sub: Subspace) -> MissingSubspaceError:
        where = " or ".join(self.paths) if self.paths else "no database directory"
        return MissingSubspaceError(
            f"no database for subspace {sub} of ruleset {variant.ruleset_id} (looked in {where})",
            subspace=sub.name, variant=variant)

    def table(self, variant, sub: Subspace) -> TableFile:
        """The values file of ``sub`` (:class:`MissingSubspaceError` where none is)."""
        tf = self._files.get(variant, (sub.m, sub.o, sub.hm, sub.ho))
        if tf is None:
            raise self._missing(variant, sub)
        return tf

    def _hasher(self, board) -> Hasher:
        return self._files.hasher(board)

    def slot(self, position: Position):
        """(table, slot) of a non-terminal position."""
        mover, opp = position.mover, position.opponent
        m, o, hm, ho = mover.bit_count(), opp.bit_count(), position.mover_hand, position.opponent_hand
        tf = self._files.get(position.variant, (m, o, hm, ho))
        if tf is None:
            raise self._missing(position.variant, Subspace(m, o, hm, ho))
        try:
            i = self._hasher(position.board).index_py(mover, opp, orbit_of=tf.orbit_of)
        except CorruptDatabaseError as exc:  # (named once: the file's own errors name it)
            why = str(exc)
            raise CorruptDatabaseError(why if why.startswith(str(tf.path)) else f"{tf.path}: {why}") from None
        if not 0 <= i < tf.slots:
            raise CorruptDatabaseError(f"{tf.path}: the position's slot {i} lies past the "
                                       f"file's {tf.slots} slots (damaged header or anchors)")
        return tf, i

    # ------------------------------------------------------------------ probes
    def _slot_or_end(self, position: Position):
        """(table, slot), or (None, value) for a finished game: decided by piece count, or by
        having no legal move where no file covers the position (files store those as lost)."""
        # a blocked side to move is stored in the files as a loss in 0: no move generation here
        end = rules.decided_by_count(position.mover, position.opponent, position.mover_hand,
                                       position.opponent_hand, game_of(position.variant).args.count_hand)
        if end is not None:
            return None, end
        try:
            return self.slot(position)
        except MissingSubspaceError:
            end = rules.terminal(position.variant, *position.state)
            if end is not None:
                return None, end
            raise

    def _db_probe(self, position: Position) -> ProbeResult:
        return self._db_probe_at(position)[0]

    def _db_probe_at(self, position: Position):
        """(ProbeResult, table, slot): the slot found once serves the distances read after."""
        tf, i = self._slot_or_end(position)
        if tf is None:
            return ProbeResult(i, 0), None, None
        return self._read(tf, i, position), tf, i

    @staticmethod
    def _counts(position: Position) -> tuple:
        """(m, o, hm, ho): the position's subspace as plain ints (cheap to hash: hot path)."""
        return (position.mover.bit_count(), position.opponent.bit_count(),
                position.mover_hand, position.opponent_hand)

    def _subspace(self, position: Position) -> Subspace:
        return Subspace(*self._counts(position))

    def _has(self, variant, counts: tuple, kind: str = "values") -> bool:
        """Whether a directory holds the file of kind ``kind`` of the subspace ``counts``."""
        return self._files.has(variant, counts, kind)

    @staticmethod
    def _read(tf, i: int, position: Position) -> ProbeResult:
        """Value and distance of slot i of ``tf``, at the position's counter under a limit."""
        code, dtc = tf.value_dtc(i)
        limit = position.limit
        if limit is None:
            return ProbeResult(VALUE_NAMES[code], dtc)
        value = value_at(VALUE_NAMES[code], dtc, limit, position.no_removal_plies)
        return ProbeResult(value, None if value == "draw" else dtc)

    def category(self, position: Position) -> str:
        """Under a no-removal limit: the position's category at counter 0 (limits.py); without
        a limit its value. Raises :class:`MissingSubspaceError` where no file holds it (search
        tells values only)."""
        tf, i = self._slot_or_end(position)
        if tf is None:
            return i
        return category_of(tf.value(i), tf.curse(i))

    def answers_from_files(self, position: Position) -> bool:
        """Whether :meth:`analyze` of ``position`` reads files only (no search, which may take
        seconds): a movement position, or a placement one whose subspace and those of all its
        moves have files here and search is not forced. Cheap: one answer per subspace."""
        if not position.in_placement:
            return True
        if self.search_mode == "always":
            return False
        v = position.variant
        sub = self._subspace(position)
        game = game_of(v)
        kids = ([c for c in game.children(sub) if c is not None] + [sub.sibling]
                if game.hand_pairs else game.placement_inputs(sub))
        return all(self._has(v, (s.m, s.o, s.hm, s.ho)) for s in [sub] + kids)

    # ------------------------------------------------------------------ dtw, draw values
    def dtw_table(self, variant, sub: Subspace) -> TableFile:
        """The dtw file of ``sub`` (opened once); :class:`MissingDtwError` where none is."""
        return self._side_table(variant, sub, "dtw")

    def draws_table(self, variant, sub: Subspace) -> TableFile:
        """The draw-value file of ``sub`` (opened once); :class:`MissingDrawsError` where none is."""
        return self._side_table(variant, sub, "draw")

    _SIDE = {"dtw": (MissingDtwError, "dtw file (distance to the end of the game)"),
             "draw": (MissingDrawsError, "draw-value file")}

    def _side_table(self, variant, sub: Subspace, kind: str) -> TableFile:
        tf = self._files.get(variant, (sub.m, sub.o, sub.hm, sub.ho), kind)
        if tf is not None:
            return tf
        missing, what = self._SIDE[kind]
        where = " or ".join(self.paths) if self.paths else "no database directory"
        raise missing(f"no {what} for subspace {sub} of ruleset {variant.ruleset_id} (looked in "
                      f"{where})", subspace=sub.name, variant=variant)

    def probe_draw(self, position: Position) -> DrawValue | None:
        """The draw value of a drawn position (:class:`DrawValue`; None for a win or a loss).
        Rules without a no-removal limit only. Raises :class:`MissingDrawsError` where no
        draw-value file holds the position."""
        if position.variant.limited:
            raise UnsupportedRulesError("draw values are defined without a no-removal limit; "
                                        "these rules have one")
        tf, i = self._slot_or_end(position)
        return self._draw_at(position, tf, i, strict=True)

    def _draw_at(self, position: Position, tf, i, strict: bool = False) -> DrawValue | None:
        """The draw value of ``position`` at slot ``i`` of its values file ``tf`` (``tf`` None:
        a finished game, none); None where it is no draw, and where no draw-value file holds it
        unless ``strict`` (then :class:`MissingDrawsError`)."""
        if tf is None or (not strict and position.variant.limited):
            return None
        counts = self._counts(position)
        if not strict and not self._has(position.variant, counts, "draw"):
            return None
        dt = self.draws_table(position.variant, Subspace(*counts))  # (strict: raises if missing)
        if tf.value(i) != DRAW:
            return None
        byte = dt.distance("dv", i, tf)
        if not byte:
            raise CorruptDatabaseError(f"{dt.path}: slot {i} is a draw in the values file but "
                                       f"not in the draw-value file")
        return DrawValue(byte - DV0, dt.distance("dd", i, tf), dt.header.get("rank"))

    def probe_dtw(self, position: Position) -> int | None:
        """Plies to the end of the game under perfect play (None for a draw); a finished game
        is 0. Rules without a no-removal limit only. Raises :class:`MissingDtwError` where no
        dtw file holds the position."""
        if position.variant.limited:
            raise UnsupportedRulesError("dtw is the distance without a no-removal limit; these "
                                        "rules have one")
        tf, i = self._slot_or_end(position)
        return self._dtw_at(position, tf, i, strict=True)

    def _dtw_at(self, position: Position, tf, i, strict: bool = False) -> int | None:
        """The dtw of ``position`` at slot ``i`` of its values file ``tf`` (``tf`` None: a
        finished game, 0); None for a draw, and where no dtw file holds it unless ``strict``
        (then :class:`MissingDtwError`)."""
        if not strict and position.variant.limited:
            return None
        if tf is None:
            return 0
        counts = self._counts(position)
        if not strict and not self._has(position.variant, counts, "dtw"):
            return None
        code = tf.value(i)
        if code == DRAW:
            return None
        table = self.dtw_table(position.variant, Subspace(*counts))
        if code == WIN and table.pruned():
            return self._won_dtw(position, strict)
        return table.distance("dtw", i, tf)

    def _won_dtw(self, position: Position, strict: bool) -> int | None:
        """The dtw of a win whose file keeps the losses only (docs/format.md, pruned dtw files):
        1 + the least dtw of a move into a lost position, read from the children's files; None
        where one of them has no dtw file (unless ``strict``)."""
        best = None
        for turn in position.legal_turns():
            child = position.play_turn(turn)
            r, ctf, ci = self._db_probe_at(child)
            if r.value != ("win" if child.turn == position.turn else "loss"):
                continue
            d = self._dtw_at(child, ctf, ci, strict)
            if d is None:
                return None
            best = d + 1 if best is None else min(best, d + 1)
        if best is None:
            raise CorruptDatabaseError(f"{position}: a win in its values file, but no move leads "
                                       "into a lost position of the files")
        return best

    def _searching(self, position: Position) -> bool:
        return self.search_mode == "always" and position.in_placement

    def probe(self, position: Position) -> ProbeResult:
        """Value and distance of ``position`` (see the table in the module docstring); a value
        found by search has ``dtc`` None."""
        if self._searching(position):
            return ProbeResult(self._search_value(position), None)
        try:
            return self._db_probe(position)
        except MissingSubspaceError as exc:
            if not self._may_search(position, exc):
                raise
            return ProbeResult(self._search_value(position), None)

    def probe_wdl(self, position: Position) -> str:
        """Only the value; reads no distance block."""
        if self._searching(position):
            return self._search_value(position)
        try:
            tf, i = self._slot_or_end(position)
        except MissingSubspaceError as exc:
            if not self._may_search(position, exc):
                raise
            return self._search_value(position)
        if tf is None:
            return i
        if position.limit is not None:  # the value at the counter needs the distance
            return self._read(tf, i, position).value
        return VALUE_NAMES[tf.value(i)]

    def get(self, position: Position, default=None):
        """``probe`` that returns ``default`` where nothing covers the position."""
        try:
            return self.probe(position)
        except MissingSubspaceError:
            return default

    def reply_values(self, position: Position) -> list[str]:
        """The value of each legal move for the side making it, read without distances."""
        out = []
        for turn in position.legal_turns():
            child = position.play_turn(turn)
            v = self.probe_wdl(child)
            out.append(v if child.turn == position.turn else _NEGATE[v])
        return out

    def analyze(self, position: Position) -> Analysis:
        """The position's value and every legal move's value and distance, best first. Where a
        search was needed (``source == "search"``) the searched moves have no distance."""
        t0 = time.perf_counter()
        loaded_before = self._search.loaded(position.variant)
        missing = None
        me = me_tf = me_i = None
        if not self._searching(position):
            try:
                me, me_tf, me_i = self._db_probe_at(position)
            except MissingSubspaceError as exc:
                if not self._may_search(position, exc):
                    raise
                missing = exc.subspace
        infos = []
        pm = game_of(position.variant).hand_pairs  # every placement leaves its subspace
        for turn in position.legal_turns():
            move = position.move_of_turn(turn)
            child = position.play_turn(turn)
            same_side = child.turn == position.turn
            try:
                if self._searching(child):
                    raise MissingSubspaceError("searching every placement position")
                r, ctf, ci = self._db_probe_at(child)
            except MissingSubspaceError as exc:
                if not (self._searching(child) or self._may_search(child, exc)):
                    raise
                missing = missing or exc.subspace
                v = self._search_value(child)
                infos.append(MoveInfo(move, v if same_side else _NEGATE[v], None))
                continue
            value = r.value if same_side else _NEGATE[r.value]
            draw = draw_distance = None
            if value == "draw":
                dtc = dtw = None
                child_draw = self._draw_at(child, ctf, ci)
                if child_draw is not None:
                    draw = child_draw.value if same_side else -child_draw.value
                    exit_ = turn[2] or (turn[0] < 0 if pm else position.in_placement)
                    draw_distance = 1 if exit_ else child_draw.distance + 1
            else:
                if turn[2] or (turn[0] < 0 if pm else position.in_placement and not child.in_placement):
                    dtc = 1  # a conversion: a removal, the end of placement, any placement of Lasker's
                else:
                    dtc = r.dtc + 1
                child_dtw = self._dtw_at(child, ctf, ci)
                dtw = None if child_dtw is None else child_dtw + 1
            infos.append(MoveInfo(move, value, dtc, dtw, draw, draw_distance))
        search = any(m.dtc is None and m.value != "draw" for m in infos) or (
            me is None and bool(infos))
        if search:
            infos.sort(key=lambda m: (VALUE_RANK[m.value], str(m.move)))
        else:
            infos.sort(key=move_order_key)
        category = None
        if me is None:  # the best of the moves
            me = ProbeResult(infos[0].value, None) if infos else ProbeResult("loss", 0)
        elif position.variant.limited:
            category = self.category(position)
        load = 0.0 if loaded_before else self._search.load_seconds(position.variant)
        return Analysis(position, me.value, me.dtc, infos,
                        dtw=None if search or me.value == "draw" else self._dtw_at(position, me_tf, me_i),
                        draw=self._draw_at(position, me_tf, me_i) if me_tf is not None and me.value == "draw" else None,
                        source="search" if search else "database",
                        search_seconds=time.perf_counter() - t0 if search else 0.0,
                        load_seconds=load if search else 0.0,
                        missing=missing if search else None, category=category)

    # ------------------------------------------------------------------ search
    def _may_search(self, position: Position, exc: MissingSubspaceError) -> bool:
        """Whether a lookup that found no file may fall back on search (a placement position,
        search allowed, and movement databases to search over)."""
        if self.search_mode == "never" or not position.in_placement:
            return False
        return self.search_for(position.variant) is not None

    def search_for(self, variant):
        """The placement search of ``variant`` (loaded once per rules and piece count; None when
        no directory holds all its movement files): ``search.SearchFallback``."""
        return self._search.get(variant)

    def prepare_search(self, variant) -> threading.Thread | None:
        """Load the search of ``variant`` in a background thread when some placement position
        of its game has no file (so that the first search later does not wait for the
        movement values); None when nothing needs it."""
        if self.search_mode == "never" or self._search.loaded(variant):
            return None
        start = Position.start(variant)
        top = Subspace(0, 0, start.mover_hand, start.opponent_hand)
        if self.search_mode == "auto" and all(self._has(variant, (s.m, s.o, s.hm, s.ho))
                                              for s in placement_closure(variant, [top])):
            return None
        return self._search.prepare(variant)

    def _search_value(self, position: Position) -> str:
        value = self._search.value(position)
        if value is None:
            raise self._missing(position.variant, self._subspace(position))
        return value


def open_tablebase(path=None, *, shipped: bool = True, search: str = "auto",
                   max_open: int = MAX_OPEN) -> Tablebase:
    """Open the databases under ``path`` (a directory, a list of them, or None), then the
    shipped data, then search (see the module docstring). At most ``max_open`` files stay open
    at once (lookups.files). A context manager."""
    return Tablebase(path, shipped=shipped, search=search, max_open=max_open)
