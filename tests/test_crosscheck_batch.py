"""`pysolve crosscheck` on a file of many puzzles: every puzzle cross-checked, a line each and the verdicts
counted, the same verdicts and answers whatever runs them (here, or a pool of processes), each back end's time
limit counted per question; a file where nothing was compared says so. `pysolve check --workers N`: the random
questions answered ahead on a pool, the same report for the same seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pysolve import api, cli, executors, puzzles
from pysolve import check as check_module
from pysolve.agreement import AGREE, DISAGREE, NOT_COMPARED, CrossCheck, CrossChecks, crosscheck, crosscheck_many
from pysolve.answers import Found
from pysolve.pytest_plugin import needs_prolog
from pysolve.sudoku import python as sudoku_python

SUDOKU = puzzles.get("sudoku")
SMALL = SUDOKU.questions(file="small")  # ten 4x4 and 6x6 puzzles: every back end answers each in a moment


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def found(report: CrossCheck) -> dict[str, Any]:
    """What a cross-check found, without the seconds each took: the verdict, the difference, every answer."""
    return {"verdict": report.verdict, "difference": report.difference, "label": report.label,
            "results": {name: (answer.status, answer.count, SUDOKU.canonical(answer))
                        for name, answer in report.results.items()},
            "unanswered": {name: str(why) for name, why in report.unanswered().items()}}


def test_every_puzzle_of_a_file_is_cross_checked_a_line_each_and_the_verdicts_counted(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "crosscheck", "sudoku", "small", "--backends", "python,kanren")
    lines = out.splitlines()
    assert code == 0, out
    assert len(lines) == len(SMALL) + 1
    for number, (line, question) in enumerate(zip(lines, SMALL), start=1):
        assert line == f"{number}. {SUDOKU.label(question)}: all back ends agree (kanren, python)"
    assert lines[-1] == "all 10 sudoku questions agree across back ends"


@pytest.mark.subprocess
def test_the_verdicts_and_answers_are_the_same_whatever_the_workers(capsys: pytest.CaptureFixture[str]) -> None:
    alone = crosscheck_many(SUDOKU, SMALL, seconds=30)
    pooled = crosscheck_many(SUDOKU, SMALL, seconds=30, workers=2)
    assert (alone.ran_on, pooled.ran_on) == ("this process", "2 processes")
    assert [found(report) for report in pooled.reports] == [found(report) for report in alone.reports]
    assert len(alone.reports) == 10 and alone.verdict == AGREE and all(len(report.results) >= 2
                                                                       for report in alone.reports)
    argv = ("crosscheck", "sudoku", "small", "--backends", "python,kanren", "--seconds", "30")
    code, out, _ = run_cli(capsys, *argv)
    assert (code, run_cli(capsys, *argv, "--workers", "2")) == (0, (0, out, ""))  # the same lines, word for word
    code, out, _ = run_cli(capsys, *argv, "--workers", "2", "--json")
    document = json.loads(out)
    assert code == 0 and (document["verdict"], document["questions"], document["ran_on"]) == ("agree", 10,
                                                                                               "2 processes")
    assert document["counts"] == {"agree": 10, "disagree": 0, "not compared": 0}
    assert [check["question"] for check in document["crosschecks"]] == [SUDOKU.describe(q) for q in SMALL]
    assert all(check["limit_seconds"] == 30 for check in document["crosschecks"])


@pytest.mark.usefixtures("two_cores")
def test_auto_cross_checks_a_small_file_here_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    alone = crosscheck_many(SUDOKU, SMALL, ["python", "kanren"])
    auto = crosscheck_many(SUDOKU, SMALL, ["python", "kanren"], workers="auto")
    assert [found(report) for report in auto.reports] == [found(report) for report in alone.reports]
    assert auto.ran_on == "this process" and alone.serially == ""
    assert auto.serially.startswith("ran serially (--workers auto): the 10 sudoku questions took ")
    code, out, err = run_cli(capsys, "crosscheck", "sudoku", "small", "--backends", "python,kanren",
                             "--workers", "auto")
    assert code == 0 and out.splitlines()[-1] == "all 10 sudoku questions agree across back ends"
    assert err.startswith("pysolve: ran serially (--workers auto): the 10 sudoku questions took ") and \
        err.count("\n") == 1


@pytest.mark.subprocess
@pytest.mark.usefixtures("two_cores")
def test_auto_sends_the_rest_of_a_file_that_pays_to_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    for start in ("START_SECONDS", "FORKED_START_SECONDS"):  # any rest pays: the trial ends after two questions
        monkeypatch.setattr(executors, start, 0.0)
    alone = crosscheck_many(SUDOKU, SMALL, ["python", "kanren"])
    auto = crosscheck_many(SUDOKU, SMALL, ["python", "kanren"], workers="auto")
    assert [found(report) for report in auto.reports] == [found(report) for report in alone.reports]
    assert (auto.ran_on, auto.serially) == ("2 processes (auto: one per core), the first 2 in this process", "")


@pytest.mark.subprocess
def test_each_back_end_has_its_seconds_on_each_question_in_the_workers(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Two empty grids counted to a billion: no back end ends, so each stops at its 0.2 s on each question."""
    path = tmp_path / "empty.txt"
    path.write_text(("." * 81 + "\n") * 2, encoding="utf-8")
    code, out, _ = run_cli(capsys, "crosscheck", "sudoku", str(path), "--count", "1000000000", "--backends",
                           "python,kanren", "--seconds", "0.2", "--workers", "2")
    lines = out.splitlines()
    assert code == cli.NOT_COMPARED, out
    for line in lines[:2]:
        assert "NOT COMPARED: no back end answered" in line
        assert line.count("passed its time limit of 0.2 s") == 2, line
    assert lines[2] == "NOT COMPARED: none of 2 sudoku questions had two answers to compare"


