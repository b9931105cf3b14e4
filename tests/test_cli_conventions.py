"""What a newcomer meets first on the command line (issue 40): `--version`, the commands listed, every `--json`
one JSON document, names that say one thing, the back end that answered and why, and one line for bad input."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import pysolve
from pysolve import cli
from pysolve.pytest_plugin import needs_prolog

CLASS = Path(__file__).resolve().parent.parent / "examples" / "class"  # the sample class: correct and wrong rule bases


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version_and_a_bare_pysolve_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--version")
    assert code == 0 and out == f"pysolve {pysolve.__version__}\n"
    code, out, err = run_cli(capsys)
    assert code == 2 and out == ""
    for command in ("solve", "crosscheck", "check", "generate", "list", "trace", "serve"):
        assert f"\n    {command} " in err


def test_serve_help_lists_every_page(capsys: pytest.CaptureFixture[str]) -> None:
    from pysolve.web.app import listed_pages

    code, out, _ = run_cli(capsys, "serve", "--help")
    paths = [path for path, *_ in listed_pages()]
    assert code == 0 and len(paths) == 8 and "/crosscheck" in paths
    assert all(path in " ".join(out.split()) for path in paths)


def taking(flag: str, parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command (its words) whose parser takes `flag`."""
    if isinstance(parser, cli.Parser):
        parser.filled()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from taking(flag, sub, (*path, name))
        elif flag in action.option_strings:
            yield path


def with_json(parser: argparse.ArgumentParser) -> Iterator[tuple[str, ...]]:
    """Every command (its words) whose parser takes --json."""
    return taking("--json", parser)


SEEDED = sorted(taking("--seed", cli.build_parser()))


def test_commands_with_a_seed_are_found() -> None:
    assert {("generate", "sudoku"), ("azul", "simulate"), ("grade",)} <= set(SEEDED)


@pytest.mark.parametrize("command", SEEDED, ids=" ".join)
def test_a_negative_seed_is_one_line_and_exit_2(command: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    """A negative seed would deal what its positive one deals: every --seed takes a whole number from 0."""
    code, out, err = run_cli(capsys, *command, "--seed", "-5")
    assert code == 2 and out == "" and err.count("\n") == 1 and "--seed" in err and "-5" in err, err


CHECKED = ("--examples", "2", "--seed", "1", "--out", "{tmp}/counterexample.txt")
SPAWNS = pytest.mark.subprocess  # the rules' own questions and a query's goal run in a child process
JSON_RUNS = {  # a quick run of every command that takes --json
    ("backends",): [],
    ("list",): [],
    ("solve", "azul"): ["--seed", "1", "--backend", "python"],
    ("solve", "fichas"): ["--m", "1", "--n", "1"],
    ("solve", "hidato"): ["sample"],
    ("solve", "squares"): ["--count"],
    ("solve", "sudoku"): ["easy"],  # a file of two puzzles: one document still
    ("solve", "tangram"): ["--count", "--backend", "python"],
    ("crosscheck", "azul"): ["--seed", "1"],
    ("crosscheck", "fichas"): ["--m", "1", "--n", "1"],
    ("crosscheck", "hidato"): ["sample"],
    ("crosscheck", "squares"): ["--count"],
    ("crosscheck", "sudoku"): ["easy", "--index", "1"],
    ("crosscheck", "tangram"): ["--count"],
    ("generate", "hidato"): ["--seed", "1"],
    ("generate", "squares"): ["--seed", "1"],
    ("generate", "sudoku"): ["--size", "4", "--seed", "1"],
    ("generate", "tangram"): ["--seed", "1", "--width", "4", "--height", "4", "--pieces", "3"],
    ("azul", "simulate"): ["--games", "1", "--backend", "python"],
    ("azul", "crosscheck"): ["--games", "1", "--backends", "python,kanren"],
    ("azul", "tournament"): ["random", "greedy", "--games", "2", "--backend", "python"],
    ("query",): ["fichas", "move('BHV', Next)"],
    **{("check", puzzle): [str(CLASS / puzzle / "ana.pl"), *CHECKED, "--max-size", size] for puzzle, size in (
        ("fichas", "2"), ("hidato", "2"), ("sudoku", "4"), ("squares", "2"), ("tangram", "2"))},
}


def test_every_command_that_takes_json_is_run_below() -> None:
    assert set(with_json(cli.build_parser())) == set(JSON_RUNS)


@pytest.mark.parametrize("command", [
    pytest.param(command, id=" ".join(command),
                 marks=[SPAWNS, needs_prolog] if command[0] in ("check", "query") else [])
    for command in JSON_RUNS])
def test_json_is_exactly_one_document(command: tuple[str, ...], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*command, *(word.format(tmp=tmp_path) for word in JSON_RUNS[command]), "--json"]
    code, out, err = run_cli(capsys, *argv)
    assert code in (0, 3), err  # 3: a cross-check or a query with no verdict prints its JSON all the same
    document = json.loads(out)  # one document: json.loads refuses anything after it
    assert isinstance(document, (dict, list)) and document


# --- names that say one thing ------------------------------------------------------------------------------------

def test_crosscheck_json_names_the_limit_apart_from_the_time_taken(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "crosscheck", "fichas", "--m", "1", "--n", "1", "--seconds", "3", "--json")
    report = json.loads(out)
    assert code == 0 and report["limit_seconds"] == 3 and 0 < report["seconds"] != 3
    assert all(answer["stats"]["seconds"] <= report["seconds"] for answer in report["results"].values())


def test_one_back_end_asked_is_said_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "crosscheck", "fichas", "--m", "1", "--n", "1", "--backends", "python")
    assert code == cli.NOT_COMPARED
    assert out.splitlines()[-1] == "NOT COMPARED: only python was asked; a cross-check compares two"
    nobody = pysolve.crosscheck("fichas", m=1, n=1, backends=[])
    assert nobody.summary() == "NOT COMPARED: no back end was asked; a cross-check compares two"


