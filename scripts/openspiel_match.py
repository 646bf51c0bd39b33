"""The perfect bot (morris.openspiel.make_bot) against OpenSpiel's MCTS bot, in OpenSpiel's own
nine_mens_morris, colours alternating:

    python3 scripts/openspiel_match.py --db tb [--games 20] [--simulations 400] [--seed 0]

MCTS is open_spiel.python.algorithms.mcts.MCTSBot with random rollouts (--rollouts per leaf)
and UCT constant 2. Every game is played to OpenSpiel's end (a win, or a draw at the game's
``max_game_length``). Prints each game, then the perfect bot's wins, draws and losses, the
actions per game and the seconds per action of each bot; exits 1 if the perfect bot lost a game.
Needs the [openspiel] extra and the whole standard game's databases (both phases) in --db, or
the movement phase's with --search auto (placement positions by exact search)."""

from __future__ import annotations

import argparse
import statistics
import sys
import time


def main(argv=None) -> int:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from morris import open_tablebase
    from morris.openspiel import make_bot

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--simulations", type=int, default=400)
    ap.add_argument("--rollouts", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--search", choices=("never", "auto"), default="never",
                    help="auto: placement positions that no file holds are valued by exact search "
                         "over the movement databases (the lookups' fallback); never: files only")
    args = ap.parse_args(argv)
    game = pyspiel.load_game("nine_mens_morris")
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=args.rollouts, random_state=rng)
    tally = {"win": 0, "draw": 0, "loss": 0}
    lengths, secs = [], {"perfect": [], "mcts": []}
    with open_tablebase(args.db, search=args.search) as tb:
        for g in range(args.games):
            perfect = make_bot(tb, seed=args.seed + g)
            opponent = mcts.MCTSBot(game, 2, args.simulations, evaluator, random_state=rng, solve=True)
            seat = g % 2  # the perfect bot's player: 0 (White, first) in even games
            state = game.new_initial_state()
            while not state.is_terminal():
                who = "perfect" if state.current_player() == seat else "mcts"
                t = time.perf_counter()
                action = (perfect if who == "perfect" else opponent).step(state)
                secs[who].append(time.perf_counter() - t)
                state.apply_action(action)
            ret = state.returns()[seat]
            result = "win" if ret > 0 else "loss" if ret < 0 else "draw"
            tally[result] += 1
            lengths.append(len(state.history()))
            print(f"game {g + 1}: perfect bot {'white' if seat == 0 else 'black'}, {result}, "
                  f"{len(state.history())} actions", flush=True)
    print(f"perfect bot against MCTS ({args.simulations} simulations, {args.rollouts} rollout(s)): "
          f"{tally['win']} won, {tally['draw']} drawn, {tally['loss']} lost of {args.games}; "
          f"median {statistics.median(lengths)} actions a game (cap {game.max_game_length()}); "
          f"seconds per action: perfect {statistics.median(secs['perfect']):.3f}, "
          f"MCTS {statistics.median(secs['mcts']):.3f} (medians)")
    return 1 if tally["loss"] else 0


if __name__ == "__main__":
    sys.exit(main())
