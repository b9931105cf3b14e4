"""The pysolve pytest plugin (registered through the `pytest11` entry point).

- `--pysolve-backends=prolog,kanren` chooses the back ends a run exercises
  (default: all three, or kanren and python when PYSOLVE_NO_PROLOG hides Prolog).
  A chosen back end that cannot run fails the tests that need it: never a skip.
- The `pysolve_backend` fixture parametrises a test over the chosen back ends;
  `@pytest.mark.pysolve_backends("prolog", "python")` narrows that test's set.
  The session fixture `pysolve_backends` is the whole list.
- `assert_backends_agree(puzzle, ..., reference=my_solver)` asks several back
  ends (and one's own solvers) one question and, when they disagree, fails
  with the table of answers, where they first differ, and a diff: it returns
  the `CrossCheck`.
- `assert_solver_agrees(puzzle, my_solver, examples=N)` asks one's own solver
  and pysolve's back ends N random questions (`pysolve check`'s machinery)
  and fails with the smallest disagreement hypothesis shrank to: it returns
  the `CheckReport`.
- `assert_rules_agree(puzzle, "my_rules.pl", examples=N)` asks a rule base of
  one's own (the puzzle's rules interface) and pysolve's back ends N random
  questions and fails with the report of `pysolve check`: the smallest
  disagreement hypothesis shrank to, both answers drawn, errors and time-outs.

A pysolve error on the way (a back end that cannot run, a bad argument, a
solver of one's own whose answer is no pysolve.Found) fails the test in one
line, as the CLI prints it, never with a traceback into pysolve.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import os
import pprint
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from pysolve import backends as _backends
from pysolve.agreement import AGREE, DISAGREE, NOT_COMPARED, CrossCheck, own_solver
from pysolve.answers import Found
from pysolve.api import PuzzleLike, backend_name, crosscheck, get_puzzle
from pysolve.bounded import call_bounded
from pysolve.bridge import HIDE_VARIABLE
from pysolve.check import AGREE as RULES_AGREE
from pysolve.check import SECONDS, CheckReport, check
from pysolve.errors import InputError, PysolveError
from pysolve.options import wrong_argument
from pysolve.puzzle import Puzzle, Solver
from pysolve.report import crosscheck_table

OPTION = "--pysolve-backends"
MARKER = "pysolve_backends"
DIFF_LINES = 40

_chosen: list[list[str]] = []  # the back ends of each running session (pytester nests sessions)


needs_prolog = pytest.mark.skipif(
    bool(os.environ.get(HIDE_VARIABLE)), reason=f"needs SWI-Prolog, hidden on purpose by {HIDE_VARIABLE}")
"""Mark a test that cannot run without SWI-Prolog: skipped only when Prolog is hidden on purpose."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add --pysolve-backends."""
    parser.getgroup("pysolve").addoption(
        OPTION, metavar="NAMES", default=None,
        help=f"comma-separated back ends to exercise ({', '.join(_backends.NAMES)}); "
             f"default: all, without prolog when {HIDE_VARIABLE} is set")


def pytest_configure(config: pytest.Config) -> None:
    """Check the chosen back ends' names and remember them; declare the marker."""
    config.addinivalue_line("markers", f"{MARKER}(*names): run this test's pysolve_backend only on these back ends")
    _chosen.append(chosen_backends(config.getoption(OPTION)))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Forget this session's back ends."""
    if _chosen:
        _chosen.pop()


def chosen_backends(option: str | None) -> list[str]:
    """The back ends named in --pysolve-backends (checked), or the default set."""
    if option is None:
        hidden = bool(os.environ.get(HIDE_VARIABLE))
        return [name for name in _backends.NAMES if not (hidden and name == "prolog")]
    names = [name.strip() for name in option.split(",") if name.strip()]
    unknown = [name for name in names if name not in _backends.NAMES]
    if unknown or not names:
        raise pytest.UsageError(f"{OPTION}={option}: use back ends among {', '.join(_backends.NAMES)}")
    return names


