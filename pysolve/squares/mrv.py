"""Most constrained cell first: every solution (or only their number) over bit sets of (piece, turns).

It answers `--all`, `--count` and `--up-to-rotation` under the insect rule,
where the free border leaves the row order nearly unconstrained: four to six times
fewer placements than the row order on generated 5x5 and 6x6 puzzles. Under the
eternity rule it places more than twice what the row order places on Owen's 6x6 (it fills
the frame first), so it is not used there.

Each cell holds a key: the label each of its four sides must show (coded,
`free` where no neighbour is placed yet). An index per kind of cell (which
sides lie on the border) maps every key, with any of the sides known, to
the fitting (piece, turns) and their bit set (`indexes.key_index`; four bits
per piece, one per turn), so a cell's candidates are one dictionary look-up
and their number one `bit_count` of that set with the unused pieces' bits.
At each step the empty cell with the fewest candidates is filled; a cell
with none ends the branch. With `budget.trace` each placement is recorded
(pysolve.trace), failed where a cell is left no candidate; those the
look-ahead rules out are never placed. (Counting candidate pieces instead of
(piece, turns) pairs chooses worse: four and a half times the placements on a 4x4.)

Symmetry: only grids whose top-left piece has a smaller id than the pieces
on the corners the grid's turns bring to the top-left are searched (a bit
mask of the allowed pieces per corner), each standing for its class of 4
(or 2) distinct grids: the count is multiplied, and with `visit` each is
passed on with its turns (or alone, `up_to_rotation`).
"""

from __future__ import annotations

from pysolve.budget import Budget
from pysolve.squares.indexes import Entry, key_index, rivals
from pysolve.squares.model import Cell, Question, grid_neighbours, is_canonical, placement
from pysolve.squares.visitors import Visit, with_turns
from pysolve.trace import recorder

CHARGE = 4096  # candidates tried between two charges to the budget


def mrv(question: Question, visit: Visit | None, budget: Budget) -> int:
    """The number of solutions (of classes with up_to_rotation), each passed to `visit` unless it is None.

    The question's prefix is placed first: only grids that begin with it count.
    """
    return MostConstrainedFirst(question, visit, budget).run()


