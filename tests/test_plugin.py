"""The pysolve pytest plugin, run on small user test files through pytest's own `pytester`."""

from __future__ import annotations

import pytest

from pysolve import backends
from pysolve.pytest_plugin import session_backends

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True, scope="module")
def engines_started_outside() -> None:
    """Start the engines in this process first: pytester's in-process runs drop the modules they import
    (pyswip among them) when they end, and a pyswip imported anew mistranslates the live engine's results."""
    backends.all_info()

EACH_BACKEND = """
def test_each(pysolve_backend):
    assert pysolve_backend in ("prolog", "kanren", "python")
"""

MARKED = """
import pytest

@pytest.mark.pysolve_backends("prolog", "python")
def test_marked(pysolve_backend):
    assert pysolve_backend != "kanren"
"""

AGREEMENT = """
import pysolve
from pysolve.pytest_plugin import assert_backends_agree

def my_count(question):
    return pysolve.Found([], count=36)

def wrong_count(question):
    return pysolve.Found([], count=35)

def test_agree():
    report = assert_backends_agree("tangram", count=True, strategy="cell", reference=my_count)
    assert list(report.results)[0] == "my_count"

def test_disagree():
    assert_backends_agree("tangram", count=True, strategy="cell", reference=wrong_count, backends=["python"])
"""


def test_the_plugin_is_registered_through_its_entry_point(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(["*--pysolve-backends=NAMES*"])
    header = pytester.runpytest("--co")
    prolog = "chosen; available, SWI-Prolog 9.*" if "prolog" in session_backends() else "not chosen; *"
    header.stdout.fnmatch_lines([f"pysolve back end prolog: {prolog}",
                                 "pysolve back end kanren: chosen; available, miniKanren *"])


def test_pysolve_backend_runs_a_test_once_per_chosen_backend(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(EACH_BACKEND)
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=len(session_backends()))
    result.stdout.fnmatch_lines([f"*test_each?{name}? PASSED*" for name in session_backends()])
    chosen = pytester.runpytest("-v", "--pysolve-backends=kanren, python")
    chosen.assert_outcomes(passed=2)
    assert "test_each[prolog]" not in chosen.stdout.str()


def test_the_marker_narrows_one_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(MARKED)
    result = pytester.runpytest("-v")
    narrowed = [name for name in session_backends() if name in ("prolog", "python")]
    result.assert_outcomes(passed=len(narrowed))
    result.stdout.fnmatch_lines([f"*test_marked?{name}? PASSED*" for name in narrowed])


def test_an_unknown_backend_name_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(EACH_BACKEND)
    result = pytester.runpytest("--pysolve-backends=prolog,java")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pysolve-backends=prolog,java: use back ends among prolog, kanren, python*"])


def test_agreement_passes_and_disagreement_fails_with_a_readable_diff(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(AGREEMENT)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*AssertionError: pysolve back ends do not agree*",
        "*DISAGREEMENT: wrong_count and python differ at answer?'count'?: 35 against 36*",
        "*wrong_count  solved * 35 tilings*",
        "*python       solved * 36 tilings*",
        "*--- wrong_count*",
        "*+++ python*",
        "*-{'count': 35}*",
        "*+{'count': 36}*",
    ])


def failure_of(pytester: pytest.Pytester, test: str, fresh: bool = False) -> str:
    """What pytest prints for a user's test file that fails once (in a fresh process when `fresh`)."""
    pytester.makepyfile("from pysolve.pytest_plugin import assert_backends_agree\n\n" + test)
    result = pytester.runpytest_subprocess() if fresh else pytester.runpytest()
    result.assert_outcomes(failed=1)
    return result.stdout.str()


def test_a_missing_answer_fails_instead_of_passing_quietly(pytester: pytest.Pytester) -> None:
    printed = failure_of(pytester, """def test_one_answer_only():
    assert_backends_agree("fichas", m=1, n=2, strategy="astar", backends=["prolog", "python"])
""")
    assert ("AssertionError: pysolve back ends were not compared\nE       NOT COMPARED: only python answered "
            "(prolog: declined: prolog does not answer this fichas question)") in printed
    assert "agree" not in printed.replace("assert_backends_agree", "")


