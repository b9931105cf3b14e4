"""The miniKanren back end: one logic variable per number holding its cell, related by king moves.

`adjacento(a, b)` is the king-adjacency relation between cell indexes (a goal
over the neighbour table that works whichever side is bound). A solution
binds position[k] for k = 1..N so that each consecutive pair is `adjacento`,
no cell is taken twice, and each placed number can still reach the next
given in time (the Chebyshev distance guard, the original's pruning (b)
generalised). Givens are bound up front with `eq`; the conjunction is the
depth-first one of `pysolve.minikanren`, so the search is the original walk.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pysolve import minikanren as mk
from pysolve.errors import InputError
from pysolve.budget import Budget
from pysolve.hidato.model import Board, Question, chebyshev
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Found, counted


MAX_CELLS = 400  # the largest board the relation is asked to walk


def adjacento(board: Board, a: Any, b: Any) -> mk.Goal:
    """The relation 'cell a and cell b are one king move apart' over the board's open cells."""

    def adjacento_goal(state: mk.State) -> Iterator[mk.State]:
        left, right = mk.reify(a, state), mk.reify(b, state)
        if isinstance(left, int):
            pairs = ((left, other) for other in board.neighbours[left])
        elif isinstance(right, int):
            pairs = ((other, right) for other in board.neighbours[right])
        else:
            pairs = ((i, j) for i in range(board.size) for j in board.neighbours[i])
        for pair in pairs:
            unified = mk.unify((a, b), pair, state)
            if unified is not False:
                yield unified

    return adjacento_goal


def fresho(cell: Any, taken: list[Any]) -> mk.Goal:
    """Guard: `cell` is not among the cells already `taken` (ground at the time of the test)."""
    return mk.where(lambda value, *others: value not in others, cell, *taken)


def in_timeo(board: Board, cell: Any, number: int) -> mk.Goal:
    """Guard: from `cell`, the next given after `number` is within reach by its number of moves."""
    later = [g for g in sorted(board.givens) if g > number]
    if not later:
        return mk.conj()  # nothing left to reach: always true
    target = board.cells[board.givens[later[0]]]
    moves = later[0] - number
    return mk.where(lambda value: chebyshev(board.cells[value], target) <= moves, cell)


def hidatoo(board: Board, positions: list[Any], budget: Budget) -> mk.Goal:
    """The relation 'positions (cell of 1..N) is a solution of board'."""
    given = [mk.eq(positions[number - 1], cell) for number, cell in sorted(board.givens.items())]
    steps = []
    for number in range(2, board.size + 1):
        here, before = positions[number - 1], positions[number - 2]
        others = positions[: number - 2] + [positions[g - 1] for g in board.givens if g > number]
        steps.append(mk.conj(budget.tick(), adjacento(board, before, here),
                             fresho(here, others), in_timeo(board, here, number)))
    return mk.conj(*given, *steps)


def solve(question: Question, budget: Budget) -> Found:
    """Up to `question.limit` solutions by running `hidatoo` (the original walk, whatever the strategy).

    Boards over MAX_CELLS cells are refused: the relation's goal chain and its
    streams grow with the board, past what the fallback should hold in memory.
    """
    mk.require()
    board = question.board
    if board.size > MAX_CELLS:
        raise InputError(f"{question.file}: the miniKanren hidato search takes boards of at most {MAX_CELLS} "
                         f"cells; this one has {board.size} (ask the python or prolog back end)")
    positions = [mk.var() for _ in range(board.size)]
    answers, reason = mk.run_bounded(hidatoo(board, positions, budget), positions, question.limit)
    status = UNKNOWN if reason else SOLVED if answers else NO_SOLUTION
    grids = [board.grid(list(answer)) for answer in answers]
    stats = {"states": budget.spent, **({"reason": reason} if reason else {})}
    return counted(Found(grids, stats, status=status), question.count)
