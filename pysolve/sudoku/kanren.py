"""The miniKanren back end: the Sudoku rules as finite-domain relations, the CLP(FD) model of prolog/sudoku.pl.

`sudokuo(board, cells)` is the relation 'cells (one term per cell, reading
order: the given value or a logic variable) solve board': every cell holds
one of 1..N (`infd`), and the cells of every row, column and box are all
different (`distinctfd`). Labelling places the cell with the fewest values
left first. The finite-domain store of `pysolve.fd` propagates each unit as
cells are placed (a placed value leaves its peers; a value only one cell of a
unit can take goes there), so the search is short on every size, 16x16
included.
"""

from __future__ import annotations

from typing import Any

from pysolve import fd
from pysolve import minikanren as mk
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Found, counted, validation
from pysolve.budget import Budget
from pysolve.sudoku.model import UNITS, Board, Question, placement


def unito(cells: list[Any]) -> mk.Goal:
    """The relation 'the cells of one unit (row, column or box) hold different values'."""
    return fd.distinctfd(cells)


def repeatedo(cells: list[Any], value: Any) -> mk.Goal:
    """The relation 'two of the cells hold value'."""
    return mk.disj(*(mk.conj(mk.eq(cells[i], value), mk.eq(cells[j], value))
                     for i in range(len(cells)) for j in range(i + 1, len(cells))))


def sudokuo(board: Board, cells: list[Any]) -> mk.Goal:
    """The relation 'cells (givens and one variable per empty cell, reading order) is a solution of board'."""
    return mk.conj(fd.infd(cells, range(1, board.size + 1)),
                   *(unito([cells[cell] for cell in unit]) for unit in board.geometry.all_units))


def can_trace(question: Question) -> bool:
    """A solve or a count records its labelling (`fd.labelfd`): each cell bound, failures, backtracking."""
    return not question.validate


def solve(question: Question, budget: Budget) -> Found:
    """Up to `question.limit` solutions of `sudokuo`, labelled first-fail (whatever the strategy)."""
    mk.require()
    board = question.board
    cells = [value or mk.var() for value in board.cells]
    goal = mk.conj(fd.within(budget), sudokuo(board, cells),
                   fd.labelfd(cells, say=lambda cell, value: placement(cell, board.size, value)))
    answers_found, reason = mk.run_bounded(goal, cells, question.limit)
    status = UNKNOWN if reason else SOLVED if answers_found else NO_SOLUTION
    n = board.size
    grids = [[list(values[r * n:(r + 1) * n]) for r in range(n)] for values in answers_found]
    stats = {"states": budget.spent, **({"reason": reason} if reason else {})}
    return counted(Found(grids, stats, status=status), question.count)


def validate(question: Question, budget: Budget) -> Found:
    """Check a filled grid, each unit asked of `unito` on its own (rows, then columns, then boxes).

    The answer lists, for a unit that breaks it, the values `repeatedo` finds twice, as [kind, number, value]."""
    mk.require()
    board = question.board
    broken: list[list[object]] = []
    for kind, units in zip(UNITS, board.geometry.units):
        for number, unit in enumerate(units, start=1):
            cells = [board.cells[cell] for cell in unit]
            if not mk.holds(mk.conj(fd.within(budget), unito(cells))):
                value = mk.var()
                broken += [[kind, number, repeated] for repeated in sorted(set(mk.run(repeatedo(cells, value), value)))]
    return validation(board.rows(), broken)
