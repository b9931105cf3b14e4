"""Imperative Python solvers: the original's search as reference, and an indexed fast one.

`reference` is the original program's search, literally: positions row by row
from the top-left, every unused piece in every rotation, kept when it matches
its left and upper neighbours (and, under the eternity rule, the frame). It can
record a trace of every placement and backtrack for the HTML replay.

`fast` is the same search made cheap: labels coded as integers, and each
position's fitting rotations indexed by the labels its upper and left
neighbours need, so it never tries a piece that cannot fit. It answers the
first solution (the same one on every back end) and every question under
the eternity rule but a count, whose frame suits the row order. (Measured against it and
dropped: filling the frame first, 2x more nodes on Owen's 5x5; a look-ahead
on the cell below, 5% fewer nodes.)

`halves` counts under the eternity rule with the same loops: the top halves
of the grids counted by their middle line and pieces, each bottom half (the
top half of the grid turned a half turn) adding the count of the top halves
it completes: 10.7 million placements instead of 14.5 million on Owen's 6x6.

`mrv` fills the most constrained cell first over bit sets of (piece, turns)
and answers `--all`, `--count` and `--up-to-rotation` under the insect rule,
where the free border leaves the row order nearly unconstrained: 4-6x fewer
placements than `fast` on generated 5x5 and 6x6 puzzles. Under the eternity
rule it places 2.2x more than `fast` on Owen's 6x6 (it fills the frame
first), so it is not used there.

`solve(question, budget)` is the back end: it runs one of them with a
`Collector` that keeps, or only counts, the solutions it visits.
"""

from __future__ import annotations

import functools
import json
from itertools import chain
from collections.abc import Callable
from dataclasses import dataclass, field

from pysolve import memory
from pysolve.answers import Found
from pysolve.budget import Budget
from pysolve.squares.model import (COUNT, FIRST, Cell, E, Edges, Grid, Instance, Matcher, N, Periods, Question, S, W,
                                   class_size, fits_at, found, grid_neighbours, grid_rotations, is_canonical,
                                   joins_halves,
                                   most_constrained_first, oriented)

Visit = Callable[[Grid], bool]  # gets each solution; returns True to stop the search


class Collector:
    """The visitor of a question: keeps (or, for a count, only counts) solutions; stops after the first."""

    def __init__(self, question: Question) -> None:
        self.question, self.grids, self.count = question, [], 0

    def __call__(self, grid: Grid) -> bool:
        self.count += 1
        if self.question.mode != COUNT:
            self.grids.append(grid)
        return self.question.mode == FIRST


def solve(question: Question, budget: Budget) -> Found:
    """`fast` (indexed, symmetry-pruned) or `original` (the reference search), spending the budget."""
    instance, collector, periods = question.instance, Collector(question), question.periods
    if question.strategy == "original":
        visit = only_canonical(collector, periods) if question.up_to_rotation else collector
        reference(instance, visit, budget, periods=periods)
    elif question.mode == FIRST and not question.up_to_rotation:
        fast(instance, collector, budget, periods=periods)
    elif joins_halves(question):
        collector.count = halves(question, budget) * class_size(question)
    elif not most_constrained_first(question):
        fast(instance, collector if question.up_to_rotation else with_turns(collector, periods), budget,
             classes=True, periods=periods, prefix=question.prefix)
    elif question.mode == COUNT:
        collector.count = mrv(question, None, budget)
    else:
        mrv(question, collector, budget)
    return found(question, collector.grids, collector.count, {"states": budget.spent})


