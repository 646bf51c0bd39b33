"""The README's commands work as written (issue 72).

- Its first line's commands (after the install) and every ``console`` block run, in order, in one
  fresh folder, through the installed ``morris`` and a shell, as a user would type them: each
  command must exit 0 and print the lines shown under it (``...`` stands for any lines; a line
  ending in ``...`` for any end of line).
- Its ``python`` block runs there too, printing what its comments say.
- Every ``morris`` line of its ``sh`` blocks (the long or interactive ones) and every example of
  ``morris COMMAND -h`` parses: the command and each option exist and take the values given.
"""

import os
import re
import shlex
import subprocess
import sys

import pytest

from morris.cli import help as help_table
from morris.cli.main import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()


def blocks(kind: str) -> list[list[str]]:
    """The lines of every fenced block of ``kind`` (console, sh, python), in order."""
    return [b.split("\n") for b in re.findall(rf"^```{kind}\n(.*?)^```$", README, re.S | re.M)
            for b in [b.rstrip("\n")]]


def transcripts() -> list[tuple[str, list[str]]]:
    """(command, the output lines shown under it) of the console blocks, the first line's
    morris commands first (their output not shown)."""
    first = blocks("sh")[0][0]
    out = [(c.strip(), ["..."]) for c in first.split("&&") if c.strip().startswith("morris ")]
    for block in blocks("console"):
        for line in block:
            if line.startswith("$ "):
                out.append((line[2:], []))
            else:
                out[-1][1].append(line)
    return out


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` has the ``shown`` lines: consecutive runs in order, ``...`` lines
    for any lines between (at the start or end: any lines before or after)."""
    def same(want, got):
        want, got = want.rstrip(), got.rstrip()
        return got.startswith(want[:-3]) if want.endswith("...") else want == got

    pos, chunks = 0, [[]]
    for line in shown:
        chunks.append([]) if line.strip() == "..." else chunks[-1].append(line)
    anchored_start = bool(shown) and shown[0].strip() != "..."
    anchored_end = bool(shown) and shown[-1].strip() != "..."
    for k, chunk in enumerate(chunks):
        if not chunk:
            continue
        starts = [pos] if (k == 0 and anchored_start) else range(pos, len(printed) - len(chunk) + 1)
        for s in starts:
            if all(same(w, g) for w, g in zip(chunk, printed[s:s + len(chunk)])) and \
                    s + len(chunk) <= len(printed):
                pos = s + len(chunk)
                break
        else:
            return False
    return not anchored_end or pos == len(printed)


def test_matching_rules():
    assert matches(["a", "...", "c"], ["a", "b", "c"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert matches(["...", "b"], ["a", "b"]) and not matches(["...", "a"], ["a", "b"])
    assert matches(["solved 3 jobs, in ..."], ["solved 3 jobs, in 1.9 s"])
    assert not matches(["x", "..."], ["a", "x"])


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("readme")


def shell(command, cwd):
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def test_every_readme_transcript_prints_what_it_shows(folder):
    runs = transcripts()
    assert len(runs) >= 15, runs
    for command, shown in runs:
        r = shell(command, folder)
        printed = (r.stdout + r.stderr).rstrip("\n").split("\n")
        assert r.returncode == 0, (command, r.stdout, r.stderr)
        assert matches(shown, printed), (command, shown, printed)
    # the python block, in the same folder (tb solved by the first line)
    (code,) = blocks("python")
    r = subprocess.run([sys.executable, "-c", "\n".join(code)], cwd=folder, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    said = [m.group(1) for m in re.finditer(r"print\(.*\)\s+# (.*)", "\n".join(code))]
    assert said and all(s in r.stdout for s in said), (said, r.stdout)


def parse(words):
    """Parse a morris command line as click would run it, without running it."""
    import click

    assert words[0] == "morris" and words[1] in cli.commands, words
    name = words[1]
    cli.commands[name].make_context(name, list(words[2:]), parent=click.Context(cli, info_name="morris", **cli.context_settings))
    return name


def sh_commands():
    out = []
    for block in blocks("sh")[1:]:
        for line in block:
            line = line.split("#")[0].strip()
            for part in line.split("&&"):
                if part.strip().startswith("morris "):
                    out.append(part.strip())
    return out


def test_every_readme_sh_command_parses(folder):
    commands = sh_commands()
    assert any("--dtw --draws" in c for c in commands)
    os.makedirs(folder / "tb", exist_ok=True)
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        for c in commands:
            parse(shlex.split(c))
    finally:
        os.chdir(cwd)


def test_every_command_has_a_line_and_an_example_that_parses(folder):
    assert set(help_table.COMMANDS) == set(cli.commands)
    os.makedirs(folder / "tb", exist_ok=True)
    (folder / "club.txt").write_text("d2 b4\n")
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        for name, (summary, example) in help_table.COMMANDS.items():
            assert "\n" not in summary and len(summary) <= 65, name
            assert parse(shlex.split(example)) == name, example
    finally:
        os.chdir(cwd)
    from click.testing import CliRunner

    listing = CliRunner().invoke(cli, ["--help"]).output
    for name, (summary, _) in help_table.COMMANDS.items():
        assert re.search(rf"^  {re.escape(name)} +{re.escape(summary)}$", listing, re.M), name
        page = CliRunner().invoke(cli, [name, "-h"]).output
        assert "Example:" in page and help_table.COMMANDS[name][1] in page, name
