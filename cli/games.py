"""The commands that play games: ``line`` (the perfect-play line), ``play`` (against the perfect
player, or a weaker one) and ``match`` (two players, many games)."""

from __future__ import annotations

import json
import os
import sys

import click

from morris.apps import reports
from morris.core.position import Position

from .options import (Number, OutFile, ask_line, echo_lines, lookup_db_option, make_variant, open_lookup,
                      quiet_option, reporter_of, search_option, seed_option, variant_options)

#: --opponent / --a / --b: the players of players.py
PLAYERS = ("perfect, perfect:replies (the perfect player without draw values), random, epsilon:E (a random "
           "move with probability E) or search:D (alpha-beta, depth D)")


@click.command()
@click.argument("position")
@lookup_db_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the moves and how it ends.")
@seed_option
@variant_options
def line(position, db, as_json, seed, **kw):
    """The perfect-play line from POSITION to the end of the game (a draw: to a threefold
    repetition), one move per line with its value, dtw and dtc for the side playing it."""
    from morris.apps.bot import perfect_line

    pos = Position.parse(position, make_variant(kw))
    with open_lookup(db) as tb:
        steps, end, error = perfect_line(tb, pos, seed or 0)
    echo_lines([reports.line_json(position, steps, end)] if as_json else reports.line_lines(steps, end))
    if error is not None:  # the moves so far are printed; why it stopped, on one line
        raise error


def seconds(ms):
    """--movetime's milliseconds as seconds (None: the players' default)."""
    return None if ms is None else ms / 1000


@click.command()
@click.argument("position", required=False, default="start")
@lookup_db_option
@click.option("--as", "side", type=click.Choice(["white", "black"]), default="white", show_default=True,
              help="The side you play.")
@click.option("--opponent", default="perfect", show_default=True, help=f"The bot: {PLAYERS}.")
@click.option("--movetime", type=Number(1, 10 ** 7), default=None, metavar="MS",
              help="Milliseconds a move of a searching player (search:D) may take "
                   "(default 10000); it answers with the deepest ply it finished.")
@seed_option
@search_option
@variant_options
def play(position, db, side, opponent, movetime, seed, use_search, **kw):
    """Play against the perfect player (or a weaker one: --opponent) in the terminal.

    Type moves as tokens (d2, d2-d3, g1xd2); a move that closes a mill asks which piece to
    remove when you leave the removal out. 'moves' lists the legal moves, 'quit' ends."""
    from morris.apps.console import ConsoleGame
    from morris.core.game import Game
    from morris.core.position import COLOR_NAMES

    from morris.apps.players import make_player

    game = Game(Position.parse(position, make_variant(kw)))
    with open_lookup(db, use_search) as tb:
        bot = None if opponent == "perfect" else make_player(opponent, tb, game.start.variant, seed,
                                                             seconds(movetime))
        status = ConsoleGame(game, tb, COLOR_NAMES.index(side), seed, ask=ask_line, say=click.echo,
                             opponent=bot).run()
    sys.exit(status)


@click.command()
@click.option("--a", "a_spec", default="perfect", show_default=True, help=f"Player A: {PLAYERS}.")
@click.option("--b", "b_spec", default="epsilon:0.05", show_default=True, help="Player B (the same choices).")
@click.option("--games", type=Number(1, 100000), default=200, show_default=True,
              help="Games, colours alternating (A is white in the first).")
@click.option("--max-plies", type=Number(1, 100000), default=1000, show_default=True,
              help="A game still going after this many plies counts as a draw.")
@lookup_db_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--movetime", type=Number(1, 10 ** 7), default=None, metavar="MS",
              help="Milliseconds a move of a searching player (search:D) may take "
                   "(default 10000); it answers with the deepest ply it finished.")
