"""The tokens puzzle wired to the orchestration layer and the CLI."""

from __future__ import annotations

import argparse
from typing import Any

from pysolve.fichas import kanren, prolog, python
from pysolve.fichas.model import STRATEGIES, Question, is_solution
from pysolve.puzzle import Answer, Puzzle, Solver
from pysolve.search import FLAVOURS, TREE_STRATEGIES

PROLOG_STRATEGIES = (*TREE_STRATEGIES, "shortest")
KANREN_STRATEGIES = ("dfs", "shortest")


class Fichas(Puzzle):
    """Slide M whites and N greens past each other through one hole."""

    name = "fichas"
    summary = "the tokens puzzle: BBHVV -> VVHBB, four search strategies and shortest paths"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--m", type=int, required=True, help="number of white tokens B")
        parser.add_argument("--n", type=int, required=True, help="number of green tokens V")
        parser.add_argument("--strategy", choices=STRATEGIES, default="dfs", help="search strategy (default dfs)")
        parser.add_argument("--flavour", choices=FLAVOURS, default="hs",
                            help="child order of the course library: hs (Haskell, default) or py (Python)")

    def question(self, args: argparse.Namespace) -> Question:
        return Question(args.m, args.n, args.strategy, args.flavour)

    def solvers(self, question: Question) -> dict[str, Solver]:
        offered: dict[str, Solver] = {"python": python.solve}
        if question.strategy in PROLOG_STRATEGIES:
            offered["prolog"] = prolog.solve
        if question.strategy in KANREN_STRATEGIES:
            offered["kanren"] = kanren.solve
        return offered

    def canonical(self, answer: Answer) -> Any:
        """Tree strategies: the exact path and state count. Shortest: the length of a valid path."""
        question = Question(**answer.question)
        path = answer.solutions[0] if answer.solutions else None
        if question.strategy in TREE_STRATEGIES:
            return {"path": path, "states": answer.stats["states"]}
        valid = path is not None and is_solution(path, question.m, question.n)
        return {"moves": len(path) - 1 if path else None, "valid path": valid}

    def summarise(self, answer: Answer) -> str:
        if not answer.solutions:
            return "no solution"
        return f"path of {len(answer.solutions[0]) - 1} moves"

    def render(self, answer: Answer) -> str:
        if not answer.solutions:
            return f"no solution ({answer.question['strategy']} gives up)"
        path = answer.solutions[0]
        return "\n".join(f"{step:>4}  {draw(board)}" for step, board in enumerate(path))

    def demo_questions(self) -> list[Question]:
        return [Question(2, 2, strategy) for strategy in TREE_STRATEGIES] + [
            Question(1, 2, "dfs", "py"), Question(3, 3, "shortest")]


def draw(board: str) -> str:
    """A board the way it is drawn on paper: a row of cells, the hole empty."""
    return "|" + "|".join(" " if cell == "H" else cell for cell in board) + "|"


PUZZLE = Fichas()
