"""perft: count turn sequences, with the numba generator or the pure-Python reference."""

from __future__ import annotations

from ..core import rules
from ..core.errors import UsageError
from .games import game_of
from .index import board_tables
from ..core.position import Position

#: deepest perft accepted (each ply needs a turn buffer; depth 7 from the start takes minutes)
MAX_DEPTH = 32


def _kernel_args(pos: Position):
    """The perft kernels' arguments before the depth: the board's tables, the game's rules
    (games.KernelRules) and the position."""
    return (board_tables(pos.board), game_of(pos.variant).args,
            pos.mover, pos.opponent, pos.mover_hand, pos.opponent_hand)


def perft(pos: Position, depth: int, *, python: bool = False, parallel: bool = True) -> int:
    """Number of sequences of ``depth`` whole turns from ``pos``. Under a no-removal limit that
    the sequences can reach, the positions themselves are walked (their counter ends the game
    at the limit; the generators know no counter)."""
    check_depth(depth)
    if _limit_reachable(pos, depth):
        if depth == 0:
            return 1
        return sum(perft(pos.play_turn(t), depth - 1, python=python, parallel=False)
                   for t in pos.legal_turns())
    if python:
        return rules.perft_state(pos.variant, *pos.state, depth)
    from ..kernels.bitboard import perft as kperft  # (lazy: imports numba)
    from ..kernels.bitboard import perft_parallel  # (lazy: imports numba)

    fn = perft_parallel if parallel else kperft
    return int(fn(*_kernel_args(pos), depth))


def check_depth(depth: int) -> None:
    if depth < 0:
        raise UsageError(f"perft depth must be 0 or more, got {depth}")
    if depth > MAX_DEPTH:
        raise UsageError(f"perft depth {depth} is too deep: at most {MAX_DEPTH} plies "
                         f"(depth 7 from the start already takes minutes)")


def _limit_reachable(pos: Position, depth: int) -> bool:
    """Whether a no-removal limit can end the game within ``depth`` plies from ``pos``."""
    r = pos.variant.rules
    limits = [x for x in (r.no_removal_limit, r.endgame_no_removal_limit) if x is not None]
    return bool(limits) and pos.no_removal_plies + depth >= min(limits)


def divide(pos: Position, depth: int, *, python: bool = False) -> list[tuple[str, int]]:
    """perft split by first move: ``[(token, count), ...]`` sorted by token."""
    check_depth(depth)
    if depth < 1:
        raise UsageError("divide needs depth 1 or more")
    out = []
    for move in pos.legal_moves():
        out.append((str(move), perft(pos.play(move), depth - 1, python=python, parallel=False)))
    return out


def report(pos: Position, depth: int, divide_first: bool = False, python: bool = False):
    """(lines, seconds) of ``morris perft``: the count below each first move (``divide_first``),
    then ``perft(depth) = N``."""
    import time

    t0 = time.perf_counter()
    lines = []
    if divide_first and depth >= 1:
        rows = divide(pos, depth, python=python)
        lines = [f"{token}: {count}" for token, count in rows]
        total = sum(c for _, c in rows)
    else:
        total = perft(pos, depth, python=python)
    return lines + [f"perft({depth}) = {total}"], time.perf_counter() - t0
