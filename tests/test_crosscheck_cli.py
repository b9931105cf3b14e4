"""`pysolve crosscheck` and its web endpoint mean what they say: agreement needs two answers, every back end
that gave none is named with its reason, each back end has its own time limit and the fast ones answer first;
`pysolve query` says unknown when a limit stopped a goal."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from test_web import error_of, serving

from pysolve import cli, puzzles
from pysolve.agreement import SECONDS, crosscheck
from pysolve.bridge import HIDE_VARIABLE
from pysolve.pytest_plugin import needs_prolog
from pysolve.report import CrossCheckPrinter
from pysolve.tangram.generate import generate

ROOT = Path(__file__).resolve().parent.parent
HIDDEN = bool(os.environ.get(HIDE_VARIABLE))


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def prolog_row(status: str) -> str:
    """What the prolog row's status is here: `status`, or `unavailable` with Prolog hidden on purpose."""
    return "unavailable" if HIDDEN else status


@pytest.mark.slow
def test_one_answer_is_not_compared_and_the_silent_back_ends_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    asked = ("crosscheck", "fichas", "--m", "3", "--n", "2", "--strategy", "astar", "--backends", "prolog,python")
    code, out, err = run_cli(capsys, *asked)  # A* is kanren's and python's: prolog declines it
    lines = out.splitlines()
    assert code == cli.NOT_COMPARED == 3, out + err
    assert lines[0] == f"fichas (m=3, n=2, strategy=astar, flavour=hs); each back end at most {SECONDS:g} s"
    rows = {line.split()[0]: line.split()[1] for line in lines[3:-1]}
    assert rows == {"prolog": "declined", "python": "solved"}
    assert lines[-1] == ("NOT COMPARED: only python answered (prolog: declined: prolog does not answer this fichas "
                         "question)")
    assert "agree" not in out
    code, out, _ = run_cli(capsys, *asked, "--json")
    report = json.loads(out)
    assert code == 3 and (report["verdict"], report["compared"], report["agree"]) == ("not compared", False, False)
    assert list(report["results"]) == ["python"]
    assert report["declined"] == {"prolog": "declined: prolog does not answer this fichas question"}
    assert report["skipped"] == {}  # no back end that answers such a question failed to
    code, out, _ = run_cli(capsys, *asked[:-2])  # every back end: kanren answers A* too
    assert code == 0 and out.splitlines()[-1] == ("the answers of kanren, python agree; not compared (prolog: "
                                                  "declined: prolog does not answer this fichas question)")


@pytest.mark.subprocess
def test_hidden_prolog_is_named_unavailable_and_two_answers_still_agree() -> None:
    env = {**os.environ, HIDE_VARIABLE: "1"}
    ran = subprocess.run([sys.executable, "-m", "pysolve.cli", "crosscheck", "fichas", "--m", "2", "--n", "2",
                          "--strategy", "bfs", "--backends", "prolog,python"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert ran.returncode == 3, ran.stdout + ran.stderr
    assert ran.stdout.splitlines()[-1] == ("NOT COMPARED: only python answered (prolog: unavailable: SWI-Prolog is "
                                           "hidden by PYSOLVE_NO_PROLOG=1)")
    ran = subprocess.run([sys.executable, "-m", "pysolve.cli", "crosscheck", "fichas", "--m", "2", "--n", "2",
                          "--json"], capture_output=True, text=True, env=env, timeout=120)
    report = json.loads(ran.stdout)
    assert ran.returncode == 0 and report["verdict"] == "agree" and list(report["results"]) == ["kanren", "python"]
    assert report["summary"] == ("the answers of kanren, python agree; not compared (prolog: unavailable: "
                                 "SWI-Prolog is hidden by PYSOLVE_NO_PROLOG=1)")


@pytest.fixture(scope="module")
def readme_board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's board: `pysolve generate hidato --rows 8 --cols 8 --seed 7`."""
    _, text = puzzles.get("hidato").generated(rows=8, cols=8, seed=7)
    path = tmp_path_factory.mktemp("readme") / "hidato-8x8-seed7.txt"
    path.write_text(text + "\n")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["hidato", "README"], ["hidato", "README", "--count", "2"],
    ["sudoku", "data/sudoku/hardest.txt", "--index", "11"], ["sudoku", "data/sudoku/hardest.txt", "--index", "11",
                                                             "--strategy", "plain"],
])
def test_the_slowest_readme_and_shipped_instances_end_within_ten_seconds_every_back_end_shown(
        argv: list[str], readme_board: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(readme_board) if word == "README" else str(ROOT / word) if word.startswith("data/") else word
            for word in argv]
    started = time.process_time()  # the CPU of every back end's lane, and of Prolog: all in this process
    code, out, _ = run_cli(capsys, "crosscheck", *argv)
    took = time.process_time() - started
    assert took < 10.0, out
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[3:-1]}
    assert set(rows) == {"prolog", "kanren", "python"}, out
    assert rows["prolog"] in (prolog_row("solved"), "unknown")
    assert {rows["kanren"], rows["python"]} <= {"solved", "unknown"}
    assert code in (0, 3) and "DISAGREEMENT" not in out, out


