"""The miniKanren toolkit every domain's relations share.

pysolve depends on PyPI `miniKanren` (import name `kanren`). The unrelated
PyPI `kanren` installs a package of the same import name and silently mixes
files with it, so the import is guarded here and fails loudly.

miniKanren's stock conjunction (`lall`) interleaves every stream fairly,
which explodes on finite search problems. The relations in pysolve use
`conj` and `disj` below instead: depth-first, in goal order, constant memory,
complete on finite search spaces. `Budget` (from pysolve.budget) bounds a
search in nodes and seconds so that a relation never hangs. Finite-domain
constraints (domains, all-different, tables, sums, labelling) live beside
this module in `pysolve.fd`, on miniKanren's own constraint store.
A depth-first search written with these goals records itself in a trace
(pysolve.trace) through `entered`, `dead_ends` and `solved`.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from pysolve.budget import Budget
from pysolve.errors import BackendUnavailable, SearchLimitExceeded
from pysolve.trace import Trace

__all__ = ["Budget", "conj", "dead_ends", "disj", "disj_over", "entered", "eq", "fail", "given", "lazy", "project",
           "reify", "require", "run", "solved", "unify", "var", "where"]

State = Any  # kanren's substitution: a mapping of variables to terms (its own goals type it loosely)
Goal = Callable[[State], Iterator[State]]


def _guarded_import() -> tuple[str, str]:
    """Import miniKanren, refusing the unrelated PyPI `kanren`; return (version, problem)."""
    try:
        version = importlib.metadata.version("miniKanren")
    except importlib.metadata.PackageNotFoundError:
        return "", "the miniKanren package is not installed (pip install miniKanren)"
    try:
        clash = importlib.metadata.version("kanren")
    except importlib.metadata.PackageNotFoundError:
        clash = ""
    if clash:
        return version, (f"the unrelated PyPI package kanren {clash} is installed and overwrites "
                         "miniKanren's files; uninstall both and reinstall miniKanren")
    try:
        import kanren.constraints  # noqa: F401  only miniKanren has this module
    except ImportError as error:
        return version, f"miniKanren {version} does not import: {error}"
    return version, ""


VERSION, PROBLEM = _guarded_import()


def require() -> None:
    """Raise BackendUnavailable unless miniKanren imports cleanly."""
    if PROBLEM:
        raise BackendUnavailable(PROBLEM, "kanren")


if not PROBLEM:
    from kanren import eq, var
    from kanren.core import fail
    from unification import reify, unify
else:  # pragma: no cover - exercised only on a broken install
    eq = var = reify = unify = fail = None  # type: ignore[assignment]


def conj(*goals: Goal) -> Goal:
    """Depth-first conjunction: every answer of the first goal is run through the rest, in order."""

    def solve_from(state: State, index: int) -> Iterator[State]:
        if index == len(goals):
            yield state
            return
        for next_state in goals[index](state):
            yield from solve_from(next_state, index + 1)

    def conj_goal(state: State) -> Iterator[State]:
        return solve_from(state, 0)

    return conj_goal


def disj(*goals: Goal) -> Goal:
    """Depth-first disjunction: all answers of the first goal, then of the next, in order."""

    def disj_goal(state: State) -> Iterator[State]:
        for goal in goals:
            yield from goal(state)

    return disj_goal


def disj_over(values: Iterable[Any], goal_for: Callable[[Any], Goal]) -> Goal:
    """Depth-first disjunction of `goal_for(v)` for each v, built lazily (a flat domain goal)."""

    def disj_over_goal(state: State) -> Iterator[State]:
        for value in values:
            yield from goal_for(value)(state)

    return disj_over_goal


def lazy(relation: Callable[..., Goal], *args: Any) -> Goal:
    """Build `relation(*args)` only when it runs, so recursive relations stay finite."""

    def lazy_goal(state: State) -> Iterator[State]:
        yield from relation(*args)(state)

    return lazy_goal


def given(build: Callable[[Any], Goal], term: Any) -> Goal:
    """The goal `build(value)` for the ground value `term` has when the goal runs."""

    def given_goal(state: State) -> Iterator[State]:
        yield from build(reify(term, state))(state)

    return given_goal


def where(test: Callable[..., bool], *terms: Any) -> Goal:
    """A guard: succeed once when `test` holds for the (ground) values of `terms`."""

    def where_goal(state: State) -> Iterator[State]:
        if test(*(reify(term, state) for term in terms)):
            yield state

    return where_goal


def project(function: Callable[..., Any], out: Any, *terms: Any) -> Goal:
    """Unify `out` with `function` applied to the (ground) values of `terms` (arithmetic escape)."""

    def project_goal(state: State) -> Iterator[State]:
        result = unify(out, function(*(reify(term, state) for term in terms)), state)
        if result is not False:
            yield result

    return project_goal


def entered(trace: Trace | None, term: Any, describe: Callable[[Any], tuple[str, dict[str, Any]]],
            goal: Goal) -> Goal:
    """`goal`, recorded in `trace` as a node of a depth-first search (no trace: `goal` itself).

    When it runs, the node is entered below the node whose goal runs it,
    labelled by `describe` of the value `term` has then (a label and a move);
    it is a dead end when `goal` gives no answer and enters no node below it
    (`dead_ends`), and it is left (backtrack) once `goal` has given all its
    answers: the events Prolog's trace_enter/4 writes on backtracking. A
    search stopped after an answer leaves the nodes above it as they are.
    """
    if trace is None:
        return goal
    below = dead_ends(trace, goal)

    def entered_goal(state: State) -> Iterator[State]:
        label, move = describe(reify(term, state))
        trace.push(label, move)
        yield from below(state)
        trace.pop()

    return entered_goal


def dead_ends(trace: Trace | None, goal: Goal) -> Goal:
    """`goal`; when it gives no answer and enters no node, the node on top of `trace`'s stack is a dead end."""
    if trace is None:
        return goal

    def dead_ends_goal(state: State) -> Iterator[State]:
        nodes, answered = trace.nodes, False
        for answer in goal(state):
            answered = True
            yield answer
        if not answered and trace.nodes == nodes:
            trace.fail()

    return dead_ends_goal


def solved(trace: Trace | None) -> Goal:
    """Succeed once; the node on top of `trace`'s stack (when there is a trace) completes an answer."""

    def solved_goal(state: State) -> Iterator[State]:
        if trace is not None:
            trace.solution()
        yield state

    return solved_goal


def run(goal: Goal, query: Any, limit: int = 0) -> list[Any]:
    """The reified `query` for the first `limit` answers of `goal` (0: all), in search order."""
    answers: list[Any] = []
    _collect(goal, query, limit, answers)
    return answers


def run_bounded(goal: Goal, query: Any, limit: int = 0) -> tuple[list[Any], str]:
    """`run`, but a goal that spends its budget keeps the answers found so far: (answers, reason), the
    reason empty when the search ended by itself."""
    answers: list[Any] = []
    try:
        _collect(goal, query, limit, answers)
    except SearchLimitExceeded as error:
        return answers, str(error)
    return answers, ""


def _collect(goal: Goal, query: Any, limit: int, answers: list[Any]) -> None:
    """Append the reified `query` of `goal`'s answers to `answers` until `limit` (0: all)."""
    for state in goal({}):
        answers.append(reify(query, state))
        if limit and len(answers) >= limit:
            break
