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
from pysolve.squares import draw
from pysolve.squares.model import Instance, Question, parse
from pysolve.squares.puzzle import search_trace
from pysolve.web.core import Workers
from pysolve.web.guard import body, field_of, shipped_file

MAX_EVENTS = 50_000  # events sent to the page; a longer search is cut (and says so)


def trace(instance: Instance) -> dict[str, Any]:
    """The whole search on `instance` as events of the trace format, under the squares question's usual budget."""
    recorded = search_trace(instance, False, api.get_puzzle("squares").budget(Question(instance)), MAX_EVENTS)
    return {"name": instance.name, "rows": instance.rows, "cols": instance.cols, "rule": instance.rule,
            "defs": draw.defs(instance), "size": draw.SIZE, "events": recorded.events,
            "truncated": recorded.end["truncated"],
            "solutions": sum(1 for event in recorded.events if event["e"] == "solution")}


def shipped(name: str) -> Instance:
    """The shipped instance `name`, never a path on the server.

    The shipped instance `name` (any of its names the CLI takes: `insects`, `eternity-6x6`,
    `eternity/pieces_06x06`), never a path on the server; UnknownName when there is none.
    """
    path = shipped_file(api.get_puzzle("squares").catalogue(), name, "the instance")
    return parse(files.read_text(path, "squares file"), name)


def known(name: str) -> str | None:
    """What is known of a shipped instance's answer, or None.

    For example "260 solutions, 65 up to rotation" for `eternity-6x6`: a replay cut short cannot count them itself.
    """
    entry = api.get_puzzle("squares").catalogue().find(name)
    return entry.known if entry else None


def names() -> list[str]:
    """The shipped instances as the page lists them: each by its shortest name (`insects`, `eternity-3x3`)."""
    return [min(entry.names, key=len) for entry in api.get_puzzle("squares").catalogue().entries]


def routes(workers: Workers) -> list[Route]:
    """The squares endpoints: the shipped instances, and the trace of one (shipped or uploaded)."""

    async def instances(request: Request) -> JSONResponse:
        return JSONResponse({"instances": names()})

    async def replay(request: Request) -> JSONResponse:
        data = await body(request)
        text = field_of(data, "file", str)
        if text is not None:
            instance, said = parse(text, field_of(data, "name", str) or "the uploaded file"), None
        else:
            name = field_of(data, "instance", str, default="insects")
            instance, said = shipped(name), known(name)
        return JSONResponse({**await workers.run(request, trace, instance), "known": said})

    return [
        Route("/api/squares/instances", instances, methods=["GET"]),
        Route("/api/squares/trace", replay, methods=["POST"]),
    ]
