"""The CLI contract of the foundation: back ends, solve, crosscheck, query, bad input, fallback."""

from __future__ import annotations

import io
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_busy import cpu_of

from pysolve import budget as budget_module
from pysolve import files
from pysolve.cli import main
from pysolve.errors import InputError
from pysolve.pytest_plugin import needs_prolog
from pysolve.report import Ticker


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@needs_prolog
def test_backends_lists_all_three_with_versions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "backends", "--json")
    data = json.loads(out)
    assert code == 0
    assert [b["name"] for b in data["backends"]] == ["prolog", "kanren", "python"]
    assert all(b["available"] and b["version"] for b in data["backends"])
    assert data["default"] == "prolog"
    assert "SWI-Prolog 9" in data["backends"][0]["version"]


@needs_prolog
def test_solve_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "solve", "fichas", "--m", "2", "--n", "2", "--strategy", "bfs", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["puzzle"] == "fichas" and data["backend"] == "prolog"
    assert data["solutions"] == [["BBHVV", "BBVVH", "BHVVB", "BVVHB", "HVVBB", "VVHBB"]]
    assert data["stats"]["states"] == 93 and data["stats"]["seconds"] >= 0


def test_solve_text_draws_the_boards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "solve", "fichas", "--m", "1", "--n", "2", "--flavour", "py", "--backend", "kanren")
    assert code == 0
    assert out.splitlines()[0].split() == ["0", "|B|", "|V|V|"]
    assert re.fullmatch(r"\[kanren: solved in [0-9.]+ m?s, \d+ states\]", out.splitlines()[-1])


@needs_prolog
def test_crosscheck_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "crosscheck", "fichas", "--m", "2", "--n", "3", "--strategy", "dfs", "--json")
    data = json.loads(out)
    assert code == 0 and data["agree"] is True
    assert set(data["results"]) == {"prolog", "kanren", "python"}
    paths = {name: result["solutions"] for name, result in data["results"].items()}
    assert len({json.dumps(p) for p in paths.values()}) == 1


@pytest.mark.subprocess
@needs_prolog
def test_query_prints_bindings_of_a_goal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "query", "fichas", "move('BHV', Next)")
    assert code == 0
    assert out.splitlines() == ["Next = 'HBV' ;", "Next = 'BVH' ;", "false."]  # as SWI-Prolog's top level
    code, out, _ = run_cli(capsys, "query", "fichas", "move('BHV', 'VVV')")
    assert out.strip() == "false."


@pytest.mark.subprocess
@needs_prolog
def test_query_json_on_a_users_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "family.pl"
    rules.write_text("parent(tom, bob).\nparent(bob, ann).\ngrand(X, Z) :- parent(X, Y), parent(Y, Z).\n")
    code, out, _ = run_cli(capsys, "query", str(rules), "grand(tom, Who)", "--json")
    assert code == 0
    assert json.loads(out) == {"solutions": [{"Who": "ann"}], "answers": ["Who = ann"], "status": "complete"}


@pytest.mark.subprocess
@needs_prolog
def test_query_errors_are_one_line_unless_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "query", "fichas", "foo(")
    assert code == 2 and err == "pysolve: error: goal 'foo(' in fichas: Syntax error: Unexpected end of clause\n"
    code, _, err = run_cli(capsys, "query", "fichas", "foo(", "--verbose")
    assert code == 2 and "** here **" in err and len(err.splitlines()) > 2


