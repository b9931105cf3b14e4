"""The orchestration layer: agreement of two or more answers, the first difference, every back end that gave
no answer and why, back ends side by side within their own time limits."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass

import pytest

from pysolve import budget
from pysolve.agreement import Unanswered, Verdict, crosscheck, first_difference
from pysolve.answers import NO_SOLUTION, Answer, Status
from pysolve.budget import Budget
from pysolve.errors import InputError, SearchLimitExceeded
from pysolve.puzzle import UNKNOWN, Found, Puzzle, Solver


@dataclass(frozen=True)
class Square:
    n: int
    seconds: float = 60.0


class Toy(Puzzle):
    """A toy puzzle named `name` whose back ends are the solvers given (back end name -> solver)."""

    summary = "a toy"

    def __init__(self, name: str, **solvers: Solver) -> None:
        self.name, self.given = name, solvers

    def solvers(self, question: Square) -> dict[str, Solver]:
        return self.given


def right(q: Square, budget: Budget) -> Found:
    return Found([q.n * q.n], {"states": 1})


def gives_up(q: Square, budget: Budget) -> Found:
    """Gives up on n > 5 and answers unknown for n = 1."""
    if q.n > 5:
        raise SearchLimitExceeded("budget of 5")
    return Found([q.n * q.n]) if q.n > 1 else Found([], status=UNKNOWN)


def endless(q: Square, budget: Budget) -> Found:
    """Searches until its time limit."""
    while True:
        budget.spend()


def squaring() -> Toy:
    """n squared; the kanren solver gives up on n > 5 (and answers unknown for n = 1)."""
    return Toy("squaring", kanren=gives_up, python=right)


def racing() -> Toy:
    """A slow kanren back end (it searches until its time limit) and a python one that answers at once."""
    return Toy("racing", kanren=endless, python=lambda q, budget: Found([q.n]))


def right_square(q: Square) -> Found:
    """A solver of one's own, right."""
    return Found([q.n * q.n])


def wrong_on_three(q: Square) -> Found:
    """A solver of one's own, wrong for n = 3."""
    return Found([q.n * q.n + (q.n == 3)], {"states": 2})


def test_agreement_with_times_and_statistics() -> None:
    report = crosscheck(squaring(), Square(4), also={"mine": wrong_on_three})
    assert report.agree and report.difference is None
    assert list(report.results) == ["mine", "kanren", "python"]
    assert report.results["mine"].stats["states"] == 2 and report.results["python"].stats["states"] == 1
    assert all(answer.stats["seconds"] >= 0 for answer in report.results.values())
    assert report.to_json()["agree"] is True


def test_disagreement_names_the_first_difference() -> None:
    report = crosscheck(squaring(), Square(3), also={"mine": wrong_on_three})
    assert not report.agree
    assert report.difference == "mine and kanren differ at answer[0]: 10 against 9"


def test_budget_errors_and_unknown_answers_are_listed_not_disagreements() -> None:
    report = crosscheck(squaring(), Square(6), also={"mine": right_square})
    assert report.agree and report.skipped["kanren"] == Unanswered("unknown", "budget of 5")
    assert report.summary() == ("the answers of mine, python agree; not compared "
                                "(prolog: declined: prolog does not answer this squaring question; "
                                "kanren: unknown: budget of 5)")
    report = crosscheck(squaring(), Square(1), also={"mine": right_square})
    assert report.agree and report.skipped["kanren"] == Unanswered("unknown", "no answer within its budget")


def test_one_answer_is_not_compared_and_every_silent_back_end_is_named() -> None:
    report = crosscheck(squaring(), Square(6))
    assert not report.compared and not report.agree and report.verdict is Verdict.NOT_COMPARED
    assert list(report.results) == ["python"] and list(report.unanswered()) == ["prolog", "kanren"]
    assert list(report.declined) == ["prolog"] and list(report.skipped) == ["kanren"]  # only kanren owed one
    assert report.summary() == ("NOT COMPARED: only python answered (prolog: declined: prolog does not answer this "
                                "squaring question; kanren: unknown: budget of 5)")
    data = report.to_json()
    assert data["compared"] is False and data["agree"] is False and data["verdict"] == "not compared"
    assert data["declined"] == {"prolog": "declined: prolog does not answer this squaring question"}
    assert data["skipped"] == {"kanren": "unknown: budget of 5"}


