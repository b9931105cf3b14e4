"""The Prolog back end: prolog/fichas.pl over the generic search library prolog/search.pl."""

from __future__ import annotations

from pysolve import bridge
from pysolve.fichas.model import Question
from pysolve.puzzle import NO_SOLUTION, Found

SECONDS = 60.0


def solve(question: Question) -> Found:
    """Answer a tree strategy (fichas:solve/6) or `shortest` (fichas:shortest/4)."""
    m, n = question.m, question.n
    if question.strategy == "shortest":
        goal = f"shortest({m}, {n}, Path, Expanded)"
    else:
        goal = f"solve({m}, {n}, {bridge.quote_atom(question.strategy)}, {question.flavour}, Path, Expanded)"
    row = bridge.first("fichas", goal, seconds=SECONDS)
    if row is None or not row["Path"]:
        return Found([], {"states": row["Expanded"] if row else 0}, status=NO_SOLUTION)
    return Found([row["Path"]], {"states": row["Expanded"], "moves": len(row["Path"]) - 1})
