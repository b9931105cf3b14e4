"""The miniKanren back end: the Hidato rules as finite-domain relations, the CLP(FD) model of prolog/hidato.pl.

One logic variable per number 1..N holds that number's cell (the open cells
numbered in reading order). `hidatoo(board, positions)` says:
- every number lies on a cell and no two on the same one (`infd`,
  `distinctfd`), the givens where they are given;
- the numbers walk the board by king moves and never step straight back:
  `fd.pathfd` over the board's king graph, a step constraint per number with
  a number on both sides (the two lie on two different neighbours of its
  cell), one neighbour constraint on a board of two cells.
The givens are bound first, all at once (`fd.eqfd`), so that the constraints
are posted on what they already fix. The finite-domain store (pysolve.fd) does
the reasoning: a placed cell leaves every other number's domain; the steps
keep each number within reach of the numbers around it (through free cells
only, as the placed cells are gone) and away from dead ends; and since the
numbers fill every cell, a cell only one number can still reach is that
number's. Labelling places the number with the fewest cells left first.
"""

from __future__ import annotations

from typing import Any

from pysolve import fd
from pysolve import minikanren as mk
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Found, counted, validation
from pysolve.budget import Budget
from pysolve.errors import InputError
from pysolve.hidato.model import Board, Question, placement

MAX_CELLS = 1024  # the largest board the relation is asked to fill (a node copies a domain of every cell per number)


def king_graph(board: Board) -> fd.Graph:
    """The board's open cells joined by king moves, for `fd.pathfd`."""
    return fd.Graph(board.neighbours)


def hidatoo(board: Board, positions: list[Any]) -> mk.Goal:
    """The relation 'positions (the cell of each number 1..N) is a solution of board'."""
    given = sorted(board.givens.items())
    givens = fd.eqfd([positions[number - 1] for number, _ in given], [cell for _, cell in given])
    return mk.conj(givens, fd.infd(positions, range(board.size)), fd.distinctfd(positions),
                   fd.pathfd(positions, king_graph(board)))


def can_trace(question: Question) -> bool:
    """True for a solve or a count: it records its labelling (`fd.labelfd`).

    The trace holds each number put on a cell, failures and backtracking."""
    return not question.validate


def solve(question: Question, budget: Budget) -> Found:
    """Up to `question.limit` solutions of `hidatoo`, labelled first-fail (whatever the strategy).

    Boards over MAX_CELLS cells are refused: a node copies every number's
    domain of cells, past what the fallback should hold.
    """
    mk.require()
    board = question.board
    if board.size > MAX_CELLS:
        raise InputError(f"{question.file}: the miniKanren hidato relation takes boards of at most {MAX_CELLS} "
                         f"cells; this one has {board.size} (ask the python or prolog back end)")
    positions = [mk.var() for _ in range(board.size)]
    goal = mk.conj(fd.within(budget), hidatoo(board, positions),
                   fd.labelfd(positions, say=lambda number, cell: placement(board, number + 1, cell)))
    answers, reason = mk.run_bounded(goal, positions, question.limit)
    status = UNKNOWN if reason else SOLVED if answers else NO_SOLUTION
    grids = [board.grid(list(answer)) for answer in answers]
    stats = {"states": budget.spent, **({"reason": reason} if reason else {})}
    return counted(Found(grids, stats, status=status), question.count)


def validate(question: Question, budget: Budget) -> Found:
    """Check a filled board, one consecutive pair at a time.

    Each pair is asked of the relation the solver posts (`fd.pathfd` of two numbers), so that the answer names
    every pair that does not touch."""
    mk.require()
    board = question.board
    cell_of = dict(board.givens)  # a filled board gives every number
    graph = king_graph(board)
    broken = [[k, k + 1] for k in range(1, board.size)
              if not mk.holds(mk.conj(fd.within(budget), fd.pathfd([cell_of[k], cell_of[k + 1]], graph)))]
    return validation(board.grid(), broken)