def test_a_file_where_nothing_was_compared_says_so_and_exits_not_compared(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "crosscheck", "sudoku", "small", "--backends", "python")
    lines = out.splitlines()
    assert code == cli.NOT_COMPARED == 3
    assert all(line.endswith("NOT COMPARED: only python was asked; a cross-check compares two") for line in lines[:-1])
    assert lines[-1] == "NOT COMPARED: none of 10 sudoku questions had two answers to compare"
    code, out, _ = run_cli(capsys, "crosscheck", "sudoku", "small", "--backends", "python", "--json")
    document = json.loads(out)
    assert code == 3 and (document["verdict"], document["compared"]) == ("not compared", False)


def test_a_wrong_answer_to_one_puzzle_is_a_disagreement_on_its_line(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The python back end made to answer the third puzzle wrong (its first two cells swapped): that line says
    DISAGREEMENT and where, the summary names it, exit 1."""
    solve = sudoku_python.solve

    def wrong_on_the_third(question: Any, budget: Any) -> Found:
        answer = solve(question, budget)
        if question.board.index == 3:
            grid = [list(row) for row in answer.solutions[0]]
            grid[0][0], grid[0][1] = grid[0][1], grid[0][0]
            answer.solutions[0] = grid
        return answer

    monkeypatch.setattr(sudoku_python, "solve", wrong_on_the_third)
    code, out, _ = run_cli(capsys, "crosscheck", "sudoku", "small", "--backends", "python,kanren")
    lines = out.splitlines()
    assert code == 1, out
    assert ": DISAGREEMENT: kanren and python differ at answer" in lines[2]
    assert all(line.endswith("all back ends agree (kanren, python)") for line in lines[:2] + lines[3:-1])
    assert lines[-1].startswith("DISAGREEMENT on 1 of 10 sudoku questions (9 agree, 1 disagree); the first, "
                                "question 3: kanren and python differ at answer")


def test_the_verdict_of_many_is_a_disagreement_over_all_else_agreement_only_when_all_agree() -> None:
    agreed = crosscheck(SUDOKU, SMALL[0], ["python", "kanren"])
    alone = crosscheck(SUDOKU, SMALL[1], ["python"])
    assert (agreed.verdict, alone.verdict) == (AGREE, NOT_COMPARED)
    some = CrossChecks("sudoku", [agreed, alone])
    assert (some.verdict, some.compared) == (NOT_COMPARED, True)
    assert some.summary() == "NOT ALL COMPARED: 1 of 2 sudoku questions had fewer than two answers (1 agree, " \
                             "1 not compared)"
    differing = CrossCheck("sudoku", {}, dict(agreed.results), difference="kanren and python differ at answer[0]")
    assert differing.verdict == DISAGREE
    assert CrossChecks("sudoku", [agreed, alone, differing]).verdict == DISAGREE
    assert CrossChecks("sudoku", [agreed, agreed]).verdict == AGREE
    assert CrossChecks("sudoku", []).verdict == NOT_COMPARED
    assert CrossChecks("sudoku", []).summary() == "NOT COMPARED: none of 0 sudoku questions had two answers to compare"


def test_index_still_picks_one_puzzle_and_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "crosscheck", "sudoku", "small", "--index", "7", "--backends", "python,kanren",
                           "--workers", "2")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith(f"sudoku ({SUDOKU.label(SMALL[6])}); each back end at most")
    assert lines[-1] == "all back ends agree (kanren, python)"


def test_the_api_cross_checks_a_file_as_the_cli_does() -> None:
    checks = api.crosscheck_many("sudoku", "small", backends=["python", "kanren"], count=2)
    assert checks.verdict == AGREE and [report.question for report in checks.reports] == [
        SUDOKU.describe(question) for question in SUDOKU.questions(file="small", count=2)]
    assert all(report.results["python"].count == 1 for report in checks.reports)
    with pytest.raises(ValueError, match="workers"):
        api.crosscheck_many("sudoku", "small", workers=0)


@pytest.mark.parametrize("extra, said", [
    (["--workers", "0"], "argument --workers: give a whole number of at least 1, or auto; not '0'"),
    (["--cluster", "http://host:1"], "--cluster 'http://host:1': the protocol is http://, not tcp://"),
])
def test_bad_parallel_flags_are_one_line_and_exit_2(extra: list[str], said: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "crosscheck", "sudoku", "small", *extra)
    assert (code, out) == (2, "") and said in err and len(err.splitlines()) == 1


# ---------------------------------------------------------------- pysolve check --workers

CLASS = Path(__file__).resolve().parent.parent / "examples" / "class"  # the sample class: correct and wrong rules
RELATIONS = Path(__file__).resolve().parent / "data" / "rules" / "hidato_relations.py"  # a module of relations


def answers_taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each question the check asks was answered already (by a trial here or a pool), as it asks."""
    taken: list[bool] = []
    take = check_module.Ahead.take

    def counted(self: check_module.Ahead, key: str) -> Any:
        answered = take(self, key)
        taken.append(answered is not None)
        return answered

    monkeypatch.setattr(check_module.Ahead, "take", counted)
    return taken


def without_times(report: dict[str, Any]) -> dict[str, Any]:
    """A check's JSON report without what the clock says (each back end's seconds, the ratios to Prolog's)."""
    kept = {key: value for key, value in report.items()
            if key not in ("times", "ratio_to_prolog", "median_ratio_to_prolog")}
    if kept["disagreement"]:
        kept["disagreement"] = {**kept["disagreement"], "answers": {
            name: {**answer, "stats": {}} for name, answer in kept["disagreement"]["answers"].items()}}
    return kept


@pytest.mark.subprocess
@needs_prolog
@pytest.mark.parametrize("rules", ["sudoku/ana.pl", "sudoku/ben.pl", "hidato/eva.pl", "hidato/femi.pl"])
def test_a_check_on_workers_reports_what_it_reports_here_for_the_same_seed(rules: str, tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A rule base that agrees, one that disagrees (shrunk here), one that raises errors, one that runs out of
    memory: the same report, counterexample included, with and without two workers."""
    puzzle, written = rules.split("/")[0], tmp_path / "counterexample.txt"
    argv = ["check", puzzle, str(CLASS / rules), "--seed", "3", "--examples", "20", "--out", str(written), "--json"]
    code, out, _ = run_cli(capsys, *argv)
    here_written = written.read_text() if written.exists() else None
    pooled_code, pooled_out, _ = run_cli(capsys, *argv, "--workers", "2")
    here, pooled = json.loads(out), json.loads(pooled_out)
    assert (pooled_code, without_times(pooled)) == (code, without_times(here))
    assert here["tried"] > 0 and here["verdict"] == {"sudoku/ana.pl": "agree", "sudoku/ben.pl": "disagree",
                                                     "hidato/eva.pl": "errors", "hidato/femi.pl": "unknown"}[rules]
    assert (written.read_text() if written.exists() else None) == here_written  # the same counterexample file


@pytest.mark.subprocess
def test_a_module_of_relations_is_checked_on_workers_its_questions_answered_there(
        monkeypatch: pytest.MonkeyPatch) -> None:
    taken = answers_taken(monkeypatch)
    rules = RELATIONS
    pooled = check_module.check("hidato", rules, examples=12, seed=5, workers=2)
    assert pooled.verdict == check_module.AGREE
    assert taken and all(taken) and len(taken) == pooled.tried  # every question generated was answered ahead
    here = check_module.check("hidato", rules, examples=12, seed=5)
    assert without_times(pooled.to_json()) == without_times(here.to_json())


@pytest.mark.subprocess
def test_python_rules_that_call_sys_exit_are_an_error_on_the_question_here_and_on_workers() -> None:
    rules = CLASS / "hidato" / "hana.py"  # prints the board, then calls sys.exit(0)
    here = check_module.check("hidato", rules, examples=4, seed=1)
    pooled = check_module.check("hidato", rules, examples=4, seed=1, workers=2)
    assert here.verdict == pooled.verdict == check_module.ERRORS
    assert [finding.message for finding in pooled.errors] == [finding.message for finding in here.errors] == \
        ["hana.py raised SystemExit: 0"] * here.tried


def test_a_solver_of_ones_own_is_checked_here_only() -> None:
    def mine(question: Any) -> Found:
        return Found([])

    with pytest.raises(ValueError, match="only a .pl or .py file is checked on workers"):
        check_module.check("sudoku", mine, examples=1, workers=2)


@pytest.mark.subprocess
@pytest.mark.parametrize("rules", [pytest.param("rule base", marks=needs_prolog), "relations"])
@pytest.mark.usefixtures("two_cores")
def test_auto_checks_here_when_questions_are_too_quick_for_workers_and_says_why(
        rules: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = CLASS / "sudoku" / "ben.pl" if rules == "rule base" else RELATIONS
    puzzle = "sudoku" if rules == "rule base" else "hidato"
    here = check_module.check(puzzle, path, examples=30, seed=3, out=None)
    auto = check_module.check(puzzle, path, examples=30, seed=3, out=None, workers="auto")
    assert without_times(auto.to_json()) == without_times(here.to_json()) and here.tried > 0
    assert here.serially == "" and auto.serially.startswith("ran serially (--workers auto): ")
    assert "no search had enough left for 2 workers to save their start" in auto.serially
    code, _, err = run_cli(capsys, "check", puzzle, str(path), "--seed", "3", "--examples", "30", "--workers", "auto",
                           "--out", str(tmp_path / "counterexample.txt"))
    assert code == {"sudoku": 1, "hidato": 0}[puzzle] and err.startswith("pysolve: ran serially (--workers auto)")


@pytest.mark.subprocess
@pytest.mark.usefixtures("two_cores")
def test_auto_checks_on_workers_once_a_trial_says_they_pay(monkeypatch: pytest.MonkeyPatch) -> None:
    for start in ("START_SECONDS", "FORKED_START_SECONDS"):  # any rest pays: each trial ends after two questions
        monkeypatch.setattr(executors, start, 0.0)
    taken = answers_taken(monkeypatch)
    rules = RELATIONS
    auto = check_module.check("hidato", rules, examples=12, seed=5, workers="auto")
    assert auto.serially == "" and taken and all(taken)  # every question answered by the trial or the pool
    here = check_module.check("hidato", rules, examples=12, seed=5)
    assert without_times(auto.to_json()) == without_times(here.to_json())
