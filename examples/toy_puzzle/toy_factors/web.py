"""The factors page: a page of one's own, which `pysolve serve` lists in its menu through the
`pysolve.web_pages` entry point (pyproject.toml). Its template extends pysolve's base.html."""

from pathlib import Path
from typing import Any

import pysolve
from pysolve.web.guard import body, field_of
from pysolve.web.pages import Page
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


def routes(workers: Any, choice: Any) -> list[Route]:
    """One endpoint: the factor pairs of `n` on the chosen back end, asked off the event loop."""

    async def solve(request: Request) -> JSONResponse:
        data = await body(request)
        backend, n = choice.pick(data), field_of(data, "n", int, required=True)
        answer = await workers.run(request, lambda: pysolve.solve("factors", n=n, backend=backend))
        return JSONResponse({"pairs": answer.solutions, "backend": answer.backend})

    return [Route("/api/factors/solve", solve, methods=["POST"])]


PAGE = Page("Factors", "the factor pairs of a number (a page from a package of its own).", "factors.html", routes,
            Path(__file__).resolve().parent / "templates")
