"""The no-removal limit: values that depend on a counter of plies without a removal.

Under a limit of L plies a position carries a counter c (plies of the movement phase since the
last removal; 0 at the start of the movement phase and after every removal; placement plies do
not count). From the side to move's view: no legal move loses (even at c >= L); otherwise c >= L
is a draw; otherwise the best move counts, a move without removal leading to the same subspace
at c + 1, a removal to the subspace below at c = 0. With ``--endgame-no-removal-limit E`` the
limit of a subspace in which a side has exactly 3 pieces is E instead of L.

Why one number per position is enough. Let r = L - c be the plies left. ``Win_r`` (``Loss_r``)
is the set of positions that the side to move wins (loses) with r plies left. ``Loss_0`` holds
the positions without a legal move and ``Win_0`` is empty; then ``Win_r`` holds the positions
with a removal into a position lost at counter 0, or a move into ``Loss_{r-1}``; ``Loss_r`` those
with a move, all of whose removals lead to positions won at counter 0 and all other moves into
``Win_{r-1}``. By induction both sequences only grow with r, so each position has a least r
where it enters ``Win`` (or ``Loss``), its *distance under the limit* d, and at counter c it is a
win (loss) exactly when ``d <= L - c``, else a draw. These are the levels of the ordinary
retrograde analysis (retro.py) when removals are valued by the solved subspaces' values at
counter 0 under the limit, stopped after level L: that is how limited databases are solved.

What a file of limited rules stores per position:

================ ============ ========= ===================================================
category         value plane  curse     meaning (at counter 0)
================ ============ ========= ===================================================
``win``          win          0         wins; at counter c when dtc <= L - c
``cursed-win``   draw         1         a win without the limit, a draw under it
``draw``         draw         0         a draw with or without the limit
``blessed-loss`` draw         2         a loss without the limit, a draw under it
``loss``         loss         0         loses; at counter c when dtc <= L - c
================ ============ ========= ===================================================

The value plane and ``dtc`` are the values at counter 0 and the distances under the limit; the
curse plane (2 bits, nearly all zero) compares them with the unlimited values, which the solver
reads from the databases of the same rules without the limit (solved first, in their own
directory). A limit only turns wins and losses into draws, never the other way: the solver
checks it on every position.

Placement positions have counter 0 (placement plies do not count), so their value under the
limit is the value at counter 0; the placement sweep reads the movement phase's values at
counter 0 and needs nothing else.

Sanmill's N-move settings count plies and declare the draw when *more than* N plies have passed
without a removal, that is at c = N + 1: the app's N is ``--no-removal-limit N+1`` here (and its
endgame N is ``--endgame-no-removal-limit N+1``).
"""

from __future__ import annotations

from .codes import LOSS, WIN

def category(value: int, curse: int) -> str:
    """The category of a position from its value code at counter 0 and its curse code."""
    if value == WIN:
        return "win"
    if value == LOSS:
        return "loss"
    return ("draw", "cursed-win", "blessed-loss")[curse]


def value_at(value: str, dtc: int | None, limit: int, counter: int) -> str:
    """The value at ``counter`` of a position whose value at counter 0 is ``value`` ('win',
    'draw', 'loss') with distance under the limit ``dtc``."""
    if value == "draw" or dtc is None or dtc > limit - counter:
        return "draw"
    return value


def check_counter(variant, counter: int, m: int, o: int, placement: bool) -> str | None:
    """What is wrong with a no-removal counter for a position (None when it is fine)."""
    if counter == 0:
        return None
    if counter < 0:
        return f"the no-removal counter must be 0 or more, got {counter}"
    if not variant.limited:
        return (f"a no-removal counter ({counter}) needs a limit: give --no-removal-limit "
                f"(the counter only means something under one)")
    if placement:
        return (f"a no-removal counter of {counter} during placement: placement plies do not "
                f"count, the counter starts at 0 with the movement phase")
    limit = variant.rules.limit_of(m, o)
    if limit is None:
        return (f"a no-removal counter of {counter} where no limit applies (only the endgame "
                f"limit is set and no side has 3 pieces)")
    if counter > limit:
        return f"the no-removal counter {counter} is above the limit of {limit} plies"
    return None

