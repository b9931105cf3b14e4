"""The imperative back end: the course strategies and A* from pysolve.search.

They record themselves in a trace (docs/fichas.md, "Searches recorded")."""

from __future__ import annotations

from pysolve import search
from pysolve.budget import Budget
from pysolve.fichas.model import Boards, Question, describe, mirror, moves_lower_bound
from pysolve.puzzle import NO_SOLUTION, Found


def can_trace(question: Question) -> bool:
    """Every strategy records its search."""
    return True


def solve(question: Question, budget: Budget) -> Found:
    """Answer with the path found and the number of states expanded."""
    boards = Boards(question.m, question.n)
    if question.strategy == "shortest":
        result = search.mirrored_shortest_path(boards, mirror, budget,
                                               lambda board: describe(board, question.strategy))
        path, expanded = result.goal, result.expanded
    elif question.strategy == "astar":
        result = search.shortest_path(boards, moves_lower_bound, budget,
                                      lambda board: describe(board, question.strategy))
        path, expanded = result.goal, result.expanded
    else:
        tree = search.tree_search(question.strategy, search.PathProblem(boards), question.flavour, budget,
                                  lambda path: describe(path[-1], question.strategy))
        path, expanded = (list(tree.goal) if tree.goal is not None else None), tree.expanded
    if path is None:
        return Found([], {"states": expanded}, status=NO_SOLUTION)
    return Found([path], {"states": expanded, "moves": len(path) - 1})
