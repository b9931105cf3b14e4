"""The Prolog back end: one bounded query of prolog/sudoku.pl per question."""

from __future__ import annotations

from pysolve import bridge
from pysolve.answers import Found, counted, validation
from pysolve.bridge import Var
from pysolve.budget import Budget
from pysolve.sudoku.model import Question

RULE_BASE = "sudoku"
FROM_DIGIT_CODES = bytes((code - ord("0")) % 256 for code in range(256))  # bytes.translate: a cell's code -> value


def can_trace(question: Question) -> bool:
    """A solve or a count records its search from Prolog as it runs (solution/3's `traced(Strategy)`)."""
    return not question.validate


def solve(question: Question, budget: Budget) -> Found:
    """Up to `question.limit` solutions from the rule base.

    Up to `question.limit` solutions of solution/3 (propagation for `fast`, plain backtracking for `plain`),
    packed into one string by packed_solutions/4; recorded when the budget carries a trace."""
    strategy = bridge.goal("traced", question.strategy) if budget.trace is not None else question.strategy
    goal = bridge.goal("packed_solutions", strategy, question.board.rows(), question.limit, Var("Packed"))
    result = bridge.solutions(RULE_BASE, goal, max_solutions=1, budget=budget)
    size = question.board.size
    result.rows = [{"Solved": grid} for row in result.rows for grid in unpacked(str(row["Packed"]), size)]
    stats = {"strategy": question.strategy}
    return counted(bridge.found_rows(result, "Solved", f"Prolog {question.strategy} search", stats), question.count)


def unpacked(packed: str, size: int) -> list[list[list[int]]]:
    """The grids of a packed_solutions/4 string: `size` x `size` cells each, a cell as chr(ord('0') + value)."""
    values = packed.encode("ascii").translate(FROM_DIGIT_CODES)
    cells = size * size
    return [[list(values[start + row:start + row + size]) for row in range(0, cells, size)]
            for start in range(0, len(values), cells)]



def validate(question: Question, budget: Budget) -> Found:
    """Check a filled grid with broken_units/2."""
    goal = bridge.goal("broken_units", question.board.rows(), Var("Broken"))
    result = bridge.solutions(RULE_BASE, goal, max_solutions=1, budget=budget).require_complete("Prolog validation")
    return validation(question.board.rows(), result.rows[0]["Broken"] if result.rows else [])
