"""Random Hidato instances as hypothesis strategies, for pysolve's tests, `pysolve check` and tests of one's own.

A board is drawn the way hypothesis shrinks well: its size, a seed for its
holes and its king path (the generator's: `generate.with_holes`,
`generate.hamiltonian_path`), which numbers of the path are blanked, and
whether two givens swap places (which may leave no solution). Shrinking
makes the board smaller, blanks fewer numbers and swaps none, so the
smallest board that still shows a difference is nearly filled in: few
solutions, each easy to read. `clashing_boards` draws boards a rule base
must refuse: two consecutive numbers given on cells that do not touch;
`pysolve check` asks a share of its questions on such boards
(`impossible_questions`). In a test of
one's own:

    @given(boards(max_side=5))
    def test_my_solver_agrees(rows): ...

>>> from hypothesis import find
>>> find(boards(), lambda rows: True)  # the smallest board of all
[[1, 2]]
"""

from __future__ import annotations

import random

from hypothesis import assume
from hypothesis import strategies as st

from pysolve.boards.model import DEFAULT_SECONDS
from pysolve.errors import InputError
from pysolve.hidato import generate, model
from pysolve.hidato.model import BLOCKED, EMPTY, Grid, Question

SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def boards(draw: st.DrawFn, max_side: int = 4, max_holes: int = 3, solvable: bool = False) -> Grid:
    """Random Hidato boards, solvable unless two givens were swapped.

    Rows of a Hidato board (the original encoding) of at most `max_side` rows and columns, with up to
    `max_holes` blocked cells; a solution exists unless two givens were swapped (never when `solvable`)."""
    rows, cols = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    assume(rows * cols >= 2)
    solution = draw(solved_boards(rows, cols, max_holes))
    blanked = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    puzzle = blank(solution, blanked)
    if not solvable and draw(st.booleans()):
        puzzle = swapped(puzzle, draw(st.integers(0, rows * cols)), draw(st.integers(0, rows * cols)))
    return puzzle


@st.composite
def clashing_boards(draw: st.DrawFn, max_side: int = 4, max_holes: int = 3) -> Grid:
    """Random Hidato boards whose givens clash, so they have no solution.

    Rows of a Hidato board (as `boards` draws them) with a number K given and K + 1 moved to an empty cell
    that does not touch K's: givens that clash, so the board has no solution. A board with no such cell (every
    open cell touches K's) is drawn as it is."""
    rows = [list(row) for row in draw(boards(max_side=max_side, max_holes=max_holes, solvable=True))]
    cells = {value: (r, c) for r, row in enumerate(rows) for c, value in enumerate(row) if value > 0}
    number = draw(st.sampled_from(sorted(cells)[:-1]))  # never N, the last number
    (r, c) = cells[number]
    apart = [(r2, c2) for r2, row in enumerate(rows) for c2, value in enumerate(row)
             if value == EMPTY and max(abs(r2 - r), abs(c2 - c)) > 1]
    if not apart:
        return rows
    if number + 1 in cells:
        old_r, old_c = cells[number + 1]
        rows[old_r][old_c] = EMPTY
    new_r, new_c = draw(st.sampled_from(apart))
    rows[new_r][new_c] = number + 1
    return rows


@st.composite
def solved_boards(draw: st.DrawFn, rows: int, cols: int, max_holes: int = 3) -> Grid:
    """A filled rows x cols board with up to `max_holes` blocked cells: 1..N on a random king path."""
    holes = draw(st.integers(0, min(max_holes, rows * cols - 2)))
    rng = random.Random(draw(SEEDS))
    try:
        shape = generate.with_holes(generate.rectangle(rows, cols), holes, rng)
        path = generate.hamiltonian_path(shape, rng)
    except InputError:  # no connected shape with these holes, or no path through it: draw another
        assume(False)
        raise
    return shape.grid(path)


def blank(solution: Grid, blanked: list[bool]) -> Grid:
    """`solution` with the numbers of the open cells `blanked` says (in reading order) emptied; 1 and N stay."""
    last = sum(value != BLOCKED for row in solution for value in row)
    flags = iter(blanked)
    return [[EMPTY if value not in (BLOCKED, 1, last) and next(flags) else value for value in row]
            for row in solution]


def swapped(puzzle: Grid, first: int, second: int) -> Grid:
    """`puzzle` with its `first` and `second` givens (counted in reading order, modulo their number) swapped."""
    givens = [(r, c) for r, row in enumerate(puzzle) for c, value in enumerate(row) if value > 0]
    (r1, c1), (r2, c2) = givens[first % len(givens)], givens[second % len(givens)]
    rows = [list(row) for row in puzzle]
    rows[r1][c1], rows[r2][c2] = puzzle[r2][c2], puzzle[r1][c1]
    return rows


def questions(max_size: int = 4, limit: int = 10, seconds: float = DEFAULT_SECONDS) -> st.SearchStrategy[Question]:
    """Count questions on random boards: what `pysolve check hidato` asks.

    Questions counting the solutions of random boards up to `limit` (boards of at most `max_size` rows and
    columns), each search within `seconds`: what `pysolve check hidato` asks."""
    return boards(max_side=max_size).map(
        lambda rows: Question(model.make_board(rows, "random board"), "random board", count=limit, seconds=seconds))


def impossible_questions(max_size: int = 4, limit: int = 10,
                         seconds: float = DEFAULT_SECONDS) -> st.SearchStrategy[Question]:
    """Questions on boards whose givens clash.

    `questions` on boards whose givens clash (`clashing_boards`), where the interface says the goal fails:
    what `pysolve check hidato` asks after the ordinary ones."""
    return clashing_boards(max_side=max_size).map(
        lambda rows: Question(model.make_board(rows, "random board"), "random board", count=limit, seconds=seconds))


def instance_text(question: Question) -> str:
    """The question's board as a file `pysolve solve hidato` reads (the text form)."""
    return model.to_text(question.board.grid())
