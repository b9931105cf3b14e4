"""Imperative Python solvers: the original's search as reference, and an indexed fast one.

`reference` is the original program's search, literally: positions row by row
from the top-left, every unused piece in every rotation, kept when it matches
its left and upper neighbours (and, under the eternity rule, the frame). It can
record a trace of every placement and backtrack for the HTML replay.

`fast` is the same search made cheap: labels coded as integers, and each
position's fitting rotations indexed by the labels its upper and left
neighbours need, so it never tries a piece that cannot fit. (Measured
against it and dropped: filling the frame first, 2x more nodes on Owen's
5x5; choosing the most constrained position at each step, 1.6x fewer nodes
but 16x slower in Python; a look-ahead on the cell below, 5% fewer nodes.)
"""

from __future__ import annotations

from itertools import chain
from collections.abc import Callable
from dataclasses import dataclass, field

from pysolve.budget import Budget
from pysolve.squares.model import E, Edges, Grid, Instance, Matcher, N, S, W, grid_rotations, is_canonical, oriented

Visit = Callable[[Grid], bool]  # gets each solution; returns True to stop the search


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


def reference(instance: Instance, visit: Visit, limit: Budget, trace: Trace | None = None) -> None:
    """The original's search: row by row, each unused piece in each rotation, left and up checked.

    With a `trace`, every placement, backtrack and solution is recorded; the
    search stops when the trace is full.
    """
    rows, cols = instance.rows, instance.cols
    matcher = Matcher(instance)
    cells: list[tuple[int, int, Edges]] = []
    used: set[int] = set()
    rotations = [(piece.id, [piece.turned(turns) for turns in range(4)]) for piece in instance.pieces]

    def fits(pos: int, edges: Edges) -> bool:
        r, c = divmod(pos, cols)
        return ((matcher.matches(cells[pos - 1][2][E], edges[W]) if c else matcher.border(edges[W]))
                and (matcher.matches(cells[pos - cols][2][S], edges[N]) if r else matcher.border(edges[N]))
                and (matcher.border(edges[E]) if c == cols - 1 else matcher.inner(edges[E]))
                and (matcher.border(edges[S]) if r == rows - 1 else matcher.inner(edges[S])))

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
            limit.spend(4)
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

def fast(instance: Instance, visit: Visit, limit: Budget, classes: bool = False) -> None:
    """The same row-by-row search over an index: each position's candidates keyed by the needed labels.

    Labels become small integers; a candidate list holds only rotations that
    fit the position's frame, keyed by the North and West labels its upper and
    left neighbours need, so no candidate is tried that cannot fit. Candidates
    keep the original's order, so solutions come in the same order.

    With `classes`, only the canonical solution of each class under turns of
    the whole grid is searched for (see `rivals`); wrap `visit` in `with_turns`
    to get every solution from them, in about a quarter of the time.
    """
    rows, cols = instance.rows, instance.cols
    index, free = candidate_index(instance)
    count = rows * cols
    rival = rivals(rows, cols) if classes else [False] * count
    if any(rival):
        index[0] = first_candidates(index, rival)
    elif classes:  # a single cell: its classes are its turns
        visit = only_canonical(visit)
    above = [free] * cols  # the label each column's next cell needs on its North edge
    used = {piece.id: False for piece in instance.pieces}
    cells: list[tuple[int, int]] = [(0, 0)] * count
    checked = [0]  # placements since the last report to `limit` (reported every 4096)

    def place(pos: int, left: int) -> bool:
        if pos == count:
            return visit(tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows)))
        col = pos % cols
        up = above[col]
        last = col == cols - 1
        for piece, turns, east, south in index[pos][up * (free + 1) + left]:
            if used[piece] or (rival[pos] and piece < cells[0][0]):
                continue
            checked[0] += 1
            if checked[0] == 4096:
                checked[0] = 0
                limit.spend(4096)
            used[piece] = True
            above[col], cells[pos] = south, (piece, turns)
            stop = place(pos + 1, free if last else east)
            used[piece] = False
            if stop:
                above[col] = up
                return True
        above[col] = up
        return False

    try:
        place(0, free)
    finally:
        limit.spent += checked[0]


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


def only_canonical(visit: Visit) -> Visit:
    """A visitor that passes on only the canonical grid of each rotation class."""

    def visit_canonical(grid: Grid) -> bool:
        return is_canonical(grid) and visit(grid)

    return visit_canonical


def with_turns(visit: Visit) -> Visit:
    """A visitor that passes on each canonical grid and then its turns that keep the grid's shape."""

    def visit_class(grid: Grid) -> bool:
        return any(visit(turned) for turned in grid_rotations(grid))

    return visit_class


def candidate_index(instance: Instance) -> tuple[list[list[list[tuple[int, int, int, int]]]], int]:
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
            for piece, turns, edges in oriented(instance):
                if all(matcher.border(label) if on else matcher.inner(label) for label, on in zip(edges, border)):
                    north = code[edges[N]] if r else free
                    west = code[edges[W]] if c else free
                    keyed[north * (free + 1) + west].append(
                        (piece, turns, partner.get(edges[E], free), partner.get(edges[S], free)))
            index.append(keyed)
    return index, free
