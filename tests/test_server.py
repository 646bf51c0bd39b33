"""The HTTP API with real requests on localhost."""

import json
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from click.testing import CliRunner

from morris.cli.main import cli

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")


def start_server(db):
    """A uvicorn server on a free port in a thread: (base URL, stop function)."""
    import time

    from morris.apps.server import make_server

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    srv = make_server(db, "127.0.0.1", port, quiet=True)
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    assert srv.started, "the server did not start"

    def stop():
        srv.should_exit = True
        t.join(10)

    return f"http://127.0.0.1:{port}", stop


@pytest.fixture(scope="module")
def server(solved):
    base, stop = start_server(solved)
    yield base
    stop()


def get(base, path, **params):
    url = f"{base}{path}?{urllib.parse.urlencode(params)}"
    return fetch(url)


def fetch(url, method="GET", headers=None, data=None):
    """(status, JSON body) of a request; the body must be JSON whatever the status."""
    req = urllib.request.Request(url, method=method, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            body = r.read()
            return r.status, (json.loads(body) if body else None)
    except urllib.error.HTTPError as e:
        assert e.headers.get("content-type", "").startswith("application/json"), (e.code, e.headers)
        return e.code, json.loads(e.read())


def test_probe_matches_query_json(server, solved):
    status, body = get(server, "/api/probe", position="a1,d1,g1/a7,d7,g7 w")
    assert status == 200
    cli_out = CliRunner().invoke(cli, ["query", "--db", solved, "--json", "a1,d1,g1/a7,d7,g7 w"]).output
    assert body == json.loads(cli_out)
    assert body["moves"][0]["value"] == "win"


def test_bestmove(server):
    status, body = get(server, "/api/bestmove", position="a1,d1,g1/a7,d7,g7 w", seed=1)
    assert status == 200 and body["value"] == "win" and body["dtc"] == 3 and body["move"]
    status, body = get(server, "/api/bestmove", position="a1,d1,g1/a7,d7,b6 w", variant="six")
    assert status == 200 and body["move"]


@pytest.mark.parametrize("params, status, text", [
    ({"position": "a1,z9/d2 w"}, 400, "unknown point"),
    ({}, 400, "missing query parameter"),
    ({"position": "a1,d1,g1/a7 w", "variant": "chess"}, 400, "unknown variant"),
    ({"position": "x" * 1000}, 400, "longer than"),
    ({"position": "a1,d1,g1,b2,b4/a7,d7,g7 w"}, 503, "MissingSubspaceError"),
])
def test_bad_requests(server, params, status, text):
    got, body = get(server, "/api/probe", **params)
    assert got == status and text in body["error"]


def test_every_error_status_answers_json(server):
    """400, 404, 405, 414, 431 (and HEAD/OPTIONS) on API paths: JSON with the right status."""
    ok = urllib.parse.urlencode({"position": "a1,d1,g1/a7,d7,g7 w"})
    assert fetch(f"{server}/api/probe?position=a1,z9/d2+w")[0] == 400
    status, body = fetch(f"{server}/api/nothing")
    assert status == 404 and "no such path" in body["error"]
    status, body = fetch(f"{server}/api/probe?{ok}", method="POST", data=b"x")
    assert status == 405 and "POST" in body["error"]
    assert fetch(f"{server}/api/probe?{ok}", method="OPTIONS")[0] == 405
    assert fetch(f"{server}/api/probe?{ok}", method="DELETE")[0] == 405
    status, body = fetch(f"{server}/api/probe?position=" + "a" * 5000)
    assert status == 414 and "URL longer" in body["error"]
    status, body = fetch(f"{server}/api/probe?{ok}", headers={"X-Big": "y" * 9000})
    assert status == 431 and "headers" in body["error"]
    req = urllib.request.Request(f"{server}/api/probe?{ok}", method="HEAD")
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.status == 200 and r.headers["content-type"].startswith("application/json")


def test_a_bug_answers_500_json_and_serving_goes_on(solved, monkeypatch):
    from morris.lookups.tablebase import Tablebase

    base, stop = start_server(solved)
    try:
        def broken(self, pos):
            raise ZeroDivisionError("a bug")

        monkeypatch.setattr(Tablebase, "analyze", broken)
        status, body = get(base, "/api/probe", position="a1,d1,g1/a7,d7,g7 w")
        assert status == 500 and body == {"error": "internal error: ZeroDivisionError"}
        monkeypatch.undo()
        assert get(base, "/api/probe", position="a1,d1,g1/a7,d7,g7 w")[0] == 200
    finally:
        stop()


def test_openapi_describes_the_api(server):
    status, body = fetch(f"{server}/openapi.json")
    assert status == 200
    assert {"/api/probe", "/api/bestmove", "/board.svg"} <= set(body["paths"])
    params = {p["name"] for p in body["paths"]["/api/probe"]["get"]["parameters"]}
    assert {"position", "variant"} <= params
    # /docs describes it on a page of its own, with nothing loaded from elsewhere
    with urllib.request.urlopen(f"{server}/docs", timeout=30) as r:
        page = r.read().decode()
    assert "/api/probe" in page and "/api/bestmove" in page
    assert "http://" not in page and "https://" not in page and "<script" not in page


def test_explorer_page_and_board_svg(server):
    q = urllib.parse.urlencode({"position": "a1,d1,g1/a7,d7,g7 w"})
    with urllib.request.urlopen(f"{server}/?{q}", timeout=30) as r:
        html = r.read().decode()
    assert 'id="value" data-value="win"' in html
    from morris.core.position import Position

    tokens = [str(m) for m in Position.parse("a1,d1,g1/a7,d7,g7 w").legal_moves()]
    assert all(f'data-move="{t}"' in html for t in tokens) and html.count('class="move ') == len(tokens)
    assert html.count('class="piece white"') == 3 and html.count('class="piece black"') == 3
    import re

    assert not re.search(r'(src|href|action)="(https?:)?//', html)  # nothing loaded from elsewhere
    with urllib.request.urlopen(f"{server}/board.svg?{q}", timeout=30) as r:
        assert r.headers["content-type"].startswith("image/svg+xml")
        assert r.read().decode().startswith("<svg")
    with urllib.request.urlopen(f"{server}/?position=a1,d1,g1,b2,b4/a7,d7,g7+w", timeout=30) as r:
        page = r.read().decode()
    assert 'id="missing"' in page and "morris solve --out" in page


def test_serve_binds_to_localhost_by_default():
    from morris.cli.main import serve

    host = next(p for p in serve.params if p.name == "host")
    assert host.default == "127.0.0.1"


def test_many_requests_at_once_and_a_silent_client(server):
    host, port = server.replace("http://", "").split(":")
    silent = socket.create_connection((host, int(port)))  # connects and says nothing
    positions = ["a1,d1,g1/a7,d7,g7 w", "a1,d1,g1,b2/a7,d7,g7 b", "a1,d1,g4/a7,d7,g7 w", "a1,z9/d2 w"]
    expected = {p: get(server, "/api/probe", position=p) for p in positions}
    with ThreadPoolExecutor(16) as ex:
        results = list(ex.map(lambda i: (positions[i % 4], get(server, "/api/probe", position=positions[i % 4])),
                              range(400)))
    silent.close()
    assert all(r == expected[p] for p, r in results)


def test_a_named_pipe_costs_one_request_not_the_server(tmp_path, solved):
    """A named pipe in place of a file: the request that needs it gets a 503 naming it, and the
    health check and probes of other subspaces still answer (one such request once stopped the
    whole server for good)."""
    import os
    import shutil

    db = tmp_path / "db"
    (db / "standard").mkdir(parents=True)
    for n in ("3-3", "4-3", "3-4", "4-4"):
        shutil.copy(os.path.join(solved, "standard", n + ".mtb"), db / "standard" / (n + ".mtb"))
    (db / "standard" / "4-4.mtb").unlink()
    os.mkfifo(db / "standard" / "4-4.mtb")
    base, stop = start_server(str(db))
    try:
        status, body = get(base, "/api/probe", position="a1,d1,g1,b2/a7,d7,g7,b6 w")
        assert status == 503 and "4-4.mtb" in body["error"] and "named pipe" in body["error"], body
        assert get(base, "/api/health")[0] == 200
        status, body = get(base, "/api/probe", position="a1,d1,g1/a7,d7,g7 w")
        assert status == 200 and body["value"] == "win"
    finally:
        stop()


def test_the_server_survives_mixed_variants_sizes_and_options(tmp_path, placed):
    """One server, requests that switch between piece counts sharing a ruleset (standard-3,
    -4, -5: the placement search once answered -4 from the search loaded for -3, then crashed
    on -5), other boards and rule options, in an order that revisits each: every answer is the
    one a fresh server gives to that request alone, and the server stays up."""
    import os
    import shutil

    from morris.core.variants import get_variant
    from morris.database.folders import file_path
    from morris.hashing.subspaces import movement_subspaces

    db = tmp_path / "db"
    for s in movement_subspaces(get_variant("standard-4")):  # movement only: placement is searched
        dst = file_path(db, get_variant("standard"), s)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(file_path(placed, get_variant("standard"), s), dst)
    shutil.copytree(os.path.join(placed, "six-nofly"), db / "six-nofly")
    requests = [
        ("/api/probe", {"position": "start", "variant": "standard-3"}),
        ("/api/probe", {"position": "start", "variant": "standard-4"}),
        ("/api/probe", {"position": "start", "variant": "standard-5"}),
        ("/api/bestmove", {"position": "start", "variant": "standard-4"}),
        ("/api/probe", {"position": "start", "variant": "six"}),
        ("/api/probe", {"position": "a1,d1,g1/a7,d7,g7 w", "variant": "six", "flying": "1"}),
        ("/api/probe", {"position": "a1,d1,g1/a7,d7,g7 w"}),
        ("/api/probe", {"position": "start", "variant": "standard-3"}),
        ("/api/probe", {"position": "a1/d7 w 2 3", "variant": "standard-3"}),
        ("/api/probe", {"position": "a1/d7 w 3 4", "variant": "standard-4"}),
    ]
    def timeless(answer):  # (the times a search took differ from run to run)
        status, body = answer
        if isinstance(body, dict):
            body = {k: v for k, v in body.items() if "seconds" not in k}
        return status, body

    answers = []
    base, stop = start_server(str(db))
    try:
        for path, params in requests:
            answers.append(timeless(get(base, path, **params)))
        assert get(base, "/api/health")[0] == 200
    finally:
        stop()
    assert answers[3][0] == 200 and answers[3][1]["value"] == "draw"  # bestmove: any best move
    for (path, params), got in zip(requests, answers):
        if path != "/api/probe":
            continue
        base, stop = start_server(str(db))
        try:
            assert timeless(get(base, path, **params)) == got, (path, params)
        finally:
            stop()
    assert answers[0][1]["value"] == "win" and answers[1][1]["value"] == "draw"  # the report's
    assert answers[2][0] == 503  # standard-5: no movement files for 5 a side here, said so


def test_annotate_endpoint_returns_the_commands_json(server):
    """GET /api/annotate: the same JSON as `morris annotate --json` (shipped Six Men's Morris
    data), a bad record a 400 naming the game, the ply and the token."""
    game = "1. d2 b4 2. a4 g4 3. d7 f4 4. b2 a7 5. b6 a1 6. f2 xg4 g4 *"
    status, body = get(server, "/api/annotate", game=game, variant="six")
    assert status == 200, body
    r = CliRunner().invoke(cli, ["annotate", "-", "--variant", "six", "--json"], input=game)
    assert r.exit_code == 0
    assert body["games"] == [json.loads(line) for line in r.output.splitlines()]
    assert [p["grade"] for p in body["games"][0]["plies"]][5] == "blunder"
    status, body = get(server, "/api/annotate", game="d2 b4 d2", variant="six")
    assert status == 400 and "game 1, ply 3, 'd2'" in body["error"]


def test_the_game_page_steps_through_a_graded_game(server):
    """/game: the board after the ply asked, links back and forth and to the explorer, the
    moves coloured by grade; a bad record is the page with the line naming it, HTTP 400."""
    import re

    game = "1. d2 b4 2. a4 g4 3. d7 f4 4. b2 a7 5. b6 a1 6. f2 xg4 g4 *"
    q = urllib.parse.urlencode({"moves": game, "variant": "six", "ply": 6})
    with urllib.request.urlopen(f"{server}/game?{q}", timeout=60) as r:
        assert r.status == 200
        page = r.read().decode()
    assert "after ply 6 of 12" in page and "<svg" in page
    grades = re.findall(r'data-ply="(\d+)" data-grade="(\w+)"', page)
    assert len(grades) == 12 and ("6", "blunder") in grades
    assert 'class="blunder current"' in page
    assert "ply=5" in page and "ply=7" in page and 'id="explore" href="/?' in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    q = urllib.parse.urlencode({"moves": "d2 b4 d2", "variant": "six"})
    try:
        urllib.request.urlopen(f"{server}/game?{q}", timeout=60)
        raise AssertionError("a bad record was accepted")
    except urllib.error.HTTPError as e:
        assert e.code == 400 and "game 1, ply 3, &#x27;d2&#x27;" in e.read().decode()


def test_answers_hide_where_the_server_keeps_its_files_but_tell_them_apart(tmp_path):
    """A missing file's message names the database and the shipped data apart (it once read
    "looked in <db> or <db>"), never their paths."""
    from morris.apps.advice import public_text
    from morris.database.shipped import data_dir
    from morris.lookups.tablebase import open_tablebase
    from morris.core.errors import MissingSubspaceError
    from morris.core.position import Position

    with open_tablebase(str(tmp_path), search="never") as tb:
        with pytest.raises(MissingSubspaceError) as info:
            tb.probe(Position.parse("a1,b2,d1,g1,a4,g4,a7,d3,f2/b6,d7,g7,c3,c4,c5,e3,e4,e5 w"))
    text = public_text(str(info.value), tb.paths)
    assert "looked in <db> or <shipped data>" in text, text
    assert str(tmp_path) not in text and data_dir() not in text
