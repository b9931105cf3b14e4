"""What back ends answer: `Found` from a back end, `Answer` once timed and labelled, and their `Status`.

Kept apart from `pysolve.puzzle` so that the bridge and the budgets can
build answers without importing the puzzle machinery.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypeVar


class Words(str, Enum):
    """A `str` enum whose members read and print as their words (statuses, verdicts).

    JSON output, the CLI's text and the web API show a member as its words ("no solution"), and a word read
    back from JSON compares equal to its member.
    """

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class Status(Words):
    """What an answer says of its question: solved, no solution, or unknown (no answer within its budget)."""

    SOLVED = "solved"
    NO_SOLUTION = "no solution"
    UNKNOWN = "unknown"


SOLVED, NO_SOLUTION, UNKNOWN = Status.SOLVED, Status.NO_SOLUTION, Status.UNKNOWN
Q = TypeVar("Q")  # the question type of a puzzle (its model's frozen dataclass)
SHOWN = 2000  # characters of an answer's JSON a notebook shows when it cannot draw it

# How a notebook draws an answer with its puzzle's picture: set by pysolve.notebook when it loads (the
# cross-check, and so the API, load it); answers know no puzzle, so they ask through this.
NOTEBOOK: Callable[[Answer], str] | None = None


@dataclass
class Answer(Generic[Q]):
    """One back end's answer to one question, in the JSON shape of `pysolve solve --json`.

    `asked` is the question itself, typed (a puzzle's hooks read `answer.asked.count`, not a key of the dict
    `question`, which is what JSON shows of it: `Puzzle.describe`).
    """

    puzzle: str
    backend: str
    solutions: list[Any]
    stats: dict[str, Any] = field(default_factory=dict)
    count: int | None = None
    status: Status = SOLVED
    question: dict[str, Any] = field(default_factory=dict)
    asked: Q = field(kw_only=True, repr=False, compare=False)  # not in JSON: `question` describes it

    def __post_init__(self) -> None:
        self.status = Status(self.status)  # a status read back from JSON is its word

    @property
    def reason(self) -> str:
        """Why an unknown answer has none.

        Why an unknown answer has none: the back end's reason, or a plain one when a solver of one's own
        (which owes pysolve nothing but its answer) gave none."""
        return self.stats.get("reason", "no answer within its budget")

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

    def _repr_html_(self) -> str:
        """The answer in a notebook (Jupyter): drawn by pysolve.notebook, else its JSON."""
        if NOTEBOOK is not None:
            return NOTEBOOK(self)
        return f"<pre>{html.escape(json.dumps(self.to_json(), indent=1, default=str)[:SHOWN])}</pre>"


@dataclass
class Found:
    """What a back end returns: solutions plus its own search statistics (`states`, `reason`, ...)."""

    solutions: list[Any]
    stats: dict[str, Any] = field(default_factory=dict)
    count: int | None = None
    status: Status = SOLVED

    def __post_init__(self) -> None:
        self.status = Status(self.status)  # a solver of one's own may give the word


def stopped(reason: str, stats: Mapping[str, Any] | None = None) -> Found:
    """The answer of a search that ran out of its budget: status unknown, and why."""
    return Found([], {**(stats or {}), "reason": reason}, status=UNKNOWN)


def counted(found: Found, count: int | None) -> Found:
    """A Found with its count set when the question counts.

    `found` with `count` set when the question counts (`count` given), else None: how many solutions it
    holds, unless the back end said how many it found (more than it had the time to write out)."""
    found.count = (len(found.solutions) if found.count is None else found.count) if count else None
    return found


def validation(filled: Any, broken: list[Any]) -> Found:
    """The answer of a validation question.

    The answer of a validation question: the filled board itself when nothing breaks it, else no
    solution with what breaks it (stats `broken`: pairs, units, ...)."""
    if broken:
        return Found([], {"broken": broken}, status=NO_SOLUTION)
    return Found([filled], {"broken": []}, status=SOLVED)


class NotGiven:
    """A part of a canonical answer that its back end did not give.

    A part of a canonical answer that its back end did not give (a solver of one's own owes pysolve only
    its answer): equal to anything, so that part is not compared."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "<not given>"


NOT_GIVEN = NotGiven()
