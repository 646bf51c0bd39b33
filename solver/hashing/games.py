"""A game as one unit: its board and rules, its subspace graph, the job kinds it needs, and its
rules turned into the kernels' arguments once.

``game_of(variant)`` is the one place that turns rule flags into the answers the solver, the
lookups, the verifier's drivers and the apps ask for:

=====================  ==========================================================================
``args``               :class:`KernelRules`, the frozen tuple of rule scalars every solver kernel
                       takes as its one rules argument (``R``): ``flying``, ``dm`` (pieces a
                       double mill removes), ``count_hand``, ``pm`` (place-or-move turn),
                       ``full_draw`` (a full board is drawn)
``hand_pairs``         whether the subspaces with pieces in hand are solved as pairs by retrograde
                       analysis (Lasker Morris's place-or-move turn) or in one forward pass a
                       layer at a time (the other games)
``job_kinds``          the job kinds of a complete solve, in the order they run
``inputs(sub)``        the subspaces whose files the job of ``sub`` reads
``limit(sub)``         the no-removal limit of a subspace's positions (None: none)
``mover_flies(sub)``   whether the side to move in ``sub`` flies (``opponent_flies(sub)``: its
                       opponent)
=====================  ==========================================================================

A new game is a :class:`~morris.core.variants.Variant` (a board and rules,
``core/variants.py``): nothing here branches on a game's name, so a game with new rule values
needs no change here (docs/architecture.md, "Adding a game").
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field
from functools import lru_cache

from .subspaces import (Subspace, hand_children, opponent_flies, pair_children,
                        placement_inputs)

#: the rules as the kernels see them, built once per game: ``dm`` an int, the others bools
KernelRules = namedtuple("KernelRules", "flying dm count_hand pm full_draw")

#: job kinds of a complete solve (solving/jobs.py names each kind's classes)
VALUES, DTW, DRAWS = "values", "dtw", "draws"


@dataclass(frozen=True)
class GameSpec:
    """What the solver asks of a game (module docstring); made by :func:`game_of`."""

    variant: object
    args: KernelRules = field(init=False)

    def __post_init__(self):
        r = self.variant.rules
        object.__setattr__(self, "args", KernelRules(
            bool(r.flying), int(r.double_mill_removes), bool(r.count_hand), bool(r.place_or_move),
            bool(self.variant.full_board_draws)))

    @property
    def board(self):
        return self.variant.board

    @property
    def rules(self):
        return self.variant.rules

    @property
    def family(self) -> str:
        """The name its measured solving rates go by (solving/schedule.RATES): ``lasker`` for
        the place-or-move turn, else its board's (``standard``, ``six``, ``morabaraba``)."""
        return "lasker" if self.hand_pairs else self.board.name

    @property
    def hand_pairs(self) -> bool:
        """Whether the subspaces with pieces in hand are solved as pairs (module docstring)."""
        return bool(self.args.pm)

    @property
    def job_kinds(self) -> tuple:
        """The kinds of the jobs of a complete solve (``--phase all --dtw --draws``): the pairs'
        values, dtw and draw values, then (unless hand pairs hold them) the placement layers."""
        pairs = ("movement pair", "hand pair") if self.hand_pairs else ("movement pair",)
        return tuple(f"{p} {k}" for k in (VALUES, DTW, DRAWS) for p in pairs) + (
            () if self.hand_pairs else ("placement",))

    def children(self, sub: Subspace) -> list:
        """Per exit kind of a hand pair's part ``sub``, the subspace it leads to, or None
        (subspaces.hand_children)."""
        return hand_children(sub, self.args.dm)

    def pair_inputs(self, top: Subspace) -> list[Subspace]:
        """The subspaces whose files the pair of ``top`` reads: where its removals lead (a
        movement pair), or where each part's exits lead (a hand pair)."""
        out = []
        for sub in top.pair:
            for c in (self.children(sub) if top.placement else [pair_children(top)[sub]]):
                if c is not None and c not in out:
                    out.append(c)
        return out

    def placement_inputs(self, sub: Subspace) -> list[Subspace]:
        """The subspaces whose files a placement subspace (solved forward) reads."""
        return placement_inputs(sub, self.args.dm, bool(self.args.count_hand))

    def inputs(self, sub: Subspace) -> list[Subspace]:
        """The subspaces whose files the job holding ``sub`` reads."""
        if sub.placement and not self.hand_pairs:
            return self.placement_inputs(sub)
        return self.pair_inputs(sub.pair[0])

    def limit(self, sub: Subspace) -> int | None:
        """The no-removal limit of ``sub``'s positions (None: none; placement has none)."""
        return None if sub.placement else self.rules.limit_of(sub.m, sub.o)

    def opponent_flies(self, sub: Subspace) -> bool:
        """Whether the opponent of the side to move in ``sub`` flies (subspaces.opponent_flies)."""
        return opponent_flies(self.variant, sub)

    def mover_flies(self, sub: Subspace) -> bool:
        """Whether the side to move in ``sub`` flies."""
        return opponent_flies(self.variant, sub.sibling)


@lru_cache(maxsize=64)
def game_of(variant) -> GameSpec:
    """The game of ``variant`` (one per board and rules: variants are frozen and hashable)."""
    return GameSpec(variant)
