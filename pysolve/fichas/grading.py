"""The tokens puzzle's rules one by one, for `pysolve grade`.

Which of them a path of one's own breaks, and where.

A grade names each rule a class's paths break (pysolve.grade), not only
that an answer differs from pysolve's: a path that jumps a token over three
others breaks *legal moves* (its first illegal move named, and why); a
path of legal moves longer than pysolve's breaks *shortest path*. The rules
interface asks the `shortest` strategy alone (pysolve's tree strategies,
dfs to hill-climbing, are no part of it), so that is the strategy graded.
"""

from __future__ import annotations

from pysolve.answers import Answer
from pysolve.fichas.model import Question, first_illegal

RULES = {
    "legal moves": "the path goes from the start to the goal, each move a token slid or jumped 1 to 3 cells "
                   "into the hole",
    "shortest path": "as few moves as pysolve's shortest path (the interface's strategy: shortest)",
}


def broken(question: Question, solution: list[str], reference: Answer) -> dict[str, str]:
    """The rules `solution` breaks as an answer to `question`.

    The rules of RULES that `solution`, a path, breaks as an answer to `question` (`reference`: pysolve's
    shortest path), each with its first break in words.
    """
    found: dict[str, str] = {}
    illegal = first_illegal(solution, question.m, question.n)
    if illegal is not None:
        found["legal moves"] = illegal
    shortest = len(reference.solutions[0]) - 1
    moves = len(solution) - 1
    if moves != shortest:
        found["shortest path"] = (f"a path of {moves} moves, where the shortest takes {shortest}" +
                                  (" (a shorter one breaks the rules)" if moves < shortest else ""))
    return found