@dataclass
class Trace:
    """Every event of a search, in order: ("place", pos, piece, turns), ("back", pos), ("solution",)."""

    events: list[tuple] = field(default_factory=list)
    max_events: int = 0  # 0: unbounded
    truncated: bool = False

    def add(self, *event: object) -> None:
        """Record one event (drop it and mark the trace truncated past max_events)."""
        if self.max_events and len(self.events) >= self.max_events:
            self.truncated = True
            return
        self.events.append(event)

    def json_lines(self, instance: Instance) -> str:
        """The trace as JSON lines for other tools: a `start` line (the instance), one per event, an `end` line."""
        cols = instance.cols
        lines = [{"kind": "start", **instance.to_json()}]
        solutions = 0
        for kind, *rest in self.events:
            line: dict[str, object] = {"kind": kind}
            if kind == "solution":
                solutions += 1
                line["number"] = solutions
            else:
                line.update(zip(("pos", "piece", "turns"), rest))
                line["row"], line["col"] = divmod(line["pos"], cols)  # type: ignore[call-overload]
            lines.append(line)
        lines.append({"kind": "end", "events": len(self.events), "solutions": solutions,
                      "truncated": self.truncated})
        return "".join(json.dumps(line) + "\n" for line in lines)


def reference(instance: Instance, visit: Visit, limit: Budget, trace: Trace | None = None,
              periods: Periods | None = None) -> None:
    """The original's search: row by row, each unused piece in each rotation, left and up checked.

    `periods` (piece id -> how many of its turns count, default each piece's
    period) leaves out a turn that looks like an earlier one. With a `trace`,
    every placement, backtrack and solution is recorded; the search stops
    when the trace is full.
    """
    rows, cols = instance.rows, instance.cols
    matcher = Matcher(instance)
    cells: list[tuple[int, int, Edges]] = []
    used: set[int] = set()
    periods = periods or instance.periods()
    rotations = [(piece.id, [piece.turned(turns) for turns in range(periods[piece.id])]) for piece in instance.pieces]

    def fits(pos: int, edges: Edges) -> bool:
        r, c = divmod(pos, cols)
        return fits_at(matcher, edges, r, c, rows, cols, cells[pos - cols][2] if r else None,
                       cells[pos - 1][2] if c else None)

    def place(pos: int) -> bool:
        if trace is not None and trace.truncated:
            return True  # the trace is full: nothing more to record
        if pos == rows * cols:
            if trace is not None:
                trace.add("solution")
            return visit(tuple(tuple((p, t) for p, t, _ in cells[r * cols:(r + 1) * cols]) for r in range(rows)))
        for piece, turned in rotations:
            if piece in used:
                continue
            limit.spend(len(turned))
            for turns, edges in enumerate(turned):
                if not fits(pos, edges):
                    continue
                cells.append((piece, turns, edges))
                used.add(piece)
                if trace is not None:
                    trace.add("place", pos, piece, turns)
                stop = place(pos + 1)
                cells.pop()
                used.discard(piece)
                if trace is not None:
                    trace.add("back", pos)
                if stop:
                    return True
        return False

    place(0)


# ---------------------------------------------------------------- the fast solver

