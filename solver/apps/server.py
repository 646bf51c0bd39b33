"""``morris serve``: the tablebase over HTTP, a JSON API and an explorer page.

Built on FastAPI (Starlette) and served by uvicorn, from the ``web`` extra
(``pip install 'morris-solver[web]'``). Lookups run in a thread pool, off the event loop.

====================  =================================================================
path                  answer
====================  =================================================================
``/``                 the explorer (HTML): ``/?position=<compact or FEN>&variant=six``
``/board.svg``        the board of ``?position=`` as SVG
``/api/probe``        the JSON of ``morris query --json`` (moves best first)
``/api/bestmove``     the JSON of ``morris bestmove --json``
``/api/health``       ``{"status": "ok"}``
``/openapi.json``     the API's description (``/docs`` shows it)
====================  =================================================================

Errors on ``/api/...`` answer JSON ``{"error": ...}`` with the status (errors.py): 400 bad input,
404 no such path, 405 a method other than GET/HEAD, 414 a URL over ``MAX_URL`` bytes, 431 headers
over ``MAX_HEADERS`` bytes, 503 a database file that is missing or damaged (named relative to the
database directory), 500 a bug (logged, serving goes on). ``/docs`` describes the API on a page
of its own, with nothing loaded from elsewhere.
"""

# no "from __future__ import annotations": FastAPI reads the handlers' annotations at run time
import asyncio
import traceback
from collections import Counter

from .bot import PerfectPlayer, bestmove_json
from .advice import public_text
from .annotate import DEFAULT_SLIP, annotate_game, game_json
from ..core.errors import MorrisError, ServeError
from ..core.position import Position
from ..core.variants import variant_names
from ..core.records import read_games
from ..lookups.tablebase import open_tablebase
from .explorer import explorer_page, variant_of
from .gamepage import game_page
from .svg import board_svg
from .statspage import stats_page

MAX_POSITION = 400
#: seconds a lookup may take before its request is answered 503 (a search of the placement
#: phase takes seconds; a file that never answers, for ever)
LOOKUP_TIMEOUT = 120.0
MAX_URL = 4096
MAX_SEEN = MAX_URL  # (the URL's limit comes first; the positions since the last removal suffice)
MAX_HEADERS = 8192
INSTALL_HINT = "pip install 'morris-solver[web]' (from a checkout: pip install '.[web]')"


def _import_web():
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise ServeError(f"morris serve needs FastAPI and uvicorn: {INSTALL_HINT}") from None


def create_app(db: str):
    """The ASGI application serving the databases under ``db``: guards (sizes, errors as JSON),
    then the routes (:func:`_add_guards`, :func:`_add_routes`)."""
    _import_web()
    from fastapi import FastAPI

    tb = open_tablebase(db)
    app = FastAPI(title="morris tablebase", version="1",
                  description="Perfect-play values of Nine Men's Morris positions and their moves.",
                  docs_url=None, redoc_url=None)  # /docs is ours: FastAPI's loads scripts from a CDN
    app.state.tb = tb
    _add_guards(app)
    _add_routes(app, tb)
    return app


def _error(status, text):
    from fastapi.responses import JSONResponse

    return JSONResponse({"error": text}, status_code=status)


def _add_guards(app) -> None:
    """Size limits on every request, and every error answered as JSON ``{"error": ...}``."""
    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException as StarletteHTTPException

    app.add_middleware(_Limits)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, exc):
        if exc.status_code == 404:
            text = f"no such path {request.url.path}; try /api/probe, /api/bestmove or /"
        elif exc.status_code == 405:
            text = f"method {request.method} not allowed; use GET"
        else:
            text = str(exc.detail)
        return _error(exc.status_code, text)

    @app.exception_handler(RequestValidationError)
    async def bad_params(request, exc):
        parts = []
        for e in exc.errors():
            loc = ".".join(str(x) for x in e.get("loc", ())[1:])
            parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
        text = "; ".join(parts)
        if "position" in text and "Field required" in text:
            text = "missing query parameter: position"
        return _error(400, text)

    @app.exception_handler(Exception)
    async def crashed(request, exc):  # pragma: no cover - a bug
        traceback.print_exc()
        return _error(500, f"internal error: {type(exc).__name__}")


