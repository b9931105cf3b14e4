"""The miniKanren back end: a logic variable per empty cell, each taking a value that no peer holds.

`valueo(cell, values)` is the flat domain relation of one cell, and
`differento(cell, peers)` holds when the cell's value differs from every
peer bound so far. `sudokuo` binds the empty cells one by one, those with
the fewest values left by the givens first, with the depth-first `conj` of
`pysolve.minikanren`: plain backtracking, checked as it goes. Boards of side
16 are declined (`answers`): the search is far too slow for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pysolve import minikanren as mk
from pysolve.budget import Budget
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Found, counted
from pysolve.sudoku.model import Board, Question

MAX_SIZE = 9  # the largest side the relation is asked to fill


def answers(question: Question) -> bool:
    """True for the boards miniKanren can fill in reasonable time (side up to MAX_SIZE)."""
    return question.board.size <= MAX_SIZE


def valueo(cell: Any, values: Sequence[int]) -> mk.Goal:
    """The relation 'cell holds one of values', as a flat domain goal."""
    return mk.disj_over(values, lambda value: mk.eq(cell, value))


def differento(cell: Any, peers: Sequence[Any]) -> mk.Goal:
    """Guard: the value of `cell` is not the value of any peer bound so far."""
    return mk.where(lambda value, *others: value not in others, cell, *peers)


def sudokuo(board: Board, terms: list[Any], budget: Budget) -> mk.Goal:
    """The relation 'terms (givens and one variable per empty cell) is a solution of board'."""
    peers = board.geometry.peers
    givens_agree = [differento(terms[cell], [terms[p] for p in peers[cell] if board.cells[p]])
                    for cell, value in enumerate(board.cells) if value]
    left = {cell: [v for v in range(1, board.size + 1) if all(board.cells[p] != v for p in peers[cell])]
            for cell, value in enumerate(board.cells) if not value}
    steps = [mk.conj(budget.tick(), valueo(terms[cell], left[cell]),
                     differento(terms[cell], [terms[p] for p in peers[cell] if not board.cells[p]]))
             for cell in sorted(left, key=lambda cell: (len(left[cell]), cell))]
    return mk.conj(*givens_agree, *steps)


def solve(question: Question, budget: Budget) -> Found:
    """Up to `question.limit` solutions by running `sudokuo` (plain backtracking, whatever the strategy)."""
    mk.require()
    board = question.board
    terms = [value or mk.var() for value in board.cells]
    answers_found, reason = mk.run_bounded(sudokuo(board, terms, budget), terms, question.limit)
    status = UNKNOWN if reason else SOLVED if answers_found else NO_SOLUTION
    n = board.size
    grids = [[list(values[r * n:(r + 1) * n]) for r in range(n)] for values in answers_found]
    stats = {"states": budget.spent, **({"reason": reason} if reason else {})}
    return counted(Found(grids, stats, status=status), question.count)
