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
makes sense; `pysolve.dispatch.Dispatch`, which it inherits, runs them
(checked entry points, the declared back ends, timed answers). The rest of
pysolve (CLI, API, cross-checks, demo, pytest plugin) knows a puzzle only
through this interface and the entry-point registry.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from pysolve import backends, paths
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer, Found, stopped  # noqa: F401  (re-exported)
from pysolve.budget import DEFAULT_SECONDS, Budget
from pysolve.catalogue import Note
from pysolve.dispatch import FACES, Backend, Dispatch, Face
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


class Puzzle(Dispatch):
    """Base class of the puzzles: declare what it offers and the options, fill the hooks; `Dispatch` runs them.

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
        """The questions built from checked option values: one, or many where the input holds many (a file
        of puzzles)."""
        return [self.ask(**values)]

    def located(self, given: Any) -> Any:
        """The file to read for a file option's value (a tuple of them for a repeated option): see
        `Catalogue.locate`."""
        if isinstance(given, tuple):
            return tuple(self.located(item) for item in given)
        return self.catalogue().locate(given)

    def describe(self, question: Any) -> dict[str, Any]:
        """The question as a JSON-able dict (for answers and reports)."""
        return dict(vars(question))

    def label(self, question: Any, changed_only: bool = False) -> str:
        """The question in a few words for report headers: the options set, files by name. With `changed_only`
        (demo rows), only the options away from their defaults, so that rows of one puzzle read apart."""
        described = {key: value for key, value in self.describe(question).items()
                     if value not in (None, False, [], (), "")}
        if changed_only:
            defaults = {option.name: option.default for option in self.options}
            described = {key: value for key, value in described.items() if value != defaults.get(key)} or described
        return ", ".join(f"{key}={brief(value)}" for key, value in described.items())

    def kind(self, question: Any) -> str:
        """The kind of `question`: the name of the back-end function that answers it (`solve`, or an extra
        kind such as `validate`)."""
        return "solve"

    def budget(self, question: Any) -> Budget:
        """The node and time budget of one search for `question` (its `seconds`/`nodes` when it has them)."""
        return Budget(nodes=getattr(question, "nodes", 0) or 0,
                      seconds=getattr(question, "seconds", DEFAULT_SECONDS) or DEFAULT_SECONDS,
                      label=f"{self.name} search")

    # --- shipped instances -----------------------------------------------------------------------

    def shipped_folder(self) -> Path | None:
        """The folder of the shipped instances: data/NAME/ for pysolve's own puzzles; a puzzle of one's own
        returns its own folder (or None: it ships none)."""
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
        """Independent sub-questions whose counts add up to `question`'s count (its first placements),
        for `--workers` and `--cluster`; None when the question is no count or cannot be split."""
        return None

    def total(self, question: Any, counts: list[int]) -> int:
        """The count of `question` from the counts of its parts: their sum (a capped count caps it)."""
        return sum(counts)

    def generate(self, *_: Any, **values: Any) -> tuple[dict[str, Any], str]:
        """A generated instance from checked `generate_options` values: (JSON-able data, the text of its file,
        which `pysolve solve` reads). Hook of the entry point `generated` (`pysolve generate NAME`)."""
        raise NotImplementedError

    def play(self, backend: str, *_: Any, **values: Any) -> int:
        """Run the game from checked `play_options` values, the rules asked of `backend`, until the player
        quits; return the exit code. Hook of the entry point `game` (`pysolve play NAME`)."""
        raise NotImplementedError

    def fill_command_group(self, name: str, parser: Any) -> None:
        """Add the arguments (or subcommands) of the command group `name` of `command_groups` to its parser,
        an argparse parser; called only when the group is used, so that `pysolve --help` loads none of it."""
        raise NotImplementedError
