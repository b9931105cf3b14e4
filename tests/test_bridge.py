"""The Prolog bridge: loading, bounded queries, errors, and the rule bases shipped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pysolve import bridge
from pysolve.budget import Budget
from pysolve.errors import PrologError, SearchLimitExceeded, UnknownName
from pysolve.paths import rule_base_dir
from pysolve.pytest_plugin import needs_prolog

FACTS = "p(1).\np(2).\np(3).\nloop(X) :- loop(X).\nq(f(a), \"text\", [1, [b]]).\n"


@pytest.fixture()
def facts_file(tmp_path: Path) -> Path:
    path = tmp_path / "facts.pl"
    path.write_text(FACTS)
    return path


@pytest.mark.parametrize("rule_base", bridge.rule_bases())
def test_every_shipped_rule_base_loads_without_errors_or_warnings(rule_base: str) -> None:
    module = bridge.load(rule_base)
    assert module == rule_base  # each is a module file named after its file


def test_all_solutions_in_order_and_limited(facts_file: Path) -> None:
    assert [row["X"] for row in bridge.solutions(facts_file, "p(X)").rows] == [1, 2, 3]
    limited = bridge.solutions(facts_file, "p(X)", max_solutions=2)
    assert [row["X"] for row in limited.rows] == [1, 2]
    assert limited.status == "max_solutions"


def test_values_come_back_as_plain_data(facts_file: Path) -> None:
    (row,) = bridge.solutions(facts_file, "q(A, B, C), D = _").rows
    assert row == {"A": "f(a)", "B": "text", "C": [1, ["b"]], "D": "_G1"}  # unbound: a fresh name


@pytest.mark.slow
def test_time_and_inference_limits_stop_inside_prolog(facts_file: Path) -> None:
    assert bridge.solutions(facts_file, "loop(X)", seconds=0.2).status == "time_limit"
    assert bridge.solutions(facts_file, "loop(X)", inferences=10_000).status == "inference_limit"
    with pytest.raises(SearchLimitExceeded, match="limit"):
        bridge.first(facts_file, "loop(X)", seconds=0.2)
    assert bridge.first(facts_file, "p(X)") == {"X": 1}  # the engine is still usable


@pytest.mark.slow
def test_answers_too_many_to_hand_over_are_a_memory_limit_not_an_error(facts_file: Path) -> None:
    many = bridge.solutions(facts_file, "between(1, 3000000, X), L = [X, X, X, X, X, X, X, X, X, X]", seconds=60)
    assert many.status == "resource_limit" and many.rows == []
    assert many.reason("the query").startswith("the query passed its memory limit (the Prolog stack limit of")
    assert bridge.first(facts_file, "p(X)") == {"X": 1}  # the engine is still usable


def test_a_stopped_query_is_one_property_and_one_answer(facts_file: Path) -> None:
    stopped = bridge.solutions(facts_file, "loop(X)", budget=Budget(seconds=0.2, label="loop"))
    assert stopped.stopped and not stopped.complete
    found = bridge.unknown(stopped, "Prolog loop")
    assert found.status == "unknown" and found.stats == {"reason": "Prolog loop passed its time limit of 0.2 s"}
    with pytest.raises(SearchLimitExceeded, match="^Prolog loop passed its inference limit of 500 inferences$"):
        bridge.solutions(facts_file, "loop(X)", inferences=500).require_complete("Prolog loop")
    wanted = bridge.solutions(facts_file, "p(X)", max_solutions=1)
    assert not wanted.stopped and wanted.require_complete("p") is wanted  # a wanted cut is no stop


def test_one_term_writer_for_every_goal(facts_file: Path) -> None:
    text = bridge.goal("q", 1, -2.5, "it's", bridge.String('say "hi"'), [1, ["b", []]], (3,), bridge.Var("Out"))
    assert text == """'q'(1, -2.5, 'it\\'s', "say \\"hi\\"", [1, ['b', []]], [3], Out)"""
    (row,) = bridge.solutions(facts_file, bridge.goal("q", bridge.Var("A"), bridge.String("text"), [1, ["b"]])).rows
    assert row == {"A": "f(a)"}
    (row,) = bridge.solutions(facts_file, bridge.goal("atom_length", "it's", bridge.Var("N"))).rows
    assert row == {"N": 4}
    for bad in (object(), {"a": 1}, None):
        with pytest.raises(TypeError, match="cannot pass"):
            bridge.term(bad)
    with pytest.raises(ValueError, match="not a Prolog variable"):
        bridge.term(bridge.Var("lower"))


@pytest.mark.parametrize("goal, message", [
    ("nope(X)", "Unknown procedure"),
    ("p(X", "Syntax error"),
    ("X is foo + 1", "Arithmetic"),
    ("throw(my_error(42))", "my_error"),
])
def test_errors_become_prolog_error_with_prologs_message(facts_file: Path, goal: str, message: str) -> None:
    with pytest.raises(PrologError, match=message):
        bridge.solutions(facts_file, goal)
    assert bridge.first(facts_file, "p(X)") == {"X": 1}


def test_syntax_errors_and_warnings_in_a_rule_file_raise(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pl"
    bad.write_text("ok(1).\nbroken(X) :- foo(.\nsingleton(X, Y) :- true.\n")
    with pytest.raises(PrologError) as caught:
        bridge.load(bad)
    text = str(caught.value)
    assert "bad.pl:2" in text and "Syntax error" in text
    assert "Singleton variables" in text


def test_unknown_rule_base_names_the_known_ones() -> None:
    with pytest.raises(UnknownName, match="fichas"):
        bridge.load("no_such_rules")
    with pytest.raises(UnknownName, match="does not exist"):
        bridge.load("/nowhere/rules.pl")


def test_atoms_with_quotes_are_passed_safely(facts_file: Path) -> None:
    goal = f"X = {bridge.quote_atom(chr(39) + 'it' + chr(39) + 's' + chr(92))}"
    assert bridge.first(facts_file, goal) == {"X": "'it's\\"}


@pytest.mark.subprocess
@needs_prolog
def test_no_debugger_and_no_stdin_even_on_uncaught_errors(tmp_path: Path) -> None:
    """An error in a goal must never reach the tracer (which reads stdin and can kill the process)."""
    script = ("from pysolve import bridge\n"
              "import sys\n"
              "try:\n    bridge.solutions('fichas', 'atom_length(X, Y)')\n"
              "except Exception as e:\n    print(type(e).__name__)\n"
              "print(bridge.first('fichas', 'X = 1'))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["PrologError", "{'X':", "1}"]


def test_rule_bases_are_found_in_the_checkout() -> None:
    assert (rule_base_dir() / "fichas.pl").is_file()
