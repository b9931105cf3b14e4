"""The library face of pysolve: ask any puzzle a question from Python, on any back end.

A question is built from the same options as the CLI (`pysolve solve NAME
...`), written as keywords: `--up-to-rotation` is `up_to_rotation=True`,
`--place green:0,0` is `place=["green:0,0"]`, the FILE argument is a
positional argument or `file=...`. So the Python API and the CLI ask exactly
the same questions, checked the same way.

Back ends of one's own join in: a `RuleBase` (a `.pl` file plus a Python
adapter) or any imperative function `question -> Found` can be asked with
`solve(..., backend=mine)` and compared with the built-in back ends by
`crosscheck(..., also=[mine])`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Union

from pysolve import backends as _backends
from pysolve import bridge, puzzles
from pysolve import options as _options
from pysolve.crosscheck import CrossCheck
from pysolve.crosscheck import crosscheck as _crosscheck
from pysolve.errors import InputError, SearchLimitExceeded
from pysolve.puzzle import UNKNOWN, Answer, Found, Puzzle, Solver

PuzzleLike = Union[str, Puzzle]
BackendLike = Union[str, Solver]


def get_puzzle(puzzle: PuzzleLike) -> Puzzle:
    """The puzzle called `puzzle` (a Puzzle passes through); UnknownName when there is none."""
    return puzzle if isinstance(puzzle, Puzzle) else puzzles.get(puzzle)


def puzzle_names() -> list[str]:
    """The names of the puzzles pysolve knows, by name: azul, fichas, hidato, squares, sudoku, tangram."""
    return puzzles.names()


def available_backends() -> list[str]:
    """The built-in back ends that can run here (prolog needs SWI-Prolog), in their usual order."""
    return [name for name in _backends.NAMES if _backends.available(name)]


def question(puzzle: PuzzleLike, *args: Any, **options: Any) -> Any:
    """The question the CLI options ask (`file=...`, `count=True`, ...), checked; InputError when bad.

    >>> question("fichas", m=1, n=2, strategy="bfs")
    Question(m=1, n=2, strategy='bfs', flavour='hs', seconds=60.0)
    """
    chosen = get_puzzle(puzzle)
    return chosen.question(**_keywords(chosen, args, options))


def _keywords(puzzle: Puzzle, args: Sequence[Any], options: dict[str, Any]) -> dict[str, Any]:
    """Keyword options with the positional `args` given to the puzzle's positional options, in order."""
    positional = [option.name for option in puzzle.question_options() if option.positional]
    if len(args) > len(positional):
        raise InputError(f"pysolve solve {puzzle.name} takes {len(positional)} positional argument(s) "
                         f"({', '.join(positional) or 'none'}), not {len(args)}")
    for name, value in zip(positional, args):
        if name in options:
            raise InputError(f"pysolve solve {puzzle.name}: {name} given twice")
        options[name] = value
    return options


