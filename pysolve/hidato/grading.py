"""Hidato's rules one by one, for `pysolve grade`: which of them a solution of one's own breaks, and where.

A grade names each rule a class's solutions break (pysolve.grade), not only
that an answer differs from pysolve's: a walk whose steps skip a cell breaks
*adjacency*, one that writes a number twice *each number once*, one that
moves a given *givens kept*, one that numbers from 0 or stops short *first
and last*.
"""

from __future__ import annotations

from collections import defaultdict

from pysolve.answers import Answer
from pysolve.hidato.model import BLOCKED, Grid, Question, chebyshev

RULES = {
    "adjacency": "each number K and K+1 on cells that touch (sides or corners)",
    "each number once": "no number written on two cells",
    "givens kept": "the board's shape, its blocked cells and its given numbers as they were",
    "first and last": "the numbers run from 1 to N, the open cells' count",
}


def cell_words(cell: tuple[int, int]) -> str:
    """A cell as 'row R column C' (1-based)."""
    return f"row {cell[0] + 1} column {cell[1] + 1}"


def broken(question: Question, solution: Grid, reference: Answer) -> dict[str, str]:
    """The rules a solution breaks, each with its first break in words.

    The rules of RULES that `solution` breaks as a solution of `question`'s board, each with its first break in
    words (`reference`, pysolve's answer, is not needed: the board says it all)."""
    board = question.board.grid()
    found: dict[str, str] = {}
    if [len(row) for row in solution] != [len(row) for row in board]:
        return {"givens kept": f"the board's shape changed: rows of {[len(row) for row in solution]} cells "
                               f"against {[len(row) for row in board]}"}
    for r, row in enumerate(board):
        for c, given in enumerate(row):
            written = solution[r][c]
            if (given > 0 or given == BLOCKED or written == BLOCKED) and written != given:
                found["givens kept"] = f"{cell_words((r, c))} holds {written}, the board has {given} there"
                break
        if "givens kept" in found:
            break
    cells_of: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for r, row in enumerate(solution):
        for c, number in enumerate(row):
            if board[r][c] != BLOCKED:
                cells_of[number].append((r, c))
    repeated = next((number for number in sorted(cells_of) if len(cells_of[number]) > 1), None)
    if repeated is not None:
        found["each number once"] = (f"{repeated} written {len(cells_of[repeated])} times ("
                                     f"{', '.join(map(cell_words, cells_of[repeated]))})")
    last = sum(value != BLOCKED for row in board for value in row)
    numbers = sorted(cells_of)
    if numbers and (numbers[0] != 1 or numbers[-1] != last):
        found["first and last"] = f"the numbers run from {numbers[0]} to {numbers[-1]}, not from 1 to {last}"
    for number in numbers:
        after = cells_of.get(number + 1)
        if after and chebyshev(cells_of[number][0], after[0]) != 1:
            found["adjacency"] = (f"{number} at {cell_words(cells_of[number][0])} and {number + 1} at "
                                  f"{cell_words(after[0])} do not touch")
            break
    return found
