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
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from pysolve.budget import Budget
from pysolve.errors import BackendUnavailable, SearchLimitExceeded
from pysolve.trace import Trace, failing_empty, pushed_each, recorder

__all__ = ["Budget", "Cons", "Struct", "collect", "conj", "dead_ends", "disj", "disj_over", "entered", "eq",
           "fail", "given", "holds", "iterate", "lazy", "project", "reify", "require", "run", "solved", "unify",
           "var", "where"]

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
    from unification import Var, isvar, reify, unify
else:  # pragma: no cover - exercised only on a broken install
    eq = var = isvar = reify = unify = fail = Var = None  # type: ignore[assignment]


class Cons:
    """A list cell `[head | tail]` (the empty list is `()`), for lists that searches extend at the front.

    Cells share their tails, as Prolog's lists do, and a cell knows whether it holds a variable, so
    reifying a long ground list (a frontier of paths) costs nothing: the reifier stops at ground cells.
    """

    __slots__ = ("ground", "head", "tail")

    def __init__(self, head: Any, tail: Any) -> None:
        self.head, self.tail = head, tail
        self.ground = _is_ground(head) and _is_ground(tail)

    def __iter__(self) -> Iterator[Any]:
        cell: Any = self
        while isinstance(cell, Cons):
            yield cell.head
            cell = cell.tail

    def __repr__(self) -> str:
        return f"Cons({self.head!r}, {self.tail!r})"


class Struct(tuple):
    """A compound term that knows whether it is ground, as Cons cells do.

    A tuple: Prolog's `node(K, V, L, R)` is `Struct(("node", k, v, l, r))`. Trees and heaps of such terms reify in
    the time of their newly built part, not of their whole size."""

    ground: bool

    def __new__(cls, items: Iterable[Any]) -> Struct:
        struct = super().__new__(cls, items)
        struct.ground = all(_is_ground(item) for item in struct)
        return struct


def _is_ground(term: Any) -> bool:
    """True when `term` holds no logic variable (a Cons or a Struct says so itself)."""
    if isinstance(term, (Cons, Struct)):
        return term.ground
    if isinstance(term, tuple):
        return all(_is_ground(item) for item in term)
    return not isvar(term)


if not PROBLEM:
    from unification.core import _reify, _reify_Iterable_ctor, _unify, construction_sentinel

    def _unify_cons(u: Cons, v: Cons, state: State) -> Iterator[Any]:
        """Cells unify head with head and tail with tail (through unification's own evaluation stack)."""
        state = yield _unify(u.head, v.head, state)
        if state is not False:
            state = yield _unify(u.tail, v.tail, state)
        yield state

    def _reify_cons(cell: Cons, state: State) -> Iterator[Any]:
        """A ground cell is its own value; otherwise the cell of its reified head and tail."""
        if cell.ground:
            yield cell
            return
        head = yield _reify(cell.head, state)
        tail = yield _reify(cell.tail, state)
        yield construction_sentinel
        yield Cons(head, tail)

    def _reify_struct(struct: Struct, state: State) -> Any:
        """A ground term is its own value; otherwise the term of its reified items."""
        return struct if struct.ground else _reify_Iterable_ctor(Struct, struct, state)

    _unify.add((Cons, Cons, Mapping), _unify_cons)
    _reify.add((Cons, Mapping), _reify_cons)
    _reify.add((Struct, Mapping), _reify_struct)


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


def collect(template: Any, goal: Goal, items: Any) -> Goal:
    """`items` is the list (Cons cells) of `template`'s values in every answer of `goal`, in order.

    Prolog's findall/3."""

    def collect_goal(state: State) -> Iterator[State]:
        found: Any = ()
        for value in reversed([reify(template, answer) for answer in goal(state)]):
            found = Cons(value, found)
        yield from eq(items, found)(state)

    return collect_goal


def iterate(step: Callable[[Any, Any], Goal], start: Any, end: Any) -> Goal:
    """`end` is where `step(term, next)` leads from `start`, taken step after step until no step applies.

    Each step commits to its first answer, as Prolog's if-then-else does; `start` must be ground when the
    goal runs. This is a tail-recursive relation run in constant stack (Prolog's last-call optimisation):
    written as recursion, a search of a million steps would nest a million Python generators.
    """

    def iterate_goal(state: State) -> Iterator[State]:
        term = reify(start, state)
        while True:
            following = var()
            answer = next(step(term, following)({}), None)
            if answer is None:
                break
            term = reify(following, answer)
        yield from eq(end, term)(state)

    return iterate_goal


