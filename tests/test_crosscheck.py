"""The orchestration layer: agreement, the first difference, skipped and unknown answers."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pysolve.budget import Budget
from pysolve.crosscheck import crosscheck, first_difference
from pysolve.errors import SearchLimitExceeded
from pysolve.puzzle import UNKNOWN, Found, Puzzle, Solver


@dataclass(frozen=True)
class Square:
    n: int


class Squaring(Puzzle):
    """A toy puzzle whose kanren solver gives up on n > 5 (and answers unknown for n = 1)."""

    name = "squaring"
    summary = "n squared"

    def solvers(self, question: Square) -> dict[str, Solver]:
        def right(q: Square, budget: Budget) -> Found:
            return Found([q.n * q.n], {"states": 1})

        def gives_up(q: Square, budget: Budget) -> Found:
            if q.n > 5:
                raise SearchLimitExceeded("budget of 5")
            return Found([q.n * q.n]) if q.n > 1 else Found([], status=UNKNOWN)

        return {"kanren": gives_up, "python": right}


def wrong_on_three(q: Square) -> Found:
    """A solver of one's own, wrong for n = 3."""
    return Found([q.n * q.n + (q.n == 3)], {"states": 2})


def test_agreement_with_times_and_statistics() -> None:
    report = crosscheck(Squaring(), Square(4), also={"mine": wrong_on_three})
    assert report.agree and report.difference is None
    assert list(report.results) == ["mine", "kanren", "python"]
    assert report.results["mine"].stats["states"] == 2 and report.results["python"].stats["states"] == 1
    assert all(answer.stats["seconds"] >= 0 for answer in report.results.values())
    assert report.to_json()["agree"] is True


def test_disagreement_names_the_first_difference() -> None:
    report = crosscheck(Squaring(), Square(3), also={"mine": wrong_on_three})
    assert not report.agree
    assert report.difference == "mine and kanren differ at answer[0]: 10 against 9"


def test_budget_errors_and_unknown_answers_are_skipped_not_disagreements() -> None:
    report = crosscheck(Squaring(), Square(6))
    assert report.agree and "budget of 5" in report.skipped["kanren"]
    assert report.skipped["kanren"] == "unknown: budget of 5"
    report = crosscheck(Squaring(), Square(1))
    assert report.agree and report.skipped["kanren"] == "unknown: no answer within its budget"


def test_only_some_back_ends() -> None:
    assert list(crosscheck(Squaring(), Square(3), ["kanren"]).results) == ["kanren"]


@pytest.mark.parametrize("left, right, where", [
    ([1, [2, 3]], [1, [2, 4]], "answer[1][1]: 3 against 4"),
    ([1, 2], [1, 2, 3], "answer: 2 items against 3"),
    ({"a": 1}, {"a": 1, "b": 2}, "answer['b']: present on one side only"),
    ("x", "x", None),
])
def test_first_difference(left: object, right: object, where: str | None) -> None:
    assert first_difference(left, right) == where