@pytest.mark.subprocess
def test_hidden_prolog_is_one_verdict_not_compared(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Prolog asked but hidden (in a fresh process): one verdict, in the CLI's words, and nothing else."""
    monkeypatch.setenv("PYSOLVE_NO_PROLOG", "1")
    printed = failure_of(pytester, """def test_prolog_and_python():
    assert_backends_agree("fichas", m=2, n=2, strategy="bfs", backends=["prolog", "python"])
""", fresh=True)
    assert ("AssertionError: pysolve back ends were not compared\nE       NOT COMPARED: only python answered "
            "(prolog: unavailable: SWI-Prolog is hidden by PYSOLVE_NO_PROLOG=1)") in printed
    text = printed.replace("assert_backends_agree", "")
    assert "agree" not in text and "did not answer" not in text


def test_an_answer_missing_beside_two_that_agree_fails_naming_it(pytester: pytest.Pytester) -> None:
    printed = failure_of(pytester, """import pysolve

def out_of_time(question):
    raise pysolve.SearchLimitExceeded("my search passed its time limit of 1 s")

def test_three():
    assert_backends_agree("tangram", count=True, strategy="cell", backends=["python"],
                          reference=[lambda q: pysolve.Found([], count=36), out_of_time])
""")
    assert ("AssertionError: pysolve back ends did not all answer (out_of_time gave no answer)\nE       the answers "
            "of <lambda>, python agree; not compared (out_of_time: unknown: my search passed its time limit of 1 s)"
            ) in printed


@pytest.mark.slow
def test_a_reference_solver_owes_only_its_answer(pytester: pytest.Pytester) -> None:
    """A solver of one's own whose Found has no statistics (fichas' states) is compared on what it gave."""
    pytester.makepyfile("""
        import pysolve
        from pysolve.pytest_plugin import assert_backends_agree

        BFS = ["BBHVV", "BBVVH", "BHVVB", "BVVHB", "HVVBB", "VVHBB"]

        def mine(question):
            return pysolve.Found([BFS])

        def wrong(question):
            return pysolve.Found([BFS[:1] + BFS[2:]])

        def test_path_only():
            report = assert_backends_agree("fichas", m=2, n=2, strategy="bfs", reference=mine)
            assert "states" not in report.results["mine"].stats and report.results["python"].stats["states"] == 93

        def test_wrong_path():
            assert_backends_agree("fichas", m=2, n=2, strategy="bfs", reference=wrong)
    """)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*DISAGREEMENT: wrong and * differ at answer?'path'?*"])
    assert "KeyError" not in result.stdout.str()


@pytest.mark.subprocess
def test_hidden_prolog_leaves_the_default_set_and_fails_when_chosen(pytester: pytest.Pytester,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """In a fresh process (the engine of this one is already started): hidden Prolog is a failure, not a skip."""
    monkeypatch.setenv("PYSOLVE_NO_PROLOG", "1")
    pytester.makepyfile(EACH_BACKEND)
    default = pytester.runpytest_subprocess("-v")
    default.assert_outcomes(passed=2)
    forced = pytester.runpytest_subprocess("--pysolve-backends=prolog")
    forced.assert_outcomes(errors=1)
    lines = forced.stdout.lines
    error = next(number for number, line in enumerate(lines) if "ERROR at setup of test_each[prolog]" in line)
    assert lines[error + 1] == "pysolve: error: back end 'prolog' is unavailable: SWI-Prolog is hidden by " \
                               "PYSOLVE_NO_PROLOG=1" and "short test summary" in lines[error + 2]  # that one line


def test_pysolves_own_suite_runs_on_the_plugins_choice(pysolve_backends: list[str]) -> None:
    assert set(pysolve_backends) <= set(backends.NAMES) and {"kanren", "python"} <= set(pysolve_backends)


MALFORMED = """
import pysolve
from pysolve.pytest_plugin import assert_backends_agree, assert_solver_agrees

def no_found(question):
    return {"solutions": []}

def counted_in_words(question):
    return pysolve.Found([], count="36")

def not_a_path(question):
    return pysolve.Found([1])

def gives_up(question):
    raise RuntimeError("my search gave up")

def test_no_found():
    assert_backends_agree("fichas", m=1, n=2, strategy="bfs", backends=["python"], reference=no_found)

def test_count_in_words():
    assert_backends_agree("tangram", count=True, strategy="cell", backends=["python"], reference=counted_in_words)

def test_not_a_path():
    assert_backends_agree("fichas", m=1, n=2, strategy="shortest", backends=["python"], reference=not_a_path)

def test_gives_up():
    assert_backends_agree("fichas", m=1, n=2, strategy="bfs", backends=["python"], reference=gives_up)

def test_examples_not_a_path():
    assert_solver_agrees("fichas", not_a_path, examples=2)

def test_no_solver():
    assert_solver_agrees("fichas", 5)

def test_no_list_of_solvers():
    assert_backends_agree("fichas", m=1, n=2, reference=5)
"""


def test_a_malformed_answer_of_ones_own_fails_in_one_line_naming_the_solver(pytester: pytest.Pytester) -> None:
    """A solver of one's own that gives back no Found, a Found of the wrong shape, or raises: its test fails with
    the solver named and what was wrong, never an internal KeyError or TypeError out of pysolve (issue 41)."""
    pytester.makepyfile(MALFORMED)
    result = pytester.runpytest()
    result.assert_outcomes(failed=7)
    result.stdout.fnmatch_lines_random([
        "*NOT COMPARED: only python answered (no_found: failed: RulesError: no_found returned dict "
        "{'solutions': []}, not a pysolve.Found)",
        "*counted_in_words: failed: RulesError: counted_in_words returned a Found with count=str '36', not None or "
        "a whole number)",
        "*not_a_path: failed: RulesError: not_a_path returned a Found whose solutions are not a fichas answer "
        "(TypeError: *",
        "*gives_up: failed: RulesError: gives_up raised RuntimeError: my search gave up)",
        "*ERRORS: not_a_path on fichas questions: *",
        "*error: not_a_path returned a Found whose solutions are not a fichas answer*",
        "*pysolve: error: assert_solver_agrees checks one solver of one's own: give a function question -> "
        "pysolve.Found, not int",
        "*pysolve: error: reference=: expected a solver of one's own (a function question -> pysolve.Found), a "
        "list of them, or None, not int 5",
    ])
    printed = result.stdout.str()
    assert "KeyError" not in printed and "pysolve/puzzle.py" not in printed and "pysolve/api.py" not in printed
