"""The Prolog back end: one bounded query of prolog/tangram.pl per question.

Every goal runs inside `with_instance/5`, which hands the rule base the
question's board and pieces for that goal only; loops and counting stay
inside Prolog. Placements cross the bridge as `[Piece, X, Y, W, H]`. The
searches for tilings record themselves in Prolog when the budget carries a
trace (bridge.solutions opens it there).
"""

from __future__ import annotations

from typing import Any

from pysolve import bridge
from pysolve.answers import Found
from pysolve.bridge import Var
from pysolve.budget import Budget
from pysolve.tangram.model import Instance, Placement, Question, Tiling, found, validation
from pysolve.tangram.search_helpers import first_scan

RULE_BASE = "tangram"


def on_instance(instance: Instance, goal: bridge.Goal) -> bridge.Goal:
    """`goal` run inside with_instance/5 on `instance`'s board and pieces."""
    pieces = [[piece.name, piece.width, piece.height] for piece in instance.pieces]
    return bridge.goal("with_instance", instance.width, instance.height, pieces, instance.rotations, goal)


def placements(placed: tuple[Placement, ...]) -> list[list[Any]]:
    """Placements as Prolog lists `[Piece, X, Y, W, H]`."""
    return [[p.piece, p.x, p.y, p.width, p.height] for p in placed]


def to_tiling(rows: list[list[Any]]) -> Tiling:
    """A Prolog tiling (`[Piece, X, Y, W, H]` lists in piece order) as a tuple of Placements."""
    return tuple(Placement(str(name), x, y, width, height) for name, x, y, width, height in rows)


def query(question: Question, goal: bridge.Goal, budget: Budget, max_solutions: int = 0) -> bridge.QueryResult:
    """The rows of `goal` on the question's instance, bounded by what is left of `budget`."""
    return bridge.solutions(RULE_BASE, on_instance(question.instance, goal), max_solutions=max_solutions,
                            budget=budget)


def can_trace(question: Question) -> bool:
    """The searches for the first or every tiling record themselves (the memo counter and the rules do not)."""
    return question.mode in ("first", "all")


def solve(question: Question, budget: Budget) -> Found:
    """First or all tilings (tiling/4, all_tilings/4, bfs_tiling/3), or their number.

    A count asks memo_count/5 in the scan order `search_helpers.first_scan` picks, the one Python's counter tries
    first."""
    order, placed = question.order, placements(question.placed)
    if question.mode == "count":  # a count takes the memo counter, whatever the strategy
        scan = first_scan(question.instance, order)
        goal = bridge.goal("memo_count", scan, order, placed, Var("N"), Var("S"))
        (row,) = query(question, goal, budget).require_complete(budget.label).rows
        memo, cleared = row["S"]
        return found(question, [], {"order": scan, "memo": memo, "memo_cleared": cleared}, row["N"])
    if question.mode == "all":
        goal = bridge.goal("all_tilings", question.strategy, order, placed, Var("Ts"))
        result = query(question, goal, budget)
        tilings = result.rows[0]["Ts"] if result.rows else []
    else:
        goal = bridge.goal("bfs_tiling", order, placed, Var("T")) if question.strategy == "bfs" else \
            bridge.goal("tiling", question.strategy, order, placed, Var("T"))
        result = query(question, goal, budget, max_solutions=1)
        tilings = [row["T"] for row in result.rows]
    if result.stopped:
        return bridge.unknown(result, budget.label)
    return found(question, [to_tiling(tiling) for tiling in tilings])


def options(question: Question, budget: Budget) -> Found:
    """The options of `question.piece` given the placed pieces, from piece_options/3."""
    goal = bridge.goal("piece_options", question.piece, placements(question.placed), Var("Os"))
    (row,) = query(question, goal, budget).require_complete(budget.label).rows
    return found(question, [Placement(str(question.piece), *option) for option in row["Os"]])


def validate(question: Question, budget: Budget) -> Found:
    """What keeps the placed pieces from being a tiling, from tiling_problems/2."""
    goal = bridge.goal("tiling_problems", placements(question.placed), Var("Ps"))
    (row,) = query(question, goal, budget).require_complete(budget.label).rows
    return validation(question, row["Ps"])


def splits_pay(question: Question) -> bool:
    """False: the memo counter shares the states it meets between branches, which parts would count again."""
    return False
