"""miniKanren relations for edge-matching squares, on finite-domain constraints.

Every cell holds a placement: one of the pieces in one of its distinct turns
(an index into `model.oriented`). The relation says, as the Prolog rules do:
- `bordero`: a cell on the border shows a border edge there (the frame
  colour under the eternity rule, anything under the insect rule);
- `placedo`: no piece lies twice (the placements all different by their
  piece);
- `besideo` and `aboveo`: the facing edges of side-by-side and of stacked
  cells match (two tables of placement pairs);
- `blocko`: each 2 x 2 block of cells matches along its four inner edges
  and holds four different pieces (a table of placement quadruples). Where
  blocks cover two neighbours they stand for `besideo` and `aboveo`: their
  tables see the cycle of four edges around an inner corner, which the
  pairs see one edge at a time (Owen's 5x5 count labels 331 cells instead
  of 1,442). A block whose table would pass BLOCK_ROWS is left to the pairs;
- `canonicalo`, when one grid stands for its whole rotation class: the
  top-left piece has a smaller id than each corner a turn of the grid brings
  to the top-left (a table of placement pairs in piece order; on a one-cell
  grid, the piece unturned).
The finite-domain store (pysolve.fd) propagates these tables and the
all-different as cells are placed, and labelling places the cell with the
fewest placements left first; where the frame has colours of its own
(`frame_apart`), the cell with the smallest share left of the placements it
had at the start, as a frame of its own colours pairs up in many ways that
the inside then refutes.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from pysolve import fd
from pysolve import minikanren as mk
from pysolve.answers import Found
from pysolve.minikanren import Budget, Goal, conj, eq, var
from pysolve.squares.model import (
    COUNT,
    ETERNITY,
    FIRST,
    FRAME,
    Cell,
    E,
    Grid,
    Instance,
    Label,
    Matcher,
    N,
    Periods,
    Question,
    S,
    W,
    class_size,
    found,
    oriented,
    placement,
)


class Placements:
    """The placements of one instance (piece, turns, edges), numbered, and the tables the relation uses."""

    def __init__(self, instance: Instance, periods: Periods, budget: Budget) -> None:
        self.instance, self.budget = instance, budget
        self.all = oriented(instance, periods)
        self.index = {(piece, turns): i for i, (piece, turns, _) in enumerate(self.all)}
        self.piece_of = {i: piece for i, (piece, _, _) in enumerate(self.all)}
        matcher = Matcher(instance)
        edges = [edges for _, _, edges in self.all]
        self.beside_table = self.pairs(lambda left, right: matcher.matches(edges[left][E], edges[right][W]))
        self.above_table = self.pairs(lambda upper, lower: matcher.matches(edges[upper][S], edges[lower][N]))
        self.border = [{i for i, (_, _, edges) in enumerate(self.all) if matcher.border(edges[side])}
                       for side in (N, E, S, W)]
        self.beside = self.partners(self.beside_table)
        self.above = self.partners(self.above_table)
        self.blocks: dict[tuple[frozenset[int], ...], fd.Table | None] = {}

    def on_border(self, sides: list[int]) -> frozenset[int]:
        """The placements that show a border edge on each of `sides`."""
        allowed = set(range(len(self.all)))
        for side in sides:
            allowed &= self.border[side]
        return frozenset(allowed)

    def block_table(self, allowed: tuple[frozenset[int], ...]) -> fd.Table | None:
        """The placements of a 2 x 2 block that match along its inner edges.

        The placement quadruples (top left, top right, bottom left, bottom right) of a 2 x 2 block whose
        cells may hold `allowed` placements, matching along the inner edges, four different pieces; None
        past BLOCK_ROWS rows (the block constraint is then left out: it only repeats the others)."""
        if allowed not in self.blocks:
            piece, beside, above = self.piece_of, self.beside, self.above
            rows: list[tuple[int, int, int, int]] = []
            for a in allowed[0]:
                self.budget.check()
                for b in beside[a] & allowed[1]:
                    for c in above[a] & allowed[2]:
                        for d in beside[c] & above[b] & allowed[3]:
                            if len({piece[a], piece[b], piece[c], piece[d]}) == 4:
                                rows.append((a, b, c, d))
                    if len(rows) > BLOCK_ROWS:
                        self.blocks[allowed] = None
                        return None
            self.blocks[allowed] = fd.Table(rows, 4, self.budget)
        return self.blocks[allowed]

    @functools.cached_property
    def sorted_table(self) -> fd.Table:
        """The placement pairs (a, b) whose pieces' ids are in order (built only for one grid per class)."""
        piece = self.piece_of
        return self.pairs(lambda a, b: piece[a] < piece[b])

    def pairs(self, fits: Any) -> fd.Table:
        """The table of placement pairs (a, b) such that `fits(a, b)`."""
        every = range(len(self.all))

        def rows() -> Iterator[tuple[int, int]]:
            for a in every:
                self.budget.check()  # placements squared: past a few thousand placements, seconds of work
                yield from ((a, b) for b in every if fits(a, b))

        return fd.Table(rows(), 2, self.budget)

    def partners(self, table: fd.Table) -> list[set[int]]:
        """Per placement a, the placements b that the pair table has (a, b) for."""
        partners: list[set[int]] = [set() for _ in self.all]
        for a, b in table.rows:
            partners[a].add(b)
        return partners

    def cell(self, placement: int) -> Cell:
        """The (piece id, turns) of a placement number."""
        piece, turns, _ = self.all[placement]
        return piece, turns


