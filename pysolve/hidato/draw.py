"""Hidato drawn the way it is printed: a box per open cell, givens and placed numbers inside."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from pysolve.hidato.model import BLOCKED

Rows = Sequence[Sequence[int]]
CELL = 40  # SVG pixels per cell
FILL = "#fdfbf3"  # an open cell's colour, also the halo that keeps the path's lines off its number
FONT = CELL * 2 // 5  # the numbers' size, smaller on a board whose widest number is too wide for it
ROOM = CELL - 12  # the width a number may take: 6 pixels clear of either border
DIGIT = 0.7  # a bold digit's width in sans-serif, as a fraction of the font size (DejaVu Sans Bold: 0.696)
CENTRED = 0.37  # half a digit's height, as a fraction of the font size: the baseline's drop below a cell's centre


def is_open(rows: Rows, r: int, c: int) -> bool:
    """True when (r, c) is on the board (inside its row and not blocked)."""
    return 0 <= r < len(rows) and 0 <= c < len(rows[r]) and rows[r][c] != BLOCKED


def text(rows: Rows) -> str:
    """The board as boxes of `+`, `-` and `|` around the open cells; empty cells left blank."""
    width = max(2, len(str(max((v for row in rows for v in row), default=1))))
    columns = max((len(row) for row in rows), default=0)
    lines = []
    for r in range(len(rows) + 1):
        lines.append(border_line(rows, r, columns, width))
        if r < len(rows):
            lines.append(cell_line(rows, r, columns, width))
    return "\n".join(line.rstrip() for line in lines)


def border_line(rows: Rows, r: int, columns: int, width: int) -> str:
    """The horizontal edges above row r (below the last row when r == len(rows))."""
    parts = []
    for c in range(columns + 1):
        corner = any(is_open(rows, rr, cc) for rr in (r - 1, r) for cc in (c - 1, c))
        parts.append("+" if corner else " ")
        if c < columns:
            edge = is_open(rows, r - 1, c) or is_open(rows, r, c)
            parts.append(("-" if edge else " ") * (width + 2))
    return "".join(parts)


def cell_line(rows: Rows, r: int, columns: int, width: int) -> str:
    """Row r's numbers between vertical edges."""
    parts = []
    for c in range(columns + 1):
        parts.append("|" if is_open(rows, r, c - 1) or is_open(rows, r, c) else " ")
        if c < columns:
            parts.append(cell_text(rows, r, c, width))
    return "".join(parts)


def cell_text(rows: Rows, r: int, c: int, width: int) -> str:
    """One cell's inside: its number, blank when empty, hatched when a hole between open cells."""
    if is_open(rows, r, c):
        return " " + (str(rows[r][c]) if rows[r][c] else "").rjust(width) + " "
    if (is_open(rows, r, c - 1) and is_open(rows, r, c + 1)) or (is_open(rows, r - 1, c) and is_open(rows, r + 1, c)):
        return "#" * (width + 2)
    return " " * (width + 2)


def svg(rows: Rows, puzzle: Rows | None = None) -> str:
    """An SVG picture: open cells as squares, givens (from `puzzle`) bold, placed numbers in blue, the path faint."""
    puzzle = puzzle or rows
    height, columns = len(rows), max(len(row) for row in rows)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{columns * CELL + 2}" height="{height * CELL + 2}" '
             f'viewBox="-1 -1 {columns * CELL + 2} {height * CELL + 2}" font-family="sans-serif">']
    centres = {}
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value == BLOCKED:
                continue
            parts.append(f'<rect x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}" '
                         f'fill="{FILL}" stroke="#333" stroke-width="1.5"/>')
            if value:
                centres[value] = (c * CELL + CELL // 2, r * CELL + CELL // 2)
    parts.append(path_line(centres))
    size = font_size(max(centres, default=1))  # one size for every number of the board, the widest's
    for value, (x, y) in sorted(centres.items()):
        given = is_given(puzzle, y // CELL, x // CELL)
        style = 'font-weight="bold" fill="#000"' if given else 'fill="#1f5fbf"'
        parts.append(f'<text x="{x}" y="{y + round(size * CENTRED)}" text-anchor="middle" font-size="{size}" '
                     f'stroke="{FILL}" stroke-width="4" stroke-linejoin="round" paint-order="stroke" {style}>'
                     f'{escape(str(value), quote=False)}</text>')
    parts.append("</svg>")
    return "\n".join(part for part in parts if part) + "\n"


def font_size(value: int) -> int:
    """The font size that fits `value` within ROOM: FONT up to two digits, smaller for three or more."""
    return min(FONT, int(ROOM / (DIGIT * len(str(value)))))


def is_given(puzzle: Rows, r: int, c: int) -> bool:
    """True when the puzzle shows a number at (r, c)."""
    return is_open(puzzle, r, c) and puzzle[r][c] > 0


def path_line(centres: dict[int, tuple[int, int]]) -> str:
    """A faint polyline through 1, 2, 3, ... while the numbers run without a gap."""
    points = []
    for number in range(1, len(centres) + 1):
        if number not in centres:
            break
        points.append("{},{}".format(*centres[number]))
    if len(points) < 2:
        return ""
    return (f'<polyline points="{" ".join(points)}" fill="none" stroke="#9cc3f0" '
            'stroke-width="4" stroke-linejoin="round" stroke-linecap="round"/>')
