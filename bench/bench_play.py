"""Time perfect play from the first move: the bot against itself, as `morris play` runs it.

    python3 bench/bench_play.py --db tb [--games 3] [--seed 1]

Opens the tablebase the way `morris play --db DB` does (--db, then the shipped book, then search
over the movement databases, loaded in the background from the start), plays whole games, and
prints the time of every move's choice: median and maximum per game and over all games, and how
many moves needed a search. Also times `morris query --db DB start` in a new process.
"""

import argparse
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default=None)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-moves", type=int, default=200)
    args = ap.parse_args()

    from morris.apps.bot import PerfectPlayer
    from morris.core.game import Game
    from morris.core.position import Position
    from morris.lookups.tablebase import open_tablebase
    from morris.core.variants import get_variant

    cmd = [sys.executable, "-c", "import sys; from morris.cli.main import main; main(sys.argv[1:])",
           "query", "start"] + (["--db", args.db] if args.db else [])
    qs = []
    for _ in range(3):
        t = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        qs.append(time.perf_counter() - t)
        assert out.returncode == 0, out.stderr
    print(f"morris query start (new process, 3 runs): median {statistics.median(qs):.2f} s "
          f"({', '.join(f'{x:.2f}' for x in qs)}); first line: {out.stdout.splitlines()[0]}")

    v = get_variant("standard")
    all_times = []
    searched = 0
    for g in range(args.games):
        t0 = time.perf_counter()
        with open_tablebase(args.db) as tb:
            tb.prepare_search(v)
            opened = time.perf_counter() - t0
            bot = PerfectPlayer(tb, seed=args.seed + g)
            game = Game(Position.start(v))
            times = []
            while game.result is None and len(game.moves) < args.max_moves:
                t = time.perf_counter()
                choice = bot.choose(game.position)
                times.append(time.perf_counter() - t)
                searched += choice.analysis.source == "search"
                game.push(choice.move)
        all_times += times
        print(f"game {g + 1}: {len(times)} moves, result {game.result or 'unfinished'} "
              f"({game.reason}); per move median {statistics.median(times):.3f} s, max "
              f"{max(times):.2f} s (move {times.index(max(times)) + 1}); opened in {opened:.2f} s")
    print(f"all games: {len(all_times)} moves, median {statistics.median(all_times):.3f} s, "
          f"max {max(all_times):.2f} s; {searched} moves valued by search")


if __name__ == "__main__":
    main()
