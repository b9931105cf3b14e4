"""The row-order search made cheap (`fast`): an index of the fitting rotations, run as compiled nested loops.

It fills the positions in the reference's order and finds the solutions in
the same order, but never tries a piece that cannot fit: each position's
candidates are keyed by the labels its upper and left neighbours need
(`indexes.candidate_index`). It answers the first solution (the same one on
every back end) and, with `classes`, every question under the eternity rule
but a count. `CompiledRows` is shared with the halves' count (`halves`).
(Measured against it and dropped: filling the frame first, over twice the nodes on
Owen's 5x5; a look-ahead on the cell below, 5% fewer nodes.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pysolve.budget import Budget
from pysolve.squares.indexes import candidate_index, first_candidates, rivals
from pysolve.squares.model import Cell, Instance, Periods, placement
from pysolve.squares.visitors import Visit, only_canonical


def row_order(instance: Instance, visit: Visit, budget: Budget, classes: bool = False,
              periods: Periods | None = None, prefix: tuple[Cell, ...] = ()) -> None:
    """The same row-by-row search over an index: each position's candidates keyed by the needed labels.

    Labels become small integers; a candidate list holds only rotations that
    fit the position's frame, keyed by the North and West labels its upper and
    left neighbours need, so no candidate is tried that cannot fit. Candidates
    keep the original's order, so solutions come in the same order. The loops
    run as nested Python loops, a row segment at a time (`RowSegments`).

    With `classes`, only the canonical solution of each class under turns of
    the whole grid is searched for (see `rivals`); wrap `visit` in `with_turns`
    to get every solution from them, in about a quarter of the time. With a
    `prefix`, only grids that begin with those cells are searched.
    """
    index, free = candidate_index(instance, periods)
    rival = rivals(instance.rows, instance.cols) if classes else [False] * (instance.rows * instance.cols)
    if any(rival):
        index[0] = first_candidates(index, rival)
    elif classes:  # a single cell: its classes are its turns
        visit = only_canonical(visit, periods)
    RowSegments(instance, index, free, rival, visit, budget, prefix).run()


class CompiledRows:
    """Row-order loops compiled to nested Python loops, one function per segment of at most SEGMENT cells of a row.

    A plain recursive step per cell spends most of its time calling itself
    and finding its table: nesting a segment's loops in one function, each
    cell's table narrowed to the North label once per call, halves the time
    of a placement (Owen's 6x6: 4.5 s -> 2.0 s). `row_loops` writes the
    function; for a segment of two cells from column c it reads:

        def segment(left, used=used, above=above, ...):
            if ticks[0] >= BATCH: charge()
            placed = 0
            a0, a1 = above[c:c + 2]
            r0, r1 = t0[a0], t1[a1]
            for p0, e0, s0, x0 in r0[left]:
                if used[p0]: continue
                placed += 1
                used[p0] = True
                for p1, e1, s1, x1 in r1[e0]:
                    (the same)
                        (the innermost lines: the search's, `RowSegments`, or the halves', `HalfRows`)
                    used[p1] = False
                used[p0] = False
            above[c:c + 2] = a0, a1
            ticks[0] += placed
            return False

    where `t0[north][west]` lists the first cell's candidates as (piece
    number, East code, South code, x: what the innermost lines use of it),
    `above` holds the North code each column's next cell needs, and `deeper`
    is the next segment. Placements are counted (`states`) and charged to the
    budget in batches: as a call begins, and within a call on its first two
    cells (one call can run for seconds on a row of many candidates). A
    subclass says what a candidate carries (`carried`), which it keeps
    (`keeps`), and what the innermost lines do (`innermost`).
    """

    SEGMENT = 8  # cells per segment at most (Python allows 20 nested loops)
    BATCH = 4096  # placements charged to the budget at once
    ARGUMENTS = "left"  # what a segment function takes, before the shared names
    keeps_first = False  # whether the top-left's piece is kept in first[0] for the guarded corners

    def __init__(self, instance: Instance, index: list, free: int, budget: Budget, shared: dict[str, Any]) -> None:
        self.cols, self.free, self.index, self.budget = instance.cols, free, index, budget
        self.number = {piece.id: n for n, piece in enumerate(instance.pieces)}
        self.shared: dict[str, Any] = {"above": [free] * instance.cols, "used": [False] * len(self.number),
                                       "ticks": [0], **shared}

    def compile(self, begin: int, end: int, last: Callable[..., bool] | None) -> Callable[..., bool]:
        """The function of the first segment of positions begin..end-1; each calls the next, the last `last`."""
        codes = range(self.free + 1)
        deeper = last
        for start, size in reversed(self.segments(begin, end)):
            positions = range(start, start + size)
            tables = [[[[(self.number[piece], self.free if pos % self.cols == self.cols - 1 else east, south,
                          self.carried(pos, piece, turns, south))
                         for piece, turns, east, south in self.index[pos][north * (self.free + 1) + west]
                         if self.keeps(pos, piece)]
                        for west in codes] for north in codes] for pos in positions]
            names = [*self.shared, "deeper"]
            header = (f"def segment({self.ARGUMENTS}, {', '.join(f'{name}={name}' for name in names)}, "
                      f"{numbered('t{i}=t{i}', size)}):")
            source = row_loops(header, start, start % self.cols, [self.guarded(pos) for pos in positions],
                               self.innermost(start, size, end), self.keeps_first, start + size < end)
            namespace = dict(self.shared, BATCH=self.BATCH, charge=self.charge, deeper=deeper,
                             **{f"t{i}": table for i, table in enumerate(tables)})
            exec(compile(source, f"<squares segment at {start}>", "exec"), namespace)
            deeper = namespace["segment"]
        return deeper  # type: ignore[return-value]

    def segments(self, begin: int, end: int) -> list[tuple[int, int]]:
        """(first position, cells) of each segment of positions begin..end-1: rows cut every SEGMENT cells."""
        cut, pos = [], begin
        while pos < end:
            size = min(self.SEGMENT - pos % self.cols % self.SEGMENT, self.cols - pos % self.cols)
            cut.append((pos, size))
            pos += size
        return cut

    def charge(self) -> None:
        """Charge the placements counted since the last charge to the budget (it raises past its limits)."""
        ticks = self.shared["ticks"]
        placed, ticks[0] = ticks[0], 0
        self.budget.spend(placed)

    def carried(self, pos: int, piece: int, turns: int, south: int) -> object:
        """What a candidate carries for the innermost lines (the x of `row_loops`)."""
        raise NotImplementedError

    def keeps(self, pos: int, piece: int) -> bool:
        """Whether a piece is a candidate on a position at all.

        Whether piece `piece` is a candidate on position `pos` at all (every fitting one, unless a subclass
        narrows them)."""
        return True

    def guarded(self, pos: int) -> bool:
        """Whether position `pos` is a rival corner checked against the top-left piece as the search goes."""
        return False

    def innermost(self, start: int, size: int, end: int) -> list[str]:
        """The lines run once every cell of the segment from `start` (`size` cells) is placed."""
        raise NotImplementedError


def numbered(text: str, size: int) -> str:
    """`text` once for each i below `size`, comma-separated (a one-element tuple keeps its comma)."""
    return ", ".join(text.format(i=i) for i in range(size)) + ("," if size == 1 else "")


def row_loops(header: str, start: int, column: int, guarded: list[bool], innermost: list[str],
              keeps_first: bool = False, marks_last: bool = True) -> str:
    """The source of a segment function: one nested loop per cell.

    The source of a segment function (see CompiledRows): `header`, then one nested loop per cell from
    position `start` (in `column`) on, `innermost` with every cell placed. A guarded cell skips a piece whose id
    is below the top-left's, which the cell at position 0 keeps in `first[0]` (`keeps_first`). Without
    `marks_last` the last cell's piece is not marked used: nothing is placed after it."""
    size = len(guarded)
    marked = size if marks_last else size - 1
    ups = f"above[{column}:{column + size}]"
    lines = [header, "    if ticks[0] >= BATCH:", "        charge()", "    placed = 0",
             f"    {numbered('a{i}', size)} = {ups}", f"    {numbered('r{i}', size)} = {numbered('t{i}[a{i}]', size)}"]
    for i, guard in enumerate(guarded):
        pad = "    " * (i + 1)
        lines += [f"{pad}for p{i}, e{i}, s{i}, x{i} in r{i}[{'left' if i == 0 else f'e{i - 1}'}]:",
                  f"{pad}    if used[p{i}]{f' or x{i}[0] < first[0]' if guard else ''}:",
                  f"{pad}        continue",
                  f"{pad}    placed += 1"]
        if i <= 1 and i < size - 1:  # a long call charges as it goes (a row of many candidates: seconds a call)
            lines += [f"{pad}    if placed >= BATCH:",
                      f"{pad}        ticks[0] += placed",
                      f"{pad}        placed = 0",
                      f"{pad}        charge()"]
        if i < marked:
            lines.append(f"{pad}    used[p{i}] = True")
        if start + i == 0 and keeps_first:
            lines.append(f"{pad}    first[0] = x0[0]")
    lines += ["    " * (size + 1) + line for line in innermost]
    lines += [f"{'    ' * (i + 2)}used[p{i}] = False" for i in reversed(range(marked))]
    lines += [f"    {ups} = {numbered('a{i}', size)}", "    ticks[0] += placed", "    return False"]
    return "\n".join(lines) + "\n"


