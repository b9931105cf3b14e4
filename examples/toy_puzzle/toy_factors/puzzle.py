"""PUZZLE: the options, and how answers are compared and drawn. Nothing else is needed."""

from collections.abc import Mapping
from typing import Any, ClassVar

from pysolve import Answer, Backend, Option, Puzzle

from toy_factors.model import Question


class Factors(Puzzle):
    """The factor pairs of a number."""

    name = "factors"
    summary = "the factor pairs of a number (a toy puzzle from a package of its own)"
    offers: ClassVar[Mapping[str, Backend]] = {  # each back end answers `solve`
        "prolog": Backend(), "kanren": Backend(), "python": Backend()}
    options = (Option("n", int, required=True, minimum=1, help="the number to factor"),)

    def ask(self, n: int) -> Question:
        return Question(n)

    def canonical(self, answer: Answer) -> Any:
        return sorted(answer.solutions)

    def render(self, answer: Answer) -> str:
        return "\n".join(f"{a} x {b}" for a, b in answer.solutions)

    def demo_questions(self) -> list[Question]:
        return [Question(360)]


PUZZLE = Factors()
