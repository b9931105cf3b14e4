"""Plain words in the default output: plurals, durations, the status line of `solve` (every statistic
with --verbose and in --json), help texts without internals, and strategies by the names given."""

from __future__ import annotations

import json
import re

import pytest

from pysolve import cli, memory, parallel, words
from pysolve.squares import model as squares
from pysolve.squares.puzzle import PUZZLE as SQUARES

INTERNALS = ("the original's", "course library", "child order", "indexed", "propagate", "engine")


@pytest.mark.parametrize("count, word, said", [
    (0, "game", "0 games"), (1, "game", "1 game"), (2, "game", "2 games"), (1, "process", "1 process"),
    (2, "process", "2 processes"), (3, "strategy", "3 strategies"), (36, "tiling", "36 tilings"),
])
def test_plural_agrees_with_the_count(count, word, said):
    assert words.plural(count, word) == said


def test_plural_takes_an_irregular_plural():
    assert words.plural(2, "class of solutions", "classes of solutions") == "2 classes of solutions"
    assert words.plural(1, "class of solutions", "classes of solutions") == "1 class of solutions"


@pytest.mark.parametrize("value, said", [
    (38.2, "38 s"), (1.43, "1.4 s"), (0.0312, "0.031 s"), (0.00072, "0.72 ms"), (3.3e-05, "0.033 ms"),
    (0.0, "under 0.01 ms"), (1e-9, "under 0.01 ms"),
])
def test_seconds_read_without_exponents_or_six_digits(value, said):
    assert words.seconds(value) == said


def test_the_memory_default_reads_in_three_digits():
    assert memory.describe(int(11.7703 * 2**30)) == "11.8 GB"
    assert memory.describe(2 * 2**30) == "2 GB" and memory.describe(512 * 2**20) == "512 MB"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_status_line_says_time_and_states_and_verbose_says_everything(capsys):
    code, out, _ = run(capsys, "solve", "tangram", "--count", "--backend", "python")
    assert code == 0 and "36 tilings" in out and "tiling(s)" not in out
    assert re.fullmatch(r"\[python: solved in [0-9.]+ m?s, \d+ states\]", out.splitlines()[-1])
    code, out, _ = run(capsys, "solve", "tangram", "--count", "--backend", "python", "--verbose")
    assert re.fullmatch(r"\[python: solved; seconds [0-9.e-]+, cpu_seconds [0-9.e-]+, states \d+, order columns, "
                        r".*memo_cleared 0\]",
                        out.splitlines()[-1])
    code, out, _ = run(capsys, "solve", "tangram", "--count", "--backend", "python", "--json")
    assert json.loads(out)["stats"]["memo_cleared"] == 0  # the detail stays in the JSON


def test_a_validation_is_said_in_sentences_not_as_a_list(capsys):
    code, out, _ = run(capsys, "solve", "tangram", "--validate", "--place", "red:0,0", "--backend", "python")
    assert code == 0 and "not a tiling: green is not placed" in out and "[['missing'" not in out


@pytest.mark.subprocess
def test_a_count_in_parts_says_how_many_parts_ran_where(capsys):
    code, out, err = run(capsys, "solve", "squares", "--count", "--workers", "2", "--backend", "python")
    assert code == 0 and "4 solutions" in out  # one search answers it while the workers start, and says so
    assert re.fullmatch(r"pysolve: ran as one search: it took [0-9.]+ m?s of CPU, less than starting 2 processes "
                        r"costs\n", err)
    question = squares.Question(squares.load("insects"), squares.COUNT)
    parted = parallel.count_in_parts(SQUARES, question, "python", workers=2, probe=0)
    assert re.fullmatch(r"\[python: solved in [0-9.]+ m?s, \d+ parts on 2 processes\]", cli.status_line(parted))


def test_one_solution_and_one_cell_are_singular(capsys, tmp_path):
    board = tmp_path / "one.txt"
    board.write_text("1\n")
    code, out, _ = run(capsys, "solve", "hidato", str(board), "--count", "1", "--backend", "python")
    assert code == 0 and out.splitlines()[-2] == "1 solution (stopped at the limit)"
    code, out, _ = run(capsys, "crosscheck", "hidato", str(board), "--backends", "python")
    assert "(1 cell)" in out and "1 cells" not in out


@pytest.mark.parametrize("argv", [
    ["solve", "squares", "--strategy", "fast"],
    ["solve", "sudoku", "data/sudoku/wikipedia.txt", "--strategy", "fast"],
    ["solve", "hidato", "data/hidato/sample.txt", "--strategy", "fast"],
])
def test_a_strategy_is_reported_by_the_name_given(capsys, pysolve_backend, argv):
    code, out, _ = run(capsys, *argv, "--backend", pysolve_backend, "--verbose")
    assert code == 0 and "indexed" not in out and "propagate" not in out
    code, out, _ = run(capsys, *argv, "--backend", pysolve_backend, "--json")
    assert json.loads(out)["stats"].get("strategy", "fast") == "fast"


def test_a_search_that_stops_says_why_in_the_default_output(capsys):
    code, out, _ = run(capsys, "solve", "hidato", "data/hidato/sample.txt", "--nodes", "1", "--strategy",
                       "original", "--backend", "python")
    assert code == 0 and out.splitlines()[-2].startswith("no answer: ") and "node" in out.splitlines()[-2]
    assert re.fullmatch(r"\[python: unknown after [0-9.]+ m?s, \d+ states?\]", out.splitlines()[-1])


def help_texts(parser, prefix=()) -> dict[str, str]:
    """Every command's --help, by its words (`solve tangram`), walking the parser's subcommands."""
    texts = {" ".join(prefix): parser.format_help()}
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        for name, sub in action.choices.items():
            texts.update(help_texts(sub, (*prefix, name)))
    return texts


def test_no_help_text_speaks_of_internals():
    texts = help_texts(cli.build_parser())
    assert {"play azul", "azul play", "play tangram", "solve hidato", "solve fichas", "azul simulate"} <= set(texts)
    for command, text in texts.items():
        flat = " ".join(text.split())
        for word in INTERNALS:
            assert word not in flat, (command, word)
        assert not re.search(r"\d+\.\d{3,} GB", flat), command
