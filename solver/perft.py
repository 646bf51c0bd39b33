"""perft: count turn sequences, with the numba generator or the pure-Python reference."""

from __future__ import annotations

from . import rules
from .position import Position

#: deepest perft accepted (each ply needs a turn buffer; depth 7 from the start takes minutes)
MAX_DEPTH = 32


def _kernel_args(pos: Position):
    rules = pos.variant.rules
    return (
        pos.board.tables, rules.flying, rules.double_mill_removes,
        pos.mover, pos.opponent, pos.mover_hand, pos.opponent_hand,
    )


def perft(pos: Position, depth: int, *, python: bool = False, parallel: bool = True) -> int:
    """Number of sequences of ``depth`` whole turns from ``pos``."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if python:
        return rules.perft_state(pos.variant, *pos.state, depth)
    from .kernels.bitboard import perft as kperft
    from .kernels.bitboard import perft_parallel

    fn = perft_parallel if parallel else kperft
    return int(fn(*_kernel_args(pos), depth))


def divide(pos: Position, depth: int, *, python: bool = False) -> list[tuple[str, int]]:
    """perft split by first move: ``[(token, count), ...]`` sorted by token."""
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    out = []
    for move in pos.legal_moves():
        out.append((str(move), perft(pos.play(move), depth - 1, python=python, parallel=False)))
    return out
