"""Ask one question of several back ends and compare their canonical answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pysolve import backends
from pysolve.errors import PysolveError
from pysolve.puzzle import UNKNOWN, Answer, Puzzle, Solver


@dataclass
class CrossCheck:
    """The answers of every back end asked, whether they agree, and where they first differ."""

    puzzle: str
    question: dict[str, Any]
    results: dict[str, Answer]
    skipped: dict[str, str] = field(default_factory=dict)  # back end -> why it was not asked
    difference: str | None = None
    label: str = ""  # the question in a few words (Puzzle.label)

    @property
    def compared(self) -> bool:
        """True when at least one back end answered; False when none did (each out of its budget, or unable to
        run): nothing was compared, so nothing agreed or disagreed (`skipped` says why each gave no answer)."""
        return bool(self.results)

    @property
    def agree(self) -> bool:
        """True when at least one back end answered and all answers agree."""
        return self.compared and self.difference is None

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-able dict (`pysolve crosscheck --json`)."""
        return {
            "puzzle": self.puzzle,
            "question": self.question,
            "compared": self.compared,
            "agree": self.agree,
            "difference": self.difference,
            "results": {name: answer.to_json() for name, answer in self.results.items()},
            "skipped": self.skipped,
        }


def crosscheck(puzzle: Puzzle, question: Any, only: list[str] | None = None,
               also: Mapping[str, Solver] | None = None) -> CrossCheck:
    """Ask every available back end that answers `question` (or those in `only`) and compare.

    `also` adds solvers of one's own (name -> solver); they are asked first,
    so a difference names them.
    """
    offered = puzzle.backends_for(question)
    wanted = offered if only is None else [name for name in offered if name in only]
    report = CrossCheck(puzzle.name, puzzle.describe(question), {}, label=puzzle.label(question))
    for name, solver in (also or {}).items():
        record(report, name, lambda: puzzle.run(name, solver, question))
    for name in wanted:
        info = backends.info(name)
        if info.available:
            record(report, name, lambda: puzzle.solve(question, name))
        else:
            report.skipped[name] = info.reason
    report.difference = first_disagreement(puzzle, report.results)
    return report


def record(report: CrossCheck, name: str, ask: Callable[[], Answer]) -> None:
    """Add one back end's answer to the report, or why it gave none."""
    try:
        answer = ask()
    except PysolveError as error:  # a budget or a Prolog error: a finding, not a crash
        report.skipped[name] = f"{type(error).__name__}: {error}"
        return
    if answer.status == UNKNOWN:
        report.skipped[name] = f"unknown: {answer.stats.get('reason', 'no answer within its budget')}"
    else:
        report.results[name] = answer


def first_disagreement(puzzle: Puzzle, results: dict[str, Answer]) -> str | None:
    """Where the first answer's canonical form and another's first differ, or None."""
    canonical = {name: puzzle.canonical(answer) for name, answer in results.items()}
    names = list(canonical)
    for other in names[1:]:
        where = first_difference(canonical[names[0]], canonical[other])
        if where is not None:
            return f"{names[0]} and {other} differ at {where}"
    return None


def first_difference(left: Any, right: Any, path: str = "answer") -> str | None:
    """A readable path to the first place two nested values differ, or None when equal."""
    if left == right:
        return None
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right), key=repr):
            if key not in left or key not in right:
                return f"{path}[{key!r}]: present on one side only"
            where = first_difference(left[key], right[key], f"{path}[{key!r}]")
            if where:
                return where
    if isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
        for index, (a, b) in enumerate(zip(left, right)):
            where = first_difference(a, b, f"{path}[{index}]")
            if where:
                return where
        if len(left) != len(right):
            return f"{path}: {len(left)} items against {len(right)}"
    return f"{path}: {left!r} against {right!r}"
