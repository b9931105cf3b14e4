"""The squares page's endpoint: the original's search on an instance, recorded for the page to replay.

The trace is the one `pysolve solve squares --trace-html` writes (the
Python reference search: row by row, every unused piece in each turn,
recording each placement, backtrack and solution in pysolve's trace format,
pysolve.trace), here run over the whole search so that the page can jump
from one solution to the next. The pieces
are the SVG groups of `pysolve.squares.draw`, shared with the static replay.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve import api, files
from pysolve.errors import UnknownName
from pysolve.squares import draw
from pysolve.squares.model import SHIPPED, Instance, Question, parse, shipped_dir
from pysolve.squares.puzzle import search_trace
from pysolve.web.core import Workers
from pysolve.web.guard import body, excerpt, field_of

MAX_EVENTS = 50_000  # events sent to the page; a longer search is cut (and says so)


def trace(instance: Instance) -> dict[str, Any]:
    """The whole search on `instance` as events of the trace format, under the squares question's usual budget."""
    recorded = search_trace(instance, False, api.get_puzzle("squares").budget(Question(instance)), MAX_EVENTS)
    return {"name": instance.name, "rows": instance.rows, "cols": instance.cols, "rule": instance.rule,
            "defs": draw.defs(instance), "size": draw.SIZE, "events": recorded.events,
            "truncated": recorded.end["truncated"],
            "solutions": sum(1 for event in recorded.events if event["e"] == "solution")}


def shipped(name: str) -> Instance:
    """The shipped instance `name`, read from data/squares/ (never a path on the server, nor a file of that
    name where the server runs); UnknownName when there is none."""
    if name not in SHIPPED:
        raise UnknownName(f"no shipped squares instance {excerpt(name)}; shipped: {', '.join(SHIPPED)}")
    return parse(files.read_text(shipped_dir() / SHIPPED[name], "squares file"), name)


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
            instance = shipped(field_of(data, "instance", str, default="insects"))
        return JSONResponse(await workers.run(request, trace, instance))

    return [
        Route("/api/squares/instances", instances, methods=["GET"]),
        Route("/api/squares/trace", replay, methods=["POST"]),
    ]
