"""Sudoku generator: a random full grid, then givens taken away in random order while the puzzle stays unique.

The full grid is the fast solver's first solution once the boxes on the
diagonal (which share no row or column) hold random permutations. Givens
are removed in random order; one goes back whenever the fast solver cannot
prove the rest unique within CHECK_NODES nodes. The difficulty is the search
effort: the nodes the fast solver needs to solve the puzzle and prove it
unique. One `random.Random(seed)` and node budgets only: a seed always gives
the same puzzle.
"""

from __future__ import annotations

import random
from typing import Any

from pysolve.budget import Budget
from pysolve.errors import InputError
from pysolve.puzzle import SOLVED, Found
from pysolve.sudoku import python
from pysolve.sudoku.model import BOXES, Board, to_line

CHECK_NODES = 2_000   # per uniqueness check while removing givens
FILL_ATTEMPTS = 20
LABELS = ((1, "easy"), (10, "medium"), (100, "hard"))  # most nodes for each label; above: "expert"


def full_grid(size: int, rng: random.Random) -> list[int]:
    """A random complete grid of side `size` (as N*N values)."""
    box_rows, box_cols = BOXES[size]
    for _ in range(FILL_ATTEMPTS):
        cells = [0] * (size * size)
        for k in range(min(size // box_rows, size // box_cols)):
            values = rng.sample(range(1, size + 1), size)
            for i, value in enumerate(values):
                r, c = k * box_rows + i // box_cols, k * box_cols + i % box_cols
                cells[r * size + c] = value
        found = python.search(Board(tuple(cells)), 1, python.FAST, Budget(nodes=CHECK_NODES))
        if found.solutions:
            return [value for row in found.solutions[0] for value in row]
    raise InputError(f"could not fill a {size}x{size} grid in {FILL_ATTEMPTS} attempts")


def effort(cells: list[int]) -> Found:
    """The fast solver's answer to 'how many solutions, up to 2?' within CHECK_NODES nodes."""
    return python.search(Board(tuple(cells)), 2, python.FAST, Budget(nodes=CHECK_NODES))


def unique(cells: list[int]) -> bool:
    """True when the fast solver proves `cells` has exactly one solution within CHECK_NODES nodes."""
    found = effort(cells)
    return found.status == SOLVED and len(found.solutions) == 1


def difficulty(nodes: int) -> str:
    """The label of a puzzle whose solve-and-prove-unique search took `nodes` nodes."""
    return next((label for most, label in LABELS if nodes <= most), "expert")


def generate(size: int, seed: int, givens: int | None = None) -> dict[str, Any]:
    """A unique puzzle: JSON-able data with `puzzle`, `solution`, `seed`, `givens`, `difficulty`, `line`.

    `givens` stops the removal at that many givens (default: remove while the puzzle stays unique).
    """
    if givens is not None and not 0 <= givens <= size * size:
        raise InputError(f"--givens {givens} is not between 0 and {size * size} for a {size}x{size} sudoku")
    rng = random.Random(seed)
    solution = full_grid(size, rng)
    puzzle = solution[:]
    for cell in rng.sample(range(size * size), size * size):
        if givens is not None and sum(1 for value in puzzle if value) <= givens:
            break
        puzzle[cell] = 0
        if not unique(puzzle):
            puzzle[cell] = solution[cell]
    nodes = effort(puzzle).stats["states"]
    rows = [puzzle[r * size:(r + 1) * size] for r in range(size)]
    return {"size": size, "seed": seed, "givens": sum(1 for value in puzzle if value),
            "difficulty": {"label": difficulty(nodes), "states": nodes},
            "puzzle": rows, "solution": [solution[r * size:(r + 1) * size] for r in range(size)],
            "line": to_line(rows), "unique": True}
