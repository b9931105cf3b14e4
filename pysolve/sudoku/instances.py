"""Random Sudoku instances as hypothesis strategies, for pysolve's tests, `pysolve check` and tests of one's own.

A board is drawn the way hypothesis shrinks well: its side (4 first), a
seed for a random complete grid (the generator's `full_grid`), which cells
are blanked, and whether two givens swap values (which may leave no
solution; a swap that repeats a value in a row, column or box is not made,
as pysolve refuses such a board). Shrinking makes the board smaller, blanks
fewer cells and swaps none, so the smallest board that still shows a
difference is nearly filled in: few solutions, each easy to read.
`clashing_boards` draws the boards a rule base must refuse: one value given
twice in a row, column or box. `pysolve check` asks a share of its questions on such boards
(`impossible_questions`).

>>> from hypothesis import find
>>> sum(value == 0 for row in find(boards(), lambda rows: True) for value in row)
0
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from pysolve.boards.model import DEFAULT_SECONDS
from pysolve.errors import InputError
from pysolve.sudoku import draw as drawing
from pysolve.sudoku import generate, model
from pysolve.sudoku.model import BOXES, Grid, Question

SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def boards(draw: st.DrawFn, max_side: int = 4, solvable: bool = False) -> Grid:
    """Random Sudoku boards, solvable unless two givens were swapped.

    Rows of a Sudoku board of side at most `max_side` (4, 6, 9 or 16; at least 4), each cell blanked or
    not; a solution exists unless two givens swapped values (never when `solvable`)."""
    size = draw(st.sampled_from([side for side in BOXES if side <= max(max_side, 4)]))
    solution = generate.full_grid(size, random.Random(draw(SEEDS)))
    blanked = draw(st.lists(st.booleans(), min_size=size * size, max_size=size * size))
    cells = [0 if blank else value for value, blank in zip(solution, blanked)]
    if not solvable and draw(st.booleans()):
        cells = swapped(cells, draw(st.integers(0, size * size)), draw(st.integers(0, size * size)))
    return model.Board(tuple(cells)).rows()


@st.composite
def clashing_boards(draw: st.DrawFn, max_side: int = 4) -> Grid:
    """Random Sudoku boards whose givens clash, so they have no solution.

    Rows of a Sudoku board (as `boards` draws them) with one value written in two cells of one row, column
    or box: givens that clash, so the board has no solution."""
    rows = draw(boards(max_side=max_side, solvable=True))
    cells = [value for row in rows for value in row]
    unit = draw(st.sampled_from(model.geometry(len(rows)).all_units))
    first, second = draw(st.lists(st.sampled_from(unit), min_size=2, max_size=2, unique=True))
    cells[first] = cells[second] = draw(st.integers(1, len(rows)))
    return model.Board(tuple(cells)).rows()


def swapped(cells: list[int], first: int, second: int) -> list[int]:
    """Cells with two givens' values swapped, unless that repeats a value in a unit.

    `cells` with the values of its `first` and `second` givens (counted modulo their number) swapped, unless
    that repeats a value in a row, column or box."""
    givens = [cell for cell, value in enumerate(cells) if value]
    if not givens:
        return cells
    one, other = givens[first % len(givens)], givens[second % len(givens)]
    changed = list(cells)
    changed[one], changed[other] = cells[other], cells[one]
    return changed if not model.repeats(model.Board(tuple(changed))) else cells


def questions(max_size: int = 4, limit: int = 10, seconds: float = DEFAULT_SECONDS) -> st.SearchStrategy[Question]:
    """Count questions on random boards: what `pysolve check sudoku` asks.

    Questions counting the solutions of random boards up to `limit` (sides of at most `max_size`), each
    search within `seconds`: what `pysolve check sudoku` asks."""
    return boards(max_side=max_size).map(
        lambda rows: Question(model.make_board(rows, "random board"), "random board", count=limit, seconds=seconds))


def impossible_questions(max_size: int = 4, limit: int = 10,
                         seconds: float = DEFAULT_SECONDS) -> st.SearchStrategy[Question]:
    """Questions on boards whose givens clash.

    `questions` on boards whose givens clash (`clashing_boards`), where the interface says the goal fails:
    what `pysolve check sudoku` asks after the ordinary ones."""
    return clashing_boards(max_side=max_size).map(
        lambda rows: Question(model.make_board(rows, "random board"), "random board", count=limit, seconds=seconds))


def instance_text(question: Question) -> str:
    """The question's board as a file `pysolve solve sudoku` reads (the grid drawn as text)."""
    return drawing.text(question.board.rows())


def refusal(question: Question) -> str:
    """Why `pysolve solve sudoku` refuses the question's board; "" when it reads it.

    Why `pysolve solve sudoku` refuses the question's board, "" when it reads it: a value given twice in a
    row, column or box (`model.require_consistent`'s words, less the board's name), where the interface's
    goal must fail."""
    try:
        model.require_consistent(question.board)
    except InputError as error:
        return str(error).removeprefix(f"{question.board.where(0)}: ")
    return ""
