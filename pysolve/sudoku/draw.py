"""Sudoku drawn as text (a grid file `model.parse` reads back) and as SVG (box rules thick, givens bold)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from pysolve.sudoku.model import BOXES, symbol

Rows = Sequence[Sequence[int]]
CELL = 36  # SVG pixels per cell


def text(rows: Rows) -> str:
    """The grid with `|` between boxes and a rule line between bands, empty cells as `.`."""
    size = len(rows)
    box_rows, box_cols = BOXES[size]
    lines = []
    for r, row in enumerate(rows):
        if r and r % box_rows == 0:
            lines.append("-+-".join("-" * (2 * box_cols - 1) for _ in range(size // box_cols)))
        groups = (" ".join(symbol(value) for value in row[c:c + box_cols]) for c in range(0, size, box_cols))
        lines.append(" | ".join(groups))
    return "\n".join(lines)


def svg(rows: Rows, puzzle: Rows) -> str:
    """An SVG picture of `rows`: givens (from `puzzle`) bold black, filled-in values blue."""
    size = len(rows)
    box_rows, box_cols = BOXES[size]
    side = size * CELL
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{side + 4}" height="{side + 4}" '
             f'viewBox="-2 -2 {side + 4} {side + 4}" font-family="sans-serif">',
             f'<rect x="0" y="0" width="{side}" height="{side}" fill="#fdfbf3"/>']
    for k in range(size + 1):
        for step, x1, y1, x2, y2 in ((box_cols, k * CELL, 0, k * CELL, side), (box_rows, 0, k * CELL, side, k * CELL)):
            width = 3 if k % step == 0 else 1
            parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#333" stroke-width="{width}"/>')
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if not value:
                continue
            style = 'font-weight="bold" fill="#000"' if puzzle[r][c] else 'fill="#1f5fbf"'
            parts.append(f'<text x="{c * CELL + CELL // 2}" y="{r * CELL + CELL // 2 + 7}" text-anchor="middle" '
                         f'font-size="{CELL // 2}" {style}>{escape(symbol(value), quote=False)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
