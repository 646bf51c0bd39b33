"""``morris serve``: a tablebase HTTP API in the style of the public chess tablebase servers.

    GET /api/probe?position=<compact or FEN>[&variant=six]
        the same object as ``morris query --json``: value and dtc of the position and of every
        move, ``moves`` sorted best first
    GET /api/bestmove?position=...
        {"position", "move", "value", "dtc", "rule"}: the perfect player's move
    GET /api/health
        {"status": "ok"}

Bad input answers 400 with ``{"error": ...}``, a position no database covers 404, anything else
unexpected 500 (and is logged); nothing hangs: each connection has a timeout. Requests are served
by a thread each; the tablebase is shared (it is thread-safe).
"""

from __future__ import annotations

import json
import sys
import threading
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from .bot import PerfectPlayer, bestmove_json
from .errors import MissingSubspaceError, MorrisError, OutsideDatabaseError
from .position import Position
from .tablebase import open_tablebase
from .variants import get_variant

MAX_POSITION = 400


class TablebaseServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, db, quiet=False):
        super().__init__(address, Handler)
        self.tb = open_tablebase(db)
        self.quiet = quiet
        self._seed_lock = threading.Lock()

    def server_close(self):
        super().server_close()
        self.tb.close()


class Handler(BaseHTTPRequestHandler):
    server_version = "morris-tablebase/1"
    timeout = 15  # seconds a client may take to send its request

    def log_message(self, fmt, *args):
        if not self.server.quiet:
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    def _send(self, status: int, obj):
        body = (json.dumps(obj) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        try:
            url = urlparse(self.path)
            query = parse_qs(url.query, keep_blank_values=True)
            if url.path == "/api/health":
                return self._send(200, {"status": "ok"})
            if url.path not in ("/api/probe", "/api/bestmove"):
                return self._send(404, {"error": f"no such endpoint {url.path}; try /api/probe or /api/bestmove"})
            text = query.get("position", [""])[0]
            if not text:
                return self._send(400, {"error": "missing query parameter: position"})
            if len(text) > MAX_POSITION:
                return self._send(400, {"error": f"position longer than {MAX_POSITION} characters"})
            variant = get_variant(query.get("variant", ["standard"])[0])
            pos = Position.parse(text, variant)
            if url.path == "/api/probe":
                obj = self.server.tb.analyze(pos).to_json()
            else:
                seed = query.get("seed", [None])[0]
                try:
                    seed = None if seed in (None, "") else int(seed)
                except ValueError:
                    return self._send(400, {"error": f"seed must be a number, got {seed!r}"})
                return self._send(200, bestmove_json(PerfectPlayer(self.server.tb, seed).choose(pos), text))
            obj["position"] = text
            return self._send(200, obj)
        except (MissingSubspaceError, OutsideDatabaseError) as exc:
            return self._send(404, {"error": f"{type(exc).__name__}: {exc}"})
        except MorrisError as exc:
            return self._send(400, {"error": f"{type(exc).__name__}: {exc}"})
        except Exception as exc:  # pragma: no cover - a bug: say so, keep serving
            traceback.print_exc()
            return self._send(500, {"error": f"internal error: {type(exc).__name__}"})

    def _not_allowed(self):
        self._send(405, {"error": f"method {self.command} not allowed; use GET"})

    do_POST = do_PUT = do_DELETE = do_PATCH = _not_allowed


def serve(db, host="127.0.0.1", port=8080, quiet=False, ready=None):
    """Serve until interrupted. ``ready(server)`` is called once listening (tests use it)."""
    server = TablebaseServer((host, port), db, quiet=quiet)
    if ready:
        ready(server)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
