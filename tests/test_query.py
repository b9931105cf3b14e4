"""`pysolve query` answers as SWI-Prolog's top level does: one goal, `--limit` with more, and the interactive loop.

The endings (` ;`, `.`, ` .`, `false.`, `unknown.`) are checked on results made here; the answers
themselves come from the rule base's real child process (pysolve.sandbox), through the CLI in this
process and, for the interactive loop, through a `pysolve` process reading piped input.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pysolve import cli, sandbox, toplevel
from pysolve.pytest_plugin import needs_prolog
from pysolve.sandbox import TopLevelResult

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.md"
MOVES = "move('BBHVV', Next)"  # four answers, the last leaving a choice point
CLPFD = ":- use_module(library(clpfd)).\nbetween_3_6(X) :- X #> 3, X #< 6.\n"


def result(texts: list[list[str]], status: str = "complete", **kwargs: Any) -> TopLevelResult:
    """A result as `sandbox.answers` gives it, with these answers' lines."""
    return TopLevelResult([{} for _ in texts], status, texts=texts, **kwargs)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one `pysolve` command run in this process."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def session(text: str) -> tuple[toplevel.Session, io.StringIO]:
    """A session reading `text` (no terminal), and what it prints."""
    out = io.StringIO()
    return toplevel.Session(io.StringIO(text), out), out


# ---------------------------------------------------------------- the endings, on results made here


@pytest.mark.parametrize("made, limit, lines", [
    (result([["X = 1"], ["X = 2"]], deterministic=True), 0, ["X = 1 ;", "X = 2."]),
    (result([["X = 1"], ["X = 2"]]), 0, ["X = 1 ;", "X = 2 ;", "false."]),
    (result([]), 0, ["false."]),
    (result([[]], deterministic=True), 0, ["true."]),
    (result([["X = 1,", "Y = 2"]], deterministic=True), 0, ["X = 1,\nY = 2."]),
    (result([["X = 1"], ["X = 2"]], "max_solutions", more=True), 2,
     ["X = 1 ;", "X = 2 .", "% more answers: --limit 4 shows up to 4"]),
    (result([["X = 1"]], "max_solutions", ahead="looking for one more answer passed its time limit of 1 s"), 1,
     ["X = 1 .", "% more answers unknown: looking for one more answer passed its time limit of 1 s"]),
    (result([], "time_limit", limit="time limit of 1 s"), 0, ["unknown.  % stopped: the goal passed its time "
                                                              "limit of 1 s"]),
])
def test_answers_end_as_the_top_level_ends_them(made: TopLevelResult, limit: int, lines: list[str]) -> None:
    assert toplevel.transcript(made, limit, 200) == lines


def test_a_long_binding_is_cut_keeping_its_comma() -> None:
    assert toplevel.answer_text(["L = [1, 2, 3],", "N = 3"], 5) == \
        "L = [... (13 characters; --max-width 0 shows all),\nN = 3"
    assert toplevel.answer_text(["L = [1, 2, 3]"], 0) == "L = [1, 2, 3]"


# ---------------------------------------------------------------- answers from the child


@needs_prolog
@pytest.mark.subprocess
def test_bindings_are_written_as_the_top_level_writes_them(tmp_path: Path) -> None:
    goal = "member(X, [a, 'B', 'two words', \"text\", 1+2*3, - 1, f(Y, _Z), [_]])"
    found = sandbox.answers("fichas", goal)
    assert [text for (text,) in found.texts] == [
        "X = a", "X = 'B'", "X = 'two words'", 'X = "text"', "X = 1+2*3", "X = - 1", "X = f(Y, _Z)", "X = [_]"]
    assert found.rows[1] == {"X": "B", "Y": "_G1", "_Z": "_G2"}  # the data stay as `pysolve.query` gives them
    assert found.deterministic and found.status == "complete"
    rules = tmp_path / "small.pl"
    rules.write_text(CLPFD, encoding="utf-8")
    assert sandbox.answers(rules, "between_3_6(X)").texts == [["X in 4..5"]]  # a residual constraint


@needs_prolog
@pytest.mark.subprocess
def test_looking_ahead_says_whether_there_is_one_more_answer() -> None:
    two = sandbox.answers("fichas", MOVES, max_answers=2, look_ahead=True)
    assert (len(two.texts), two.status, two.more) == (2, "max_solutions", True)
    four = sandbox.answers("fichas", MOVES, max_answers=4, look_ahead=True)
    assert (len(four.texts), four.status, four.more) == (4, "complete", False)
    last = sandbox.answers("fichas", "member(X, [a, b])", max_answers=2, look_ahead=True)
    assert (last.deterministic, last.more) == (True, False)  # no choice point left: nothing to look for
    asked = sandbox.answers("fichas", MOVES, max_answers=2)
    assert (asked.status, asked.more, asked.deterministic) == ("max_solutions", None, False)


@needs_prolog
@pytest.mark.subprocess
def test_a_look_ahead_that_ends_the_engine_keeps_the_answers() -> None:
    halts = sandbox.answers("fichas", "X = 1 ; halt", max_answers=1, look_ahead=True)
    assert halts.texts == [["X = 1"]] and halts.more is None
    assert halts.ahead == ("looking for one more answer, the rules called halt/0, which ends the Prolog engine "
                           "running them")
    loops = sandbox.answers("fichas", "X = 1 ; repeat, fail", max_answers=1, look_ahead=True, seconds=0.3)
    assert loops.texts == [["X = 1"]] and loops.status == "max_solutions" and loops.more is None
    assert loops.ahead == "looking for one more answer passed its time limit of 0.3 s"
    assert sandbox.answers("fichas", MOVES, max_answers=1).texts == [["Next = 'BHBVV'"]]  # a fresh child answers


