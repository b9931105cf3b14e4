"""Hostile arguments for every entry point of pysolve's API, drawn by hypothesis (issue 41).

The entry points and their parameters are read from `pysolve.__all__` and `inspect.signature`, so a function
or an argument is drawn for as soon as it is exported: `test_every_public_parameter_is_drawn_for` fails until
the new entry point's tiny valid call is registered in CALLS. Each parameter in turn gets hostile values in
an otherwise valid call (None, huge and negative numbers, nan, text with NUL, bytes, lists, dicts, objects,
another puzzle's question, solvers of one's own that raise or answer nonsense); the call answers, or raises
a pysolve error whose message is one short line, never TypeError, AttributeError, OverflowError, ...
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pysolve
from pysolve.errors import PysolveError
from pysolve.files import PATH_CHARACTERS

MESSAGE_MOST = PATH_CHARACTERS + 200  # a pysolve error's message: a path quoted as files quotes one, and words
EXAMPLES = 20  # hostile draws per parameter
RULES = Path(__file__).resolve().parent.parent / "examples" / "class" / "fichas" / "ana.pl"  # a correct rule base


def fichas_path(rules: pysolve.RuleBase, question: Any) -> pysolve.Found:
    """A rule base's adapter (RuleBase): the path its fichas/3 finds."""
    rows = rules.query(f"fichas({question.m}, {question.n}, Path)", max_solutions=1).rows
    return pysolve.Found([row["Path"] for row in rows])


@dataclass(frozen=True)
class Call:
    """A tiny valid call of an entry point: its arguments by parameter name (`*args` a tuple, `**options` a
    dict), the option names a hostile `**options` draw sets, and whether it starts SWI-Prolog's children."""

    arguments: dict[str, Any]
    options: tuple[str, ...] = ()
    children: bool = False  # pysolve.sandbox's child processes: a subprocess test
    made: Callable[[], Any] | None = field(default=None, compare=False)  # the object a method is called on


CALLS: dict[str, Call] = {  # entry point -> its tiny valid call; a method as Class.method
    "solve": Call({"puzzle": "fichas", "options": {"m": 1, "n": 2}, "backend": "python"},
                  ("m", "n", "strategy", "flavour", "seconds", "no_such_option")),
    "count": Call({"puzzle": "hidato", "args": ("sample",), "options": {"count": 2}, "backend": "python"},
                  ("count", "strategy", "validate", "seconds", "nodes", "svg", "no_such_option")),
    "crosscheck": Call({"puzzle": "fichas", "options": {"m": 1, "n": 2}, "backends": ["python"]},
                       ("m", "n", "strategy", "seconds", "no_such_option")),
    "crosscheck_many": Call({"puzzle": "sudoku", "args": ("easy",), "backends": ["python"]},
                            ("strategy", "count", "index", "seconds", "no_such_option")),
    "question": Call({"puzzle": "fichas", "options": {"m": 1, "n": 2}}, ("m", "n", "strategy", "no_such_option")),
    "generate": Call({"puzzle": "sudoku", "options": {"size": 4, "seed": 1}}, ("size", "seed", "givens", "nope")),
    "shipped": Call({"puzzle": "tangram"}),
    "get_puzzle": Call({"puzzle": "fichas"}),
    "available_backends": Call({}),
    "puzzle_names": Call({}),
    "query": Call({"rule_base": "fichas", "goal": "true"}, children=True),
    "RuleBase": Call({"path": RULES, "adapter": fichas_path}, children=True),
    "RuleBase.query": Call({"goal": "true"}, children=True, made=lambda: pysolve.RuleBase(RULES, fichas_path)),
}

RECORDS = {  # exported classes that are no entry point, and why their arguments are not drawn for
    "Answer": "a back end's answer, which pysolve builds",
    "Found": "what a solver returns: a solver of one's own's is checked where it comes back (agreement.own_solver)",
    "CrossCheck": "a cross-check's report, which pysolve builds",
    "CrossChecks": "the cross-checks of many questions, which pysolve builds",
    "QueryResult": "a query's result, which pysolve builds",
    "Option": "a puzzle author's declaration of an option, checked when the puzzle class is defined",
    "Backend": "a puzzle author's declaration of a back end",
    "Puzzle": "the base class a puzzle author fills",
}


