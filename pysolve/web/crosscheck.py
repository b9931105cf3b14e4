"""The cross-check page's endpoints: any puzzle's question, asked of every back end, compared.

The page knows no puzzle: it reads the registry (`pysolve.api`), builds a
form from each puzzle's question options (the options of `pysolve
crosscheck NAME`), and the question goes through the same checks as on the
command line. A FILE option names a shipped instance (as `pysolve list`
names it, or by its file under `data/PUZZLE/`) or carries the text of an
uploaded one: never a path on the server (`guard.Files`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve import api, backends
from pysolve.agreement import SECONDS, CrossCheck, crosscheck
from pysolve.errors import InputError
from pysolve.options import Option
from pysolve.puzzle import Puzzle
from pysolve.web.core import MAX_SECONDS, Workers
from pysolve.web.guard import Files, body, excerpt, field_of

SHOWN = 4000  # characters of the first answer's drawing sent to the page
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colour codes a drawing may carry when the server runs in a terminal


def option_view(option: Option, shipped: list[str]) -> dict[str, Any]:
    """One question option as the page's form shows it.

    A FILE option comes with the shipped names to pick from; `seconds` is each back end's time limit (the
    cross-check's default; at most MAX_SECONDS here)."""
    default, help_text = option.default, option.help
    if option.name == "seconds":
        default = SECONDS
        help_text = f"time limit of each back end, which run side by side (at most {MAX_SECONDS:g} here)"
    return {"name": option.name, "type": option.type.__name__, "default": default, "help": help_text,
            "choices": list(option.choices), "required": option.required, "positional": option.positional,
            "many": option.many, "file": option.reads_file, "shipped": shipped if option.reads_file else []}


def puzzles_view() -> list[dict[str, Any]]:
    """Every registered puzzle with its question options."""
    views = []
    for name in api.puzzle_names():
        puzzle = api.get_puzzle(name)
        shipped = [entry.file for entry in puzzle.catalogue().entries]
        views.append({"name": name, "summary": puzzle.summary,
                      "options": [option_view(option, shipped) for option in puzzle.question_options()]})
    return views


def file_of(option: Option, value: Any, files: Files) -> str:
    """The path a FILE option's value stands for: a shipped instance's name, or uploaded text.

    Uploaded text comes as `{"text": ..., "name": ...}` and is written for the reader; InputError for anything
    else, a path above all."""
    if isinstance(value, dict):
        return files.upload(field_of(value, "text", str, required=True),
                            field_of(value, "name", str, default="uploaded.txt"))
    if not isinstance(value, str):
        raise InputError(f"the option {option.name!r} is a shipped instance's name or {{\"text\": ..., "
                         f"\"name\": ...}} (uploaded content), not {excerpt(value)}")
    return files.shipped(value, f"the option {option.name!r}")


def with_files(puzzle: Puzzle, values: dict[str, Any], files: Files) -> dict[str, Any]:
    """The options with each FILE option's value turned into the path of a shipped or uploaded file."""
    resolved = dict(values)
    for option in puzzle.question_options():
        value = values.get(option.name)
        if value is None or not option.reads_file:
            continue
        many = option.many and isinstance(value, list)
        resolved[option.name] = [file_of(option, item, files) for item in value] if many \
            else file_of(option, value, files)
    return resolved


def each_seconds(puzzle: Puzzle, values: dict[str, Any]) -> float:
    """Each back end's time limit, as on the command line.

    The question's `seconds` (InputError past MAX_SECONDS, this server's most), else the cross-check's default
    (crosscheck.SECONDS)."""
    for option in puzzle.question_options():
        if option.name == "seconds" and values.get("seconds") is not None:
            try:
                asked = option.value(values["seconds"])
            except InputError as error:
                raise in_page_words(puzzle, error) from None
            if asked > MAX_SECONDS:
                raise InputError(f"the option 'seconds' is at most {MAX_SECONDS:g} on this server, not {asked:g}")
            return asked
    return SECONDS