def fast(instance: Instance, visit: Visit, limit: Budget, classes: bool = False,
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
    RowSegments(instance, index, free, rival, visit, limit, prefix).run()


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
    cells (one call can run for seconds on a row of many candidates). A subclass says what a candidate carries (`carried`),
    which it keeps (`keeps`), and what the innermost lines do (`innermost`).
    """

    SEGMENT = 8  # cells per segment at most (Python allows 20 nested loops)
    BATCH = 4096  # placements charged to the budget at once
    ARGUMENTS = "left"  # what a segment function takes, before the shared names
    keeps_first = False  # whether the top-left's piece is kept in first[0] for the guarded corners

    def __init__(self, instance: Instance, index: list, free: int, limit: Budget, shared: dict[str, object]) -> None:
        self.cols, self.free, self.index, self.limit = instance.cols, free, index, limit
        self.number = {piece.id: n for n, piece in enumerate(instance.pieces)}
        self.shared = {"above": [free] * instance.cols, "used": [False] * len(self.number), "ticks": [0], **shared}

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
            exec(compile(source, f"<squares segment at {start}>", "exec"), namespace)  # noqa: S102
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
        placed, ticks[0] = ticks[0], 0  # type: ignore[index]
        self.limit.spend(placed)

    def carried(self, pos: int, piece: int, turns: int, south: int) -> object:
        """What a candidate carries for the innermost lines (the x of `row_loops`)."""
        raise NotImplementedError

    def keeps(self, pos: int, piece: int) -> bool:
        """Whether piece `piece` is a candidate on position `pos` at all (every fitting one, unless a subclass
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
    """The source of a segment function (see CompiledRows): `header`, then one nested loop per cell from
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
    the top-left's is skipped.
    """

    def __init__(self, instance: Instance, index: list, free: int, rival: list[bool], visit: Visit,
                 limit: Budget, prefix: tuple[Cell, ...] = ()) -> None:
        size = instance.rows * instance.cols
        self.visit, self.rival, self.keeps_first = visit, rival, any(rival)
        self.cells: list[Cell] = [(0, 0)] * size
        super().__init__(instance, index, free, limit, {"cells": self.cells, "first": [0]})
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
        return [f"{ups} = {numbered('s{i}', size)}",
                f"cells[{start}:{start + size}] = {numbered('x{i}', size)}",
                f"if deeper(e{size - 1}):",
                f"    {' = '.join(f'used[p{i}]' for i in range(size))} = False",
                f"    {ups} = {numbered('a{i}', size)}",
                "    ticks[0] += placed",
                "    return True"]

    def follow(self, prefix: tuple[Cell, ...], index: list, rival: list[bool]) -> int | None:
        """Place the prefix's cells as the search would (each a candidate of its cell, its piece unused, a rival
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
        return self.visit(tuple(tuple(cells[r:r + cols]) for r in range(0, len(cells), cols)))


class HalfRows(CompiledRows):
    """The top (or the bottom) halves of the canonical grids with a given top-left piece, as compiled loops.

    A half is the first `rows` rows of a grid, filled row by row from the
    top border; a bottom half is filled the same way as the top rows of the
    grid turned a half turn, its pieces turned with it. Every half reached is
    keyed by its pieces and the codes its last row asks of the row across the
    middle line (`carried`: each candidate's piece bit, and on the half's last
    row its South code shifted to the bits of its column, the bottom's read
    the other way round). A top half adds one to the count of its key in
    `counts`; a bottom half adds the count of the key it needs: its own key
    with every piece bit flipped, since its pieces are exactly the ones the
    top half lacks (it starts from every bit set). Under the eternity rule a
    seam's two sides carry the same code, so both halves write the same codes
    on their middle line. The top-left's piece is the only one on the top-left
    corner and no bottom half holds it; a rival corner (see `rivals`) holds a
    larger piece only.
    """

    ARGUMENTS = "left, mask"

    def __init__(self, instance: Instance, index: list, free: int, limit: Budget, top_left: int,
                 counts: dict[int, int], bottom: bool) -> None:
        rows, cols = instance.rows, instance.cols
        self.rows = rows - (rows + 1) // 2 if bottom else (rows + 1) // 2
        self.top_left, self.bottom, self.counts = top_left, bottom, counts
        rival = rivals(rows, cols)
        self.rival = rival[::-1] if bottom else rival  # the half turn maps position p to size - 1 - p
        self.width = (free + 1).bit_length()  # bits of a code on the middle line
        self.cap = (memory.current_limit() or memory.default_limit()) // 2 // HALF_BYTES
        super().__init__(instance, index, free, limit, {"counts": counts, "get": counts.get, "found": [0]})
        self.all = (1 << len(self.number)) - 1
        self.first = self.compile(0, self.rows * cols, None)

    def carried(self, pos: int, piece: int, turns: int, south: int) -> int:
        """The candidate's piece bit and, on the half's last row, its South code at its column's bits."""
        row, col = divmod(pos, self.cols)
        bit = 1 << self.number[piece]
        if row < self.rows - 1:
            return bit
        at = self.cols - 1 - col if self.bottom else col
        return bit | south << len(self.number) + self.width * at

    def keeps(self, pos: int, piece: int) -> bool:
        """The top-left's piece alone on the top-left corner; larger pieces only on a rival corner."""
        if pos == 0 and not self.bottom:
            return piece == self.top_left
        return piece > self.top_left or not self.rival[pos]

    def innermost(self, start: int, size: int, end: int) -> list[str]:
        """Pass the pieces and codes on to the next segment; at the end of the half count its key or add the
        count of the key it needs."""
        key = " ^ ".join(["mask", *(f"x{i}" for i in range(size))])
        if start + size < end:
            column = start % self.cols
            return [f"above[{column}:{column + size}] = {numbered('s{i}', size)}", f"deeper(e{size - 1}, {key})"]
        if self.bottom:
            return [f"found[0] += get({key}, 0)"]
        return [f"key = {key}", "counts[key] = get(key, 0) + 1"]

    def run(self) -> int:
        """Count the top halves into `counts` (0 returned), or the canonical grids the bottom halves complete."""
        used, found = self.shared["used"], self.shared["found"]
        if self.bottom:
            used[self.number[self.top_left]] = True  # type: ignore[index]
        try:
            self.first(self.free, self.all if self.bottom else 0)
        finally:
            self.charge()
        return found[0]  # type: ignore[index]

    def charge(self) -> None:
        """Charge the placements, and refuse to hold more halves than the memory bound leaves room for."""
        super().charge()
        if len(self.counts) > self.cap:
            raise MemoryError(f"more than {self.cap} halves")


HALF_BYTES = 80  # bytes a top half's key and count take in a dict (measured with tracemalloc)


def halves(question: Question, limit: Budget) -> int:
    """The number of canonical grids of a count under the eternity rule: top halves joined to bottom halves.

    Row by row, the top rows of a canonical grid (see `rivals`: under the
    eternity rule its top-left holds the corner piece with the smallest id)
    are reached 505,465 times on Owen's 6x6 and the rows below them cost 11.6
    million more placements, almost none of which complete. Instead the top
    halves (the first half of the rows, the larger half when they are odd)
    are counted by their key, the pieces they hold and the codes their last
    row asks of the row below, and the bottom halves (the rest, filled from
    the bottom border as the top rows of the grid turned a half turn) each
    add the count of the top halves with the key they complete
    (`HalfRows`): 10.7 million placements instead of 14.5 million, and 7.1
    million candidates skipped for a used piece instead of 22.4 million.
    This is done once per piece the top-left may hold. The table of top
    halves is held in memory (483,725 keys on Owen's 6x6, about 40 MB); past
    what the memory bound leaves for it the count stops with MemoryError.
    """
    instance = question.instance
    index, free = candidate_index(instance, question.periods)
    corners = {entry[0] for entry in chain.from_iterable(first_candidates(index, rivals(instance.rows, instance.cols)))}
    total = 0
    for top_left in sorted(corners):
        counts: dict[int, int] = {}
        HalfRows(instance, index, free, limit, top_left, counts, bottom=False).run()
        total += HalfRows(instance, index, free, limit, top_left, counts, bottom=True).run()
    return total


# ---------------------------------------------------------------- most constrained cell first

Entry = tuple[int, int, tuple[int, int], tuple[int, ...]]  # its bit, its piece's bits, (piece, turns), and per
#                                                              side what it adds to that neighbour's key
Table = dict[int, tuple[int, list[Entry]]]  # a cell's key -> (the bit set of the fitting entries, the entries)


def mrv(question: Question, visit: Visit | None, limit: Budget) -> int:
    """Every solution (or, with `visit` None, only their number) by filling the most constrained cell first.

    Each cell holds a key: the label each of its four sides must show (coded,
    `free` where no neighbour is placed yet). An index per kind of cell (which
    sides lie on the border) maps every key, with any of the sides known, to
    the fitting (piece, turns) and their bit set (`key_index`; four bits per
    piece, one per turn), so a cell's candidates are one dictionary look-up
    and their number one `bit_count` of that set with the unused pieces' bits.
    At each step the empty cell with the fewest candidates is filled; a cell
    with none ends the branch. (Counting candidate pieces instead of
    (piece, turns) pairs chooses worse: 4.5x more placements on a 4x4.) Symmetry: only grids whose top-left piece has a smaller id
    than the pieces on the corners the grid's turns bring to the top-left are
    searched (a bit mask of the allowed pieces per corner), each standing for
    its class of 4 (or 2) distinct grids: the count is multiplied, and with
    `visit` each is passed on with its turns (or alone, `up_to_rotation`).
    Returns the number of solutions (of classes with up_to_rotation). The
    question's prefix is placed first: only grids that begin with it count.
    """
    instance, periods = question.instance, question.periods
    rows, cols = instance.rows, instance.cols
    size = rows * cols
    fitting, entries_of, start = key_index(instance, tuple(sorted(periods.items())))
    neighbours = grid_neighbours(rows, cols)
    rival = rivals(rows, cols)
    corners = [pos for pos in range(size) if rival[pos]]
    allowed = [(1 << 4 * len(instance.pieces)) - 1] * size
    key = list(start)
    known = [0] * size  # placed neighbours of each cell
    frontier: list[int] = []  # the empty cells with a placed neighbour
    cells: list[tuple[int, int] | None] = [None] * size
    classes = (4 if rows == cols else 2) if corners and not question.up_to_rotation else 1
    if visit and classes > 1:
        visit = with_turns(visit, periods)
    single = size == 1 and question.up_to_rotation  # one cell: its classes are its turns, kept if canonical
    unused, found, left, checked = allowed[0], 0, size, 0
    root_entries = [] if question.prefix else root_placements(question)  # a part of a split count places it

    def supported(cell: int, cell_key: int, filling: int) -> bool:
        """Whether some candidate of `cell` (under `cell_key`, once `filling` is placed) leaves each of its other
        empty neighbours a candidate: the look-ahead for a neighbour left with a single candidate."""
        for bit, bits, _, adds in entries_of[cell_key]:
            if not bit & unused & allowed[cell]:
                continue
            rest = unused ^ bits
            for other, side in neighbours[cell]:
                if other != filling and cells[other] is None and not (
                        fitting.get(key[other] + adds[side], 0) & rest & allowed[other]):
                    break
            else:
                return True
        return False

    def place() -> bool:
        nonlocal found
        if not left:
            if visit is None and not single:
                found += 1
                return False
            grid = tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows))  # type: ignore[misc]
            if single and not is_canonical(grid, periods):
                return False
            found += 1
            return visit is not None and visit(grid)
        if not frontier:  # nothing placed yet: the root piece, everywhere it fits
            return any(fill(pos, entries, -1) for pos, entries in enumerate(root_entries))
        best, best_count, best_at = -1, 1 << 30, -1  # the empty cell with the fewest candidates on the frontier
        for at, pos in enumerate(frontier):
            fits = fitting.get(key[pos], 0) & unused & allowed[pos]
            if not fits:
                return False
            count = fits.bit_count()
            if count < best_count:
                best, best_count, best_at = pos, count, at
                if count == 1:
                    break
        frontier[best_at] = frontier[-1]
        frontier.pop()
        return fill(best, entries_of[key[best]], best_at)

    def fill(best: int, entries: list[Entry], best_at: int) -> bool:
        """Place each of `entries` that fits on cell `best` in turn and search on (True: stop); `best_at` is
        where the cell was on the frontier (-1: it was not), where it goes back after."""
        nonlocal unused, left, checked
        was, mask = unused, unused & allowed[best]
        around = neighbours[best]
        empty_around = [(other, side) for other, side in around if cells[other] is None]
        top_left, guarded = best == 0 and corners, rival[best]
        stop = False
        left -= 1
        for bit, bits, cell, adds in entries:
            if not bit & mask:
                continue
            checked += 1
            if checked == 4096:
                checked = 0
                limit.spend(4096)
            unused = was ^ bits
            for other, side in empty_around:
                fits = fitting.get(key[other] + adds[side], 0) & unused & allowed[other]
                if not fits:
                    break  # a neighbour would have no candidate left: the branch ends here
                if not fits & (fits - 1) and not supported(other, key[other] + adds[side], best):
                    break  # its one candidate would leave one of its own neighbours none
            else:
                cells[best] = cell
                for other, side in around:
                    key[other] += adds[side]
                    known[other] += 1
                    if known[other] == 1 and cells[other] is None:
                        frontier.append(other)
                if top_left or guarded:
                    saved = allowed[:]
                    narrow_corners(best, bits)
                    stop = place()
                    allowed[:] = saved
                else:
                    stop = place()
                for other, side in reversed(around):
                    key[other] -= adds[side]
                    known[other] -= 1
                    if not known[other] and cells[other] is None:
                        frontier.pop()
                if stop:
                    break
        cells[best] = None
        unused = was
        left += 1
        if best_at >= 0:
            frontier.append(best)
            frontier[best_at], frontier[-1] = frontier[-1], frontier[best_at]
        return stop

    def narrow_corners(pos: int, bits: int) -> None:
        """The symmetry breaking once the piece of `bits` lies at `pos`: on the top-left, the rival corners
        keep larger ids only; on a rival corner, the top-left keeps smaller ids only."""
        lowest = bits & -bits
        if pos == 0 and corners:
            for corner in corners:
                allowed[corner] &= ~((lowest << 4) - 1)
        elif rival[pos]:
            allowed[0] &= lowest - 1

    def begin(pos: int, cell: Cell | None) -> bool:
        """Place a prefix cell as the search would (False when it is no candidate there; None: a free cell)."""
        nonlocal unused, left
        if cell is None:
            return True
        entry = [(bits, adds) for bit, bits, placed, adds in entries_of[key[pos]]
                 if placed == cell and bit & unused & allowed[pos]]
        if not entry:
            return False
        bits, adds = entry[0]
        cells[pos], unused, left = cell, unused ^ bits, left - 1
        for other, side in neighbours[pos]:
            key[other] += adds[side]
            known[other] += 1
        narrow_corners(pos, bits)
        return True

    if not all(begin(pos, cell) for pos, cell in enumerate(question.prefix)):
        return 0
    frontier += [pos for pos in range(size) if cells[pos] is None and known[pos]]
    try:
        place()
    finally:
        limit.spent += checked
    return found * classes


