"""`pysolve check`: rule bases of one's own (examples/class/, tests/data/rules/) asked pysolve's random questions.

A correct rule base agrees, a wrong one is caught with a small shrunk
counterexample that `pysolve solve` reads back, a looping one runs out of
time with its goals named, bad input is one line and exit 2; pysolve's own
rule bases satisfy the interfaces they declare. Modules of miniKanren
relations of one's own (tests/data/rules/*.py) are checked the same way,
with or without SWI-Prolog.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings

import pysolve
from pysolve import Found
from pysolve.bridge import HIDE_VARIABLE
from pysolve.check import AGREE, ERRORS, IMPOSSIBLE, check
from pysolve.cli import main
from pysolve.errors import PysolveError
from pysolve.fichas import instances as fichas_instances
from pysolve.hidato import instances as hidato_instances
from pysolve.hidato import model as hidato_model
from pysolve.paths import rule_base_dir
from pysolve.pytest_plugin import assert_rules_agree, assert_solver_agrees, needs_prolog
from pysolve.squares import instances as squares_instances
from pysolve.sudoku import instances as sudoku_instances
from pysolve.sudoku import model as sudoku_model
from pysolve.tangram import instances as tangram_instances

RULES = Path(__file__).parent / "data" / "rules"
CLASS = Path(__file__).resolve().parent.parent / "examples" / "class"  # the sample class: correct and wrong rule bases
CORRECT = {"hidato": CLASS / "hidato" / "ana.pl", "sudoku": CLASS / "sudoku" / "ana.pl",
           "squares": CLASS / "squares" / "ana.pl", "fichas": CLASS / "fichas" / "ana.pl",
           "tangram": CLASS / "tangram" / "ana.pl"}
WRONG = {"hidato": CLASS / "hidato" / "carla.pl", "sudoku": CLASS / "sudoku" / "ben.pl",
         "squares": RULES / "squares_same_labels.pl", "fichas": CLASS / "fichas" / "ben.pl",
         "tangram": RULES / "tangram_never_turns.pl"}
RELATIONS = {"right": RULES / "hidato_relations.py", "wrong": RULES / "hidato_relations_ignore_clues.py"}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one `pysolve` command run in this process."""
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.subprocess
@needs_prolog
@pytest.mark.parametrize("puzzle", sorted(CORRECT))
def test_pysolves_own_rule_bases_satisfy_the_interface_they_declare(puzzle):
    report = check(puzzle, rule_base_dir() / f"{puzzle}.pl", examples=15, seed=1)
    assert report.verdict == AGREE and report.agreed == report.tried > 0, report.lines()


@pytest.mark.subprocess
@needs_prolog
@pytest.mark.parametrize("puzzle", sorted(CORRECT))
def test_a_correct_rule_base_of_ones_own_agrees(puzzle, capsys):
    code, out, _ = run(["check", puzzle, str(CORRECT[puzzle]), "--examples", "25", "--seed", "2", "--json"], capsys)
    report = json.loads(out)
    assert code == 0 and report["verdict"] == "agree", report["summary"]
    assert report["agreed"] == report["tried"] > 0 and report["errors"] == report["time_outs"] == []
    assert report["ratio_to_prolog"] > 0 and set(report["times"]) == {CORRECT[puzzle].name, "prolog", "python"}


