"""The Traces page's endpoints: two to four searches of one question replayed side by side.

The traces come uploaded (their text, in the body: up to the server's 1 MB,
some 12,000 events; a bigger one is replayed by `pysolve trace --html`) or
asked live: the page names the puzzle, the question's options and the back
ends (or one back end and the values of a search setting to compare, such
as fichas' strategies), and the server runs each search with `--trace` itself, in
its worker under the usual bounds, into a private temporary folder, and
sends back the replay (`pysolve.replay`). It never reads a path a request
names: an uploaded trace is written into that folder first, a FILE option
is a shipped instance's name (`guard.Files`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve import api, backends, replay
from pysolve.budget import Budget
from pysolve.errors import InputError, PysolveError
from pysolve.puzzle import Puzzle
from pysolve.trace import read_trace
from pysolve.web.core import MAX_SECONDS, Choice, Workers
from pysolve.web.crosscheck import each_seconds, in_page_words, puzzles_view, with_files
from pysolve.web.guard import Files, body, excerpt, field_of


def records_searches(puzzle: Puzzle) -> bool:
    """True when a back end of the puzzle records its searches (`pysolve solve NAME --trace FILE`).

    Such a back end declares `Backend.traces`; its module's `can_trace` may still decline some questions."""
    return any(declared.traces for declared in puzzle.offers.values())


def uploaded(items: list[Any]) -> dict[str, Any]:
    """The replay of uploaded traces (`[{"name", "text"}, ...]`), each read and checked as a trace file."""
    if not all(isinstance(item, dict) for item in items):
        raise InputError("the field 'traces' is a list of {\"name\": ..., \"text\": ...} (uploaded trace files)")
    names = [field_of(item, "name", str, default=f"trace-{number}.jsonl") for number, item in enumerate(items, 1)]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise InputError(f"two uploaded traces are named {excerpt(twice[0])}: each goes by a name of its own")
    replay.how_many(len(items))
    with Files() as files:
        paths = [files.upload(field_of(item, "text", str, required=True), name) for item, name in zip(items, names)]
        return shown(replay.together([replay.condensed(read_trace(path), Path(path).name)
                                      for path in paths]))


def shown(traces: list[dict[str, Any]]) -> dict[str, Any]:
    """What the page replays: the traces, what was left out of them, and how many nodes a tree draws."""
    notes = [note for note in (replay.left_out(trace) for trace in traces) if note]
    return {"traces": traces, "notes": notes, "drawn": replay.DRAWN}


Run = tuple[str, dict[str, Any], str]  # a back end, the options it is asked with beyond the question's, a name


def runs_of(puzzle: Puzzle, names: list[str], vary: str | None, values: list[Any] | None) -> list[Run]:
    """The searches a live ask makes: each back end in `names`, or one back end once per setting.

    Without `vary`, each back end in `names` is asked the question; with `vary` (a search setting of the puzzle
    that has choices, such as fichas' strategy), the one back end in `names` is asked with each of `values` (2 to
    MAX_TRACES of the choices)."""
    if vary is None:
        return [(name, {}, f"{name}.jsonl") for name in names]
    varied = [option for option in puzzle.question_options()
              if option.name == vary and option.name in replay.SETTINGS and option.choices]
    if not varied:
        settings = [option.name for option in puzzle.question_options()
                    if option.name in replay.SETTINGS and option.choices]
        raise InputError(f"the field 'vary' names a search setting of {puzzle.name} that has choices "
                         f"({', '.join(settings) or 'it has none'}), not {excerpt(vary)}")
    if len(names) != 1:
        raise InputError(f"the values of {vary} side by side are asked of one back end; the field 'backends' "
                         f"names {len(names)}")
    picked = list(dict.fromkeys(values or []))
    for value in picked:
        if value not in varied[0].choices:
            raise InputError(f"{vary} is one of {', '.join(map(str, varied[0].choices))}, not {excerpt(value)}")
    replay.how_many(len(picked))
    return [(names[0], {vary: value}, f"{names[0]}-{value}.jsonl") for value in picked]


