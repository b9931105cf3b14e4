"""The imperative back end: a loop up to the square root."""

from pysolve import Found
from pysolve.budget import Budget

from toy_factors.model import Question


def solve(question: Question, budget: Budget) -> Found:
    """Every pair, smaller factor first."""
    pairs = []
    a = 1
    while a * a <= question.n:
        budget.spend()
        if question.n % a == 0:
            pairs.append([a, question.n // a])
        a += 1
    return Found(pairs)