class _Limits:
    """Plain ASGI middleware (Starlette's decorator form costs a task group per request):
    a URL over ``MAX_URL`` bytes is 414, headers over ``MAX_HEADERS`` 431, and an exception
    that escapes the app a logged 500 (serving goes on)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        raw = scope.get("raw_path", b"") + b"?" + scope.get("query_string", b"")
        if len(raw) > MAX_URL:
            return await _error(414, f"URL longer than {MAX_URL} bytes")(scope, receive, send)
        size = sum(len(k) + len(v) + 4 for k, v in scope.get("headers", []))
        if size > MAX_HEADERS:
            return await _error(431, f"request headers longer than {MAX_HEADERS} bytes")(scope, receive, send)
        started = False

        async def tracking_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:  # a bug: say so, keep serving
            traceback.print_exc()
            if not started:
                await _error(500, f"internal error: {type(exc).__name__}")(scope, receive, send)


def lookup(tb, kind, params, position, seed=None, pos=None):
    """(HTTP status, JSON body) of a probe or bestmove request. Bad input is 400, a missing
    or damaged database file 503 (errors.py), the body naming files relative to the database.
    A bestmove's ``seen`` parameter: the game's earlier positions, separated by ``;`` (the bot
    then keeps a drawn game from ending by repetition, bot.py; only the positions since the last
    removal or placement can come again, so those suffice)."""
    if len(position) > MAX_POSITION:
        return 400, {"error": f"position longer than {MAX_POSITION} characters"}
    history = params.get("seen") or ""
    if len(history) > MAX_SEEN:
        return 400, {"error": f"seen longer than {MAX_SEEN} characters"}
    try:
        if pos is None:
            pos = Position.parse(position, variant_of(params))
        if kind == "probe":
            obj = tb.analyze(pos).to_json()
            obj["position"] = position
            return 200, obj
        seen = Counter(Position.parse(p, pos.variant).key for p in history.split(";") if p.strip())
        seen[pos.key] += 1
        return 200, bestmove_json(PerfectPlayer(tb, seed).choose(pos, seen), position)
    except MorrisError as exc:
        return failure(tb, exc)


def failure(tb, exc) -> tuple:
    """(status, JSON) of a refused request: the error's status and its line, no server path."""
    return exc.http_status, {"error": public_text(f"{type(exc).__name__}: {exc}", tb.paths)}


async def answer(tb, kind, params, position, seed=None, timeout: float | None = None):
    """:func:`lookup` in a worker thread, so that no file (a slow disk, a search of seconds)
    holds up the event loop and the other requests; after ``timeout`` seconds (default
    ``LOOKUP_TIMEOUT``) the request gets a 503 and the server goes on."""
    from starlette.concurrency import run_in_threadpool

    pos = None
    if len(position) <= MAX_POSITION:
        try:
            pos = Position.parse(position, variant_of(params))
        except MorrisError:
            pass  # bad input: lookup answers it, at once
    if pos is None:
        return lookup(tb, kind, params, position, seed, pos)
    limit = LOOKUP_TIMEOUT if timeout is None else timeout
    try:
        return await asyncio.wait_for(run_in_threadpool(lookup, tb, kind, params, position, seed, pos),
                                      limit)
    except asyncio.TimeoutError:
        return 503, {"error": f"the lookup took longer than {limit:g} s (a database file that does "
                              f"not answer?); the server goes on"}