class RowSegments(CompiledRows):
    """The row-order search as compiled loops (see CompiledRows): each grid found goes to `visit`.

    A candidate carries its cell (piece, turns), written into `cells`; the
    innermost lines of a segment set the North codes of the row below, write
    the cells and call the next segment (after the last, `solution`), giving
    every piece back and returning True at once when it asks to stop. On a
    corner the top-left turns onto (`rival`), a piece with a smaller id than
    the top-left's is skipped. With `budget.trace`, the segments are one cell
    each and every placement is recorded (pysolve.trace), with the solutions.
    """

    def __init__(self, instance: Instance, index: list, free: int, rival: list[bool], visit: Visit,
                 budget: Budget, prefix: tuple[Cell, ...] = ()) -> None:
        size = instance.rows * instance.cols
        self.visit, self.rival, self.keeps_first = visit, rival, any(rival)
        self.cells: list[Cell] = [(0, 0)] * size
        self.trace = budget.trace
        recording = {} if self.trace is None else {"trace": self.trace, "placement": placement}
        if self.trace is not None:
            self.SEGMENT = 1  # a placement a loop body: each is recorded as it is made
        super().__init__(instance, index, free, budget, {"cells": self.cells, "first": [0], **recording})
        self.left = self.follow(prefix, index, rival)
        self.first = self.compile(len(prefix), size, self.solution)

    def carried(self, pos: int, piece: int, turns: int, south: int) -> Cell:
        """A candidate carries its cell."""
        return piece, turns

    def guarded(self, pos: int) -> bool:
        """The rival corners are checked against the top-left piece."""
        return self.rival[pos]

    def innermost(self, start: int, size: int, end: int) -> list[str]:
        """Set the row below's North codes, write the cells, search on; stop at once when asked."""
        column = start % self.cols
        ups = f"above[{column}:{column + size}]"
        lines = [f"{ups} = {numbered('s{i}', size)}",
                 f"cells[{start}:{start + size}] = {numbered('x{i}', size)}",
                 f"if deeper(e{size - 1}):",
                 f"    {' = '.join(f'used[p{i}]' for i in range(size))} = False",
                 f"    {ups} = {numbered('a{i}', size)}",
                 "    ticks[0] += placed",
                 "    return True"]
        if self.trace is None:
            return lines
        return [*lines[:2], f"trace.push(*placement({start}, {self.cols}, *x0))", *lines[2:], "trace.pop()"]

    def follow(self, prefix: tuple[Cell, ...], index: list, rival: list[bool]) -> int | None:
        """Place a prefix's cells as the search would; the West code left, or None.

        Place the prefix's cells as the search would (each a candidate of its cell, its piece unused, a rival
        corner larger than the top-left); the West code left for the next cell, None when one is not."""
        cols, left = self.cols, self.free
        above, used, first = self.shared["above"], self.shared["used"], self.shared["first"]
        for pos, cell in enumerate(prefix):
            col = pos % cols
            fitting = [entry for entry in index[pos][above[col] * (self.free + 1) + left] if entry[:2] == cell]
            if not fitting or used[self.number[cell[0]]] or (rival[pos] and cell[0] < first[0]):
                return None
            _, _, east, south = fitting[0]
            used[self.number[cell[0]]], above[col], self.cells[pos] = True, south, cell
            if pos == 0:
                first[0] = cell[0]
            left = self.free if col == cols - 1 else east
        return left

    def run(self) -> None:
        """Search on from the prefix (nothing when it begins no searched grid), charging every placement."""
        if self.left is None:
            return
        try:
            self.first(self.left)
        finally:
            self.charge()

    def solution(self, _east: int) -> bool:
        """The grid of a full board, handed to the visitor (True: stop)."""
        cols, cells = self.cols, self.cells
        if self.trace is not None:
            self.trace.solution()
        return self.visit(tuple(tuple(cells[r:r + cols]) for r in range(0, len(cells), cols)))
