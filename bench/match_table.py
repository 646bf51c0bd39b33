"""Issue 20's match table: every bot against every fallible opponent, from the start, one
`morris match` command per cell.

    python3 bench/match_table.py --db tb [--games 200] [--seed 1] [--jobs 2]
        [--bots perfect,perfect:replies,epsilon:0] [--opponents epsilon:0.02,epsilon:0.01,search:2,search:4]
        [--results matches.jsonl] [--write-doc]

Bots: ``perfect`` (draw values), ``perfect:replies`` (the bot before them: most losing replies),
``epsilon:0`` (any value-best move at random, so among draws any drawing move). Each cell is one
command, printed before it runs, e.g. ``morris match --db tb --a perfect --b epsilon:0.02 --games
200 --seed 1 --json``; its result is appended to --results as one JSON line, so a killed run
resumes with the cells it has not finished. --write-doc puts the table into docs/benchmarks.md.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def command(db, bot, opponent, games, seed, variant):
    return ["morris", "match", "--db", db, "--variant", variant, "--a", bot, "--b", opponent,
            "--games", str(games), "--seed", str(seed), "--json"]


def load(path):
    """{(bot, opponent, games, seed, variant): result} of the cells already played."""
    done = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    done[(r["a"], r["b"], r["games"], r["seed"], r["variant"])] = r
    return done


def run_cell(cmd, key, path):
    t = time.perf_counter()
    # `morris` as this interpreter runs it (so a virtual environment not on PATH works too)
    out = subprocess.run([sys.executable, "-m", "morris.cli.main", *cmd[1:]], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    r = json.loads(out.stdout)
    r.update(a=key[0], b=key[1], games=key[2], seed=key[3], variant=key[4],
             seconds=round(time.perf_counter() - t, 1), command=" ".join(cmd[:-1]))
    with open(path, "a") as f:  # one line per cell, appended whole
        f.write(json.dumps(r) + "\n")
    return r


def table(rows, bots, opponents):
    by = {(r["a"], r["b"]): r for r in rows}
    lines = ["| opponent | " + " | ".join(f"`{b}` W / D / L" for b in bots) + " |",
             "|---|" + "---:|" * len(bots)]
    for o in opponents:
        cells = []
        for b in bots:
            r = by.get((b, o))
            cells.append("not run" if r is None else f"{r['wins']} / {r['draws']} / {r['losses']}")
        lines.append(f"| `{o}` | " + " | ".join(cells) + " |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="cells played at once")
    ap.add_argument("--bots", default="perfect,perfect:replies,epsilon:0")
    ap.add_argument("--opponents", default="epsilon:0.02,epsilon:0.01,search:2,search:4")
    ap.add_argument("--results", default="matches.jsonl")
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args()
    bots, opponents = args.bots.split(","), args.opponents.split(",")
    done = load(args.results)
    todo = []
    for o in opponents:
        for b in bots:
            key = (b, o, args.games, args.seed, args.variant)
            if key not in done:
                todo.append((command(args.db, b, o, args.games, args.seed, args.variant), key))
    print(f"{len(done)} cells done, {len(todo)} to play", flush=True)
    with ThreadPoolExecutor(max(1, args.jobs)) as ex:
        for r in ex.map(lambda c: run_cell(c[0], c[1], args.results), todo):
            print(f"{r['a']} vs {r['b']}: {r['wins']} / {r['draws']} / {r['losses']} "
                  f"({r['seconds']} s): {r['command']}", flush=True)
    rows = [r for r in load(args.results).values()
            if r["games"] == args.games and r["seed"] == args.seed and r["variant"] == args.variant]
    lines = table(rows, bots, opponents)
    print("\n".join(lines))
    if args.write_doc:
        from _report import write_section

        cmds = sorted({r["command"] for r in rows})
        write_section(f"matches-{args.variant}", "\n".join(
            [f"`python3 bench/match_table.py --db {args.db} --variant {args.variant} --games {args.games} "
             f"--seed {args.seed}`: wins / draws / losses of each bot (the row's opponent the other "
             f"side), {args.games} games a cell, colours alternating; each cell is the command below it.", ""]
            + lines + ["", "Commands:", ""] + [f"- `{c}`" for c in cmds]))


if __name__ == "__main__":
    main()
