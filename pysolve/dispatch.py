"""The machinery every puzzle inherits: checked entry points, back ends found by name, timed answers.

`pysolve.puzzle.Puzzle` is what an author reads and fills: the options and
the hooks. This module is what runs them, so that the core (CLI, API,
cross-checks, web, plugin) asks any puzzle the same way:

- checked entry points are nouns, each calling its hook, a verb, with the
  values checked against the entry point's option table: `question`
  -> `ask`, `questions` -> `ask_all`, `generated` -> `generate`, `game`
  -> `play`;
- a face exists when its hook is overridden (`can_generate`, `can_play`,
  `can_split`): there are no flags to keep in step;
- a back end is a module `<package>.<backend>` offering, for each kind of
  question (`Puzzle.kind`), a function `(question, budget) -> Found`; a
  module may define `can_answer(question) -> bool` to decline some questions,
  `is_default_for(question) -> bool` to answer some only when asked by name
  (not chosen by default: a slow fallback, when another back end is there),
  `can_trace(question) -> bool` when its searches record themselves in
  `budget.trace` (pysolve.trace: `pysolve solve ... --trace FILE`), and
  `splits_pay(question) -> bool` false when its count shares work between
  branches (a memo), which a count in parts would do again in every part.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from pysolve import backends, files, memory
from pysolve import options as _options
from pysolve.answers import UNKNOWN, Answer, Found, stopped
from pysolve.budget import Budget, work_clock
from pysolve.catalogue import Catalogue, Note, build_catalogue
from pysolve.errors import InputError, SearchLimitExceeded, UnknownName
from pysolve.options import Option
from pysolve.trace import Trace

if TYPE_CHECKING:
    from pathlib import Path

Solver = Callable[..., Found]  # (question) for one's own solvers; (question, budget) for back-end modules


class Dispatch:
    """The entry points and back-end machinery of a puzzle; `pysolve.puzzle.Puzzle` adds the hooks they run."""

    if TYPE_CHECKING:  # what the machinery reads of a puzzle: declared and documented in pysolve.puzzle.Puzzle
        name: ClassVar[str]
        options: ClassVar[tuple[Option, ...]]
        generate_options: ClassVar[tuple[Option, ...]]
        play_options: ClassVar[tuple[Option, ...]]
        shipped_notes: ClassVar[tuple[Note, ...]]
        shipped_aliases: ClassVar[Mapping[str, str]]

        def ask(self, *_: Any, **values: Any) -> Any: ...
        def ask_all(self, *_: Any, **values: Any) -> list[Any]: ...
        def generate(self, *_: Any, **values: Any) -> tuple[dict[str, Any], str]: ...
        def play(self, backend: str, *_: Any, **values: Any) -> int: ...
        def split(self, question: Any) -> list[Any] | None: ...
        def kind(self, question: Any) -> str: ...
        def budget(self, question: Any) -> Budget: ...
        def describe(self, question: Any) -> dict[str, Any]: ...
        def located(self, given: Any) -> Any: ...
        def shipped_folder(self) -> Path | None: ...

    # --- checked entry points --------------------------------------------------------------------

    def question(self, **given: Any) -> Any:
        """The question these options ask (`file=...`, `count=True`), checked; InputError when bad."""
        return self.ask(**self.checked(self.question_options(), given, f"pysolve solve {self.name}"))

    def questions(self, **given: Any) -> list[Any]:
        """The questions these options ask, checked: one, or many where the input holds many."""
        return self.ask_all(**self.checked(self.question_options(), given, f"pysolve solve {self.name}"))

    def generated(self, **given: Any) -> tuple[dict[str, Any], str]:
        """A generated instance as (JSON-able data, the text of its file: what `pysolve solve` reads), from
        the generator's options, checked; `out=FILE` (options.GENERATED_OUT) writes that text there too, whole
        or not at all."""
        what = f"pysolve generate {self.name}"
        out = _options.check((_options.GENERATED_OUT,), {"out": given.pop("out", None)}, what)["out"]
        data, text = self.generate(**self.checked(self.generate_options, given, what))
        if out is not None:
            files.write_text(out, text + "\n", _options.GENERATED_OUT.flag)
        return data, text

    def game(self, backend: str | None = None, **given: Any) -> int:
        """The puzzle's interactive game (`pysolve play NAME`) from its options, checked, the rules asked of
        `backend` (default: backends.default()), played until the player quits: its exit code."""
        values = self.checked(self.play_options, given, f"pysolve play {self.name}")
        return self.play(backend or backends.default(), **values)

    def checked(self, table: Iterable[Option], given: Mapping[str, Any], what: str) -> dict[str, Any]:
        """`options.check` of `given` against `table`, each file option's shipped name turned into its file
        (`located`): the values every entry point hands its hook."""
        table = list(table)
        values = _options.check(table, given, what)
        for option in table:
            if option.reads_file and values[option.name] is not None:
                values[option.name] = self.located(values[option.name])
        return values

    def question_options(self) -> list[Option]:
        """The options that make up a question (not the files an answer is written to)."""
        return [option for option in self.options if not option.output]

    def output_options(self) -> list[Option]:
        """The options naming files to write (`svg`, ...)."""
        return [option for option in self.options if option.output]

    def catalogue(self) -> Catalogue:
        """The shipped instances by name (`pysolve list NAME`), which every file option also takes."""
        return build_catalogue(self.name, self.shipped_folder(), self.shipped_notes, self.shipped_aliases)

    # --- faces: offered when their hook is overridden --------------------------------------------

    def overrides(self, hook: str) -> bool:
        """True when this puzzle's class overrides `hook`: a class below the one that defines its default
        (pysolve.puzzle.Puzzle) defines it again."""
        return sum(hook in vars(base) for base in type(self).__mro__) > 1

    @property
    def can_generate(self) -> bool:
        """True when the puzzle has a generator (`pysolve generate NAME`): it overrides `generate`."""
        return self.overrides("generate")

    @property
    def can_play(self) -> bool:
        """True when the puzzle has a game (`pysolve play NAME`): it overrides `play`."""
        return self.overrides("play")

    @property
    def can_split(self) -> bool:
        """True when the puzzle splits some counts into parts (`--workers`): it overrides `split`."""
        return self.overrides("split")

    # --- back ends -------------------------------------------------------------------------------

    def package(self) -> str:
        """The package holding this puzzle's back-end modules (the one its class lives in)."""
        return type(self).__module__.rpartition(".")[0]

    def backend_module(self, backend: str) -> ModuleType | None:
        """The module `<package>.<backend>`, or None when this puzzle has no such back end."""
        backends.check_name(backend)
        try:
            return importlib.import_module(f"{self.package()}.{backend}")
        except ModuleNotFoundError as error:
            if error.name == f"{self.package()}.{backend}":
                return None
            raise

    def solvers(self, question: Any) -> dict[str, Callable[[Any, Budget], Found]]:
        """Back end name -> the function answering `question`, for the back ends that answer it."""
        offered = {}
        for backend in backends.NAMES:
            module = self.backend_module(backend)
            function = getattr(module, self.kind(question), None) if module else None
            if function is not None and self.says(backend, "can_answer", question, absent=True):
                offered[backend] = function
        return offered

    def backends_for(self, question: Any) -> list[str]:
        """The back ends that answer `question`, in the order of backends.NAMES."""
        return list(self.solvers(question))

    def default_backend(self, question: Any) -> str:
        """The default back end if it answers `question` and takes it by default, else the first available that
        does (a back end that answers `question` only when asked by name comes after the others)."""
        offered = self.backends_for(question)
        by_default = [name for name in offered if self.is_default_for(question, name)]
        preferred = backends.default()
        if preferred in by_default:
            return preferred
        for name in by_default + offered:
            if backends.available(name):
                return name
        if not offered:
            raise UnknownName(f"no back end answers this {self.name} question")
        return offered[0]

    def solve(self, question: Any, backend: str | None = None, trace: str | os.PathLike[str] | None = None) -> Answer:
        """Ask one back end (default: backends.default(), else the first that answers) and time the answer;
        with `trace`, the back end's own search is recorded in that file (pysolve.trace), whole or not at all."""
        backend = backend or self.default_backend(question)
        backends.check_name(backend)
        solver = self.solvers(question).get(backend)
        if solver is None:
            offered = ", ".join(self.backends_for(question))
            raise UnknownName(f"back end {backend!r} does not answer this {self.name} question; "
                              f"use one of: {offered}")
        if isinstance(trace, (str, os.PathLike)):  # a file to record the search in
            return self.traced(question, backend, solver, trace)
        backends.require(backend)
        return self.run(backend, lambda asked: solver(asked, self.budget(asked)), question)

    def says(self, backend: str, hook: str, question: Any, absent: bool) -> bool:
        """What `backend`'s module hook `hook(question)` says of `question` (`absent` when it has no such hook)."""
        function = getattr(self.backend_module(backend), hook, None)
        return absent if function is None else bool(function(question))

    def is_default_for(self, question: Any, backend: str) -> bool:
        """False when `backend` answers `question` only when asked by name (its module's `is_default_for`)."""
        return self.says(backend, "is_default_for", question, absent=True)

    def can_trace(self, question: Any, backend: str) -> bool:
        """True when `backend`'s search for `question` records itself (its module's `can_trace`)."""
        return self.says(backend, "can_trace", question, absent=False)

    def traced(self, question: Any, backend: str, solver: Callable[[Any, Budget], Found],
               path: str | os.PathLike[str]) -> Answer:
        """`solve` with `backend`'s search recorded in `path`; InputError when that search records nothing."""
        path = files.check_output(path, "--trace")
        if not self.can_trace(question, backend):
            recording = [name for name in self.backends_for(question) if self.can_trace(question, name)]
            offered = f"back ends that record it: {', '.join(recording)}" if recording else "no back end records it"
            raise InputError(f"--trace: the {backend} search of this {self.name} question records no trace; "
                             f"{offered}")
        backends.require(backend)
        with files.writing(path, "--trace") as out:
            recorder = Trace(out, self.name, backend, self.describe(question))

            def recorded(asked: Any) -> Found:
                budget = self.budget(asked)
                budget.trace = recorder
                return solver(asked, budget)

            answer = self.run(backend, recorded, question)
            recorder.end(answer.status, answer.reason if answer.status == UNKNOWN else "")
        return answer

    def run(self, name: str, solver: Callable[[Any], Found], question: Any) -> Answer:
        """Time `solver`'s answer to `question` and build the Answer, under back end `name`: `seconds` of the
        wall clock, `cpu_seconds` of this thread's CPU time (the clock its time limit counts on).

        A search that runs out of its budget, of Python's recursion depth or of memory answers
        `unknown`, with the reason in `stats`.
        """
        started, started_cpu, out_of_memory = time.perf_counter(), work_clock(), False
        try:
            found = solver(question)
        except SearchLimitExceeded as error:
            found = stopped(str(error))
        except RecursionError:
            found = stopped(f"{name} {self.name} search went deeper than Python's recursion limit "
                            f"({sys.getrecursionlimit()} frames)")
        except MemoryError:
            out_of_memory = True  # the reason is written below, once the search's frames are freed
        if out_of_memory:
            found = stopped(memory.exhausted(f"{name} {self.name} search"))
        seconds, cpu_seconds = time.perf_counter() - started, work_clock() - started_cpu
        if not isinstance(found, Found):
            raise TypeError(f"back end {name!r} returned {type(found).__name__}; it must return pysolve.Found")
        return Answer(
            puzzle=self.name,
            backend=name,
            solutions=found.solutions,
            stats={"seconds": round(seconds, 6), "cpu_seconds": round(cpu_seconds, 6), **found.stats},
            count=found.count,
            status=found.status,
            question=self.describe(question),
            asked=question,
        )
