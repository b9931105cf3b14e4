"""The cross-check page's endpoints: any puzzle's question, asked of every back end, compared.

The page knows no puzzle: it reads the registry (`pysolve.api`), builds a
form from each puzzle's question options (the options of `pysolve
crosscheck NAME`), and the question goes through the same checks as on the
command line. FILE options are read on the server, as the CLI reads them.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve import api
from pysolve.crosscheck import CrossCheck
from pysolve.errors import InputError
from pysolve.options import Option
from pysolve.puzzle import Puzzle
from pysolve.web.core import Workers, body, field_of

SHOWN = 4000  # characters of the first answer's drawing sent to the page
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colour codes a drawing may carry when the server runs in a terminal


def option_view(option: Option) -> dict[str, Any]:
    """One question option as the page's form shows it."""
    return {"name": option.name, "type": option.type.__name__, "default": option.default, "help": option.help,
            "choices": list(option.choices), "required": option.required, "positional": option.positional,
            "many": option.many}


def puzzles_view() -> list[dict[str, Any]]:
    """Every registered puzzle with its question options."""
    return [{"name": name, "summary": api.get_puzzle(name).summary,
             "options": [option_view(option) for option in api.get_puzzle(name).question_options()]}
            for name in api.puzzle_names()]


def report_view(puzzle: Puzzle, report: CrossCheck) -> dict[str, Any]:
    """The table of answers (status, summary, seconds per back end), the verdict and the first difference."""
    rows = [{"backend": name, "status": answer.status, "summary": puzzle.summarise(answer),
             "seconds": answer.stats.get("seconds"),
             "stats": {key: value for key, value in answer.stats.items() if key != "seconds"}}
            for name, answer in report.results.items()]
    first = next(iter(report.results.values()), None)
    drawing = ANSI.sub("", puzzle.render(first))[:SHOWN] if first is not None else ""
    return {"puzzle": report.puzzle, "label": report.label, "question": report.question, "agree": report.agree,
            "difference": report.difference, "results": rows, "skipped": report.skipped,
            "drawing": drawing, "drawn_by": first.backend if first is not None else None}


def ask(puzzle: Puzzle, values: dict[str, Any], only: list[str] | None) -> dict[str, Any]:
    """Build the question from the options (checked as the CLI checks them) and cross-check it."""
    question = puzzle.question(**values)
    return report_view(puzzle, api.crosscheck(puzzle, question=question, backends=only))


def routes(workers: Workers) -> list[Route]:
    """The cross-check endpoints: the puzzles and their options, and one cross-check."""

    async def puzzles(request: Request) -> JSONResponse:
        return JSONResponse({"puzzles": puzzles_view()})

    async def check(request: Request) -> JSONResponse:
        data = await body(request)
        puzzle = api.get_puzzle(field_of(data, "puzzle", str, required=True))
        values = field_of(data, "options", dict, default={})
        only = field_of(data, "backends", list)
        if only is not None and not all(isinstance(name, str) for name in only):
            raise InputError(f"the field 'backends' must be a list of back-end names, not {only}")
        return JSONResponse(await workers.run(ask, puzzle, values, only))

    return [
        Route("/api/crosscheck/puzzles", puzzles, methods=["GET"]),
        Route("/api/crosscheck", check, methods=["POST"]),
    ]
