"""The Hidato page's endpoints: shipped boards, solving a board (counted to 2: unique?), generating one.

A board travels as the text of a hidato file (`__` empty, `.` blocked, or
JSON rows), so a shipped board, a pasted one and a generated one are solved
the same way. Solving counts up to two solutions on the chosen back end, so
the answer says whether the board is unique; the solution is drawn with its
path from 1 to N by the puzzle's own SVG drawing, and a second one, when the
board has one, beside it with the cells where the two differ marked.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve import files
from pysolve.errors import UnknownName
from pysolve.hidato import model
from pysolve.paths import data_dir
from pysolve.web.core import Choice, Workers, board_puzzle, board_view
from pysolve.web.guard import body, field_of

PASTED = "the board"  # how messages name a board sent by the page
GENERATE_FIELDS = ("rows", "cols", "holes", "givens", "seed")


def shipped() -> dict[str, str]:
    """Shipped boards by name (`sample`, `rect_8x8_s14`, `long/snake_3x50`): their files."""
    folder = data_dir() / "hidato"
    return {str(path.relative_to(folder).with_suffix("")): str(path)
            for path in sorted(folder.glob("*.txt")) + sorted((folder / "long").glob("*.txt"))}


def shapes() -> dict[str, str]:
    """Shipped board shapes by name (`cross`, `diamond`, `ring`): their files."""
    return {path.stem: str(path) for path in sorted((data_dir() / "hidato" / "shapes").glob("*.txt"))}


def shape_file(name: str | None) -> str | None:
    """The file of the shipped shape `name` (None: a rectangle); never a path the request names."""
    if name is None:
        return None
    known = shapes()
    if name not in known:
        raise UnknownName(f"no shipped hidato shape {name!r}; shipped: {', '.join(known)}")
    return known[name]


def board_text(name: str) -> str:
    """The text of the shipped board `name`; UnknownName when there is none."""
    boards = shipped()
    if name not in boards:
        raise UnknownName(f"no shipped hidato board {name!r}; shipped: {', '.join(boards)}")
    return files.read_text(boards[name], "hidato file")


def solve_board(text: str, backend: str) -> dict[str, Any]:
    """Solve the board `text` on `backend`, counting to 2: the answer, uniqueness and the drawings."""
    puzzle = board_puzzle("hidato")
    board = model.parse(text, PASTED)
    question = model.Question(board, PASTED, count=2)
    answer = puzzle.solve(question, backend)
    return board_view(puzzle, answer)


def generate_board(values: dict[str, Any]) -> dict[str, Any]:
    """A generated unique board (the generator's options, checked as the CLI checks them: rows and cols, or a
    shape)."""
    puzzle = board_puzzle("hidato")
    data, text = puzzle.generated(**values)
    return {"text": text + "\n", "data": data, "svg": puzzle.svg(data["puzzle"], data["puzzle"])}


def routes(workers: Workers, choice: Choice) -> list[Route]:
    """The Hidato endpoints."""

    async def boards(request: Request) -> JSONResponse:
        return JSONResponse({"boards": list(shipped()), "shapes": list(shapes())})

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
