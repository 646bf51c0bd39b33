"""``morris``: the command-line face of the toolkit. Each command parses its options, calls the
library and prints what morris.apps.reports makes of the result.

Errors are printed on one line as ``ErrorName: message`` (errors.py): the user's input exits
with status 2, a missing or damaged database file with 3 (options.py).
"""

from __future__ import annotations

import json
import os
import sys

# numba loads the BLAS that scipy brings where scipy is installed; OpenBLAS starting its threads
# under a memory limit (ulimit -v) can spin for ever or abort. The toolkit uses no BLAS: one
# thread, so that running short of memory stays the one ResourceError line (exit 4).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import click  # noqa: E402

from morris.apps import reports  # noqa: E402
from morris.apps.advice import error_line  # noqa: E402
from morris.core.errors import DataError, MorrisError, UsageError  # noqa: E402
from morris.core.position import Position  # noqa: E402

from . import help as help_table
from .options import (Dir, MorrisGroup, Number, OutFile, db_option, echo_above_bars, echo_lines,
                      lookup_db_option, make_variant, open_lookup, quiet_option, reporter_of,
                      say_search, search_option, seed_option, variant_options)


@click.group(cls=MorrisGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="morris-solver")
def cli():
    """Nine Men's Morris toolkit: rules, endgame databases, perfect play.

    POSITION arguments take the compact notation ("a1,d1,g1/a7,d7,g7 w", with "w 7 8" for
    pieces in hand), Sanmill's FEN, or "start". morris COMMAND -h gives a command's options and
    an example; start with: morris query start
    """


@cli.command()
@click.argument("position")
@click.option("--svg", "svg_path", type=OutFile(), default=None, metavar="FILE",
              help="Also write the board as an SVG picture to FILE.")
@click.option("--flip", is_flag=True, help="With --svg: black at the bottom.")
@click.option("--last", "last_move", default=None, metavar="MOVE", help="With --svg: mark this move (e.g. g1-d3xa7).")
@variant_options
def show(position, svg_path, flip, last_move, **kw):
    """Draw POSITION in the terminal (and as SVG with --svg FILE)."""
    variant = make_variant(kw)
    pos = Position.parse(position, variant)
    if (last_move or flip) and not svg_path:
        raise UsageError("--last and --flip draw the SVG picture: give --svg FILE too")
    if svg_path:
        from morris.core.atomic import write_atomic
        from morris.apps.svg import board_svg

        write_atomic(svg_path, board_svg(pos, flipped=flip, last_move=last_move).encode())
        click.echo(f"wrote {svg_path}", err=True)
    echo_lines(reports.show_lines(pos))


@cli.command()
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of move tokens.")
@variant_options
def moves(position, as_json, **kw):
    """List the legal turns of POSITION (removals included in each token)."""
    variant = make_variant(kw)
    pos = Position.parse(position, variant)
    tokens = [str(m) for m in pos.legal_moves()]
    echo_lines([json.dumps(tokens)] if as_json else [f"{len(tokens)} legal moves", *tokens])


@cli.command()
@click.argument("position")
@click.argument("depth", type=Number(0))
@click.option("--python", is_flag=True, help="Use the pure-Python reference generator.")
@click.option("--divide", is_flag=True, help="Print the count below each first move.")
@variant_options
def perft(position, depth, python, divide, **kw):
    """Count the sequences of DEPTH turns from POSITION."""
    from morris.hashing.perft import report

    lines, seconds = report(Position.parse(position, make_variant(kw)), depth, divide, python)
    echo_lines(lines)
    click.echo(f"time: {seconds:.3f} s", err=True)


@cli.command("rules")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of {name, variant, flags, options, source}.")
def rules_command(as_json):
    """The rule presets (--rules NAME): the rules of the sites and apps of docs/rules.md, each
    with the options it stands for and where its rules are written down."""
    rows = reports.preset_rows()
    echo_lines([json.dumps(rows)] if as_json else reports.preset_lines(rows))


@cli.command()
@click.option("--phase", type=click.Choice(["movement", "placement", "all"]), default="movement",
              show_default=True, help="Which subspaces to list.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of {subspace, slots, positions}.")
@variant_options
def subspaces(phase, as_json, **kw):
    """Every subspace with its hash slots and its number of distinct positions.

    Positions are orbits under the board's symmetries, counted by Burnside's lemma
    independently of the hash; slots are what the perfect hash allocates."""
    rows = reports.subspace_rows(make_variant(kw), phase)
    if as_json:
        click.echo(json.dumps(rows))
    else:
        echo_lines(reports.subspace_table(rows))


