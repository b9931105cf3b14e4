"""The Prolog back end: one bounded query of prolog/hidato.pl per question."""

from __future__ import annotations

from pysolve import bridge
from pysolve.hidato.model import Board
from pysolve.puzzle import NO_SOLUTION, SOLVED, UNKNOWN, Found

RULE_BASE = "hidato"
STRATEGIES = {"fast": "clpfd", "original": "original"}


def rows_term(board: Board) -> str:
    """The board's rows as Prolog list text."""
    return "[" + ",".join("[" + ",".join(map(str, row)) + "]" for row in board.rows) + "]"


def solve(board: Board, limit: int = 1, strategy: str = "fast", seconds: float = 60.0) -> Found:
    """Up to `limit` solutions from solution/3 (CLP(FD) for `fast`, the original walk for `original`)."""
    model = STRATEGIES[strategy]
    goal = f"solution({model}, {rows_term(board)}, Solved)"
    result = bridge.solutions(RULE_BASE, goal, max_solutions=limit, seconds=seconds)
    grids = [row["Solved"] for row in result.rows]
    if result.status in ("time_limit", "inference_limit"):
        status = UNKNOWN
    else:
        status = SOLVED if grids else NO_SOLUTION
    return Found(grids, {"strategy": model, "prolog": result.status}, status=status)


def broken_pairs(board: Board, seconds: float = 60.0) -> list[list[int]]:
    """The consecutive pairs of a filled board that do not touch, by broken_pairs/2."""
    row = bridge.first(RULE_BASE, f"broken_pairs({rows_term(board)}, Pairs)", seconds=seconds)
    return row["Pairs"] if row else []
