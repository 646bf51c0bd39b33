"""Value codes and the rules' numbers: the one definition shared by the rules, the solvers, the
kernels and the file format (this module imports nothing, so the kernels may read it).

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

#: Pieces at or below which a player flies (when flying is on), and below which a player loses
#: (the rules' numbers, named once for the rules layer and the kernels alike).
FLY_AT = 3
LOSE_BELOW = 3

#: name of each game value code
VALUE_NAMES = ("draw", "win", "loss")
#: the same value seen by the other side
NEGATE_NAME = {"win": "loss", "loss": "win", "draw": "draw"}
#: rank of each value for the side to move, best first (for sorting moves)
VALUE_RANK = {"win": 0, "draw": 1, "loss": 2}
#: the value as a score (the search's +1 / 0 / -1), and back
SCORE_OF_CODE = {WIN: 1, DRAW: 0, LOSS: -1}
NAME_OF_SCORE = {1: "win", 0: "draw", -1: "loss"}
#: how a finished game reads for the side to move
RESULT_WORDS = {"win": "won", "loss": "lost", "draw": "drawn"}

#: Draw values (docs/draws.md) lie in -RANK_MAX .. RANK_MAX; a draw-value plane stores V + DV0
#: for a draw and 0 for anything else (a byte per slot).
RANK_MAX = 100
DV0 = 128
