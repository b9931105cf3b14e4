"""The tangram's public functions, each answered by the back end you name.

These are what the CLI, the cross-checks and (later) an interactive game use:
load an instance, ask for a piece's options given the placed pieces, complete
a partial board, count or list tilings, and validate a proposed tiling. Each
back end module (`python`, `prolog`, `kanren`) offers the same functions:
`search`, `count`, `breadth_first`, `options_of`, and (python, prolog)
`problems_of`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from pysolve import backends
from pysolve.errors import InputError, UnknownName
from pysolve.puzzle import NO_SOLUTION, SOLVED, Found
from pysolve.tangram.model import (Instance, Placement, Question, check_partial, check_unique,
                                   describe_problem)

ENGINES = {name: f"pysolve.tangram.{name}" for name in backends.NAMES}
VALIDATORS = ("prolog", "python")  # the back ends that list what is wrong with a tiling
Tiling = tuple[Placement, ...]


def engine(backend: str) -> ModuleType:
    """The module answering tangram questions on `backend` (checked to be available)."""
    backends.check_name(backend)
    backends.require(backend)
    return importlib.import_module(ENGINES[backend])


def prepare(question: Question) -> Question:
    """Check a question's placed pieces and pieces named; return it unchanged, or raise InputError."""
    instance = question.instance
    for placement in question.placed:
        instance.piece(placement.piece)
    check_unique(instance, question.placed, "placed pieces")
    if question.mode != "validate":
        check_partial(instance, question.placed)
    done = {p.piece for p in question.placed}
    for what, name in (("--start", question.start), ("--options", question.piece)):
        if name is not None and instance.piece(name).name in done:
            raise InputError(f"{what} {name}: that piece is already placed")
    if question.strategy == "bfs" and question.mode in ("all", "count"):
        raise InputError("--strategy bfs finds the first tiling only; use dfs or cell with --all/--count")
    if question.mode == "options" and question.piece is None:
        raise InputError("an options question needs a piece")
    return question


def answer(backend: str, question: Question) -> Found:
    """Answer a prepared question on one back end, as the Puzzle interface wants it."""
    module = engine(backend)
    if question.mode == "validate":
        if backend not in VALIDATORS:
            raise UnknownName(f"back end {backend!r} does not validate tilings; use one of: {', '.join(VALIDATORS)}")
        found = module.problems_of(question)
        tiling = [] if found else [question.instance.sort(question.placed)]
        return Found(tiling, {"problems": found}, status=NO_SOLUTION if found else SOLVED)
    if question.mode == "options":
        placements = module.options_of(question)
        return Found(placements, {}, len(placements), SOLVED if placements else NO_SOLUTION)
    if question.mode == "count":
        number, states = module.count(question)
        return Found([], _stats(states), number, SOLVED if number else NO_SOLUTION)
    if question.strategy == "bfs":
        tiling, states = module.breadth_first(question)
        tilings = [tiling] if tiling is not None else []
    else:
        tilings, states = module.search(question)
    count = len(tilings) if question.mode == "all" else None
    return Found(tilings, _stats(states), count, SOLVED if tilings else NO_SOLUTION)


def _stats(states: int | None) -> dict[str, int]:
    return {} if states is None else {"states": states}


def _ask(instance: Instance, backend: str, **fields: object) -> Found:
    return answer(backend, prepare(Question(instance, **fields)))  # type: ignore[arg-type]


def options(instance: Instance, placed: tuple[Placement, ...], piece: str, backend: str = "python") -> list[Placement]:
    """Where `piece` can go given the placed pieces: its options in board order."""
    return _ask(instance, backend, mode="options", placed=tuple(placed), piece=piece).solutions


def complete(instance: Instance, placed: tuple[Placement, ...] = (), backend: str = "python",
             strategy: str = "dfs") -> Tiling | None:
    """The first tiling extending the placed pieces, or None when the board cannot be completed."""
    found = _ask(instance, backend, mode="first", placed=tuple(placed), strategy=strategy).solutions
    return found[0] if found else None


def tilings(instance: Instance, placed: tuple[Placement, ...] = (), backend: str = "python",
            strategy: str = "dfs") -> list[Tiling]:
    """Every tiling extending the placed pieces, in the strategy's search order."""
    return _ask(instance, backend, mode="all", placed=tuple(placed), strategy=strategy).solutions


def count(instance: Instance, placed: tuple[Placement, ...] = (), backend: str = "python",
          strategy: str = "cell") -> int:
    """The number of tilings extending the placed pieces (fast first-empty-cell search by default)."""
    return _ask(instance, backend, mode="count", placed=tuple(placed), strategy=strategy).count or 0


def validate(instance: Instance, placements: tuple[Placement, ...], backend: str = "python") -> list[str]:
    """What keeps `placements` from being a tiling of the board, as sentences ([] when it is one)."""
    found = _ask(instance, backend, mode="validate", placed=tuple(placements)).stats["problems"]
    return [describe_problem(problem, instance) for problem in found]
