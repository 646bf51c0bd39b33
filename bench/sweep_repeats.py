"""How many of the placement sweep's visits repeat a position (issue 31).

    python3 bench/sweep_repeats.py [--variant standard]

The sweep (kernels/placement.py) walks, for each orbit representative M of the mover's pieces,
every opponent mask O on the points M leaves free. Where M has a nontrivial stabilizer, the
positions (M, O) and (M, h(O)) for h in it are one position; the sweep evaluates only the
image with the least O since 8903d09. Prints, per count m of the mover's pieces and in all,
the visits of the walk, the positions (Burnside's count, the files' "positions") and the
share of the visits that repeat a position (the work the sweep no longer does).
"""

import argparse
from collections import defaultdict
from math import comb


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="standard")
    args = ap.parse_args(argv)

    from morris.core.variants import get_variant
    from morris.hashing.index import Hasher, count_positions
    from morris.hashing.subspaces import placement_subspaces

    v = get_variant(args.variant)
    hasher = Hasher(v.board)
    subs = placement_subspaces(v)
    ob = hasher.orbits({s.m for s in subs})
    n = v.board.n
    visits, positions = defaultdict(int), defaultdict(int)
    for s in subs:
        reps = int(ob.reps_off[s.m + 1] - ob.reps_off[s.m])
        visits[s.m] += reps * comb(n - s.m, s.o)
        positions[s.m] += count_positions(v.board, s.m, s.o)
    print(f"{'m':>3} {'visits':>16} {'positions':>16} {'repeats':>8}")
    for m in sorted(visits):
        print(f"{m:>3} {visits[m]:>16,} {positions[m]:>16,} "
              f"{1 - positions[m] / visits[m]:>8.2%}")
    tv, tp = sum(visits.values()), sum(positions.values())
    print(f"all {tv:>16,} {tp:>16,} {1 - tp / tv:>8.2%}  ({len(subs)} placement subspaces)")


if __name__ == "__main__":
    main()
