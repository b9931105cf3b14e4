"""Hidato's public set (data/hidato/public): every puzzle reads, and every back end gives its known verdict.

The verdicts are the sources' own: a published Hidato has one solution, and
the four listed in TWO_OR_MORE are known to have more (data/hidato/README.md).
Every back end is asked about every puzzle, miniKanren included.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pysolve.hidato import model
from pysolve.hidato.model import Question
from pysolve.hidato.puzzle import PUZZLE, sample_file
from pysolve.paths import data_dir
from pysolve.puzzle import SOLVED
from pysolve.pytest_plugin import assert_backends_agree

PUBLIC = sorted((data_dir() / "hidato" / "public").glob("*.txt"))
SOURCES = {"csp": 33, "hakank": 8, "rosetta": 6, "swm": 10}  # puzzles per source (file name prefix)
TWO_OR_MORE = {"rosetta_cpp1_9x9", "rosetta_cpp2_9x9", "csp_b7_6x6", "csp_d7_6x6"}  # every other one is unique
ALL_SOLUTIONS = {"rosetta_cpp1_9x9": 2, "rosetta_cpp2_9x9": 4, "csp_b7_6x6": 2, "csp_d7_6x6": 8}  # counted to the end
def answers(question: Question, backends: list[str]) -> list:
    """Every back end's answer; with two or more, asserted to agree on the canonical answer first."""
    if len(backends) >= 2:
        return list(assert_backends_agree(PUZZLE, question=question, backends=backends).results.values())
    return [PUZZLE.solve(question, backend) for backend in backends]


def test_the_public_set_reads_and_each_file_is_what_its_name_and_header_say():
    assert len(PUBLIC) == sum(SOURCES.values())
    assert {source: sum(path.name.startswith(source + "_") for path in PUBLIC) for source in SOURCES} == SOURCES
    assert {path.stem for path in PUBLIC} >= TWO_OR_MORE
    for path in PUBLIC:
        board = model.load(path)  # 1 and N = the count of open cells given, no number twice or out of range
        rows, cols = map(int, re.fullmatch(r".*_(\d+)x(\d+)", path.stem).groups())
        assert (board.height, board.width) == (rows, cols), path.name
        assert f"# {board.size} cells, {len(board.givens)} givens\n" in path.read_text(), path.name


def test_the_rosetta_sample_is_the_shipped_sample():
    rosetta = model.load(data_dir() / "hidato" / "public" / "rosetta_sample_8x8.txt")
    assert rosetta.rows == model.load(sample_file()).rows


@pytest.mark.slow
@pytest.mark.parametrize("path", PUBLIC, ids=lambda path: path.stem)
def test_counting_to_two_gives_the_known_verdict_on_every_back_end(pysolve_backends, path: Path):
    board = model.load(path)
    found = answers(Question(board, str(path), count=2, seconds=60), pysolve_backends)
    assert len(found) == len(pysolve_backends)
    for answer in found:
        assert answer.status == SOLVED and answer.count == (2 if path.stem in TWO_OR_MORE else 1), answer.backend
        assert all(model.solves(board, grid) for grid in answer.solutions)


@pytest.mark.parametrize("name", sorted(ALL_SOLUTIONS))
def test_the_puzzles_with_several_solutions_list_the_same_ones_everywhere(pysolve_backends, name: str):
    """Counted to the end (up to 10), the back ends agree on every solution, not only on the count."""
    path = data_dir() / "hidato" / "public" / f"{name}.txt"
    board = model.load(path)
    for answer in answers(Question(board, str(path), count=10, seconds=60), pysolve_backends):
        assert answer.status == SOLVED and answer.count == ALL_SOLUTIONS[name], answer.backend
        assert len({str(grid) for grid in answer.solutions}) == ALL_SOLUTIONS[name]
        assert all(model.solves(board, grid) for grid in answer.solutions)
