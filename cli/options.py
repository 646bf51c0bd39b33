"""The options the commands share, the types that check them (through morris.core.inputs), and the
one handler that turns an error into a line and an exit status (morris.core.errors)."""

from __future__ import annotations

import sys

import click

from morris.apps import reports
from morris.apps.advice import error_line
from morris.core.errors import MorrisError, ResourceError, out_of_room


class MorrisGroup(click.Group):
    """Prints every error on one line and exits with its status: a :class:`MorrisError` as
    ``ErrorName: message`` (2 bad input, 3 a missing or damaged database file, 4 out of disk or
    memory), and click's own usage errors (a bad option value, an unknown command) as
    ``UsageError: message`` with status 2, instead of click's usage block."""

    def main(self, args=None, prog_name=None, **extra):
        extra["standalone_mode"] = False
        try:
            status = super().main(args=args, prog_name=prog_name, **extra)
        except click.UsageError as exc:
            hint = f" (morris {exc.ctx.info_name} -h for help)" if exc.ctx and exc.ctx.parent else ""
            click.echo(f"UsageError: {exc.format_message()}{hint}", err=True)
            sys.exit(2)
        except click.Abort:
            click.echo("aborted", err=True)
            sys.exit(1)
        except click.ClickException as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        sys.exit(status if isinstance(status, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except MorrisError as exc:
            click.echo(error_line(exc, ctx.meta.get("morris.db")), err=True)
            ctx.exit(exc.exit_status)
        except (MemoryError, OSError, RuntimeError) as exc:  # out of memory or disk: exit 4
            why = out_of_room(exc)
            if why is None:
                raise
            err = ResourceError(f"{why}; nothing is lost: the same command works once there is room")
            click.echo(error_line(err, ctx.meta.get("morris.db")), err=True)
            ctx.exit(err.exit_status)


class Number(click.ParamType):
    """A whole number in ASCII digits within [lo, hi] (morris.core.inputs.parse_int)."""

    name = "integer"

    def __init__(self, lo=None, hi=None):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        from morris.core.inputs import parse_int

        try:
            return parse_int(value, "the value", self.lo, self.hi, negative=self.lo is None or self.lo < 0)
        except MorrisError as exc:
            self.fail(str(exc).replace("the value ", ""), param, ctx)


class OutFile(click.ParamType):
    """A file to write: a regular file or nothing there, its folder existing (checked before
    any work)."""

    name = "file"

    def convert(self, value, param, ctx):
        from morris.core.inputs import check_output_file

        try:
            check_output_file(value, "the file")
        except MorrisError as exc:
            self.fail(str(exc), param, ctx)
        return value


class Dir(click.ParamType):
    """A database directory: not empty; ``exists``: must be there already."""

    name = "directory"

    def __init__(self, exists: bool):
        self.exists = exists

    def convert(self, value, param, ctx):
        from morris.core.inputs import check_output_dir, check_path_text

        import os

        try:
            path = check_path_text(value, "the directory")
            if self.exists and not os.path.isdir(path):
                self.fail(f"{path} is not a directory" if os.path.exists(path)
                          else f"{path} does not exist", param, ctx)
            check_output_dir(path, "the directory")
        except MorrisError as exc:
            self.fail(str(exc), param, ctx)
        if ctx is not None:  # where the advice of a missing-file error says to solve into
            ctx.meta["morris.db"] = path
        return path


def variant_options(f):
    """--variant and the rule flags, shared by every command that reads positions."""
    for opt in reversed([
        click.option("--variant", default=None, show_default="standard",
                     help="standard, standard-3 .. standard-8, six, morabaraba, twelve, lasker."),
        click.option("--rules", "rules", default=None, metavar="NAME",
                     help="A preset: the rules of a site or app by name (morris rules lists them); "
                          "the flags below may repeat it, not contradict it."),
        click.option("--flying/--no-flying", default=None,
                     help="Whether a player with 3 pieces flies (default: the variant's)."),
        click.option("--double-mill-removes", type=Number(1, 2), default=None,
                     help="Pieces removed when one turn closes two mills (default 1)."),
        click.option("--no-removal-limit", type=Number(1), default=None, metavar="PLIES",
                     help="Draw after this many plies of the movement phase without a removal "
                          "(Sanmill's N-move rule N is N+1 here); positions then take a counter, c=N."),
        click.option("--endgame-no-removal-limit", type=Number(1), default=None, metavar="PLIES",
                     help="The no-removal limit instead, where a side has exactly 3 pieces."),
        click.option("--pieces", type=Number(3, 12), default=None, metavar="N",
                     help="Pieces a side (default: the variant's; e.g. --variant morabaraba --pieces 4)."),
        click.option("--full-board", type=click.Choice(["draw", "loss"]), default=None,
                     help="A full board (12 against 12 on 24 points), the side to move blocked: "
                          "a draw (default) or a loss."),
    ]):
        f = opt(f)
    return f


def make_variant(kw: dict):
    from morris.core.variants import get_variant

    return get_variant(kw.pop("variant"), flying=kw.pop("flying"),
                       double_mill_removes=kw.pop("double_mill_removes"),
                       no_removal_limit=kw.pop("no_removal_limit"),
                       endgame_no_removal_limit=kw.pop("endgame_no_removal_limit"),
                       full_board=kw.pop("full_board"), pieces=kw.pop("pieces"), rules=kw.pop("rules"))


#: --db for the commands that read an existing database directory
db_option = click.option("--db", required=True, type=Dir(exists=True), help="Database directory.")
#: --db for the lookups: optional, the shipped data and the search come after it
lookup_db_option = click.option(
    "--db", type=Dir(exists=True), default=None,
    help="Database directory (looked in first; then the shipped data, then search).")
#: --search for the lookups
search_option = click.option(
    "--search", "use_search", is_flag=True,
    help="Value every placement position by exact search over the movement databases, even "
         "where a placement database holds it (without it, search only where none does).")
#: --seed for the bot's tie-breaks
seed_option = click.option("--seed", type=Number(), default=None,
                           help="Seed for breaking ties between equal moves (default: random each run).")
def quiet_option(f):
    """``--quiet`` (no progress output) and ``--progress`` (bars even where the output is not a
    terminal; by default a log gets the lines without the bars)."""
    f = click.option("--progress", is_flag=True,
                     help="Progress bars even where the output is not a terminal.")(f)
    return click.option("--quiet", is_flag=True, help="No progress output.")(f)


def reporter_of(quiet: bool, progress: bool):
    """The Reporter of a command's ``--quiet`` and ``--progress``."""
    from morris.core.progress import Reporter

    return Reporter(quiet=quiet, bars=True if progress else None)


def open_lookup(db, use_search=False):
    """The tablebase of a lookup command: ``db``, then the shipped data, then search."""
    from morris.lookups.tablebase import open_tablebase

    return open_tablebase(db, search="always" if use_search else "auto")


def echo_lines(lines, err=False):
    for line in lines:
        click.echo(line, err=err)


def echo_above_bars(line):
    """A line of a command's output written while its bars may show (on stderr): above them,
    flushed at once (so a log holds every line written before a kill)."""
    from tqdm import tqdm

    tqdm.write(line, file=sys.stdout)
    sys.stdout.flush()


def say_search(analysis):
    """The line that says a search was needed (on stderr)."""
    line = reports.search_line(analysis)
    if line:
        click.echo(line, err=True)


def ask_line(prompt):
    """One line typed at a prompt; EOFError at the end of input."""
    try:
        return click.prompt(prompt, prompt_suffix="> ", default="", show_default=False)
    except click.Abort:
        raise EOFError from None
