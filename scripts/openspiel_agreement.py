"""OpenSpiel's nine_mens_morris against the toolkit's rules, over random games to their end:

    python3 scripts/openspiel_agreement.py [--games 200] [--seed 0]

At every state, OpenSpiel's legal actions must be the first actions of the toolkit's legal turns
(or, after a move that closed a mill, their captures: morris.openspiel); at every end, a win in
OpenSpiel must be the toolkit's (rules.terminal), and a draw OpenSpiel's length cap. Prints the
states compared and the mismatches; exits 1 if there is any. Needs the [openspiel] extra."""

from __future__ import annotations

import argparse
import random
import sys
import time


def main(argv=None) -> int:
    import pyspiel

    from morris.core import rules
    from morris.openspiel import actions_of, replay

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    game = pyspiel.load_game("nine_mens_morris")
    t0 = time.perf_counter()
    states = bad = wins = draws = 0
    for g in range(args.games):
        rng = random.Random(args.seed + g)
        s = game.new_initial_state()
        while not s.is_terminal():
            _, pos, pending = replay(s.history())
            if pending is None:
                mine = {actions_of(m)[0] for m in pos.legal_moves()}
            else:
                done = len(pending.removes)
                mine = {actions_of(m)[1 + done] for m in pos.legal_moves()
                        if (m.frm, m.to) == (pending.frm, pending.to)}
            states += 1
            if mine != set(s.legal_actions()):
                bad += 1
                print(f"game {g}: {pos.to_compact()}: OpenSpiel {sorted(s.legal_actions())}, toolkit {sorted(mine)}")
            s.apply_action(rng.choice(s.legal_actions()))
        _, pos, _ = replay(s.history())
        end = rules.terminal(pos.variant, *pos.state)
        if s.returns()[0] == 0:
            draws += 1
            ok = end is None
        else:
            wins += 1
            ok = end == "loss" and s.returns()[pos.turn] == -1.0
        if not ok:
            bad += 1
            print(f"game {g}: ends {s.returns()} after {len(s.history())} actions; the toolkit: "
                  f"{end} for {pos.to_compact()}")
    print(f"{args.games} games ({wins} won, {draws} drawn), {states:,} states, "
          f"{bad} mismatches, {time.perf_counter() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
