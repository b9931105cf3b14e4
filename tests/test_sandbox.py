"""Rules of one's own run in a child process (pysolve.sandbox): whatever they do, pysolve answers, on real engines.

Each case is a small rule base written into tmp_path, asked through
`pysolve check hidato RULES.pl` and `pysolve query RULES.pl GOAL` in this
process: one that halts (in its predicate, in a fallback clause, in a
directive, from initialization/1), aborts, overflows its stacks, loops (in
Prolog and in C), sleeps, stops itself, prints, or starts a process. Each
ends with its one-line verdict and exit code, and the next question is
answered (by a fresh child when the last one died). Nothing is mocked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import pysolve
from pysolve import cli, sandbox
from pysolve.errors import PrologError, RulesCrashed, RulesRefused
from pysolve.pytest_plugin import needs_prolog

pytestmark = [needs_prolog, pytest.mark.subprocess]  # rules of one's own run in a swipl child

WALK = (Path(__file__).resolve().parent.parent / "examples" / "class" / "hidato" / "ana.pl").read_text(encoding="utf-8")
GOAL = "hidato([[1, 0], [0, 4]], S)"  # a board with two solutions
FAST = ["--examples", "3", "--seconds", "1", "--seed", "1"]  # a check of a few seconds
HALT_VERDICT = "the rules called halt/0, which ends the Prolog engine running them"
REFUSED = "pysolve refuses to start processes from rules it checks"

RULES = {
    "halts": "hidato(_, _) :- halt.\n",
    "halts_3": "hidato(_, _) :- halt(3).\n",
    "ends_with_halt": WALK + "\n:- halt.\n",
    "halts_in_initialization": WALK + "\n:- initialization(main).\nmain :- halt.\n",
    "halts_in_fallback": WALK.replace("    numbered(Board, InOrder, Solution).\n",
                                      "    numbered(Board, InOrder, Solution).\nhidato(_, _) :- halt.\n", 1),
    "aborts": "hidato(_, _) :- abort.\n",
    "overflows": "hidato(B, B) :- deep(0).\ndeep(N) :- N1 is N + 1, deep(N1), N1 > 0.\n",
    "loops": "hidato(B, B) :- loop.\nloop :- loop.\n",
    "loops_in_c": "hidato(B, B) :- X is 7^(10^9), X > 0.\n",  # GMP: no look at Prolog's alarms for seconds
    "sleeps": "hidato(B, B) :- sleep(100).\n",
    "stops_itself": ":- use_module(library(unix)).\nhidato(B, B) :- current_prolog_flag(pid, P), kill(P, stop).\n",
    "dies": ":- use_module(library(unix)).\nhidato(B, B) :- current_prolog_flag(pid, P), kill(P, kill).\n",
    "crashes": ":- use_module(library(unix)).\nhidato(B, B) :- current_prolog_flag(pid, P), kill(P, segv).\n",
    "floods": "hidato(B, B) :- length(Cs, 100000), maplist(=(0'x), Cs), atom_codes(A, Cs),\n"
              "    forall(between(1, inf, _), write(user_output, A)).\n",  # 100 KB a write, until the bound
    "prints": WALK.replace("hidato(Board, Solution) :-\n",
                           "hidato(Board, Solution) :-\n    format(\"thinking about ~w~n\", [Board]),\n", 1),
    "shells": "hidato(B, B) :- shell('touch SHELL_RAN').\n",
    "forks": ":- use_module(library(unix)).\nhidato(B, B) :- fork(_).\n",
    "catches_its_refusal": "hidato(B, B) :- catch(shell('touch SHELL_RAN'), _, true).\n",
}


def rules(tmp_path: Path, name: str) -> str:
    """The case's rule base, written as tmp_path/NAME.pl; its path."""
    path = tmp_path / f"{name}.pl"
    path.write_text(RULES[name], encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one `pysolve` command run in this process."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def check_json(capsys: pytest.CaptureFixture[str], path: str, *extra: str) -> tuple[int, dict]:
    """`pysolve check hidato PATH --json` with `extra` options: the exit code and the report."""
    code, out, _ = run(capsys, "check", "hidato", path, *extra, "--json")
    return code, json.loads(out)  # one JSON document, whatever the rules printed


def still_answers(capsys: pytest.CaptureFixture[str]) -> None:
    """The next question is answered: pysolve's child (a fresh one, when the last died) runs on."""
    code, out, _ = run(capsys, "query", "fichas", "move('BHV', Next)")
    assert (code, out) == (0, "Next = 'HBV' ;\nNext = 'BVH' ;\nfalse.\n")


@pytest.mark.parametrize("name, words", [("halts", HALT_VERDICT),
                                         ("halts_3", HALT_VERDICT.replace("halt/0", "halt(3)")),
                                         ("aborts", HALT_VERDICT.replace("halt/0", "abort/0")),
                                         ("dies", "the Prolog engine running the rules died (signal SIGKILL)"),
                                         ("crashes", "the Prolog engine running the rules died (signal SIGSEGV)"),
                                         ("floods", "the rules printed 64 MB or more, pysolve's bound on what rules")])
def test_rules_that_end_the_engine_are_errors_of_each_question(name, words, tmp_path, capsys):
    path = rules(tmp_path, name)
    # 64 MB written a question (the shrink asks dozens): past the kernel's share of unwritten pages the writer
    # sleeps while the disk catches up, time the wall-clock guard counts, so the flood gets a guard of 26 s
    code, report = check_json(capsys, path, *FAST, *(["--seconds", "5"] if name == "floods" else []))
    assert code == 1 and report["verdict"] == "errors" and len(report["errors"]) == report["tried"] == 3
    assert all(words in error["message"] for error in report["errors"]), report["errors"]
    code, out, err = run(capsys, "query", path, GOAL)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err
    still_answers(capsys)


def test_a_halt_in_a_fallback_clause_is_an_error_not_a_hang(tmp_path, capsys):
    path = rules(tmp_path, "halts_in_fallback")
    code, report = check_json(capsys, path, *FAST)
    assert code == 1 and report["verdict"] == "errors" and report["errors"]
    assert all(error["message"].endswith(HALT_VERDICT) for error in report["errors"])
    code, out, err = run(capsys, "query", path, GOAL)  # the two solutions, then the fallback clause's halt
    assert code == 2 and out == "" and HALT_VERDICT in err
    code, out, _ = run(capsys, "query", path, GOAL, "--limit", "2")
    assert code == 0 and out.count("S = ") == 2
    still_answers(capsys)


@pytest.mark.parametrize("name, where", [("ends_with_halt", f" (line {WALK.count(chr(10)) + 2})"),
                                         ("halts_in_initialization", "")])
def test_a_rule_base_that_halts_while_loading_is_one_line_and_exit_2(name, where, tmp_path, capsys):
    path = rules(tmp_path, name)
    expected = (f"pysolve: error: {name}.pl called halt/0 while loading{where}; a rule base defines predicates, "
                "pysolve asks its own questions: remove the directive\n")
    code, out, err = run(capsys, "check", "hidato", path, *FAST)
    assert (code, out, err) == (2, "", expected)
    code, out, err = run(capsys, "query", path, "true")
    assert (code, out, err) == (2, "", expected)
    still_answers(capsys)


def test_a_stack_overflow_is_a_memory_limit_not_a_time_out(tmp_path, capsys):
    path = rules(tmp_path, "overflows")
    code, report = check_json(capsys, path, "--examples", "1", "--seconds", "20", "--seed", "1")
    assert code == 3 and report["verdict"] == "unknown" and report["time_outs"] == []
    (finding,) = report["memory_limits"]
    assert "passed its memory limit (the Prolog stack limit of" in finding["message"]
    assert report["summary"].endswith("0 time-outs, 1 memory limit")
    code, out, _ = run(capsys, "query", path, GOAL, "--seconds", "20")
    assert code == 3 and out.startswith("unknown.  % stopped: the goal passed its memory limit (the Prolog stack")
    still_answers(capsys)


@pytest.mark.parametrize("name, seconds, words", [
    ("loops", "0.5", "time limit of 0.5 s"),
    ("loops_in_c", "1", "time limit of 1 s"),  # stopped by RLIMIT_CPU: the engine never looks at its alarm
    ("sleeps", "0.2", "wall-clock guard of 2 s"),
    ("stops_itself", "0.2", "wall-clock guard of 2 s"),  # SIGSTOP: only pysolve's own guard ends it
])
def test_rules_that_never_answer_run_out_of_their_limit(name, seconds, words, tmp_path, capsys):
    path = rules(tmp_path, name)
    code, report = check_json(capsys, path, "--examples", "1", "--seconds", seconds, "--seed", "1")
    assert code == 3 and report["verdict"] == "unknown" and report["memory_limits"] == []
    (finding,) = report["time_outs"]
    assert words in finding["message"]
    code, out, _ = run(capsys, "query", path, GOAL, "--seconds", seconds)
    assert code == 3 and out.startswith("unknown.  % stopped: the goal passed its ") and words in out
    still_answers(capsys)


def test_what_the_rules_print_is_counted_never_shown(tmp_path, capsys):
    path = rules(tmp_path, "prints")
    code, report = check_json(capsys, path, *FAST)
    assert code == 0 and report["verdict"] == "agree" and report["printed"]["stdout"] > 0
    code, out, _ = run(capsys, "check", "hidato", path, *FAST)
    assert code == 0 and "thinking" not in out
    assert "\n  printed: the rules printed " in out and " bytes to standard output (not shown)\n" in out
    code, out, err = run(capsys, "query", path, GOAL, "--json")
    answer = json.loads(out)
    printed = len("thinking about [[1,0],[0,4]]\n")
    assert code == 0 and len(answer["solutions"]) == 2 and answer["printed"] == {"stdout": printed, "stderr": 0}
    code, out, err = run(capsys, "query", path, GOAL)
    assert code == 0 and "thinking" not in out + err and out.count("S = ") == 2
    assert err == f"pysolve: the rules printed {printed} bytes to standard output (not shown)\n"


@pytest.mark.parametrize("name, predicate", [("shells", "shell/1"), ("forks", "fork/1"),
                                             ("catches_its_refusal", "shell/1")])
def test_rules_that_start_a_process_are_refused(name, predicate, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = rules(tmp_path, name)
    code, report = check_json(capsys, path, *FAST)
    assert code == 1 and report["verdict"] == "errors" and len(report["errors"]) == 3
    assert all(error["message"].endswith(f"the rules called {predicate}: {REFUSED}") for error in report["errors"])
    code, out, err = run(capsys, "query", path, GOAL)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.endswith(f"the rules called {predicate}: {REFUSED}\n")
    assert not (tmp_path / "SHELL_RAN").exists()
    still_answers(capsys)


def test_a_correct_rule_base_still_agrees_through_the_child(tmp_path, capsys):
    path = tmp_path / "walk.pl"
    path.write_text(WALK, encoding="utf-8")
    code, report = check_json(capsys, str(path), "--examples", "10", "--seed", "2")
    assert code == 0 and report["verdict"] == "agree" and report["agreed"] == report["tried"] > 0
    assert report["errors"] == report["time_outs"] == report["memory_limits"] == []
    assert report["printed"] == {"stdout": 0, "stderr": 0}


def test_a_long_answer_is_copied_within_its_limit():
    result = pysolve.query("fichas", "between(1, inf, X)", max_solutions=300000, seconds=3)
    assert result.status == "max_solutions" and len(result.rows) == 300000 and result.rows[-1] == {"X": 300000}
    assert result.cpu_seconds < 3  # the rows were made and written within the limit, on the child's clock
    stopped = pysolve.query("fichas", "between(1, inf, X)", max_solutions=10**9, seconds=0.5)
    assert stopped.status == "time_limit" and stopped.rows == [] and stopped.limit == "time limit of 0.5 s"


def test_values_cross_as_plain_data_wide_integers_included(tmp_path):
    path = tmp_path / "data.pl"
    path.write_text("q(f(a), \"text\", [1, [b]], 'it''s\\n').\n", encoding="utf-8")
    (row,) = sandbox.solutions(path, "q(A, B, C, D), E is 2^100, F = _, G = 1.5").rows
    assert row == {"A": "f(a)", "B": "text", "C": [1, ["b"]], "D": "it's\n", "E": 2**100, "F": "_G1", "G": 1.5}
    with pytest.raises(PrologError, match=r"^goal 'X is 1/0' in data: //2: Arithmetic: evaluation error: .zero_div"):
        sandbox.solutions(path, "X is 1/0")


def test_a_halt_in_a_thread_returns_and_later_questions_are_answered():
    outcome: list[RulesCrashed] = []

    def ask() -> None:
        try:
            pysolve.query("fichas", "halt")
        except RulesCrashed as error:
            outcome.append(error)

    thread = threading.Thread(target=ask)
    thread.start()
    thread.join(60)
    assert not thread.is_alive() and outcome and outcome[0].kind == "halt"
    assert [row["Next"] for row in pysolve.query("fichas", "move('BHV', Next)").rows] == ["HBV", "BVH"]


def test_one_child_serves_every_question_and_a_fresh_one_follows_a_death():
    pysolve.query("fichas", "true")
    first = sandbox.pid()
    pysolve.query("fichas", "true")
    assert sandbox.pid() == first is not None
    with pytest.raises(RulesRefused):
        pysolve.query("fichas", "process:process_create(path(true), [], [])")
    assert sandbox.pid() == first  # a refusal leaves the child running
    with pytest.raises(RulesCrashed):
        pysolve.query("fichas", "halt")
    assert sandbox.pid() is None
    pysolve.query("fichas", "true")
    assert sandbox.pid() not in (None, first)
    sandbox.close()
    assert sandbox.pid() is None


def test_no_child_outlives_pysolve():
    script = "import pysolve; from pysolve import sandbox; pysolve.query('fichas', 'true'); print(sandbox.pid())"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    with pytest.raises(ProcessLookupError):
        os.kill(int(done.stdout), 0)
