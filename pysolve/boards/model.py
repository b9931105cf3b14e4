"""The board puzzles' question (`BoardQuestion`) and the answer their Python searches build (`searched`).

What the models and back ends of Hidato and Sudoku share; the puzzle side is
`pysolve.boards.puzzle`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Found
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded

DEFAULT_SECONDS = 30.0  # the time budget of one board search


@dataclass(frozen=True)
class BoardQuestion:
    """Solve a board (first solution, or count up to `count`), or validate a filled one."""

    board: Any
    file: str
    count: int | None = None
    strategy: str = "fast"
    validate: bool = False
    seconds: float = DEFAULT_SECONDS
    nodes: int = 0

    @property
    def limit(self) -> int:
        """How many solutions to look for."""
        return self.count or 1


WRITTEN_BETWEEN_CLOCKS = 64  # solutions written out between looks at the clock (a 64x64 Hidato grid: 1 ms each)


def searched(found: Sequence[Any], grid: Callable[[Any], Any], budget: Budget, stopped: str,
             stats: dict[str, Any]) -> Found:
    """The answer of a Python board search: the solutions it `found`, written out as grids while time lasts.

    The solutions are compact (bytes or arrays, which the garbage collector does not walk) and `grid` writes each
    out; `count` is how many it found. Unknown with the reason when the search `stopped` ('' when it ran to its
    end) or when writing them out passed the time limit (tens of thousands of 64x64 grids take seconds): the limit
    covers the whole answer, so a search that ran out of time writes none out."""
    grids, reason = [], stopped
    try:
        for number, solution in enumerate(found):
            if not number % WRITTEN_BETWEEN_CLOCKS:
                budget.check()
            grids.append(grid(solution))
    except SearchLimitExceeded as error:
        reason = stopped or f"{error} writing out {len(found)} solutions"
    status = UNKNOWN if reason else SOLVED if found else NO_SOLUTION
    return Found(grids, {"states": budget.spent, **stats, **({"reason": reason} if reason else {})},
                 count=len(found), status=status)
