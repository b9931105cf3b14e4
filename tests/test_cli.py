"""The CLI contract of the foundation: back ends, solve, crosscheck, query, bad input, fallback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pysolve.cli import main
from pysolve.pytest_plugin import needs_prolog


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
    assert "[kanren: solved;" in out


@needs_prolog
def test_crosscheck_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "crosscheck", "fichas", "--m", "2", "--n", "3", "--strategy", "dfs", "--json")
    data = json.loads(out)
    assert code == 0 and data["agree"] is True
    assert set(data["results"]) == {"prolog", "kanren", "python"}
    paths = {name: result["solutions"] for name, result in data["results"].items()}
    assert len({json.dumps(p) for p in paths.values()}) == 1


@needs_prolog
def test_query_prints_bindings_of_a_goal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "query", "fichas", "move('BHV', Next)")
    assert code == 0
    assert out.splitlines() == ["Next = HBV", "Next = BVH"]
    code, out, _ = run_cli(capsys, "query", "fichas", "move('BHV', 'VVV')")
    assert out.strip() == "false."


@needs_prolog
def test_query_json_on_a_users_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "family.pl"
    rules.write_text("parent(tom, bob).\nparent(bob, ann).\ngrand(X, Z) :- parent(X, Y), parent(Y, Z).\n")
    code, out, _ = run_cli(capsys, "query", str(rules), "grand(tom, Who)", "--json")
    assert code == 0
    assert json.loads(out) == {"solutions": [{"Who": "ann"}], "status": "complete"}


@pytest.mark.parametrize("argv, message", [
    (["solve", "fichas", "--m", "-2", "--n", "2"], "order m=-2 is out of range"),
    (["solve", "fichas", "--m", "2", "--n", "1000"], "order n=1000 is out of range"),
    (["solve", "fichas", "--m", "x", "--n", "2"], "invalid int value"),
    (["solve", "fichas", "--m", "2", "--n", "2", "--strategy", "magic"], "invalid choice: 'magic'"),
    (["solve", "fichas", "--m", "2", "--n", "2", "--backend", "java"], "invalid choice: 'java'"),
    (["solve", "fichas", "--m", "2", "--n", "2", "--strategy", "bfs", "--backend", "kanren"], "does not answer"),
    (["solve", "nopuzzle"], "invalid choice: 'nopuzzle'"),
    (["crosscheck", "fichas", "--m", "1", "--n", "1", "--backends", "prolog,cobol"], "unknown back end 'cobol'"),
    (["query", "nothere", "true"], "unknown rule base 'nothere'"),
    pytest.param(["query", "fichas", "foo("], "Syntax error", marks=needs_prolog),
    (["query", "fichas", "true", "--seconds", "-1"], "not a positive number"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert err.startswith("pysolve")


def run_hidden_prolog(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYSOLVE_NO_PROLOG="1")
    return subprocess.run([sys.executable, "-m", "pysolve.cli", *argv], capture_output=True, text=True,
                          env=env, stdin=subprocess.DEVNULL, timeout=300)


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


def test_the_demo_without_prolog_answers_every_puzzle_on_kanren_and_python() -> None:
    demo = run_hidden_prolog("demo")
    assert demo.returncode == 0, demo.stderr
    assert "prolog (unavailable: SWI-Prolog is hidden by PYSOLVE_NO_PROLOG=1)" in demo.stdout
    rows = [line.split() for line in demo.stdout.splitlines() if line.split()[:1] in (["fichas"], ["tangram"],
                                                                                       ["hidato"], ["azul"], ["squares"])]
    assert {row[0] for row in rows} == {"fichas", "tangram", "hidato", "azul", "squares"}
    answered = {row[0] for row in rows if "solved" in row and ("kanren" in row or "python" in row)}
    assert answered == {"fichas", "tangram", "hidato", "azul", "squares"}
    assert all("solved" not in row for row in rows if "prolog" in row)
    assert all(row[-1] == "yes" for row in rows)
    assert "agreed across back ends" in demo.stdout.splitlines()[-1]