def caught(puzzle: str, out: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    """The disagreement `pysolve check --json` finds in the puzzle's wrong rule base (seed 3), written to `out`:
    exit code 1, its goal the interface's."""
    code, printed, _ = run(["check", puzzle, str(WRONG[puzzle]), "--seed", "3", "--out", str(out), "--json"], capsys)
    report = json.loads(printed)
    found = report["disagreement"]
    assert code == 1 and report["verdict"] == "disagree" and found["file"] == str(out)
    assert found["goal"].startswith(f"'{puzzle}'(")
    return found


@pytest.mark.subprocess
@needs_prolog
@pytest.mark.parametrize("puzzle, most_cells", [("hidato", 6), ("sudoku", 36)])
def test_a_wrong_rule_base_is_caught_with_a_small_counterexample_that_solve_reads(puzzle, most_cells, tmp_path,
                                                                                 capsys):
    out = tmp_path / "smallest.txt"
    found = caught(puzzle, out, capsys)
    assert "differ at answer" in found["difference"]
    mine, pysolve = found["answers"][WRONG[puzzle].name], found["answers"]["prolog"]
    assert mine["count"] != pysolve["count"] or mine["solutions"] != pysolve["solutions"]
    assert len(mine["question"]["puzzle"]) * len(mine["question"]["puzzle"][0]) <= most_cells  # shrunk
    text = out.read_text(encoding="utf-8")
    assert "they part:" in text and f"{WRONG[puzzle].name} answered:" in text and "prolog and python answered:" in text
    code, printed, _ = run(["solve", puzzle, str(out), "--count", "10", "--backend", "python", "--json"], capsys)
    assert code == 0 and json.loads(printed)["count"] == pysolve["count"]


def smallest_size(puzzle: str, question: dict) -> int:
    """How large a disagreement's question is: the cells of a squares grid or a tangram board, a fichas order's
    tokens."""
    if puzzle == "squares":
        return question["rows"] * question["cols"]
    if puzzle == "tangram":
        return question["board"][0] * question["board"][1]
    return question["m"] + question["n"]


def solve_arguments(puzzle: str, written: Path) -> list[str]:
    """What `pysolve solve PUZZLE` is given to ask a written disagreement again (the instance file, or for
    fichas, which has none, the file's arguments), every solution listed."""
    if puzzle == "fichas":
        return [word for line in written.read_text(encoding="utf-8").splitlines() if not line.startswith("#")
                for word in line.split()]
    return [str(written), "--all", *(["--count-orientations"] if puzzle == "squares" else [])]


@pytest.mark.subprocess
@needs_prolog
@pytest.mark.parametrize("puzzle, most", [("squares", 2), ("fichas", 3), ("tangram", 4)])
def test_a_wrong_rule_base_of_another_puzzle_is_caught_small_and_solve_reads_it_back(puzzle, most, tmp_path,
                                                                                    capsys):
    out = tmp_path / "smallest.txt"
    found = caught(puzzle, out, capsys)
    mine, pysolve = found["answers"][WRONG[puzzle].name], found["answers"]["prolog"]
    assert smallest_size(puzzle, mine["question"]) <= most  # shrunk
    assert f"{WRONG[puzzle].name} answered:" in out.read_text(encoding="utf-8")
    code, printed, _ = run(["solve", puzzle, *solve_arguments(puzzle, out), "--backend", "python", "--json"], capsys)
    again = json.loads(printed)
    assert code == 0 and again.get("count") == pysolve.get("count")  # squares and tangram count their answers
    assert again["stats"].get("moves") == pysolve["stats"].get("moves")  # fichas gives the moves of its path


@pytest.mark.subprocess
@needs_prolog
def test_a_rule_base_loads_as_in_a_fresh_swipl_whatever_was_checked_before(capsys):
    """sudoku_distinct.pl names its helper distinct/1, as library(solution_sequences) names one, and calls it
    through maplist/2 before defining it. A fresh swipl loads it; so must the check, after a rule base that
    loaded library(clpfd), which brings library(apply_macros), whose global expansion of maplist/2 would
    import the library's distinct/1 first."""
    distinct = RULES / "sudoku_distinct.pl"
    fresh = subprocess.run(["swipl", "-q", "-g", "halt", str(distinct)], capture_output=True, text=True, timeout=60)
    assert fresh.returncode == 0 and fresh.stderr == "", fresh.stderr
    assert check("sudoku", CORRECT["sudoku"], examples=1, seed=1).verdict == AGREE  # library(clpfd) loaded
    code, out, err = run(["check", "sudoku", str(distinct), "--examples", "10", "--seed", "2", "--json"], capsys)
    assert code == 0 and json.loads(out)["verdict"] == "agree", err


@pytest.mark.subprocess
@needs_prolog
def test_a_rule_base_that_never_checks_the_givens_against_each_other_is_caught_on_givens_that_clash(tmp_path,
                                                                                                   capsys):
    code, printed, _ = run(["check", "sudoku", str(CLASS / "sudoku" / "dan.pl"), "--seed", "3",
                            "--out", str(tmp_path / "smallest.txt"), "--json"], capsys)
    found = json.loads(printed)["disagreement"]
    mine, pysolve = found["answers"]["dan.pl"], found["answers"]["prolog"]
    assert code == 1 and pysolve["status"] == "no solution" and mine["count"] > 0
    assert sudoku_model.repeats(sudoku_model.make_board(pysolve["question"]["puzzle"]))  # the givens clash


def pysolve_python_of(puzzle: str):
    """A right solver of one's own for `puzzle`: pysolve's Python back end, asked through the API."""
    def solver(question):
        answer = pysolve.solve(puzzle, question=question, backend="python")
        return Found(answer.solutions, count=answer.count, status=answer.status)

    solver.__name__ = f"{puzzle}_python"
    return solver


@pytest.mark.parametrize("puzzle", ["hidato", "sudoku"])
def test_a_share_of_the_questions_are_boards_with_no_solution(puzzle):
    report = check(puzzle, pysolve_python_of(puzzle), examples=40, seed=1)
    assert report.verdict == AGREE and report.tried > 20, report.lines()
    assert report.unsolvable >= report.tried // IMPOSSIBLE, report.lines()  # drawn so, and some swaps


@settings(max_examples=20, deadline=None)
@given(sudoku_instances.clashing_boards(max_side=6))
def test_sudoku_boards_whose_givens_clash_repeat_a_value(rows):
    assert sudoku_model.repeats(sudoku_model.make_board(rows))


@pytest.mark.subprocess
@needs_prolog
def test_the_default_sizes_reach_six_by_six_sudoku_whose_boxes_are_two_by_three(tmp_path, capsys):
    code, printed, _ = run(["check", "sudoku", str(CLASS / "sudoku" / "carla.pl"), "--seed", "1",
                            "--out", str(tmp_path / "smallest.txt"), "--json"], capsys)
    report = json.loads(printed)
    assert code == 1 and report["max_size"] == 6 and report["sizes"] == [4, 6], report["summary"]
    assert report["disagreement"]["answers"]["prolog"]["question"]["size"] == 6


def test_fewer_questions_than_asked_are_explained():
    report = check("fichas", pysolve_python_of("fichas"), examples=100, seed=1)
    assert report.sizes == (3, 5) and report.tried == 36  # every order (M, N) up to 5, once each
    assert report.tried + report.repeated < 100 and report.repeated > 0
    assert (f"  fewer than 100: {report.repeated} questions drawn again (each is asked once); "
            f"{100 - report.tried - report.repeated} not drawn (hypothesis found no new questions up to "
            "--max-size 5)") in report.lines()


@pytest.mark.subprocess
@needs_prolog
def test_an_illegal_fichas_move_is_named_with_why_it_is_illegal(tmp_path, capsys):
    code, printed, _ = run(["check", "fichas", str(CLASS / "fichas" / "carla.pl"), "--seed", "1",
                            "--out", str(tmp_path / "smallest.txt"), "--json"], capsys)
    difference = json.loads(printed)["disagreement"]["difference"]
    assert code == 1 and "differ at answer['first illegal move']: \"move " in difference, difference
    assert "a token moved 4 cells (a move is a slide or a jump over one or two, 3 at most)\" against None" in difference


@pytest.mark.subprocess
@needs_prolog
@pytest.mark.parametrize("puzzle, rules, marked", [
    ("squares", "squares/ben.pl", r"\|\*.*\*\|.*\|\*.*\*\|"),  # a cell starred on both grids
    ("tangram", "tangram/ben.pl", r"^\* \d \w+ at \(\d,\d\), \dx\d +\* \d \w+ at \(\d,\d\), \dx\d$"),
])
def test_squares_and_tangram_solutions_that_differ_are_drawn_side_by_side_what_differs_marked(puzzle, rules, marked,
                                                                                              tmp_path, capsys):
    """Each rule base finds as many solutions as pysolve, not the same ones: the answers part at a path into
    nested lists (`answer['tilings'][1][0][4][1]: 0 against 1`), which the report draws."""
    code, out, _ = run(["check", puzzle, str(CLASS / rules), "--seed", "1", "--out", str(tmp_path / "smallest.txt")],
                       capsys)
    assert code == 1 and re.search(r"differ at answer\['(solutions|tilings)'\]\[\d+\]\[", out), out
    drawn = out[out.index("    goal: "):out.index("    written to ")].splitlines()[1:]
    assert drawn[0].startswith(f"    {Path(rules).name} gives, prolog does not:")
    assert drawn[0].endswith("the closest prolog gives:")
    assert drawn[-1] == "    (* marks where the two differ)"
    assert any(re.search(marked, line.strip()) for line in drawn[1:-1]), "\n".join(drawn)


@pytest.mark.subprocess
@needs_prolog
def test_an_error_is_shrunk_to_the_smallest_question_that_still_raises_it():
    report = check("hidato", RULES / "hidato_succ_blocked.pl", seed=1)
    smallest = report.smallest_finding
    assert report.verdict == ERRORS and smallest is not None and smallest.kind == "error", report.lines()
    board = json.loads(re.fullmatch(r"'hidato'\((.*), Solution\)", smallest.goal)[1])
    assert sorted(value for row in board for value in row) == [-1, 1, 2]  # two numbers beside one blocked cell
    assert smallest.shrinks > 0 and "Domain error: `not_less_than_zero' expected, found `-1'" in smallest.message
    assert len(report.errors) > 1  # the check asked on after the first error, every error listed
    assert f"  smallest error (shrunk in {smallest.shrinks} steps): {smallest.message}" in report.lines()
    assert report.to_json()["smallest_finding"] == {"goal": smallest.goal, "message": smallest.message,
                                                    "kind": "error", "shrinks": smallest.shrinks}


@pytest.mark.subprocess
@needs_prolog
def test_a_counterexample_that_pysolve_solve_refuses_says_how_to_ask_pysolves_rules_instead(tmp_path, capsys):
    written = tmp_path / "smallest.txt"
    code, out, _ = run(["check", "sudoku", str(CLASS / "sudoku" / "dan.pl"), "--seed", "3", "--out",
                        str(written)], capsys)
    assert code == 1 and "pysolve solve reads it" not in out, out
    asking = next(line for line in out.splitlines() if line.startswith("    pysolve solve refuses it ("))
    goal = re.search(r": an impossible board\); ask pysolve's rules instead: pysolve query sudoku \"(.*)\"$", asking)[1]
    code, _, err = run(["solve", "sudoku", str(written)], capsys)
    assert code == 2 and "an impossible board" in err  # as the report says
    code, printed, _ = run(["query", "sudoku", goal], capsys)
    assert code == 0 and printed.strip() == "false."  # pysolve's rules answer: no solution
    assert "# pysolve solve refuses it (" in written.read_text(encoding="utf-8")


@pytest.mark.subprocess
@needs_prolog
def test_the_text_report_names_the_file_and_draws_the_board(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["check", "hidato", str(WRONG["hidato"]), "--seed", "3", "--examples", "20"], capsys)
    assert code == 1 and out.startswith("DISAGREEMENT: carla.pl on hidato questions")
    assert "written to carla-counterexample.txt" in out
    assert (tmp_path / "carla-counterexample.txt").is_file()


@pytest.mark.subprocess
@needs_prolog
def test_a_looping_rule_base_runs_out_of_time_with_its_goals_named(capsys):
    code, out, _ = run(["check", "hidato", str(RULES / "hidato_loops.pl"), "--seconds", "0.3", "--examples", "3",
                        "--seed", "1", "--json"], capsys)
    report = json.loads(out)
    assert code == 3 and report["verdict"] == "unknown" and report["agreed"] == 0
    assert len(report["time_outs"]) == report["tried"] == 3
    assert all(finding["goal"].startswith("'hidato'([[") and "time limit of 0.3 s" in finding["message"]
               for finding in report["time_outs"])


@pytest.mark.subprocess
@needs_prolog
def test_an_answer_left_unbound_is_said_to_be_not_ground_and_shown(capsys):
    code, out, _ = run(["check", "sudoku", str(RULES / "sudoku_no_labeling.pl"), "--examples", "10", "--seed", "1",
                        "--json"], capsys)
    report = json.loads(out)
    assert code == 1 and report["verdict"] == "errors" and report["errors"], report["summary"]
    message = report["errors"][0]["message"]
    assert ": your answer is not ground: Solution = [[" in message and "_G1" in message, message
    assert message.endswith("leaves variables unbound (named _G1, _G2, ...)") and "Type error" not in message


@pytest.mark.slow
def test_a_relation_that_leaves_variables_unbound_is_said_to_be_not_ground(tmp_path, capsys):
    unbound = tmp_path / "unbound.py"
    unbound.write_text("from pysolve.minikanren import eq, var\n\n\ndef hidatoo(board, solution):\n"
                       "    return eq(solution, [[var() if v == 0 else v for v in row] for row in board])\n",
                       encoding="utf-8")
    code, out, _ = run(["check", "hidato", str(unbound), "--examples", "5", "--seed", "1", "--out",
                        str(tmp_path / "smallest.txt"), "--json"], capsys)
    report = json.loads(out)
    assert code == 1 and report["errors"], report["summary"]
    assert all(": your answer is not ground: Solution = [[" in error["message"] for error in report["errors"])


def test_a_relation_that_recurses_past_pythons_stack_is_a_memory_limit_not_a_time_out(tmp_path, capsys):
    deep = tmp_path / "deep.py"
    deep.write_text("def hidatoo(board, solution):\n    return hidatoo(board, solution)\n", encoding="utf-8")
    code, out, _ = run(["check", "hidato", str(deep), "--examples", "3", "--seed", "1", "--json"], capsys)
    report = json.loads(out)
    assert code == 3 and report["time_outs"] == [] and len(report["memory_limits"]) == report["tried"] > 0
    assert "recursion limit" in report["memory_limits"][0]["message"]


@pytest.mark.subprocess
@needs_prolog
def test_the_time_line_counts_the_time_outs_it_leaves_out(tmp_path, capsys):
    slow = tmp_path / "slow_past_3.pl"  # the walk, but boards of four rows or more loop
    slow.write_text(CORRECT["hidato"].read_text(encoding="utf-8").replace(
        "hidato(Board, Solution) :-\n", "hidato(Board, _) :-\n    length(Board, Rows), Rows > 3, !, loop.\n"
        "hidato(Board, Solution) :-\n", 1) + "\nloop :- loop.\n", encoding="utf-8")
    code, out, _ = run(["check", "hidato", str(slow), "--seconds", "0.3", "--seed", "1"], capsys)
    time_outs = int(re.search(r"(\d+) time-outs?$", out.splitlines()[0])[1])
    assert code == 3 and time_outs > 0 and "  time: slow_past_3.pl " in out, out
    assert f"    not counted: slow_past_3.pl's {time_outs} time-out{'s' * (time_outs > 1)}, each past 0.3 s" in out


@pytest.mark.subprocess
@pytest.mark.parametrize("rules, extra, message", [
    (RULES / "missing.pl", [], "rule base file '.*missing.pl' does not exist"),
    (CLASS / "hidato" / "ana.pl", ["--max-size", "1"], "--max-size 1: the random boards need --max-size 2 or more"),
    (CLASS / "hidato" / "ana.pl", ["--examples", "0"], "--examples 0: a check asks at least one question"),
    pytest.param(RULES / "hidato_syntax_error.pl", [], "did not load cleanly: .*hidato_syntax_error.pl:4.*Syntax error",
                 marks=needs_prolog),
    pytest.param(RULES / "hidato_other_name.pl", [],
                 "hidato_other_name.pl does not define hidato/2, the rules interface", marks=needs_prolog),
    pytest.param(CLASS / "sudoku" / "ana.pl", [], "ana.pl does not define hidato/2", marks=needs_prolog),
])
def test_bad_input_is_one_line_and_exit_2(rules, extra, message, capsys):
    code, out, err = run(["check", "hidato", str(rules), *extra], capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert re.search(message, err), err


@pytest.mark.subprocess
def test_a_pl_rule_base_needs_swi_prolog_and_says_so_when_it_is_hidden():
    done = subprocess.run([sys.executable, "-m", "pysolve.cli", "check", "hidato", str(CORRECT["hidato"])],
                          capture_output=True, text=True, timeout=120, env={**os.environ, HIDE_VARIABLE: "1"})
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1
    assert "checking ana.pl needs SWI-Prolog" in done.stderr and HIDE_VARIABLE in done.stderr


def test_without_hypothesis_check_names_the_extra_that_installs_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "hypothesis", None)
    with pytest.raises(PysolveError, match=r"hypothesis, which is not installed: pip install 'pysolve\[check\]'"):
        check("hidato", CORRECT["hidato"])
    code, _, err = run(["check", "hidato", str(CORRECT["hidato"])], capsys)
    assert code == 2 and len(err.splitlines()) == 1


def test_a_puzzle_without_a_rules_interface_is_refused_by_name():
    with pytest.raises(PysolveError, match="azul declares no rules interface to check; these do: .*fichas.*tangram"):
        check("azul", CORRECT["hidato"])


# --- modules of miniKanren relations ------------------------------------------------------------------------


@pytest.mark.slow
def test_a_correct_module_of_relations_agrees_and_a_wrong_one_is_caught_small(tmp_path, capsys):
    code, out, _ = run(["check", "hidato", str(RELATIONS["right"]), "--examples", "15", "--seed", "2", "--json"],
                       capsys)
    report = json.loads(out)
    assert code == 0 and report["verdict"] == "agree" and report["agreed"] == report["tried"] > 0, report["summary"]
    assert report["predicate"] == "hidatoo(board, solution)" and report["compared"][-1] == "python"
    written = tmp_path / "smallest.txt"
    code, out, _ = run(["check", "hidato", str(RELATIONS["wrong"]), "--seed", "3", "--out", str(written)], capsys)
    assert code == 1 and out.startswith("DISAGREEMENT: hidato_relations_ignore_clues.py") and "hidatoo([[" in out
    code, out, _ = run(["solve", "hidato", str(written), "--count", "10", "--backend", "python"], capsys)
    assert code == 0 and "1 solution" in out


@pytest.mark.subprocess
def test_relations_are_checked_against_kanren_and_python_when_prolog_is_hidden():
    done = subprocess.run([sys.executable, "-m", "pysolve.cli", "check", "hidato", str(RELATIONS["right"]),
                           "--examples", "8", "--seed", "2", "--json"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, HIDE_VARIABLE: "1"})
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["verdict"] == "agree", done.stderr
    assert report["compared"] == ["kanren", "python"] and report["ratio_to_prolog"] is None


@pytest.mark.slow
def test_a_relation_that_raises_or_loops_is_an_error_or_a_time_out_with_its_call(tmp_path, capsys):
    raising = tmp_path / "raising.py"
    raising.write_text("def hidatoo(board, solution):\n    return board[99]\n", encoding="utf-8")
    code, out, _ = run(["check", "hidato", str(raising), "--examples", "3", "--seed", "1", "--json"], capsys)
    report = json.loads(out)
    assert code == 1 and report["verdict"] == "errors" and report["errors"][0]["goal"].startswith("hidatoo([[")
    assert "raised IndexError: list index out of range" in report["errors"][0]["message"]
    looping = tmp_path / "looping.py"
    looping.write_text("import itertools\nfrom pysolve.minikanren import disj_over, eq\n\n"
                       "def hidatoo(board, solution):  # tries every number, none of which fits\n"
                       "    return disj_over(itertools.count(), lambda number: eq(1, 2))\n", encoding="utf-8")
    code, out, _ = run(["check", "hidato", str(looping), "--seconds", "0.3", "--examples", "2", "--seed", "1",
                        "--json"], capsys)
    report = json.loads(out)
    assert code == 3 and len(report["time_outs"]) == report["tried"] == 2
    assert all("time limit of 0.3 s" in finding["message"] for finding in report["time_outs"])


@pytest.mark.parametrize("text, message", [
    ("def hidatoo(board:\n", r"broken.py does not import: SyntaxError: "),
    ("import no_such_module_here\n", r"broken.py does not import: ModuleNotFoundError: No module named"),
    ("def solve(board, solution): ...\n", r"broken.py does not define hidatoo\(board, solution\), the relation"),
])
def test_a_module_that_does_not_import_or_lacks_the_relation_is_one_line_and_exit_2(text, message, tmp_path,
                                                                                    capsys):
    broken = tmp_path / "broken.py"
    broken.write_text(text, encoding="utf-8")
    code, out, err = run(["check", "hidato", str(broken)], capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert re.search(message, err), err


# --- the plugin ------------------------------------------------------------------------------------------


@pytest.mark.subprocess
@needs_prolog
def test_the_plugin_assertion_passes_on_correct_rules_and_shows_the_shrunk_counterexample_on_wrong_ones():
    report = assert_rules_agree("sudoku", CORRECT["sudoku"], examples=10)
    assert report.agreed == report.tried > 0 and report.tried + report.repeated == 10
    with pytest.raises(AssertionError) as failure:
        assert_rules_agree("hidato", WRONG["hidato"], examples=20, seed=3)
    message = str(failure.value)
    assert message.startswith("DISAGREEMENT") and "smallest disagreement" in message
    assert "carla.pl answered:" in message and "prolog and python answered:" in message


# --- the public strategies --------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(hidato_instances.boards(max_side=3))
def test_hidato_boards_keep_within_their_bounds_and_read_as_boards(rows):
    assert len(rows) <= 3 and all(len(row) <= 3 for row in rows)
    assert hidato_model.make_board(rows).size >= 2


@settings(max_examples=20, deadline=None)
@given(squares_instances.instances(max_side=3))
def test_squares_instances_keep_within_their_bounds(instance):
    assert instance.rows <= 3 and instance.cols <= 3 and len(instance.pieces) == instance.rows * instance.cols


@settings(max_examples=20, deadline=None)
@given(tangram_instances.instances(max_side=3, max_pieces=3))
def test_tangram_instances_keep_within_their_bounds_and_cover_their_board(instance):
    assert instance.width <= 3 and instance.height <= 3 and 1 <= len(instance.pieces) <= 3
    assert sum(piece.area for piece in instance.pieces) == instance.width * instance.height


@given(fichas_instances.orders(max_order=2))
def test_fichas_orders_keep_within_their_bound(order):
    assert all(0 <= side <= 2 for side in order)


@settings(max_examples=20, deadline=None)
@given(sudoku_instances.boards(max_side=6))
def test_sudoku_boards_keep_within_their_bounds_and_repeat_no_value(rows):
    assert len(rows) in (4, 6) and not sudoku_model.repeats(sudoku_model.make_board(rows))


# --- a Python solver of one's own, through the plugin ---------------------------------------------------------


def pysolve_python(question):
    """A solver of one's own that is right: pysolve's Python back end, asked through the API."""
    answer = pysolve.solve("sudoku", question=question, backend="python")
    return Found(answer.solutions, count=answer.count, status=answer.status)


def first_only(question):
    """A wrong solver: it stops at the first solution, so it miscounts every board with two or more."""
    found = pysolve_python(question)
    return Found(found.solutions[:1], count=min(found.count or 0, 1), status=found.status)


def raises_on_blanks(question):
    """A solver that breaks: it raises on any board with a blank."""
    raise ValueError("blanks are not supported")


def test_a_right_python_solver_agrees_on_random_questions():
    report = assert_solver_agrees("sudoku", pysolve_python, examples=10, seed=1)
    assert report.agreed == report.tried > 0 and report.rules == "pysolve_python"


def guide_hidato(question):
    """A right solver built as the guide shows: its Found gives the solutions and the count, no status."""
    answer = pysolve.solve("hidato", question=question, backend="python")
    return Found(answer.solutions, count=answer.count)


def test_a_python_solver_that_gives_no_status_agrees_on_boards_with_no_solution():
    report = assert_solver_agrees("hidato", guide_hidato, examples=20, seed=1)
    assert report.unsolvable > 0 and report.agreed == report.tried


@pytest.mark.slow
def test_a_wrong_python_solver_fails_with_the_smallest_disagreement():
    with pytest.raises(AssertionError) as failure:
        assert_solver_agrees("sudoku", first_only, examples=30, seed=2)
    message = str(failure.value)
    assert message.startswith("DISAGREEMENT: first_only on sudoku") and "smallest disagreement" in message
    assert "first_only answered:" in message


@pytest.mark.slow
def test_a_python_solver_that_raises_is_reported_with_its_call():
    with pytest.raises(AssertionError) as failure:
        assert_solver_agrees("sudoku", raises_on_blanks, examples=6, seed=4)
    message = str(failure.value)
    assert message.startswith("ERRORS") and "raises_on_blanks raised ValueError: blanks are not supported" in message
    assert "raises_on_blanks({" in message
    assert "more errors (all in the JSON report: --json, or CheckReport.to_json())" in message


@pytest.mark.slow
def test_inside_pytest_the_counterexample_says_how_to_ask_pysolve_again():
    with pytest.raises(AssertionError) as failure:
        assert_solver_agrees("sudoku", first_only, examples=30, seed=2)
    assert "# saved as FILE, ask pysolve again: pysolve solve sudoku FILE --count 10" in str(failure.value)


def test_random_questions_take_a_solver_not_a_rule_base_file():
    with pytest.raises(pytest.fail.Exception, match="give a function question -> pysolve.Found, not str"):
        assert_solver_agrees("sudoku", "my_sudoku.pl", examples=3)  # one line, as the CLI prints it
