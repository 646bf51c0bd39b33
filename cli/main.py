"""``morris``: the command-line face of the toolkit. Each command is a thin wrapper over solver/.

Errors the user can cause (bad positions, moves, variants, database files) are printed on one
line as ``ErrorName: message`` and exit with status 2.
"""

from __future__ import annotations

import json
import sys

import click

from morris.errors import MorrisError, UsageError
from morris.position import Move, Position


class MorrisGroup(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except MorrisError as exc:
            click.echo(f"{type(exc).__name__}: {exc}", err=True)
            ctx.exit(2)


def plural(n: int, word: str) -> str:
    """``1 position``, ``2 positions``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def variant_options(f):
    """--variant and the rule flags, shared by every command that reads positions."""
    f = click.option(
        "--endgame-no-removal-limit", type=click.IntRange(min=1), default=None, metavar="PLIES",
        help="The no-removal limit instead, where a side has exactly 3 pieces.",
    )(f)
    f = click.option(
        "--no-removal-limit", type=click.IntRange(min=1), default=None, metavar="PLIES",
        help="Draw after this many plies of the movement phase without a removal (Sanmill's "
             "N-move rule N is N+1 here); positions then take a counter, c=N.",
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
    from morris.variants import get_variant

    return get_variant(
        kw.pop("variant"),
        flying=kw.pop("flying"),
        double_mill_removes=kw.pop("double_mill_removes"),
        no_removal_limit=kw.pop("no_removal_limit"),
        endgame_no_removal_limit=kw.pop("endgame_no_removal_limit"),
    )


#: --db for the commands that read an existing database directory
db_option = click.option("--db", required=True, type=click.Path(exists=True, file_okay=False),
                         help="Database directory.")
#: --db for the lookups: optional, the shipped data and the search come after it
lookup_db_option = click.option(
    "--db", type=click.Path(exists=True, file_okay=False), default=None,
    help="Database directory (looked in first; then the shipped data, then search).")
#: --search for the lookups
search_option = click.option(
    "--search", "use_search", is_flag=True,
    help="Value every placement position by exact search over the movement databases, even "
         "where a placement database holds it (without it, search only where none does).",
)


def open_lookup(db, use_search=False):
    """The tablebase of a lookup command: ``db``, then the shipped data, then search."""
    from morris.tablebase import open_tablebase

    return open_tablebase(db, search="always" if use_search else "auto")


def say_search(analysis):
    """The one line that says a search was needed, and how long it took (on stderr)."""
    if analysis is not None and analysis.source == "search":
        why = f"no database holds {analysis.missing}" if analysis.missing else "--search"
        load = (f", {analysis.load_seconds:.2f} s of it loading the movement values"
                if analysis.load_seconds >= 0.01 else "")
        click.echo(f"search: {why}; valued by exact search over the movement databases in "
                   f"{analysis.search_seconds:.2f} s{load}", err=True)


@click.group(cls=MorrisGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="morris-solver")
def cli():
    """Nine Men's Morris toolkit: rules, endgame databases, perfect play.

    POSITION arguments take the compact notation ("a1,d1,g1/a7,d7,g7 w", with "w 7 8" for
    pieces in hand), Sanmill's FEN, or "start".
    """


@cli.command()
@click.argument("position")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the board as an SVG picture to FILE.")
@click.option("--flip", is_flag=True, help="With --svg: black at the bottom.")
@click.option("--last", "last_move", default=None, metavar="MOVE", help="With --svg: mark this move (e.g. g1-d3xa7).")
@variant_options
def show(position, svg_path, flip, last_move, **kw):
    """Draw POSITION in the terminal (and as SVG with --svg FILE)."""
    variant = make_variant(kw)
    pos = Position.parse(position, variant)
    if svg_path:
        from morris.atomic import write_atomic
        from morris.svg import board_svg

        write_atomic(svg_path, board_svg(pos, flipped=flip, last_move=last_move).encode())
        click.echo(f"wrote {svg_path}", err=True)
    click.echo(pos.diagram())
    click.echo(f"compact: {pos.to_compact()}")
    try:
        click.echo(f"fen:     {pos.to_fen()}")
    except MorrisError:
        pass
    result = pos.outcome()
    if result is not None:
        click.echo(f"game over: {result} for the side to move")


@cli.command()
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of move tokens.")
@variant_options
def moves(position, as_json, **kw):
    """List the legal turns of POSITION (removals included in each token)."""
    variant = make_variant(kw)
    pos = Position.parse(position, variant)
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

    from morris import perft as pf

    variant = make_variant(kw)
    pos = Position.parse(position, variant)
    if depth > pf.MAX_DEPTH:
        raise UsageError(f"perft depth {depth} is too deep: at most {pf.MAX_DEPTH} plies "
                         f"(depth 7 from the start already takes minutes)")
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
    from morris.index import count_positions, slot_count
    from morris.subspaces import movement_subspaces, placement_subspaces

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


def parse_subspaces(names):
    from morris.subspaces import Subspace

    out = []
    for name in names:
        try:
            out.append(Subspace.parse(name))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="SUBSPACE") from None
    return out


@cli.command()
@click.argument("subspace_names", metavar="[SUBSPACE]...", nargs=-1)
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), help="Database directory.")
@click.option("--phase", type=click.Choice(["movement", "placement", "all"]), default="movement",
              show_default=True, help="Without SUBSPACE: which phase to solve (placement needs movement).")
@click.option("--max-pieces", type=click.IntRange(3, 12), default=None, help="Only movement subspaces with at most N a side.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes solving independent subspaces at once (default: one, in this process).")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run on a Dask cluster (scheduler address), or local:N for a LocalCluster of N workers.")
@click.option("--plan", "show_plan", is_flag=True, help="Print the jobs and the critical path; solve nothing.")
@click.option("--quiet", is_flag=True, help="No progress output.")
@variant_options
def solve(subspace_names, out, phase, max_pieces, jobs, dask_address, show_plan, quiet, **kw):
    """Solve subspaces into database files under OUT/<ruleset>/.

    SUBSPACE names a movement subspace (9-8) or a placement one (5-4+4+4: on the board, then in
    hand). With none, every subspace of --phase (movement: those with at most --max-pieces a
    side). Dependencies are solved first, each as soon as its inputs exist; complete files are
    kept, so an interrupted run resumes where it stopped.
    """
    from morris import schedule
    from morris.progress import Reporter

    variant = make_variant(kw)
    targets = parse_subspaces(subspace_names) or None
    if max_pieces is not None and (phase != "movement" or any(t.placement for t in targets or [])):
        raise click.UsageError("--max-pieces applies to the movement phase only")
    try:
        job_list, deps = schedule.job_graph(variant, targets, max_pieces, phase)
    except MorrisError:
        raise
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if show_plan:
        p = schedule.critical_path(variant, job_list, deps)
        click.echo(f"{len(p.jobs)} job{'s' * (len(p.jobs) != 1)}, {p.total:,} positions")
        for j in p.jobs:
            needs = ", ".join(d.name for d in p.deps[j]) or "-"
            click.echo(f"  {j.name:<14} {p.weight[j]:>15,} positions  needs {needs}")
        click.echo(f"critical path ({len(p.critical)} jobs, {p.critical_weight:,} positions, "
                   f"{100 * p.critical_weight / max(1, p.total):.1f}% of all):")
        click.echo("  " + " -> ".join(j.name for j in p.critical))
        click.echo(f"no number of machines can finish sooner than the critical path: at most "
                   f"{p.total / max(1, p.critical_weight):.2f}x the speed of one machine of the same kind")
        secs, size = schedule.estimate(variant, p.jobs)
        click.echo(f"estimate: about {schedule.human_time(secs)} on 2 cores and "
                   f"{schedule.human_bytes(size)} of files (rates measured on the standard board, "
                   f"docs/benchmarks.md; complete files are kept, so a rerun does less)")
        return
    reporter = Reporter(quiet=quiet)
    kwargs, close = schedule.executor_options(variant, reporter, jobs, dask_address)
    try:
        summary = schedule.solve(out, variant, targets=targets, max_pieces=max_pieces, phase=phase,
                                 reporter=reporter, **kwargs)
    finally:
        close()
    click.echo(
        f"solved {len(summary.solved)} job{'s' * (len(summary.solved) != 1)}, "
        f"{len(summary.skipped)} already complete, in {summary.seconds:.1f} s; databases in {out}"
    )


@cli.command("verify-draw")
@click.option("--db", type=click.Path(file_okay=False), default=None,
              help="Use the databases here (nothing is solved). Without it, what is missing is "
                   "solved into ./tb first.")
@click.option("--method", type=click.Choice(["search", "sweep"]), default="search", show_default=True,
              help="search: alpha-beta over placement on the movement databases; sweep: the "
                   "placement databases (solved if missing).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--quiet", is_flag=True, help="No progress output.")
@variant_options
def verify_draw(db, method, as_json, quiet, **kw):
    """Compute the value of the start position, and say how."""
    from morris.draw import start_value
    from morris.progress import Reporter

    r = start_value(make_variant(kw), db, method, Reporter(quiet=quiet))
    if as_json:
        click.echo(json.dumps(r.to_json()))
    else:
        click.echo(f"{r.variant}: the start position is {r.verdict}, by {r.how}, in {r.seconds:.1f} s")


def _read_positions(args):
    for a in args:
        if a == "-":
            for line in sys.stdin:
                line = line.strip()
                if line and not line.startswith("#"):
                    yield line
        else:
            yield a


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
        for text in _read_positions(positions):
            try:
                pos = Position.parse(text, variant)
                a = tb.analyze(pos)
                say_search(a)
            except MorrisError as exc:
                failed += 1
                if as_json:
                    click.echo(json.dumps({"position": text, "error": f"{type(exc).__name__}: {exc}"}))
                else:
                    click.echo(f"{text}: {type(exc).__name__}: {exc}", err=True)
                continue
            if as_json:
                obj = a.to_json()
                obj["position"] = text
                click.echo(json.dumps(obj))
            else:
                dist = "" if a.dtc is None else f" in {a.dtc}"
                limit = ""
                if pos.limit is not None:
                    limit = f" (counter {pos.no_removal_plies} of {pos.limit}"
                    limit += f"; at counter 0: {a.category})" if a.category else ")"
                click.echo(f"{pos.to_compact()}: {a.value}{dist} for {('white', 'black')[pos.turn]}{limit}")
                for mi in a.moves:
                    dist = "" if mi.dtc is None else f" {mi.dtc}"
                    click.echo(f"  {str(mi.move):<12} {mi.value}{dist}")
    if failed:
        sys.exit(2)


@cli.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="A JSON list, one object per subspace.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also draw how wins and losses spread over distance, per subspace (PNG or SVG; needs matplotlib).")
def stats(db, as_json, plot_path):
    """Per subspace: positions, wins, draws and losses for the side to move, longest win and
    loss, file size and bits per position."""
    import os

    from morris.dbfile import TableFile
    from morris.verify import find_tables

    rows = []
    if plot_path:
        from morris.plots import plot_distances

        n = plot_distances(find_tables(db), plot_path)
        click.echo(f"wrote {plot_path} ({n} subspace{'s' * (n != 1)})", err=True)
    for path in find_tables(db):
        with TableFile(path) as tf:
            h = tf.header
            rows.append({
                "ruleset": h["ruleset"], "subspace": h["subspace"], "positions": h["positions"],
                "wins": h["wins"], "draws": h["draws"], "losses": h["losses"],
                "max_win_dtc": h["max_win_dtc"], "max_loss_dtc": h["max_loss_dtc"],
                "bytes": os.path.getsize(path),
            })
            if "cursed_wins" in h:  # rules with a no-removal limit
                rows[-1].update(limit=h["limit"], cursed_wins=h["cursed_wins"],
                                blessed_losses=h["blessed_losses"])
    if as_json:
        click.echo(json.dumps(rows))
        return
    if not rows:
        click.echo(f"no databases under {db}")
        return
    curses = any("cursed_wins" in r for r in rows)
    extra = f" {'cursedW':>12} {'blessedL':>12}" if curses else ""
    w = max(10, *(len(r["ruleset"]) for r in rows))
    click.echo(f"{'ruleset':<{w}} {'subspace':>10} {'positions':>14} {'win%':>6} {'draw%':>6} {'loss%':>6} "
               f"{'maxW':>5} {'maxL':>5} {'bytes':>12} {'bits/pos':>8}{extra}")
    for r in rows:
        p = max(1, r["positions"])
        extra = f" {r.get('cursed_wins', 0):>12,} {r.get('blessed_losses', 0):>12,}" if curses else ""
        click.echo(
            f"{r['ruleset']:<{w}} {r['subspace']:>10} {r['positions']:>14,} {100 * r['wins'] / p:>6.2f} "
            f"{100 * r['draws'] / p:>6.2f} {100 * r['losses'] / p:>6.2f} {r['max_win_dtc']:>5} "
            f"{r['max_loss_dtc']:>5} {r['bytes']:>12,} {8 * r['bytes'] / p:>8.3f}{extra}"
        )
    tp = sum(r["positions"] for r in rows)
    tb = sum(r["bytes"] for r in rows)
    click.echo(f"{'total':<{w}} {'':>10} {tp:>14,} {'':>6} {'':>6} {'':>6} {'':>5} {'':>5} {tb:>12,} {8 * tb / max(1, tp):>8.3f}")


@cli.command()
@db_option
@click.option("--checksums-only", is_flag=True, help="Only check headers and checksums.")
@click.option("--sample", type=click.IntRange(min=1), default=None, metavar="N",
              help="Check files of more than N slots on a fixed random sample of N slots "
                   "(default: every position).")
@click.option("--quiet", is_flag=True, help="No progress output.")
def verify(db, checksums_only, sample, quiet):
    """Check every file's checksum, then recompute every stored value from the stored values
    of its successors (a forward check independent of the solver). Exit 0 only when all agree."""
    from morris.progress import Reporter
    from morris.verify import verify as run

    report = run(db, Reporter(quiet=quiet), forward=not checksums_only, sample=sample)
    for f in report.files:
        if f.checksum != "ok":
            click.echo(f"FAIL {f.path}: {f.checksum}")
        elif f.skipped:
            click.echo(f"SKIP {f.path}: {f.skipped}")
        elif f.mismatches:
            curse = f"; curse plane: {f.curse}" if f.curse and f.curse != "ok" else ""
            click.echo(f"FAIL {f.path}: {f.mismatches:,} of {plural(f.checked, 'position')} checked disagree; first {f.first_mismatch}{curse}")
        else:
            if f.checked < f.positions:
                what = f"{f.checked:,} slots of {plural(f.positions, 'position')} (a fixed random sample)"
            else:
                what = plural(f.checked, "position")
            if f.curse:
                what += "; curse plane " + f.curse
            click.echo(f"ok   {f.path}" + (f": {what}" if f.checked else ""))
    if not report.files:
        click.echo(f"no databases under {db}")
    if not report.ok:
        sys.exit(1)
    click.echo(f"{plural(len(report.files), 'file')} verified" if len(report.files) != 1 else "the file verified")


@cli.command()
@click.argument("position")
@lookup_db_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--seed", type=int, default=None, help="Seed for breaking ties between equal moves (default: random each run).")
@search_option
@variant_options
def bestmove(position, db, as_json, seed, use_search, **kw):
    """The perfect player's move in POSITION, with its value and distance."""
    from morris.bot import PerfectPlayer, bestmove_json

    variant = make_variant(kw)
    pos = Position.parse(position, variant)
    with open_lookup(db, use_search) as tb:
        choice = PerfectPlayer(tb, seed).choose(pos)
        say_search(choice.analysis if choice else None)
    if as_json:
        click.echo(json.dumps(bestmove_json(choice, position)))
    elif choice is None:
        click.echo("the game is over")
    else:
        dist = "" if choice.dtc is None else f" in {choice.dtc}"
        click.echo(f"{choice.move} ({choice.value}{dist}; {choice.rule})")


@cli.command()
@click.argument("position", required=False, default="start")
@lookup_db_option
@click.option("--as", "side", type=click.Choice(["white", "black"]), default="white", show_default=True,
              help="The side you play.")
@click.option("--seed", type=int, default=None, help="Seed for the bot's tie-breaks (default: random each run).")
@search_option
@variant_options
def play(position, db, side, seed, use_search, **kw):
    """Play against the perfect player in the terminal.

    Type moves as tokens (d2, d2-d3, g1xd2); a move that closes a mill asks which piece to
    remove when you leave the removal out. 'moves' lists the legal moves, 'quit' ends."""
    from morris.bot import PerfectPlayer
    from morris.game import Game
    from morris.position import WHITE

    variant = make_variant(kw)
    game = Game(Position.parse(position, variant))
    human = WHITE if side == "white" else 1 - WHITE
    click.echo(f"you play {side} ({'O' if human == WHITE else '@'} on the board); the bot plays "
               f"{('white', 'black')[1 - human]}. Type 'moves' for the legal moves, 'quit' to stop.")
    try:
        with open_lookup(db, use_search) as tb:
            tb.prepare_search(variant)
            bot = PerfectPlayer(tb, seed)
            while game.result is None:
                pos = game.position
                click.echo(pos.diagram())
                if pos.limit is not None:
                    click.echo(f"{pos.no_removal_plies} of {pos.limit} plies without a removal")
                if pos.turn == human:
                    text = click.prompt("your move", prompt_suffix="> ", default="", show_default=False).strip()
                    if text in ("quit", "exit", "q"):
                        click.echo("game abandoned")
                        return
                    if text in ("moves", "?", "help"):
                        click.echo("legal moves: " + " ".join(str(m) for m in game.legal_moves()))
                        continue
                    if not text:
                        continue
                    try:
                        move = Move.parse(text)
                        if not move.removes:
                            closing = [m for m in pos.completions(move) if m.removes]
                            if closing:
                                options = sorted({m.removes[0] for m in closing})
                                victim = click.prompt(f"{move} closes a mill: remove which piece? "
                                                      f"({', '.join(options)})", prompt_suffix="> ").strip()
                                move = Move.parse(f"{move}x{victim.lstrip('x')}")
                        game.push(move)
                    except MorrisError as exc:
                        click.echo(f"{type(exc).__name__}: {exc}")
                        continue
                else:
                    try:
                        choice = bot.choose(pos)
                    except MorrisError as exc:
                        click.echo(f"{type(exc).__name__}: {exc}")
                        click.echo("the bot cannot go on from here")
                        return
                    say_search(choice.analysis)
                    dist = "" if choice.dtc is None else f" in {choice.dtc}"
                    click.echo(f"bot plays {choice.move} ({choice.value}{dist} for the bot)")
                    game.push(choice.move)
    except click.Abort:
        click.echo("\nend of input: game abandoned")
        return
    click.echo(game.position.diagram())
    click.echo(f"result {game.result}: {game.reason}")


@cli.command()
@click.option("--db", type=click.Path(file_okay=False), default=None, help="Database directory.")
@search_option
@variant_options
def engine(db, use_search, **kw):
    """Speak the UCI-style engine protocol of Sanmill on stdin/stdout."""
    from morris.engine import run

    run(db, make_variant(kw), use_search=use_search)


@cli.command()
@lookup_db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0 exposes it).")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535))
@click.option("--quiet", is_flag=True, help="Do not log requests.")
def serve(db, host, port, quiet):
    """Serve the databases over HTTP: the explorer at / and a JSON API (/api/probe,
    /api/bestmove; described at /openapi.json). Needs the web extra."""
    from morris.server import serve as run

    def ready(url):
        click.echo(f"serving {db or 'the shipped data'}: explorer at {url}, API at {url}api/probe?position=... (Ctrl-C stops)", err=True)

    try:
        run(db, host, port, quiet=quiet, ready=ready)
    except KeyboardInterrupt:
        pass


def main(argv=None):
    cli.main(args=argv, prog_name="morris")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
