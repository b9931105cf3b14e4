"""What every puzzle offers the orchestration layer and the CLI.

A puzzle (one package per domain: `pysolve/<name>/`) subclasses `Puzzle`:
it turns CLI arguments into a question (a frozen dataclass of its own),
holds one solver per back end that answers it, brings answers to a
canonical form for cross-checking, and draws them. The rest of pysolve
knows puzzles only through this interface.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pysolve import backends
from pysolve.errors import UnknownName

SOLVED, NO_SOLUTION, UNKNOWN = "solved", "no solution", "unknown"


@dataclass
class Answer:
    """One back end's answer to one question, in the JSON shape of `pysolve solve --json`."""

    puzzle: str
    backend: str
    solutions: list[Any]
    stats: dict[str, Any] = field(default_factory=dict)
    count: int | None = None
    status: str = SOLVED
    question: dict[str, Any] = field(default_factory=dict)
    asked: Any = field(default=None, repr=False, compare=False)  # the question object itself, not in JSON

    def to_json(self) -> dict[str, Any]:
        """The answer as a JSON-able dict (`count` only when it was asked for)."""
        data: dict[str, Any] = {
            "puzzle": self.puzzle,
            "backend": self.backend,
            "question": self.question,
            "status": self.status,
            "solutions": self.solutions,
            "stats": self.stats,
        }
        if self.count is not None:
            data["count"] = self.count
        return data


@dataclass
class Found:
    """What a solver returns: solutions plus its own search statistics (`states`, ...)."""

    solutions: list[Any]
    stats: dict[str, Any] = field(default_factory=dict)
    count: int | None = None
    status: str = SOLVED


Solver = Callable[[Any], Found]


class Puzzle:
    """Base class of the domains; subclasses fill in the class attributes and hooks."""

    name: ClassVar[str]
    summary: ClassVar[str]
    can_generate: ClassVar[bool] = False  # offers `pysolve generate NAME`

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add this puzzle's options to `pysolve solve/crosscheck NAME`."""

    def question(self, args: argparse.Namespace) -> Any:
        """The question the parsed CLI arguments ask (validated; raise InputError)."""
        raise NotImplementedError

    def solvers(self, question: Any) -> dict[str, Solver]:
        """Back end name -> solver, for the back ends that answer this question."""
        raise NotImplementedError

    def canonical(self, answer: Answer) -> Any:
        """The part of an answer all back ends must agree on, in one normal form."""
        return answer.solutions

    def summarise(self, answer: Answer) -> str:
        """A few words for report tables: the count, or how many solutions were found."""
        found = answer.count if answer.count is not None else len(answer.solutions)
        return f"{found} solution{'' if found == 1 else 's'}"

    def render(self, answer: Answer) -> str:
        """The answer drawn as text for a terminal."""
        return "\n".join(str(solution) for solution in answer.solutions)

    def write_files(self, answer: Answer, args: argparse.Namespace) -> list[str]:
        """Write the pictures the CLI options asked for (`--svg OUT`, ...); return their paths."""
        return []

    def add_generate_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the options of `pysolve generate NAME` (when can_generate)."""

    def generate(self, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
        """A generated instance as (JSON-able data, text drawing) (when can_generate)."""
        raise NotImplementedError

    def demo_questions(self) -> list[Any]:
        """Questions `make demo` asks every back end and cross-checks."""
        return []

    def describe(self, question: Any) -> dict[str, Any]:
        """The question as a JSON-able dict (for answers and reports)."""
        return dict(vars(question))

    def backends_for(self, question: Any) -> list[str]:
        """The back ends that answer `question`, in the order of backends.NAMES."""
        offered = self.solvers(question)
        return [name for name in backends.NAMES if name in offered]

    def solve(self, question: Any, backend: str | None = None) -> Answer:
        """Ask one back end (default: backends.default()) and time the answer."""
        backend = backend or self.default_backend(question)
        backends.check_name(backend)
        solver = self.solvers(question).get(backend)
        if solver is None:
            offered = ", ".join(self.backends_for(question))
            raise UnknownName(f"back end {backend!r} does not answer this {self.name} question; "
                              f"use one of: {offered}")
        backends.require(backend)
        return self.run(backend, solver, question)

    def run(self, name: str, solver: Solver, question: Any) -> Answer:
        """Time `solver`'s answer to `question` and build the Answer, under back end `name`."""
        started = time.perf_counter()
        found = solver(question)
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
        return offered[0]
