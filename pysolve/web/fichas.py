"""The fichas page's endpoints: one strategy's path to replay move by move, and every strategy side by side.

A question is the order (M whites, N greens), a strategy and a flavour, as
`pysolve solve fichas` asks it, on the chosen back end. One search's answer
carries its path (the boards from start to goal, at most MAX_PATH of them)
for the page to step through; the comparison asks every strategy in turn,
each within an equal share of the serving time limit, and answers one row
per strategy: status, path length, states and seconds (or why none).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve import api
from pysolve.answers import Answer
from pysolve.fichas.model import MAX_ORDER, STRATEGIES, Question
from pysolve.search import FLAVOURS
from pysolve.web.core import MAX_SECONDS, Choice, Workers
from pysolve.web.guard import body, field_of

MAX_PATH = 5_000  # boards of a path sent to the page; a longer path is cut (and says so)
SHARE = MAX_SECONDS / len(STRATEGIES)  # the time limit of each strategy in a comparison


def path_view(answer: Answer) -> dict[str, Any]:
    """One search as the page shows it: status, moves, states, seconds, the reason it stopped, and its path."""
    path = answer.solutions[0] if answer.solutions else []
    return {"strategy": answer.asked.strategy, "backend": answer.backend, "status": answer.status,
            "moves": len(path) - 1 if path else None, "states": answer.stats.get("states"),
            "seconds": answer.stats["seconds"], "reason": answer.stats.get("reason"),
            "path": path[:MAX_PATH], "cut": len(path) > MAX_PATH}


def solve_order(question: Question, backend: str) -> dict[str, Any]:
    """One strategy's search on `backend`."""
    return path_view(api.get_puzzle("fichas").solve(question, backend))


def compare(m: int, n: int, flavour: str, backend: str) -> list[dict[str, Any]]:
    """Every strategy on `backend`, each within SHARE seconds.

    One row each, without its path; a strategy the back end does not answer gets a row saying so.
    """
    puzzle, rows = api.get_puzzle("fichas"), []
    for strategy in STRATEGIES:
        question = Question(m, n, strategy, flavour, SHARE)
        if backend not in puzzle.backends_for(question):
            rows.append({"strategy": strategy, "status": f"not answered on {backend}"})
            continue
        row = path_view(puzzle.solve(question, backend))
        rows.append({key: value for key, value in row.items() if key not in ("path", "cut")})
    return rows


def read_order(data: dict[str, Any]) -> tuple[int, int, str]:
    """The request's M, N (checked by the model when the question is made) and flavour."""
    m, n = field_of(data, "m", int, required=True), field_of(data, "n", int, required=True)
    return m, n, field_of(data, "flavour", str, default=FLAVOURS[0])


def routes(workers: Workers, choice: Choice) -> list[Route]:
    """The fichas endpoints: what the page offers, one strategy's path, every strategy compared."""

    async def offered(request: Request) -> JSONResponse:
        return JSONResponse({"strategies": list(STRATEGIES), "flavours": list(FLAVOURS), "max_order": MAX_ORDER})

    async def solve(request: Request) -> JSONResponse:
        data = await body(request)
        backend = choice.pick(data)
        m, n, flavour = read_order(data)
        question = Question(m, n, field_of(data, "strategy", str, default=STRATEGIES[0]), flavour, MAX_SECONDS)
        return JSONResponse(await workers.run(request, solve_order, question, backend))

    async def strategies(request: Request) -> JSONResponse:
        data = await body(request)
        backend = choice.pick(data)
        m, n, flavour = read_order(data)
        Question(m, n, flavour=flavour)  # bad input refused before a worker is taken
        return JSONResponse({"m": m, "n": n, "backend": backend,
                             "rows": await workers.run(request, compare, m, n, flavour, backend)})

    return [
        Route("/api/fichas/options", offered, methods=["GET"]),
        Route("/api/fichas/solve", solve, methods=["POST"]),
        Route("/api/fichas/compare", strategies, methods=["POST"]),
    ]
