"""Nine Men's Morris toolkit: rules, perfect hashing, retrograde databases, lookup and play.

The public surface, importable as ``morris.<name>``::

    import morris

    pos = morris.Position.parse("a1,d1,g1,b2/a7,d7,g7 b")        # or a Sanmill FEN, or "start"
    with morris.open_tablebase("tb") as tb:
        tb.probe(pos)                  # ProbeResult(value='win'|'draw'|'loss', dtc=...)
        tb.analyze(pos).moves          # every legal move with its value, best first

Everything else (``morris.index``, ``morris.kernels``, ``morris.schedule``, ...) is internal:
usable, but without a promise that it stays as it is.
"""

from .errors import (
    CorruptDatabaseError, ForeignDatabaseError, IllegalMoveError, IllegalPositionError, MissingSubspaceError, MorrisError,
    OutputError, OutsideDatabaseError, UnknownVariantError, UnsupportedRulesError, UsageError,
    VariantMismatchError,
)
from .game import Game
from .position import BLACK, WHITE, Move, Position
from .tablebase import Analysis, MoveInfo, ProbeResult, Tablebase, open_tablebase
from .variants import VARIANTS, Variant, get_variant
from .version import __version__

__all__ = [
    "__version__",
    # positions and play
    "Position", "Move", "Game", "WHITE", "BLACK",
    # rules
    "Variant", "VARIANTS", "get_variant",
    # lookups
    "open_tablebase", "Tablebase", "ProbeResult", "Analysis", "MoveInfo",
    # errors
    "MorrisError", "IllegalPositionError", "IllegalMoveError", "UnknownVariantError",
    "VariantMismatchError", "MissingSubspaceError", "CorruptDatabaseError", "ForeignDatabaseError",
    "OutsideDatabaseError",
    "UnsupportedRulesError", "UsageError", "OutputError",
]