BLOCK_ROWS = 100_000  # the most rows a block table may have (Owen's 6x6: 25,676 in an inner block)


def bordero(placements: Placements, cell: Any, sides: list[int]) -> Goal:
    """`cell` shows a border edge on each of `sides` (the sides of it that lie on the border)."""
    return fd.domfd(cell, sorted(placements.on_border(sides)))


def placedo(placements: Placements, cells: list[Any]) -> Goal:
    """No piece lies twice: the cells' placements are all different by their piece."""
    return fd.distinctfd(cells, classes=placements.piece_of)


def besideo(placements: Placements, left: Any, right: Any) -> Goal:
    """The placement `left`'s East edge matches the placement `right`'s West edge."""
    return fd.tablefd((left, right), placements.beside_table)


def aboveo(placements: Placements, upper: Any, lower: Any) -> Goal:
    """The placement `upper`'s South edge matches the placement `lower`'s North edge."""
    return fd.tablefd((upper, lower), placements.above_table)


def blocko(cells: tuple[Any, Any, Any, Any], table: fd.Table) -> Goal:
    """A 2 x 2 block is a row of its block table.

    The 2 x 2 block `cells` (top left, top right, bottom left, bottom right) is a row of its block table:
    it matches along its inner edges and holds four different pieces."""
    return fd.tablefd(cells, table)


def canonicalo(instance: Instance, cells: list[Any], placements: Placements) -> Goal:
    """The grid is the one of its rotation class that sorts first (model.is_canonical)."""
    rows, cols = instance.rows, instance.cols
    if rows * cols == 1:  # the turns of the grid turn its one piece: the canonical one lies unturned
        return fd.domfd(cells[0], [i for i, (_, turns, _) in enumerate(placements.all) if turns == 0])
    corners = [cols - 1, rows * cols - 1, (rows - 1) * cols] if rows == cols else [rows * cols - 1]
    return conj(*(fd.tablefd((cells[0], cells[corner]), placements.sorted_table) for corner in corners))


