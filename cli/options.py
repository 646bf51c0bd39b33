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


def _rule_option(field):
    """The click option of one rule field, from its declaration (morris.core.rulefields)."""
    if field.kind is bool:
        return click.option(field.option, field.name, default=None, help=field.help)
    if field.kind is int:
        return click.option(field.option, field.name, type=Number(field.lo, field.hi), default=None,
                            metavar=field.metavar, help=field.help)
    return click.option(field.option, field.name, type=click.Choice(list(field.choices)),
                        default=None, help=field.help)


def variant_options(f):
    """--variant, --rules and an option for every rule field, shared by every command that reads
    positions."""
    from morris.core.variants import RULE_FIELDS, variant_names

    for opt in reversed([
        click.option("--variant", default=None, show_default="standard", help=variant_names() + "."),
        click.option("--rules", "rules", default=None, metavar="NAME",
                     help="A preset: the rules of a site or app by name (morris rules lists them); "
                          "the flags below may repeat it, not contradict it."),
        *(_rule_option(field) for field in RULE_FIELDS if field.flag),
    ]):
        f = opt(f)
    return f


def make_variant(kw: dict):
    """The variant of a command's --variant, --rules and rule options (popped from ``kw``)."""
    from morris.core.variants import RULE_FIELDS, get_variant

    options = {field.name: kw.pop(field.name) for field in RULE_FIELDS if field.flag}
    return get_variant(kw.pop("variant"), rules=kw.pop("rules"), **options)


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
