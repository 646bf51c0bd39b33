"""Where a fallible player first gives up the value: plays games of A against B from the start
(colours alternating, seeds 0..N-1 as `morris match` seeds its players) and, for each game,
prints the first ply at which B's move turns A's position from drawn (or lost) into won, and in
which phase.

    python3 scripts/first_blunder.py --db tb [--a perfect:replies] [--b search:2] [--games 20]
"""

import argparse
import collections


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--a", default="perfect:replies")
    ap.add_argument("--b", default="search:2")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--max-plies", type=int, default=400)
    args = ap.parse_args()
    from morris.apps.players import make_player
    from morris.core.position import Position
    from morris.lookups.tablebase import open_tablebase
    from morris.core.variants import get_variant

    v = get_variant(args.variant)
    where = collections.Counter()
    with open_tablebase(args.db) as tb:
        for g in range(args.games):
            a, b = make_player(args.a, tb, v, seed=g), make_player(args.b, tb, v, seed=g)
            players = [a, b] if g % 2 == 0 else [b, a]
            pos, found = Position.start(v), None
            for ply in range(args.max_plies):
                if not pos.legal_moves():
                    break
                mover = players[ply % 2]
                before = tb.probe_wdl(pos)
                nxt = pos.play(mover.choose(pos))
                if mover is b and before != "win" and tb.probe_wdl(nxt) == "win":
                    found = (ply, "placement" if pos.in_placement else "movement")
                    break
                pos = nxt
            colour = "white" if g % 2 else "black"
            print(f"game {g}: B ({colour}) " + (f"gives up the value at ply {found[0]} ({found[1]})"
                                                 if found else "never gives up the value"))
            where[found[1] if found else "never"] += 1
    print(dict(where))


if __name__ == "__main__":
    main()
