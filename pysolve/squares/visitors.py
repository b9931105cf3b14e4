"""What the Python searches do with each grid they find: a visitor, and the wrappers for rotation classes.

A search calls `visit(grid)` on every solution and stops when it returns
True. The searches that look for one grid per rotation class (see
`indexes.rivals`) are wrapped in `with_turns` to pass on every grid of the
class, or in `only_canonical` by a search that finds every grid but is asked
for one per class.
"""

from __future__ import annotations

from collections.abc import Callable

from pysolve.squares.model import Grid, Periods, grid_rotations, is_canonical

Visit = Callable[[Grid], bool]  # gets each solution; returns True to stop the search


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