async def annotate_answer(tb, text: str, params: dict, slip: int):
    """(status, {"games": [annotate.game_json of each game]}): a bad record is a 400 naming the
    game, ply and token; the grading runs in a worker thread under ``LOOKUP_TIMEOUT``."""
    from starlette.concurrency import run_in_threadpool

    try:
        games = read_games(text, variant_of(params))
    except MorrisError as exc:
        return failure(tb, exc)

    def work():
        out = []
        for record, game in games:
            obj = game_json(annotate_game(tb, record, game, slip))
            for p in obj["plies"]:
                p["why"] = p["why"] and public_text(p["why"], tb.paths)
            out.append(obj)
        return out

    try:
        return 200, {"games": await asyncio.wait_for(run_in_threadpool(work), LOOKUP_TIMEOUT)}
    except MorrisError as exc:
        return failure(tb, exc)
    except asyncio.TimeoutError:
        return 503, {"error": f"grading took longer than {LOOKUP_TIMEOUT:g} s; the server goes on"}


def _add_routes(app, tb) -> None:
    from fastapi import Query, Request
    from fastapi.responses import JSONResponse, Response

    def get(path, **kw):
        """A GET route that answers HEAD too (HEAD left out of the OpenAPI description)."""
        def register(fn):
            app.add_api_route(path, fn, methods=["HEAD"], include_in_schema=False)
            return app.get(path, **kw)(fn)
        return register

    common = dict(
        position=Query(..., description="compact notation or Sanmill FEN", max_length=10_000),
        variant=Query("standard", description=variant_names()),
    )

    @get("/api/probe", summary="Value and distance of a position and of every legal move")
    async def probe(request: Request, position: str = common["position"], variant: str = common["variant"],
                    flying: str | None = None, double_mill_removes: str | None = None):
        status, obj = await answer(tb, "probe", dict(request.query_params), position)
        return JSONResponse(obj, status_code=status)

    @get("/api/bestmove", summary="The perfect player's move")
    async def bestmove(request: Request, position: str = common["position"], variant: str = common["variant"],
                       flying: str | None = None, double_mill_removes: str | None = None,
                       seed: int | None = Query(None, description="tie-break seed"),
                       seen: str | None = Query(None, description="the game's earlier positions, "
                                                "separated by ';' (a drawn game is then kept from "
                                                "ending by repetition)")):
        status, obj = await answer(tb, "bestmove", dict(request.query_params), position, seed)
        return JSONResponse(obj, status_code=status)

    @get("/api/annotate", summary="Every ply of one or more played games graded")
    async def annotate_route(request: Request,
                             game: str = Query(..., max_length=100_000, description=(
                                 "the game(s): the toolkit's move tokens or Sanmill's move list")),
                             variant: str = common["variant"], flying: str | None = None,
                             double_mill_removes: str | None = None,
                             slip: int = Query(DEFAULT_SLIP, ge=0, le=10_000)):
        status, obj = await annotate_answer(tb, game, dict(request.query_params), slip)
        return JSONResponse(obj, status_code=status)

    @get("/api/health", summary="Liveness")
    async def health():
        return {"status": "ok"}

    @get("/board.svg", summary="The board as SVG")
    async def board(request: Request, position: str = common["position"], flip: int = 0, last: str | None = None):
        try:
            pos = Position.parse(position, variant_of(dict(request.query_params)))
            svg = board_svg(pos, flipped=bool(flip), last_move=last or None)
        except MorrisError as exc:
            return _error(400, f"{type(exc).__name__}: {exc}")
        return Response(svg, media_type="image/svg+xml")

    _add_pages(app, tb, get)