@cli.command()
@click.argument("subspace_names", metavar="[SUBSPACE]...", nargs=-1)
@click.option("--out", "out", required=True, type=Dir(exists=False), help="Database directory.")
@click.option("--phase", type=click.Choice(["movement", "placement", "all"]), default="movement",
              show_default=True, help="Without SUBSPACE: which phase to solve (placement needs movement).")
@click.option("--max-pieces", type=Number(3, 12), default=None, help="Only movement subspaces with at most N a side.")
@click.option("--jobs", type=Number(1, 256), default=None,
              help="Worker processes solving independent subspaces at once, each on a share of the "
                   "cores; a subspace of 100 M positions or more runs alone on every core "
                   "(default: one at a time, in this process).")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run on a Dask cluster (scheduler address), or local:N for a LocalCluster of N workers.")
@click.option("--plan", "show_plan", is_flag=True, help="Print the jobs and the critical path; solve nothing.")
@click.option("--dtw", is_flag=True, help="Also the distance to the end of the game (.mtw files).")
@click.option("--draws", is_flag=True, help="Also the draw values (.mdv files; docs/draws.md).")
@click.option("--full-dtw", is_flag=True, help="Keep the wins' dtw too (not pruned: docs/format.md).")
@click.option("--keep-memory", is_flag=True,
              help="Keep the memory each job frees for the next: faster where fresh memory is "
                   "costly (virtual machines), at a higher peak (docs/benchmarks.md).")
@quiet_option
@variant_options
def solve(subspace_names, out, phase, max_pieces, jobs, dask_address, show_plan, quiet, progress, dtw, draws,
          full_dtw, keep_memory, **kw):
    """Solve subspaces into database files under OUT/<ruleset>/.

    SUBSPACE names a movement subspace (9-8) or a placement one (5-4+4+4: on the board, then in
    hand). With none, every subspace of --phase (movement: those with at most --max-pieces a
    side). Dependencies are solved first, each as soon as its inputs exist; complete files are
    kept, so an interrupted run resumes where it stopped.
    """
    from morris.solving import schedule
    from morris.hashing.subspaces import Subspace

    variant = make_variant(kw)
    targets = [Subspace.parse(name) for name in subspace_names] or None
    if max_pieces is not None and (phase != "movement" or any(t.placement for t in targets or [])):
        raise UsageError("--max-pieces applies to the movement phase only")
    job_list, deps = schedule.job_graph(variant, targets, max_pieces, phase, dtw, draws)
    if show_plan:
        echo_lines(reports.plan_lines(variant, job_list, deps, out if os.path.isdir(out) else None))
        return
    reporter = reporter_of(quiet, progress)
    kwargs, close = schedule.executor_options(variant, reporter, jobs, dask_address)
    try:
        summary = schedule.solve(out, variant, targets=targets, max_pieces=max_pieces, phase=phase,
                                 reporter=reporter, dtw=dtw, draws=draws, prune_dtw=not full_dtw,
                                 keep_memory=keep_memory, **kwargs)
    finally:
        close()
    click.echo(reports.solve_line(summary, out))


@cli.command("verify-draw")
@click.option("--db", type=Dir(exists=True), default=None,
              help="Use the databases here (nothing is solved). Without it, what is missing is "
                   "solved into ./tb first.")
@click.option("--method", type=click.Choice(["search", "sweep"]), default="search", show_default=True,
              help="search: alpha-beta over placement on the movement databases; sweep: the "
                   "placement databases (solved if missing).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@quiet_option
@variant_options
def verify_draw(db, method, as_json, quiet, progress, **kw):
    """Compute the value of the start position, and say how."""
    from morris.apps.start_value import start_value

    r = start_value(make_variant(kw), db, method, reporter_of(quiet, progress))
    if as_json:
        click.echo(json.dumps(r.to_json()))
    else:
        click.echo(f"{r.variant}: the start position is {r.verdict}, by {r.how}, in {r.seconds:.1f} s")


@cli.command()
@click.argument("positions", nargs=-1, required=True)
@lookup_db_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per position per line.")
@search_option
@variant_options
def query(positions, db, as_json, use_search, **kw):
    """Value and distance of each POSITION and of every legal move ('-' reads stdin).

    Looked up in --db, then in the shipped data (Six Men's Morris; the standard game's opening
    book: the first 9 plies), then valued by exact search where only the movement databases are there."""
    variant = make_variant(kw)
    failed = 0
    with open_lookup(db, use_search) as tb:
        for text in reports.read_positions(positions, sys.stdin):
            try:
                pos = Position.parse(text, variant)
                a = tb.analyze(pos)
                say_search(a)
            except MorrisError as exc:
                failed = min(failed or exc.exit_status, exc.exit_status)  # bad input first
                if as_json:
                    click.echo(json.dumps({"position": text, "error": error_line(exc, db)}))
                else:
                    click.echo(f"{text}: {error_line(exc, db)}", err=True)
                continue
            if as_json:
                obj = a.to_json()
                obj["position"] = text
                click.echo(json.dumps(obj))
            else:
                echo_lines(reports.analysis_lines(pos, a))
    if failed:
        sys.exit(failed)


@cli.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="A JSON list, one object per subspace.")
@click.option("--plot", "plot_path", type=OutFile(), default=None, metavar="FILE",
              help="Also draw how wins and losses spread over distance, per subspace (PNG or SVG; needs matplotlib).")