def session_backends() -> list[str]:
    """The back ends of the running pytest session (the default set outside pytest)."""
    return list(_chosen[-1]) if _chosen else chosen_backends(None)


def pytest_report_header(config: pytest.Config) -> list[str]:
    """One line per back end: chosen or not, available or why not."""
    chosen = session_backends()
    lines = []
    for info in _backends.all_info():
        state = f"available, {info.version}" if info.available else f"UNAVAILABLE: {info.reason}"
        lines.append(f"pysolve back end {info.name}: {'chosen' if info.name in chosen else 'not chosen'}; {state}")
    return lines


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise `pysolve_backend` over the chosen back ends (narrowed by the marker)."""
    if "pysolve_backend" not in metafunc.fixturenames:
        return
    names = session_backends()
    marker = metafunc.definition.get_closest_marker(MARKER)
    if marker is not None:
        for name in marker.args:
            _backends.check_name(name)
        names = [name for name in names if name in marker.args]
    metafunc.parametrize("pysolve_backend", names, indirect=True)


@contextlib.contextmanager
def one_line() -> Iterator[None]:
    """Fail the running test with a pysolve error's one line, as the CLI prints it (no traceback into pysolve)."""
    try:
        yield
    except PysolveError as error:
        from pysolve.cli import one_line as escaped  # what would break the line, escaped as the CLI does

        raise pytest.fail.Exception(f"pysolve: error: {escaped(str(error))}", pytrace=False) from None


@pytest.fixture()
def pysolve_backend(request: pytest.FixtureRequest) -> str:
    """One chosen back end per test instance; fails (not skips), in one line, when it cannot run here."""
    with one_line():
        _backends.require(request.param)
    return request.param


@pytest.fixture(scope="session")
def pysolve_backends() -> list[str]:
    """Every back end this run exercises; fails (not skips), in one line, when one cannot run here."""
    names = session_backends()
    with one_line():
        for name in names:
            _backends.require(name)
    return names


def assert_backends_agree(puzzle: PuzzleLike, *args: Any, question: Any = None,
                          backends: Sequence[str] | None = None,
                          reference: Solver | Sequence[Solver] | None = None, **options: Any) -> CrossCheck:
    """Assert that the back ends (default: the session's) and `reference` agree on one question.

    `reference` is one's own solver (a function question -> pysolve.Found, or a
    pysolve.RuleBase), or several, each stopped at the question's time limit
    as pysolve's back ends are (it answers unknown then). At least two answers
    must come back, every back end asked that answers such a question must
    answer (one that declines it is only listed), and the answers must agree;
    the failure says which failed, in the words of `pysolve crosscheck`.
    Returns the cross-check report. Random questions, many at once, are
    `assert_solver_agrees`.
    """
    __tracebackhide__ = True
    chosen = session_backends() if backends is None else backends
    with one_line():
        report = crosscheck(puzzle, *args, question=question, backends=chosen, also=bounded(puzzle, reference),
                            **options)
    if not report.agree or report.skipped:
        raise AssertionError(failure_message(puzzle, report))
    return report


def bounded(puzzle: PuzzleLike, reference: Solver | Sequence[Solver] | None) -> dict[str, Solver]:
    """One's own solvers by name, each stopped past the question's time limit and answering unknown then.

    The limit is the one pysolve's back ends get (`Puzzle.budget`), and they too answer unknown past it: a solver
    that loops or sleeps would otherwise hang the test, since it looks at no budget."""
    found = get_puzzle(puzzle)
    solvers = [] if reference is None else [reference] if callable(reference) else reference
    if not isinstance(solvers, (list, tuple)) or not all(map(callable, solvers)):
        raise wrong_argument("reference", "a solver of one's own (a function question -> pysolve.Found), a list "
                             "of them, or None", reference)
    return {backend_name(solver): _bounded_solver(found, solver, backend_name(solver)) for solver in solvers}