def squareso(instance: Instance, placements: Placements, cells: list[Any]) -> Goal:
    """The cells' placements solve the instance.

    `cells` (row-major placements) solve the instance. Where a 2 x 2 block holds two cells side by side or
    stacked, `blocko` says that they match, and `besideo` or `aboveo` is not stated again (it would only cost
    time: 1.25x on a part of Owen's 6x6 count)."""
    rows, cols = instance.rows, instance.cols
    goals = [fd.infd(cells, range(len(placements.all))), placedo(placements, cells)]
    allowed = []
    for pos in range(rows * cols):
        r, c = divmod(pos, cols)
        sides = [side for side, on_border in ((N, r == 0), (E, c == cols - 1), (S, r == rows - 1), (W, c == 0))
                 if on_border]
        allowed.append(placements.on_border(sides))
        goals.append(bordero(placements, cells[pos], sides))
    matched: set[tuple[int, int]] = set()  # the (cell, cell) pairs a block constraint covers
    for r in range(rows - 1):
        for c in range(cols - 1):
            block = (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
            table = placements.block_table(tuple(allowed[pos] for pos in block))
            if table is not None:  # past BLOCK_ROWS the pairs and the all-different stand alone
                goals.append(blocko((cells[block[0]], cells[block[1]], cells[block[2]], cells[block[3]]), table))
                top_left, top_right, bottom_left, bottom_right = block
                matched |= {(top_left, top_right), (bottom_left, bottom_right),
                            (top_left, bottom_left), (top_right, bottom_right)}
    for pos in range(rows * cols):
        r, c = divmod(pos, cols)
        if c + 1 < cols and (pos, pos + 1) not in matched:
            goals.append(besideo(placements, cells[pos], cells[pos + 1]))
        if r + 1 < rows and (pos, pos + cols) not in matched:
            goals.append(aboveo(placements, cells[pos], cells[pos + cols]))
    return conj(*goals)


def solutions(instance: Instance, up_to_rotation: bool, limit: int, budget: Budget,
              periods: Periods | None = None, prefix: tuple[Cell | None, ...] = (),
              labelling: str | None = None) -> list[Grid]:
    """Up to `limit` solutions of the relation.

    Up to `limit` solutions (0: all), optionally only the canonical one of each rotation class, and only
    those whose first cells (row by row) are `prefix` (None: any).

    `labelling` is fd.labelfd's strategy; by default a first solution is labelled row by row with the
    placements in the original's order, so that it is the original's first solution, as on every back end,
    and every solution most constrained cell first: by the share of its placements left where the frame has
    colours of its own (`frame_apart`), else by their number."""
    mk.require()
    periods = periods or instance.periods()
    placements = Placements(instance, periods, budget)
    size = instance.rows * instance.cols
    cells = [var() for _ in range(size)]
    fixed: list[Any] = [eq(cells[pos], placements.index.get(cell, -1))
                        for pos, cell in enumerate(prefix) if cell is not None]
    strategy = labelling or ("leftmost" if limit == 1 else "ffr" if frame_apart(instance) else "ff")
    goal = conj(fd.within(budget), *fixed, squareso(instance, placements, cells),
                *([canonicalo(instance, cells, placements)] if up_to_rotation else []),
                fd.labelfd(cells, strategy,
                           say=lambda pos, value: placement(pos, instance.cols, *placements.cell(value))))
    return [tuple(tuple(placements.cell(answer[r * instance.cols + c]) for c in range(instance.cols))
                  for r in range(instance.rows))
            for answer in mk.run(goal, cells, limit)]


def frame_apart(instance: Instance) -> bool:
    """Whether the frame's colours meet nowhere else.

    Under the eternity rule on a grid with an inside, the colours that meet along the frame (between two
    border cells) meet nowhere else, as in Owen's sets. First-fail would then fill the frame first (its cells
    start with fewer placements) and enumerate its many fillings; labelling by the share of placements left
    grows the grid from the pinned corner instead (Owen's 6x6 count: 79,391 cells tried against 262,578).
    Where the frame shares its colours with the inside (the generated puzzles), its cells are the most
    constrained indeed and first-fail is the better order (a generated 7x7: 17,197 against 50,979)."""
    if instance.rule != ETERNITY or min(instance.rows, instance.cols) < 3:
        return False
    along: set[Label] = set()
    inside: set[Label] = set()
    for piece in instance.pieces:
        for label, is_along in zip(piece.edges, piece.along_frame):
            if label != FRAME:
                (along if is_along else inside).add(label)
    return not along & inside


DEFAULT_CELLS = 64  # the largest board whose first solution the relation gives by default
DEFAULT_COUNT_CELLS = 25  # the largest board it counts (or lists every solution of) by default


def can_trace(question: Question) -> bool:
    """Every question records its labelling.

    Every question it answers records its labelling (`fd.labelfd`): each cell given a placement, failures,
    backtracking."""
    return True


def is_default_for(question: Question) -> bool:
    """Whether kanren answers the question by default.

    Every question is answered when the relation is asked by name (`--backend kanren`, cross-checks), within
    its budget; by default only a first solution on at most DEFAULT_CELLS cells and a count or every solution
    on at most DEFAULT_COUNT_CELLS. Past them the search can be long where Python's is short (Owen's 6x6 count:
    44 s against about a second), so without SWI-Prolog Python answers them by default."""
    cells = question.instance.rows * question.instance.cols
    return cells <= (DEFAULT_CELLS if question.mode == FIRST else DEFAULT_COUNT_CELLS)


def solve(question: Question, budget: Budget) -> Found:
    """The miniKanren relations on finite domains, within the budget."""
    if question.prefix:  # a part of a split count: the canonical grids that begin with the prefix, each a class
        grids = solutions(question.instance, True, 0, budget, question.periods, question.prefix)
        return found(question, [], len(grids) * class_size(question), {"states": budget.spent})
    instance = question.instance
    by_class = question.up_to_rotation or (question.mode == COUNT and instance.rows * instance.cols > 1)
    grids = solutions(instance, by_class, question.limit, budget, question.periods)
    count = len(grids) * (class_size(question) if by_class and question.mode == COUNT else 1)
    return found(question, grids, count, {"states": budget.spent})
