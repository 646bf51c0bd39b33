"""What ``morris --help`` lists: one line per command saying what it does, and an example that
``morris COMMAND --help`` shows under its options. One table, applied to the commands once they
are defined (main.py); tests/test_readme.py checks that every command has its row and that each
example names its own command."""

from __future__ import annotations

#: command: (what it does, in one line; an example)
COMMANDS = {
    "query": ("Value and distance of a position and of every move",
              "morris query start"),
    "bestmove": ("The perfect player's move in a position",
                 'morris bestmove --variant six "a1,d1,g1/a7,d7,b6 w"'),
    "line": ("The perfect-play line from a position to the end",
             'morris line --variant six "a4,b6,g1,g4/b4,d6,d7,g7 w"'),
    "play": ("Play against the perfect player in the terminal",
             "morris play --variant six --as black"),
    "match": ("Play two players many games; scores with intervals",
              "morris match --variant six --a perfect --b epsilon:0.05 --games 20"),
    "annotate": ("Grade every ply of played games: best, slip, blunder",
                 "morris annotate club.txt --variant six"),
    "engine": ("Run as an engine speaking Sanmill's UCI-style protocol",
               "morris engine --db tb"),
    "serve": ("Serve the explorer and the JSON API over HTTP",
              "morris serve --db tb --port 8080"),
    "solve": ("Solve databases into OUT; a killed run resumes",
              "morris solve --out tb --max-pieces 4"),
    "verify": ("Check a database: checksums, then every value recomputed",
               "morris verify --db tb --sample 1000"),
    "verify-draw": ("Compute the value of the start position",
                    "morris verify-draw --variant six --db tb"),
    "stats": ("Counts, longest wins and sizes of a database's files",
              "morris stats --db tb"),
    "show": ("Draw a position in the terminal, or as SVG",
             'morris show "a1,d1/d2 w 7 8"'),
    "moves": ("List the legal moves of a position",
              "morris moves start --json"),
    "perft": ("Count the move sequences to a depth (checks the move generator)",
              "morris perft start 4"),
    "subspaces": ("List the subspaces with their slots and positions",
                  "morris subspaces --variant six"),
    "rules": ("List the rule presets (--rules NAME)",
              "morris rules"),
}


def apply(group) -> None:
    """Give every command of ``group`` its line and its example (a KeyError names one without)."""
    for name, command in group.commands.items():
        summary, example = COMMANDS[name]
        command.short_help = summary
        command.epilog = "\b\nExample:\n  " + example