def field_label(option: Option) -> str:
    """An option's name as the page's form labels it (crosscheck.js `field`).

    NAME for a positional one, the name with dashes otherwise."""
    return option.name.upper() if option.positional else option.name.replace("_", "-")


def in_page_words(puzzle: Puzzle, error: InputError) -> InputError:
    """A question's error as the page says it, in its form's words.

    Without the command it names (`pysolve solve fichas: `), each option by its form field's label, not its
    command-line flag ("--m is required" -> "m is required": a label that starts the sentence keeps its case, as
    the form shows it)."""
    # "pysolve solve fichas: ..." -> "...", "pysolve solve tangram has ..." -> "tangram has ..."
    text = re.sub(r"^pysolve [\w-]+ ([\w-]+)(: | )", lambda match: "" if match[2] == ": " else f"{match[1]} ",
                  str(error))
    labels = tuple(f"{field_label(option)} " for option in puzzle.question_options())
    for option in puzzle.question_options():
        if not option.positional:
            text = re.sub(rf"(?<![\w-]){re.escape(option.flag)}(?![\w-])", field_label(option), text)
    return InputError(text if text.startswith(labels) else text[:1].upper() + text[1:])


def report_view(puzzle: Puzzle, report: CrossCheck) -> dict[str, Any]:
    """A cross-check's report as the page shows it.

    The verdict (its word and its line, the CLI's), the table of answers (status, summary, seconds per back end),
    every back end that gave no answer with its kind and reason, and the first answer drawn."""
    rows = [{"backend": name, "status": answer.status, "summary": puzzle.summarise(answer),
             "seconds": answer.stats.get("seconds"),
             "stats": {key: value for key, value in answer.stats.items() if key != "seconds"}}
            for name, answer in report.results.items()]
    missing = [{"backend": name, "status": why.kind, "reason": why.reason} for name, why in report.unanswered().items()]
    said = report.to_json()
    first = next(iter(report.results.values()), None)
    drawing = ANSI.sub("", puzzle.render(first))[:SHOWN] if first is not None else ""
    return {"puzzle": report.puzzle, "label": report.label, "question": report.question,
            "verdict": report.verdict, "summary": report.summary(), "compared": report.compared,
            "agree": report.agree, "difference": report.difference,
            "limit_seconds": report.limit_seconds, "seconds": report.seconds,
            "results": rows, "missing": missing, "skipped": said["skipped"], "declined": said["declined"],
            "drawing": drawing, "drawn_by": first.backend if first is not None else None}


def ask(puzzle: Puzzle, values: dict[str, Any], only: list[str] | None) -> dict[str, Any]:
    """Build the question from the options and cross-check it, each back end within its own time limit.

    The options are checked as the CLI checks them (files shipped or uploaded, errors in the page's words); the
    answer names the files as the request did."""
    seconds = each_seconds(puzzle, values)
    with Files(puzzle.catalogue()) as files:
        try:
            question = puzzle.question(**with_files(puzzle, values, files))
        except InputError as error:
            raise in_page_words(puzzle, error) from None
        report = report_view(puzzle, crosscheck(puzzle, question, only, seconds=seconds))
        return json.loads(files.shown(json.dumps(report)))


def routes(workers: Workers) -> list[Route]:
    """The cross-check endpoints: the puzzles and their options, and one cross-check."""

    async def puzzles(request: Request) -> JSONResponse:
        return JSONResponse({"puzzles": puzzles_view()})

    async def check(request: Request) -> JSONResponse:
        data = await body(request)
        puzzle = api.get_puzzle(field_of(data, "puzzle", str, required=True))
        values = field_of(data, "options", dict, default={})
        each_seconds(puzzle, values)  # refused before it waits for a worker
        only = field_of(data, "backends", list)
        if only is not None and not all(isinstance(name, str) for name in only):
            raise InputError(f"the field 'backends' must be a list of back-end names, not {excerpt(only)}")
        for name in only or ():
            backends.check_name(name)
        return JSONResponse(await workers.run(request, ask, puzzle, values, only))

    return [
        Route("/api/crosscheck/puzzles", puzzles, methods=["GET"]),
        Route("/api/crosscheck", check, methods=["POST"]),
    ]
