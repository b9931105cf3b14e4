"""The Hidato page's endpoints: shipped boards, solving a board (counted to 2: unique?), generating one.

A board travels as the text of a hidato file (`__` empty, `.` blocked, or
JSON rows), so a shipped board, a pasted one and a generated one are solved
the same way. Solving counts up to two solutions on the chosen back end, so
the answer says whether the board is unique; the solution is drawn with its
path from 1 to N by the puzzle's own SVG drawing, and a second one, when the
board has one, beside it with the cells where the two differ marked.
Shipped boards and shapes go by the names the CLI takes (`pysolve list
hidato`: `sample`, `sample.txt`, `shapes/ring`), never by a path.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve import files
from pysolve.catalogue import Catalogue
from pysolve.hidato import model
from pysolve.web.core import Choice, Workers, board_puzzle, board_view
from pysolve.web.guard import body, field_of, shipped_file

PASTED = "the board"  # how messages name a board sent by the page
GENERATE_FIELDS = ("rows", "cols", "holes", "givens", "seed")


SHAPES = "shapes/"  # the shipped shapes' folder: the generator's --shape, not boards to solve


def catalogue() -> Catalogue:
    """Hidato's shipped instances, as the CLI names them (`pysolve list hidato`)."""
    return board_puzzle("hidato").catalogue()


def listed() -> dict[str, list[str]]:
    """The page's lists of shipped boards and shapes.

    The page's lists: the shipped boards (`sample`, `long/snake_3x50`, `public/csp_a1_6x6`) and shapes
    (`shapes/ring`), by their catalogue names.
    """
    names = catalogue().names()
    return {"boards": [name for name in names if not name.startswith(SHAPES)],
            "shapes": [name for name in names if name.startswith(SHAPES)]}


def shape_file(name: str | None) -> str | None:
    """The file of the shipped instance `name` whose open cells shape a generated board (None: a rectangle).

    Any name `pysolve generate hidato --shape` takes of the shipped ones, never a path on the server.
    """
    return None if name is None else str(shipped_file(catalogue(), name, "the shape"))


def board_text(name: str) -> str:
    """The text of the shipped board `name` (any of its names the CLI takes); UnknownName when there is none."""
    return files.read_text(shipped_file(catalogue(), name, "the board"), "hidato file")


def solve_board(text: str, backend: str) -> dict[str, Any]:
    """Solve the board `text` on `backend`, counting to 2: the answer, uniqueness and the drawings."""
    puzzle = board_puzzle("hidato")
    board = model.parse(text, PASTED)
    question = model.Question(board, PASTED, count=2)
    answer = puzzle.solve(question, backend)
    return board_view(puzzle, answer)


def generate_board(values: dict[str, Any]) -> dict[str, Any]:
    """A generated unique board (the generator's options, checked as the CLI checks them: rows and cols, or a shape)."""
    puzzle = board_puzzle("hidato")
    data, text = puzzle.generated(**values)
    return {"text": text + "\n", "data": data, "svg": puzzle.svg(data["puzzle"], data["puzzle"])}


def routes(workers: Workers, choice: Choice) -> list[Route]:
    """The Hidato endpoints."""

    async def boards(request: Request) -> JSONResponse:
        return JSONResponse(listed())

    async def board(request: Request) -> JSONResponse:
        text = board_text(request.path_params["name"])
        rows = model.parse(text, request.path_params["name"]).grid()
        return JSONResponse({"text": text, "svg": board_puzzle("hidato").svg(rows, rows)})

    async def solve(request: Request) -> JSONResponse:
        data = await body(request)
        backend = choice.pick(data)
        text = field_of(data, "board", str, required=True)
        return JSONResponse(await workers.run(request, solve_board, text, backend))

    async def generate(request: Request) -> JSONResponse:
        data = await body(request)
        values = {name: field_of(data, name, (int, float) if name == "givens" else int) for name in GENERATE_FIELDS}
        values["shape"] = shape_file(field_of(data, "shape", str))
        return JSONResponse(await workers.run(request, generate_board, values))

    return [
        Route("/api/hidato/boards", boards, methods=["GET"]),
        Route("/api/hidato/boards/{name:path}", board, methods=["GET"]),
        Route("/api/hidato/solve", solve, methods=["POST"]),
        Route("/api/hidato/generate", generate, methods=["POST"]),
    ]
