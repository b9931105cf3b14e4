"""Sudoku boards: the two file formats, the box shapes, the units, and the checks every back end shares.

A board of side N (4, 6, 9 or 16) is kept as N*N integers in reading order,
0 for an empty cell and 1..N for a given; its boxes are BR rows by BC
columns (2x2, 2x3, 3x3, 4x4). A file holds either one grid (N lines of N
cells) or many puzzles, one line each (the common 81-character line);
`load` tells them apart and returns every board with the line it came from.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pysolve import files
from pysolve.boards.model import BoardQuestion
from pysolve.errors import InputError

BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}  # side -> (box rows, box columns)
LINE_LENGTHS = {size * size: size for size in BOXES}    # a one-line puzzle's length -> its side
SYMBOLS = "123456789ABCDEFG"                            # values 1..16 as one character each
EMPTY_MARKS = ".0"
RULE_CHARACTERS = set("-+=|: ")                         # a line of only these is a box rule in a grid
MAX_PUZZLES = 50_000  # one-line puzzles in a file at most, answered in turn (Royle's 17-clue set, some 49,000, fits)
UNITS = ("row", "column", "box")
Grid = list[list[int]]


@dataclass(frozen=True)
class Geometry:
    """The units of an N x N board: its rows, columns and boxes, and each cell's units and peers."""

    size: int

    @functools.cached_property
    def box(self) -> tuple[int, int]:
        """(rows, columns) of one box."""
        return BOXES[self.size]

    @functools.cached_property
    def units(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """(rows, columns, boxes), each a tuple of units, each unit a tuple of cell indexes."""
        n, (box_rows, box_cols) = self.size, self.box
        rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
        cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
        boxes = tuple(tuple((top + r) * n + left + c for r in range(box_rows) for c in range(box_cols))
                      for top in range(0, n, box_rows) for left in range(0, n, box_cols))
        return rows, cols, boxes

    def box_of(self, cell: int) -> int:
        """The index of the box holding `cell` (boxes numbered in reading order)."""
        (box_rows, box_cols), (r, c) = self.box, divmod(cell, self.size)
        return r // box_rows * (self.size // box_cols) + c // box_cols

    @functools.cached_property
    def all_units(self) -> tuple[tuple[int, ...], ...]:
        """Every unit, numbered: the rows, then the columns, then the boxes."""
        return tuple(unit for units in self.units for unit in units)

    @functools.cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the numbers (in `all_units`) of its row, column and box."""
        n = self.size
        return tuple((cell // n, n + cell % n, 2 * n + self.box_of(cell)) for cell in range(n * n))

    @functools.cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the other cells of its row, column and box."""
        rows, cols, boxes = self.units
        return tuple(tuple(sorted((set(rows[cell // self.size]) | set(cols[cell % self.size])
                                   | set(boxes[self.box_of(cell)])) - {cell}))
                     for cell in range(self.size * self.size))


@functools.cache
def geometry(size: int) -> Geometry:
    """The (shared) geometry of boards of side `size`."""
    return Geometry(size)


@dataclass(frozen=True)
class Board:
    """One puzzle: N*N values in reading order (0 empty), and where it was read from."""

    cells: tuple[int, ...]
    file: str = "board"
    line: int = 0                   # its line in a file of one-line puzzles (0: a grid file)
    row_lines: tuple[int, ...] = ()  # the file line of each row (for messages)
    index: int = 0                  # its place among a file's one-line puzzles, as --index K picks it (0: a grid file)

    @property
    def size(self) -> int:
        """N, the side of the board."""
        return round(len(self.cells) ** 0.5)

    @property
    def geometry(self) -> Geometry:
        """The board's rows, columns, boxes and peers."""
        return geometry(self.size)

    @property
    def givens(self) -> int:
        """How many cells are given."""
        return sum(1 for value in self.cells if value)

    def rows(self, cells: Sequence[int] | None = None) -> Grid:
        """The board as N rows of N integers; those of `cells` (a solution's, in reading order) when given."""
        n, values = self.size, self.cells if cells is None else cells
        return [list(values[r * n:(r + 1) * n]) for r in range(n)]

    def where(self, cell: int) -> str:
        """`file: line L` of the row holding `cell`, for messages."""
        row = cell // self.size
        line = self.row_lines[row] if self.row_lines else self.line
        return f"{self.file}: line {line}" if line else self.file


def place(cell: int, size: int) -> str:
    """A cell as 'row R column C' (1-based)."""
    r, c = divmod(cell, size)
    return f"row {r + 1} column {c + 1}"


def placement(cell: int, size: int, value: int) -> tuple[str, dict[str, int]]:
    """A search's choice of a value in a cell, as a trace says it.

    A search's choice `value` in `cell` as a trace says it (pysolve.trace): the label 'r3c4=7' and the move
    {"row": 3, "col": 4, "value": 7}, rows and columns from 1."""
    r, c = divmod(cell, size)
    return f"r{r + 1}c{c + 1}={value}", {"row": r + 1, "col": c + 1, "value": value}


def make_board(rows: Sequence[Sequence[int]], file: str = "board") -> Board:
    """A board from N rows of N integers (0 empty); InputError when the shape or a value is wrong."""
    size = len(rows)
    if size not in BOXES:
        raise InputError(f"{file}: {size} rows; a sudoku has 4, 6, 9 or 16")
    for r, row in enumerate(rows, start=1):
        if len(row) != size or not all(type(value) is int and 0 <= value <= size for value in row):
            raise InputError(f"{file}: row {r} is not {size} integers in 0..{size}")
    return Board(tuple(value for row in rows for value in row), file)


# --- reading files --------------------------------------------------------------------------------


def load(path: str | Path) -> list[Board]:
    """Every puzzle in a file: one grid, or one puzzle a line; InputError naming the file and line."""
    return parse(files.read_text(path, "sudoku file"), str(path))


def parse(text: str, file: str = "board") -> list[Board]:
    """The puzzles in a file's text.

    The puzzles in a file's text (see `load`); `#` lines and blank lines are skipped. A JSON object is
    what `pysolve generate sudoku --json` prints (`parse_generated`)."""
    if text.lstrip().startswith("{"):
        return [parse_generated(text, file)]
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise InputError(f"{file}: no puzzle (the file is empty or only comments)")
    if len(lines) > MAX_PUZZLES and one_line_puzzles(lines):  # counted before any is read
        raise InputError(f"{file}: {len(lines):,} puzzle lines; a file holds at most {MAX_PUZZLES:,} one-line "
                         "puzzles (docs/sudoku.md): split it")
    if one_line_puzzles(lines):
        return [replace(parse_line(line, file, number), index=index)
                for index, (number, line) in enumerate(lines, start=1)]
    return [parse_grid(lines, file)]


def parse_generated(text: str, file: str) -> Board:
    """The puzzle of `pysolve generate sudoku --json`'s output.

    The puzzle of `pysolve generate sudoku --json`'s output: a JSON object whose `puzzle` holds N rows of
    N integers (0 empty); InputError naming the file otherwise."""
    data = files.parse_json(text, file)
    rows = data.get("puzzle") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise InputError(f"{file}: a JSON object needs a 'puzzle' key holding rows of integers (what "
                         "`pysolve generate sudoku --json` prints)")
    return make_board(rows, file)


def one_line_puzzles(lines: list[tuple[int, str]]) -> bool:
    """True when the file holds one puzzle a line: its first line is one word of 16, 36, 81 or 256 characters.

    Sixteen lines of sixteen characters each are a 16x16 grid, not sixteen 4x4 puzzles.
    """
    first = lines[0][1]
    if len(first.split()) != 1 or len(first) not in LINE_LENGTHS:
        return False
    return not (len(first) == 16 and len(lines) == 16 and all(len(line) == 16 for _, line in lines))


def parse_line(line: str, file: str, number: int) -> Board:
    """One puzzle written on one line: N*N characters, `.` or `0` empty, 1-9 then A-G."""
    if len(line) not in LINE_LENGTHS:
        raise InputError(f"{file}: line {number}: {len(line)} characters; a puzzle line has 16, 36, 81 or 256 "
                         "(4x4, 6x6, 9x9, 16x16)")
    size = LINE_LENGTHS[len(line)]
    cells = tuple(value_of(char, size, f"{file}: line {number}, character {at}")
                  for at, char in enumerate(line, start=1))
    return Board(cells, file, number, (number,) * size)


def parse_grid(lines: list[tuple[int, str]], file: str) -> Board:
    """One puzzle written as N lines of N cells (spaces allowed, `|` and rule lines ignored)."""
    rows = [(number, cells_of(line)) for number, line in lines if not set(line) <= RULE_CHARACTERS]
    if not rows:
        raise InputError(f"{file}: no puzzle (only rule lines of {''.join(sorted(RULE_CHARACTERS))})")
    first_line, first = rows[0]
    size = len(first)
    if size not in BOXES:
        raise InputError(f"{file}: line {first_line}: {size} cells; a grid row has 4, 6, 9 or 16 "
                         "(or write the puzzle on one line of 16, 36, 81 or 256 characters)")
    for number, cells in rows:
        if len(cells) != size:
            raise InputError(f"{file}: line {number}: {len(cells)} cells; every row of this {size}x{size} grid "
                             f"has {size} (ragged rows)")
    if len(rows) != size:
        raise InputError(f"{file}: {len(rows)} rows of {size} cells; a {size}x{size} grid has {size} rows")
    values = tuple(value_of(cell, size, f"{file}: line {number}, cell {at}")
                   for number, cells in rows for at, cell in enumerate(cells, start=1))
    return Board(values, file, 0, tuple(number for number, _ in rows))


def cells_of(line: str) -> list[str]:
    """A grid row's cells: space-separated words when each is one cell (`10` in 16x16), else its characters."""
    words = line.replace("|", " ").split()
    if len(words) > 1 and all(is_cell_word(word) for word in words):
        return words
    return list("".join(words))


def is_cell_word(word: str) -> bool:
    """True when `word` can be one cell: one character, or a number 1..16."""
    return len(word) == 1 or (len(word) == 2 and word.isascii() and word.isdigit() and 1 <= int(word) <= 16)


def value_of(cell: str, size: int, where: str) -> int:
    """One cell's value: 0 for `.`/`0`, 1..N for a digit, a letter (16x16) or a number; InputError otherwise."""
    symbols = SYMBOLS[:size]
    if cell in EMPTY_MARKS:
        return 0
    if cell.isascii() and cell.isdigit():  # not '²', which is a digit to Python but no number to int()
        value = int(cell)
    elif len(cell) == 1 and cell.upper() in SYMBOLS:
        value = SYMBOLS.index(cell.upper()) + 1
    else:
        raise InputError(f"{where}: {files.excerpt(cell)} is not a value ({symbols[0]}-{symbols[-1]}) or '.'/'0' for "
                         "empty")
    if not 1 <= value <= size:
        raise InputError(f"{where}: {files.excerpt(cell)} is out of range for a {size}x{size} sudoku "
                         f"(values {symbols[0]}-{symbols[-1]})")
    return value


def symbol(value: int) -> str:
    """One cell as a character: `.` when empty, 1-9 then A-G."""
    return SYMBOLS[value - 1] if value else "."


def to_line(rows: Grid) -> str:
    """A grid as the one-line form: one character a cell, `.` for empty."""
    return "".join(symbol(value) for row in rows for value in row)


# --- the rules --------------------------------------------------------------------------------------


def repeats(board: Board) -> list[tuple[str, int, int, int, int]]:
    """Each value written twice in a unit: (unit kind, unit number 1-based, value, first cell, second cell).

    In the order rows, columns, boxes; within a unit by value.
    """
    repeated = []
    for kind, units in zip(UNITS, board.geometry.units):
        for number, unit in enumerate(units, start=1):
            cells_of_value: dict[int, list[int]] = {}
            for cell in unit:
                if board.cells[cell]:
                    cells_of_value.setdefault(board.cells[cell], []).append(cell)
            repeated += [(kind, number, value, cells[0], cells[1])
                         for value, cells in sorted(cells_of_value.items()) if len(cells) > 1]
    return repeated


def broken(board: Board) -> list[list[object]]:
    """The units a filled grid breaks, as [kind, number, value] (the value appears more than once)."""
    return [[kind, number, value] for kind, number, value, _, _ in repeats(board)]


def require_consistent(board: Board) -> None:
    """Raise InputError when a value is given twice in one row, column or box (an impossible board)."""
    repeated = repeats(board)
    if repeated:
        kind, number, value, first, second = repeated[0]
        raise InputError(f"{board.where(second)}: {symbol(value)} is given twice in {kind} {number} "
                         f"({place(first, board.size)} and {place(second, board.size)}): an impossible board")


def require_filled(board: Board) -> None:
    """Raise InputError unless every cell holds a value (for validation)."""
    for cell, value in enumerate(board.cells):
        if not value:
            raise InputError(f"{board.where(cell)}: cannot validate, {place(cell, board.size)} is empty")


def solves(board: Board, grid: Grid) -> bool:
    """True when `grid` is a solution of `board`: same side, givens kept, every unit holds 1..N once."""
    if len(grid) != board.size or any(len(row) != board.size for row in grid):
        return False
    values = [value for row in grid for value in row]
    if any(given and given != value for given, value in zip(board.cells, values)):
        return False
    full = set(range(1, board.size + 1))
    return all({values[cell] for cell in unit} == full for units in board.geometry.units for unit in units)


# --- questions and answers -----------------------------------------------------------------------------


Question = BoardQuestion  # solve (first, or count up to K) or validate one board