def root_placements(question: Question) -> list[list[Entry]]:
    """Per position, the entries of the root piece (`root_piece`) that fit there on the empty grid: the
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


def border_kind(r: int, c: int, rows: int, cols: int) -> tuple[bool, bool, bool, bool]:
    """Which sides of cell (r, c) lie on the border: (North, East, South, West)."""
    return r == 0, c == cols - 1, r == rows - 1, c == 0


@functools.lru_cache(maxsize=4)  # the parts of a split count ask it of one instance, one after another
def key_index(instance: Instance, turns: tuple[tuple[int, int], ...]) -> tuple[dict[int, int], dict[int, list[Entry]],
                                                                               list[int]]:
    """Every key of every kind of cell, with any sides known -> its fitting entries; and each cell's first key
    (`turns`: the periods as sorted (piece, turns) pairs; the tables are only read).

    Labels are coded 0..L-1; a key is the four codes N, E, S, W in base L+2
    (`free` = L where the side is not known, L+1 where it can match nothing)
    plus the kind of cell (which of its sides lie on the border) above them,
    so one dictionary serves every cell. Returns the bit set of the fitting
    entries per key, the entries per key (in the original's order, piece then
    turns, each carrying per side what placing it adds to the key of the
    neighbour on that side), and the key of each cell with no side known.
    """
    periods = dict(turns)
    matcher = Matcher(instance)
    code = {label: number for number, label in enumerate(instance.labels())}
    free = len(code)
    base = free + 2
    weights = (base ** 3, base ** 2, base, 1)
    partner = {label: code[other] for label, other in instance.match_pairs()}
    nibble = {piece.id: 4 * number for number, piece in enumerate(sorted(instance.pieces, key=lambda p: p.id))}
    rows, cols = instance.rows, instance.cols
    kinds = [border_kind(r, c, rows, cols) for r in range(rows) for c in range(cols)]
    number = {kind: index for index, kind in enumerate(dict.fromkeys(kinds))}
    fitting: dict[int, int] = {}
    entries_of: dict[int, list[Entry]] = {}
    for kind, offset in number.items():
        for piece, turns, edges in oriented(instance, periods):
            if not all(matcher.border(label) if on else matcher.inner(label) for label, on in zip(edges, kind)):
                continue
            adds = [(partner.get(edges[side], free + 1) - free) * weights[(side + 2) % 4] for side in range(4)]
            entry = (1 << nibble[piece] + turns, 15 << nibble[piece], (piece, turns), tuple(adds))
            keys = {offset * base ** 4 + sum((code[edges[side]] if known >> side & 1 and not kind[side] else free)
                                             * weights[side] for side in range(4)) for known in range(16)}
            for key in keys:
                fitting[key] = fitting.get(key, 0) | entry[0]
                entries_of.setdefault(key, []).append(entry)
    return fitting, entries_of, [number[kind] * base ** 4 + free * sum(weights) for kind in kinds]


def rivals(rows: int, cols: int) -> list[bool]:
    """Per position, whether it is a corner the top-left corner turns onto when the whole grid turns.

    The grids of one rotation class are distinct (pieces are distinct), and
    turning the grid brings one of these corners to the top-left, so a grid is
    the canonical one of its class (its key, row-major, is the least) exactly
    when its top-left piece has a smaller id than the pieces on these corners.
    """
    if rows * cols == 1:
        return [False]
    corners = [(0, cols - 1), (rows - 1, cols - 1), (rows - 1, 0)] if rows == cols else [(rows - 1, cols - 1)]
    positions = {r * cols + c for r, c in corners}
    return [pos in positions for pos in range(rows * cols)]


def first_candidates(index: list, rival: list[bool]) -> list:
    """The top-left index without pieces that leave too few larger pieces for the rival corners.

    Under the eternity rule only the corner pieces fit the corners, so the
    top-left corner must hold the corner piece with the smallest id.
    """
    fitting = [{entry[0] for entry in chain.from_iterable(keyed)} for pos, keyed in enumerate(index) if rival[pos]]
    needed = len(fitting)

    def possible(piece: int) -> bool:
        return len(set().union(*({p for p in fits if p > piece} for fits in fitting))) >= needed

    return [[entry for entry in entries if possible(entry[0])] for entries in index[0]]


def only_canonical(visit: Visit, periods: Periods | None = None) -> Visit:
    """A visitor that passes on only the canonical grid of each rotation class."""

    def visit_canonical(grid: Grid) -> bool:
        return is_canonical(grid, periods) and visit(grid)

    return visit_canonical


def with_turns(visit: Visit, periods: Periods | None = None) -> Visit:
    """A visitor that passes on each canonical grid and then its turns that keep the grid's shape."""

    def visit_class(grid: Grid) -> bool:
        return any(visit(turned) for turned in grid_rotations(grid, periods))

    return visit_class


