"""The Prolog back end: one bounded query of prolog/sudoku.pl per question."""

from __future__ import annotations

from pysolve import bridge
from pysolve.bridge import Var
from pysolve.budget import Budget
from pysolve.answers import Found, counted, validation
from pysolve.sudoku.model import Question

RULE_BASE = "sudoku"
STRATEGIES = {"fast": "clpfd", "plain": "plain"}


def solve(question: Question, budget: Budget) -> Found:
    """Up to `question.limit` solutions from solution/3 (CLP(FD) for `fast`, plain backtracking for `plain`).

    A stopped search keeps the solutions it found (a count says "at least").
    """
    model = STRATEGIES[question.strategy]
    goal = bridge.goal("solution", model, question.board.rows(), Var("Solved"))
    result = bridge.solutions(RULE_BASE, goal, max_solutions=question.limit, budget=budget)
    return counted(bridge.found_rows(result, "Solved", f"Prolog {model} search", {"strategy": model}), question.count)


def validate(question: Question, budget: Budget) -> Found:
    """Check a filled grid with broken_units/2."""
    goal = bridge.goal("broken_units", question.board.rows(), Var("Broken"))
    result = bridge.solutions(RULE_BASE, goal, max_solutions=1, budget=budget).require_complete("Prolog validation")
    return validation(question.board.rows(), result.rows[0]["Broken"] if result.rows else [])
