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

Errors on ``/api/...`` answer JSON ``{"error": ...}`` with the status: 400 bad input, 404 no
database covers the position or no such path, 405 a method other than GET/HEAD, 414 a URL over
``MAX_URL`` bytes, 431 headers over ``MAX_HEADERS`` bytes, 500 a bug (logged, serving goes on).
"""

# no "from __future__ import annotations": FastAPI reads the handlers' annotations at run time
import traceback

from .bot import PerfectPlayer, bestmove_json
from .errors import MissingSubspaceError, MorrisError, OutsideDatabaseError, ServeError
from .position import Position
from .tablebase import open_tablebase
from .explorer import explorer_page, variant_of

MAX_POSITION = 400
MAX_URL = 4096
MAX_HEADERS = 8192
INSTALL_HINT = "pip install 'morris-solver[web]' (from a checkout: pip install '.[web]')"


def _import_web():
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise ServeError(f"morris serve needs FastAPI and uvicorn: {INSTALL_HINT}") from None


def create_app(db: str, quiet: bool = True):
    """The ASGI application serving the databases under ``db``."""
    _import_web()
    from fastapi import FastAPI, Query, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import HTMLResponse, JSONResponse, Response
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException as StarletteHTTPException

    from .svg import board_svg

    tb = open_tablebase(db)
    app = FastAPI(title="morris tablebase", version="1",
                  description="Perfect-play values of Nine Men's Morris positions and their moves.",
                  docs_url="/docs", redoc_url=None)
    app.state.tb = tb

    def error(status, text):
        return JSONResponse({"error": text}, status_code=status)

    def get(path, **kw):
        """A GET route that answers HEAD too (HEAD left out of the OpenAPI description)."""
        def register(fn):
            app.add_api_route(path, fn, methods=["HEAD"], include_in_schema=False)
            return app.get(path, **kw)(fn)
        return register

    @app.middleware("http")
    async def limits(request: Request, call_next):
        raw = request.scope.get("raw_path", b"") + b"?" + request.scope.get("query_string", b"")
        if len(raw) > MAX_URL:
            return error(414, f"URL longer than {MAX_URL} bytes")
        size = sum(len(k) + len(v) + 4 for k, v in request.scope.get("headers", []))
        if size > MAX_HEADERS:
            return error(431, f"request headers longer than {MAX_HEADERS} bytes")
        try:
            response = await call_next(request)
        except Exception as exc:  # a bug: say so, keep serving
            traceback.print_exc()
            return error(500, f"internal error: {type(exc).__name__}")
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, exc):
        if exc.status_code == 404:
            text = f"no such path {request.url.path}; try /api/probe, /api/bestmove or /"
        elif exc.status_code == 405:
            text = f"method {request.method} not allowed; use GET"
        else:
            text = str(exc.detail)
        return error(exc.status_code, text)

    @app.exception_handler(RequestValidationError)
    async def bad_params(request, exc):
        parts = []
        for e in exc.errors():
            loc = ".".join(str(x) for x in e.get("loc", ())[1:])
            parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
        text = "; ".join(parts)
        if "position" in text and "Field required" in text:
            text = "missing query parameter: position"
        return error(400, text)

    @app.exception_handler(Exception)
    async def crashed(request, exc):  # pragma: no cover - a bug
        traceback.print_exc()
        return error(500, f"internal error: {type(exc).__name__}")

    def lookup(kind, params, position, seed=None):
        if len(position) > MAX_POSITION:
            return 400, {"error": f"position longer than {MAX_POSITION} characters"}
        try:
            variant = variant_of(params)
            pos = Position.parse(position, variant)
            if kind == "probe":
                obj = tb.analyze(pos).to_json()
                obj["position"] = position
                return 200, obj
            return 200, bestmove_json(PerfectPlayer(tb, seed).choose(pos), position)
        except (MissingSubspaceError, OutsideDatabaseError) as exc:
            return 404, {"error": f"{type(exc).__name__}: {exc}"}
        except MorrisError as exc:
            return 400, {"error": f"{type(exc).__name__}: {exc}"}

    common = dict(
        position=Query(..., description="compact notation or Sanmill FEN", max_length=10_000),
        variant=Query("standard", description="standard, standard-3 .. standard-8, six"),
    )

    @get("/api/probe", summary="Value and distance of a position and of every legal move")
    async def probe(request: Request, position: str = common["position"], variant: str = common["variant"],
                    flying: str | None = None, double_mill_removes: str | None = None):
        status, obj = await run_in_threadpool(lookup, "probe", dict(request.query_params), position)
        return JSONResponse(obj, status_code=status)

    @get("/api/bestmove", summary="The perfect player's move")
    async def bestmove(request: Request, position: str = common["position"], variant: str = common["variant"],
                       flying: str | None = None, double_mill_removes: str | None = None,
                       seed: int | None = Query(None, description="tie-break seed")):
        status, obj = await run_in_threadpool(lookup, "bestmove", dict(request.query_params), position, seed)
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
            return error(400, f"{type(exc).__name__}: {exc}")
        return Response(svg, media_type="image/svg+xml")

    @get("/", response_class=HTMLResponse, include_in_schema=False)
    async def index(request: Request):
        html, status = await run_in_threadpool(explorer_page, tb, dict(request.query_params))
        return HTMLResponse(html, status_code=status)

    return app


def make_server(db: str, host: str = "127.0.0.1", port: int = 8080, quiet: bool = False):
    """A uvicorn server for the databases under ``db`` (``.run()`` serves until interrupted)."""
    import uvicorn

    app = create_app(db, quiet=quiet)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            access_log=not quiet, h11_max_incomplete_event_size=1 << 20,
                            timeout_keep_alive=15)
    return uvicorn.Server(config)


def check_port(host: str, port: int) -> None:
    """Raise :class:`ServeError` naming the cause when ``host:port`` cannot be listened on."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    family, kind, proto, _, addr = infos[0]
    s = socket.socket(family, kind, proto)
    try:
        s.bind(addr)
    except OSError as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    finally:
        s.close()


def serve(db, host="127.0.0.1", port=8080, quiet=False, ready=None):
    """Serve until interrupted; ``ready(url)`` is called with the address before serving."""
    _import_web()
    check_port(host, port)
    server = make_server(db, host, port, quiet)
    if ready:
        ready(f"http://{host}:{port}/")
    try:
        server.run()
    finally:
        server.config.app.state.tb.close()