def test_a_puzzle_picked_by_index_is_labelled_by_it_and_its_line(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = tmp_path / "small.txt"
    puzzles.write_text("# three puzzles\n" + "\n".join(["." * 16, "1" + "." * 15, "12" + "." * 14]) + "\n")
    code, out, _ = run_cli(capsys, "crosscheck", "sudoku", str(puzzles), "--index", "3", "--backends",
                           "python,kanren")
    assert code == 0 and out.startswith("sudoku (small.txt puzzle 3 at line 4 (4x4, 2 givens), solve")


@pytest.mark.parametrize(("value", "said"), [(123.4, "123x"), (4567.0, "4,567x"), (2.345, "2.3x"), (0.052, "0.052x"),
                                             (0.001, "under 0.01x")])
def test_ratios_are_said_without_an_exponent(value: float, said: str) -> None:
    from pysolve import words

    assert words.ratio(value) == said


@SPAWNS
@needs_prolog
def test_the_checks_time_line_says_its_ratios_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "check", "fichas", str(CLASS / "fichas" / "ana.pl"), "--examples", "2",
                           "--seed", "1", "--out", str(tmp_path / "counterexample.txt"))
    time_line = next(line for line in out.splitlines() if line.startswith("  time: "))
    assert code == 0 and "e+" not in time_line
    assert re.search(r"ana\.pl / prolog: [\d,.]+x in all, [\d,.]+x per question \(median\)$", time_line)


# --- options that change nothing, defaults, one search replayed --------------------------------------------------

@pytest.mark.parametrize("flag", ["--up-to-rotation", "--count-orientations"])
def test_squares_options_of_all_or_count_alone_are_refused(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "solve", "squares", flag)
    assert code == 2 and out == ""
    assert err == f"pysolve: error: {flag} says which solutions --all lists or --count counts: add one of them (the " \
                  "first solution alone is one grid either way)\n"


def test_generate_hidato_has_a_default_size(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "generate", "hidato", "--seed", "1", "--json")
    made = json.loads(out)
    assert code == 0 and (made["rows"], made["cols"]) == (6, 6)


def test_one_trace_is_replayed_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace, page = tmp_path / "one.jsonl", tmp_path / "one.html"
    assert cli.main(["solve", "fichas", "--m", "1", "--n", "1", "--backend", "python", "--trace", str(trace)]) == 0
    capsys.readouterr()
    code, out, err = run_cli(capsys, "trace", str(trace), "--html", str(page))
    assert code == 0 and out.startswith("one.jsonl: python, solved, ") and err == f"wrote {page}\n"
    assert "<title>fichas: a search replayed</title>" in page.read_text()


# --- the back end that answered, and what it found -----------------------------------------------------------

@pytest.mark.subprocess
def test_without_prolog_the_answer_line_says_why_python_answered_and_not_kanren(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"  # 27 cells: past what kanren counts by default, quick for Python
    assert cli.main(["generate", "squares", "--rows", "3", "--cols", "9", "--colours", "12", "--rule", "eternity",
                     "--seed", "1", "--out", str(board)]) == 0
    ran = subprocess.run([sys.executable, "-m", "pysolve", "solve", "squares", str(board), "--count"],
                         capture_output=True, text=True, env=dict(os.environ, PYSOLVE_NO_PROLOG="1"), timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[-1].startswith(
        "[python (kanren, the default, answers this question only when asked: --backend kanren): solved in ")


def test_the_back_end_named_or_the_default_is_said_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "solve", "fichas", "--m", "1", "--n", "1", "--backend", "python")
    assert code == 0 and out.splitlines()[-1].startswith("[python: solved in ")


def test_a_tangram_validation_says_valid_or_not_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "solve", "tangram", "--validate", "--place", "green:0,0", "--backend", "python")
    assert code == 0 and re.fullmatch(r"\[python: not a valid tiling \(blue is not placed, and 4 more problems\) in "
                                      r"[0-9.]+ m?s\]", out.splitlines()[-1])
    code, out, _ = run_cli(capsys, "solve", "tangram", "--backend", "python", "--json")
    places = [f"{piece['piece']}:{piece['x']},{piece['y']}" for piece in json.loads(out)["solutions"][0]]
    code, out, _ = run_cli(capsys, "solve", "tangram", "--validate", "--backend", "python",
                           *(word for place in places for word in ("--place", place)))
    assert code == 0 and out.splitlines()[-1].startswith("[python: a valid tiling in ")


# --- bad input: one line, exit 2 ----------------------------------------------------------------------------

@pytest.mark.parametrize(("listed", "said"), [
    (",,,", "--backends ',,,': an empty name; give back ends separated by commas, such as prolog,python"),
    ("", "--backends '': an empty name"),
    ("python,,kanren", "--backends 'python,,kanren': an empty name"),
    ("python,python", "--backends 'python,python': python is named twice"),
    ("pyth", "--backends 'pyth': unknown back end 'pyth'; choose one of prolog, kanren, python"),
    ("x" * 500, "unknown back end 'xxxxxxxx"),
])
def test_a_bad_list_of_back_ends_is_one_line_and_exit_2(listed: str, said: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "crosscheck", "fichas", "--m", "1", "--n", "1", "--backends", listed)
    assert code == 2 and out == "" and err.startswith("pysolve: error: --backends ") and said in err
    assert err.count("\n") == 1 and len(err) < 300


def test_azul_crosscheck_reads_its_list_of_back_ends_alike(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "azul", "crosscheck", "--backends", "python,python")
    assert code == 2 and err == "pysolve: error: --backends 'python,python': python is named twice\n"
