"""Sudoku's rules one by one, for `pysolve grade`: which of them a solution of one's own breaks, and where.

A grade names each rule a class's solutions break (pysolve.grade), not only
that an answer differs from pysolve's: rules whose boxes are 2x2 on a 6x6
board break *boxes* alone, rules that forget the givens break *givens*.
"""

from __future__ import annotations

from pysolve.answers import Answer
from pysolve.sudoku.model import BOXES, Grid, Question, geometry

RULES = {
    "rows": "each row holds 1..N once",
    "columns": "each column holds 1..N once",
    "boxes": "each box (2x2 at 4x4, 2x3 at 6x6, 3x3 at 9x9) holds 1..N once",
    "givens": "the board's shape and its given values as they were",
}
UNIT_RULES = (("rows", "row"), ("columns", "column"), ("boxes", "box"))


def broken(question: Question, solution: Grid, reference: Answer) -> dict[str, str]:
    """The rules a grid breaks, each with its first break in words.

    The rules of RULES that `solution` breaks as a solution of `question`'s board, each with its first break in
    words (`reference`, pysolve's answer, is not needed: the board says it all)."""
    board = question.board.rows()
    size = len(board)
    if len(solution) != size or any(len(row) != size for row in solution) or size not in BOXES:
        return {"givens": f"the board is {size}x{size}; the solution has rows of {[len(row) for row in solution]} "
                          "cells"}
    found: dict[str, str] = {}
    cells = [value for row in solution for value in row]
    givens = [value for row in board for value in row]
    for index, (given, written) in enumerate(zip(givens, cells)):
        if given and written != given:
            r, c = divmod(index, size)
            found["givens"] = f"row {r + 1} column {c + 1} holds {written}, the board gives {given}"
            break
    for (rule, unit_word), units in zip(UNIT_RULES, geometry(size).units):
        for number, unit in enumerate(units, start=1):
            values = sorted(cells[cell] for cell in unit)
            if values != list(range(1, size + 1)):
                found[rule] = f"{unit_word} {number} holds {values}, not 1..{size} once each"
                break
    return found