def _split(puzzle: Puzzle, options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The question's options and the output options (`svg=...`), apart."""
    outputs = {option.name for option in puzzle.output_options()}
    return ({key: value for key, value in options.items() if key not in outputs},
            {key: value for key, value in options.items() if key in outputs})


def _ask(puzzle: Puzzle, args: Sequence[Any], options: dict[str, Any],
         asked: Any) -> tuple[Any, dict[str, Any]]:
    """The question given ready-made (`question=`), or built from the CLI-style arguments; and the outputs."""
    keywords, outputs = _split(puzzle, _keywords(puzzle, args, options))
    outputs = _options.check(puzzle.output_options(), outputs, f"pysolve solve {puzzle.name}")
    if asked is None:
        return puzzle.question(**keywords), outputs
    if keywords:
        raise InputError("give either question=... or the question's options, not both")
    return asked, outputs


def solve(puzzle: PuzzleLike, *args: Any, question: Any = None, backend: BackendLike | None = None,
          **options: Any) -> Answer:
    """One back end's answer (default: prolog when available) to the question the options ask.

    `backend` is a built-in back end's name, or a back end of one's own (a
    `RuleBase`, or any callable question -> Found). Picture options such as
    `svg="out.svg"` write their files as the CLI does (built-in back ends).
    """
    chosen = get_puzzle(puzzle)
    asked, outputs = _ask(chosen, args, options, question)
    if backend is not None and not isinstance(backend, str):
        answer = _answer(chosen, asked, backend_name(backend), backend)
    else:
        answer = chosen.solve(asked, backend)
    chosen.write_files(answer, outputs)
    return answer


def count(puzzle: PuzzleLike, *args: Any, question: Any = None, backend: BackendLike | None = None,
          **options: Any) -> int:
    """The number of solutions: `solve` with the puzzle's count option switched on.

    Hidato counts up to a limit, so it needs `count=K` (2 answers "unique?").
    """
    chosen = get_puzzle(puzzle)
    if question is None:
        options.setdefault("count", True)
        if options["count"] is True and not _counts_by_flag(chosen):
            raise InputError(f"{chosen.name} has no count question that is a plain flag; "
                             f"see `pysolve solve {chosen.name} --help`")
    answer = solve(chosen, *args, question=question, backend=backend, **options)
    if answer.status == UNKNOWN:
        raise SearchLimitExceeded(answer.stats.get("reason", f"{chosen.name} search stopped before the count"))
    if answer.count is None:
        raise InputError(f"this {chosen.name} question does not count (status {answer.status})")
    return answer.count


def _counts_by_flag(puzzle: Puzzle) -> bool:
    """True when the puzzle's options include a `count` flag (not a number)."""
    return any(option.name == "count" and option.type is bool for option in puzzle.options)


def crosscheck(puzzle: PuzzleLike, *args: Any, question: Any = None, backends: Sequence[str] | None = None,
               also: Sequence[Solver] | Mapping[str, Solver] = (), **options: Any) -> CrossCheck:
    """Ask the built-in back ends (all that answer, or those named) and `also` one's own; compare.

    The report's `agree` says whether every canonical answer is the same, and
    `difference` where the first two that differ part; `compared` is False when
    no back end answered (`skipped` then says why each did not). Back ends of one's
    own come first in `results`, so a difference names them.
    """
    chosen = get_puzzle(puzzle)
    asked, _ = _ask(chosen, args, options, question)
    for name in backends or ():
        _backends.check_name(name)
    extra = dict(also.items() if isinstance(also, Mapping) else ((backend_name(s), s) for s in also))
    for name in extra:
        _check_own_name(name)
    return _crosscheck(chosen, asked, None if backends is None else list(backends), extra)


def backend_name(backend: BackendLike) -> str:
    """A back end's name: the string itself, a RuleBase's `name`, or a function's `__name__`."""
    if isinstance(backend, str):
        return backend
    return getattr(backend, "name", None) or getattr(backend, "__name__", None) or repr(backend)


def _check_own_name(name: str) -> None:
    """A back end of one's own may not take a built-in back end's name."""
    if name in _backends.NAMES:
        raise InputError(f"a back end of one's own cannot be called {name!r}: that is a built-in back end")


def _answer(puzzle: Puzzle, asked: Any, name: str, solver: Solver) -> Answer:
    """Run a back end of one's own and time it, as Puzzle.solve does for the built-in ones."""
    _check_own_name(name)
    return puzzle.run(name, solver, asked)


Adapter = Callable[["RuleBase", Any], Found]


class RuleBase:
    """A rule base of one's own: a `.pl` file plus the Python adapter that asks it a puzzle's questions.

    The adapter is `adapter(rules, question) -> Found`: it turns the question
    into a goal, runs it with `rules.query(goal)` (bounded, like every Prolog
    call in pysolve) and turns the bindings into a `Found`. The file is
    loaded at once, so a syntax error or warning raises PrologError here.
    """

    def __init__(self, path: str | os.PathLike[str], adapter: Adapter, name: str | None = None) -> None:
        self.path = Path(path)
        if self.path.suffix != ".pl":
            raise InputError(f"rule base {os.fspath(path)!r} is not a .pl file")
        self.adapter = adapter
        self.name = name or f"prolog:{self.path.stem}"
        self.module = bridge.load(self.path)

    def query(self, goal: str, **bounds: Any) -> bridge.QueryResult:
        """Run `goal` in this rule base (bounds: max_solutions, seconds, inferences)."""
        return bridge.solutions(self.path, goal, **bounds)

    def __call__(self, asked: Any) -> Found:
        """Answer one question through the adapter."""
        return self.adapter(self, asked)

    def __repr__(self) -> str:
        return f"RuleBase({os.fspath(self.path)!r}, name={self.name!r})"