def live(puzzle: Puzzle, values: dict[str, Any], runs: list[Run]) -> dict[str, Any]:
    """The replay of each run (`runs_of`) asked with `--trace` in turn, and why each that gave no trace did not.

    Each trace is read back; InputError when fewer than two runs gave one. The runs share the request's
    MAX_SECONDS of CPU: each gets its own limit or what is left of them, and once they are spent the rest are not
    asked."""
    if not records_searches(puzzle):
        recording = [name for name in api.puzzle_names() if records_searches(api.get_puzzle(name))]
        raise InputError(f"{puzzle.name} records no search (its solve has no --trace); the puzzles that do: "
                         f"{', '.join(recording) or 'none'}")
    asked = dict(values)
    if any(option.name == "seconds" for option in puzzle.question_options()):
        asked["seconds"] = each_seconds(puzzle, values)  # each search's, as in a cross-check: 8 s unless asked
    traces, missing = [], []
    with Files(puzzle.catalogue()) as files:
        try:
            options = with_files(puzzle, asked, files)
            for _, changed, _ in runs:
                puzzle.question(**{**options, **changed})
        except InputError as error:
            raise in_page_words(puzzle, error) from None
        clock = Budget(seconds=MAX_SECONDS, label="the request's searches side by side")
        for number, (name, changed, called) in enumerate(runs, 1):
            path = files.folder / f"{number}.jsonl"
            try:
                clock.check()
                limited = {"seconds": min(options["seconds"], clock.remaining())} if "seconds" in options else {}
                api.solve(puzzle, backend=name, trace=str(path), **{**options, **changed, **limited})
                traces.append(replay.condensed(read_trace(path), called))
            except PysolveError as error:
                missing.append(f"{called.removesuffix('.jsonl')}: {files.shown(str(error))}")
        if len(traces) < 2:
            raise InputError("side by side needs two searches; " + ("; ".join(missing) or "no back end was asked"))
        view = shown(replay.together(traces))
        view["notes"] += [f"no trace from {reason}" for reason in missing]
        return json.loads(files.shown(json.dumps(view)))  # the question names its files as the request did


def routes(workers: Workers, choice: Choice) -> list[Route]:
    """The page's endpoints: the puzzles that record searches, uploaded traces read, a live question traced."""

    async def puzzles(request: Request) -> JSONResponse:
        views = [view for view in puzzles_view() if records_searches(api.get_puzzle(view["name"]))]
        return JSONResponse({"puzzles": views, "most": replay.MAX_TRACES, "settings": list(replay.SETTINGS)})

    async def read(request: Request) -> JSONResponse:
        data = await body(request)
        return JSONResponse(await workers.run(request, uploaded, field_of(data, "traces", list, required=True)))

    async def ask(request: Request) -> JSONResponse:
        data = await body(request)
        puzzle = api.get_puzzle(field_of(data, "puzzle", str, required=True))
        values = field_of(data, "options", dict, default={})
        names = field_of(data, "backends", list) or list(choice.available)
        if not all(isinstance(name, str) for name in names) or len(names) > len(backends.NAMES):
            raise InputError(f"the field 'backends' is a list of back-end names, not {excerpt(names)}")
        for name in names:
            backends.check_name(name)
        varied = field_of(data, "values", list)
        if varied is not None and not all(isinstance(value, str) for value in varied):
            raise InputError(f"the field 'values' is a list of the varied setting's choices, not {excerpt(varied)}")
        runs = runs_of(puzzle, list(dict.fromkeys(names)), field_of(data, "vary", str), varied)
        return JSONResponse(await workers.run(request, live, puzzle, values, runs))

    return [
        Route("/api/traces/puzzles", puzzles, methods=["GET"]),
        Route("/api/traces/read", read, methods=["POST"]),
        Route("/api/traces/ask", ask, methods=["POST"]),
    ]
