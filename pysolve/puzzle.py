"""The one contract between a puzzle, its back ends and the rest of pysolve: the class an author fills.

A puzzle is a package `pysolve/<name>/` (or one of your own) holding:

- `model.py`: its `Question` (a frozen dataclass) and instances;
- `prolog.py`, `kanren.py`, `python.py`: one module per back end, each
  offering `solve(question, budget) -> Found`, plus a named function of the
  same shape for each extra kind of question (`validate`, `options`, ...);
- `puzzle.py`: `PUZZLE`, an instance of a `Puzzle` subclass that declares
  what it offers (`offers`: its back ends and what each answers; `faces`:
  generate, play, split), the options once (`options`), builds a question
  from them (`ask`), and brings answers to one canonical form, text and files.

`Puzzle` holds the declarations and the hooks, each with a default where one
makes sense, and below them the machinery that runs them: checked entry
points (`question` -> `ask`, `questions` -> `ask_all`, `generated` ->
`generate`, `game` -> `play`), the declared back ends (a module
`<package>.<backend>` per entry of `offers`, never found by looking) and
timed answers. The rest of
pysolve (CLI, API, cross-checks, demo, pytest plugin) knows a puzzle only
through this interface and the entry-point registry.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar, Literal

from pysolve import backends, files, memory, paths
from pysolve import options as _options
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer, Found, stopped  # noqa: F401  (re-exported)
from pysolve.budget import DEFAULT_SECONDS, Budget, work_clock
from pysolve.catalogue import Catalogue, Note, build_catalogue
from pysolve.errors import InputError, SearchLimitExceeded, UnknownName
from pysolve.options import Option
from pysolve.rules import RulesInterface
from pysolve.trace import Trace
from pysolve.words import plural

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



SPLIT_PARTS = 16  # a split count goes a placement deeper until it has this many parts (work for every worker)


def deepened(question: Any, one_more: Callable[[Any], list[Any]], levels: int = 2) -> list[Any]:
    """`question` split into parts with more placements each: the parts of `Puzzle.split`.

    `one_more` gives a question's parts, each with one more placement; the parts go a level deeper while there are
    fewer than SPLIT_PARTS of them, at most `levels` deep."""
    parts = [question]
    for _ in range(levels):
        if len(parts) >= SPLIT_PARTS:
            break
        parts = [part for question in parts for part in one_more(question)]
    return parts


def brief(value: Any) -> str:
    """An option's value in a label: a path by its file name, anything else as it prints."""
    if isinstance(value, str) and os.sep in value:
        return os.path.basename(value)
    return str(value)


