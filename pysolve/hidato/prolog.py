"""The Prolog back end: one bounded query of prolog/hidato.pl per question."""

from __future__ import annotations

from pysolve import bridge
from pysolve.answers import Found, counted, validation
from pysolve.bridge import Var
from pysolve.budget import Budget
from pysolve.hidato.model import Question

RULE_BASE = "hidato"
STRATEGIES = {"fast": "fast", "original": "original"}  # fast: propagation for 500 nodes, then the walk


def solve(question: Question, budget: Budget) -> Found:
    """Up to `question.limit` solutions: `original` from solution/3 (a stopped search keeps the solutions it
    found, and a count says "at least"), `fast` from solutions/4's portfolio (the propagating search within
    500 nodes, then the strengthened walk: Python's portfolio)."""
    model = STRATEGIES[question.strategy]
    stats = {"strategy": model}
    if model == "fast":
        goal = bridge.goal("solutions", model, question.board.grid(), question.limit, Var("All"))
        result = bridge.solutions(RULE_BASE, goal, max_solutions=1, budget=budget)
        result.rows = [{"Solved": solved} for row in result.rows for solved in row["All"]]
    else:
        goal = bridge.goal("solution", model, question.board.grid(), Var("Solved"))
        result = bridge.solutions(RULE_BASE, goal, max_solutions=question.limit, budget=budget)
        stats["prolog"] = result.status  # how the query ended (max_solutions, complete, ...)
    return counted(bridge.found_rows(result, "Solved", f"Prolog {model} search", stats), question.count)


def validate(question: Question, budget: Budget) -> Found:
    """Check a filled board with broken_pairs/2."""
    goal = bridge.goal("broken_pairs", question.board.grid(), Var("Pairs"))
    result = bridge.solutions(RULE_BASE, goal, max_solutions=1, budget=budget).require_complete("Prolog validation")
    return validation(question.board.grid(), result.rows[0]["Pairs"] if result.rows else [])
