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

import argparse
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, Union

from pysolve import backends as _backends
from pysolve import bridge, puzzles
from pysolve.crosscheck import CrossCheck
from pysolve.crosscheck import crosscheck as _crosscheck
from pysolve.errors import InputError, UnknownName
from pysolve.puzzle import Answer, Found, Puzzle, Solver

PuzzleLike = Union[str, Puzzle]
BackendLike = Union[str, Solver]


class _OptionParser(argparse.ArgumentParser):
    """An ArgumentParser that raises InputError instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise InputError(f"{self.prog}: {message}")


def get_puzzle(puzzle: PuzzleLike) -> Puzzle:
    """The puzzle called `puzzle` (a Puzzle passes through); UnknownName when there is none."""
    return puzzle if isinstance(puzzle, Puzzle) else puzzles.get(puzzle)


def puzzle_names() -> list[str]:
    """The names of the puzzles pysolve knows: fichas, tangram, hidato, azul, squares."""
    return puzzles.names()


def available_backends() -> list[str]:
    """The built-in back ends that can run here (prolog needs SWI-Prolog), in their usual order."""
    return [name for name in _backends.NAMES if _backends.available(name)]


def question(puzzle: PuzzleLike, *args: Any, **options: Any) -> Any:
    """The question the CLI options ask (`file=...`, `count=True`, ...), checked; InputError when bad.

    >>> question("fichas", m=1, n=2, strategy="bfs")
    Question(m=1, n=2, strategy='bfs', flavour='hs')
    """
    found = get_puzzle(puzzle)
    return found.question(_parse(found, args, options))


def _parse(puzzle: Puzzle, args: Sequence[Any], options: dict[str, Any]) -> argparse.Namespace:
    """The puzzle's CLI options parsed from positional `args` and keyword `options`."""
    parser = _parser(puzzle)
    return parser.parse_args(_argv(parser, args, options))


def _parser(puzzle: Puzzle) -> _OptionParser:
    """The parser of `pysolve solve NAME`'s puzzle options (without --backend, --json)."""
    parser = _OptionParser(prog=f"pysolve solve {puzzle.name}", add_help=False)
    puzzle.add_arguments(parser)
    return parser


def _argv(parser: argparse.ArgumentParser, args: Sequence[Any], options: dict[str, Any]) -> list[str]:
    """Command-line words for positional `args` and keyword `options` (named by their dest)."""
    actions = {action.dest: action for action in parser._actions}
    positionals = [action.dest for action in parser._actions if not action.option_strings]
    words = [_word(arg) for arg in args]
    for dest in positionals[len(args):]:
        value = options.pop(dest, None)
        if value is not None:
            words.append(_word(value))
    for dest, value in options.items():
        action = actions.get(dest)
        if action is None or not action.option_strings:
            known = ", ".join(sorted(d for d, a in actions.items() if a.option_strings))
            raise UnknownName(f"{parser.prog} has no option {dest!r}; its options: {known}")
        words += _option_words(action, value)
    return words


def _option_words(action: argparse.Action, value: Any) -> list[str]:
    """The words of one option: a flag for True, nothing for False/None, repeated for lists."""
    flag = next((s for s in action.option_strings if s.startswith("--")), action.option_strings[0])
    if value is None or value is False:
        return []
    if action.nargs == 0:
        return [flag]
    values = value if isinstance(value, (list, tuple)) and isinstance(action, argparse._AppendAction) else [value]
    return [f"{flag}={_word(item)}" for item in values]  # `=`: values such as -3 stay values


def _word(value: Any) -> str:
    """A value as a command-line word (paths as their text)."""
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def _ask(puzzle: Puzzle, args: Sequence[Any], options: dict[str, Any],
         asked: Any) -> tuple[Any, argparse.Namespace | None]:
    """The question given ready-made (`question=`), or built from the CLI-style arguments (and those)."""
    if asked is None:
        parsed = _parse(puzzle, args, options)
        return puzzle.question(parsed), parsed
    if args or options:
        raise InputError("give either question=... or the question's options, not both")
    return asked, None


def solve(puzzle: PuzzleLike, *args: Any, question: Any = None, backend: BackendLike | None = None,
          **options: Any) -> Answer:
    """One back end's answer (default: prolog when available) to the question the options ask.

    `backend` is a built-in back end's name, or a back end of one's own (a
    `RuleBase`, or any callable question -> Found). Picture options such as
    `svg="out.svg"` write their files as the CLI does (built-in back ends).
    """
    found = get_puzzle(puzzle)
    asked, parsed = _ask(found, args, options, question)
    if backend is not None and not isinstance(backend, str):
        return _answer(found, asked, backend_name(backend), backend)
    answer = found.solve(asked, backend)
    if parsed is not None:
        found.write_files(answer, parsed)
    return answer


def count(puzzle: PuzzleLike, *args: Any, question: Any = None, backend: BackendLike | None = None,
          **options: Any) -> int:
    """The number of solutions: `solve` with the puzzle's count option switched on.

    Hidato counts up to a limit, so it needs `count=K` (2 answers "unique?").
    """
    found = get_puzzle(puzzle)
    if question is None:
        options.setdefault("count", True)
        if options["count"] is True and not _counts_by_flag(found):
            raise InputError(f"{found.name} has no count question that is a plain flag; "
                             f"see `pysolve solve {found.name} --help`")
    answer = solve(found, *args, question=question, backend=backend, **options)
    if answer.count is None:
        raise InputError(f"this {found.name} question does not count (status {answer.status})")
    return answer.count


def _counts_by_flag(puzzle: Puzzle) -> bool:
    """True when the puzzle's options include a `--count` flag taking no value."""
    return any(action.dest == "count" and action.nargs == 0 for action in _parser(puzzle)._actions)


def crosscheck(puzzle: PuzzleLike, *args: Any, question: Any = None, backends: Sequence[str] | None = None,
               also: Sequence[Solver] | Mapping[str, Solver] = (), **options: Any) -> CrossCheck:
    """Ask the built-in back ends (all that answer, or those named) and `also` one's own; compare.

    The report's `agree` says whether every canonical answer is the same, and
    `difference` where the first two that differ part. Back ends of one's
    own come first in `results`, so a difference names them.
    """
    found = get_puzzle(puzzle)
    asked, _ = _ask(found, args, options, question)
    for name in backends or ():
        _backends.check_name(name)
    extra = dict(also.items() if isinstance(also, Mapping) else ((backend_name(s), s) for s in also))
    for name in extra:
        _check_own_name(name)
    return _crosscheck(found, asked, None if backends is None else list(backends), extra)


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