@pytest.mark.slow
def test_a_slow_back_end_answers_unknown_within_its_own_seconds(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A generated 20x20 tangram counted: miniKanren needs a few seconds, the others under one; their answers come
    first and the cross-check ends within its --seconds (and a bit)."""
    board = tmp_path / "tangram.txt"
    board.write_text(generate(20, 20, 14, 9, min_side=2, distinct=True).to_text())
    started = time.process_time()  # the CPU of every back end's lane, and of Prolog: all in this process
    _, out, _ = run_cli(capsys, "crosscheck", "tangram", str(board), "--count", "--seconds", "1")
    took = time.process_time() - started
    lines = out.splitlines()
    assert took < 4.0, out
    kanren = next(line for line in lines if line.startswith("kanren "))
    assert lines[0].endswith("; each back end at most 1 s")
    assert kanren.split()[:2] == ["kanren", "unknown"] and "passed its time limit of 1 s" in kanren, out
    assert "kanren: unknown: tangram search passed its time limit of 1 s" in lines[-1]


def test_seconds_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "crosscheck", "fichas", "--m", "1", "--n", "1", "--seconds", "inf")
    assert code == 2 and "--seconds" in err and len(err.splitlines()) == 1


class Terminal(io.StringIO):
    """A stream that says it is a terminal (as stderr is, in a shell)."""

    def isatty(self) -> bool:
        return True


def test_on_a_terminal_rows_come_as_back_ends_end_with_a_line_as_each_starts_and_ends() -> None:
    out, progress = Terminal(), Terminal()
    fichas = puzzles.get("fichas")
    printer = CrossCheckPrinter(fichas, out=out, progress=progress)
    report = crosscheck(fichas, fichas.question(m=2, n=2, strategy="dfs"), seconds=5, watch=printer)
    printer.close(report)
    asked = ["kanren", "python"] if HIDDEN else ["prolog", "kanren", "python"]
    notes = progress.getvalue().splitlines()
    assert sorted(notes) == sorted([f"[crosscheck] {name} started" for name in asked]
                                   + [f"[crosscheck] {name} finished: solved" for name in asked]
                                   + (["[crosscheck] prolog finished: unavailable"] if HIDDEN else []))
    lines = out.getvalue().splitlines()
    finished = [note.split()[1] for note in notes if "finished" in note]
    assert [line.split()[0] for line in lines[3:-1]] == finished  # in the order they ended
    assert lines[-1] == report.summary()


def test_elsewhere_the_table_comes_whole_in_order_and_no_progress() -> None:
    out, progress = io.StringIO(), io.StringIO()
    fichas = puzzles.get("fichas")
    printer = CrossCheckPrinter(fichas, out=out, progress=progress)
    report = crosscheck(fichas, fichas.question(m=2, n=2), watch=printer)
    assert out.getvalue() == ""  # nothing until the end
    printer.close(report)
    assert [line.split()[0] for line in out.getvalue().splitlines()[3:-1]] == ["prolog", "kanren", "python"]
    assert progress.getvalue() == ""


@pytest.mark.subprocess
@needs_prolog
def test_a_query_a_limit_stopped_is_unknown_not_false(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "query", "fichas", "between(1, inf, X)", "--seconds", "1")
    assert code == cli.STOPPED == 3 and out == "unknown.  % stopped: the goal passed its time limit of 1 s\n"
    assert "false" not in out + err
    code, out, _ = run_cli(capsys, "query", "fichas", "between(1, inf, X)", "--seconds", "1", "--json")
    assert code == 3 and json.loads(out) == {"solutions": [], "answers": [], "status": "unknown",
                                             "limit": "time_limit", "reason": "the goal passed its time limit of 1 s"}
    code, out, _ = run_cli(capsys, "query", "fichas", "move('BHV', 'VVV')")
    assert (code, out) == (0, "false.\n")


# ---------------------------------------------------------------- the web endpoint


@pytest.fixture(scope="module")
def web(pysolve_backends: list[str]) -> Iterator[httpx.Client]:
    with serving(pysolve_backends[0]) as url, \
            httpx.Client(base_url=url, timeout=60, headers={"Content-Type": "application/json"}) as client:
        yield client


def test_the_web_report_names_every_back_end_and_the_verdict(web: httpx.Client) -> None:
    asked = {"puzzle": "fichas", "options": {"m": 3, "n": 2, "strategy": "astar"}, "backends": ["prolog", "python"]}
    report = web.post("/api/crosscheck", json=asked).json()
    assert (report["verdict"], report["compared"], report["agree"]) == ("not compared", False, False)
    assert report["summary"].startswith("NOT COMPARED: only python answered (prolog: ")
    assert [row["backend"] for row in report["results"]] == ["python"]
    missing = {row["backend"]: (row["status"], row["reason"]) for row in report["missing"]}
    assert set(missing) == {"prolog"}
    assert missing["prolog"] == ("declined", "prolog does not answer this fichas question")  # running here or not
    assert report["limit_seconds"] == SECONDS and 0 < report["seconds"] < SECONDS  # the limit, and the time taken


@pytest.mark.slow
def test_the_web_gives_each_back_end_its_own_seconds(web: httpx.Client) -> None:
    asked = {"puzzle": "sudoku", "options": {"file": {"text": "." * 81, "name": "empty.txt"}, "count": 10**9,
                                             "seconds": 0.5}, "backends": ["kanren", "python"]}
    started = time.process_time()  # the server runs in this process: its CPU, every lane's
    report = web.post("/api/crosscheck", json=asked).json()
    assert time.process_time() - started < 3.0  # each within its 0.5 s, never the request's 30 s
    assert report["limit_seconds"] == 0.5 and report["verdict"] == "not compared"
    assert {row["backend"]: row["status"] for row in report["missing"]} == {"kanren": "unknown", "python": "unknown"}
    assert all("time limit of 0.5 s" in row["reason"] for row in report["missing"])


def test_web_errors_name_the_form_field(web: httpx.Client) -> None:
    assert error_of(web.post("/api/crosscheck", json={"puzzle": "fichas"}), 400) == "m is required"
    assert error_of(web.post("/api/crosscheck", json={"puzzle": "fichas", "options": {"m": "x", "n": 2}}),
                    400).startswith("M: 'x' is not an integer")
    assert error_of(web.post("/api/crosscheck", json={"puzzle": "fichas", "options": {
        "m": 1, "n": 1, "seconds": "soon"}}), 400) == "Seconds: 'soon' is not a number"