class Puzzle:
    """Base class of the puzzles: declare what it offers and the options, fill the hooks; the machinery runs them.

    Only `name`, `summary`, `offers`, `options` and `ask` are required; every other hook has a default.
    `offers` names the back ends and what each answers (`Backend`); `faces` the faces beyond answering
    questions, each with its hook filled: "generate" (`generate`, `pysolve generate`), "play" (`play`,
    `pysolve play`), "split" (`split`, `--workers`). `command_groups` and `fill_command_group` give commands of
    its own (`pysolve azul`). A puzzle class that names itself and declares no `offers`, or whose faces and
    filled hooks differ, is refused when it is defined (TypeError, saying what to declare). The hooks of entry
    points take the checked option values as keywords; they are declared `(*_, **values)` so that a puzzle's
    hook may name its own options as parameters (`ask(self, file, count)`).
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    offers: ClassVar[Mapping[str, Backend]]  # back end name -> what its module `<package>.<name>` answers
    faces: ClassVar[frozenset[Face]] = frozenset()  # "generate", "play", "split": each needs its hook filled
    options: ClassVar[tuple[Option, ...]] = ()           # the question's options, CLI and API alike
    generate_options: ClassVar[tuple[Option, ...]] = ()  # `pysolve generate NAME`, read by `generate`
    play_options: ClassVar[tuple[Option, ...]] = ()      # `pysolve play NAME`, read by `play`
    splits: ClassVar[str] = "counts"  # the questions `split` splits, in words, for the message on the others
    shipped_notes: ClassVar[tuple[Note, ...]] = ()  # what is known of the shipped instances (`pysolve list`)
    shipped_aliases: ClassVar[Mapping[str, str]] = {}  # short names of shipped instances: alias -> name
    rules: ClassVar[RulesInterface | None] = None  # the predicate a rule base of one's own defines (`pysolve check`)
    command_groups: ClassVar[Mapping[str, str]] = {}  # commands of its own (`pysolve NAME ...`): name -> help

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse a puzzle class that does not say what it offers: one that names itself (a concrete puzzle)
        must declare `offers`, and declare in `faces` exactly the face hooks it fills."""
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "name"):  # a base of puzzles (BoardPuzzle), or one named when made
            return
        if not hasattr(cls, "offers"):
            raise TypeError(f"puzzle {cls.__name__} declares no back ends: give it offers = "
                            "{'python': Backend(), ...}, each back end a module of its package answering the "
                            "kinds of question listed (Backend(answers=('solve', 'validate')))")
        for backend in cls.offers:
            backends.check_name(backend)
        filled = {face for face in FACES if getattr(cls, face) is not getattr(Puzzle, face)}
        if filled != set(cls.faces):
            raise TypeError(f"puzzle {cls.__name__} fills the hooks of {sorted(filled) or 'no face'} but declares "
                            f"faces = {sorted(cls.faces) or 'nothing'}: declare faces = frozenset({sorted(filled)})")

    # --- questions: hooks of the entry points `question` and `questions` -------------------------

    def ask(self, *_: Any, **values: Any) -> Any:
        """The question built from checked option values (raise InputError on a bad combination)."""
        raise NotImplementedError

    def ask_all(self, *_: Any, **values: Any) -> list[Any]:
        """The questions built from checked option values.

        One, or many where the input holds many (a file of puzzles)."""
        return [self.ask(**values)]

    def located(self, given: Any) -> Any:
        """The file a file option's value names (see `Catalogue.locate`).

        A tuple of files for a repeated option."""
        if isinstance(given, tuple):
            return tuple(self.located(item) for item in given)
        return self.catalogue().locate(given)

    def describe(self, question: Any) -> dict[str, Any]:
        """The question as a JSON-able dict (for answers and reports)."""
        return dict(vars(question))

    def label(self, question: Any, changed_only: bool = False) -> str:
        """The question in a few words for report headers: the options set, files by name.

        With `changed_only` (demo rows), only the options away from their defaults, so that rows of one puzzle read
        apart."""
        described = {key: value for key, value in self.describe(question).items()
                     if value not in (None, False, [], (), "")}
        if changed_only:
            defaults = {option.name: option.default for option in self.options}
            described = {key: value for key, value in described.items() if value != defaults.get(key)} or described
        return ", ".join(f"{key}={brief(value)}" for key, value in described.items())

    def kind(self, question: Any) -> str:
        """The kind of `question`: the name of the back-end function that answers it.

        `solve`, or an extra kind such as `validate`."""
        return "solve"

    def budget(self, question: Any) -> Budget:
        """The node and time budget of one search for `question` (its `seconds`/`nodes` when it has them)."""
        return Budget(nodes=getattr(question, "nodes", 0) or 0,
                      seconds=getattr(question, "seconds", DEFAULT_SECONDS) or DEFAULT_SECONDS,
                      label=f"{self.name} search")

    # --- shipped instances -----------------------------------------------------------------------

    def shipped_folder(self) -> Path | None:
        """The folder of the shipped instances, or None when the puzzle ships none.

        data/NAME/ for pysolve's own puzzles; a puzzle of one's own returns its own folder."""
        return paths.data_dir() / self.name if type(self).__module__.startswith("pysolve.") else None

    def instance_size(self, path: Path) -> str:
        """A shipped instance's size in a few words (`8x8, 40 cells`) for `pysolve list`; "" when not told."""
        return ""

    # --- answers ---------------------------------------------------------------------------------

    def canonical(self, answer: Answer) -> Any:
        """The part of an answer all back ends must agree on, in one normal form."""
        return answer.solutions

    def summarise(self, answer: Answer) -> str:
        """A few words for report tables: the count, or how many solutions were found."""
        found = answer.count if answer.count is not None else len(answer.solutions)
        return plural(found, "solution")

    def render(self, answer: Answer) -> str:
        """The answer drawn as text for a terminal."""
        return "\n".join(str(solution) for solution in answer.solutions)

    def status_words(self, answer: Answer) -> str:
        """The answer's status in its question's words, as `pysolve solve`'s status line says it.

        The status itself (`solved`, `no solution`); a puzzle whose questions validate what was given says valid
        or not, and why.
        """
        return str(answer.status)

    def write_files(self, answer: Answer, outputs: Mapping[str, Any]) -> list[str]:
        """Write the files the output options ask for (`svg=OUT`, ...); return their paths."""
        return []

    def demo_questions(self) -> list[Any]:
        """Questions `make demo` asks every back end and cross-checks."""
        return []

    # --- optional faces: each offered when declared in `faces`, its hook filled ------------------

    def split(self, question: Any) -> list[Any] | None:
        """Independent sub-questions whose counts add up to `question`'s count, for `--workers` and `--cluster`.

        Each part fixes some of the first placements; None when the question is no count or cannot be split."""
        return None

    def total(self, question: Any, counts: list[int]) -> int:
        """The count of `question` from the counts of its parts: their sum (a capped count caps it)."""
        return sum(counts)

    def generate(self, *_: Any, **values: Any) -> tuple[dict[str, Any], str]:
        """A generated instance from checked `generate_options` values.

        The pair (JSON-able data, the text of its file, which `pysolve solve` reads). Hook of the entry point
        `generated` (`pysolve generate NAME`)."""
        raise NotImplementedError

    def play(self, backend: str, *_: Any, **values: Any) -> int:
        """Run the game from checked `play_options` values until the player quits; return the exit code.

        The rules are asked of `backend`. Hook of the entry point `game` (`pysolve play NAME`)."""
        raise NotImplementedError

    def fill_command_group(self, name: str, parser: Any) -> None:
        """Add the arguments (or subcommands) of the command group `name` to its argparse parser.

        `name` is one of `command_groups`; called only when the group is used, so that `pysolve --help` loads none of
        it."""
        raise NotImplementedError

    # --- checked entry points --------------------------------------------------------------------

    def question(self, **given: Any) -> Any:
        """The question these options ask (`file=...`, `count=True`), checked; InputError when bad."""
        return self.ask(**self.checked(self.question_options(), given, f"pysolve solve {self.name}"))

    def questions(self, **given: Any) -> list[Any]:
        """The questions these options ask, checked: one, or many where the input holds many."""
        return self.ask_all(**self.checked(self.question_options(), given, f"pysolve solve {self.name}"))

    def generated(self, **given: Any) -> tuple[dict[str, Any], str]:
        """A generated instance from the generator's options, checked: (JSON-able data, the text of its file).

        The text is what `pysolve solve` reads; `out=FILE` (options.GENERATED_OUT) writes it there too, whole or not
        at all."""
        what = f"pysolve generate {self.name}"
        out = _options.check((_options.GENERATED_OUT,), {"out": given.pop("out", None)}, what)["out"]
        data, text = self.generate(**self.checked(self.generate_options, given, what))
        if out is not None:
            files.write_text(out, text + "\n", _options.GENERATED_OUT.flag)
        return data, text

    def game(self, backend: str | None = None, **given: Any) -> int:
        """Play the puzzle's interactive game (`pysolve play NAME`) from its options, checked; return its exit code.

        The rules are asked of `backend` (default: backends.default()); the game runs until the player quits."""
        values = self.checked(self.play_options, given, f"pysolve play {self.name}")
        return self.play(backend or backends.default(), **values)

    def checked(self, table: Iterable[Option], given: Mapping[str, Any], what: str) -> dict[str, Any]:
        """The values every entry point hands its hook: `given` checked against `table` (`options.check`).

        Each file option's shipped name is turned into its file (`located`)."""
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
        """The function `name` of `backend`'s module, which the puzzle's `offers` promise.

        TypeError naming the declaration when the module has none."""
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
        """The back end that answers `question` when none is named.

        backends.default() if it answers `question` and takes it by default, else the first available that does (a
        back end that answers `question` only when asked by name comes after the others)."""
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
        """Ask one back end to answer `question`, and time the answer.

        `backend` defaults to `default_backend(question)`; with `trace`, the back end's own search is recorded in that
        file (pysolve.trace), whole or not at all."""
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
        """What `backend`'s module function `hook` says of `question` when `declared`, else `otherwise`."""
        return bool(self.function(backend, hook)(question)) if declared else otherwise

    def is_default_for(self, question: Any, backend: str) -> bool:
        """False when `backend` answers `question` only when asked by name (`Backend.by_name`)."""
        return self.says(backend, "is_default_for", question, self.offers[backend].by_name)

    def can_trace(self, question: Any, backend: str) -> bool:
        """True when `backend`'s search for `question` records itself (`Backend.traces`)."""
        return self.says(backend, "can_trace", question, self.offers[backend].traces, otherwise=False)

    def splits_pay(self, question: Any, backend: str) -> bool:
        """False when counting `question` in parts would redo, in every part, work `backend`'s count shares.

        Asked of the back end where it declares `Backend.judges_splits`; True otherwise."""
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
        """Time `solver`'s answer to `question` and build the Answer, under back end `name`.

        Its stats hold `seconds` of the wall clock and `cpu_seconds` of this thread's CPU time (the clock its time
        limit counts on).

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
