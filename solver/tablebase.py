"""Lookup API: the perfect-play value of a position and of each of its moves.

    >>> from morris.tablebase import open_tablebase
    >>> from morris.position import Position
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

A finished game (fewer than 3 pieces after placement, or no legal move) is probed without any
file, with ``dtc`` 0. During placement the distance counts plies to the next removal or to the
end of placement, whichever comes first (see placement.py).

Directory layout: ``DIR/<ruleset>/<subspace>.mtb``, where the ruleset names the board and rule
options (``standard``, ``six-nofly``, ...). ``open_tablebase`` takes ``DIR`` (or a ruleset
directory itself). The rules come from the file headers: probing a position of other rules is
a :class:`VariantMismatchError`, a missing file a :class:`MissingSubspaceError` (a ``KeyError``)
and a damaged one a :class:`CorruptDatabaseError`.

Thread safety: a ``Tablebase`` may be shared between threads; files open under a lock. A
file's block cache is not locked: its entries are immutable bytes, and two threads that miss on
the same block at once both decompress it (harmless, no wrong answer).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import NamedTuple

from . import rules
from .codes import NEGATE_NAME, VALUE_NAMES
from .dbfile import SUFFIX, TableFile, ruleset_fields
from .errors import CorruptDatabaseError, MissingSubspaceError, VariantMismatchError
from .index import Hasher
from .subspaces import Subspace
from .position import Move, Position
from .symmetry import SymmetryGroup

_NEGATE = NEGATE_NAME


class ProbeResult(NamedTuple):
    """Value ('win', 'draw', 'loss') for the side to move, and dtc (None for draws)."""

    value: str
    dtc: int | None


@dataclass(frozen=True)
class MoveInfo:
    """A legal move with its value and distance from the point of view of the player making it."""

    move: Move
    value: str
    dtc: int | None

    def to_json(self):
        return {"move": str(self.move), "value": self.value, "dtc": self.dtc}


@dataclass
class Analysis:
    position: Position
    value: str
    dtc: int | None
    moves: list = field(default_factory=list)
    source: str = "database"  # or "search": values by alpha-beta, no distances

    def to_json(self, notation: str = "compact"):
        pos = self.position.to_fen() if notation == "fen" else self.position.to_compact()
        return {
            "position": pos,
            "value": self.value,
            "dtc": self.dtc,
            "moves": [m.to_json() for m in self.moves],
        }


def move_order_key(info: MoveInfo):
    """Best first: wins soonest, then draws, then losses latest."""
    if info.value == "win":
        return (0, info.dtc, str(info.move))
    if info.value == "draw":
        return (1, 0, str(info.move))
    return (2, -(info.dtc or 0), str(info.move))


class Tablebase:
    """Databases under a directory; see the module docstring."""

    def __init__(self, path):
        self.path = os.fspath(path)
        if not os.path.isdir(self.path):
            raise MissingSubspaceError(f"{self.path}: no such database directory")
        self._files = {}
        self._hashers = {}
        self._lock = threading.Lock()

    def close(self):
        with self._lock:
            for tf in self._files.values():
                tf.close()
            self._files.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------ files
    def directory(self, variant) -> str:
        sub = os.path.join(self.path, variant.ruleset_id)
        if os.path.isdir(sub):
            return sub
        if os.path.basename(os.path.normpath(self.path)) == variant.ruleset_id:
            return self.path
        return sub

    def table(self, variant, sub: Subspace) -> TableFile:
        key = (variant.ruleset_id, sub.m, sub.o, sub.hm, sub.ho)
        tf = self._files.get(key)
        if tf is not None:
            return tf
        variant.require_solvable()
        with self._lock:
            tf = self._files.get(key)
            if tf is not None:
                return tf
            path = os.path.join(self.directory(variant), sub.name + SUFFIX)
            try:
                tf = TableFile(path)
            except FileNotFoundError:
                raise MissingSubspaceError(
                    f"no database for subspace {sub} of ruleset {variant.ruleset_id} "
                    f"({path} is missing; solve it with: morris solve --out {self.path} "
                    f"{variant.cli_flags()} {sub})"
                ) from None
            want = ruleset_fields(variant)
            got = {k: tf.header.get(k) for k in want}
            if got != want:
                tf.close()
                raise VariantMismatchError(f"{path} holds rules {got}, not the rules {want}")
            if tf.header.get("subspace") != sub.name or tf.header.get("points") != list(variant.board.points):
                tf.close()
                raise CorruptDatabaseError(f"{path}: header names subspace {tf.header.get('subspace')}")
            if variant.board.name not in self._hashers:
                # the file records the symmetry group its hash used: no need to search for it
                perms = tf.header.get("symmetry_perms")
                group = SymmetryGroup(perms) if perms else None
                self._hashers[variant.board.name] = Hasher(variant.board, group)
            self._files[key] = tf
            return tf

    def _hasher(self, board) -> Hasher:
        h = self._hashers.get(board.name)
        if h is None:
            h = self._hashers[board.name] = Hasher(board)
        return h

    def slot(self, position: Position):
        """(table, slot) of a non-terminal position."""
        mover, opp = position.mover, position.opponent
        m, o, hm, ho = mover.bit_count(), opp.bit_count(), position.mover_hand, position.opponent_hand
        tf = self._files.get((position.variant.ruleset_id, m, o, hm, ho))
        if tf is None:
            tf = self.table(position.variant, Subspace(m, o, hm, ho))
        i = self._hasher(position.board).index_py(mover, opp, orbit_of=tf.orbit_of)
        return tf, i

    # ------------------------------------------------------------------ probes
    def _slot_or_end(self, position: Position):
        """(table, slot), or (None, value) for a finished game: decided by piece count, or by
        having no legal move where no file covers the position (files store those as lost)."""
        # a blocked side to move is stored in the files as a loss in 0: no move generation here
        end = rules.decided_by_count(position.mover, position.opponent, position.mover_hand,
                                       position.opponent_hand)
        if end is not None:
            return None, end
        try:
            return self.slot(position)
        except MissingSubspaceError:
            if not rules.has_turns(position.variant, position.mover, position.opponent,
                                     position.mover_hand, position.opponent_hand):
                return None, "loss"
            raise

    def probe(self, position: Position) -> ProbeResult:
        """Value and distance of ``position`` (see the table in the module docstring)."""
        tf, i = self._slot_or_end(position)
        if tf is None:
            return ProbeResult(i, 0)
        code, dtc = tf.value_dtc(i)
        return ProbeResult(VALUE_NAMES[code], dtc)

    def probe_wdl(self, position: Position) -> str:
        """Only the value; reads no distance block."""
        tf, i = self._slot_or_end(position)
        if tf is None:
            return i
        return VALUE_NAMES[tf.value(i)]

    def get(self, position: Position, default=None):
        """``probe`` that returns ``default`` where no database covers the position."""
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
        """The position's value and every legal move's value and distance, best first."""
        me = self.probe(position)
        infos = []
        for turn in position.legal_turns():
            move = position.move_of_turn(turn)
            child = position.play_turn(turn)
            r = self.probe(child)
            same_side = child.turn == position.turn
            value = r.value if same_side else _NEGATE[r.value]
            if value == "draw":
                dtc = None
            elif turn[2] or (position.in_placement and not child.in_placement):
                dtc = 1  # a conversion: a removal, or the end of placement
            else:
                dtc = r.dtc + 1
            infos.append(MoveInfo(move, value, dtc))
        infos.sort(key=move_order_key)
        return Analysis(position, me.value, me.dtc, infos)


def open_tablebase(path) -> Tablebase:
    """Open the databases under ``path`` (a context manager)."""
    return Tablebase(path)
