"""What a new user runs into in the first hour: one clear line and exit status 2 for every
mistake, a complete hint, no traceback; and the package's shape (one import name, no cycles)."""

import ast
import importlib.metadata
import os
import socket

import pytest
from click.testing import CliRunner

from morris.cli.main import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_line_error(args, start, input=None, status=2):
    r = CliRunner().invoke(cli, args, input=input)
    assert r.exit_code == status, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(start), r.output
    return lines[0]


def test_perft_depth_beyond_the_limit():
    line = one_line_error(["perft", "start", "999999999999"], "UsageError: perft depth 999999999999")
    assert "at most" in line


def test_solve_into_a_directory_that_cannot_be_written(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    line = one_line_error(["solve", "--out", str(blocker / "tb"), "--max-pieces", "3"], "OutputError:")
    assert str(blocker) in line
    if os.path.isdir("/proc"):
        one_line_error(["solve", "--out", "/proc/nope", "--max-pieces", "3"], "OutputError: cannot write")


@pytest.mark.parametrize("text,start", [
    ("********/********/******** w p p 0 9 0 9", "IllegalPositionError: malformed FEN: 8 fields"),
    ("********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 5", "IllegalPositionError: malformed FEN: 18 fields"),
    ("********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 z 0 0 1", "IllegalPositionError: FEN last mill square 'z'"),
    ("a1,d1,/d2 w 7 8", "IllegalPositionError: malformed position 'a1,d1,/d2 w 7 8': an empty point name"),
    (",a1/d2 w 7 8", "IllegalPositionError: malformed position"),
    ("a1,,d1/d2 w 7 8", "IllegalPositionError: malformed position"),
])
def test_malformed_notation_is_refused(text, start):
    one_line_error(["moves", text], start)


def test_the_hint_names_every_rule_flag(tmp_path):
    (tmp_path / "db").mkdir()
    line = one_line_error(["query", "--db", str(tmp_path / "db"), "--variant", "six", "--double-mill-removes", "2",
                           "--no-flying", "a1,d1,g1/a7,d7,b6 w"], "a1,d1,g1/a7,d7,b6 w: MissingSubspaceError",
                          status=3)
    assert "six-nofly-dm2" in line
    assert "morris solve --out" in line and "--variant six --double-mill-removes 2 3-3" in line


def test_serve_on_a_port_in_use(tmp_path):
    pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
    pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")
    (tmp_path / "db").mkdir()
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    port = s.getsockname()[1]
    try:
        one_line_error(["serve", "--db", str(tmp_path / "db"), "--port", str(port)], f"ServeError: cannot listen on 127.0.0.1:{port}")
    finally:
        s.close()


def test_play_at_end_of_input_says_so_and_names_the_colours(solved):
    r = CliRunner().invoke(cli, ["play", "--db", solved, "--as", "black", "a1,d1,g1/a7,d7,g7 w"], input="")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("you play black")
    assert "Aborted" not in r.output and "end of input: game abandoned" in r.output


def test_verify_lists_each_file_once_with_plurals(solved, tmp_path):
    import shutil

    db = tmp_path / "db"
    (db / "standard").mkdir(parents=True)
    shutil.copy(os.path.join(solved, "standard", "3-3.mtb"), db / "standard")
    r = CliRunner().invoke(cli, ["verify", "--db", str(db), "--quiet"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("ok ") and lines[0].endswith(" positions")
    assert lines[1] == "the file verified"


def test_the_package_installs_one_import_name():
    """The installed distribution (its RECORD, or an editable install's mapping) provides the
    import name ``morris`` and nothing generic such as ``solver`` or ``cli``."""
    import re

    dists = [d for d in importlib.metadata.distributions()
             if d.metadata["Name"] == "morris-solver" and str(getattr(d, "_path", "")).endswith(".dist-info")]
    assert dists, "morris-solver is not installed"
    tops = set()
    for d in dists:
        for f in d.files or []:
            parts = str(f).split("/")
            if parts[0].endswith(".dist-info") or parts[0].startswith("..") or str(f).endswith(".pth"):
                continue
            if parts[0].startswith("__editable__") and parts[0].endswith(".py"):
                text = f.read_text()
                mapping = re.search(r"MAPPING[^=]*=\s*(\{[^}]*\})", text)
                tops |= set(re.findall(r"'([\w.]+)'\s*:", mapping.group(1))) if mapping else {"?"}
                continue
            if parts[0] != "__pycache__":
                tops.add(parts[0].removesuffix(".py"))
    assert {t.split(".")[0] for t in tops} == {"morris"}, tops
    import morris

    assert set(morris.__all__) >= {"open_tablebase", "Position", "Move", "MorrisError"}
    for name in morris.__all__:
        assert hasattr(morris, name), name


def _module_imports():
    """{module: imported project modules}, counting imports inside functions."""
    mods = {}
    for folder, pkg in (("solver", "morris"), ("cli", "morris.cli")):
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                if not f.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), os.path.join(ROOT, folder))
                parts = rel[:-3].split(os.sep)
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                mods[".".join([pkg, *parts])] = (os.path.join(dirpath, f), f == "__init__.py")
    graph = {}
    for name, (path, is_pkg) in mods.items():
        tree = ast.parse(open(path).read())
        base = name if is_pkg else name.rsplit(".", 1)[0]
        out = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    pkg = base.rsplit(".", node.level - 1)[0] if node.level > 1 else base
                    target = f"{pkg}.{node.module}" if node.module else pkg
                else:
                    target = node.module or ""
                for alias in node.names:
                    for cand in (f"{target}.{alias.name}", target):
                        if cand in mods:
                            out.add(cand)
                            break
            elif isinstance(node, ast.Import):
                out |= {a.name for a in node.names if a.name in mods}
        out.discard(name)
        graph[name] = out
    return graph


def test_no_import_cycles():
    graph = _module_imports()
    assert len(graph) > 30
    color = {}
    cycles = []

    def visit(n, stack):
        color[n] = 1
        for m in graph[n]:
            if color.get(m) == 1:
                cycles.append(stack[stack.index(m):] + [m])
            elif m not in color:
                visit(m, stack + [m])
        color[n] = 2

    for n in graph:
        if n not in color:
            visit(n, [n])
    assert not cycles, cycles


def test_verify_shows_progress_while_it_reads_the_checksums(solved, tmp_path):
    """The checksum pass reads every byte of every file, and the forward checks load each
    file's children (minutes each on a whole game): each pass has a bar counting files."""
    import io
    import shutil

    from morris.core.progress import Reporter
    from morris.solving.verify import verify

    out = io.StringIO()
    report = verify(os.path.join(solved, "standard"), Reporter(stream=out, delay=0, bars=True), forward=False)
    assert len(report.files) > 1
    assert "headers and checksums:" in out.getvalue() and "forward checks" not in out.getvalue()
    assert f"0/{len(report.files)} [" in out.getvalue()  # counting every file

    db = tmp_path / "db"
    (db / "standard").mkdir(parents=True)
    shutil.copy(os.path.join(solved, "standard", "3-3.mtb"), db / "standard")
    out = io.StringIO()
    report = verify(str(db), Reporter(stream=out, delay=0, bars=True))
    assert report.files[0].checked > 0 and report.files[0].mismatches == 0
    assert "forward checks:" in out.getvalue() and "0/1 [" in out.getvalue()
    assert "verify 3-3" in out.getvalue()  # the file's own bar, below


def test_a_log_gets_lines_not_bars(solved):
    """Output that is not a terminal (a log file) gets no progress bars (they wrote a line per
    refresh: megabytes over a long solve; the phase lines and summaries still come); a terminal
    gets them, and ``--progress`` asks for them anyway."""
    import io

    from morris.cli.options import reporter_of
    from morris.core.progress import Reporter
    from morris.solving.verify import verify

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for stream, bars, shown in ((io.StringIO(), None, False), (Terminal(), None, True),
                                (io.StringIO(), True, True)):
        verify(os.path.join(solved, "standard"), Reporter(stream=stream, delay=0, bars=bars),
               forward=False)
        text = stream.getvalue()
        assert ("headers and checksums:" in text and "\r" in text) == shown, (bars, text)
    assert reporter_of(False, True).bars is True and reporter_of(False, False).bars is None