def holds(goal: Goal) -> bool:
    """True when `goal` has an answer (a check: a ground question asked of a relation)."""
    return next(goal({}), None) is not None


def entered(trace: Trace | None, term: Any, describe: Callable[[Any], tuple[str, dict[str, Any]]],
            goal: Goal) -> Goal:
    """`goal`, recorded in `trace` as a node of a depth-first search (no trace: `goal` itself, which costs nothing).

    When it runs, the node is entered below the node whose goal runs it,
    labelled by `describe` of the value `term` has then (a label and a move);
    it is a dead end when `goal` gives no answer and enters no node below it
    (`dead_ends`), and it is left (backtrack) once `goal` has given all its
    answers: the events Prolog's trace_enter/4 writes on backtracking. A
    search stopped after an answer leaves the nodes above it as they are.
    """
    return recorder(trace).wrap(pushed_each, goal, lambda state: describe(reify(term, state)))


def dead_ends(trace: Trace | None, goal: Goal) -> Goal:
    """`goal`, recorded in `trace`: a dead end where it gives no answer.

    When it gives no answer and enters no node, the node on top of `trace`'s stack is a dead end; with no trace,
    `goal` itself."""
    return recorder(trace).wrap(failing_empty, goal)


def solved(trace: Trace | None) -> Goal:
    """Succeed once; the node on top of `trace`'s stack (when there is a trace) completes an answer."""
    recorded = recorder(trace)

    def solved_goal(state: State) -> Iterator[State]:
        recorded.solution()
        yield state

    return solved_goal


def run(goal: Goal, query: Any, limit: int = 0) -> list[Any]:
    """The reified `query` for the first `limit` answers of `goal` (0: all), in search order."""
    answers: list[Any] = []
    _collect(goal, query, limit, answers)
    return answers


def run_bounded(goal: Goal, query: Any, limit: int = 0) -> tuple[list[Any], str]:
    """`run`, but a goal that spends its budget keeps the answers found so far.

    Gives back (answers, reason), the reason empty when the search ended by itself."""
    answers: list[Any] = []
    try:
        _collect(goal, query, limit, answers)
    except SearchLimitExceeded as error:
        return answers, str(error)
    return answers, ""


def _collect(goal: Goal, query: Any, limit: int, answers: list[Any]) -> None:
    """Append the reified `query` of `goal`'s answers to `answers` until `limit` (0: all)."""
    for state in goal({}):
        answers.append(_answer(query, state))
        if limit and len(answers) >= limit:
            break


def _answer(query: Any, state: State) -> Any:
    """`reify(query, state)`; a list or tuple of terms whose values are plain (numbers, strings) read off the
    substitution directly, without the dispatch of the general reifier (a finite-domain search's answers)."""
    if type(query) in (list, tuple):
        substitution = state if isinstance(state, dict) else state.data  # a plain state, or a ConstrainedState's
        values = [walk(term, substitution) for term in query]
        if all(type(value) in SCALARS for value in values):
            return type(query)(values)
    return reify(query, state)


SCALARS = frozenset({int, str, bool, float, type(None)})  # values that hold no variable
PLAIN_TYPES = SCALARS | {tuple, list}  # what is not a variable, known by its type alone


def is_var(term: Any) -> bool:
    """True for a logic variable (the common cases tested by type first: isinstance on Var runs Python code)."""
    kind = type(term)
    return kind is Var or (kind not in PLAIN_TYPES and isinstance(term, Var))


def walk(term: Any, substitution: Mapping) -> Any:
    """Follow variable bindings until a value or an unbound variable."""
    while is_var(term):
        value = substitution.get(term, UNBOUND_TERM)  # one look-up: a variable's hash runs Python code
        if value is UNBOUND_TERM:
            return term
        term = value
    return term


UNBOUND_TERM = object()  # what `walk` finds for a variable the substitution does not bind
