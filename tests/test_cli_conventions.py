"""What a newcomer meets first on the command line (issue 40): `--version`, the commands listed, every `--json`
one JSON document, names that say one thing, the back end that answered and why, and one line for bad input."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import pysolve
from pysolve import cli
from pysolve.pytest_plugin import needs_prolog

RULES = Path(__file__).parent / "data" / "rules"


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


def with_json(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command (its words) whose parser takes --json."""
    if isinstance(parser, cli.Parser):
        parser.filled()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from with_json(sub, (*path, name))
        elif "--json" in action.option_strings:
            yield path


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
    ("query",): ["fichas", "move('BHV', Next)"],
    **{("check", puzzle): [str(RULES / rules), *CHECKED, "--max-size", size] for puzzle, rules, size in (
        ("fichas", "fichas_bfs.pl", "2"), ("hidato", "hidato_walk.pl", "2"), ("sudoku", "sudoku_clpfd.pl", "4"),
        ("squares", "squares_rows.pl", "2"), ("tangram", "tangram_first_cell.pl", "2"))},
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