def stats(db, as_json, plot_path):
    """Per subspace: positions, wins, draws and losses for the side to move, longest win and
    loss, file size and bits per position."""
    from morris.database.folders import find_tables

    if plot_path:
        from morris.apps.plots import plot_distances

        n = plot_distances(find_tables(db), plot_path)
        click.echo(f"wrote {plot_path} ({n} subspace{'s' * (n != 1)})", err=True)
    rows = reports.stats_rows(find_tables(db))
    if as_json:
        click.echo(json.dumps(rows))
    elif not rows:
        click.echo(f"no databases under {db}")
    else:
        echo_lines(reports.stats_table(rows))


@cli.command()
@db_option
@click.option("--checksums-only", is_flag=True, help="Only check headers and checksums.")
@click.option("--sample", type=Number(1), default=None, metavar="N",
              help="Check files of more than N slots on a fixed random sample of N slots "
                   "(default: every position).")
@click.option("--kind", "kinds", type=click.Choice(["values", "dtw", "draws"]), multiple=True,
              help="Recompute only these files (repeatable; default: every kind). Every "
                   "file's checksum is checked still.")
@click.option("--subspace", "subspaces", multiple=True, metavar="NAME",
              help="Recompute only the files of this subspace (repeatable, e.g. 9-8 or "
                   "8-8+1+1; default: every one). Every file's checksum is checked still.")
@quiet_option
def verify(db, checksums_only, sample, kinds, subspaces, quiet, progress):
    """Check every file's checksum, then recompute every stored value from the stored values
    of its successors (a forward check independent of the solver). Exit 0 only when all agree,
    3 (a damaged database) when any file fails."""
    from morris.solving.verify import verify as run

    report = run(db, reporter_of(quiet, progress), forward=not checksums_only, sample=sample,
                 on_file=lambda f: echo_above_bars(reports.verify_line(f)),
                 kinds=kinds or None, subspaces=subspaces or None)
    click.echo(reports.verify_summary(report, db))
    if not report.ok:
        sys.exit(DataError.exit_status)


@cli.command()
@click.argument("position")
@lookup_db_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@seed_option
@search_option
@variant_options
def bestmove(position, db, as_json, seed, use_search, **kw):
    """The perfect player's move in POSITION, with its value and distance."""
    from morris.apps.bot import PerfectPlayer, bestmove_json

    variant = make_variant(kw)
    pos = Position.parse(position, variant)
    with open_lookup(db, use_search) as tb:
        choice = PerfectPlayer(tb, seed).choose(pos)
        say_search(choice.analysis if choice else None)
    if as_json:
        click.echo(json.dumps(bestmove_json(choice, position)))
    else:
        click.echo(reports.choice_line(choice))


@cli.command()
@click.option("--db", type=Dir(exists=False), default=None, help="Database directory.")
@search_option
@variant_options
def engine(db, use_search, **kw):
    """Speak the UCI-style engine protocol of Sanmill on stdin/stdout."""
    from morris.apps.engine import run

    run(db, make_variant(kw), use_search=use_search)


@cli.command()
@lookup_db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0 exposes it).")
@click.option("--port", default=8080, show_default=True, type=Number(0, 65535))
@click.option("--quiet", is_flag=True, help="Do not log requests.")
def serve(db, host, port, quiet):
    """Serve the databases over HTTP: the explorer at / and a JSON API (/api/probe,
    /api/bestmove; described at /openapi.json). Needs the web extra."""
    from morris.apps.server import serve as run

    def ready(url):
        click.echo(f"serving {db or 'the shipped data'}: explorer at {url}, API at {url}api/probe?position=... (Ctrl-C stops)", err=True)

    try:
        run(db, host, port, quiet=quiet, ready=ready)
    except KeyboardInterrupt:
        pass


from .games import annotate, line, match, play  # noqa: E402 (commands of their own file)

for command in (line, play, match, annotate):
    cli.add_command(command)

help_table.apply(cli)  # every command's line in `morris --help` and its example (cli/help.py)


def main(argv=None):
    cli.main(args=argv, prog_name="morris")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
