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
from morris.server import TablebaseServer


@pytest.fixture
def server(solved):
    srv = TablebaseServer(("127.0.0.1", 0), solved, quiet=True)
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def get(base, path, **params):
    url = f"{base}{path}?{urllib.parse.urlencode(params)}"
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
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
    ({"position": "a1,d1,g1,b2,b4/a7,d7,g7 w"}, 404, "MissingSubspaceError"),
])
def test_bad_requests(server, params, status, text):
    got, body = get(server, "/api/probe", **params)
    assert got == status and text in body["error"]


def test_other_paths_and_methods(server):
    assert get(server, "/nothing")[0] == 404
    req = urllib.request.Request(f"{server}/api/probe", data=b"x", method="POST")
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(req, timeout=10)
    assert info.value.code == 405


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
