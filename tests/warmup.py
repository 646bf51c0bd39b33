"""Compiling the kernels once for the whole suite, not once per worker.

Under the README's command each of the two xdist workers compiles every numba kernel its tests
call (numba's on-disk cache is cold in a fresh clone), so most kernels were compiled twice. Here
each worker first compiles its half, by solving and verifying a tiny game that calls those
kernels with the same array types as the tests: ``gw0`` the solver's and verifier's kernels of
the two-phase games, ``gw1`` those of the place-or-move game, the search and perft. Each writes
numba's cache; the kernels of the other half are then loaded from it, not compiled again.
"""

from __future__ import annotations

import tempfile


def _whole(variant):
    from morris.core.progress import Reporter
    from morris.solving.schedule import solve
    from morris.solving.verify import verify

    with tempfile.TemporaryDirectory() as d:
        solve(d, variant, phase="all", reporter=Reporter(quiet=True), dtw=True, draws=True)
        report = verify(d)
        assert report.ok, "the warm-up's tiny game did not verify"


def solver_kernels():
    """The two-phase games' solve, dtw, draw values and verify (standard board, 3 a side)."""
    from morris.core.variants import get_variant

    _whole(get_variant("standard-3"))


def other_kernels():
    """The place-or-move game's (Six Men's board, 3 a side), the placement search, perft."""
    from morris.core.position import Position
    from morris.core.variants import BOARDS, Variant, get_variant
    from morris.hashing.perft import perft

    v = get_variant("lasker", pieces=3, flying=True)
    _whole(Variant("lasker", BOARDS["six"], v.rules))
    start = Position.parse("start", get_variant("standard"))
    perft(start, 2)
    perft(start, 2, parallel=False)


def run(worker: int) -> None:
    (solver_kernels if worker % 2 == 0 else other_kernels)()