@pytest.mark.subprocess
@needs_prolog
def test_query_names_variables_and_cuts_huge_values(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(capsys, "query", "fichas", "X = f(Y, Z, Y), length(L, 2)")
    assert out.splitlines() == ["X = f(Y, Z, Y),", "L = [_, _]."]
    whole = "L = [" + ", ".join(map(str, range(1, 20001))) + "]"
    _, out, _ = run_cli(capsys, "query", "fichas", "numlist(1, 20000, L)")
    assert out == f"{whole[:200]}... ({len(whole):,} characters; --max-width 0 shows all).\n"
    _, out, _ = run_cli(capsys, "query", "fichas", "numlist(1, 20000, L)", "--max-width", "0")
    assert out == f"{whole}.\n"
    _, out, _ = run_cli(capsys, "query", "fichas", "numlist(1, 20000, L)", "--json")
    assert json.loads(out)["solutions"][0]["L"] == list(range(1, 20001))


@pytest.mark.subprocess
@needs_prolog
def test_a_prolog_stack_overflow_is_a_budget_outcome_not_a_dump(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "query", "fichas", "numlist(1, 200000000, L)", "--seconds", "30")
    assert code == 3
    assert re.fullmatch(r"unknown\.  % stopped: the goal passed its memory limit \(the Prolog stack limit of "
                        r"[0-9.]+ GB\)\n", out)  # the child's stack: a share of the run's memory bound


@pytest.mark.parametrize("argv, message", [
    (["solve", "fichas", "--m", "-2", "--n", "2"], "order m=-2 is out of range"),
    (["solve", "fichas", "--m", "2", "--n", "1000"], "order n=1000 is out of range"),
    (["solve", "fichas", "--m", "x", "--n", "2"], "--m: 'x' is not an integer"),
    (["solve", "fichas", "--m", "2", "--n", "2", "--strategy", "magic"], "--strategy: 'magic' is not one of dfs, "),
    (["solve", "fichas", "--n", "2"], "the following arguments are required: --m"),
    (["solve", "fichas", "--m", "2", "--n", "2", "--backend", "java"], "invalid choice: 'java'"),
    (["solve", "fichas", "--m", "2", "--n", "2", "--strategy", "astar", "--backend", "prolog"], "does not answer"),
    (["solve", "nopuzzle"], "invalid choice: 'nopuzzle'"),
    (["crosscheck", "fichas", "--m", "1", "--n", "1", "--backends", "prolog,cobol"], "unknown back end 'cobol'"),
    (["query", "nothere", "true"], "unknown rule base 'nothere'"),
    pytest.param(["query", "fichas", "foo("], "Syntax error", marks=needs_prolog),
    (["query", "fichas", "true", "--seconds", "-1"], "-1.0 is not a time limit"),
    (["solve", "fichas", "--m", "1", "--n", "1", "--memory", "lots"], "--memory 'lots': give a size such as 512M"),
    (["solve", "fichas", "--m", "1", "--n", "1", "--memory", "1K"], "too small to start a search"),
])
@pytest.mark.subprocess
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run_cli(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert err.startswith("pysolve")


LONG_SEARCHES = {"prolog": ["7", "dfs"], "kanren": ["6", "shortest"], "python": ["7", "dfs"]}


def interrupted(started: subprocess.Popen[str]) -> tuple[str, str, float]:
    """Send SIGINT to a running child process and wait for it (a 30 s hang guard): its output, and the CPU
    seconds it spent after the signal (its work's clock, whatever else the machine is doing)."""
    assert started.poll() is None, started.communicate()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    at_signal = cpu_of(started.pid)
    started.send_signal(signal.SIGINT)
    try:
        out, err = started.communicate(timeout=30)
    finally:
        if started.poll() is None:  # the interrupt was lost: the child is not left running past its test
            started.kill()
            started.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return out, err, spent - at_signal


@pytest.mark.subprocess
def test_ctrl_c_ends_a_long_search_within_a_second(pysolve_backend: str) -> None:
    order, strategy = LONG_SEARCHES[pysolve_backend]
    started = subprocess.Popen([sys.executable, "-m", "pysolve.cli", "solve", "fichas", "--m", order, "--n", order,
                                "--strategy", strategy, "--backend", pysolve_backend], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    time.sleep(3.0)  # past start-up, deep in the search
    out, err, after_signal = interrupted(started)
    assert after_signal < 1.0
    assert started.returncode == 130 and err == "pysolve: interrupted\n" and out == ""


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the swallowed one, on purpose
def test_an_interrupt_swallowed_by_a_finaliser_still_ends_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget_module, "_interrupted", False)
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)  # no second delivery: the budget's check alone

    class Dropped:
        def __del__(self) -> None:  # Python prints and drops an exception raised here
            budget_module.on_interrupt(signal.SIGINT, None)

    Dropped()
    search = budget_module.Budget(label="long search")
    with pytest.raises(KeyboardInterrupt):
        for _ in range(budget_module.MAX_STRIDE):
            search.spend()


@pytest.mark.slow
def test_a_long_search_ticks_on_a_terminal_and_leaves_the_line_clean() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    with Ticker("tangram: searching", stream=screen, every=0.05):
        time.sleep(0.3)
    shown = screen.getvalue()
    assert "\rtangram: searching 0 s" in shown and shown.endswith("\r")  # cleared when the search ends
    quiet = io.StringIO()  # not a terminal: a pipe or a file gets nothing
    with Ticker("tangram: searching", stream=quiet, every=0.05):
        time.sleep(0.1)
    assert quiet.getvalue() == ""


LOOP_WITHOUT_BUDGET = """
import signal, sys, time
from pysolve import budget
signal.signal(signal.SIGINT, budget.on_interrupt)
sys.unraisablehook = budget.unraisable  # as the CLI installs them

class Dropped:
    def __del__(self):  # the interrupt arrives while a finaliser runs: Python would drop it
        signal.raise_signal(signal.SIGINT)
        sum(range(1000))

try:
    Dropped()
    while time.process_time() < 10:  # work that checks no budget
        sum(range(1000))
    print("the interrupt was lost")
except KeyboardInterrupt:
    print("interrupted")
"""


@pytest.mark.subprocess
def test_an_interrupt_lost_in_a_finaliser_is_silent_and_still_ends_work_that_checks_no_budget() -> None:
    run_ = subprocess.run([sys.executable, "-c", LOOP_WITHOUT_BUDGET], capture_output=True, text=True, timeout=60)
    assert (run_.stdout, run_.stderr) == ("interrupted\n", "")  # Python's report would break the one line


def test_other_unraisable_errors_are_reported(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(budget_module, "_interrupted", True)
    monkeypatch.setattr(sys, "unraisablehook", budget_module.unraisable)  # as the CLI installs it

    class Dropping:
        def __del__(self) -> None:  # Python hands an exception raised here to sys.unraisablehook
            raise ValueError("a finaliser's own bug")

    Dropping()
    assert "a finaliser's own bug" in capsys.readouterr().err


@pytest.mark.slow
def test_a_search_too_deep_for_python_answers_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "solve", "fichas", "--m", "7", "--n", "7", "--strategy", "dfs",
                             "--backend", "kanren")
    assert code == 0 and err == ""
    assert out.splitlines()[-2] == ("no answer: kanren fichas search went deeper than Python's recursion limit "
                                    "(1000 frames)")
    assert re.fullmatch(r"\[kanren: unknown after [0-9.]+ m?s\]", out.splitlines()[-1])



def test_a_run_in_process_gives_the_memory_bound_back(capsys: pytest.CaptureFixture[str]) -> None:
    before = resource.getrlimit(resource.RLIMIT_AS)
    assert main(["solve", "fichas", "--m", "1", "--n", "1", "--backend", "python", "--memory", "2G"]) == 0
    assert resource.getrlimit(resource.RLIMIT_AS) == before  # a browser started later must not inherit 2 GB

@pytest.mark.subprocess
@pytest.mark.pysolve_backends("prolog", "python")  # kanren has no breadth-first search to grow
def test_a_search_past_the_memory_bound_answers_unknown(pysolve_backend: str) -> None:
    ran = subprocess.run([sys.executable, "-m", "pysolve.cli", "solve", "fichas", "--m", "6", "--n", "6", "--strategy",
                          "bfs", "--backend", pysolve_backend, "--memory", "300M", "--json"],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    assert ran.returncode == 0, ran.stderr
    answer = json.loads(ran.stdout)
    assert answer["status"] == "unknown"
    assert answer["stats"]["reason"] in (
        f"{pysolve_backend} fichas search ran out of memory (the memory bound of 300 MB)",
        "Prolog bfs search passed its memory limit (the Prolog stack limit of 0.1 GB)")


def test_output_files_are_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "picture.svg"
    assert files.write_text(target, "<svg/>", "--svg") == str(target) and target.read_text() == "<svg/>"
    mask = os.umask(0o022)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask  # as readable as a file written with open()
    with pytest.raises(InputError, match=r"^--svg '.*missing/picture.svg': the directory '.*missing' does not exist$"):
        files.write_text(tmp_path / "missing" / "picture.svg", "<svg/>", "--svg")
    with pytest.raises(InputError, match="is a directory"):
        files.write_text(tmp_path, "<svg/>", "--svg")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    if os.geteuid() != 0:  # root writes anywhere
        with pytest.raises(InputError, match="cannot write: Permission denied"):
            files.write_text(locked / "picture.svg", "<svg/>", "--svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["locked", "picture.svg"]  # no temporary left


def run_hidden_prolog(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYSOLVE_NO_PROLOG="1")
    return subprocess.run([sys.executable, "-m", "pysolve.cli", *argv], capture_output=True, text=True,
                          env=env, stdin=subprocess.DEVNULL, timeout=300)


@pytest.mark.subprocess
def test_without_prolog_everything_falls_back_to_kanren_and_python() -> None:
    listing = run_hidden_prolog("backends", "--json")
    data = json.loads(listing.stdout)
    assert data["default"] == "kanren"
    prolog = data["backends"][0]
    assert prolog["available"] is False and "PYSOLVE_NO_PROLOG" in prolog["reason"]

    solved = run_hidden_prolog("solve", "fichas", "--m", "1", "--n", "2", "--flavour", "py", "--json")
    assert solved.returncode == 0, solved.stderr
    answer = json.loads(solved.stdout)
    assert answer["backend"] == "kanren" and answer["solutions"] == [["BHVV", "BVVH", "HVVB", "VVHB"]]

    checked = run_hidden_prolog("crosscheck", "fichas", "--m", "2", "--n", "2", "--json")
    report = json.loads(checked.stdout)
    assert checked.returncode == 0 and report["agree"]
    assert set(report["results"]) == {"kanren", "python"} and "prolog" in report["skipped"]

    refused = run_hidden_prolog("solve", "fichas", "--m", "1", "--n", "1", "--backend", "prolog")
    assert refused.returncode == 2 and "unavailable" in refused.stderr and "Traceback" not in refused.stderr


PUZZLE_WORDS = (["fichas"], ["tangram"], ["hidato"], ["azul"], ["squares"], ["sudoku"])


@pytest.mark.subprocess
def test_the_demo_without_prolog_answers_every_puzzle_on_kanren_and_python() -> None:
    demo = run_hidden_prolog("demo")
    assert demo.returncode == 0, demo.stderr
    assert "prolog (unavailable: SWI-Prolog is hidden by PYSOLVE_NO_PROLOG=1)" in demo.stdout
    rows = [line.split() for line in demo.stdout.splitlines() if line.split()[:1] in PUZZLE_WORDS]
    assert {row[0] for row in rows} == {"fichas", "tangram", "hidato", "azul", "squares", "sudoku"}
    answered = {row[0] for row in rows if "solved" in row and ("kanren" in row or "python" in row)}
    assert answered == {"fichas", "tangram", "hidato", "azul", "squares", "sudoku"}
    assert all("solved" not in row for row in rows if "prolog" in row)
    assert all(row[-1] in ("yes", "-") for row in rows)  # "-": only one back end answered
    assert {row[0] for row in rows if row[-1] == "-"} <= {"fichas"}
    assert demo.stdout.splitlines()[-1].endswith(" 0 disagreed")
    questions = [line.split(" python ")[0].strip() for line in demo.stdout.splitlines()
                 if line.split()[:1] in PUZZLE_WORDS]
    assert len(questions) >= 14 and len(set(questions)) == len(questions)  # every row's question reads apart
    assert "..." not in demo.stdout and str(Path.cwd()) not in demo.stdout and "/data/" not in demo.stdout
