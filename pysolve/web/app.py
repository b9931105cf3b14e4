"""The web application: the pages, their JSON endpoints, and one way of answering errors.

A PysolveError (bad input, an unknown name, an unavailable back end) is a
400 with `{"error": "..."}` in the same words as the CLI's one line; an
unknown game is a 404, a body too large a 413, a wrong method a 405.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from pysolve.errors import PysolveError
from pysolve.web import azul, crosscheck, hidato, squares, tangram
from pysolve.web.core import Choice, Workers

HERE = Path(__file__).resolve().parent
PAGES = {  # path -> (template, title): the pages, in the order the menu shows them
    "/tangram": ("tangram.html", "Tangram"),
    "/squares": ("squares.html", "Squares replay"),
    "/azul": ("azul.html", "Azul"),
    "/hidato": ("hidato.html", "Hidato"),
    "/crosscheck": ("crosscheck.html", "Cross-check"),
}


def create_app(backend: str | None = None, hosts: list[str] | None = None) -> Starlette:
    """The application; `backend` is the pages' default back end (default: prolog when available).

    `hosts`: the host names requests may be addressed to (default: any).
    """
    choice = Choice.here(backend)
    templates = Jinja2Templates(directory=HERE / "templates")
    workers = Workers()

    def page(template: str, title: str) -> Any:
        async def render(request: Request) -> HTMLResponse:
            return templates.TemplateResponse(request, template, {
                "title": title, "pages": PAGES, "backends": choice.view()})
        return render

    async def backends_endpoint(request: Request) -> JSONResponse:
        return JSONResponse(choice.view())

    routes = [
        Route("/", page("index.html", "pysolve"), methods=["GET"]),
        *[Route(path, page(template, title), methods=["GET"]) for path, (template, title) in PAGES.items()],
        Route("/api/backends", backends_endpoint, methods=["GET"]),
        *tangram.routes(workers, choice),
        *hidato.routes(workers, choice),
        *squares.routes(workers),
        *azul.routes(workers, choice),
        *crosscheck.routes(workers),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    guard = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []
    app = Starlette(routes=routes, middleware=guard,
                    exception_handlers={PysolveError: pysolve_error, HTTPException: http_error})
    app.state.workers, app.state.choice = workers, choice  # `serve` starts them, and stops them on Ctrl-C
    return app


class Server(uvicorn.Server):
    """uvicorn's server, which on Ctrl-C first answers the requests waiting on a search (503), so that
    it stops at once instead of waiting for their budgets."""

    def __init__(self, config: uvicorn.Config, workers: Workers) -> None:
        super().__init__(config)
        self.workers = workers

    def handle_exit(self, sig: int, frame: Any) -> None:
        """Release the waiting requests, then shut down as uvicorn does."""
        self.workers.stop()
        super().handle_exit(sig, frame)


async def pysolve_error(request: Request, error: Exception) -> Response:
    """Bad input of any kind: 400 and the error's one line."""
    return JSONResponse({"error": str(error)}, status_code=400)


async def http_error(request: Request, error: Exception) -> Response:
    """404, 405, 413 and the like: the status and a one-line JSON error."""
    assert isinstance(error, HTTPException)
    return JSONResponse({"error": error.detail}, status_code=error.status_code, headers=error.headers)
