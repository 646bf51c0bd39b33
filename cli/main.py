"""``morris``: the command-line face of the toolkit. Each command is a thin wrapper over solver/.

Errors the user can cause (bad positions, moves, variants, database files) are printed on one
line as ``ErrorName: message`` and exit with status 2.
"""

from __future__ import annotations

import json
import sys

import click

from solver.errors import MorrisError


class MorrisGroup(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except MorrisError as exc:
            click.echo(f"{type(exc).__name__}: {exc}", err=True)
            ctx.exit(2)


def variant_options(f):
    """--variant and the rule flags, shared by every command that reads positions."""
    f = click.option(
        "--no-removal-limit", type=click.IntRange(min=1), default=None, metavar="PLIES",
        help="Draw after this many plies without a removal (counted after placement).",
    )(f)
    f = click.option(
        "--double-mill-removes", type=click.IntRange(1, 2), default=None,
        help="Pieces removed when one turn closes two mills (default 1).",
    )(f)
    f = click.option(
        "--flying/--no-flying", default=None,
        help="Whether a player with 3 pieces flies (default: the variant's).",
    )(f)
    f = click.option(
        "--variant", default="standard", show_default=True,
        help="standard, standard-3 .. standard-8, six.",
    )(f)
    return f


def make_variant(kw: dict):
    from solver.variants import get_variant

    return get_variant(
        kw.pop("variant"),
        flying=kw.pop("flying"),
        double_mill_removes=kw.pop("double_mill_removes"),
        no_removal_limit=kw.pop("no_removal_limit"),
    )


def read_position(text: str, variant):
    from solver.position import Position

    if text.strip().lower() in ("start", "startpos"):
        return Position.start(variant)
    return Position.parse(text, variant)


@click.group(cls=MorrisGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="morris-solver")
def cli():
    """Nine Men's Morris toolkit: rules, endgame databases, perfect play.

    POSITION arguments take the compact notation ("a1,d1,g1/a7,d7,g7 w", with "w 7 8" for
    pieces in hand), Sanmill's FEN, or "start".
    """


@cli.command()
@click.argument("position")
@variant_options
def show(position, **kw):
    """Draw POSITION in the terminal."""
    from solver.movegen import outcome

    variant = make_variant(kw)
    pos = read_position(position, variant)
    click.echo(pos.diagram())
    click.echo(f"compact: {pos.to_compact()}")
    try:
        click.echo(f"fen:     {pos.to_fen()}")
    except MorrisError:
        pass
    result = outcome(pos)
    if result is not None:
        click.echo(f"game over: {result} for the side to move")


@cli.command()
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of move tokens.")
@variant_options
def moves(position, as_json, **kw):
    """List the legal turns of POSITION (removals included in each token)."""
    variant = make_variant(kw)
    pos = read_position(position, variant)
    tokens = [str(m) for m in pos.legal_moves()]
    if as_json:
        click.echo(json.dumps(tokens))
    else:
        click.echo(f"{len(tokens)} legal moves")
        for t in tokens:
            click.echo(t)


@cli.command()
@click.argument("position")
@click.argument("depth", type=click.IntRange(min=0))
@click.option("--python", is_flag=True, help="Use the pure-Python reference generator.")
@click.option("--divide", is_flag=True, help="Print the count below each first move.")
@variant_options
def perft(position, depth, python, divide, **kw):
    """Count the sequences of DEPTH turns from POSITION."""
    import time

    from solver import perft as pf

    variant = make_variant(kw)
    pos = read_position(position, variant)
    t0 = time.perf_counter()
    if divide and depth >= 1:
        rows = pf.divide(pos, depth, python=python)
        for token, count in rows:
            click.echo(f"{token}: {count}")
        total = sum(c for _, c in rows)
    else:
        total = pf.perft(pos, depth, python=python)
    dt = time.perf_counter() - t0
    click.echo(f"perft({depth}) = {total}")
    click.echo(f"time: {dt:.3f} s", err=True)


@cli.command()
@click.option("--phase", type=click.Choice(["movement", "placement", "all"]), default="movement",
              show_default=True, help="Which subspaces to list.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of {subspace, slots, positions}.")
@variant_options
def subspaces(phase, as_json, **kw):
    """Every subspace with its hash slots and its number of distinct positions.

    Positions are orbits under the board's symmetries, counted by Burnside's lemma
    independently of the hash; slots are what the perfect hash allocates."""
    from solver.index import count_positions, movement_subspaces, placement_subspaces, slot_count

    variant = make_variant(kw)
    board = variant.board
    subs = []
    if phase in ("movement", "all"):
        subs += movement_subspaces(variant)
    if phase in ("placement", "all"):
        subs += placement_subspaces(variant)
    rows = [
        {"subspace": s.name, "slots": slot_count(board, s), "positions": count_positions(board, s.m, s.o)}
        for s in subs
    ]
    if as_json:
        click.echo(json.dumps(rows))
        return
    click.echo(f"{'subspace':>12} {'slots':>15} {'positions':>15} {'ratio':>7}")
    for r in rows:
        click.echo(f"{r['subspace']:>12} {r['slots']:>15,} {r['positions']:>15,} {r['slots'] / r['positions']:>7.4f}")
    slots = sum(r["slots"] for r in rows)
    positions = sum(r["positions"] for r in rows)
    click.echo(f"{'total':>12} {slots:>15,} {positions:>15,} {slots / positions:>7.4f}")


def main(argv=None):
    cli.main(args=argv, prog_name="morris")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
