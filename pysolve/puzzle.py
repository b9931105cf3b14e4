"""The one contract between a puzzle, its back ends and the rest of pysolve.

A puzzle is a package `pysolve/<name>/` (or one of your own) holding:

- `model.py`: its `Question` (a frozen dataclass) and instances;
- `prolog.py`, `kanren.py`, `python.py`: one module per back end, each
  offering `solve(question, budget) -> Found`, plus a named function of the
  same shape for each extra kind of question (`validate`, `options`, ...);
  a module may define `answers(question) -> bool` to decline a question;
- `puzzle.py`: `PUZZLE`, an instance of a `Puzzle` subclass that declares the
  options once (`options`), builds a question from them (`ask`), and brings
  answers to one canonical form, text and files.

The rest of pysolve (CLI, API, cross-checks, demo, pytest plugin) knows a
puzzle only through this interface and the entry-point registry.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from pysolve import backends, files, memory, paths
from pysolve import options as _options
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer, Found, stopped  # noqa: F401  (re-exported)
from pysolve.budget import DEFAULT_SECONDS, Budget
from pysolve.catalogue import Catalogue, Note, build_catalogue
from pysolve.errors import SearchLimitExceeded, UnknownName
from pysolve.options import Option
from pysolve.rules import RulesInterface
from pysolve.words import plural

SPLIT_PARTS = 16  # a split count goes a placement deeper until it has this many parts (work for every worker)


def deepened(question: Any, one_more: Callable[[Any], list[Any]], levels: int = 2) -> list[Any]:
    """`question` as the parts `one_more` gives (each with one more placement), a level deeper while there are
    fewer than SPLIT_PARTS of them, at most `levels` deep: the parts of `Puzzle.split`."""
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


Solver = Callable[..., Found]  # (question) for one's own solvers; (question, budget) for back-end modules


class Puzzle:
    """Base class of the puzzles: declare the options, build questions, read answers."""

    name: ClassVar[str]
    summary: ClassVar[str]
    options: ClassVar[tuple[Option, ...]] = ()           # the question's options, CLI and API alike
    generate_options: ClassVar[tuple[Option, ...]] = ()  # `pysolve generate NAME`, when can_generate
    can_generate: ClassVar[bool] = False
    play_options: ClassVar[tuple[Option, ...]] = ()      # `pysolve play NAME`, when can_play
    can_play: ClassVar[bool] = False
    splits: ClassVar[str] = "counts"  # the questions `split` splits, in words, for the message on the others
    shipped_notes: ClassVar[tuple[Note, ...]] = ()  # what is known of the shipped instances (`pysolve list`)
    shipped_aliases: ClassVar[Mapping[str, str]] = {}  # short names of shipped instances: alias -> name
    rules: ClassVar[RulesInterface | None] = None  # the predicate a rule base of one's own defines (`pysolve check`)

    # --- questions -------------------------------------------------------------------------------

    def question(self, **given: Any) -> Any:
        """The question these options ask (`file=...`, `count=True`), checked; InputError when bad."""
        return self.ask(**self.checked(self.question_options(), given, f"pysolve solve {self.name}"))

    def checked(self, table: Iterable[Option], given: Mapping[str, Any], what: str) -> dict[str, Any]:
        """`options.check` of `given` against `table`, each file option's shipped name turned into its file
        (a path that exists stays a path): what `question`, `generate` and `play` read."""
        table = list(table)
        values = _options.check(table, given, what)
        for option in table:
            if option.reads_file and values[option.name] is not None:
                values[option.name] = self.located(values[option.name])
        return values

    def located(self, given: Any) -> Any:
        """The file to read for a file option's value (a tuple of them for a repeated option): see
        `Catalogue.locate`."""
        if isinstance(given, tuple):
            return tuple(self.located(item) for item in given)
        return self.catalogue().locate(given)

    # --- shipped instances -----------------------------------------------------------------------

    def shipped_folder(self) -> Path | None:
        """The folder of the shipped instances: data/NAME/ for pysolve's own puzzles; a puzzle of one's own
        returns its own folder (or None: it ships none)."""
        return paths.data_dir() / self.name if type(self).__module__.startswith("pysolve.") else None

    def catalogue(self) -> Catalogue:
        """The shipped instances by name (`pysolve list NAME`), which every file option also takes."""
        return build_catalogue(self.name, self.shipped_folder(), self.shipped_notes, self.shipped_aliases)

    def instance_size(self, path: Path) -> str:
        """A shipped instance's size in a few words (`8x8, 40 cells`) for `pysolve list`; "" when not told."""
        return ""

    def questions(self, **given: Any) -> list[Any]:
        """The questions these options ask: one, or many where the input holds many (a file of puzzles)."""
        return [self.question(**given)]

    def question_options(self) -> list[Option]:
        """The options that make up a question (not the files an answer is written to)."""
        return [option for option in self.options if not option.output]

    def output_options(self) -> list[Option]:
        """The options naming files to write (`svg`, ...)."""
        return [option for option in self.options if option.output]

    def ask(self, **values: Any) -> Any:
        """The question built from checked option values (raise InputError on a bad combination)."""
        raise NotImplementedError

    def describe(self, question: Any) -> dict[str, Any]:
        """The question as a JSON-able dict (for answers and reports)."""
        return dict(vars(question))

    def label(self, question: Any, changed_only: bool = False) -> str:
        """The question in a few words for report headers: the options set, files by name. With `changed_only`
        (demo rows), only the options away from their defaults, so that rows of one puzzle read apart."""
        described = {key: value for key, value in self.describe(question).items() if value not in (None, False, [], (), "")}
        if changed_only:
            defaults = {option.name: option.default for option in self.options}
            described = {key: value for key, value in described.items() if value != defaults.get(key)} or described
        return ", ".join(f"{key}={brief(value)}" for key, value in described.items())

    def budget(self, question: Any) -> Budget:
        """The node and time budget of one search for `question` (its `seconds`/`nodes` when it has them)."""
        return Budget(nodes=getattr(question, "nodes", 0) or 0,
                      seconds=getattr(question, "seconds", DEFAULT_SECONDS) or DEFAULT_SECONDS,
                      label=f"{self.name} search")

    # --- back ends -------------------------------------------------------------------------------

    def entry(self, question: Any) -> str:
        """The back-end function that answers `question`: `solve`, or a named extra question."""
        return "solve"

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
            function = getattr(module, self.entry(question), None) if module else None
            declines = getattr(module, "answers", None)
            if function is not None and (declines is None or declines(question)):
                offered[backend] = function
        return offered

    def backends_for(self, question: Any) -> list[str]:
        """The back ends that answer `question`, in the order of backends.NAMES."""
        return list(self.solvers(question))

    def solve(self, question: Any, backend: str | None = None) -> Answer:
        """Ask one back end (default: backends.default(), else the first that answers) and time the answer."""
        backend = backend or self.default_backend(question)
        backends.check_name(backend)
        solver = self.solvers(question).get(backend)
        if solver is None:
            offered = ", ".join(self.backends_for(question))
            raise UnknownName(f"back end {backend!r} does not answer this {self.name} question; "
                              f"use one of: {offered}")
        backends.require(backend)
        return self.run(backend, lambda asked: solver(asked, self.budget(asked)), question)

    def run(self, name: str, solver: Callable[[Any], Found], question: Any) -> Answer:
        """Time `solver`'s answer to `question` and build the Answer, under back end `name`.

        A search that runs out of its budget, of Python's recursion depth or of memory answers
        `unknown`, with the reason in `stats`.
        """
        started, out_of_memory = time.perf_counter(), False
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
        seconds = time.perf_counter() - started
        if not isinstance(found, Found):
            raise TypeError(f"back end {name!r} returned {type(found).__name__}; it must return pysolve.Found")
        return Answer(
            puzzle=self.name,
            backend=name,
            solutions=found.solutions,
            stats={"seconds": round(seconds, 6), **found.stats},
            count=found.count,
            status=found.status,
            question=self.describe(question),
            asked=question,
        )

    def default_backend(self, question: Any) -> str:
        """The default back end if it answers `question`, else the first available that does."""
        offered = self.backends_for(question)
        preferred = backends.default()
        if preferred in offered:
            return preferred
        for name in offered:
            if backends.available(name):
                return name
        if not offered:
            raise UnknownName(f"no back end answers this {self.name} question")
        return offered[0]

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

    def write_files(self, answer: Answer, outputs: Mapping[str, Any]) -> list[str]:
        """Write the files the output options ask for (`svg=OUT`, ...); return their paths."""
        return []

    def split(self, question: Any) -> list[Any] | None:
        """Independent sub-questions whose counts add up to `question`'s count (its first placements),
        for `--workers` and `--cluster`; None when the question is no count or cannot be split."""
        return None

    def total(self, question: Any, counts: list[int]) -> int:
        """The count of `question` from the counts of its parts: their sum (a capped count caps it)."""
        return sum(counts)

    @property
    def can_split(self) -> bool:
        """True when the puzzle splits some counts into parts (it overrides `split`)."""
        return type(self).split is not Puzzle.split

    def demo_questions(self) -> list[Any]:
        """Questions `make demo` asks every back end and cross-checks."""
        return []

    # --- generators, games and command groups of one's own ---------------------------------------------

    def generate(self, **given: Any) -> tuple[dict[str, Any], str]:
        """A generated instance as (JSON-able data, the text of its file: what `pysolve solve` reads), from
        checked generator options; `out=FILE` (options.GENERATED_OUT) writes that text there too, whole or not
        at all."""
        what = f"pysolve generate {self.name}"
        out = _options.check((_options.GENERATED_OUT,), {"out": given.pop("out", None)}, what)["out"]
        data, text = self.create(**self.checked(self.generate_options, given, what))
        if out is not None:
            files.write_text(out, text + "\n", _options.GENERATED_OUT.flag)
        return data, text

    def create(self, **values: Any) -> tuple[dict[str, Any], str]:
        """Generate an instance from checked option values (when can_generate)."""
        raise NotImplementedError

    def play(self, backend: str | None = None, **given: Any) -> int:
        """Start the puzzle's interactive game (`pysolve play NAME`), the rules asked of `backend`."""
        values = self.checked(self.play_options, given, f"pysolve play {self.name}")
        return self.start_game(backend or backends.default(), **values)

    def start_game(self, backend: str, **values: Any) -> int:
        """Run the game until the player quits; return the exit code (when can_play)."""
        raise NotImplementedError

    def add_commands(self, commands: Any) -> None:
        """Add command groups of the puzzle's own to the `pysolve` parser's subcommands (`pysolve azul ...`)."""