def _bounded_solver(puzzle: Puzzle, solver: Solver, name: str) -> Solver:
    """`solver` within each question's time limit (`bounded.call_bounded`)."""

    def within_limit(question: Any) -> Found:
        return call_bounded(functools.partial(solver, question), puzzle.budget(question).seconds, name)

    return within_limit


def assert_solver_agrees(puzzle: PuzzleLike, solver: Solver, examples: int = 20, seed: int = 0,
                         max_size: int | None = None, seconds: float = SECONDS) -> CheckReport:
    """Assert that `solver`, one's own, agrees with pysolve's back ends on `examples` random questions.

    The questions are the puzzle's hypothesis strategies' (boards up to
    `max_size`, drawn from `seed`: the same questions every run), each within
    `seconds`, `solver`'s time limit and every back end's (past it, a
    time-out); they are asked of pysolve's Prolog and Python back ends
    (miniKanren and Python with Prolog hidden) too, as `pysolve check` asks a
    rule base. The failure holds `pysolve check`'s report with the smallest
    disagreement drawn. Returns that report.
    """
    __tracebackhide__ = True
    with one_line():
        if not callable(solver):
            raise InputError("assert_solver_agrees checks one solver of one's own: give a function question -> "
                             f"pysolve.Found, not {type(solver).__name__}")
        mine = own_solver(get_puzzle(puzzle), backend_name(solver), solver)  # a malformed Found is its error
        report = check(puzzle, mine, examples=examples, seed=seed, max_size=max_size, seconds=seconds)
    if report.verdict != RULES_AGREE:
        raise AssertionError("\n".join(report.lines()))
    return report


def failure_message(puzzle: PuzzleLike, report: CrossCheck) -> str:
    """The text a failing cross-check assertion shows.

    What failed, the verdict line in the CLI's words (naming every back end that did not answer and why), the
    table of answers, and a diff of the first two canonical answers that differ."""
    found = get_puzzle(puzzle)
    headings = {NOT_COMPARED: "pysolve back ends were not compared", DISAGREE: "pysolve back ends do not agree",
                AGREE: f"pysolve back ends did not all answer ({', '.join(report.skipped)} gave no answer)"}
    lines = [headings[report.verdict], report.summary(), *crosscheck_table(found, report)]
    canonical = {name: found.canonical(answer) for name, answer in report.results.items()}
    names = list(canonical)
    other = next((name for name in names[1:] if canonical[name] != canonical[names[0]]), None)
    if other is not None:
        lines += canonical_diff(names[0], canonical[names[0]], other, canonical[other])
    return "\n".join(lines)


def canonical_diff(left_name: str, left: Any, right_name: str, right: Any) -> list[str]:
    """A unified diff of two canonical answers, pretty-printed, cut to DIFF_LINES lines."""
    diff = list(difflib.unified_diff(pprint.pformat(left, width=100).splitlines(),
                                     pprint.pformat(right, width=100).splitlines(),
                                     fromfile=left_name, tofile=right_name, lineterm=""))
    if len(diff) > DIFF_LINES:
        diff = diff[:DIFF_LINES] + [f"... ({len(diff) - DIFF_LINES} more diff lines)"]
    return diff


def assert_rules_agree(puzzle: PuzzleLike, rules: str | os.PathLike[str], examples: int = 20, seed: int = 0,
                       max_size: int | None = None, seconds: float = 5.0,
                       out: str | os.PathLike[str] | None = None) -> CheckReport:
    """Assert that the rule base file `rules` agrees with pysolve's back ends; return the report.

    It is asked `examples` random questions of `puzzle` (`pysolve check`, seeded: the same questions every run),
    and must raise no error and never run out of time. The failure holds the report, with the smallest
    disagreement drawn (also written to `out` when given)."""
    __tracebackhide__ = True
    with one_line():
        report = check(puzzle, rules, examples=examples, seed=seed, max_size=max_size, seconds=seconds, out=out)
    if report.verdict != RULES_AGREE:
        raise AssertionError("\n".join(report.lines()))
    return report
