"""The machinery every puzzle inherits: checked entry points, back ends found by name, timed answers.

`pysolve.puzzle.Puzzle` is what an author reads and fills: the options and
the hooks. This module is what runs them, so that the core (CLI, API,
cross-checks, web, plugin) asks any puzzle the same way:

- checked entry points are nouns, each calling its hook, a verb, with the
  values checked against the entry point's option table: `question`
  -> `ask`, `questions` -> `ask_all`, `generated` -> `generate`, `game`
  -> `play`;
- a face exists when the puzzle declares it in `faces` (`can_generate`,
  `can_play`, `can_split`), its hook filled (Puzzle checks the two agree);
- a back end is one the puzzle declares in `offers` (`Backend`): a module
  `<package>.<backend>` offering, for each kind of question it answers
  (`Puzzle.kind`), a function `(question, budget) -> Found`, and the
  functions of the question its declaration names (`can_answer`,
  `is_default_for`, `can_trace`, `splits_pay`). Nothing is found by looking:
  a module the declaration does not name is never imported.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

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
Face = Literal["generate", "play", "split"]  # what a puzzle offers beyond answering questions (`Puzzle.faces`)
FACES: tuple[Face, ...] = ("generate", "play", "split")  # each the name of the hook that fills it


@dataclass(frozen=True)
class Backend:
    """One back end of a puzzle as the puzzle declares it (`Puzzle.offers`): what its module answers.

    `answers`: the kinds of question it answers (`Puzzle.kind`), each a function `(question, budget) -> Found`
    of the module `<package>.<name>`. Each flag says the module has one more function of the question, asked
    before it is chosen: `declines`, `can_answer(question)`, false for the questions it does not answer;
    `by_name`, `is_default_for(question)`, false for those it answers only when asked by name (a slow fallback,
    not chosen by default); `traces`, `can_trace(question)`, true where its search records itself in
    `budget.trace` (`pysolve solve ... --trace FILE`); `judges_splits`, `splits_pay(question)`, false where its
    count shares work between branches (a memo) that a count in parts would do again in every part. Without a
    flag, the back end answers every question of its kinds, by default, records none, and splits pay.
    """

    answers: tuple[str, ...] = ("solve",)
    declines: bool = False
    by_name: bool = False
    traces: bool = False
    judges_splits: bool = False


class Dispatch:
    """The entry points and back-end machinery of a puzzle; `pysolve.puzzle.Puzzle` adds the hooks they run."""

    if TYPE_CHECKING:  # what the machinery reads of a puzzle: declared and documented in pysolve.puzzle.Puzzle
        name: ClassVar[str]
        options: ClassVar[tuple[Option, ...]]
        generate_options: ClassVar[tuple[Option, ...]]
        play_options: ClassVar[tuple[Option, ...]]
        offers: ClassVar[Mapping[str, Backend]]
        faces: ClassVar[frozenset[Face]]
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

    # --- faces: as the puzzle declares them (`faces`) ---------------------------------------------

    @property
    def can_generate(self) -> bool:
        """True when the puzzle has a generator (`pysolve generate NAME`)."""
        return "generate" in self.faces

    @property
    def can_play(self) -> bool:
        """True when the puzzle has a game (`pysolve play NAME`)."""
        return "play" in self.faces

    @property
    def can_split(self) -> bool:
        """True when the puzzle splits some counts into parts (`--workers`)."""
        return "split" in self.faces

    # --- back ends -------------------------------------------------------------------------------

    def package(self) -> str:
        """The package holding this puzzle's back-end modules (the one its class lives in)."""
        return type(self).__module__.rpartition(".")[0]

    def backend_module(self, backend: str) -> ModuleType | None:
        """The module `<package>.<backend>` of a back end the puzzle declares (`offers`), else None."""
        backends.check_name(backend)
        return importlib.import_module(f"{self.package()}.{backend}") if backend in self.offers else None

    def function(self, backend: str, name: str) -> Callable[..., Any]:
        """The function `name` of the module of `backend`, which the puzzle's `offers` promise; TypeError naming
        the declaration when the module has none."""
        module = self.backend_module(backend)
        function = getattr(module, name, None)
        if not callable(function):
            raise TypeError(f"{self.name}'s offers promise {name} of the {backend} back end, but "
                            f"{self.package()}.{backend} defines no function {name}")
        return function

    def solvers(self, question: Any) -> dict[str, Callable[[Any, Budget], Found]]:
        """Back end name -> the function answering `question`, for the back ends that answer it."""
        kind, offered = self.kind(question), {}
        for backend in backends.NAMES:
            declared = self.offers.get(backend)
            if declared is not None and kind in declared.answers and self.says(
                    backend, "can_answer", question, declared.declines):
                offered[backend] = self.function(backend, kind)
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
            raise UnknownName(f"back end {files.excerpt(backend)} does not answer this {self.name} question; "
                              f"use one of: {offered}")
        if isinstance(trace, (str, os.PathLike)):  # a file to record the search in
            return self.traced(question, backend, solver, trace)
        backends.require(backend)
        return self.run(backend, lambda asked: solver(asked, self.budget(asked)), question)

    def says(self, backend: str, hook: str, question: Any, declared: bool, otherwise: bool = True) -> bool:
        """What `backend`'s module function `hook(question)` says of `question` where its `Backend` declares
        that function (`declared`), else `otherwise`."""
        return bool(self.function(backend, hook)(question)) if declared else otherwise

    def is_default_for(self, question: Any, backend: str) -> bool:
        """False when `backend` answers `question` only when asked by name (`Backend.by_name`)."""
        return self.says(backend, "is_default_for", question, self.offers[backend].by_name)

    def can_trace(self, question: Any, backend: str) -> bool:
        """True when `backend`'s search for `question` records itself (`Backend.traces`)."""
        return self.says(backend, "can_trace", question, self.offers[backend].traces, otherwise=False)

    def splits_pay(self, question: Any, backend: str) -> bool:
        """False when `backend`'s count of `question` shares work that a count in parts would do again in every
        part (`Backend.judges_splits`)."""
        return self.says(backend, "splits_pay", question, self.offers[backend].judges_splits)

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
