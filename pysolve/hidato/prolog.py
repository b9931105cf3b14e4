"""The Prolog back end: one bounded query of prolog/hidato.pl per question."""

from __future__ import annotations

from pysolve import bridge
from pysolve.answers import Found, counted, validation
from pysolve.bridge import Var
from pysolve.budget import Budget
from pysolve.hidato.model import Question

RULE_BASE = "hidato"


def can_trace(question: Question) -> bool:
    """A solve or a count records its search from Prolog as it runs (`traced(Strategy)`)."""
    return not question.validate


def solve(question: Question, budget: Budget) -> Found:
    """Up to `question.limit` solutions from the rule base.

    Up to `question.limit` solutions: `original` from solution/3 (a stopped search keeps the solutions it
    found, and a count says "at least"), `fast` from solutions/4's portfolio (the propagating search within
    500 nodes, then the strengthened walk: Python's portfolio)."""
    strategy = question.strategy  # the same names in prolog/hidato.pl
    stats = {"strategy": strategy}
    asked = bridge.goal("traced", strategy) if budget.trace is not None else strategy
    if strategy == "fast":
        goal = bridge.goal("solutions", asked, question.board.grid(), question.limit, Var("All"))
        result = bridge.solutions(RULE_BASE, goal, max_solutions=1, budget=budget)
        result.rows = [{"Solved": solved} for row in result.rows for solved in row["All"]]
    else:
        goal = bridge.goal("solution", asked, question.board.grid(), Var("Solved"))
        result = bridge.solutions(RULE_BASE, goal, max_solutions=question.limit, budget=budget)
        stats["prolog"] = result.status  # how the query ended (max_solutions, complete, ...)
    return counted(bridge.found_rows(result, "Solved", f"Prolog {strategy} search", stats), question.count)


def validate(question: Question, budget: Budget) -> Found:
    """Check a filled board with broken_pairs/2."""
    goal = bridge.goal("broken_pairs", question.board.grid(), Var("Pairs"))
    result = bridge.solutions(RULE_BASE, goal, max_solutions=1, budget=budget).require_complete("Prolog validation")
    return validation(question.board.grid(), result.rows[0]["Pairs"] if result.rows else [])
