"""The reference search, the original program's, and the trace it records for the replays.

Positions row by row from the top-left, every unused piece in every
rotation, kept when it matches its left and upper neighbours (and, under the
eternity rule, the frame). It is the slowest of the Python searches and the
one the others are checked against; with a `Trace` it records every
placement, backtrack and solution (`pysolve solve squares --trace-html`, the
web replay).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysolve.budget import Budget
from pysolve.squares.model import Edges, Instance, Matcher, Periods, fits_at
from pysolve.squares.visitors import Visit


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


def reference(instance: Instance, visit: Visit, budget: Budget, trace: Trace | None = None,
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
            budget.spend(len(turned))
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
