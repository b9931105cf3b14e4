"""The Sudoku page's endpoints: solve, count or validate a pasted grid, and generate one of a chosen difficulty.

A grid travels as text in either of the formats `pysolve solve sudoku`
reads (one line of 16, 36, 81 or 256 characters with `.` or `0` for an
empty cell, or N lines of N cells, rules allowed), read by the puzzle's own
reader; it is asked of the chosen back end under the serving budget. A
count stops at K (at most MAX_COUNT), and when it found two solutions both
are drawn, the cells where they differ marked. Givens are drawn bold and
black, filled-in digits blue (the puzzle's own SVG drawing).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve.budget import Budget
from pysolve.errors import InputError, SearchLimitExceeded
from pysolve.sudoku import generate, model, python
from pysolve.sudoku.model import BOXES, Question
from pysolve.web.core import MAX_SECONDS, Choice, Workers, board_puzzle, board_view
from pysolve.web.guard import body, excerpt, field_of

PASTED = "the grid"  # how messages name a grid sent by the page
MAX_COUNT = 1000  # the largest K a count may stop at (every solution found is kept until the answer)
DIFFICULTIES = ("any", *(label for _, label in generate.LABELS), "expert")
SEED_TRIES = 200  # seeds tried, from the one asked, for a puzzle of the difficulty asked


def one_board(text: str) -> model.Board:
    """The one board pasted; InputError when the text holds several (a file of one-line puzzles)."""
    boards = model.parse(text, PASTED)
    if len(boards) > 1:
        raise InputError(f"{PASTED} holds {len(boards)} puzzles, one a line; paste one")
    return boards[0]


def solve_grid(text: str, count: int | None, validate: bool, strategy: str, backend: str) -> dict[str, Any]:
    """Solve (count to `count`) or validate the pasted grid on `backend`.

    The board page's view of the answer, and the first solution as one line (to copy).
    """
    board = one_board(text)
    if validate:
        model.require_filled(board)
    else:
        model.require_consistent(board)
    puzzle = board_puzzle("sudoku")
    answer = puzzle.solve(Question(board, PASTED, count, strategy, validate, MAX_SECONDS), backend)
    view = board_view(puzzle, answer)
    return {**view, "line": model.to_line(view["solution"]) if view["solution"] else None}


def generate_grid(size: int, seed: int, givens: int | None, difficulty: str) -> dict[str, Any]:
    """The first generated puzzle of `difficulty` from `seed` on.

    The first generated puzzle of `difficulty` (any: the first) from `seed` on, trying SEED_TRIES seeds at
    most within the serving time limit; InputError saying what was tried when none is found.
    """
    puzzle = board_puzzle("sudoku")
    clock = Budget(seconds=MAX_SECONDS, label=f"looking for a {size}x{size} sudoku of difficulty {difficulty}")
    for tried in range(SEED_TRIES):
        try:
            clock.check()
        except SearchLimitExceeded as error:
            raise InputError(f"{error} ({tried} seeds from {seed} tried); try another seed or difficulty") from None
        data, text = puzzle.generated(size=size, seed=seed + tried, givens=givens)
        if difficulty in ("any", data["difficulty"]["label"]):
            return {"text": text + "\n", "data": data, "svg": puzzle.svg(data["puzzle"], data["puzzle"])}
    raise InputError(f"no {difficulty} {size}x{size} sudoku among seeds {seed} to {seed + SEED_TRIES - 1}; "
                     "try another seed or difficulty")


def read_count(data: dict[str, Any]) -> int | None:
    """The request's `count` K (1..MAX_COUNT), or None: find the first solution."""
    count = field_of(data, "count", int)
    if count is not None and not 1 <= count <= MAX_COUNT:
        raise InputError(f"count to K: K is 1 to {MAX_COUNT}, not {count}")
    return count


def read_choice(data: dict[str, Any], name: str, choices: tuple[Any, ...], default: Any) -> Any:
    """The request's `name`, one of `choices` (or `default`); InputError naming them otherwise."""
    value = field_of(data, name, type(default), default=default)
    if value not in choices:
        raise InputError(f"{name} {excerpt(value)} is not one of {', '.join(map(str, choices))}")
    return value


def routes(workers: Workers, choice: Choice) -> list[Route]:
    """The Sudoku endpoints: what the page offers, solve/count/validate, generate."""

    async def offered(request: Request) -> JSONResponse:
        return JSONResponse({"strategies": list(python.STRATEGIES), "sizes": list(BOXES),
                             "difficulties": list(DIFFICULTIES), "max_count": MAX_COUNT})

    async def solve(request: Request) -> JSONResponse:
        data = await body(request)
        backend = choice.pick(data)
        text = field_of(data, "grid", str, required=True)
        count, validate = read_count(data), field_of(data, "validate", bool, default=False)
        if validate and count:
            raise InputError("validate checks a filled grid; it takes no count")
        strategy = read_choice(data, "strategy", python.STRATEGIES, python.FAST)
        return JSONResponse(await workers.run(request, solve_grid, text, count, validate, strategy, backend))

    async def make(request: Request) -> JSONResponse:
        data = await body(request)
        size = read_choice(data, "size", tuple(BOXES), 9)
        seed, givens = field_of(data, "seed", int, default=1), field_of(data, "givens", int)
        if givens is not None and not 0 <= givens <= size * size:
            raise InputError(f"givens: {givens} is not between 0 and {size * size} for a {size}x{size} sudoku")
        difficulty = read_choice(data, "difficulty", DIFFICULTIES, "any")
        return JSONResponse(await workers.run(request, generate_grid, size, seed, givens, difficulty))

    return [
        Route("/api/sudoku/options", offered, methods=["GET"]),
        Route("/api/sudoku/solve", solve, methods=["POST"]),
        Route("/api/sudoku/generate", make, methods=["POST"]),
    ]
