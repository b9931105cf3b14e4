"""PUZZLE: the tokens puzzle, its options and how its answers are compared and drawn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pysolve.answers import NO_SOLUTION, NOT_GIVEN, Found
from pysolve.budget import DEFAULT_SECONDS, Budget
from pysolve.fichas.model import MAX_ORDER, STRATEGIES, Question, first_illegal
from pysolve.options import Option, seconds_option
from pysolve.puzzle import UNKNOWN, Answer, Backend, Puzzle
from pysolve.rules import RulesInterface
from pysolve.search import DEFAULT_MAX_EXPANSIONS, FLAVOURS, TREE_STRATEGIES
from pysolve.words import plural

# pysolve's rule base searches half the path, meeting its mirror image (prolog/fichas.pl); the breadth-first search
# over lists a class writes (examples/class/fichas/ana.pl) takes ~100x its inferences at order (5, 5), so a rule
# base is graded within this factor of it (and asked within 10x that per question)
PLAIN_SEARCH_FACTOR = 200.0


def is_path(value: Any) -> bool:
    """True when `value` is a list of board atoms (strings): a path in the rules interface's form."""
    return isinstance(value, list) and all(isinstance(board, str) for board in value)


def first_path(question: Question, given: Found) -> Found:
    """The first path a rule base of one's own gave, with its moves, as the back ends answer.

    No solution when it gave none; an answer cut short by the time limit stays as it is."""
    if given.status == UNKNOWN or not given.solutions:
        return given if given.status == UNKNOWN else Found([], given.stats, status=NO_SOLUTION)
    path = given.solutions[0]
    return Found([path], {**given.stats, "moves": len(path) - 1})


class Fichas(Puzzle):
    """Slide M whites and N greens past each other through one hole."""

    name = "fichas"
    summary = f"the tokens puzzle: BBHVV -> VVHBB, its paths found by {len(STRATEGIES)} search strategies"
    offers: ClassVar[Mapping[str, Backend]] = {
        "prolog": Backend(declines=True, traces=True), "kanren": Backend(traces=True), "python": Backend(traces=True)}
    options = (
        Option("m", int, required=True, help=f"number of white tokens B (0..{MAX_ORDER})"),
        Option("n", int, required=True, help=f"number of green tokens V (0..{MAX_ORDER})"),
        Option("strategy", str, "shortest", "search strategy", choices=STRATEGIES),
        Option("flavour", str, "hs", "the order a state's next moves are tried in, as the course's Haskell (hs) or "
                                     "Python (py) search library tried them", choices=FLAVOURS),
        seconds_option(DEFAULT_SECONDS, "time limit of the search, in seconds"),
    )
    rules = RulesInterface(
        "fichas", ("+M", "+N", "-Path"),
        "a list of board atoms ('BBHVV' ... 'VVHBB'), a shortest path from the start to the goal",
        own="fichas", instances="pysolve.fichas.instances", inputs=lambda question: [question.m, question.n],
        sizes=(3, 5), min_size=0, size_words="the order's M and N",
        solution_form=is_path, shaped=first_path, limit=lambda question: 1,
        solve_args="$(grep -v '^#' {file})", properties="pysolve.fichas.grading",
        speed=PLAIN_SEARCH_FACTOR, budget_times=10 * PLAIN_SEARCH_FACTOR)

    def ask(self, m: int, n: int, strategy: str, flavour: str, seconds: float) -> Question:
        """The order (m, n), the strategy, the flavour and the time limit (the model checks the ranges)."""
        return Question(m, n, strategy, flavour, seconds)

    def describe(self, question: Question) -> dict[str, Any]:
        """The question as JSON: the order, the strategy and the flavour (the time limit is no part of it)."""
        return {"m": question.m, "n": question.n, "strategy": question.strategy, "flavour": question.flavour}

    def budget(self, question: Question) -> Budget:
        """At most DEFAULT_MAX_EXPANSIONS expanded states and the question's seconds per search."""
        return Budget(nodes=DEFAULT_MAX_EXPANSIONS, seconds=question.seconds, label=f"{question.strategy} search")

    def canonical(self, answer: Answer) -> Any:
        """The part of an answer all back ends must agree on, by strategy.

        Tree strategies: the exact path and state count (when the answer gives one: a solver of one's own may give
        only its path). Shortest: where the path first breaks the rules (None when it keeps them: its first
        illegal move named, where answers part first), then its length."""
        question = Question(**answer.question)
        path = answer.solutions[0] if answer.solutions else None
        if question.strategy in TREE_STRATEGIES:
            return {"path": path, "states": answer.stats.get("states", NOT_GIVEN)}
        broken = first_illegal(path, question.m, question.n) if path is not None else None
        return {"first illegal move": broken, "moves": len(path) - 1 if path else None}

    def summarise(self, answer: Answer) -> str:
        if not answer.solutions:
            return "no solution"
        return f"path of {plural(len(answer.solutions[0]) - 1, 'move')}"

    def render(self, answer: Answer[Question]) -> str:
        if answer.status == UNKNOWN:
            return f"no answer: {answer.reason}"
        if not answer.solutions:
            return f"no solution ({answer.asked.strategy} gives up)"
        path = answer.solutions[0]
        steps = [f"{step:>4}  {draw(board)}" for step, board in enumerate(path)]
        return "\n".join([*steps, self.summarise(answer)])

    def demo_questions(self) -> list[Question]:
        return [Question(2, 2, strategy) for strategy in TREE_STRATEGIES] + [
            Question(1, 2, "dfs", "py"), Question(3, 3, "shortest")]


def draw(board: str) -> str:
    """A board the way it is drawn on paper: a row of cells, the hole empty."""
    return "|" + "|".join(" " if cell == "H" else cell for cell in board) + "|"


PUZZLE = Fichas()
