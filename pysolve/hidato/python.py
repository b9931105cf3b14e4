"""Imperative Hidato solvers: the original's walk (reference) and a strengthened fast walk.

Both place 1, 2, ... N in order, each number on a free king neighbour of the
previous one (or on its given cell). The original prunes a branch when (a)
the number just placed is not N, has no free neighbour and its successor is
not given, or (b) its successor is given and not adjacent. The fast walk adds,
with the board kept as bit masks: every free cell needs two free-or-head
neighbours (dead ends), every later given must be reachable from the head
through free cells within its number of moves, and the free cells must stay
connected to the head. `Logic` (strategy LOGIC, the generator's uniqueness
prover) is the position model instead: candidate cells per number, narrowed
by reach and all-different singles, branching on the smallest set. The FAST
strategy of `solve` runs `Logic` first for a few hundred nodes, then the walk.
"""

from __future__ import annotations

import contextlib
import sys
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field

from pysolve.answers import UNKNOWN, Found, counted, validation
from pysolve.boards.model import searched
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded
from pysolve.hidato.model import Board, Question, broken_pairs, placement
from pysolve.trace import failing, pushed, recorder

ORIGINAL, FAST, LOGIC = "original", "fast", "logic"
CELL = "H"  # the array type of a solution's cell numbers (unsigned, 16 bits: MAX_CELLS fits)
LOGIC_FIRST_NODES = 500  # the propagating search's share of a FAST solve
STRATEGIES = (FAST, ORIGINAL)  # on the command line; LOGIC is the generator's uniqueness prover


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
    solutions: list[array[int]] = field(default_factory=list)  # number k's cell at k-1, compact

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
        # the steps the walk takes: `place` and `viable` themselves, or recorded (a node a number put, failed
        # where a pruning rejects it), chosen once: an unrecorded walk pays nothing a node for the trace
        self.trace = recorder(self.budget.trace)
        self.placed = self.trace.wrap(pushed, self.place, placement, board)
        self.passes = self.trace.wrap(failing, self.viable)

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
        """Search from the cell of 1, within the budget.

        Search from the cell of 1; SearchLimitExceeded when the budget runs out. With `budget.trace`,
        each number put on a cell is a node, failed where a pruning rejects it."""
        start = self.board.givens[1]
        self.position[1] = start
        self.free &= ~self.bits.bit[start]
        if self.passes(1, start):
            self.extend(1, start)

    def extend(self, k: int, cell: int) -> bool:
        """Place k+1..N after k sits on `cell`; True once `limit` solutions are found."""
        self.budget.spend()
        if k == self.n:
            self.solutions.append(array(CELL, self.position[1:]))
            self.trace.solution()
            return len(self.solutions) >= self.limit
        successor = k + 1
        target = self.board.givens.get(successor)
        options = [target] if target is not None else self.candidates(cell)
        return any(self.placed(successor, option) for option in options)

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
            return self.passes(k, cell) and self.extend(k, cell)
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
        self.budget.check()  # a flood over the board: on thousands of cells it outweighs many plain nodes
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