class MostConstrainedFirst:
    """One most-constrained-first search: the grid as it is filled, the keys of its cells, the frontier."""

    __slots__ = (
        "allowed",
        "budget",
        "cells",
        "checked",
        "classes",
        "cols",
        "corners",
        "entries_of",
        "fitting",
        "found",
        "frontier",
        "key",
        "known",
        "left",
        "neighbours",
        "question",
        "rival",
        "root_entries",
        "rows",
        "single",
        "trace",
        "unused",
        "visit",
    )

    def __init__(self, question: Question, visit: Visit | None, budget: Budget) -> None:
        instance, periods = question.instance, question.periods
        rows, cols = instance.rows, instance.cols
        size = rows * cols
        self.question, self.budget, self.rows, self.cols = question, budget, rows, cols
        self.trace = recorder(budget.trace)
        self.fitting, self.entries_of, start = key_index(instance, tuple(sorted(periods.items())))
        self.neighbours = grid_neighbours(rows, cols)
        self.rival = rivals(rows, cols)
        self.corners = [pos for pos in range(size) if self.rival[pos]]
        self.allowed = [(1 << 4 * len(instance.pieces)) - 1] * size  # per cell, the (piece, turns) it may hold
        self.key = list(start)  # per cell, what its placed neighbours ask of its sides
        self.known = [0] * size  # placed neighbours of each cell
        self.frontier: list[int] = []  # the empty cells with a placed neighbour
        self.cells: list[Cell | None] = [None] * size
        self.classes = (4 if rows == cols else 2) if self.corners and not question.up_to_rotation else 1
        self.visit = with_turns(visit, periods) if visit and self.classes > 1 else visit
        self.single = size == 1 and question.up_to_rotation  # one cell: its classes are its turns
        self.unused, self.found, self.left, self.checked = self.allowed[0], 0, size, 0
        self.root_entries = [] if question.prefix else root_placements(question)  # a split count's part places it

    def run(self) -> int:
        """Place the prefix, search, and return the number of solutions found (times the classes' size)."""
        if not all(self.begin(pos, cell) for pos, cell in enumerate(self.question.prefix)):
            return 0
        self.frontier += [pos for pos in range(len(self.cells)) if self.cells[pos] is None and self.known[pos]]
        try:
            self.place()
        finally:
            self.budget.spent += self.checked
        return self.found * self.classes

    def begin(self, pos: int, cell: Cell | None) -> bool:
        """Place a prefix cell as the search would (False when it is no candidate there; None: a free cell)."""
        if cell is None:
            return True
        entry = [(bits, adds) for bit, bits, placed, adds in self.entries_of[self.key[pos]]
                 if placed == cell and bit & self.unused & self.allowed[pos]]
        if not entry:
            return False
        bits, adds = entry[0]
        self.cells[pos], self.unused, self.left = cell, self.unused ^ bits, self.left - 1
        for other, side in self.neighbours[pos]:
            self.key[other] += adds[side]
            self.known[other] += 1
        self.narrow_corners(pos, bits)
        return True

    def place(self) -> bool:
        """Fill the empty cell with the fewest candidates on the frontier and search on (True: stop)."""
        if not self.left:
            return self.solution()
        frontier = self.frontier
        if not frontier:  # nothing placed yet: the root piece, everywhere it fits
            return any(self.fill(pos, entries, -1) for pos, entries in enumerate(self.root_entries))
        fitting, key, allowed, unused = self.fitting, self.key, self.allowed, self.unused
        best, best_count, best_at = -1, 1 << 30, -1
        for at, pos in enumerate(frontier):
            fits = fitting.get(key[pos], 0) & unused & allowed[pos]
            if not fits:
                self.trace.fail()
                return False
            count = fits.bit_count()
            if count < best_count:
                best, best_count, best_at = pos, count, at
                if count == 1:
                    break
        frontier[best_at] = frontier[-1]
        frontier.pop()
        return self.fill(best, self.entries_of[key[best]], best_at)

    def solution(self) -> bool:
        """Count (and pass on) the full grid (True: stop)."""
        if self.visit is None and not self.single:
            self.trace.solution()
            self.found += 1
            return False
        cols, cells = self.cols, self.cells
        grid = tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(self.rows))
        if self.single and not is_canonical(grid, self.question.periods):  # type: ignore[arg-type]
            return False
        self.trace.solution()
        self.found += 1
        return self.visit is not None and self.visit(grid)  # type: ignore[arg-type]

    def fill(self, best: int, entries: list[Entry], best_at: int) -> bool:
        """Place each fitting entry on the best cell in turn and search on.

        Place each of `entries` that fits on cell `best` in turn and search on (True: stop); `best_at` is
        where the cell was on the frontier (-1: it was not), where it goes back after."""
        fitting, key, allowed, cells, known, frontier = (self.fitting, self.key, self.allowed, self.cells,
                                                         self.known, self.frontier)
        was = self.unused
        mask = was & allowed[best]
        around = self.neighbours[best]
        empty_around = [(other, side) for other, side in around if cells[other] is None]
        breaks_symmetry = (best == 0 and self.corners) or self.rival[best]
        stop, trace = False, self.trace
        self.left -= 1
        for bit, bits, cell, adds in entries:
            if not bit & mask:
                continue
            self.checked += 1
            if self.checked == CHARGE:
                self.checked = 0
                self.budget.spend(CHARGE)
            unused = was ^ bits
            for other, side in empty_around:
                fits = fitting.get(key[other] + adds[side], 0) & unused & allowed[other]
                if not fits:
                    break  # a neighbour would have no candidate left: the branch ends here
                if not fits & (fits - 1) and not self.supported(other, key[other] + adds[side], best, unused):
                    break  # its one candidate would leave one of its own neighbours none
            else:
                self.unused = unused
                cells[best] = cell
                for other, side in around:
                    key[other] += adds[side]
                    known[other] += 1
                    if known[other] == 1 and cells[other] is None:
                        frontier.append(other)
                trace.push_as(placement, best, self.cols, *cell)
                if breaks_symmetry:
                    saved = allowed[:]
                    self.narrow_corners(best, bits)
                    stop = self.place()
                    allowed[:] = saved
                else:
                    stop = self.place()
                for other, side in reversed(around):
                    key[other] -= adds[side]
                    known[other] -= 1
                    if not known[other] and cells[other] is None:
                        frontier.pop()
                if stop:
                    break
                trace.pop()
        cells[best] = None
        self.unused = was
        self.left += 1
        if best_at >= 0:
            frontier.append(best)
            frontier[best_at], frontier[-1] = frontier[-1], frontier[best_at]
        return stop

    def supported(self, cell: int, cell_key: int, filling: int, unused: int) -> bool:
        """Whether some candidate of a cell leaves each empty neighbour a candidate.

        Whether some candidate of `cell` (under `cell_key`, once `filling` is placed, leaving the pieces of
        `unused`) leaves each of its other empty neighbours a candidate: the look-ahead for a neighbour left
        with a single candidate."""
        fitting, key, allowed, cells = self.fitting, self.key, self.allowed, self.cells
        for bit, bits, _, adds in self.entries_of[cell_key]:
            if not bit & unused & allowed[cell]:
                continue
            rest = unused ^ bits
            for other, side in self.neighbours[cell]:
                if other != filling and cells[other] is None and not (
                        fitting.get(key[other] + adds[side], 0) & rest & allowed[other]):
                    break
            else:
                return True
        return False

    def narrow_corners(self, pos: int, bits: int) -> None:
        """Break the corners' symmetry once a corner piece is placed.

        The symmetry breaking once the piece of `bits` lies at `pos`: on the top-left, the rival corners
        keep larger ids only; on a rival corner, the top-left keeps smaller ids only."""
        lowest = bits & -bits
        if pos == 0 and self.corners:
            for corner in self.corners:
                self.allowed[corner] &= ~((lowest << 4) - 1)
        elif self.rival[pos]:
            self.allowed[0] &= lowest - 1