def entry_points() -> dict[str, Callable[..., Any]]:
    """Every callable pysolve exports that takes arguments from its user: functions, and the constructor and
    public methods of a class that is neither an error nor a record (RECORDS)."""
    found: dict[str, Callable[..., Any]] = {}
    for name in pysolve.__all__:
        value = getattr(pysolve, name)
        if inspect.isfunction(value):
            found[name] = value
        elif inspect.isclass(value) and not issubclass(value, BaseException) and name not in RECORDS:
            found[name] = value
            for method, function in vars(value).items():
                if inspect.isfunction(function) and not method.startswith("_"):
                    found[f"{name}.{method}"] = function
    return found


def parameters(function: Callable[..., Any]) -> list[inspect.Parameter]:
    """The parameters a caller gives (not `self`)."""
    return [parameter for parameter in inspect.signature(function).parameters.values() if parameter.name != "self"]


ENTRIES = entry_points()
DRAWN = [(entry, parameter.name) for entry, function in ENTRIES.items() for parameter in parameters(function)]


def raises(*_: Any) -> Any:
    """A solver (or adapter) of one's own that raises."""
    raise RuntimeError("a solver of one's own gave up\nin two lines")


def nonsense(*_: Any) -> Any:
    """A solver of one's own that answers something that is no Found."""
    return {"solutions": [1]}


@functools.cache
def other_questions() -> list[Any]:
    """A question of each of several puzzles (each is another puzzle's question for the rest)."""
    return [pysolve.question("hidato", "sample"), pysolve.question("tangram"), pysolve.question("fichas", m=1, n=1),
            pysolve.question("sudoku", "small", index=1)]


TEXT = st.text(st.characters(blacklist_characters="/", blacklist_categories=("Cs",)), max_size=40)  # no path
# out of the test's folder: a text may be a file written (trace=, out=)
SCALARS = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 2**31, 2**63, 10**18, 10**400, -10**400, 0.0, -0.0, 1e-300, 1e308,
                     float("nan"), float("inf"), float("-inf"), "", "\0", "x\0y", "x" * 10_000, "\n", ".", "..",
                     "no_such.pl", b"", b"fichas", object(), raises, nonsense, int, print]),
    st.integers(max_value=-1), st.floats(), TEXT, st.binary(max_size=10),
    st.deferred(lambda: st.sampled_from(other_questions())))
HOSTILE = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.tuples(SCALARS),
                    st.dictionaries(TEXT, SCALARS, max_size=2))


def invoke(function: Callable[..., Any], arguments: dict[str, Any], bound: Any = None) -> Any:
    """`function` called with `arguments` by parameter name: positional ones in order (by keyword after one
    left out), `*args` spread, `**options` merged into the keywords."""
    positional: list[Any] = [] if bound is None else [bound]
    keywords: dict[str, Any] = {}
    by_keyword = False
    for parameter in parameters(function):
        if parameter.name not in arguments:
            by_keyword = by_keyword or parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
            continue
        value = arguments[parameter.name]
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            positional.extend(value)
        elif parameter.kind is inspect.Parameter.VAR_KEYWORD:
            keywords.update(value)
        elif parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and not by_keyword:
            positional.append(value)
        else:
            keywords[parameter.name] = value
    return function(*positional, **keywords)


def with_hostile(entry: str, name: str, data: st.DataObject) -> dict[str, Any]:
    """The entry point's valid arguments with one hostile draw for parameter `name`."""
    call, arguments = CALLS[entry], dict(CALLS[entry].arguments)
    kind = next(parameter.kind for parameter in parameters(ENTRIES[entry]) if parameter.name == name)
    if kind is inspect.Parameter.VAR_POSITIONAL:
        arguments[name] = tuple(data.draw(st.lists(HOSTILE, min_size=1, max_size=3), label=name))
    elif kind is inspect.Parameter.VAR_KEYWORD:
        option = data.draw(st.sampled_from(call.options), label="option")
        arguments[name] = {**arguments.get(name, {}), option: data.draw(HOSTILE, label=option)}
    else:
        arguments[name] = data.draw(HOSTILE, label=name)
    return arguments


