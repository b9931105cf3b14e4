"""Search helpers the tangram back ends share.

The scan order of a count, the breadth-first search, and how a search labels a placement when it records itself
(docs/tangram.md, "Searches recorded")."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from pysolve.budget import Budget
from pysolve.tangram.model import Instance, Placement, Question, Tiling
from pysolve.trace import Trace, recorder


def first_scan(instance: Instance, names: list[str]) -> str:
    """The scan order of a count (Python's first, Prolog's only): the one whose sweep line can be crossed fewer ways.

    The memo counter's states are its frontiers (the pieces the sweep line
    crosses, each with the part of it still to cover) with the pieces left,
    so its cost grows with the ways a line can be crossed: for a column
    scan, ordered sets of the pieces `names` whose heights fill the board's
    height, each counted once per column of it (`crossings`); for a row
    scan, the same with widths and heights swapped. On 90 generated boards
    it never took an order more than 1.4x slower than the other; the
    average number of pieces crossed, which it replaces, took one 2.4x to
    over 4x slower on four of them (docs/tangram.md, Choosing the scan
    order).
    """
    sizes = [instance.orientations(name) for name in names]
    columns = crossings(instance.height, sizes)
    rows = crossings(instance.width, [[(h, w) for w, h in orientations] for orientations in sizes])
    return "columns" if columns <= rows else "rows"


def crossings(line: int, pieces: list[list[tuple[int, int]]]) -> int:
    """The ways to cross a line of `line` cells with pieces lying across it, one after the other.

    `pieces` holds each piece's (width, height) orientations, the height
    along the line. A way is an ordered set of pieces, one orientation each,
    whose heights add up to `line`, counted as many times as the product of
    their widths (how much of each is still to cover).
    """
    most = min(len(pieces), line // min(h for sizes in pieces for _, h in sizes)) if pieces else 0
    ways = [[0] * (most + 1) for _ in range(line + 1)]  # ways[n][k]: unordered sets of k pieces, heights adding to n
    ways[0][0] = 1
    for sizes in pieces:
        for n in range(line, 0, -1):
            for k in range(most, 0, -1):
                ways[n][k] += sum(ways[n - h][k - 1] * w for w, h in sizes if h <= n)
    return sum(math.factorial(k) * ways[line][k] for k in range(most + 1))


def describe(placement: Placement) -> tuple[str, dict[str, Any]]:
    """A placement's label and move in a trace: "piece 3 at (2, 0) 2x3", and the same as data."""
    p = placement
    return (f"piece {p.piece} at ({p.x}, {p.y}) {p.width}x{p.height}",
            {"piece": p.piece, "x": p.x, "y": p.y, "w": p.width, "h": p.height})


Partial = tuple[int, tuple[Placement, ...], int]  # a breadth-first search's free cells, placements and node


def entering(trace: Trace, take: Callable[[], Partial]) -> Callable[[], Partial]:
    """`take`, the next partial tiling of a breadth-first search, recorded in `trace`.

    Each is entered as a node below the one it extends, labelled by its last placement (the start, nothing placed,
    is the root); its node id is given back with it."""

    def recorded() -> Partial:
        free, chosen, parent = take()
        return free, chosen, trace.enter_as(parent, describe, chosen[-1]) if chosen else parent

    return recorded


def breadth_first(question: Question, steps: Callable[[int, str], Iterable[tuple[Placement, int]]],
                  budget: Budget) -> Tiling | None:
    """The first tiling of a breadth-first search (FIFO queue) over the fixed-order steps, or None.

    `steps(free, piece)` gives a back end's options of `piece` on the free
    cells, each with the free cells it leaves, in board order. Recorded in
    `budget.trace` when there is one: a node per partial tiling taken from
    the queue, labelled by its last placement, below the one it extends
    (the start, nothing placed, is the root).
    """
    trace = recorder(budget.trace)
    queue: deque[Partial] = deque([(question.free, (), 0)])
    take = trace.wrap(entering, queue.popleft)  # the queue's own popleft when nothing is recorded
    order = question.order
    while queue:
        free, chosen, node = take()
        if len(chosen) == len(order):
            trace.solution(node)
            return question.instance.sort(question.placed + chosen)
        before = len(queue)
        for placement, left in steps(free, order[len(chosen)]):
            budget.spend()
            queue.append((left, chosen + (placement,), node))
        if len(queue) == before:
            trace.fail(node)
    return None
