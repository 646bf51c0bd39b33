"""The bad-input battery: hundreds of bad or odd inputs over every command, the engine and the HTTP
API. For each one: a single line that names the problem, the right exit status (or HTTP status
with a JSON body), nothing written, no traceback, no hang. Hypothesis feeds the notations.

``CLI_CASES``, ``ENGINE_CASES`` and ``HTTP_CASES`` are the hand-written and generated inputs;
``test_the_battery_is_large`` counts them (the README quotes the counts by class).
"""

import json
import os
import re
import signal
import socket
import stat
import urllib.parse

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.cli.main import cli
from morris.core.errors import MorrisError
from morris.core.position import Move, Position

# ---------------------------------------------------------------------------- the inputs
BAD_POSITIONS = [
    "", " ", "a1", "a1/", "a1/ x", "/ w 9", "z9/a1 w", "a1,a1/ w", "a1/a1 w", "a1,,d1/ w",
    ",a1/ w", "a1/ w ٧ 8", "a1/ w 7 ８", "a1/ w -1 8", "a1/ w 7", "a1/ w 10 9", "a1/b2 w 9 9 9",
    "a1/ w 7 8 c=3", "a1,d1,g1/a7,d7,g7 w c=٣", "a1,d1,g1/a7,d7,g7 w c=-1",
    "a1,d1,g1/a7,d7,g7 w c=5", "a1,a4,a7,b2,b4,b6,c3,c4,c5,d1/g1 w", "a1/b2 w\x00",
    "A1/b2 w", "a1/b2 W", "a1 / b2 w", "a1/b2 w 0x7 8", "a1/b2 w 7.0 8", "a1/b2 w +7 8",
    "a1/b2 w 1_0 8", "x" * 5000, "start start", "a1-a4/ w", "a1/b2/c3 w",
    # Sanmill FEN
    "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0",
    "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 1",
    "*******/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/*******X w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w p p 0 9 0 8 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w p p 0 0 0 0 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 -1",
    "********/********/******** w p p 0 ٩ 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w m s 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w p p 1 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 -2 -1 -1 -1 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 -3 0 1",
    "********/********/******** w q p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w p r 0 9 0 9 1 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** x p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w r p 0 8 0 9 0 0 -1 -1 -1 -1 0 0 1",
    # round 4: control characters inside, FEN fields that contradict each other
    "a1/b2\tw", "a1,d1/b2 w\x00 7 8", "a1/\x07b2 w", "a1/b2 w\x1b[31m",
    "********/********/******** b p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w o p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 99 -1 -1 -1 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 32 0 0 1",
]
# counts that are not numbers in ASCII digits, or out of range
BAD_NUMBERS = ["٣", "３", "x", "1.5", "+3", " 3", "", "1e3", "0x3"]


def _command_cases():
    out = []
    for p in BAD_POSITIONS:
        out += [["show", p], ["moves", p], ["perft", p, "1"], ["query", p], ["bestmove", p],
                ["play", p], ["line", p]]
    for n in BAD_NUMBERS + ["0", "-1"]:
        out += [["moves", "start", "--no-removal-limit", n],
                ["moves", "start", "--endgame-no-removal-limit", n],
                ["solve", "--out", "OUT", "--max-pieces", n],
                ["solve", "--out", "OUT", "--jobs", n],
                ["verify", "--db", ".", "--sample", n]]
        out += [["perft", "start", n]] if n != "0" else []
    for n in BAD_NUMBERS + ["3", "0"]:
        out += [["moves", "start", "--double-mill-removes", n]]
    for n in BAD_NUMBERS + ["-1", "65536"]:
        out += [["serve", "--port", n]]
    for n in ["٣", "３", "x", "1.5", ""]:
        out += [["bestmove", "start", "--seed", n]]
    for v in ["bogus", "", "standard-9", "standard-2", "SIX", "six "]:
        out += [["moves", "start", "--variant", v], ["subspaces", "--variant", v],
                ["solve", "--out", "OUT", "--variant", v]]
    for name in ["9-9x", "٩-٨", "1-2+3", "10-10", "2-3", "3-3+0", "-3-3", "3-3+1+0+1", " 3-3", ""]:
        out += [["solve", "--out", "OUT", name]]
    out += [["solve", "--out", "OUT", "--jobs", "99999999999999999999"],
            ["solve", "--out", "OUT", "--max-pieces", "4", "--phase", "all"],
            ["solve", "--out", "OUT", "--max-pieces", "4", "3-3+1+0"],
            ["solve", "--out", "OUT", "--phase", "none"],
            ["subspaces", "--phase", "none"],
            ["verify-draw", "--method", "guess"],
            ["play", "--as", "red"],
            ["bogus"], ["show"], ["perft", "start"], ["query"],
            ["moves", "start", "--bogus-option"],
            ["show", "start", "--last", "a1"], ["show", "start", "--flip"],
            ["perft", "start", "33"], ["perft", "start", "99999999999999999999"],
            ["moves", "start", "--no-removal-limit", "10001"],
            ["solve", "--out", "OUT", "--dtw", "--no-removal-limit", "16", "3-3"],
            ["match", "--b", "epsilon:1.5"], ["match", "--a", "search:9"], ["match", "--b", "perfect:1"],
            ["match", "--games", "0"], ["match", "--games", "٣"], ["match", "--max-plies", "-1"],
            ["play", "--opponent", "search:x"], ["play", "--opponent", "bogus"],
            ["line", "start", "--seed", "x"],
            ["moves", "start", "--endgame-no-removal-limit", "99999999999999999999"]]
    return out


