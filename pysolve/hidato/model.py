"""Hidato boards: reading both file formats, validation, king-move geometry.

A board is kept in the original's encoding (rows of integers, -1 blocked,
0 empty, a positive number a given; rows may be ragged). The open cells are
numbered 0..N-1 in reading order; every back end works on those indexes and
hands back grids of the same shape as the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pysolve import files
from pysolve.boards.model import BoardQuestion
from pysolve.errors import InputError

BLOCKED, EMPTY = -1, 0
MAX_CELLS = 4096  # the largest board any back end takes (64 x 64): a search keeps a cell set per number
Grid = list[list[int]]
Cell = tuple[int, int]

_EMPTY_TOKEN = re.compile(r"_+|0")
_BLOCKED_TOKENS = {".", "XX", "xx", "-1", "X", "x"}


@dataclass(frozen=True)
class Board:
    """A Hidato board in the original encoding, with its derived geometry."""

    rows: tuple[tuple[int, ...], ...]
    source: str = "board"

    @cached_property
    def cells(self) -> list[Cell]:
        """The open cells as (row, column), in reading order."""
        return [(r, c) for r, row in enumerate(self.rows) for c, value in enumerate(row) if value != BLOCKED]

    @cached_property
    def index(self) -> dict[Cell, int]:
        """Open cell -> its index in `cells`."""
        return {cell: i for i, cell in enumerate(self.cells)}

    @property
    def size(self) -> int:
        """N: the number of open cells, hence the largest number."""
        return len(self.cells)

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @cached_property
    def width(self) -> int:
        """Length of the longest row."""
        return max((len(row) for row in self.rows), default=0)

    @cached_property
    def givens(self) -> dict[int, int]:
        """Given number -> index of its cell."""
        return {self.rows[r][c]: i for i, (r, c) in enumerate(self.cells) if self.rows[r][c] > 0}

    @cached_property
    def neighbours(self) -> list[tuple[int, ...]]:
        """For each open cell index, the indexes of the open cells one king move away."""
        return [tuple(self.index[other] for other in king_moves(cell) if other in self.index)
                for cell in self.cells]

    @property
    def filled(self) -> bool:
        """True when no open cell is empty."""
        return len(self.givens) == self.size

    def value(self, index: int) -> int:
        """The number written in open cell `index` (0 when empty)."""
        r, c = self.cells[index]
        return self.rows[r][c]

    def grid(self, positions: Sequence[int] | None = None) -> Grid:
        """The board as rows of integers; with `positions` (number k at positions[k-1]) filled in."""
        grid = [list(row) for row in self.rows]
        for number, index in enumerate(positions or (), start=1):
            r, c = self.cells[index]
            grid[r][c] = number
        return grid

    def where(self, index: int) -> str:
        """A cell index as 'row R column C' (1-based) for messages."""
        r, c = self.cells[index]
        return f"row {r + 1} column {c + 1}"


def placement(board: Board, number: int, index: int) -> tuple[str, dict[str, int]]:
    """A search's choice of a number on a cell, as a trace says it.

    A search's choice, `number` on open cell `index`, as a trace says it (pysolve.trace): the label
    '12 at r2c5' and the move {"number": 12, "row": 2, "col": 5}, rows and columns from 1."""
    r, c = board.cells[index]
    return f"{number} at r{r + 1}c{c + 1}", {"number": number, "row": r + 1, "col": c + 1}


def king_moves(cell: Cell) -> Iterable[Cell]:
    """The eight cells one king move away from `cell` (on an unbounded plane)."""
    r, c = cell
    return ((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def chebyshev(a: Cell, b: Cell) -> int:
    """The number of king moves between two cells on an empty plane."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def make_board(rows: Sequence[Sequence[int]], source: str = "board") -> Board:
    """A checked Board from rows of integers; InputError naming what is wrong and where."""
    board = Board(tuple(tuple(row) for row in rows), source)
    check(board)
    return board


def check(board: Board) -> None:
    """Raise InputError unless the board is a well-formed Hidato puzzle (1 and N given, no repeats)."""
    if board.size == 0:
        raise InputError(f"{board.source}: the board has no open cells")
    check_size(board.size, board.source)
    seen: dict[int, int] = {}
    for index in range(board.size):
        number = board.value(index)
        if number < EMPTY:
            raise InputError(f"{board.source}: {board.where(index)} holds {files.excerpt(number)}; "
                             "use -1 for blocked, 0 for empty, 1.. for givens")
        if number > board.size:
            raise InputError(f"{board.source}: {files.excerpt(number)} at {board.where(index)} is out of range "
                             f"1..{board.size} (the board has {board.size} open cells)")
        if number in seen:
            raise InputError(f"{board.source}: {number} appears twice, at {board.where(seen[number])} "
                             f"and at {board.where(index)}")
        if number:
            seen[number] = index
    for needed in sorted({1, board.size}):
        if needed not in seen:
            raise InputError(f"{board.source}: {needed} is not given (Hidato gives 1 and N = {board.size})")


def check_size(open_cells: int, source: str, so_far: bool = False) -> None:
    """Refuse a board with more open cells than hidato takes.

    InputError when a board has more open cells than hidato takes; checked as a file is read too
    (`so_far`: the cells of the rows read so far), before 16 MB of cells become a board of millions."""
    if open_cells > MAX_CELLS:
        raise InputError(f"{source}: the board has {open_cells}{' or more' if so_far else ''} open cells; hidato "
                         f"takes at most {MAX_CELLS} (docs/hidato.md, Limits)")


