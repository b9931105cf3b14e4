"""A reference solver of one's own is held to the question's time limit, as pysolve's back ends are.

It looks at no budget, so it is stopped from outside (pysolve.bounded):
on CPU time past the limit (one that spins) or at the wall-clock guard (one
that sleeps), by assert_backends_agree and assert_solver_agrees, and the time-out is
reported as a back end's: unknown with the reason, or a check's time-out.
"""

from __future__ import annotations

import re
import signal
import threading
import time
from collections.abc import Callable

import pytest

import pysolve
from pysolve.bounded import call_bounded
from pysolve.budget import guard_words
from pysolve.errors import InputError, SearchLimitExceeded
from pysolve.pytest_plugin import assert_backends_agree, assert_solver_agrees

LIMIT = 0.5  # CPU seconds of each question
MOST_WORK = LIMIT * 1.1 + 0.3  # the most CPU a search with that limit may take: the limit, 10 % and 0.3 s
HANG_GUARD = 60  # pytest-timeout's wall seconds: only so that a solver never stopped fails instead of hanging


def sleeps(question: object) -> pysolve.Found:
    time.sleep(100)
    return pysolve.Found([], count=36)


def spins(question: object) -> pysolve.Found:
    while True:
        pass


SOLVERS = {"sleeps": (sleeps, f"sleeps passed its {guard_words(LIMIT)}"),
           "spins": (spins, f"spins passed its time limit of {LIMIT:g} s")}


def timed(solver: Callable[[object], pysolve.Found], spent: list[float]) -> Callable[[object], pysolve.Found]:
    """`solver`, under its own name, adding to `spent` the CPU seconds of each call however it ends."""

    def run(question: object) -> pysolve.Found:
        started = time.thread_time()
        try:
            return solver(question)
        finally:
            spent.append(time.thread_time() - started)

    run.__name__ = solver.__name__
    return run


@pytest.mark.slow
@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.timeout(HANG_GUARD)
def test_a_reference_solver_past_its_limit_answers_unknown_beside_the_back_ends(name: str) -> None:
    solver, reason = SOLVERS[name]
    spent: list[float] = []
    with pytest.raises(AssertionError) as failed:
        assert_backends_agree("tangram", count=True, strategy="cell", seconds=LIMIT, backends=["python"],
                              reference=timed(solver, spent))
    assert f"NOT COMPARED: only python answered ({name}: unknown: {reason})" in str(failed.value)
    assert len(spent) == 1 and spent[0] <= MOST_WORK


@pytest.mark.slow
@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.timeout(HANG_GUARD)
def test_a_reference_solver_past_its_limit_is_a_time_out_of_the_check(name: str) -> None:
    solver, reason = SOLVERS[name]
    spent: list[float] = []
    with pytest.raises(AssertionError) as failed:
        assert_solver_agrees("sudoku", timed(solver, spent), examples=2, seed=1, seconds=LIMIT)
    report = str(failed.value)
    tried = re.match(rf"NO VERDICT: {name} on sudoku questions: (\d+) tried, 0 agreed, 0 errors, (\d+) time-outs?\n",
                     report)
    assert tried is not None and int(tried[1]) == int(tried[2]) >= 1, report  # every question asked timed out
    assert report.count(f"\n  time-out: {reason}") == int(tried[2])
    assert "smallest time-out (shrunk in" in report
    assert len(spent) >= int(tried[1]) and all(seconds <= MOST_WORK for seconds in spent)  # shrinking asks more


@pytest.mark.slow
def test_a_bounded_call_puts_back_the_handlers_and_timers_it_found() -> None:
    def found_alarm(signum: int, frame: object) -> None:
        raise AssertionError("the outer alarm went off during the test")

    before = signal.signal(signal.SIGALRM, found_alarm)
    signal.setitimer(signal.ITIMER_REAL, 50.0)
    try:
        assert call_bounded(lambda: 42, LIMIT, "quick") == 42
        with pytest.raises(SearchLimitExceeded, match="spinner passed its time limit"):
            call_bounded(lambda: spins(None), LIMIT, "spinner")
        assert signal.getsignal(signal.SIGALRM) is found_alarm
        assert signal.getsignal(signal.SIGPROF) is signal.SIG_DFL
        assert 40.0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 50.0
        assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def test_a_bounded_call_passes_on_what_the_function_raises_and_refuses_no_limit() -> None:
    def broken() -> None:
        raise ValueError("broken")

    with pytest.raises(ValueError, match="broken"):
        call_bounded(broken, LIMIT, "broken")
    with pytest.raises(InputError, match="is not a time limit"):
        call_bounded(lambda: 1, float("inf"), "unbounded")


@pytest.mark.slow
@pytest.mark.timeout(HANG_GUARD)
def test_off_the_main_thread_a_sleeper_is_left_at_the_wall_clock_guard() -> None:
    outcome: list[BaseException | int] = []

    def ask(function: Callable[[], int]) -> None:
        try:
            outcome.append(call_bounded(function, 0.1, "sleeper"))
        except BaseException as error:
            outcome.append(error)

    for function in (lambda: 7, lambda: time.sleep(100) or 0):
        asking = threading.Thread(target=ask, args=(function,))
        asking.start()
        asking.join()
    assert outcome[0] == 7
    assert isinstance(outcome[1], SearchLimitExceeded)
    assert str(outcome[1]) == f"sleeper passed its {guard_words(0.1)}"