def _path_cases():
    """(args, how to prepare) for bad paths: dirs, pipes, devices, missing folders, empty."""
    out = []
    for flag, cmd in (("--svg", ["show", "start"]), ("--plot", ["stats", "--db", "DB"])):
        for target in ["DIR", "FIFO", "/dev/null", "MISSING/x.png", "", " "]:
            out.append(cmd + [flag, target])
        out.append(cmd + [flag, "FILE.txt"]) if flag == "--plot" else None
    for cmd in (["query", "start"], ["stats"], ["verify"], ["bestmove", "start"],
                ["verify-draw"], ["play"], ["serve"]):
        for db in ["MISSING", "FILE.txt", "", "FIFO"]:
            out.append(cmd + ["--db", db])
    for outdir in ["FILE.txt", "", "FIFO", "/dev/null"]:
        out.append(["solve", "--out", outdir, "3-3"])
    return out


CLI_CASES = _command_cases() + _path_cases()

ENGINE_CASES = [
    "position", "position fen", "position nonsense", "position startpos moves z9",
    "position startpos moves a1 a1", "position startpos moves xa1", "position startpos extra",
    "position fen ********/********/******** w p p 0 9 0 8 0 0 -1 -1 -1 -1 0 0 1",
    "position fen ********/********/******** w p p 0 ٩ 0 9 0 0 -1 -1 -1 -1 0 0 1",
    "setoption", "setoption name Seed value ٣", "setoption name Seed value x",
    "setoption name Variant value bogus", "setoption name NoRemovalLimit value -1",
    "setoption name NoRemovalLimit value ３", "setoption name EndgameNoRemovalLimit value x",
    "setoption name Seed value 99999999999999999999", "setoption name NoRemovalLimit value 10001",
    "setoption name DatabasePath value /nonexistent/folder",
    "position startpos moves a1 d1 a4 d7 a7 xd5", "position startpos moves a1 d1 a4 d7 a7 xa1",
]

HTTP_CASES = (
    [("/api/probe", {"position": p}) for p in BAD_POSITIONS if p and len(p) < 400 and "\x00" not in p]
    + [("/api/bestmove", {"position": p}) for p in BAD_POSITIONS[:20] if p]
    + [("/api/probe", {"position": "start", k: v})
       for k, v in [("variant", "bogus"), ("flying", "2"), ("double_mill_removes", "3"),
                    ("double_mill_removes", "٢"), ("no_removal_limit", "٣"),
                    ("no_removal_limit", "-1"), ("endgame_no_removal_limit", "x"),
                    ("no_removal_limit", "99999999999999999999")]]
    + [("/board.svg", {"position": "start", "last": "z9"}), ("/board.svg", {"position": "q"}),

       ("/api/probe", {}), ("/api/bestmove", {"position": "start", "seed": "٣"})]
)
MALFORMED_HTTP = [b"GARBAGE\r\n\r\n", b"GET /api/probe HTTP/1.1\r\nHost\r\n\r\n",
                  b"GET /api/probe HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
                  b"GET /api/ probe HTTP/1.1\r\nHost: x\r\n\r\n"]


def test_the_battery_is_large():
    """At least 300 bad inputs in all (README: the counts by class)."""
    counts = {"commands": len(CLI_CASES), "engine": len(ENGINE_CASES),
              "http": len(HTTP_CASES) + len(MALFORMED_HTTP)}
    assert sum(counts.values()) >= 300, counts
    assert counts["commands"] >= 300


# ---------------------------------------------------------------------------- helpers
class _Hang(Exception):
    pass


def _alarm(signum, frame):  # pragma: no cover - only on a hang
    raise _Hang("no answer within the time limit")


def _tree(root):
    out = set()
    for d, dirs, files in os.walk(root):
        for x in dirs + files:
            p = os.path.join(d, x)
            st_ = os.lstat(p)
            out.add((os.path.relpath(p, root), stat.S_IFMT(st_.st_mode), st_.st_size, st_.st_mtime_ns))
    return out


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory, solved):
    """A folder with a database, a plain file, a directory and a named pipe to aim at."""
    root = tmp_path_factory.mktemp("battery")
    (root / "DIR").mkdir()
    (root / "FILE.txt").write_text("not a database\n")
    os.mkfifo(root / "FIFO")
    return root


def _fill(args, root, db):
    return [a.replace("DB", str(db)) if a == "DB" else a for a in args]