def _add_pages(app, tb, get) -> None:
    """The HTML pages: the explorer (``/``), a game graded (``/game``), the statistics and the
    API's description."""
    from fastapi import Request
    from fastapi.responses import HTMLResponse
    from starlette.concurrency import run_in_threadpool

    @get("/stats", response_class=HTMLResponse, include_in_schema=False)
    async def stats(request: Request):

        try:
            html, status = await run_in_threadpool(stats_page, tb, dict(request.query_params))
        except MorrisError as exc:
            html = f"<!doctype html><p class='error'>{type(exc).__name__}: {public_text(str(exc), tb.paths)}</p>"
            status = exc.http_status
        return HTMLResponse(html, status_code=status)

    @get("/game", response_class=HTMLResponse, include_in_schema=False)
    async def game(request: Request):
        try:
            html, status = await asyncio.wait_for(
                run_in_threadpool(game_page, tb, dict(request.query_params)), LOOKUP_TIMEOUT)
        except asyncio.TimeoutError:
            html, status = "<!doctype html><p class='error'>grading took too long</p>", 503
        return HTMLResponse(html, status_code=status)

    @get("/docs", response_class=HTMLResponse, include_in_schema=False)
    async def docs():
        return HTMLResponse(api_page(app.openapi()))

    @get("/", response_class=HTMLResponse, include_in_schema=False)
    async def index(request: Request):
        html, status = await run_in_threadpool(explorer_page, tb, dict(request.query_params))
        return HTMLResponse(html, status_code=status)


def api_page(spec: dict) -> str:
    """The API's description as one HTML page with nothing from elsewhere (each path, what it
    answers, its parameters; the machine-readable form is /openapi.json)."""
    from html import escape

    rows = []
    for path, ops in sorted(spec.get("paths", {}).items()):
        for method, op in ops.items():
            params = ", ".join(f"<code>{escape(p['name'])}</code>" + (" (required)" if p.get("required") else "")
                               for p in op.get("parameters", []))
            rows.append(f"<tr><td>{method.upper()}</td><td><code>{escape(path)}</code></td>"
                        f"<td>{escape(op.get('summary', ''))}</td><td>{params}</td></tr>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>morris API</title></head><body>"
            f"<h1>{escape(spec.get('info', {}).get('title', 'API'))}</h1>"
            "<p>Every answer is JSON; errors are <code>{\"error\": ...}</code> with the status. "
            "The machine-readable description: <a href='/openapi.json'>/openapi.json</a>.</p>"
            "<table><tr><th>method</th><th>path</th><th>answer</th><th>parameters</th></tr>"
            + "".join(rows) + "</table></body></html>")


def json_error_protocol():
    """uvicorn's h11 protocol, answering a request it cannot parse (malformed HTTP) with the
    JSON error body of every other error instead of its plain text."""
    import json

    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class JSONErrorProtocol(H11Protocol):
        def send_400_response(self, msg: str) -> None:
            body = json.dumps({"error": f"malformed HTTP request: {msg}"}).encode()
            headers = [(b"content-type", b"application/json"), (b"connection", b"close"),
                       (b"content-length", str(len(body)).encode())]
            for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                          h11.Data(data=body), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self.transport.close()

    return JSONErrorProtocol


def make_server(db: str, host: str = "127.0.0.1", port: int = 8080, quiet: bool = False):
    """A uvicorn server for the databases under ``db`` (``.run()`` serves until interrupted)."""
    import uvicorn

    app = create_app(db)
    # uvicorn logs each request at INFO: shown unless quiet
    config = uvicorn.Config(app, host=host, port=port, log_level="warning" if quiet else "info",
                            access_log=not quiet, http=json_error_protocol(), h11_max_incomplete_event_size=1 << 20,
                            timeout_keep_alive=15)
    return uvicorn.Server(config)


def listening_socket(host: str, port: int):
    """A socket bound to ``host:port`` (port 0: a free port the system picks), or
    :class:`ServeError` naming why it cannot be."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    family, kind, proto, _, addr = infos[0]
    s = socket.socket(family, kind, proto)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(addr)
    except OSError as exc:
        s.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return s


def url_of(host: str, port: int) -> str:
    """The URL a browser opens for ``host:port`` (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(db, host="127.0.0.1", port=8080, quiet=False, ready=None):
    """Serve until interrupted; ``ready(url)`` is called with the address before serving (the
    port the system chose where ``port`` is 0)."""
    _import_web()
    sock = listening_socket(host, port)
    port = sock.getsockname()[1]
    server = make_server(db, host, port, quiet)
    if ready:
        ready(url_of(host, port))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        server.config.app.state.tb.close()