@quiet_option
@seed_option
@variant_options
def match(a_spec, b_spec, games, max_plies, db, as_json, movetime, quiet, progress, seed, **kw):
    """Play A against B from the start; print A's wins, draws and losses, its score and the
    95% interval."""
    from morris.apps.players import make_player, play_match

    variant = make_variant(kw)
    with open_lookup(db) as tb:
        make_player(a_spec, tb, variant), make_player(b_spec, tb, variant)  # bad names: refused now
        tb.prepare_search(variant)
        t = seconds(movetime)
        with reporter_of(quiet, progress).bar(total=games, desc="match", unit="game") as bar:
            r = play_match(lambda s: make_player(a_spec, tb, variant, s, t),
                           lambda s: make_player(b_spec, tb, variant, s, t), games, Position.start(variant),
                           seed or 0, max_plies, on_game=lambda n, result: bar.update(1))
    r.a, r.b = a_spec, b_spec
    echo_lines([json.dumps(r.to_json())] if as_json else reports.match_lines(r))


@click.command()
@click.argument("source", required=False, default="-", metavar="[FILE|-]")
@lookup_db_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game per line.")
@click.option("--slip", type=Number(0, 10000), default=None, metavar="PLIES",
              help="Plies a win may take longer (a loss end sooner) than the best before the move "
                   "counts as a slip (default 2).")
@click.option("--graph", "graph_path", type=OutFile(), default=None, metavar="FILE.svg",
              help="Also draw each game's course as SVG, or PNG where FILE ends in .png (needs "
                   "matplotlib); FILE-2.svg, ... for more games.")
@click.option("--openspiel", "from_openspiel", is_flag=True,
              help="The input is OpenSpiel nine_mens_morris action histories, one game a line "
                   "(numbers separated by spaces or commas).")
@quiet_option
@search_option
@variant_options
def annotate(source, db, as_json, slip, graph_path, from_openspiel, quiet, progress, use_search, **kw):
    """Grade every ply of one or more played games (FILE, or '-' for stdin): blunder (the value
    dropped), slip (the value kept, the distance or the draw value worse than the best), best.

    Reads the toolkit's move tokens or Sanmill's move lists: move numbers, tag lines in
    brackets (a FEN tag for another start), results; several games in one file."""
    from morris.apps.annotate import DEFAULT_SLIP, annotate_game, game_json, table_lines
    from morris.core.atomic import write_atomic
    from morris.core.records import read_games

    text = read_source(source)
    if from_openspiel:
        from morris.apps.openspiel import records_of_histories

        text = records_of_histories(text)
    games = read_games(text, make_variant(kw))  # every record played before anything is printed
    with open_lookup(db, use_search) as tb, \
            reporter_of(quiet, progress).bar(total=len(games), desc="annotate", unit="game") as bar:
        lines, graphs = [], []
        draw = graph_drawer(graph_path)
        for record, game in games:
            ann = annotate_game(tb, record, game, DEFAULT_SLIP if slip is None else slip)
            lines += [json.dumps(game_json(ann))] if as_json else table_lines(ann) + [""]
            if draw:
                graphs.append(draw(ann))
            bar.update(1)
    echo_lines(lines[:-1] if lines and not lines[-1] else lines)
    if graph_path:
        stem, dot, ext = graph_path.rpartition(".") if "." in os.path.basename(graph_path) else (graph_path, "", "")
        for i, picture in enumerate(graphs, start=1):
            path = graph_path if i == 1 else f"{stem}-{i}{dot}{ext}"
            write_atomic(path, picture)
            click.echo(f"wrote {path}", err=True)


def graph_drawer(graph_path):
    """What draws one game's course for ``--graph FILE``: PNG bytes where FILE ends in .png
    (matplotlib), SVG bytes otherwise; None without --graph."""
    if not graph_path:
        return None
    if graph_path.lower().endswith(".png"):
        from morris.apps.plots import need_pyplot, graph_png

        need_pyplot("--graph FILE.png")  # refused before any game is graded where matplotlib is missing
        return graph_png
    from morris.apps.annotate import graph_svg

    return lambda ann: graph_svg(ann).encode()


def read_source(source: str) -> str:
    """The text of FILE or of stdin ('-'), refused with the reason where it is not readable text."""
    from morris.core.errors import UsageError

    if source == "-":
        return sys.stdin.read()
    try:
        with open(source, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {source}: {exc.strerror if isinstance(exc, OSError) else 'not UTF-8 text'}") from None

