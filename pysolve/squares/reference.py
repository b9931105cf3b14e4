"""The reference search, the original program's, recorded when its budget carries a trace (the replays).

Positions row by row from the top-left, every unused piece in every
rotation, kept when it matches its left and upper neighbours (and, under the
eternity rule, the frame). It is the slowest of the Python searches and the
one the others are checked against; with `budget.trace` (pysolve.trace) it
records every placement, backtrack and solution (`pysolve solve squares
--trace`, `--trace-html`, the web replay).
"""

from __future__ import annotations

from pysolve.budget import Budget
from pysolve.squares.model import Edges, Instance, Matcher, Periods, fits_at, placement
from pysolve.squares.visitors import Visit
from pysolve.trace import pushed, recorder


def reference(instance: Instance, visit: Visit, budget: Budget, periods: Periods | None = None,
              until_full: bool = False) -> None:
    """The original's search: row by row, each unused piece in each rotation, left and up checked.

    `periods` (piece id -> how many of its turns count, default each piece's
    period) leaves out a turn that looks like an earlier one. With
    `budget.trace`, every placement, backtrack and solution is recorded;
    `until_full` stops the search once the trace holds as many events as it
    writes (a replay needs no more).
    """
    rows, cols = instance.rows, instance.cols
    matcher = Matcher(instance)
    cells: list[tuple[int, int, Edges]] = []
    used: set[int] = set()
    periods = periods or instance.periods()
    rotations = [(piece.id, [piece.turned(turns) for turns in range(periods[piece.id])]) for piece in instance.pieces]
    trace = recorder(budget.trace)

    def fits(pos: int, edges: Edges) -> bool:
        r, c = divmod(pos, cols)
        return fits_at(matcher, edges, r, c, rows, cols, cells[pos - cols][2] if r else None,
                       cells[pos - 1][2] if c else None)

    def place(pos: int, _piece: int, _turns: int) -> bool:
        """Fill `pos` and on (True: stop); `_piece` turned `_turns` times was just put on `pos - 1`, which only a
        recorded step (`placed`) reads."""
        if until_full and trace.full:
            return True  # the trace is full: nothing more to record
        if pos == rows * cols:
            trace.solution()
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
                stop = step(pos + 1, piece, turns)
                cells.pop()
                used.discard(piece)
                if stop:
                    return True
        return False

    def placed(pos: int, piece: int, turns: int) -> tuple[str, dict[str, int]]:
        """The label and move of the step into `pos`: `piece` turned `turns` times on `pos - 1`."""
        return placement(pos - 1, cols, piece, turns)

    step = trace.wrap(pushed, place, placed)  # each step recorded, or `place` itself: chosen once
    place(0, 0, 0)