@dataclass
class Logic:
    """The position model on bit masks: candidate cells per number, propagated, branching on the smallest set."""

    board: Board
    limit: int
    budget: Budget
    solutions: list[array[int]] = field(default_factory=list)  # number k's cell at k-1, compact

    def __post_init__(self) -> None:
        self.n = self.board.size
        self.bits = Bits(self.board)
        self.index_of = {bit: index for index, bit in enumerate(self.bits.bit)}
        self.trace = recorder(self.budget.trace)

    def start(self) -> list[int]:
        """The candidate sets before any propagation: a given's own cell, else every cell (index 0 unused)."""
        domains = [0] + [self.bits.open] * self.n
        for number, index in self.board.givens.items():
            domains[number] = self.bits.bit[index]
        return domains

    def run(self) -> None:
        """Search from the givens; SearchLimitExceeded when the budget runs out."""
        self.search(self.start(), list(range(1, self.n + 1)))

    def search(self, domains: list[int], changed: list[int]) -> bool:
        """Propagate, then branch on the most constrained number; True once enough are found.

        Propagate from the `changed` numbers, then try each cell of the most constrained number; True once
        `limit` solutions are found."""
        self.budget.spend()
        trace = self.trace
        if not self.propagate(domains, changed):
            trace.fail()
            return False
        number = self.most_constrained(domains)
        if not number:
            self.solutions.append(array(CELL, [self.index_of[bit] for bit in domains[1:]]))
            trace.solution()
            return len(self.solutions) >= self.limit
        choices = domains[number]
        while choices:
            low = choices & -choices
            choices ^= low
            trial = domains[:]
            trial[number] = low
            trace.push_as(placement, self.board, number, self.index_of[low])
            if self.search(trial, [number]):
                return True
            trace.pop()
        return False

    def most_constrained(self, domains: list[int]) -> int:
        """The number with the fewest candidate cells above one, or 0 when every number has its cell."""
        best, fewest = 0, self.n + 1
        for number in range(1, self.n + 1):
            count = domains[number].bit_count()
            if 1 < count < fewest:
                best, fewest = number, count
        return best

    def propagate(self, domains: list[int], changed: list[int]) -> bool:
        """Narrow `domains` in place to a fixpoint; False when some number or cell is left without a partner.

        The fixpoint does not depend on the order the rules run in; only the sets next to a changed one are
        looked at again (a node costs a few chain steps and one all-different pass, not two full sweeps).
        """
        while changed:
            self.budget.check()  # a pass costs O(n) big-integer steps: on a board of thousands of cells, many per node
            if not self.chain(domains, changed):
                return False
            settled = self.settle(domains)
            if settled is None:
                return False
            changed = settled
        return True

    def chain(self, domains: list[int], queue: list[int]) -> bool:
        """Narrow consecutive numbers' cells to king moves apart; False when a set empties.

        Consecutive numbers one king move apart: a changed set narrows its neighbours', which then narrow
        theirs; False when a set empties."""
        spread, n = self.bits.spread, self.n
        while queue:
            number = queue.pop()
            near = spread(domains[number])
            for other in (number - 1, number + 1):
                if 1 <= other <= n:
                    narrowed = domains[other] & near
                    if narrowed != domains[other]:
                        if not narrowed:
                            return False
                        domains[other] = narrowed
                        queue.append(other)
        return True

    def settle(self, domains: list[int]) -> list[int] | None:
        """All different: placed cells leave the other sets, a cell only one number can take gets it.

        Returns the numbers whose sets narrowed, None on a contradiction.
        """
        fixed = once = twice = 0
        for candidates in domains[1:]:
            if not candidates & (candidates - 1):
                if not candidates or fixed & candidates:
                    return None
                fixed |= candidates
            else:
                twice |= once & candidates
                once |= candidates
        if once | fixed != self.bits.open:
            return None
        changed = []
        for number in range(1, self.n + 1):
            candidates = domains[number]
            if candidates & (candidates - 1) and candidates & fixed:
                candidates &= ~fixed
                if not candidates:
                    return None
                domains[number] = candidates
                changed.append(number)
        return self.place_hidden_singles(domains, once & ~twice & ~fixed, changed)

    def place_hidden_singles(self, domains: list[int], hidden: int, changed: list[int]) -> list[int] | None:
        """Give each hidden single's cell to its one number.

        Give each cell in `hidden` (a candidate of exactly one number) to that number; `changed` with those
        numbers added, None on a clash."""
        while hidden:
            low = hidden & -hidden
            hidden ^= low
            number = next((k for k in range(1, self.n + 1) if domains[k] & low), 0)
            if not number:
                return None  # its only number already took another such cell
            domains[number] = low
            changed.append(number)
        return changed


def can_trace(question: Question) -> bool:
    """A solve or a count records its search: each number put on a cell a node (pysolve.trace)."""
    return not question.validate


def solve(question: Question, budget: Budget) -> Found:
    """Solve the board (first solution, or count up to `question.count`) by the question's strategy."""
    return counted(search(question.board, question.limit, question.strategy, budget), question.count)


def validate(question: Question, budget: Budget) -> Found:
    """Check a filled board: the consecutive pairs that do not touch."""
    return validation(question.board.grid(), broken_pairs(question.board))


def search(board: Board, limit: int, strategy: str, budget: Budget) -> Found:
    """Up to `limit` solutions by the chosen search, within `budget`.

    FAST is a small portfolio: the propagating search first, within
    LOGIC_FIRST_NODES nodes (it proves sparse boards unique quickly), then the
    fast walk with what is left of the budget (it runs long thin boards,
    where propagation alone wanders). A trace records both, the walk from the
    root again.
    """
    if strategy != FAST:
        return run_search(board, limit, strategy, budget)
    logic_nodes = min(budget.nodes, LOGIC_FIRST_NODES) if budget.nodes else LOGIC_FIRST_NODES
    logic_budget = Budget(logic_nodes, budget.remaining() if budget.seconds else 0.0, label=budget.label)
    logic_budget.trace = budget.trace
    first = run_search(board, limit, LOGIC, logic_budget)
    if first.status != UNKNOWN or (budget.nodes and budget.nodes <= logic_nodes):
        first.stats["strategy"] = FAST
        return first
    recorder(budget.trace).to_root()  # the propagating search stopped where it was: the walk starts at the root
    budget.spend(first.stats["states"])
    walked = run_search(board, limit, FAST, budget)
    return walked


@contextlib.contextmanager
def deep_enough(board: Board) -> Iterator[None]:
    """Python's recursion limit raised for a walk one frame per number (and a few per frame) on `board`."""
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * board.size + 200))
    try:
        yield
    finally:
        sys.setrecursionlimit(old_limit)


def run_search(board: Board, limit: int, strategy: str, budget: Budget) -> Found:
    """Run one search within the budget, its solutions written out within it too.

    Run one search (LOGIC, or the walk of FAST or ORIGINAL) within `budget`, its solutions written out within
    it too."""
    solver = Logic(board, limit, budget) if strategy == LOGIC else Walk(board, limit, budget, strategy == FAST)
    reason = ""
    try:
        with deep_enough(board):
            solver.run()
    except SearchLimitExceeded as error:
        reason = str(error)
    return searched(solver.solutions, board.grid, budget, reason, {"strategy": strategy})
