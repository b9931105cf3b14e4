"""The miniKanren back end: a relation over the candidate factors."""

from pysolve import Found
from pysolve.budget import Budget
from pysolve.minikanren import conj, disj_over, eq, project, run, var, where

from toy_factors.model import Question


def solve(question: Question, budget: Budget) -> Found:
    """Every (a, n // a) with a dividing n and a * a <= n."""
    n, a, b = question.n, var(), var()
    candidates = (k for k in range(1, n + 1) if k * k <= n)
    goal = conj(disj_over(candidates, lambda k: conj(budget.tick(), eq(a, k))),
                where(lambda k: n % k == 0, a),
                project(lambda k: n // k, b, a))
    return Found([list(pair) for pair in run(goal, (a, b))])
