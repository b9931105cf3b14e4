"""The squares page's endpoint: the original's search on an instance, recorded for the page to replay.

The trace is the one `pysolve solve squares --trace-html` writes (the
Python reference search: row by row, every unused piece in each turn,
recording each placement, backtrack and solution), here run over the whole
search so that the page can jump from one solution to the next. The pieces
are the SVG groups of `pysolve.squares.draw`, shared with the static replay.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve import api
from pysolve.errors import UnknownName
from pysolve.squares import draw, python
from pysolve.squares.model import SHIPPED, Instance, Question, load, parse
from pysolve.web.core import Workers, body, field_of

MAX_EVENTS = 50_000  # events sent to the page; a longer search is cut (and says so)


def trace(instance: Instance) -> dict[str, Any]:
    """The whole search on `instance` as events, under the squares question's usual budget."""
    budget = api.get_puzzle("squares").budget(Question(instance))
    recorded = python.Trace(max_events=MAX_EVENTS)
    python.reference(instance, lambda grid: False, budget, recorded)
    return {"name": instance.name, "rows": instance.rows, "cols": instance.cols, "rule": instance.rule,
            "defs": draw.defs(instance), "size": draw.SIZE, "events": [list(event) for event in recorded.events],
            "truncated": recorded.truncated,
            "solutions": sum(1 for event in recorded.events if event[0] == "solution")}


def shipped(name: str) -> str:
    """`name` when it is a shipped instance (never a path on the server); UnknownName otherwise."""
    if name not in SHIPPED:
        raise UnknownName(f"no shipped squares instance {name!r}; shipped: {', '.join(SHIPPED)}")
    return name


def routes(workers: Workers) -> list[Route]:
    """The squares endpoints: the shipped instances, and the trace of one (shipped or uploaded)."""

    async def instances(request: Request) -> JSONResponse:
        return JSONResponse({"instances": list(SHIPPED)})

    async def replay(request: Request) -> JSONResponse:
        data = await body(request)
        text = field_of(data, "file", str)
        if text is not None:
            instance = parse(text, field_of(data, "name", str) or "the uploaded file")
        else:
            instance = load(shipped(field_of(data, "instance", str, default="insects")))
        return JSONResponse(await workers.run(trace, instance))

    return [
        Route("/api/squares/instances", instances, methods=["GET"]),
        Route("/api/squares/trace", replay, methods=["POST"]),
    ]