def load(path: str | Path) -> Board:
    """Read a board file: JSON (rows of integers, or an object with `puzzle`) or the text form."""
    return parse(read_file(path), str(path))


def load_shape(path: str | Path) -> Board:
    """Read only the shape of a board file: its open cells, every number dropped."""
    rows = read_rows(read_file(path), str(path))
    shape = Board(tuple(tuple(BLOCKED if value == BLOCKED else EMPTY for value in row) for row in rows), str(path))
    if not shape.size:
        raise InputError(f"{path}: the shape has no open cells")
    return shape


def read_file(path: str | Path) -> str:
    """The text of a board file, or InputError naming it."""
    return files.read_text(path, "hidato file")


def parse(text: str, source: str = "board") -> Board:
    """A checked board from file contents."""
    return make_board(read_rows(text, source), source)


def read_rows(text: str, source: str) -> list[list[int]]:
    """Rows of integers from file contents; the format is told by the first character (`[`/`{`: JSON)."""
    stripped = text.lstrip()
    if not stripped:
        raise InputError(f"{source}: the file is empty")
    rows = parse_json(stripped, source) if stripped[0] in "[{" else parse_text(text, source)
    if not rows:
        raise InputError(f"{source}: no rows (only comments or blank lines)")
    return rows


def parse_json(text: str, source: str) -> list[list[int]]:
    """Rows of integers from JSON: a list of rows, or an object whose `puzzle` is one."""
    data = files.parse_json(text, source)
    if isinstance(data, dict):
        if "puzzle" not in data:
            raise InputError(f"{source}: a JSON object needs a 'puzzle' key holding rows of integers")
        data = data["puzzle"]
    if not isinstance(data, list) or not data:
        raise InputError(f"{source}: expected a non-empty list of rows")
    for r, row in enumerate(data, start=1):
        if not isinstance(row, list) or not all(type(value) is int for value in row):
            raise InputError(f"{source}: row {r} is not a list of integers")
    check_size(sum(value != BLOCKED for row in data for value in row), source)
    return data


def parse_text(text: str, source: str) -> list[list[int]]:
    """Rows from the text form: `__` or 0 empty, `.`/`XX`/-1 blocked, numbers given, `#` comments.

    Lines end with LF or CRLF only (files.plain_lines), and numbers are ASCII digits only: a full-width or
    Arabic-Indic digit, which int() would read, is refused naming what was read.
    """
    rows, open_cells = [], 0
    for line_number, line in enumerate(files.plain_lines(text, source).splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        rows.append([parse_token(token, source, line_number, column)
                     for column, token in enumerate(line.split(), start=1)])
        open_cells += sum(value != BLOCKED for value in rows[-1])
        check_size(open_cells, source, so_far=True)
    return rows


def parse_token(token: str, source: str, line: int, column: int) -> int:
    """One cell of the text form as an integer of the original encoding."""
    if _EMPTY_TOKEN.fullmatch(token):
        return EMPTY
    if token in _BLOCKED_TOKENS:
        return BLOCKED
    where = f"{source}: line {line}, cell {column}"
    if token.isascii() and token.isdigit():
        if len(token.lstrip("0")) > len(str(MAX_CELLS)):
            raise InputError(f"{where}: {files.excerpt(token)} is beyond any board (hidato takes at most "
                             f"{MAX_CELLS} cells)")
        return int(token)
    raise InputError(f"{where}: {files.excerpt(token)} is not a number (ASCII digits), "
                     "'__' (empty) or '.' (not part of the board)")


def to_text(rows: Sequence[Sequence[int]]) -> str:
    """Rows in the text form (`__` empty, `.` blocked), columns aligned: what `parse_text` reads."""
    largest = max((value for row in rows for value in row), default=1)
    width = max(2, len(str(largest)))
    symbols = {EMPTY: "_" * width, BLOCKED: "."}
    lines = [" ".join(symbols.get(value, str(value)).rjust(width) for value in row) for row in rows]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def broken_pairs(board: Board) -> list[list[int]]:
    """For a filled board, each pair [k, k+1] whose cells do not touch (empty when it is a solution)."""
    cell_of = dict(board.givens)
    return [[k, k + 1] for k in range(1, board.size)
            if cell_of[k + 1] not in board.neighbours[cell_of[k]]]


def require_filled(board: Board) -> None:
    """Raise InputError unless every open cell holds a number (for validation)."""
    for index in range(board.size):
        if not board.value(index):
            raise InputError(f"{board.source}: cannot validate, {board.where(index)} is empty")


def solves(board: Board, grid: Grid) -> bool:
    """True when `grid` is a solution of `board`: same shape, givens kept, 1..N on a king path."""
    if [len(row) for row in grid] != [len(row) for row in board.rows]:
        return False
    for (r, c), index in board.index.items():
        if board.value(index) and grid[r][c] != board.value(index):
            return False
    try:
        filled = make_board(grid, "solution")
    except InputError:
        return False
    return filled.cells == board.cells and filled.filled and not broken_pairs(filled)


Question = BoardQuestion  # solve (first, or count up to K) or validate one board
