"""Imperative Sudoku solvers: constraint propagation with the fewest-candidates search, and a plain backtracker.

FAST keeps each cell's candidates as a bit mask (bit v-1 for value v) and
propagates its rules to a fixpoint: a cell left with one candidate takes
it and leaves its peers (naked single), a value with one place left in a
row, column or box goes there (hidden single) (these two are Norvig's
eliminate and assign), and, when those change nothing, locked candidates:
where a row or column crosses a box, a value the line holds only there
leaves the rest of the box, and one the box holds only there leaves the
rest of the line; on 16x16, when those change nothing either, naked pairs:
two cells of a unit left the same two values take them from the unit's
other cells. Then it branches on the cell with the fewest candidates
(minimum remaining values), of those the first in reading order with the
most open peers (the degree heuristic); on 16x16, before that, the most
peers left two values one of which it holds, then the most open peers
holding one of its values (the cell whose values narrow the board the
most). It branches on a copy of the masks. PLAIN is
the reference: cells in reading order, each value from 1 up that its row,
column and box do not hold. Both spend one node of the Budget per search
node.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from pysolve.answers import Found, counted, validation
from pysolve.boards.model import searched
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded
from pysolve.sudoku.model import Board, Question, broken, placement
from pysolve.sudoku.model import geometry as sudoku_geometry
from pysolve.trace import pushed, recorder

FAST, PLAIN = "fast", "plain"
PAIRS_FROM = 16  # naked pairs from this side up: on 9x9 they cost more time than the nodes they save
SHARING_FROM = 16  # the tie-break by peers sharing a value from this side up (9x9: unchanged, as generated)
STRATEGIES = (FAST, PLAIN)


@dataclass
class Search:
    """What both searches hold: the board, how many solutions to find, the budget, the solutions found."""

    board: Board
    limit: int
    budget: Budget
    solutions: list[bytes] = field(default_factory=list)  # each cell's value in reading order, compact


@dataclass
class Propagation(Search):
    """The fast search: candidate masks propagated by singles and locked candidates, branching on the fewest."""

    def __post_init__(self) -> None:
        geometry = self.board.geometry
        self.full = (1 << self.board.size) - 1
        self.peers, self.units, self.units_of = geometry.peers, geometry.all_units, geometry.units_of
        self.bands, self.bands_of = bands(self.board.size)
        self.peer_bits = peer_bits(self.board.size)
        self.with_pairs = self.board.size >= PAIRS_FROM
        self.with_sharing = self.board.size >= SHARING_FROM
        self.trace = recorder(self.budget.trace)

    def run(self) -> None:
        """Search from the givens; SearchLimitExceeded when the budget runs out."""
        candidates = [1 << (value - 1) if value else self.full for value in self.board.cells]
        givens = [cell for cell, value in enumerate(self.board.cells) if value]
        self.search(candidates, givens, set(range(len(self.units))))

    def search(self, candidates: list[int], singles: list[int], changed: set[int]) -> bool:
        """Propagate, then branch on the cell with the fewest values.

        Propagate, then try each value of the cell with the fewest (of those, the first with the most open
        peers holding one of its values on 16x16, two-value ones first, then with the most open peers); True
        once `limit`
        solutions are found.
        With `budget.trace`, each value tried is a node, failed when propagation breaks a rule."""
        self.budget.spend()
        trace = self.trace
        if not self.propagate(candidates, singles, changed):
            trace.fail()
            return False
        fewest, open_cells, tied = self.board.size + 1, 0, []
        for cell, mask in enumerate(candidates):
            if mask & (mask - 1):
                open_cells |= 1 << cell
                count = mask.bit_count()
                if count < fewest:
                    fewest, tied = count, [cell]
                elif count == fewest:
                    tied.append(cell)
        best, most, peers = -1, (-1, -1, -1), self.peers
        for cell in tied:  # the first with the most peers sharing a value (16x16: two-value ones, open ones), open
            pairs = sharing = 0
            if self.with_sharing:
                mask = candidates[cell]
                for peer in peers[cell]:
                    held = candidates[peer]
                    if held & mask:
                        rest = held & (held - 1)
                        if rest:
                            sharing += 1
                            if not rest & (rest - 1):
                                pairs += 1
            key = (pairs, sharing, (open_cells & self.peer_bits[cell]).bit_count())
            if key > most:
                best, most = cell, key
        if best < 0:
            self.solutions.append(bytes([mask.bit_length() for mask in candidates]))
            trace.solution()
            return len(self.solutions) >= self.limit
        choices = candidates[best]
        while choices:
            bit = choices & -choices
            choices ^= bit
            trial = candidates[:]
            trial[best] = bit
            trace.push_as(placement, best, self.board.size, bit.bit_length())
            if self.search(trial, [best], set(self.units_of[best])):
                return True
            trace.pop()
        return False

    def propagate(self, candidates: list[int], singles: list[int], changed: set[int]) -> bool:
        """Singles, then locked candidates, then (16x16) naked pairs, to a fixpoint; False on a contradiction.

        Naked singles leave their peers and hidden singles are placed first. `singles` are cells just left
        with one candidate, `changed` the units whose masks changed since they were last looked at for hidden
        singles; locked candidates look at the bands of the units looked at since they last did, naked pairs
        at those units (the rest stayed as they left them).
        """
        peers, units, units_of, full, bands_of = self.peers, self.units, self.units_of, self.full, self.bands_of
        dirty: set[int] = set()  # the bands whose units changed since locked candidates last looked at them
        looked: set[int] = set()  # the units that changed since naked pairs last looked at them
        while True:
            while singles:
                cell = singles.pop()
                bit = candidates[cell]
                for peer in peers[cell]:
                    mask = candidates[peer]
                    if mask & bit:
                        mask ^= bit
                        if not mask:
                            return False
                        candidates[peer] = mask
                        changed.update(units_of[peer])
                        if not mask & (mask - 1):
                            singles.append(peer)
            if not changed:
                if not self.locked(candidates, singles, changed, dirty):
                    return False
                if not changed:
                    if not self.with_pairs or not looked:
                        return True
                    if not self.pairs(candidates, singles, changed, looked):
                        return False
                    if not changed:
                        return True
            looking, changed = changed, set()
            looked |= looking
            for number in looking:
                dirty.update(bands_of[number])
                unit = units[number]
                once = twice = placed = 0
                for cell in unit:
                    mask = candidates[cell]
                    if mask & (mask - 1):
                        twice |= once & mask
                    else:
                        placed |= mask
                    once |= mask
                if once != full:
                    return False  # some value has no place left in this unit
                hidden = once & ~twice & ~placed
                while hidden:
                    bit = hidden & -hidden
                    hidden ^= bit
                    cell = next((cell for cell in unit if candidates[cell] & bit), -1)
                    if cell < 0:
                        return False  # its one place was just given another value
                    candidates[cell] = bit
                    singles.append(cell)
                    changed.update(units_of[cell])


    def pairs(self, candidates: list[int], singles: list[int], changed: set[int], looked: set[int]) -> bool:
        """Naked pairs in the units `looked` holds; False on a contradiction.

        Two cells of a unit left the same two values: the unit's other cells lose both. Cells left with one
        value join `singles`, the units changed join `changed`."""
        units, units_of = self.units, self.units_of
        for number in looked:
            unit = units[number]
            first_of: dict[int, int] = {}  # a two-value mask -> the first cell of the unit holding it
            for cell in unit:
                mask = candidates[cell]
                rest = mask & (mask - 1)
                if not rest or rest & (rest - 1):
                    continue  # one value, or more than two
                partner = first_of.setdefault(mask, cell)
                if partner == cell:
                    continue
                keep = ~mask
                for other in unit:
                    held = candidates[other]
                    if held & mask and other != cell and other != partner:
                        held &= keep
                        if not held:
                            return False
                        candidates[other] = held
                        changed.update(units_of[other])
                        if not held & (held - 1):
                            singles.append(other)
        looked.clear()
        return True

    def locked(self, candidates: list[int], singles: list[int], changed: set[int], dirty: set[int]) -> bool:
        """Locked candidates in the bands that changed; False on a contradiction.

        Where a row or column crosses a box (a segment), a value that the line holds only there leaves the
        rest of that box (claiming), and one that the box holds only there leaves the rest of the line
        (pointing). A band (the rows or the columns that cross the same boxes) is looked at when `dirty`
        holds it; the values of its segments are taken as it begins. Cells left with one value join
        `singles`, the units changed join `changed`."""
        units_of, bands = self.units_of, self.bands
        for band in dirty:
            segments, lines, boxes, line_of, box_of = bands[band]
            unions = []
            for segment in segments:
                union = 0
                for cell in segment:
                    union |= candidates[cell]
                unions.append(union)
            shared = []  # per line, then per box: the values two or more of its segments hold
            for members in lines + boxes:
                once = twice = 0
                for k in members:
                    union = unions[k]
                    twice |= once & union
                    once |= union
                shared.append(twice)
            for k, union in enumerate(unions):
                in_line, in_box = shared[line_of[k]], shared[box_of[k]]
                if not union & (in_line ^ in_box):
                    continue  # no value held here and elsewhere in only one of the line and the box
                for drop, others in ((union & in_line & ~in_box, lines[line_of[k]]),
                                     (union & in_box & ~in_line, boxes[box_of[k] - len(lines)])):
                    if drop:
                        keep = ~drop
                        for other in others:
                            if other == k:
                                continue
                            for cell in segments[other]:
                                mask = candidates[cell]
                                if mask & drop:
                                    mask &= keep
                                    if not mask:
                                        return False
                                    candidates[cell] = mask
                                    changed.update(units_of[cell])
                                    if not mask & (mask - 1):
                                        singles.append(cell)
        dirty.clear()
        return True


@functools.cache
def peer_bits(size: int) -> tuple[int, ...]:
    """For each cell, its peers as a bit set over the cells (bit k for cell k in reading order)."""
    return tuple(sum(1 << peer for peer in peers) for peers in sudoku_geometry(size).peers)


Band = tuple[list[tuple[int, ...]], list[list[int]], list[list[int]], list[int], list[int]]


@functools.cache
def bands(size: int) -> tuple[list[Band], tuple[tuple[int, ...], ...]]:
    """Where the lines cross the boxes, band by band, and the bands each unit belongs to.

    A band is the rows (or the columns) that cross the same boxes; where a line crosses a box is a segment.
    A band holds its segments (their cells), the segments of each of its lines and of each of its boxes,
    and for each segment the number of its line, and of its box counted after the lines. The row bands
    come first, top down, then the column bands, left to right; a unit (numbered as in `all_units`)
    belongs to its line's band, a box to one row band and one column band."""
    geometry = sudoku_geometry(size)
    box_rows, box_cols = geometry.box
    found = []
    for lines, across, along in ((geometry.units[0], box_cols, box_rows), (geometry.units[1], box_rows, box_cols)):
        per_line = size // across  # segments of a line, boxes of a band
        for top in range(0, size, along):
            segments = [line[start:start + across] for line in lines[top:top + along]
                        for start in range(0, size, across)]
            numbers = range(len(segments))
            found.append((segments, [[k for k in numbers if k // per_line == line] for line in range(along)],
                          [[k for k in numbers if k % per_line == box] for box in range(per_line)],
                          [k // per_line for k in numbers], [along + k % per_line for k in numbers]))
    row_bands, boxes_across = size // box_rows, size // box_cols
    of_unit = ([(row // box_rows,) for row in range(size)] + [(row_bands + col // box_cols,) for col in range(size)]
               + [(box // boxes_across, row_bands + box % boxes_across) for box in range(size)])
    return found, tuple(of_unit)


@dataclass
class Backtracking(Search):
    """The reference search: cells in reading order, values from 1 up that no peer holds."""

    def run(self) -> None:
        """Search from the givens (a value given twice in a unit: no solution); SearchLimitExceeded when out."""
        geometry, size = self.board.geometry, self.board.size
        # the step into the next cell: a node the value just placed, or `fill` itself, chosen once
        self.trace = recorder(self.budget.trace)
        self.step = self.trace.wrap(pushed, self.fill, self.placed)
        self.values = list(self.board.cells)
        # per index: the values held in that row, column and box
        self.used: list[list[set[int]]] = [[set(), set(), set()] for _ in range(size)]
        self.units = [(cell // size, cell % size, geometry.box_of(cell)) for cell in range(size * size)]
        for cell, value in enumerate(self.values):
            if value:
                if not self.allowed(cell, value):
                    return
                self.mark(cell, value, True)
        self.empty = [cell for cell, value in enumerate(self.values) if not value]
        self.fill(0)

    def allowed(self, cell: int, value: int) -> bool:
        """True when no cell of `cell`'s row, column or box holds `value`."""
        return all(value not in self.used[index][kind] for kind, index in enumerate(self.units[cell]))

    def mark(self, cell: int, value: int, placed: bool) -> None:
        """Record `value` as held (or no longer held) by `cell`'s row, column and box."""
        for kind, index in enumerate(self.units[cell]):
            if placed:
                self.used[index][kind].add(value)
            else:
                self.used[index][kind].discard(value)

    def placed(self, k: int) -> tuple[str, dict[str, int]]:
        """The label and move of the step into the k-th empty cell: the value just put on the one before."""
        cell = self.empty[k - 1]
        return placement(cell, self.board.size, self.values[cell])

    def fill(self, k: int) -> bool:
        """Fill the k-th empty cell and the rest.

        Fill the k-th empty cell and the rest; True once `limit` solutions are found. With `budget.trace`,
        each value placed is a node, failed when the next cell has no value left."""
        self.budget.spend()
        trace = self.trace
        if k == len(self.empty):
            self.solutions.append(bytes(self.values))
            trace.solution()
            return len(self.solutions) >= self.limit
        cell, tried = self.empty[k], False
        for value in range(1, self.board.size + 1):
            if self.allowed(cell, value):
                tried = True
                self.values[cell] = value
                self.mark(cell, value, True)
                done = self.step(k + 1)
                self.mark(cell, value, False)
                self.values[cell] = 0
                if done:
                    return True
        if not tried:
            trace.fail()
        return False


def can_trace(question: Question) -> bool:
    """A solve or a count records its search: each value placed a node (pysolve.trace)."""
    return not question.validate


def solve(question: Question, budget: Budget) -> Found:
    """Solve the board (first solution, or count up to `question.count`) by the question's strategy."""
    return counted(search(question.board, question.limit, question.strategy, budget), question.count)


def validate(question: Question, budget: Budget) -> Found:
    """Check a filled grid: the rows, columns and boxes that hold a value twice."""
    return validation(question.board.rows(), broken(question.board))


def search(board: Board, limit: int, strategy: str, budget: Budget) -> Found:
    """Up to `limit` solutions by propagation or backtracking, within the budget.

    Up to `limit` solutions by FAST (propagation) or PLAIN (backtracking), within `budget`, their grids
    written out within it too (a search out of time says how many it found: a count says "at least")."""
    solver = Propagation(board, limit, budget) if strategy == FAST else Backtracking(board, limit, budget)
    reason = ""
    try:
        solver.run()
    except SearchLimitExceeded as error:
        reason = str(error)
    return searched(solver.solutions, board.rows, budget, reason, {"strategy": strategy})
