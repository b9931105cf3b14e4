"""The web application: the pages, their JSON endpoints, and one way of answering errors.

A PysolveError (bad input, an unknown name, an unavailable back end) is a
400 with `{"error": "..."}` in the same words as the CLI's one line, at most
MAX_MESSAGE characters; any other ValueError or RecursionError the input
causes is a 400 too, in words of its own (Python's are logged, never sent),
and so is a body its client left before its end; an unknown game is a
404, a body too large a 413, a wrong method a 405, a POST from another
origin a 403 and one without JSON a 415, a full line of searches or a
server out of memory a 503. No input makes a 500.

The menu lists the pages of the puzzles (`pysolve.web.pages`: the
`pysolve.web_pages` entry points, a package of one's own included), then
the cross-check.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from pysolve import memory
from pysolve.errors import PysolveError
from pysolve.files import excerpt
from pysolve.web import crosscheck, pages
from pysolve.web.core import Choice, Workers
from pysolve.web.guard import SameOriginJson

MAX_MESSAGE = 300  # characters of an error message sent back
UNUSABLE = "the request holds a value this server cannot use (out of range, or nested too deeply)"
log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
CROSSCHECK = ("/crosscheck", "crosscheck.html", "Cross-check",
              "ask any puzzle question of every back end and compare the answers.")  # the one page of no puzzle


def listed_pages(registered: dict[str, pages.Page] | None = None) -> list[tuple[str, str, str, str]]:
    """Every page the menu lists, in its order: (path, template, title, summary); the cross-check's last."""
    found = pages.registered() if registered is None else registered
    return [*((f"/{name}", page.template, page.title, page.summary) for name, page in found.items()), CROSSCHECK]


def create_app(backend: str | None = None, hosts: list[str] | None = None) -> Starlette:
    """The application; `backend` is the pages' default back end (default: prolog when available).

    `hosts`: the host names requests may be addressed to (default: any).
    """
    choice = Choice.here(backend)
    registered = pages.registered()
    listed = listed_pages(registered)
    menu = {path: (template, title) for path, template, title, _ in listed}
    folders = [HERE / "templates", *dict.fromkeys(page.folder for page in registered.values() if page.folder)]
    templates = Jinja2Templates(directory=folders)
    workers = Workers()

    def page(template: str, title: str) -> Any:
        async def render(request: Request) -> HTMLResponse:
            return templates.TemplateResponse(request, template, {
                "title": title, "pages": menu, "listed": listed, "backends": choice.view()})
        return render

    async def backends_endpoint(request: Request) -> JSONResponse:
        return JSONResponse(choice.view())

    async def favicon(request: Request) -> FileResponse:
        """The icon (the pages link it; browsers also ask /favicon.ico of whatever they are shown)."""
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")

    routes = [
        Route("/", page("index.html", "pysolve"), methods=["GET"]),
        *[Route(path, page(template, title), methods=["GET"]) for path, (template, title) in menu.items()],
        Route("/api/backends", backends_endpoint, methods=["GET"]),
        Route("/favicon.ico", favicon, methods=["GET"]),
        *[route for entry in registered.values() for route in entry.routes(workers, choice)],
        *crosscheck.routes(workers),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    trusted = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []
    app = Starlette(routes=routes, middleware=[*trusted, Middleware(SameOriginJson)],
                    exception_handlers={PysolveError: input_error, ValueError: input_error,
                                        RecursionError: input_error, MemoryError: out_of_memory,
                                        HTTPException: http_error})
    app.state.workers, app.state.choice = workers, choice  # `serve` starts them, and stops them on Ctrl-C
    return app


class Server(uvicorn.Server):
    """uvicorn's server, stopping at once on Ctrl-C.

    uvicorn's server, which on Ctrl-C first answers the requests waiting on a search (503), so that
    it stops at once instead of waiting for their budgets.
    """

    def __init__(self, config: uvicorn.Config, workers: Workers) -> None:
        super().__init__(config)
        self.workers = workers

    def handle_exit(self, sig: int, frame: Any) -> None:
        """Release the waiting requests, then shut down as uvicorn does."""
        self.workers.stop()
        super().handle_exit(sig, frame)


def refusal(message: str, status: int, headers: Mapping[str, str] | None = None) -> Response:
    """A JSON error: `message` on one line, cut to MAX_MESSAGE characters."""
    line = " ".join(message.splitlines())
    if len(line) > MAX_MESSAGE:
        line = line[:MAX_MESSAGE - 3] + "..."
    return JSONResponse({"error": line}, status_code=status, headers=headers)


async def input_error(request: Request, error: Exception) -> Response:
    """Bad input of any kind: 400 and one line.

    A PysolveError's own line; for a ValueError or RecursionError the input caused in the code reading it,
    UNUSABLE (Python's words are no answer: they are logged for whoever runs the server).
    """
    if isinstance(error, PysolveError):
        return refusal(str(error), 400)
    log.warning("%s %s: %s: %s", request.method, request.url.path, type(error).__name__, excerpt(str(error), 200))
    return refusal(UNUSABLE, 400)


async def out_of_memory(request: Request, error: Exception) -> Response:
    """A request that passed the server's memory bound (`pysolve serve --memory`): 503, the server goes on."""
    return refusal(memory.exhausted("the request"), 503)


async def http_error(request: Request, error: Exception) -> Response:
    """404, 405, 413, 503 and the like: the status and a one-line JSON error."""
    assert isinstance(error, HTTPException)
    return refusal(error.detail, error.status_code, error.headers)