def candidate_index(instance: Instance,
                    periods: Periods | None = None) -> tuple[list[list[list[tuple[int, int, int, int]]]], int]:
    """Per position, per (North need, West need) key, the fitting rotations; and the `free` code.

    Labels are coded 0..L-1 and `free` = L stands for "no neighbour yet". An
    entry is (piece, turns, the code its East edge asks of the right neighbour,
    the code its South edge asks of the lower neighbour).
    """
    rows, cols = instance.rows, instance.cols
    matcher = Matcher(instance)
    labels = instance.labels()
    code = {label: number for number, label in enumerate(labels)}
    free = len(labels)
    partner = {label: code[other] for label, other in instance.match_pairs()}
    index = []
    for r in range(rows):
        for c in range(cols):
            keyed: list[list[tuple[int, int, int, int]]] = [[] for _ in range((free + 1) ** 2)]
            border = (r == 0, c == cols - 1, r == rows - 1, c == 0)
            for piece, turns, edges in oriented(instance, periods):
                if all(matcher.border(label) if on else matcher.inner(label) for label, on in zip(edges, border)):
                    north = code[edges[N]] if r else free
                    west = code[edges[W]] if c else free
                    keyed[north * (free + 1) + west].append(
                        (piece, turns, partner.get(edges[E], free), partner.get(edges[S], free)))
            index.append(keyed)
    return index, free