# ---------------------------------------------------------------- pysolve query GOAL


@needs_prolog
@pytest.mark.subprocess
def test_limit_says_when_there_are_more_answers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "fichas", MOVES, "--limit", "3")
    assert code == 0 and out.splitlines() == ["Next = 'BHBVV' ;", "Next = 'HBBVV' ;", "Next = 'BBVHV' .",
                                              "% more answers: --limit 6 shows up to 6"]
    code, out, _ = run(capsys, "query", "fichas", MOVES, "--limit", "4")
    assert code == 0 and out.splitlines()[-2:] == ["Next = 'BBVVH' ;", "false."]  # all four: no hint
    code, out, _ = run(capsys, "query", "fichas", MOVES, "--limit", "2", "--json")
    answer = json.loads(out)
    assert answer["answers"] == ["Next = 'BHBVV'", "Next = 'HBBVV'"] and answer["more"] is True
    assert answer["solutions"] == [{"Next": "BHBVV"}, {"Next": "HBBVV"}] and answer["status"] == "max_solutions"


@needs_prolog
@pytest.mark.subprocess
def test_a_halt_looking_ahead_still_shows_the_answers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "query", "fichas", "X = 1 ; halt", "--limit", "1")
    assert (code, err) == (0, "")
    assert out == ("X = 1 .\n% more answers unknown: looking for one more answer, the rules called halt/0, which "
                   "ends the Prolog engine running them\n")
    code, out, err = run(capsys, "query", "fichas", "X = 1 ; halt")  # all answers: the halt is the verdict
    assert code == 2 and out == "" and "the rules called halt/0" in err


# ---------------------------------------------------------------- the interactive loop


@needs_prolog
@pytest.mark.subprocess
def test_the_loop_shows_an_answer_at_a_time_while_asked() -> None:
    reader, out = session(f"{MOVES}.\n;\n\nmember(X,\n  [1, 2]).\n;\nfail.\nhalt.\ntrue.\n")
    assert toplevel.interactive("fichas", 10, 200, reader) == 0
    assert out.getvalue().splitlines() == [
        f"?- {MOVES}.", "Next = 'BHBVV' ;", "Next = 'HBBVV' .",
        "?- member(X,", "|      [1, 2]).", "X = 1 ;", "X = 2.",
        "?- fail.", "false.",
        "?- halt.",  # the session ends: `true.` is never read
    ]


@needs_prolog
@pytest.mark.subprocess
def test_a_reply_that_is_a_goal_is_the_next_goal_and_the_input_may_end_anywhere() -> None:
    reader, out = session(f"{MOVES}.\nX = 1 ; X = 2.\n")
    assert toplevel.interactive("fichas", 10, 200, reader) == 0
    assert out.getvalue().splitlines() == [f"?- {MOVES}.", "Next = 'BHBVV' .", "?- X = 1 ; X = 2.", "X = 1 ."]
    reader, out = session("member(X, [a, b])")  # no final `.` nor newline: asked as it is
    assert toplevel.interactive("fichas", 10, 200, reader) == 0
    assert out.getvalue() == "?- member(X, [a, b])\nX = a .\n"


@needs_prolog
@pytest.mark.subprocess
def test_errors_and_limits_end_a_goal_not_the_loop(capsys: pytest.CaptureFixture[str]) -> None:
    reader, out = session("foo(.\nhalt, true.\nrepeat, fail.\nX = 1 ; repeat, fail.\n;\nY = 2.\n")
    assert toplevel.interactive("fichas", 0.3, 200, reader) == 0
    assert out.getvalue().splitlines() == [
        "?- foo(.", "?- halt, true.",
        "?- repeat, fail.", "unknown.  % stopped: the goal passed its time limit of 0.3 s",
        "?- X = 1 ; repeat, fail.", "X = 1 ;", "unknown.  % stopped: the goal passed its time limit of 0.3 s",
        "?- Y = 2.", "Y = 2."]
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and "Syntax error" in errors[0] and "the rules called halt/0" in errors[1]


@needs_prolog
@pytest.mark.subprocess
def test_pysolve_query_without_a_goal_reads_piped_goals_to_the_end() -> None:
    ran = subprocess.run([sys.executable, "-m", "pysolve", "query", "fichas", "--seconds", "5"],
                         input=f"{MOVES}.\n;\n;\n;\n;\nX = f(Y, _).\n", capture_output=True, text=True, timeout=120,
                         check=False)
    assert (ran.returncode, ran.stderr) == (0, "")
    assert ran.stdout.splitlines() == [f"?- {MOVES}.", "Next = 'BHBVV' ;", "Next = 'HBBVV' ;", "Next = 'BBVHV' ;",
                                       "Next = 'BBVVH' ;", "false.", "?- X = f(Y, _).", "X = f(Y, _)."]


@needs_prolog
@pytest.mark.subprocess
def test_the_guides_transcript_is_what_the_loop_prints() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    command = re.search(r'^    \$ printf "(.*)" \| pysolve query fichas$', guide, re.M)
    assert command, "the guide shows no piped pysolve query"
    reader, out = session(command[1].encode().decode("unicode_escape"))
    assert toplevel.interactive("fichas", 10, 200, reader) == 0
    shown = "".join(f"    {line}\n" for line in out.getvalue().splitlines())
    assert f"{command[0]}\n{shown}" in guide


@pytest.mark.parametrize("option", [["--json"], ["--limit", "2"]])
def test_json_and_limit_need_a_goal(option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "query", "fichas", *option)
    assert (code, out) == (2, "")
    assert err == "pysolve: error: --json and --limit need a GOAL; without one, pysolve query reads goals one at " \
                  "a time\n"