def answers_or_refuses(call: Callable[[], Any]) -> None:
    """Run `call`: it answers, or raises a pysolve error in one short line; any other error fails the test."""
    try:
        call()
    except PysolveError as error:
        message = str(error)
        assert message.isprintable() and len(message) <= MESSAGE_MOST, \
            f"{type(error).__name__}: {message[:MESSAGE_MOST]!r}... ({len(message)} characters)"


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of its own for the files a drawn call writes (trace=, out=, svg=)."""
    return tmp_path_factory.mktemp("hostile")


def test_every_public_parameter_is_drawn_for() -> None:
    """A new entry point, or a `**options` without option names to draw, fails here until CALLS has it."""
    assert set(ENTRIES) == set(CALLS), "register a tiny valid call in CALLS for each public entry point"
    for entry, function in ENTRIES.items():
        for parameter in parameters(function):
            if parameter.kind is inspect.Parameter.VAR_KEYWORD:
                assert CALLS[entry].options, f"{entry}: name the options a hostile **{parameter.name} sets"
            elif parameter.default is inspect.Parameter.empty and parameter.kind is not parameter.VAR_POSITIONAL:
                assert parameter.name in CALLS[entry].arguments, f"{entry}: {parameter.name} has no valid value"
    assert ("solve", "backend") in DRAWN and ("query", "seconds") in DRAWN and ("RuleBase.query", "goal") in DRAWN


@pytest.mark.parametrize("entry", [entry for entry, call in CALLS.items() if not call.children])
def test_the_valid_calls_answer(entry: str, elsewhere: Path) -> None:
    """Each registered call is valid: the hostile draws change one argument of a call that answers."""
    with contextlib.chdir(elsewhere):
        assert invoke(ENTRIES[entry], CALLS[entry].arguments) is not None


def drawn_cases(children: bool) -> list[Any]:
    return [pytest.param(entry, name, id=f"{entry}-{name}") for entry, name in DRAWN
            if CALLS[entry].children == children]


def hostile_call(entry: str, name: str, data: st.DataObject, elsewhere: Path) -> None:
    made = CALLS[entry].made
    arguments = with_hostile(entry, name, data)
    with contextlib.chdir(elsewhere):
        answers_or_refuses(lambda: invoke(ENTRIES[entry], arguments, made() if made else None))


@pytest.mark.parametrize("entry, name", drawn_cases(children=False))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_hostile_argument_is_answered_or_refused_in_one_line(entry: str, name: str, data: st.DataObject,
                                                               elsewhere: Path) -> None:
    hostile_call(entry, name, data, elsewhere)


@pytest.mark.subprocess
@pytest.mark.parametrize("entry, name", drawn_cases(children=True))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_hostile_argument_to_rules_of_ones_own_is_refused_in_one_line(entry: str, name: str,
                                                                         data: st.DataObject,
                                                                         elsewhere: Path) -> None:
    """The entry points that run rules in SWI-Prolog's child processes (pysolve.sandbox)."""
    hostile_call(entry, name, data, elsewhere)


@pytest.mark.subprocess
def test_the_valid_calls_of_rules_of_ones_own_answer() -> None:
    for entry, call in CALLS.items():
        if call.children:
            made = call.made() if call.made else None
            assert invoke(ENTRIES[entry], call.arguments, made) is not None


# --- the cases of issue 41, each by name --------------------------------------------------------------------

def other_puzzles_question() -> Any:
    return pysolve.question("hidato", "sample")


