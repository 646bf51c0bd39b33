"""Value codes: the one definition shared by the solvers, the kernels and the file format.

A value plane holds one code per hash slot, from the side to move's point of view:

====  ==========  =============================================================
code  name        meaning
====  ==========  =============================================================
0     ``draw``    neither side can force a win
1     ``win``     the side to move wins
2     ``loss``    the side to move loses
3     unused      a hash slot that holds no position (never a game value)
====  ==========  =============================================================

``ONGOING`` is what the kernels' ``terminal`` answers for a game that goes on; it is never
stored. The file format packs codes in 2 bits, so they must stay below 4.
"""

DRAW, WIN, LOSS, UNUSED = 0, 1, 2, 3
ONGOING = 4

#: name of each game value code
VALUE_NAMES = ("draw", "win", "loss")
#: the same value seen by the other side
NEGATE_NAME = {"win": "loss", "loss": "win", "draw": "draw"}
