"""Edge-matching squares' rules one by one, for `pysolve grade`: which a grid of one's own breaks, and where.

A grade names each rule a class's grids break (pysolve.grade), not only
that an answer differs from pysolve's: a grid that leaves a piece out or
lays one twice breaks *each piece once*, one whose seams clash (or, under
the eternity rule, whose border is not the frame) *edges match*, one that
turns a piece by 4 quarter turns or more *turns valid*.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pysolve.answers import Answer
from pysolve.squares.model import Matcher, Question, cell_problems, grid_from_json

RULES = {
    "each piece once": "the grid has the instance's rows and columns and lays every piece once",
    "edges match": "touching edges match under the instance's rule, and the border's edges may lie on the border",
    "turns valid": "each piece turned 0 to 3 quarter turns clockwise",
}


def cell_words(cell: tuple[int, int]) -> str:
    """A cell as 'row R column C' (1-based)."""
    return f"row {cell[0] + 1} column {cell[1] + 1}"


def broken(question: Question, solution: list[list[dict[str, Any]]], reference: Answer) -> dict[str, str]:
    """The rules a grid breaks, each with its first break in words.

    The rules of RULES that `solution`, a grid, breaks as a solution of `question`'s instance, each with its
    first break in words (`reference`, pysolve's answer, is not needed: the instance says it all)."""
    instance = question.instance
    grid = grid_from_json(solution)
    found: dict[str, str] = {}
    turned = next(((r, c, turns) for r, row in enumerate(grid) for c, (_, turns) in enumerate(row)
                   if not 0 <= turns <= 3), None)
    if turned is not None:
        found["turns valid"] = f"{cell_words(turned[:2])} turns its piece {turned[2]} quarter turns"
    if len(grid) != instance.rows or any(len(row) != instance.cols for row in grid):
        found["each piece once"] = (f"the grid has rows of {[len(row) for row in grid]} cells, not {instance.rows} "
                                    f"rows of {instance.cols}")
        return found  # the seams of a grid of another shape are not the instance's
    laid = Counter(piece for row in grid for piece, _ in row)
    ids = {piece.id for piece in instance.pieces}
    wrong = sorted(piece for piece in ids | set(laid) if laid[piece] != (piece in ids))
    if wrong:
        piece = wrong[0]
        found["each piece once"] = (f"piece {piece} is laid {laid[piece]} times" if piece in ids
                                    else f"piece {piece} is not one of the instance's")
        return found  # a piece the instance lacks has no edges to match
    edges = [[instance.piece(piece).turned(turns) for piece, turns in row] for row in grid]
    matcher = Matcher(instance)
    clash = next((problem for r in range(instance.rows) for c in range(instance.cols)
                  for problem in cell_problems(matcher, edges, r, c)), None)
    if clash is not None:
        found["edges match"] = f"{clash} (cells as (row, column) from 0, under the {instance.rule} rule)"
    return found