def root_placements(question: Question) -> list[list[Entry]]:
    """The root piece's fitting entries, per position.

    Per position, the entries of the root piece (`root_piece`) that fit there on the empty grid: the
    branches of the most-constrained-first search's root, and the parts of its split counts."""
    instance = question.instance
    fitting, entries_of, start = key_index(instance, tuple(sorted(question.periods.items())))
    every = (1 << 4 * len(instance.pieces)) - 1
    root = root_piece(fitting, entries_of, start, grid_neighbours(instance.rows, instance.cols), every)
    return [[entry for entry in entries_of[key] if entry[2][0] == root] for key in start]


def root_piece(fitting: dict[int, int], entries_of: dict[int, list[Entry]], start: list[int],
               neighbours: list[list[tuple[int, int]]], every: int) -> int:
    """The piece the most-constrained-first search places first, everywhere it fits (the root's branches).

    Each placement of a piece on the empty grid leaves its neighbours some
    candidates, and the search goes on at the neighbour with the fewest: the
    root piece is the one whose placements leave the fewest of those second
    placements in all (the smallest id among equals). On the random 5x5 and
    6x6 puzzles it places 1.3-13x fewer pieces than a start in the top-left
    corner (docs/squares.md, "Counting paths"). `every`: the bits of every piece.
    """
    second: dict[int, int] = {}
    for pos, around in enumerate(neighbours):
        for _, bits, (piece, _), adds in entries_of[start[pos]]:
            rest = every ^ bits
            counts = [(fitting.get(start[other] + adds[side], 0) & rest).bit_count() for other, side in around]
            second[piece] = second.get(piece, 0) + min(counts, default=0)
    return min(second, key=lambda piece: (second[piece], piece))
