"""Every registered puzzle, and the toy puzzle of examples/toy_puzzle, keeps the contract of pysolve.testing.

One test per puzzle and check, on the session's back ends (with Prolog hidden, kanren and python). The
per-puzzle test files keep only what is special to their puzzle.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import tomllib

from pysolve import get_puzzle, puzzle_names, testing
from pysolve.puzzle import Found, Puzzle

TOY = Path(__file__).resolve().parents[1] / "examples" / "toy_puzzle"


def toy() -> Puzzle:
    """The toy puzzle, imported from its folder as a user's package would be (not installed here)."""
    if str(TOY) not in sys.path:
        sys.path.insert(0, str(TOY))
    from toy_factors.puzzle import PUZZLE

    return PUZZLE


PUZZLES = {name: get_puzzle(name) for name in puzzle_names()} | {"factors": toy()}


@pytest.fixture()
def toy_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy's entry points where a `pysolve` started from here finds them: its metadata, as an install
    writes it, in a folder on PYTHONPATH beside the toy's own (`pip install` takes seconds)."""
    points = tomllib.loads((TOY / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    info = tmp_path / "toy_factors-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-factors\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
        for group, entries in points.items()), encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), str(TOY), os.environ.get("PYTHONPATH", "")]))


@pytest.mark.parametrize(("puzzle", "check"), testing.cases(list(PUZZLES.values()), [pytest.mark.subprocess]))
def test_the_puzzle_keeps_the_contract(puzzle: Puzzle, check: testing.Check, pysolve_backends: list[str],
                                       request: pytest.FixtureRequest) -> None:
    if check is testing.cli_bad_input_is_one_line and puzzle is PUZZLES["factors"]:
        request.getfixturevalue("toy_installed")
    check(puzzle, pysolve_backends)


def test_every_puzzle_gets_the_checks_its_faces_call_for() -> None:
    """The checks that apply follow what a puzzle offers: all seven for one that generates and splits; five
    for Azul's games and the toy, which do neither."""
    applied = {name: [check.__name__ for check in testing.checks(puzzle)] for name, puzzle in PUZZLES.items()}
    every = ["demo_questions_agree", "answers_round_trip_json", "a_budget_ends_in_unknown", "bad_input_is_one_line",
             "cli_bad_input_is_one_line"]
    assert applied["sudoku"] == applied["squares"] == applied["tangram"] == [
        *every, "generated_instances_agree", "split_counts_add_up"]
    assert applied["azul"] == applied["factors"] == applied["fichas"] == every
    assert applied["hidato"] == [*every, "generated_instances_agree"]


def test_only_the_cli_check_is_out_of_the_fast_layer() -> None:
    marked = [param.id for param in testing.cases(["sudoku"], [pytest.mark.subprocess]) if param.marks]
    assert marked == ["sudoku-cli_bad_input_is_one_line"]


def test_a_puzzle_that_breaks_the_contract_is_caught() -> None:
    """The checks can fail: a puzzle that takes any value, and one that offers no split, are caught saying
    what broke."""
    base = type(toy())

    class Lenient(base):  # type: ignore[misc, valid-type]
        def question(self, **given: object) -> object:
            return self.ask(n=12)

    with pytest.raises(AssertionError, match="was taken"):
        testing.bad_input_is_one_line(Lenient(), ["python"])

    class Unsplit(base):  # type: ignore[misc, valid-type]
        pass

    with pytest.raises(AssertionError, match="splits none"):
        testing.split_counts_add_up(Unsplit(), ["python"])

    class Unbounded(base):  # type: ignore[misc, valid-type]
        def solvers(self, question: object) -> dict[str, object]:
            return {"python": lambda question, budget: Found([[1, question.n]])}

    with pytest.raises(AssertionError, match="stopped no search"):
        testing.a_budget_ends_in_unknown(Unbounded(), ["python"])


@pytest.mark.subprocess
def test_the_cli_check_fails_for_a_puzzle_the_cli_cannot_find() -> None:
    """Without its entry point installed, `pysolve solve factors` names no puzzle it knows: not the API's line."""
    with pytest.raises(AssertionError, match="invalid choice: 'factors'"):
        testing.cli_bad_input_is_one_line(PUZZLES["factors"], ["python"])