# ---------------------------------------------------------------------------- the checks
@pytest.mark.parametrize("args", CLI_CASES, ids=[" ".join(a)[:60] for a in CLI_CASES])
def test_a_bad_command_line_is_one_line_and_status_2(args, sandbox, solved, monkeypatch):
    monkeypatch.chdir(sandbox)
    args = _fill(args, sandbox, solved)
    before = _tree(sandbox)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)
    try:
        r = CliRunner().invoke(cli, args, input="")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert r.exit_code == 2, (r.exit_code, r.output)
    assert len(lines) == 1, r.output
    assert "Traceback" not in r.output
    assert re.search(r"\b[A-Z][A-Za-z]*Error: ", lines[0]), lines[0]
    assert _tree(sandbox) == before, "something was written"


def test_missing_data_is_status_3_and_names_the_file(tmp_path):
    (tmp_path / "standard").mkdir()
    (tmp_path / "standard" / "3-3.mtb").write_bytes(b"MORRISTB" + b"\0" * 100)
    r = CliRunner().invoke(cli, ["query", "--db", str(tmp_path), "a1,d1,g1/a7,d7,g7 w"])
    assert r.exit_code == 3, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "CorruptDatabaseError" in lines[0] and "3-3.mtb" in lines[0]


@pytest.mark.parametrize("line", ENGINE_CASES)
def test_the_engine_answers_a_bad_command_with_one_line(line, solved):
    import io

    from morris.apps.engine import Engine

    out = io.StringIO()
    e = Engine(solved, None, out)
    assert e.handle(line) is True
    said = out.getvalue().splitlines()
    assert len(said) == 1 and said[0].startswith("info string error "), said
    assert "Traceback" not in out.getvalue()
    e.handle("go")  # the engine goes on: from the last good position, or says it cannot
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("bestmove "), last


@pytest.fixture(scope="module")
def server(solved):
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from test_server import start_server

    base, stop = start_server(solved)
    yield base
    stop()


@pytest.mark.parametrize("path, params", HTTP_CASES, ids=[f"{p} {q}"[:60] for p, q in HTTP_CASES])
def test_a_bad_request_is_a_json_400(path, params, server, solved):
    import urllib.error
    import urllib.request

    url = server + path + ("?" + urllib.parse.urlencode(params) if params else "")
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            status, body, kind = resp.status, resp.read(), resp.headers.get("content-type")
    except urllib.error.HTTPError as exc:
        status, body, kind = exc.code, exc.read(), exc.headers.get("content-type")
    assert status == 400, (status, body[:200])
    assert kind.startswith("application/json")
    obj = json.loads(body)
    assert set(obj) == {"error"} and "\n" not in obj["error"] and obj["error"]
    assert str(solved) not in obj["error"] and "Traceback" not in obj["error"]


@pytest.mark.parametrize("raw", MALFORMED_HTTP)
def test_malformed_http_gets_a_json_400(raw, server):
    host, port = urllib.parse.urlparse(server).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(raw)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), data[:200]
    assert b"application/json" in head.lower()
    assert "error" in json.loads(body)


# ---------------------------------------------------------------------------- notations
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_a_position_or_an_illegal_position_error(text):
    """Any text is refused with an IllegalPositionError or parsed; what parses is written back
    in both notations and read again as the same position."""
    try:
        pos = Position.parse(text)
    except MorrisError:
        return
    assert Position.parse(pos.to_compact()) == pos, text
    if not pos.in_placement:  # (compact notation takes any hands; a FEN, those of a game)
        assert Position.parse(pos.to_fen()) == pos, text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["*", "O", "@", "/", " ", "w", "b", "p", "m", "0", "9", "-1", "٣", "x"]),
                max_size=80).map("".join))
def test_any_fen_like_text_is_a_position_or_an_illegal_position_error(text):
    """... and a FEN that parses is the same position written back as FEN and as compact."""
    try:
        pos = Position.from_fen(text)
    except MorrisError:
        return
    assert Position.from_fen(pos.to_fen()) == pos, text
    assert Position.parse(pos.to_compact()) == pos, text


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 9), st.integers(0, 9), st.integers(-3, 12), st.integers(-3, 12),
       st.sampled_from("wb"), st.sampled_from("rpmo"))
def test_fen_counts_that_contradict_are_refused(w_on, b_on, w_hand, b_hand, side, phase):
    """A FEN whose counts say other than its board, or hands that placement by turns cannot
    leave, is refused; what is accepted round-trips."""
    board = "O" * w_on + "@" * b_on + "*" * (24 - w_on - b_on) if w_on + b_on <= 24 else "*" * 24
    fen = (f"{board[:8]}/{board[8:16]}/{board[16:]} {side} {phase} p {w_on} {w_hand} {b_on} {b_hand} "
           f"0 0 -1 -1 -1 -1 0 0 1")
    try:
        pos = Position.from_fen(fen)
    except MorrisError:
        return
    assert (pos.white_hand, pos.black_hand) == (w_hand, b_hand)
    assert w_hand <= b_hand <= w_hand + 1 or not (w_hand or b_hand)
    assert Position.from_fen(pos.to_fen()) == pos


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_any_text_is_a_move_or_an_illegal_move_error(text):
    """... and a move that parses is written back as the same token (its text, stripped)."""
    try:
        move = Move.parse(text)
    except MorrisError:
        return
    assert Move.parse(str(move)) == move, text
    assert str(move) == text.strip(), text