def test_none_differ_holds_for_agreement_or_one_answer_alone_never_for_a_difference_or_silence() -> None:
    assert crosscheck(squaring(), Square(4)).none_differ  # agreement
    alone = crosscheck(squaring(), Square(6))  # kanren gives up: python's answer alone
    assert alone.none_differ and not alone.compared
    assert not crosscheck(squaring(), Square(3), also={"mine": wrong_on_three}).none_differ
    silent = crosscheck(squaring(), Square(6), only=["kanren"])
    assert not silent.results and not silent.none_differ


def test_a_solver_of_ones_own_counts_as_an_answer() -> None:
    report = crosscheck(squaring(), Square(6), only=["kanren"], also={"mine": right_square})
    assert not report.compared and report.summary().startswith("NOT COMPARED: only mine answered (kanren: unknown")
    report = crosscheck(squaring(), Square(4), only=["python"], also={"mine": right_square})
    assert report.agree and report.summary() == "all back ends agree (mine, python)"


def test_an_error_is_a_failed_back_end_and_a_bug_is_raised() -> None:
    def refuses(q: Square) -> Found:
        raise InputError("n must be even")

    report = crosscheck(squaring(), Square(4), also={"refuses": refuses})
    assert report.skipped["refuses"] == Unanswered("failed", "InputError: n must be even") and report.agree

    def crashes(q: Square) -> Found:  # one's own: its error is what the cross-check reports of it
        return Found([1 / 0])

    report = crosscheck(squaring(), Square(4), also={"crashes": crashes})
    assert report.skipped["crashes"] == Unanswered(
        "failed", "RulesError: crashes raised ZeroDivisionError: division by zero") and report.agree

    told: list[tuple[str, str]] = []
    with pytest.raises(ZeroDivisionError):  # a finished back end has a row: this one never finished
        crosscheck(Toy("crashing", python=lambda q, budget: crashes(q)), Square(4),
                   watch=lambda event, name, report: told.append((event, name)))
    assert ("started", "python") in told and ("finished", "python") not in told


@pytest.mark.slow
def test_back_ends_run_side_by_side_each_within_its_own_time_limit() -> None:
    events: list[tuple[str, str]] = []
    report = crosscheck(racing(), Square(7, seconds=30), also={"mine": lambda q: Found([q.n])}, seconds=1.0,
                        watch=lambda event, name, report: events.append((event, name)))
    assert events[0] == ("begin", "") and ("finished", "prolog") in events  # declined: told at once
    finished = [name for event, name in events if event == "finished"]
    assert finished[-1] == "kanren" and set(finished) == {"prolog", "mine", "python", "kanren"}
    assert {name for event, name in events if event == "started"} == {"mine", "python", "kanren"}
    assert report.agree and report.skipped["kanren"].reason == "racing search passed its time limit of 1 s"
    assert list(report.results) == ["mine", "python"] and report.limit_seconds == 1.0 and report.seconds > 0


@pytest.mark.slow
def test_a_web_requests_bounds_reach_every_back_end() -> None:
    """A web worker serves a request (budget.serving): its cap and its abandonment bind the lanes too."""
    with budget.serving(0.5, threading.Event()):
        report = crosscheck(racing(), Square(7, seconds=30), seconds=20)
    assert str(report.skipped["kanren"]) == "unknown: racing search passed its time limit of 0.5 s"
    gone = threading.Event()
    gone.set()
    with budget.serving(20, gone):
        report = crosscheck(racing(), Square(7, seconds=30))
    assert "abandoned" in report.skipped["kanren"].reason


def test_only_some_back_ends() -> None:
    assert list(crosscheck(squaring(), Square(3), ["kanren"]).results) == ["kanren"]


@pytest.mark.parametrize("left, right, where", [
    ([1, [2, 3]], [1, [2, 4]], "answer[1][1]: 3 against 4"),
    ([1, 2], [1, 2, 3], "answer: 2 items against 3"),
    ({"a": 1}, {"a": 1, "b": 2}, "answer['b']: present on one side only"),
    ("x", "x", None),
])
def test_first_difference(left: object, right: object, where: str | None) -> None:
    assert first_difference(left, right) == where


def test_statuses_and_verdicts_are_enums_that_read_and_print_as_their_words() -> None:
    assert json.dumps([NO_SOLUTION, Verdict.NOT_COMPARED]) == '["no solution", "not compared"]'
    assert f"{NO_SOLUTION:>12}|{Verdict.AGREE}" == " no solution|agree" and str(UNKNOWN) == "unknown"
    read_back = Answer(puzzle="squaring", backend="python", solutions=[], status="no solution", asked=Square(2))
    assert read_back.status is Status.NO_SOLUTION and Found([], status="unknown").status is UNKNOWN
    with pytest.raises(ValueError, match="'solve' is not a valid Status"):
        Found([], status="solve")
