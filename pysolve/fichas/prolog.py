"""The Prolog back end of the tokens puzzle.

The Prolog back end: prolog/fichas.pl over the generic search library prolog/pysolve_search.pl, whose searches
record themselves when the budget carries a trace (bridge.solutions opens it in Prolog).
"""

from __future__ import annotations

from pysolve import bridge
from pysolve.bridge import Var
from pysolve.budget import Budget
from pysolve.fichas.model import Question
from pysolve.puzzle import NO_SOLUTION, Found
from pysolve.search import TREE_STRATEGIES

STRATEGIES = (*TREE_STRATEGIES, "shortest")


def can_answer(question: Question) -> bool:
    """The course's tree strategies and shortest paths (A* is Python's alone)."""
    return question.strategy in STRATEGIES


def can_trace(question: Question) -> bool:
    """Every strategy answered records its search."""
    return can_answer(question)


def solve(question: Question, budget: Budget) -> Found:
    """Answer a tree strategy (fichas:solve/6) or `shortest` (fichas:shortest/4)."""
    path, expanded = Var("Path"), Var("Expanded")
    if question.strategy == "shortest":
        goal = bridge.goal("shortest", question.m, question.n, path, expanded)
    else:
        goal = bridge.goal("solve", question.m, question.n, question.strategy, question.flavour, path, expanded)
    result = bridge.solutions("fichas", goal, max_solutions=1, budget=budget)
    if result.stopped:
        return bridge.unknown(result, f"Prolog {question.strategy} search")
    row = result.rows[0] if result.rows else None
    if row is None or not row["Path"]:
        return Found([], {"states": row["Expanded"] if row else 0}, status=NO_SOLUTION)
    return Found([row["Path"]], {"states": row["Expanded"], "moves": len(row["Path"]) - 1})
