"""Nine Men's Morris toolkit: rules, perfect hashing, retrograde databases, lookup and play.

The public surface, importable as ``morris.<name>``::

    import morris

    pos = morris.Position.parse("a1,d1,g1,b2/a7,d7,g7 b")        # or a Sanmill FEN, or "start"
    with morris.open_tablebase("tb") as tb:
        tb.probe(pos)                  # ProbeResult(value='win'|'draw'|'loss', dtc=...)
        tb.analyze(pos).moves          # every legal move with its value, best first

Everything else is internal: usable, but without a promise that it stays as it is. It lies in
one folder per layer (docs/architecture.md): ``morris.core`` (rules, board, positions),
``morris.kernels``, ``morris.hashing``, ``morris.format``, ``morris.database``, ``morris.solving``,
``morris.lookups``, ``morris.apps`` and ``morris.cli``; ``morris.openspiel`` is the bridge to
OpenSpiel (``morris.apps.openspiel``). The flat names of rounds 1-3 (``morris.tablebase``,
``morris.schedule``, ...) were removed in round 5 (docs/changelog.md).
"""

import importlib
import importlib.abc
import importlib.util
import sys

from .core.errors import (CorruptDatabaseError, ForeignDatabaseError, IllegalMoveError, IllegalPositionError,
                          MissingSubspaceError, MorrisError, OutputError, OutsideDatabaseError,
                          UnknownVariantError, UnsupportedRulesError, UsageError, VariantMismatchError)
from .core.game import Game
from .core.position import BLACK, WHITE, Move, Position
from .lookups.tablebase import Analysis, MoveInfo, ProbeResult, Tablebase, open_tablebase
from .core.variants import PRESETS, VARIANTS, Variant, get_variant
from .core.version import __version__

__all__ = [
    "__version__",
    # positions and play
    "Position", "Move", "Game", "WHITE", "BLACK",
    # rules
    "Variant", "VARIANTS", "PRESETS", "get_variant",
    # lookups
    "open_tablebase", "Tablebase", "ProbeResult", "Analysis", "MoveInfo",
    # errors
    "MorrisError", "IllegalPositionError", "IllegalMoveError", "UnknownVariantError",
    "VariantMismatchError", "MissingSubspaceError", "CorruptDatabaseError", "ForeignDatabaseError",
    "OutsideDatabaseError",
    "UnsupportedRulesError", "UsageError", "OutputError",
]

#: the one module of the public surface outside the package's root: ``morris.openspiel`` is
#: ``morris.apps.openspiel`` (where OpenSpiel's users look for the bridge). The flat module names
#: of rounds 1-3 (``morris.tablebase``, ...) no longer import (round 5, docs/changelog.md).
PUBLIC_MODULES = {"openspiel": "apps"}


class _PublicFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import morris.openspiel`` gives the module ``morris.apps.openspiel`` itself, under both
    names (one set of globals)."""

    def find_spec(self, fullname, path=None, target=None):
        pkg, _, leaf = fullname.partition(".")
        if pkg == __name__ and leaf in PUBLIC_MODULES:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        leaf = spec.name.partition(".")[2]
        module = importlib.import_module(f"{__name__}.{PUBLIC_MODULES[leaf]}.{leaf}")
        spec.loader_state = module.__spec__  # (the import machinery sets the alias's spec on it)
        return module

    def exec_module(self, module):  # the moved module ran when it was imported; its own spec back
        module.__spec__ = module.__spec__.loader_state


sys.meta_path.append(_PublicFinder())
