"""The Prolog back end: factors.pl, through pysolve's bridge."""

from pathlib import Path

from pysolve import Found, bridge
from pysolve.budget import Budget

from toy_factors.model import Question

RULES = Path(__file__).with_name("factors.pl")


def solve(question: Question, budget: Budget) -> Found:
    """Every pair factor_pair/3 gives, within the budget."""
    result = bridge.solutions(RULES, bridge.goal("factor_pair", question.n, bridge.Var("A"), bridge.Var("B")),
                              budget=budget)
    if result.stopped:
        return bridge.unknown(result, "factor search")
    return Found([[row["A"], row["B"]] for row in result.rows])
