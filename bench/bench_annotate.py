"""Benchmark `morris annotate`: random games (each side picks a legal move at random; a game
ends at its result or after --plies plies), graded against the databases.

    python3 bench/bench_annotate.py --variant six --games 1000 [--db DIR] [--plies 100]

Prints: the warm time to grade one game of --plies plies (the API, ``annotate_game``, median of
5), and the whole command ``morris annotate FILE --variant ... --progress`` over every game
(median of 3 runs, wall time and peak memory by /usr/bin/time). Without --db the shipped data
serve (the whole of Six Men's Morris is shipped).
"""

import argparse
import os
import random
import statistics
import subprocess
import tempfile
import time


def random_games(variant, games: int, plies: int, seed: int):
    from morris.core.game import Game
    from morris.core.position import Position

    rng = random.Random(seed)
    out = []
    for _ in range(games):
        g = Game(Position.start(variant))
        moves = []
        while g.result is None and len(moves) < plies:
            m = rng.choice(g.legal_moves())
            moves.append(str(m))
            g.push(m)
        out.append(moves)
    return out


def main(argv=None):
    from morris import open_tablebase
    from morris.apps.annotate import DEFAULT_SLIP, annotate_game
    from morris.core.records import read_games
    from morris.core.variants import get_variant

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="six")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--plies", type=int, default=100)
    ap.add_argument("--db")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    v = get_variant(args.variant)
    games = random_games(v, args.games, args.plies, args.seed)
    longest = max(games, key=len)
    with open_tablebase(args.db) as tb:
        rec, game = read_games(" ".join(longest) + " *", v)[0]
        annotate_game(tb, rec, game, DEFAULT_SLIP)
        ts = []
        for _ in range(5):
            t0 = time.perf_counter()
            a = annotate_game(tb, rec, game, DEFAULT_SLIP)
            ts.append(time.perf_counter() - t0)
    graded = sum(p.grade != "ungraded" for p in a.plies)
    print(f"one game of {len(longest)} plies ({graded} graded), warm: {statistics.median(ts):.3f} s "
          f"(median of 5)")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "games.txt")
        with open(path, "w") as f:
            f.write("\n".join(" ".join(g) + " *" for g in games) + "\n")
        cmd = ["/usr/bin/time", "-f", "%e %M", "morris", "annotate", path, "--variant", args.variant,
               "--progress"] + (["--db", args.db] if args.db else [])
        runs = []
        for _ in range(3):
            r = subprocess.run(cmd, capture_output=True, text=True, check=True)
            secs, kb = r.stderr.strip().splitlines()[-1].split()
            runs.append((float(secs), int(kb)))
    secs = statistics.median(s for s, _ in runs)
    print(f"{len(games)} games, {sum(map(len, games)):,} plies: morris annotate {secs:.2f} s "
          f"(median of 3), peak {max(k for _, k in runs) / 1024:.0f} MB")


if __name__ == "__main__":
    main()