@pytest.mark.parametrize("call, error, message", [
    (lambda: pysolve.solve("fichas", m=1, n=2, backend=123), pysolve.InputError,
     "backend=: expected a back end's name (prolog, kanren, python) or a function question -> pysolve.Found, "
     "not int 123"),
    (lambda: pysolve.solve("fichas", m=1, n=2, backend=object()), pysolve.InputError,
     "backend=: expected a back end's name"),
    (lambda: pysolve.crosscheck("fichas", m=1, n=2, also=[1]), pysolve.InputError,
     "also=: expected back ends of one's own: functions question -> pysolve.Found, each named by a text, not int 1"),
    (lambda: pysolve.crosscheck("fichas", m=1, n=2, also="x"), pysolve.InputError,
     "also=: expected a list of functions question -> pysolve.Found, or a dict of them by name, not str 'x'"),
    (lambda: pysolve.solve("fichas", m=1, n=2, seconds=10**400), pysolve.InputError,
     "--seconds: 100000000000000000...0000000000000000000 is too large for a number"),
    (lambda: pysolve.solve("fichas", m=1, n=2, seconds="x"), pysolve.InputError, "--seconds: 'x' is not a number"),
    (lambda: pysolve.solve("fichas", m=1, n=2, seconds=8 * 24 * 3600), pysolve.InputError,
     "--seconds: 691200.0 is more than 604800"),
    (lambda: pysolve.solve("fichas", m=1, n=2, trace=123), pysolve.InputError,
     "trace=: expected a file's path or None, not int 123"),
    (lambda: pysolve.solve("fichas", question=object()), pysolve.InputError,
     "question=: expected a fichas question (pysolve.question('fichas', ...)), not object <object object at"),
    (lambda: pysolve.solve("fichas", question="m=1 n=2"), pysolve.InputError,
     "question=: expected a fichas question (pysolve.question('fichas', ...)), not str 'm=1 n=2'"),
    (lambda: pysolve.solve("sudoku", question=other_puzzles_question()), pysolve.InputError,
     "question=: expected a sudoku question (pysolve.question('sudoku', ...)), not BoardQuestion"),
    (lambda: pysolve.query("fichas", None), pysolve.InputError, "goal=: expected a Prolog goal as text, not NoneType"),
    (lambda: pysolve.query(123, "true"), pysolve.InputError,
     "rule_base=: expected a shipped rule base's name or a .pl file's path, not int 123"),
    (lambda: pysolve.query("fichas", "true", seconds=10**400), pysolve.InputError,
     "--seconds: 100000000000000000...0000000000000000000 is too large for a number"),
    (lambda: pysolve.get_puzzle(["fichas"]), pysolve.InputError, "puzzle=: expected a puzzle's name (azul, fichas,"),
    (lambda: pysolve.solve("fichas", m=1, n=2, backend=lambda question: 1 / 0), pysolve.PysolveError,
     "<lambda> raised ZeroDivisionError: division by zero"),
])
def test_the_cases_of_the_issue_raise_pysolves_typed_error(call: Callable[[], Any], error: type[Exception],
                                                           message: str) -> None:
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value).startswith(message)


def test_a_back_end_of_ones_own_that_raises_is_reported_failed_and_the_others_compared() -> None:
    report = pysolve.crosscheck("fichas", m=2, n=2, strategy="bfs", backends=["kanren", "python"],
                                also=[lambda question: 1 / 0])
    assert sorted(report.results) == ["kanren", "python"] and report.difference is None
    assert str(report.skipped["<lambda>"]) == \
        "failed: RulesError: <lambda> raised ZeroDivisionError: division by zero"
    assert report.summary() == ("the answers of kanren, python agree; not compared (<lambda>: failed: RulesError: "
                                "<lambda> raised ZeroDivisionError: division by zero)")


def test_a_failed_back_end_of_ones_own_beside_one_answer_compares_nothing() -> None:
    report = pysolve.crosscheck("fichas", m=2, n=2, strategy="bfs", backends=["python"], also={"mine": nonsense})
    assert not report.compared and not report.agree and list(report.results) == ["python"]
    assert report.summary() == ("NOT COMPARED: only python answered (mine: failed: RulesError: mine returned dict "
                                "{'solutions': [1]}, not a pysolve.Found)")
