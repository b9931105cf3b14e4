"""Imperative Hidato solvers: the original's walk (reference) and a strengthened fast walk.

Both place 1, 2, ... N in order, each number on a free king neighbour of the
previous one (or on its given cell). The original prunes a branch when (a)
the number just placed is not N, has no free neighbour and its successor is
not given, or (b) its successor is given and not adjacent. The fast walk adds,
with the board kept as bit masks: every free cell needs two free-or-head
neighbours (dead ends), every later given must be reachable from the head
through free cells within its number of moves, and the free cells must stay
connected to the head.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from pysolve.errors import SearchLimitExceeded
from pysolve.hidato.model import Board
from pysolve.budget import Budget
from pysolve.puzzle import NO_SOLUTION, SOLVED, UNKNOWN, Found

ORIGINAL, FAST = "original", "fast"
STRATEGIES = (FAST, ORIGINAL)


class Bits:
    """The open cells as bits of one integer (rows padded by one blocked column) and king moves on them."""

    def __init__(self, board: Board) -> None:
        self.stride = board.width + 2
        self.bit = [1 << ((r + 1) * self.stride + c + 1) for r, c in board.cells]
        self.open = sum(self.bit)
        self.shifts = [dr * self.stride + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]

    def spread(self, mask: int) -> int:
        """`mask` and every open cell one king move from it."""
        row = mask | mask << 1 | mask >> 1
        return (row | row << self.stride | row >> self.stride) & self.open

    def neighbour_counts(self, mask: int) -> tuple[int, int]:
        """(open cells with at least one, open cells with at least two) king neighbours in `mask`."""
        once = twice = 0
        for shift in self.shifts:
            moved = mask << shift if shift > 0 else mask >> -shift
            twice |= once & moved
            once |= moved
        return once & self.open, twice & self.open


@dataclass
class Walk:
    """One depth-first walk 1..N over a board, collecting up to `limit` solutions."""

    board: Board
    limit: int
    budget: Budget
    strengthened: bool
    solutions: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        board = self.board
        self.n = board.size
        self.position = [0] * (self.n + 1)
        self.used = [False] * self.n
        for index in board.givens.values():
            self.used[index] = True
        self.bits = Bits(board)
        self.free = self.bits.open
        self.later = self.later_givens()

    def later_givens(self) -> list[list[tuple[int, int]]]:
        """For each k, the givens g > k as (g, bit of g's cell), smallest first."""
        pending: list[tuple[int, int]] = []
        later: list[list[tuple[int, int]]] = [[] for _ in range(self.n + 1)]
        for k in range(self.n, 0, -1):
            later[k] = pending
            if k in self.board.givens:
                pending = [(k, self.bits.bit[self.board.givens[k]])] + pending
        return later

    def run(self) -> None:
        """Search from the cell of 1; SearchLimitExceeded when the budget runs out."""
        start = self.board.givens[1]
        self.position[1] = start
        self.free &= ~self.bits.bit[start]
        if self.viable(1, start):
            self.extend(1, start)

    def extend(self, k: int, cell: int) -> bool:
        """Place k+1..N after k sits on `cell`; True once `limit` solutions are found."""
        self.budget.spend()
        if k == self.n:
            self.solutions.append(self.position[1:])
            return len(self.solutions) >= self.limit
        successor = k + 1
        target = self.board.givens.get(successor)
        options = [target] if target is not None else self.candidates(cell)
        for option in options:
            if self.place(successor, option):
                return True
        return False

    def candidates(self, cell: int) -> list[int]:
        """The free neighbours of `cell`; the fast walk tries the most cornered first (Warnsdorff)."""
        free = [other for other in self.board.neighbours[cell] if not self.used[other]]
        if self.strengthened:
            free.sort(key=lambda other: sum(not self.used[x] for x in self.board.neighbours[other]))
        return free

    def place(self, k: int, cell: int) -> bool:
        """Put k on `cell`, search on if the board stays viable, and take it back."""
        was_used, bit = self.used[cell], self.bits.bit[cell]
        self.used[cell] = True
        self.position[k] = cell
        self.free &= ~bit
        try:
            return self.viable(k, cell) and self.extend(k, cell)
        finally:
            self.used[cell] = was_used
            self.free |= bit

    def viable(self, k: int, cell: int) -> bool:
        """The original's two prunings, and the fast walk's three checks, after k was put on `cell`."""
        if k == self.n:
            return True
        after = self.board.givens.get(k + 1)
        if after is not None:
            if after not in self.board.neighbours[cell]:
                return False  # pruning (b)
        elif all(self.used[other] for other in self.board.neighbours[cell]):
            return False  # pruning (a)
        return not self.strengthened or (self.no_dead_ends(cell) and self.reachable(k, cell))

    def no_dead_ends(self, cell: int) -> bool:
        """Every free cell keeps two free-or-head neighbours (the cell of N needs one)."""
        last = self.bits.bit[self.board.givens[self.n]]
        once, twice = self.bits.neighbour_counts(self.free | self.bits.bit[cell])
        return not (self.free & ~twice & ~last) and not (last & self.free & ~once)

    def reachable(self, k: int, cell: int) -> bool:
        """Each later given g is within g-k moves of the head through free cells, all free cells connected."""
        reach = frontier = self.bits.bit[cell]
        pending = self.later[k]
        moves = done = 0
        while True:
            while done < len(pending) and pending[done][0] - k <= moves:
                if not reach & pending[done][1]:
                    return False
                done += 1
            if not frontier:
                return self.free & ~reach == 0
            frontier = self.bits.spread(frontier) & self.free & ~reach
            reach |= frontier
            moves += 1


def solve(board: Board, limit: int = 1, strategy: str = FAST, nodes: int = 0, seconds: float = 0.0) -> Found:
    """Up to `limit` solutions by the chosen walk, within a node and time budget (0: none)."""
    walk = Walk(board, limit, Budget(nodes, seconds, label="python search"), strategy == FAST)
    status = SOLVED
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * board.size + 200))
    try:
        walk.run()
    except SearchLimitExceeded:
        status = UNKNOWN
    finally:
        sys.setrecursionlimit(old_limit)
    if status == SOLVED and not walk.solutions:
        status = NO_SOLUTION
    grids = [board.grid(positions) for positions in walk.solutions]
    return Found(grids, {"states": walk.budget.spent, "strategy": strategy}, status=status)
