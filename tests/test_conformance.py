"""Every registered puzzle, and the toy puzzle of examples/toy_puzzle, keeps the contract of pysolve.testing.

One test per puzzle and check, on the session's back ends (with Prolog hidden, kanren and python). The
per-puzzle test files keep only what is special to their puzzle.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pysolve import get_puzzle, puzzle_names, testing
from pysolve.puzzle import Puzzle

TOY = Path(__file__).resolve().parents[1] / "examples" / "toy_puzzle"


def toy() -> Puzzle:
    """The toy puzzle, imported from its folder as a user's package would be (not installed here)."""
    if str(TOY) not in sys.path:
        sys.path.insert(0, str(TOY))
    from toy_factors.puzzle import PUZZLE

    return PUZZLE


PUZZLES = {name: get_puzzle(name) for name in puzzle_names()} | {"factors (toy)": toy()}
CASES = [(name, check) for name, puzzle in PUZZLES.items() for check in testing.checks(puzzle)]


@pytest.mark.parametrize(("name", "check"), CASES, ids=[f"{name}-{check.__name__}" for name, check in CASES])
def test_the_puzzle_keeps_the_contract(name: str, check: testing.Check, pysolve_backends: list[str]) -> None:
    check(PUZZLES[name], pysolve_backends)


def test_every_puzzle_gets_the_checks_its_faces_call_for() -> None:
    """The checks that apply follow what a puzzle offers: all six for one that generates, splits and takes a
    time limit; four for Azul's games, which take none and read no file."""
    applied = {name: [check.__name__ for check in testing.checks(puzzle)] for name, puzzle in PUZZLES.items()}
    assert applied["sudoku"] == applied["squares"] == applied["tangram"] == [
        "demo_questions_agree", "answers_round_trip_json", "a_budget_ends_in_unknown", "bad_input_is_one_line",
        "generated_instances_agree", "split_counts_add_up"]
    assert applied["azul"] == applied["factors (toy)"] == [
        "demo_questions_agree", "answers_round_trip_json", "bad_input_is_one_line"]
    assert "generated_instances_agree" in applied["hidato"] and "split_counts_add_up" not in applied["fichas"]


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
